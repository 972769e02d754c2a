"""Formatting asked of words inside a line. An agent bolds the word "Total" in "Grand
Total: 45" and colours "urgent" red in a sentence; "is the word Total bold?" is written
as a target chosen by its text ({text: "Total"}), which selects the whole paragraph. The
check must judge the characters of "Total", not the rest of the line. The truth is the
face and ink LibreOffice draws for each word."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.shared import RGBColor

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import drawn_bold, ink, same_color

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def marked(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    p = d.add_paragraph("Grand ")
    p.add_run("Total").bold = True
    p.add_run(": 45 units")
    p = d.add_paragraph("This request is ")
    p.add_run("urgent").font.color.rgb = RGBColor(0xC0, 0x00, 0x00)
    p.add_run(" and must ship today.")
    path = tmp_path_factory.mktemp("words") / "marked.docx"
    d.save(str(path))
    return path


def _run(doc: object, text: str):  # type: ignore[no-untyped-def]
    return next(r for r in doc.select("run") if r.text.strip() == text)  # type: ignore[attr-defined]


def test_the_render_draws_only_the_words_marked(marked: Path) -> None:
    doc = load(marked)
    pdf = render_pdf(marked).pdf_path
    assert drawn_bold(pdf, _run(doc, "Total").box) and not drawn_bold(pdf, _run(doc, ": 45 units").box)
    assert same_color(ink(pdf, _run(doc, "urgent").box), "#c00000", tolerance=8)
    assert same_color(ink(pdf, _run(doc, "This request is").box), "#000000", tolerance=8)


def test_is_the_word_bold_judges_the_word(marked: Path) -> None:
    doc = load(marked)
    total = run_check("format_is", doc, {"target": {"text": "Total"}, "bold": True})
    assert total.status == "pass", total.explanation
    units = run_check("format_is", doc, {"target": {"text": "45 units"}, "bold": True})
    assert units.status == "fail", units.explanation
    line = run_check("format_is", doc, {"target": {"text": "Grand Total: 45 units", "match": "equals"}, "bold": True})
    assert line.status == "fail", line.explanation  # the whole line is not bold


def test_is_the_word_red_judges_the_word(marked: Path) -> None:
    doc = load(marked)
    urgent = run_check("color_is", doc, {"target": {"text": "urgent"}, "expected": "#C00000"})
    assert urgent.status == "pass", urgent.explanation
    named = run_check("color_classified_as", doc, {"target": {"text": "urgent"}, "expected": "red", "family": True})
    assert named.status == "pass", named.explanation
    ship = run_check("color_is", doc, {"target": {"text": "must ship"}, "expected": "#C00000"})
    assert ship.status == "fail", ship.explanation
