"""Text set in capitals by its format (Word's All caps ``w:caps``, PowerPoint's
``cap="all"``): the file keeps "Quarterly results", the page shows "QUARTERLY RESULTS".
"Is the heading in capitals?" is written as a case-sensitive match and must pass;
matching that ignores case is unchanged. The truth is the text the render prints."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml import OxmlElement
from pptx import Presentation
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    paragraph = d.add_paragraph()
    paragraph.add_run("Quarterly results")._r.get_or_add_rPr().append(OxmlElement("w:caps"))
    paragraph.add_run(" in detail")
    item = d.add_paragraph(style="List Number")
    item.add_run("Key figures")._r.get_or_add_rPr().append(OxmlElement("w:caps"))
    path = tmp_path_factory.mktemp("caps") / "caps.docx"
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    run = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(1)).text_frame.paragraphs[0].add_run()
    run.text = "Quarterly results"
    run._r.get_or_add_rPr().set("cap", "all")
    path = tmp_path_factory.mktemp("caps") / "caps.pptx"
    prs.save(str(path))
    return path


@pytest.mark.parametrize("which", ["letter", "deck"])
def test_capitals_are_read_as_shown(which: str, request: pytest.FixtureRequest) -> None:
    path: Path = request.getfixturevalue(which)
    printed = " ".join(page_texts(render_pdf(path).pdf_path))
    assert "QUARTERLY RESULTS" in printed and "Quarterly results" not in printed
    doc = load(path)
    shown = run_check("text_contains", doc, {"phrases": ["QUARTERLY RESULTS"], "case_sensitive": True})
    assert shown.status == "pass", shown.explanation
    typed = run_check("text_contains", doc, {"phrases": ["Quarterly results"], "case_sensitive": True})
    assert typed.status == "fail", typed.explanation  # the page does not show it so
    either = run_check("text_contains", doc, {"phrases": ["quarterly results"]})
    assert either.status == "pass", either.explanation
    target = run_check("exists", doc, {"target": {"text": "QUARTERLY", "case_sensitive": True}})
    assert target.status == "pass", target.explanation


def test_a_numbered_item_in_capitals_reads_with_its_label(letter: Path) -> None:
    printed = " ".join(page_texts(render_pdf(letter).pdf_path))
    assert "1. KEY FIGURES" in " ".join(printed.split())
    verdict = run_check("text_contains", load(letter), {"phrases": ["1. KEY FIGURES"], "case_sensitive": True})
    assert verdict.status == "pass", verdict.explanation
