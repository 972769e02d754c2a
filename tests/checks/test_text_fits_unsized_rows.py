"""A cell that fits only because Excel sizes its row on opening. openpyxl writes no row
height: Excel fits a row of wrapped text or a big font when it opens the file, LibreOffice
7.4 keeps the sheet's default height and draws the text beyond the row. ``text_fits``
follows Excel (the verdict an Excel user sees) and says so, so that an author comparing
it with our LibreOffice render is told why they disagree; a cell that fits a default
row is judged without that note."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from openpyxl.styles import Alignment, Font

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

LONG = "This is a long sentence that wraps onto several lines in a narrow column"


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = LONG
    ws["A1"].alignment = Alignment(wrap_text=True)
    ws["A2"] = "Big"
    ws["A2"].font = Font(size=28)
    ws["A3"] = "plain"
    ws["A4"] = "after"
    path = tmp_path_factory.mktemp("unsized") / "unsized.xlsx"
    wb.save(path)
    return path


def _fits(book: Path, ref: str) -> tuple[str, str, dict[str, Any]]:
    result = run_check("text_fits", load(book), {"target": f"cell[ref='{ref}']"})
    sample: list[dict[str, Any]] = result.evidence.get("fitting_sample") or [{}]  # type: ignore[assignment]
    return result.status, result.explanation, sample[0]


def test_a_cell_fitting_only_an_auto_fitted_row_passes_with_the_reason(book: Path) -> None:
    status, explanation, row = _fits(book, "A1")
    assert status == "pass", explanation
    assert row["row_autofit"]["row"] == 1 and row["row_autofit"]["height_pt"] > 100, row
    assert row["row_autofit"]["drawn_height_pt"] == 15.0
    assert "Excel sizes it on opening" in explanation and "LibreOffice draws such rows 15 pt" in explanation
    status, explanation, row = _fits(book, "A2")  # one line, a font too big for 15 pt
    assert status == "pass" and "row_autofit" in row, (explanation, row)


def test_a_cell_fitting_a_default_row_has_no_such_note(book: Path) -> None:
    status, explanation, row = _fits(book, "A3")
    assert status == "pass" and "row_autofit" not in row and "Excel" not in explanation, (explanation, row)


@pytest.mark.slow
def test_libreoffice_draws_the_unsized_rows_at_the_default_height(book: Path) -> None:
    """What the note claims, read off the render: rows 15 pt apart from "plain" (row 3)
    to "after" (row 4), and the wrapped text of row 1 mostly above "Big" (row 2) at
    default spacing, not in a 150 pt row."""
    words = read_layout(render_pdf(book).pdf_path).words
    plain = next(w for w in words if w.text == "plain")
    after = next(w for w in words if w.text == "after")
    assert abs((after.top - plain.top) - 15.0) < 1.0, (plain, after)
    column = next(w for w in words if w.text == "column")  # the wrapped text's last line
    # bottom-aligned in a 15 pt row 1, two rows above "plain"; in Excel's 150 pt row it
    # would end ~135 pt further down
    assert abs(plain.bottom - 30.0 - column.bottom) < 3.0, (column, plain)
