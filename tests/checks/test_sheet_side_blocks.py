"""A sheet as agents lay out reports: a bold title and two KPI lines, a blank row, the
table, a blank row, a source note. A reader sees a title block, a table and a footnote;
"does the table have columns Month ... Status?", "are there 6 months?", "is Status Open
or Closed?" are about the table. The small blocks a blank row sets apart at the top and
bottom took over header detection ("header row 1 is ['Sales Dashboard']") and were
counted as values. A blank spacer row inside the data keeps both sides. The truth is the
printed page: the blank rows separate the blocks."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Font

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow

HEADER = ["Month", "Region", "Rep", "Amount", "Status"]
ROWS = [[f"2024-{m:02d}", "North" if m % 2 else "South", f"Rep {m}", 100 * m, "Open" if m % 3 else "Closed"] for m in range(1, 7)]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Sales Dashboard"])
    ws["A1"].font = Font(bold=True, size=16)
    ws.append(["Total sales", 2100])
    ws.append(["Reps", 6])
    ws.append([])
    ws.append(HEADER)
    for cell in ws[5]:
        cell.font = Font(bold=True)
    for row in ROWS[:3]:
        ws.append(row)
    ws.append([])  # a spacer inside the data
    for row in ROWS[3:]:
        ws.append(row)
    ws.append([])
    ws.append(["Source: CRM export"])
    path = tmp_path_factory.mktemp("report") / "report.xlsx"
    wb.save(str(path))
    return path


def test_the_table_is_found_between_title_and_note(report: Path) -> None:
    printed = "\n".join(page_texts(render_pdf(report).pdf_path))
    assert printed.index("Sales Dashboard") < printed.index("Month") < printed.index("Source: CRM export")
    doc = load(report)
    header = run_check("header_row", doc, {"headers": HEADER})
    assert header.status == "pass", header.explanation
    months = run_check("distinct_count", doc, {"column": "Month", "exactly": 6})
    assert months.status == "pass", months.explanation  # both sides of the spacer, not the note
    status = run_check("values_match", doc, {"column": "Status", "expected": ["Open", "Closed"]})
    assert status.status == "pass", status.explanation


def test_a_short_group_after_a_spacer_is_data(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(HEADER)
    for row in ROWS[:4]:
        ws.append(row)
    ws.append([])
    for row in ROWS[4:]:  # two full rows: data, not a note
        ws.append(row)
    path = tmp_path / "groups.xlsx"
    wb.save(str(path))
    months = run_check("distinct_count", load(path), {"column": "Month", "exactly": 6})
    assert months.status == "pass", months.explanation
