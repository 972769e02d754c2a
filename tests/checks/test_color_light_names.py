""""Light yellow", as a task author writes it. Excel's and Sheets' theme pickers fill
with #fff2cc (Gold, Lighter 80%; the palette's "light yellow 3"), CSS spells its one
light yellow "lightyellow" (#ffffe0): "are the light yellow rows grouped at the top?"
found no rows on a sheet LibreOffice draws with two light yellow rows, and
``color_classified_as`` refused the spaced name of the CSS colour itself. The truth is
the fill the render draws under each row."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import PatternFill

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.model import Box
from tests.extractors.rendered_look import background, same_color

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Task", "Hours", "Status"])
    rows = [("Draft", 12, "late", "FFF2CC"), ("Review", 4, "late", "FFF2CC"), ("Ship", 7, "ok", None), ("Plan", 3, "ok", "FFFFE0")]
    for task, owner, status, fill in rows:
        ws.append([task, owner, status])
        if fill:
            for cell in ws[ws.max_row]:
                cell.fill = PatternFill("solid", fgColor=fill)
    path = tmp_path_factory.mktemp("light") / "light.xlsx"
    wb.save(path)
    return path


def test_light_yellow_rows_are_found_where_they_are_drawn(book: Path) -> None:
    doc = load(book, render=True)
    pdf = render_pdf(book).pdf_path
    words = {w.text: w for w in read_layout(pdf).words}
    drawn = {t: background(pdf, Box(page=0, x0=w.x0, top=w.top, x1=w.x1, bottom=w.bottom)) for t, w in words.items()}
    assert same_color(drawn["Draft"], "#fff2cc") and same_color(drawn["Review"], "#fff2cc"), drawn
    verdict = run_check("rows_grouped_at_top", doc, {"scope": "sheet", "property": "filled", "color": "light yellow"})
    # Draft and Review are light yellow at the top; Plan's #ffffe0 is light yellow too,
    # below an unfilled row: not one block
    assert verdict.status == "fail" and len(verdict.evidence["marked_rows"]) == 3, verdict.explanation
    top = run_check("rows_grouped_at_top", doc, {"scope": "sheet", "property": "filled", "color": "light yellow 3"})
    assert top.status == "pass", top.explanation


def test_a_spaced_css_name_classifies(book: Path) -> None:
    doc = load(book)
    verdict = run_check("color_classified_as", doc, {"target": {"selector": "cell", "text": "Plan"}, "property": "fill", "expected": "light yellow", "vocabulary": "css"})
    assert verdict.status == "pass", verdict.explanation
