"""Cell values as LibreOffice shows them, in workbooks built with openpyxl the way agents
build them: General numbers in wide columns, text spilling across a hidden column, hidden
sheets, a block of summary lines under a table, rubric values written as text. The truth
is LibreOffice's render (the words of its PDF)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.extractors.render.layout import PdfWord

pytestmark = pytest.mark.slow

# Numbers agents write with General format: IDs, phone numbers, ratios, averages
GENERAL = [
    123456789012, 123456789012345, 1234567890123456, 10**16, 2 / 3, 100 / 3, 1234.56789012345, -2 / 3,
    12345678901234567890, 3.14159265358979, 0.1 + 0.2, 1.23456789e-8, 1e-10, 0.000123456, 5551234567,
]  # fmt: skip


def _line_words(words: list[PdfWord], top: float) -> list[PdfWord]:
    return sorted((w for w in words if abs(w.top - top) < 3), key=lambda w: w.x0)


def test_general_numbers_show_libreoffices_digits(tmp_path: Path) -> None:
    """A wide column shows up to 15 digits (123456789012345, 0.666666666666667), not
    Excel's 11 characters (1.23457E+14, 0.666666667); a default-width one shortens them."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Wide", "|", "Narrow", "|"])
    for value in GENERAL:
        ws.append([value, "|", value, "|"])
    ws.column_dimensions["A"].width = 40
    path = tmp_path / "general.xlsx"
    wb.save(path)
    words = read_layout(render_pdf(path).pdf_path).words
    head = next(w for w in words if w.text == "Wide")
    doc = load(path)
    cells = {c.id.split("!")[1]: c.text for c in doc.select("cell")}
    for row in range(2, len(GENERAL) + 2):
        drawn = [w.text for w in _line_words(words, head.top + 15 * (row - 1)) if w.text != "|"]
        assert drawn == [cells[f"A{row}"], cells[f"C{row}"]], f"row {row}"
    assert cells["A3"] == "123456789012345"
    target = {"selector": "cell", "text": "123456789012345", "match": "equals"}
    assert run_check("exists", doc, {"target": target}).status == "pass"


def test_a_hidden_column_with_text_still_stops_a_spill(tmp_path: Path) -> None:
    """LibreOffice cuts a long label at a hidden column whose cell holds text (it spills
    across the hidden column when that cell is empty): text_fits must say so. (A
    rich-text label is drawn whole in LibreOffice 7.4's PDF even over a visible
    neighbour's text: not recorded here.)"""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["F1"], ws["G1"] = "Status: On track", "secret"
    ws["F3"] = "Status: On track"  # G3 empty: spills
    ws["F2"], ws["H2"] = "a", "y"  # H2's text starts where column F ends (G is hidden)
    ws.column_dimensions["G"].hidden = True
    path = tmp_path / "spill.xlsx"
    wb.save(path)
    words = read_layout(render_pdf(path).pdf_path).words
    column_f_end = next(w for w in words if w.text == "y").x0
    first, third = sorted({w.top for w in words if w.text == "Status:"})
    assert [w.text for w in _line_words(words, first)] == ["Status:", "On"]  # "track" cut off
    assert [w.text for w in _line_words(words, third)] == ["Status:", "On", "track"]
    assert max(w.x1 for w in _line_words(words, third)) > column_f_end + 10
    doc = load(path)
    assert run_check("text_fits", doc, {"target": "cell[ref='F1']"}).status == "fail"
    assert run_check("text_fits", doc, {"target": "cell[ref='F3']"}).status == "pass"


def test_grid_checks_leave_hidden_sheets_out(tmp_path: Path) -> None:
    """A hidden sheet has no page and no tab: "the sheet has a bold header in row 3" is
    about the sheets a reader sees."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Inventory"
    ws["A1"] = "Inventory Report"
    ws.append([])
    ws.append(["Product", "Stock"])
    for cell in ws[3]:
        cell.font = openpyxl.styles.Font(bold=True)
    for row in (["Widget", 10], ["Gadget", 5], ["Gizmo", 3]):
        ws.append(row)
    old = wb.create_sheet("Old")
    old.append(["Legacy notes"])
    old.append(["kept for reference"])
    old.sheet_state = "hidden"
    path = tmp_path / "hidden_sheet.xlsx"
    wb.save(path)
    drawn = read_layout(render_pdf(path).pdf_path).text
    assert "Widget" in drawn and "Legacy" not in drawn
    doc = load(path)
    r = run_check("header_row", doc, {"row": 3, "bold": True, "headers": ["Product", "Stock"]})
    assert r.status == "pass", r.explanation
    r = run_check("values_match", doc, {"column": "Product", "expected": ["Widget", "Gadget", "Gizmo"]})
    assert r.status == "pass", r.explanation


def test_summary_lines_under_a_table_are_not_its_rows(tmp_path: Path) -> None:
    """Average / Highest / Lowest / Count under the table, after a blank row, beside
    formulas: "the sheet lists 10 students" counts the ten rows above the gap."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Student", "Math", "Science", "English", "Grade"])
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon"]
    for i, name in enumerate(names):
        ws.append([name, 60 + 3 * i, 90 - 2 * i, 70 + i, "ABC"[i % 3]])
    ws.append([])
    for row, (label, fn) in enumerate([("Average", "AVERAGE"), ("Highest", "MAX"), ("Lowest", "MIN"),
                                       ("Count", "COUNT")], start=13):
        ws.cell(row, 1, label)
        ws.cell(row, 2, f"={fn}(B2:B11)")
    path = tmp_path / "scores.xlsx"
    wb.save(path)
    words = read_layout(render_pdf(path).pdf_path).words
    jon, average = next(w for w in words if w.text == "Jon"), next(w for w in words if w.text == "Average")
    assert average.top - jon.top > 25  # a blank row (15 pt) between the table and the block
    highest = max((w for w in words if w.text == "87"), key=lambda w: w.top)  # Jon's score, then MAX
    assert highest.top == pytest.approx(average.top + 15, abs=3)
    doc = load(path)
    cases: list[tuple[str, dict[str, Any]]] = [
        ("distinct_count", {"column": "Student", "exactly": 10}),
        ("values_match", {"column": "Student", "expected": names}),
        ("values_unique", {"column": "Math"}),  # MAX(B2:B11) repeats a score: not a row
    ]
    for check, params in cases:
        r = run_check(check, doc, params)
        assert r.status == "pass", (check, r.explanation)


def test_rubric_values_written_as_text_compare_by_value(tmp_path: Path) -> None:
    """range_equals compares values: "60%" is the 0.6 a cell draws as 60.0%, "1,200" is
    1200, "1/5/2024" the date drawn as 2024-01-05; a different value still differs."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"], ws["A2"], ws["A3"] = 0.6, 0.225, 1200
    ws["A1"].number_format = ws["A2"].number_format = "0.0%"
    ws["A3"].number_format = '"$"#,##0.00'
    ws["A4"] = dt.date(2024, 1, 5)
    ws.column_dimensions["A"].width = 14
    path = tmp_path / "literals.xlsx"
    wb.save(path)
    drawn = read_layout(render_pdf(path).pdf_path).text.split()
    assert drawn == ["60.0%", "22.5%", "$1,200.00", "2024-01-05"]
    doc = load(path)
    same = run_check("range_equals", doc, {"range": "A1:A4", "expected": [["60%"], ["22.5%"], ["1,200"], ["1/5/2024"]]})
    assert same.status == "pass", same.explanation
    for wrong in (["61%"], ["1,201"], ["1/6/2024"]):
        row = {"61%": 0, "1,201": 2, "1/6/2024": 3}[wrong[0]]
        r = run_check("range_equals", doc, {"range": f"A{row + 1}", "expected": [wrong]})
        assert r.status == "fail", wrong
    as_text = run_check("range_equals", doc, {"range": "A1", "expected": [["60%"]], "compare": "text"})
    assert as_text.status == "fail"  # text compares what is drawn: 60.0%


def test_an_error_cell_holds_no_number(tmp_path: Path) -> None:
    """"The ratio in B2 is 0": a formula LibreOffice computes to #DIV/0! passed, its "0"
    read out of the error's name. It holds no number, so it fails, and the check says what
    the cell shows."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"], ws["B2"] = "Ratio", 0, "=1/A2"
    path = tmp_path / "div0.xlsx"
    wb.save(path)
    doc = load(path)
    cell = doc.select_one("cell[ref='B2']")
    assert cell is not None and cell.text == "#DIV/0!"
    result = run_check("number_equals", doc, {"target": "cell[ref='B2']", "expected": 0})
    assert result.status == "fail", result.explanation
    assert "#DIV/0!" in result.explanation
