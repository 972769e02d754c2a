"""The JSON of every .docx tree (corpus and fixtures), written to a folder, to check that a
change to the .docx extractor leaves its output byte-identical.

    .venv/bin/python bench/docx_tree_digest.py OUT_DIR [--against OTHER_DIR] [--no-render]
                                               [--only NAME_PART ...]

Run it once on the code before the change (``PYTHONPATH=<checkout>`` puts another
checkout's package first) and once after, with ``--against`` the first folder: it prints
each file whose tree differs (and the first differing character) and exits 1 if any does.
With the render cache warm (``ARTIFACTCHECK_CACHE_DIR``) only the extraction runs, so
boxes and pages are compared too. The trees are ``Document.to_json(indent=None)`` with
the one field that names the code (the package version in ``tools``) left as it is: both
runs use the same installed version.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def docx_files() -> list[Path]:
    env = os.environ.get("ARTIFACTCHECK_CORPUS")
    corpus = Path(env) if env else REPO.parent / "shared" / "corpus"
    files = sorted((corpus / "docx").glob("*.docx")) if (corpus / "docx").is_dir() else []
    return files + sorted((REPO / "fixtures").rglob("*.docx"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path)
    ap.add_argument("--against", type=Path, help="a folder written by an earlier run")
    ap.add_argument("--no-render", action="store_true", help="trees without layout")
    ap.add_argument("--only", nargs="*", default=[], help="files whose name holds one of these")
    args = ap.parse_args()
    from artifactcheck import load
    from artifactcheck.errors import ArtifactCheckError

    args.out.mkdir(parents=True, exist_ok=True)
    files = [f for f in docx_files() if not args.only or any(o in f.name for o in args.only)]
    differ = 0
    for path in files:
        name = f"{path.parent.name}__{path.stem}.json"
        try:
            text = load(path, render=not args.no_render).to_json(indent=None)
        except ArtifactCheckError as exc:  # an error is an output too: it must not change
            text = f"ERROR {type(exc).__name__}: {exc}"
        (args.out / name).write_text(text, encoding="utf-8")
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        verdict = ""
        if args.against is not None:
            old_file = args.against / name
            old = old_file.read_text(encoding="utf-8") if old_file.is_file() else None
            if old != text:
                differ += 1
                at = next((i for i, (a, b) in enumerate(zip(old or "", text)) if a != b),
                          min(len(old or ""), len(text)))
                verdict = f" DIFFERS at char {at}: {text[max(0, at - 60):at + 60]!r}"
            else:
                verdict = " same"
        print(f"{digest} {len(text):>9} {name}{verdict}", flush=True)
    if args.against is not None:
        print(f"{len(files)} files, {differ} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
