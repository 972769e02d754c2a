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
