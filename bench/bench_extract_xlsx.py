"""Benchmark: .xlsx extraction vs the bare openpyxl load of the same file.

    .venv/bin/python bench/bench_extract_xlsx.py [--sizes 1000 10000 100000] [--repeat 3]

For sheets of N cells (generated with openpyxl: 10 columns, a mix of strings, integers,
decimals with a number format, and dates), prints CPU time and peak traced memory of

- bare: ``openpyxl.load_workbook(path)`` and iterating every cell value;
- tree: ``artifactcheck.extractors.xlsx.extract_xlsx(path)`` (the full tree with boxes,
  styles, displayed text and overflow measured with real font metrics);

side by side in one run, with their ratio and the cost per cell (linear growth shows as a
flat per-cell column). Times are the minimum of ``--repeat`` runs of process CPU time (the
machine is shared; wall time is noisy); memory is measured in a separate run with
tracemalloc. Target: tree <= 2x bare.
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


def cpu_time(fn: Callable[[Path], int], path: Path, repeat: int) -> tuple[float, int]:
    best = float("inf")
    n = 0
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        n = fn(path)
        best = min(best, time.process_time() - t)
    return best, n


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
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    print(f"{'cells':>8} | {'bare s':>7} {'tree s':>7} {'ratio':>5} | {'bare us/cell':>12} {'tree us/cell':>12} |"
          f" {'bare MiB':>8} {'tree MiB':>8} {'ratio':>5}")
    with tempfile.TemporaryDirectory(prefix="ac-bench-xlsx-") as tmp:
        for size in args.sizes:
            path = Path(tmp) / f"sheet_{size}.xlsx"
            build(path, size)
            tree(path)  # warm caches (fonts, lazy imports) before timing either side
            tb, nb = cpu_time(bare, path, args.repeat)
            tt, nt = cpu_time(tree, path, args.repeat)
            mb, mt = peak_mib(bare, path), peak_mib(tree, path)
            print(f"{nt:>8} | {tb:>7.3f} {tt:>7.3f} {tt / tb:>5.2f} | {tb / nb * 1e6:>12.1f} {tt / nt * 1e6:>12.1f} |"
                  f" {mb:>8.1f} {mt:>8.1f} {mt / mb:>5.2f}")


if __name__ == "__main__":
    main()
