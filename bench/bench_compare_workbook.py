"""Benchmark: comparing a workbook with its gold twin against extracting both.

    .venv/bin/python bench/bench_compare_workbook.py [--cells 10000] [--repeat 5]

Two workbooks of N cells (10 columns of text and numbers, a bold filled header, built
with openpyxl; the twin is built the same way into another file, one value changed so
the comparison has a difference to locate). Interleaved, ``--repeat`` times, CPU seconds:

- extract: ``load(gold)`` + ``load(artifact)``;
- compare: ``load(artifact)`` + ``compare_workbook`` against the gold file, the reference
  cache emptied first, so it includes reading the gold (the whole cost an evaluator pays);
  run with the defaults (sheet names + values) and with every cell aspect (values,
  number formats, styles, merges, dimensions, hidden);
- the comparison alone: ``compare_workbook`` on two Documents already loaded.

Target: compare <= 2x extract, i.e. the comparison itself costs no more than extracting.
Prints medians and the ratios.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill

from artifactcheck import load, run_check
from artifactcheck.checks.compare import reference
from artifactcheck.checks.registry import Resources

COLS = 10
EVERY: dict[str, Any] = {"number_formats": True, "styles": True, "merges": True, "dimensions": True, "hidden": True}


def build(path: Path, cells: int, *, changed: bool) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Data"
    ws.append([f"Header {c}" for c in range(COLS)])
    for cell in ws[1]:
        cell.font = Font(bold=True)
        cell.fill = PatternFill("solid", start_color="DDEBF7", end_color="DDEBF7")
    for r in range(1, max(2, cells // COLS)):
        ws.append([f"item {r % 50}-{c}" if c % 2 == 0 else r * 7 + c + 0.25 for c in range(COLS)])
    if changed:
        ws["D10"] = -1
    ws.freeze_panes = "A2"
    wb.save(path)


def cpu(fn: Callable[[], object]) -> float:
    gc.collect()
    start = time.process_time()
    fn()
    return time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=10_000)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        gold, art = folder / "gold.xlsx", folder / "artifact.xlsx"
        build(gold, args.cells, changed=False)
        build(art, args.cells, changed=True)
        res = Resources(assets_dir=str(folder))

        def extract_both() -> None:
            load(gold)
            load(art)

        def compare(params: dict[str, Any]) -> Callable[[], None]:
            def run() -> None:
                reference._cache.clear()
                r = run_check("compare_workbook", load(art), {"reference": "gold.xlsx", **params}, res)
                assert r.status == "fail" and r.evidence["differences"][0]["location"] == "Data!D10", r.explanation

            return run

        loaded_art = load(art)

        def compare_only(params: dict[str, Any]) -> Callable[[], None]:
            def run() -> None:
                # the loaded gold under the key reference.py gives it, so the check does not
                # read the file; a fresh artifact Document, since derived indexes (cells by
                # position) are built once per Document and belong to the comparison
                reference._cache.clear()
                path = gold.resolve()
                st = path.stat()
                reference._cache[(str(path), st.st_size, st.st_mtime_ns, ())] = load(gold)
                doc = load(art)
                gc.collect()  # the two loads' garbage is extraction's, not the comparison's
                start = time.process_time()
                run_check("compare_workbook", doc, {"reference": "gold.xlsx", **params}, res)
                timings.append(time.process_time() - start)

            return run

        runs: dict[str, list[float]] = {"extract both": [], "compare (defaults)": [], "compare (every cell aspect)": []}
        alone: dict[str, list[float]] = {"defaults": [], "every cell aspect": []}
        timings: list[float] = []
        compare(EVERY)()  # warm imports and the font measurer once
        for _ in range(args.repeat):
            runs["extract both"].append(cpu(extract_both))
            runs["compare (defaults)"].append(cpu(compare({})))
            runs["compare (every cell aspect)"].append(cpu(compare(EVERY)))
            for name, params in (("defaults", {}), ("every cell aspect", EVERY)):
                timings.clear()
                compare_only(params)()
                alone[name].append(timings[0])
        base = statistics.median(runs["extract both"])
        cells = loaded_art.root.children[0].attrs.get("used_range")
        print(f"{args.cells} cells per workbook ({cells}), median CPU seconds of {args.repeat} interleaved runs")
        for name, times in runs.items():
            m = statistics.median(times)
            print(f"  {name:<30} {m:8.3f} s   {m / base:5.2f}x extract both")
        for name, times in alone.items():
            m = statistics.median(times)
            label = f"comparison alone ({name})"
            print(f"  {label:<30} {m:8.3f} s   {m / base:5.2f}x extract both")


if __name__ == "__main__":
    main()
