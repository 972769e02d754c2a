"""A cell whose number format we cannot render (a fraction of an unusual shape, ``#\\:#/#``)
shows our fallback text, not what a reader sees: the render draws ``1:3/4`` where the tree
says ``1.75``.
A text check on that cell cannot judge (``error``), whichever way the fallback points;
a number check reads the stored value and still can."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


def test_text_checks_on_an_unrendered_format_cannot_judge(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = 1.75
    ws["A1"].number_format = "#\\:#/#"  # "# ?/?" is rendered since stop 28; this shape is not
    ws["A2"] = "Total"
    path = tmp_path / "fraction.xlsx"
    wb.save(path)
    assert "1:3/4" in read_layout(render_pdf(path).pdf_path).text  # what a reader sees
    doc = load(path)
    cell = doc.select_one("cell[ref='A1']")
    assert cell.attrs["number_format_supported"] is False and cell.text != "1:3/4"
    for expected in ("1:3/4", cell.text):
        verdict = run_check("text_equals", doc, {"target": "cell[ref='A1']", "expected": expected})
        assert verdict.status == "error" and "number format" in verdict.explanation, verdict.explanation
    assert run_check("number_equals", doc, {"target": "cell[ref='A1']", "expected": 1.75}).status == "pass"
    # a sheet-wide search is not spoiled by the one cell
    assert run_check("text_contains", doc, {"phrases": ["Total"]}).status == "pass"
    assert run_check("text_contains", doc, {"phrases": ["Grand"]}).status == "fail"
