"""Print, for every .pptx of the corpus, the share of paragraphs whose drawn box was found.

    .venv/bin/python scripts/pptx_box_coverage.py [FOLDER ...] [--only NAME ...] [--missing]

A paragraph counts when it has visible text on a slide that LibreOffice rendered (hidden
slides are left out of the render) and at least half of its characters (after the
alignment's NFKC / case folding, whitespace dropped) were matched to rendered PDF
characters, so its ``layout`` box is where its text is drawn. Characters are counted too.
``--missing`` lists, per slide, the rendered text no paragraph claimed (what the tree
lacks or failed to align). Default folders: the corpus decks and the peers' test decks.
Renders go through the render cache, so a second run is fast.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from artifactcheck.errors import ArtifactCheckError
from artifactcheck.extractors.pptx.extract import extract_pptx

CORPUS = REPO.parent / "shared" / "corpus"
FOLDERS = [CORPUS / "pptx", CORPUS / "peers" / "pptx", CORPUS / "peers" / "docling" / "pptx"]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="*", default=[str(f) for f in FOLDERS])
    ap.add_argument("--only", nargs="*", default=None, help="file names to include")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--missing", action="store_true", help="list the paragraphs whose drawn box was not found")
    args = ap.parse_args()
    files = sorted(f for d in args.folders for f in Path(d).glob("*.ppt[xm]"))
    if args.only:
        files = [f for f in files if f.name in set(args.only)]
    tot_p = tot_pb = tot_k = tot_m = 0
    print(f"{'file':48s} {'slides':>6s} {'paras':>6s} {'boxed':>6s} {'share':>8s} {'chars':>7s} {'matched':>8s} {'seconds':>8s}")
    for f in files:
        t0 = time.perf_counter()
        try:
            doc = extract_pptx(f, timeout=args.timeout)
            doc.ensure_layout()
        except ArtifactCheckError as exc:
            print(f"{f.parent.name + '/' + f.name:48s} ERROR {exc}")
            continue
        dt = time.perf_counter() - t0
        a = doc.root.attrs
        paras, boxed = int(a.get("layout_paragraphs") or 0), int(a.get("layout_paragraphs_boxed") or 0)  # type: ignore[arg-type]
        keys, matched = int(a.get("layout_key_chars") or 0), int(a.get("layout_matched_chars") or 0)  # type: ignore[arg-type]
        tot_p, tot_pb, tot_k, tot_m = tot_p + paras, tot_pb + boxed, tot_k + keys, tot_m + matched
        share = boxed / paras if paras else 1.0
        name = f.parent.name + "/" + f.name
        print(f"{name:48s} {len(doc.pages):6d} {paras:6d} {boxed:6d} {share:8.2%} {keys:7d} {matched:8d} {dt:8.1f}", flush=True)
        for w in doc.warnings:
            if "render" in w or "rendered" in w:
                print(f"    warning: {w}")
        if args.missing:
            _print_unclaimed(doc, f)
    if tot_p:
        print(f"{'ALL':48s} {'':6s} {tot_p:6d} {tot_pb:6d} {tot_pb / tot_p:8.2%} {tot_k:7d} {tot_m:8d}")
    return 0


def _print_unclaimed(doc: object, path: Path) -> None:
    """Paragraphs not boxed, by slide."""
    from artifactcheck.model import Document

    assert isinstance(doc, Document)
    for para in doc.iter("paragraph"):
        match = para.attrs.get("layout_match")
        if match is not None and float(match) < 0.5:  # type: ignore[arg-type]
            print(f"    not found: {para.id} {match} {para.text[:70]!r}")


if __name__ == "__main__":
    raise SystemExit(main())
