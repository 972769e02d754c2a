"""Print, for every .docx of the corpus, the share of text characters that got a box.

    .venv/bin/python scripts/docx_box_coverage.py [FOLDER] [--only NAME ...]

"Text characters" are the non-whitespace characters (after the alignment's NFKC /
case folding) of every run that is meant to be printed: body, tables, text boxes,
footnotes/endnotes and the headers/footers shown on some page; hidden text, tracked
deletions and comments are excluded. A character counts when the alignment matched it
to a rendered PDF character. Renders go through the render cache, so a second run is fast.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from artifactcheck.errors import ArtifactCheckError
from artifactcheck.extractors.docx.extract import extract_docx


def _default_folder() -> Path:
    """``$ARTIFACTCHECK_CORPUS/docx``, else ``shared/corpus/docx`` beside the repository or
    beside its parent (a worktree under ``wt/``)."""
    env = os.environ.get("ARTIFACTCHECK_CORPUS")
    candidates = [Path(env) / "docx"] if env else []
    candidates += [base / "shared" / "corpus" / "docx" for base in (REPO.parent, REPO.parent.parent)]
    return next((c for c in candidates if c.is_dir()), candidates[-1])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(_default_folder()))
    ap.add_argument("--only", nargs="*", default=None, help="file names to include")
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    files = sorted(Path(args.folder).glob("*.docx"))
    if args.only:
        files = [f for f in files if f.name in set(args.only)]
    total_keys = total_matched = 0
    print(f"{'file':48s} {'pages':>5s} {'chars':>8s} {'boxed':>8s} {'share':>8s} {'seconds':>8s}")
    for f in files:
        t0 = time.perf_counter()
        try:
            doc = extract_docx(f, timeout=args.timeout)
        except ArtifactCheckError as exc:
            print(f"{f.name:48s} ERROR {exc}")
            continue
        dt = time.perf_counter() - t0
        keys = int(doc.root.attrs.get("layout_key_chars") or 0)  # type: ignore[arg-type]
        matched = int(doc.root.attrs.get("layout_matched_chars") or 0)  # type: ignore[arg-type]
        total_keys += keys
        total_matched += matched
        share = matched / keys if keys else 1.0
        print(
            f"{f.name:48s} {len(doc.pages):5d} {keys:8d} {matched:8d} {share:8.2%} {dt:8.1f}",
            flush=True,
        )
    if total_keys:
        print(
            f"{'ALL':48s} {'':5s} {total_keys:8d} {total_matched:8d} {total_matched / total_keys:8.2%}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
