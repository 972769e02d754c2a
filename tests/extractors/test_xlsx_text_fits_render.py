"""Is a cell's text whole in a default-width column? Values and labels as agents write
them with openpyxl: currency, thousands, dates, header words, a neighbour to the right
so nothing spills. The truth is LibreOffice's render: a number too wide is drawn ``###``,
a label too wide runs into the neighbour's text (pdfium reads them as one word)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Font

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow

NUMBERS = [
    (1126.5, '"$"#,##0.00'), (9999.99, '"$"#,##0.00'), (11111.11, "#,##0.00"), (1234567, "#,##0"),
    (12345678, "#,##0"), (123456.78, "#,##0.00"), (dt.date(2024, 3, 1), "mm/dd/yyyy"), (dt.date(2024, 3, 1), "dd-mmm-yy"),
]  # fmt: skip
LABELS = ["Quantity", "Employee", "Customer", "Warehouse", "Comments", "Approved", "Reference", "Minimum"]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, (value, fmt) in enumerate(NUMBERS, start=1):
        ws.cell(row, 1, value).number_format = fmt
        ws.cell(row, 2, "x")
    for row, label in enumerate(LABELS, start=1):
        ws.cell(row, 4, label)
        ws.cell(row, 5, "x")
        ws.cell(row + 10, 4, label).font = Font(bold=True)  # own rows: one label per row
        ws.cell(row + 10, 5, "x")
    path = tmp_path_factory.mktemp("fits") / "fits.xlsx"
    wb.save(path)
    return path


def _visible_in_render(path: Path) -> dict[str, bool]:
    """Cell ref -> is its text drawn whole."""
    words = read_layout(render_pdf(path).pdf_path).words
    doc = load(path)
    # LibreOffice's text margin, from row 1: a right-aligned number ends one margin before
    # its cell's right edge, the neighbour's "x" starts one margin after it
    number = next(w for w in words if w.text == "$1,126.50")
    margin = (next(w for w in words if w.text == "x" and w.x0 > number.x1).x0 - number.x1) / 2
    out: dict[str, bool] = {}
    for cell in doc.select("cell"):
        ref = cell.id.split("!")[1]
        line = [w for w in words if abs(w.top - (number.top + 15 * (int(ref[1:]) - 1))) < 3]
        if ref[0] == "A":
            out[ref] = any(w.text == cell.text for w in line)  # else "###"
        elif ref[0] == "D":
            # whole when it ends before its cell's right edge (one margin before the "x")
            label = next((w for w in line if w.text == cell.text), None)
            neighbour = next((w for w in line if w.text == "x" and label is not None and w.x0 > label.x0), None)
            out[ref] = label is not None and neighbour is not None and label.x1 <= neighbour.x0 - margin + 0.25
    return out


def test_text_fits_as_the_render_draws_it(book: Path) -> None:
    visible = _visible_in_render(book)
    doc = load(book)
    cells = {c.id.split("!")[1]: c for c in doc.select("cell")}
    assert sum(visible.values()) >= 10 and not all(visible.values())  # both kinds are here
    wrong = {ref: cells[ref].attrs.get("overflow") for ref, whole in visible.items() if (cells[ref].attrs.get("overflow") == "fits") != whole}
    assert not wrong, wrong
    for ref, whole in visible.items():
        verdict = run_check("text_fits", doc, {"target": f"cell[ref='{ref}']"})
        assert verdict.status == ("pass" if whole else "fail"), (ref, verdict.explanation)
