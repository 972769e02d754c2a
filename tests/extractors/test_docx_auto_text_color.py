"""Automatic text colour over dark shading. An agent shades a table's header row navy
and leaves the text colour alone; Word and LibreOffice draw that text white, and "is the
header text white?" must pass. The truth is the ink LibreOffice draws, read off the page
image; the rule (white when the background is dark by LibreOffice's ``Color::IsDark``)
is not the plain luminance a reader might guess: #4472C4 keeps black text."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_COLOR_INDEX
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import RGBColor

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import ink, same_color

pytestmark = pytest.mark.slow


def _shade(parent: OxmlElement, fill: str) -> None:
    shd = OxmlElement("w:shd")
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:color"), "auto")
    shd.set(qn("w:fill"), fill)
    parent.append(shd)


@pytest.fixture(scope="module")
def shaded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    table = d.add_table(rows=2, cols=3)
    for cell, fill in zip(table.rows[0].cells, ("1F3864", "4472C4", "1F3864")):
        _shade(cell._tc.get_or_add_tcPr(), fill)
    table.cell(0, 0).paragraphs[0].add_run("NavyHeader")
    table.cell(0, 1).paragraphs[0].add_run("AccentHeader")
    marked = table.cell(0, 2).paragraphs[0].add_run("MarkedNavy")
    marked.font.highlight_color = WD_COLOR_INDEX.YELLOW
    lit = table.cell(0, 2).add_paragraph()
    _shade(lit._p.get_or_add_pPr(), "FFFF00")
    lit.add_run("LitParagraph")
    table.cell(1, 0).paragraphs[0].add_run("PlainCell")
    gold = table.cell(1, 1).paragraphs[0]
    _shade(table.cell(1, 1)._tc.get_or_add_tcPr(), "1F3864")
    gold.add_run("GoldText").font.color.rgb = RGBColor(0xFF, 0xC0, 0x00)
    run = d.add_paragraph().add_run("ShadedRun")
    _shade(run._r.get_or_add_rPr(), "002060")
    para = d.add_paragraph()
    _shade(para._p.get_or_add_pPr(), "C00000")
    para.add_run("RedParagraph")
    d.add_paragraph().add_run("DarkHighlight").font.highlight_color = WD_COLOR_INDEX.DARK_BLUE
    path = tmp_path_factory.mktemp("auto-colour") / "shaded.docx"
    d.save(str(path))
    return path


DRAWN = {
    "NavyHeader": "#ffffff",
    "AccentHeader": "#000000",  # luminance 109 > 60: LibreOffice keeps black
    "MarkedNavy": "#ffffff",  # a highlight is not the background that decides
    "LitParagraph": "#000000",  # the paragraph's own light shading covers the navy cell
    "PlainCell": "#000000",
    "GoldText": "#ffc000",  # a stated colour is never changed
    "ShadedRun": "#ffffff",
    "RedParagraph": "#ffffff",
    "DarkHighlight": "#000000",
}


@pytest.mark.parametrize("word", list(DRAWN))
def test_a_runs_colour_is_the_ink_drawn(shaded: Path, word: str) -> None:
    doc = load(shaded, render=True)
    run = next(r for r in doc.select("run") if r.text == word)
    box = run.box
    inside = box.model_copy(
        update={"x0": box.x0 + 1.5, "x1": box.x1 - 1.5, "top": box.top + 1, "bottom": box.bottom - 1}
    )
    drawn = ink(render_pdf(shaded).pdf_path, inside)  # clear of the cell's edge around a highlight
    assert same_color(drawn, DRAWN[word], tolerance=8), (word, drawn)
    assert run.style.color == DRAWN[word], (word, run.style.color, drawn)


def test_the_header_text_on_navy_is_white(shaded: Path) -> None:
    doc = load(shaded)
    verdict = run_check("color_is", doc, {"target": {"selector": "run", "text": "NavyHeader"}, "expected": "white"})
    assert verdict.status == "pass", verdict.explanation
    black = run_check("color_is", doc, {"target": {"selector": "run", "text": "AccentHeader"}, "expected": "white"})
    assert black.status == "fail", black.explanation
