"""compare_workbook's ``sparklines`` aspect (OSWorld's ``compare_table`` rule ``sparkline``):
gold and agent workbooks written with xlsxwriter, the library agents use for sparklines
(openpyxl drops them on save), one variant per thing an agent gets wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import xlsxwriter

from artifactcheck import load, run_check
from artifactcheck.checks.registry import Resources
from artifactcheck.checks.result import CheckResult

GOLD = {f"F{r}": {"range": f"Data!A{r}:E{r}", "type": "line", "series_color": "#376092"} for r in (1, 2, 3)}


def workbook(path: Path, sparklines: dict[str, dict[str, Any]]) -> Path:
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Data")
    for r in range(3):
        ws.write_row(r, 0, [r + 1, 5 - r, 3, 8 * r, 2])
    for cell, options in sparklines.items():
        ws.add_sparkline(cell, options)
    wb.close()
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("compare_sparklines")
    (base / "assets").mkdir()
    workbook(base / "assets" / "gold.xlsx", GOLD)
    return base


def compare(folder: Path, name: str, drawn: dict[str, dict[str, Any]], **params: Any) -> CheckResult:
    art = workbook(folder / f"{name}.xlsx", drawn)
    res = Resources(assets_dir=str(folder / "assets"), rubric_root=str(folder))
    return run_check("compare_workbook", load(art), {"reference": "gold.xlsx", "sparklines": True, **params}, res)


def diffs(r: CheckResult) -> dict[str, dict[str, Any]]:
    return {d["location"]: d for d in r.evidence["differences"] if d["aspect"] == "sparklines"}


def test_the_same_sparklines_pass_and_are_counted(folder: Path) -> None:
    r = compare(folder, "same", GOLD)
    assert r.status == "pass", r.explanation
    assert r.evidence["aspects"]["sparklines"]["compared"] == 6  # 3 cells x (source, type)


def test_a_wrong_source_range_is_located_with_both_ranges(folder: Path) -> None:
    r = compare(folder, "short", {**GOLD, "F2": {"range": "Data!A2:D2"}})
    assert r.status == "fail"
    d = diffs(r)
    assert set(d) == {"Data!F2 sparkline source"}
    assert (d["Data!F2 sparkline source"]["expected"], d["Data!F2 sparkline source"]["actual"]) == (
        "Data!A2:E2", "Data!A2:D2")


def test_a_column_sparkline_where_the_gold_draws_a_line_fails(folder: Path) -> None:
    r = compare(folder, "column", {**GOLD, "F3": {"range": "Data!A3:E3", "type": "column"}})
    assert set(diffs(r)) == {"Data!F3 sparkline type"} and r.status == "fail"


def test_missing_and_extra_sparklines_are_differences(folder: Path) -> None:
    moved = {k: v for k, v in GOLD.items() if k != "F3"} | {"G3": GOLD["F3"]}
    r = compare(folder, "moved", moved)
    d = diffs(r)
    assert set(d) == {"Data!F3 sparkline", "Data!G3 sparkline"} and r.status == "fail"
    assert d["Data!F3 sparkline"]["actual"] is None and d["Data!G3 sparkline"]["expected"] is None


def test_colour_is_compared_only_when_asked(folder: Path) -> None:
    red = {k: {**v, "series_color": "#C00000"} for k, v in GOLD.items()}
    assert compare(folder, "red", red).status == "pass"
    r = compare(folder, "red_asked", red, sparklines={"properties": ["source", "type", "color"]})
    assert r.status == "fail" and len(diffs(r)) == 3
    assert diffs(r)["Data!F1 sparkline color"]["expected"] == "#376092"


def test_a_range_limits_which_sparklines_are_compared(folder: Path) -> None:
    r = compare(folder, "limited", {**GOLD, "F2": {"range": "Data!A2:D2"}}, range="F1")
    assert r.status == "pass" and r.evidence["aspects"]["sparklines"]["compared"] == 2


def test_a_workbook_without_sparklines_fails_against_a_gold_with_them(folder: Path) -> None:
    r = compare(folder, "none", {})
    assert r.status == "fail" and len(diffs(r)) == 3
