"""Benchmark: what conditional formatting evaluation and formula recalculation cost.

    .venv/bin/python bench/bench_xlsx_display.py [--sizes 1000 10000 100000] [--repeat 3]

Conditional formatting: for sheets of N cells (10 columns, built with openpyxl) the same
workbook is extracted without rules and with five typical rules over the data (a
``cellIs`` on a number column, an ``expression`` ``$A2="..."`` over every column, a
three-stop colour scale, a top-10 and a duplicate-values rule), side by side, in CPU
seconds (best of ``--repeat``); the extra cost per cell-rule evaluation is printed.

Recalculation: for workbooks of N formula rows written by openpyxl (no cached values),
wall-clock seconds of

- ``recalculate=False``: extraction alone (formulas left ``value_unknown``);
- cold: extraction with LibreOffice recalculating (a fresh cache);
- warm: the same again (the recalculated copy served from the cache);
- bare ``soffice --convert-to xlsx`` of the same file, for reference.
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openpyxl import Workbook
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, FormulaRule, Rule
from openpyxl.styles import PatternFill
from openpyxl.styles.differential import DifferentialStyle

from artifactcheck.extractors.render.renderer import find_soffice
from artifactcheck.extractors.xlsx.extract import extract_xlsx

COLS = 10


def build(path: Path, cells: int, *, rules: bool) -> int:
    """A sheet of ``cells`` cells; with ``rules``, five rules; returns cell-rule pairs."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    rows = max(2, cells // COLS)
    ws.append([f"Header {c}" for c in range(COLS)])
    for r in range(1, rows):
        ws.append([f"item {r % 50}-{c}" if c % 2 == 0 else r * 7 + c for c in range(COLS)])
    if not rules:
        wb.save(path)
        return 0
    last = rows
    red = PatternFill(bgColor="FFFF0000", fill_type="solid")
    cf = ws.conditional_formatting
    cf.add(f"B2:B{last}", CellIsRule(operator="greaterThan", formula=["1000"], fill=red))
    cf.add(f"A2:J{last}", FormulaRule(formula=['$A2="item 7-0"'], fill=red))
    cf.add(f"D2:D{last}", ColorScaleRule(start_type="min", start_color="FFF8696B", mid_type="percentile",
                                          mid_value=50, mid_color="FFFFEB84", end_type="max", end_color="FF63BE7B"))
    cf.add(f"F2:F{last}", Rule(type="top10", rank=10, dxf=DifferentialStyle(fill=red)))
    cf.add(f"C2:C{last}", Rule(type="duplicateValues", dxf=DifferentialStyle(fill=red)))
    wb.save(path)
    n = rows - 1
    return n * 4 + n * COLS


def build_formulas(path: Path, rows: int) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["qty", "price", "total", "share"])
    for r in range(2, rows + 2):
        ws.append([r % 7 + 1, r * 1.5, f"=A{r}*B{r}", f"=C{r}/SUM($C$2:$C${rows + 1})"])
    ws["F1"] = f"=SUM(C2:C{rows + 1})"
    wb.save(path)


def cpu(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def wall(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def bare_soffice(path: Path, out: Path) -> None:
    profile = out / "profile"
    subprocess.run(
        [find_soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless", "--norestore", "--nologo",
         "--nolockcheck", "--convert-to", "xlsx", "--outdir", str(out), str(path)],
        check=True, capture_output=True, timeout=600, start_new_session=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[1_000, 10_000, 100_000])
    ap.add_argument("--formula-rows", type=int, nargs="+", default=[100, 5_000])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="ac-bench-display-") as tmp:
        root = Path(tmp)
        print("conditional formatting (CPU s)")
        print(f"{'cells':>8} | {'no rules':>8} {'5 rules':>8} {'ratio':>5} | {'us/cell-rule':>12}")
        for size in args.sizes:
            plain, ruled = root / f"plain_{size}.xlsx", root / f"ruled_{size}.xlsx"
            build(plain, size, rules=False)
            pairs = build(ruled, size, rules=True)
            extract_xlsx(ruled)  # warm (fonts, lazy imports)
            t0 = cpu(functools.partial(extract_xlsx, plain), args.repeat)
            t1 = cpu(functools.partial(extract_xlsx, ruled), args.repeat)
            print(f"{size:>8} | {t0:>8.3f} {t1:>8.3f} {t1 / t0:>5.2f} | {(t1 - t0) / pairs * 1e6:>12.2f}")
        print("\nrecalculation (wall s)")
        print(f"{'rows':>8} | {'no recalc':>9} {'cold':>7} {'warm':>7} | {'bare soffice':>12}")
        for rows in args.formula_rows:
            path = root / f"formulas_{rows}.xlsx"
            build_formulas(path, rows)
            os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(root / f"cache_{rows}")
            extract_xlsx(path, recalculate=False)  # warm imports
            t_off = wall(functools.partial(extract_xlsx, path, recalculate=False))
            t_cold = wall(functools.partial(extract_xlsx, path))
            t_warm = wall(functools.partial(extract_xlsx, path))
            out = root / f"soffice_{rows}"
            out.mkdir()
            t_bare = wall(functools.partial(bare_soffice, path, out))
            print(f"{rows:>8} | {t_off:>9.2f} {t_cold:>7.2f} {t_warm:>7.2f} | {t_bare:>12.2f}")


if __name__ == "__main__":
    main()
