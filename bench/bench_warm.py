"""Warm LibreOffice pool against the cold path, side by side in one run.

    .venv/bin/python bench/bench_warm.py [--repeat 5] [--corpus ../shared/corpus/docx] [--skip-batch]

1. One small .docx (fixtures/render/known_layout.docx, 2 pages) converted ``repeat`` times
   cold and warm, interleaved; min and median per path; target: warm >= 4x faster.
2. ``artifactcheck batch -j 1`` over every corpus .docx (one rubric for all rows), run as
   the CLI in a fresh process with an empty cache directory each time, ``--renderer cold``
   (what every batch did before the pool) against the default (a warm pool for the batch);
   target: >= 2.5x faster. With ``--before DIR`` (a checkout of the package as it was when
   the target was set, e.g. ``git archive fb14d5a artifactcheck | tar -x -C DIR``) the
   same batch also runs on that code first, so "faster than before" is measured in the
   same run rather than against a number from another day.
"""

from __future__ import annotations

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from artifactcheck.extractors.render.pool import PoolSettings
from artifactcheck.extractors.render.renderer import LibreOfficeRenderer
from artifactcheck.extractors.render.warm import WarmRenderer

REPO = Path(__file__).resolve().parents[1]
SMALL = REPO / "fixtures" / "render" / "known_layout.docx"
RUBRIC = REPO / "fixtures" / "tasks" / "lesson_plan" / "rubric.yaml"


def small_file(repeat: int) -> None:
    cold = LibreOfficeRenderer()
    out = Path(tempfile.mkdtemp(prefix="bench-warm-"))
    cold.convert(SMALL, out, timeout=120)  # profile template and version cache exist from here on
    cold_s: list[float] = []
    warm_s: list[float] = []
    started = time.monotonic()
    with WarmRenderer.start(PoolSettings(size=1)) as warm:
        start_s = time.monotonic() - started
        for _ in range(repeat):
            t = time.monotonic()
            cold.convert(SMALL, out / "c", timeout=120)
            cold_s.append(time.monotonic() - t)
            t = time.monotonic()
            warm.convert(SMALL, out / "w", timeout=120)
            warm_s.append(time.monotonic() - t)
    print(f"small .docx ({SMALL.name}), {repeat} conversions each, pool start {start_s:.2f} s")
    print(f"  cold  min {min(cold_s):.3f} s  median {statistics.median(cold_s):.3f} s")
    print(f"  warm  min {min(warm_s):.3f} s  median {statistics.median(warm_s):.3f} s")
    print(f"  warm is {statistics.median(cold_s) / statistics.median(warm_s):.1f}x faster (median; target >= 4x)")


def batch(corpus: Path, before: Path | None = None) -> None:
    files = sorted(corpus.glob("*.docx"))
    work = Path(tempfile.mkdtemp(prefix="bench-warm-batch-"))
    manifest = work / "manifest.csv"
    with open(manifest, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["task", "run", "artifact", "rubric"])
        for f in files:
            writer.writerow(["corpus", f.stem, str(f), str(RUBRIC)])
    timings = {}
    runs: list[tuple[str, list[str], Path | None]] = [
        ("cold (before)", ["--renderer", "cold"], None), ("default (warm pool)", [], None)
    ]
    if before is not None:
        runs.insert(0, (f"code at {before.name}", [], before))
    for label, args, code in runs:
        cache = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
        env = dict(os.environ, ARTIFACTCHECK_CACHE_DIR=str(cache))
        env.pop("ARTIFACTCHECK_RENDERER", None)
        if code is not None:  # that package first on the path, ahead of the installed one
            env["PYTHONPATH"] = str(code)
        started = time.monotonic()
        proc = subprocess.run(
            [sys.executable, "-m", "artifactcheck.cli", "batch", str(manifest), "-j", "1", "--force",
             "--out", str(work / f"out-{len(timings)}"), *args],
            env=env, capture_output=True, text=True, check=False, cwd=work,  # not the repo: -m puts the cwd first on sys.path
        )
        timings[label] = time.monotonic() - started
        tail = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
        print(f"batch -j 1, {len(files)} .docx, empty cache, {label}: {timings[label]:.1f} s "
              f"({timings[label] / len(files):.2f} s/file); exit {proc.returncode}: {tail}")
    *earlier, cold_s, warm_s = timings.values()
    print(f"  batch is {cold_s / warm_s:.2f}x faster with the warm pool than cold now (target >= 2.5x)")
    if earlier:
        print(f"  batch is {earlier[0] / warm_s:.2f}x faster than the code at {before.name if before else ''} (target >= 2.5x)")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus" / "docx")
    parser.add_argument("--skip-batch", action="store_true")
    parser.add_argument("--skip-small", action="store_true")
    parser.add_argument("--before", type=Path, help="the package as it was (a folder holding artifactcheck/)")
    args = parser.parse_args()
    if not args.skip_small:
        small_file(args.repeat)
    if not args.skip_batch and args.corpus.is_dir():
        batch(args.corpus, args.before)


if __name__ == "__main__":
    main()
