"""Benchmark: .xlsx extraction vs the bare openpyxl load of the same file.

    .venv/bin/python bench/bench_extract_xlsx.py [--sizes 1000 10000 100000 300000] [--repeat 3]

For sheets of N cells (generated with openpyxl: 10 columns, a mix of strings, integers,
decimals with a number format, and dates), prints CPU time and peak traced memory of

- bare: ``openpyxl.load_workbook(path)`` and iterating every cell value;
- tree: ``artifactcheck.extractors.xlsx.extract_xlsx(path)`` (the full tree with boxes,
  styles, displayed text and overflow measured with real font metrics) and iterating its
  cells (which also pays the collector's first pass over the new tree);

side by side in one run, with their ratio and the cost per cell, then how the cost per
cell grows from the smallest size of 100k cells or more to the largest (1.00: linear).
Times are the minimum of ``--repeat`` rounds of process CPU time, each round timing every
size and both sides in turn (the machine is shared: load drifts, and interleaving spreads
it over all columns); memory is measured in a separate run with tracemalloc, by default
only up to 100k cells (``--memory-up-to``).
Target: tree <= 2x bare in memory.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import openpyxl
from openpyxl import Workbook

from artifactcheck.extractors.xlsx.extract import extract_xlsx

COLS = 10


def build(path: Path, cells: int) -> None:
    wb = Workbook(write_only=True)
    ws = wb.create_sheet("Data")
    rows = max(1, cells // COLS)
    ws.append([f"Header {c}" for c in range(COLS)])
    base = dt.date(2024, 1, 1)
    for r in range(1, rows):
        row: list[object] = []
        for c in range(COLS):
            k = c % 4
            if k == 0:
                row.append(f"item {r}-{c}")
            elif k == 1:
                row.append(r * 7 + c)
            elif k == 2:
                row.append(r / 7.0)
            else:
                row.append(base + dt.timedelta(days=r % 365))
        ws.append(row)
    wb.save(path)


def bare(path: Path) -> int:
    wb = openpyxl.load_workbook(path)
    n = 0
    for ws in wb.worksheets:
        for row in ws.iter_rows(values_only=True):
            for v in row:
                if v is not None:
                    n += 1
    return n


def tree(path: Path) -> int:
    return sum(1 for _ in extract_xlsx(path).iter("cell"))


def cpu_time(fn: Callable[[Path], int], path: Path) -> tuple[float, int]:
    gc.collect()  # the previous tree's cycles are freed here, not in the timed call
    t = time.process_time()
    n = fn(path)
    return time.process_time() - t, n


def peak_mib(fn: Callable[[Path], int], path: Path) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        fn(path)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000, 300_000])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--memory-up-to", type=int, default=100_000,
                    help="measure peak memory for sizes up to this many cells (tracemalloc slows openpyxl "
                    "~5x: the 300k memory runs alone take minutes)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ac-bench-xlsx-") as tmp:
        paths = {size: Path(tmp) / f"sheet_{size}.xlsx" for size in args.sizes}
        for size, path in paths.items():
            build(path, size)
        tree(paths[args.sizes[0]])  # warm caches (fonts, lazy imports) before timing either side
        best: dict[tuple[str, int], float] = {}
        counts: dict[tuple[str, int], int] = {}
        for _ in range(args.repeat):
            for size, path in paths.items():
                for side, fn in (("bare", bare), ("tree", tree)):
                    took, counts[(side, size)] = cpu_time(fn, path)
                    best[(side, size)] = min(best.get((side, size), float("inf")), took)
        print(f"{'cells':>8} | {'bare s':>7} {'tree s':>7} {'ratio':>5} | {'bare us/cell':>12} {'tree us/cell':>12} |"
              f" {'bare MiB':>8} {'tree MiB':>8} {'ratio':>5}")
        per_cell: dict[tuple[str, int], float] = {}
        for size, path in paths.items():
            tb, tt = best[("bare", size)], best[("tree", size)]
            nb, nt = counts[("bare", size)], counts[("tree", size)]
            per_cell[("bare", size)], per_cell[("tree", size)] = tb / nb * 1e6, tt / nt * 1e6
            memory = "        -        -     -"
            if size <= args.memory_up_to:
                mb, mt = peak_mib(bare, path), peak_mib(tree, path)
                memory = f" {mb:>8.1f} {mt:>8.1f} {mt / mb:>5.2f}"
            print(f"{nt:>8} | {tb:>7.3f} {tt:>7.3f} {tt / tb:>5.2f} | {tb / nb * 1e6:>12.1f} {tt / nt * 1e6:>12.1f} |"
                  + memory)
        big = [size for size in args.sizes if size >= 100_000]
        if len(big) >= 2:
            lo, hi = min(big), max(big)
            print(f"us/cell {lo} -> {hi}: bare {per_cell[('bare', lo)]:.1f} -> {per_cell[('bare', hi)]:.1f}"
                  f" ({per_cell[('bare', hi)] / per_cell[('bare', lo)]:.2f}x), tree {per_cell[('tree', lo)]:.1f}"
                  f" -> {per_cell[('tree', hi)]:.1f} ({per_cell[('tree', hi)] / per_cell[('tree', lo)]:.2f}x)")


if __name__ == "__main__":
    main()
