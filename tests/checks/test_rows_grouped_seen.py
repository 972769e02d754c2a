"""``rows_grouped_at_top`` judged on the rows a reader sees: a hidden row between two
highlighted rows is not drawn (the truth: the render has no text of it), and an Excel
table's banding is the table's look, not a highlighted row."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import PatternFill
from openpyxl.worksheet.table import Table, TableStyleInfo

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from tests.extractors.xlsx_look import look

pytestmark = pytest.mark.slow

YELLOW = PatternFill("solid", fgColor="FFFF00")


def test_a_hidden_row_between_highlighted_rows_does_not_break_the_block(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Amount"])
    for name, amount, marked in [("Alpha", 100, True), ("Hidden", 250, False), ("Gamma", 75, True), ("Delta", 20, False)]:
        ws.append([name, amount])
        if marked:
            for cell in ws[ws.max_row]:
                cell.fill = YELLOW
    ws.row_dimensions[3].hidden = True
    path = tmp_path / "hidden.xlsx"
    wb.save(path)
    printed = read_layout(render_pdf(path).pdf_path).text.split()
    assert "Hidden" not in printed and {"Alpha", "Gamma", "Delta"} <= set(printed)
    verdict = run_check("rows_grouped_at_top", load(path), {"property": "filled", "color": "yellow"})
    assert verdict.status == "pass", verdict.explanation


def test_table_banding_is_not_a_highlight(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Flag", "Val"])
    for i, name in enumerate("abcdef"):
        ws.append([name, "Y" if i < 2 else "N", i])
        if i < 2:
            for cell in ws[ws.max_row]:
                cell.fill = YELLOW
    table = Table(displayName="Flags", ref="A1:C7")
    table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)
    ws.add_table(table)
    path = tmp_path / "banded.xlsx"
    wb.save(path)
    doc = load(path)
    assert any(c.attrs.get("style_sources", {}).get("fill") == "table_style" for c in doc.select("cell"))  # stripes are there
    highlighted = run_check("rows_grouped_at_top", doc, {"property": "highlighted"})
    assert highlighted.status == "pass", highlighted.explanation
    filled = run_check("rows_grouped_at_top", doc, {"property": "filled"})
    assert filled.status == "fail"  # a stripe is still a fill


def test_a_row_or_column_format_colours_the_cells_that_have_none_of_their_own(tmp_path: Path) -> None:
    """openpyxl's ``row_dimensions[r].fill`` and ``column_dimensions['B'].fill`` write a
    row's (customFormat) or a column's style, and its default cells carry no ``s=``: the
    tree read them unfilled, so highlighted rows were "not grouped" (0 rows filled).
    LibreOffice paints them: the row's format first, else the column's."""
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Status", "Amount"])
    for row in [("Ann", "urgent", 5), ("Bo", "urgent", 7), ("Cy", "ok", 1), ("Di", "ok", 2)]:
        ws.append(list(row))
    ws.row_dimensions[2].fill = YELLOW
    ws.row_dimensions[3].fill = YELLOW
    ws.row_dimensions[4].font = Font(bold=True)  # a row format without a fill
    ws.column_dimensions["C"].fill = PatternFill("solid", fgColor="00FF00")
    path = tmp_path / "row_formats.xlsx"
    wb.save(path)
    drawn = {word: look(path, word).background for word in ("Ann", "Bo", "Cy", "Di", "Amount")}
    assert drawn["Ann"] == drawn["Bo"] == "#ffff00" and drawn["Cy"] == drawn["Di"] == "#ffffff"
    assert drawn["Amount"] == "#00ff00"  # the header row has no format: the column's shows
    doc = load(path)
    fills = {n.attrs["ref"]: n.style.fill for n in doc.iter("cell")}
    assert fills["A2"] == fills["C3"] == "#ffff00" and fills["C1"] == fills["C5"] == "#00ff00"
    assert fills["A4"] is None and fills["C4"] is None  # row 4's own format (bold) wins over the column's
    assert all(n.style.bold for n in doc.iter("cell") if n.attrs["row"] == 4)
    verdict = run_check("rows_grouped_at_top", doc, {"property": "filled", "color": "yellow"})
    assert verdict.status == "pass" and "rows 2-3" in verdict.explanation, verdict.explanation
