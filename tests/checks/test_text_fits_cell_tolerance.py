"""``text_fits`` honours ``tolerance_pt`` on spreadsheet cells: "forgive 2 pt" passes a
label cut by 1.5 pt and still fails one cut by 60. Without it a cell's text is judged
exactly (its fit is modelled, not read off a page), and ``###`` is never forgiven."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, value in enumerate(["Comments", "Christopher Wellington", 123456789.25], start=1):
        ws.cell(row, 1, value)
        ws.cell(row, 2, "x")
    ws["A3"].number_format = "#,##0.00"
    path = tmp_path_factory.mktemp("tolerance") / "tolerance.xlsx"
    wb.save(path)
    return path


def _fits(book: Path, ref: str, **params: float) -> str:
    return run_check("text_fits", load(book), {"target": f"cell[ref='{ref}']", **params}).status


def test_a_cell_cut_by_less_than_the_tolerance_passes(book: Path) -> None:
    cell = next(c for c in load(book).select("cell") if c.attrs["ref"] == "A1")
    excess = cell.attrs["text_width_pt"] - cell.attrs["visible_width_pt"]
    assert cell.attrs["overflow"] == "clipped" and 0.5 < excess < 2.0, cell.attrs
    assert _fits(book, "A1") == "fail"  # judged exactly by default
    assert _fits(book, "A1", tolerance_pt=excess - 0.2) == "fail"
    result = run_check("text_fits", load(book), {"target": "cell[ref='A1']", "tolerance_pt": 2})
    assert result.status == "pass" and "within tolerance" in str(result.evidence), result.explanation


def test_the_tolerance_does_not_forgive_more(book: Path) -> None:
    assert _fits(book, "A2", tolerance_pt=5) == "fail"
    assert _fits(book, "A3", tolerance_pt=50) == "fail"  # "###" shows none of the number
