"""Rich text as openpyxl writes it (``CellRichText``: an inline string with formatted
runs, not a shared string). The truth is the colour LibreOffice draws each word in."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont

from artifactcheck import load, run_check

from .xlsx_look import look

pytestmark = pytest.mark.slow


def test_inline_rich_text_has_its_runs(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = CellRichText(["Grand ", TextBlock(InlineFont(b=True, color="FF0000"), "Total")])
    ws.column_dimensions["A"].width = 30
    path = tmp_path / "rich.xlsx"
    wb.save(path)
    assert look(path, "Total").color == "#ff0000" and look(path, "Grand").color == "#000000"
    doc = load(path)
    cell = doc.select_one("cell")
    assert cell.text == "Grand Total"
    runs = [r for r in cell.children if r.kind == "run"]
    assert [r.text for r in runs] == ["Grand ", "Total"]
    verdict = run_check("format_is", doc, {"target": {"selector": "run", "text": "Total"}, "bold": True, "color": "#ff0000"})
    assert verdict.status == "pass", verdict.explanation
