"""A column's values are the ones a reader sees as data: "does the Region column list
exactly North, South, East?" on the report agents write (a "Total" row of SUM formulas
at the bottom, a row hidden) counted "Total" as a region and the hidden row's "West",
which the render does not print. Both are left out unless asked for, and the evidence
says so."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Region", "Units", "Revenue"])
    for row in [("North", 120, 1500.5), ("South", 80, 990.0), ("West", 95, 1100.0), ("East", 60, 720.25), ("North", 30, 410.0)]:
        ws.append(list(row))
    ws.row_dimensions[4].hidden = True  # West
    ws.append(["Total", "=SUM(B2:B6)", "=SUM(C2:C6)"])
    path = tmp_path_factory.mktemp("values") / "report.xlsx"
    wb.save(path)
    return path


@pytest.mark.slow
def test_the_hidden_row_is_not_printed(report: Path) -> None:
    words = {w.text for w in read_layout(render_pdf(report).pdf_path).words}
    assert "North" in words and "Total" in words and "West" not in words


def test_the_region_column_is_its_data_rows(report: Path) -> None:
    doc = load(report, render=False)
    exact = run_check("values_match", doc, {"scope": "sheet", "column": "Region", "expected": ["North", "South", "East"]})
    assert exact.status == "pass", exact.explanation
    assert "totals row 7" in exact.explanation and "1 hidden row" in exact.explanation
    distinct = run_check("distinct_count", doc, {"scope": "sheet", "column": "Region", "exactly": 3})
    assert distinct.status == "pass", distinct.explanation
    revenue = run_check("values_match", doc, {"scope": "sheet", "column": "Revenue", "expected": ["1500.5", "990", "720.25", "410"]})
    assert revenue.status == "pass", revenue.explanation  # not the sum 4720.75
    everything = run_check("values_match", doc, {"scope": "sheet", "column": "Region", "expected": ["North", "South", "East", "West", "Total"], "include_totals": True, "include_hidden": True})
    assert everything.status == "pass", everything.explanation
