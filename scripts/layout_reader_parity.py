"""Check that read_layout's three ways of asking pdfium about each character give exactly
the same layout, on real renders: the compiled loop (``_pdfium_loops``, when built), the
ctypes loop with the sampled text-object lookup, and the ctypes loop asking every
character.

    .venv/bin/python scripts/layout_reader_parity.py [FILE_OR_FOLDER ...]

Default inputs: the shared corpus's docx/pptx/xlsx folders ($ARTIFACTCHECK_CORPUS or
../shared/corpus) and the repository's fixtures (.docx/.pptx/.xlsx rendered through the
render cache, .pdf read as they are). Per file: the layout read with the C loop, with
the ctypes loop as shipped (sampling), and with ``_object_addresses_sparse`` switched off
(every character asked), compared on text, every column, every ``PdfChar`` tuple (font,
size, mcid) and the images; and how many pages took the sampled path. Exits 1 when any
file differs, 2 when the C loop is not built (nothing to compare it with).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from artifactcheck.errors import ArtifactCheckError
from artifactcheck.extractors.render import layout as layout_mod
from artifactcheck.extractors.render import read_layout, render_pdf

SUFFIXES = {".docx", ".pptx", ".xlsx", ".pdf"}
COLUMNS = ("page", "x0", "top", "x1", "bottom", "generated", "newline", "line")


def default_inputs() -> list[Path]:
    env = os.environ.get("ARTIFACTCHECK_CORPUS")
    corpus = Path(env) if env else REPO.parent / "shared" / "corpus"
    if not corpus.is_dir():
        corpus = REPO.parents[1] / "shared" / "corpus"
    roots = [corpus / k for k in ("docx", "pptx", "xlsx")] + [REPO / "fixtures"]
    return [p for r in roots if r.is_dir() for p in sorted(r.rglob("*")) if p.suffix in SUFFIXES]


def main() -> int:
    args = [Path(a) for a in sys.argv[1:]]
    files = [p for a in args for p in (sorted(a.rglob("*")) if a.is_dir() else [a]) if p.suffix in SUFFIXES]
    files = files or default_inputs()
    native = layout_mod._NATIVE
    if native is None:
        print("the C loop (_pdfium_loops) is not built: pip install -e . with a C compiler")
        return 2
    sparse_fn = layout_mod._object_addresses_sparse
    calls = {"sampled": 0, "asked": 0}

    def counting(tp_arg: int, d_list: list[int]):  # type: ignore[no-untyped-def]
        out = sparse_fn(tp_arg, d_list)
        calls["sampled" if out is not None else "asked"] += 1
        return out

    def read_ctypes(pdf: Path, sparse):  # type: ignore[no-untyped-def]
        layout_mod._NATIVE, layout_mod._object_addresses_sparse = None, sparse
        try:
            return read_layout(pdf)
        finally:
            layout_mod._NATIVE, layout_mod._object_addresses_sparse = native, sparse_fn

    bad = 0
    total_pages = total_chars = 0
    for path in files:
        try:
            pdf = path if path.suffix == ".pdf" else render_pdf(path).pdf_path
        except ArtifactCheckError as exc:
            print(f"skip {path.name}: {exc}")
            continue
        calls.update(sampled=0, asked=0)
        new = read_layout(pdf)
        diffs = []
        for label, old in (
            ("sampled", read_ctypes(pdf, counting)),
            ("asked", read_ctypes(pdf, lambda tp_arg, d_list: None)),
        ):
            diffs += [f"{label}:{name}" for name in COLUMNS if getattr(new.columns, name).tolist() != getattr(old.columns, name).tolist()]
            diffs += [f"{label}:{what}" for what in ("text", "chars", "images") if getattr(new, what) != getattr(old, what)]
        total_pages += len(new.pages)
        total_chars += len(new.text)
        status = "DIFF " + ",".join(diffs) if diffs else "same"
        bad += bool(diffs)
        print(f"{status:>6} {path.name}: {len(new.pages)} pages, {len(new.text)} chars, "
              f"sampled {calls['sampled']} pages, asked per character {calls['asked']}")
    print(f"{len(files)} files, {total_pages} pages, {total_chars} characters; {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
