"""Cell fills as openpyxl users write them, the right way and the usual wrong ones. The
truth is the background LibreOffice draws under each cell's text."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import PatternFill

from artifactcheck import load, run_check
from artifactcheck.checks.color import delta_e

from .xlsx_look import look

pytestmark = pytest.mark.slow

FILLS = {
    "right": PatternFill("solid", fgColor="FFFF00"),
    "both": PatternFill(start_color="FFFF00", end_color="FFFF00", fill_type="solid"),
    "bgonly": PatternFill(fill_type="solid", bgColor="FFFF00"),  # solid paints fgColor
    "endonly": PatternFill("solid", end_color="FFFF00"),  # end_color is bgColor
    "notype": PatternFill(fgColor="FFFF00"),  # no fill_type: no fill
    # patterns (xlsxwriter's pattern 2..18): painted as one flat mix of fg into bg
    "mediumgray": PatternFill("mediumGray", fgColor="FF0000"),
    "darkgray": PatternFill("darkGray", fgColor="FF0000", bgColor="0000FF"),
    "lightdown": PatternFill("lightDown", fgColor="FF0000"),
    "lightgrid": PatternFill("lightGrid", fgColor="FF0000", bgColor="FFFFFF"),
    "dotted": PatternFill("gray0625", fgColor="FF0000"),  # near white, not "filled red"
}


def test_cell_fills_read_as_drawn(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, (name, fill) in enumerate(FILLS.items(), start=1):
        ws.cell(row, 1, name).fill = fill
    path = tmp_path / "fills.xlsx"
    wb.save(path)
    doc = load(path)
    for cell in doc.select("cell"):
        drawn = look(path, cell.text).background
        expected = None if drawn == "#ffffff" else drawn
        if expected is None or cell.style.fill is None:
            assert cell.style.fill == expected, (cell.text, cell.style.fill, drawn)
        else:
            assert delta_e(cell.style.fill, expected) < 1.5, (cell.text, cell.style.fill, drawn)
    yellow = run_check("format_is", doc, {"target": {"selector": "cell", "text": "notype", "match": "equals"}, "fill": "yellow"})
    assert yellow.status == "fail"  # nothing is painted
    red = run_check("color_is", doc, {"target": {"selector": "cell", "text": "dotted", "match": "equals"}, "property": "fill", "expected": "red"})
    assert red.status == "fail", red.explanation
