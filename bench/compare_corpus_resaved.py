"""Every corpus document and deck compared with itself re-saved by python-docx /
python-pptx, every aspect on: the verdict (a re-save changes nothing a reader sees, so
anything but ``pass`` is a bug in the comparison or in extraction), items compared, and
the cost of the comparison beside the cost of loading the gold file, measured in one run.

    .venv/bin/python bench/compare_corpus_resaved.py [docx|pptx ...] [--corpus DIR]

Times: ``load`` = loading the gold file without rendering; ``compare`` = the check once
the gold file is cached; ``ratio`` = compare / load. Numbers in design/compare.md.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import docx
import pptx

from artifactcheck import load
from artifactcheck.checks.compare.reference import load_reference_document
from artifactcheck.checks.registry import Resources, run_check

EVERY = {
    "docx": ("compare_document", ["text", "structure", "tables", "images", "runs", "paragraphs", "page_setup"]),
    "pptx": ("compare_deck", ["slides", "shapes", "text", "tables", "charts", "images", "geometry", "formatting",
                              "notes", "background", "transitions"]),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kinds", nargs="*", default=["docx", "pptx"])
    parser.add_argument("--corpus", default="/work/shared/corpus")
    args = parser.parse_args()
    for kind in args.kinds:
        check, aspects = EVERY[kind]
        passed = total = 0
        for path in sorted(Path(args.corpus, kind).glob(f"*.{kind}")):
            with tempfile.TemporaryDirectory() as tmp:
                folder = Path(tmp)
                shutil.copy(path, folder / f"gold.{kind}")
                try:
                    (docx.Document if kind == "docx" else pptx.Presentation)(str(path)).save(str(folder / f"re.{kind}"))
                    artifact = load(folder / f"re.{kind}", render=False)
                except Exception as exc:  # noqa: BLE001 - a file python-docx/pptx cannot re-save is listed, not fatal
                    print(f"skip  {path.name}: cannot be re-saved ({type(exc).__name__})")
                    continue
                resources = Resources(assets_dir=str(folder))
                started = time.perf_counter()
                load_reference_document(f"gold.{kind}", resources, render=False)
                loaded = time.perf_counter() - started
                started = time.perf_counter()
                result = run_check(check, artifact, {"reference": f"gold.{kind}", "aspects": aspects}, resources)
                compared = time.perf_counter() - started
            total += 1
            passed += result.status == "pass"
            detail = "" if result.status == "pass" else f"  {result.explanation[:160]}"
            print(
                f"{result.status:5} {path.name}: {result.evidence.get('compared')} items, load {loaded:.2f} s, "
                f"compare {compared:.2f} s, ratio {compared / max(loaded, 1e-9):.2f}{detail}"
            )
        print(f"== {kind}: {passed} of {total} pass")


if __name__ == "__main__":
    main()
