"""Counts as a reader makes them. A .docx table with a row left empty (Table Grid
borders draw it) has 5 rows, not 4: blank rows are left out only on sheets, where they
are not drawn; its last row labelled "Total" is its totals row, not a value. A
workbook's Excel table (ListObject) is a table. A document's title
(add_heading(text, 0)) sits above its outline: "the outline starts at Heading 1"."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
import xlsxwriter

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_heading("Project Plan", 0)
    d.add_heading("Introduction", 1)
    table = d.add_table(rows=5, cols=2)
    table.style = "Table Grid"
    for i, (a, b) in enumerate((("Item", "Cost"), ("Paper", "10"), ("", ""), ("Ink", "25"), ("Total", "35"))):
        table.cell(i, 0).text, table.cell(i, 1).text = a, b
    path = tmp_path_factory.mktemp("counts") / "report.docx"
    d.save(str(path))
    return path


def test_an_empty_table_row_is_a_row(report: Path) -> None:
    layout = read_layout(render_pdf(report).pdf_path, rules=True)
    text = "".join(c.char for c in layout.chars)
    item = layout.chars[text.index("Item")]
    # the grid's horizontal rules, from the one above "Item" down (the Title's rule is higher)
    across = {round(r.top, 1) for r in layout.rules if r.x1 - r.x0 > 100 and r.top > item.top - 12}
    assert len(across) == 6  # 5 rows drawn
    doc = load(report)
    rows = run_check("structure", doc, {"unit": "rows", "scope": "table", "exactly": 5})
    assert rows.status == "pass", rows.explanation
    outline = run_check("heading_structure", doc, {"top_level": 1})
    assert outline.status == "pass", outline.explanation
    # the last row labelled "Total" is the totals row (a document's table has no formulas)
    costs = run_check("values_match", doc, {"scope": "table", "column": "Cost", "expected": ["10", "25"]})
    assert costs.status == "pass", costs.explanation
    assert "totals row" in costs.explanation


def test_an_excel_table_is_a_table(tmp_path: Path) -> None:
    path = tmp_path / "orders.xlsx"
    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Orders")
    sheet.write_row(0, 0, ["Order report"])
    sheet.add_table("A3:C6", {"name": "OrdersTbl", "data": [["A-1", 2, 10], ["A-2", 1, 5], ["A-3", 4, 20]],
                              "columns": [{"header": "Id"}, {"header": "Qty"}, {"header": "Amount"}]})
    book.close()
    tables = run_check("structure", load(path, recalculate=False), {"unit": "tables", "exactly": 1, "names": ["OrdersTbl"]})
    assert tables.status == "pass", tables.explanation
