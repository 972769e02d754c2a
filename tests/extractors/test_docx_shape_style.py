"""A Word shape's own look: its fill (``spPr`` solid fill, or the theme fill its
``wps:style`` refers to) and its text colour (``wps:style/a:fontRef``). Word's default
shape is filled accent 1 (#4F81BD in python-docx's template theme) with white text from ``fontRef lt1``; the tree said
no fill and black text. The truth is the page image: the fill inside the frame and the
ink of the text."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from lxml import etree

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box
from tests.extractors.rendered_look import background, ink, same_color
from tests.extractors.test_docx_drawn_frames import _drawing

pytestmark = pytest.mark.slow

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"


def _word_default_style(run: etree._Element, font_slot: str) -> None:
    """Make a pasted shape look like Word's own: fill and text colour from the theme
    through ``wps:style`` (fillRef accent1, fontRef ``font_slot``), none in ``spPr``."""
    sp_pr = run.find(f".//{{{WPS}}}spPr")
    for fill in sp_pr.findall(f"{{{A}}}solidFill"):
        sp_pr.remove(fill)
    style = etree.fromstring(
        f'<wps:style xmlns:wps="{WPS}" xmlns:a="{A}">'
        '<a:lnRef idx="2"><a:schemeClr val="accent1"><a:shade val="50000"/></a:schemeClr></a:lnRef>'
        '<a:fillRef idx="1"><a:schemeClr val="accent1"/></a:fillRef>'
        '<a:effectRef idx="0"><a:schemeClr val="accent1"/></a:effectRef>'
        f'<a:fontRef idx="minor"><a:schemeClr val="{font_slot}"/></a:fontRef></wps:style>'
    )
    sp_pr.addnext(style)


@pytest.fixture(scope="module")
def flyer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    p = d.add_paragraph("Spring sale")
    button = _drawing(1, 1.0, 1.5, 3.0, 1.0, "FFFFFF", text="CallToAction")
    _word_default_style(button, "lt1")
    p._p.append(button)
    note = _drawing(2, 1.0, 3.5, 3.0, 1.0, "FFF2CC", text="PlainNote")  # its own fill, Word's dk1 text
    note_style = etree.fromstring(f'<wps:style xmlns:wps="{WPS}" xmlns:a="{A}"><a:lnRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:lnRef><a:fillRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:fillRef><a:effectRef idx="0"><a:scrgbClr r="0" g="0" b="0"/></a:effectRef><a:fontRef idx="minor"><a:schemeClr val="dk1"/></a:fontRef></wps:style>')
    note.find(f".//{{{WPS}}}spPr").addnext(note_style)
    p._p.append(note)
    path = tmp_path_factory.mktemp("shape-style") / "flyer.docx"
    d.save(str(path))
    return path


def test_fill_and_text_colour_are_what_is_drawn(flyer: Path) -> None:
    doc = load(flyer)
    pdf = render_pdf(flyer).pdf_path
    for word in ("CallToAction", "PlainNote"):
        run = next(r for r in doc.select("run") if r.text == word)
        box = next(a for a in run.ancestors() if a.kind == "textbox")
        b = box.box
        inside = Box(page=b.page, x0=b.x0 + 4, top=b.bottom - 8, x1=b.x0 + 12, bottom=b.bottom - 4)
        assert box.style is not None and same_color(background(pdf, inside), box.style.fill, tolerance=4), (word, background(pdf, inside), box.style)
        drawn = ink(pdf, run.box)
        assert same_color(drawn, run.style.color, tolerance=8), (word, drawn, run.style.color)
    verdict = run_check("color_is", doc, {"target": {"selector": "run", "text": "CallToAction"}, "expected": "white"})
    assert verdict.status == "pass", verdict.explanation
    filled = run_check("color_is", doc, {"target": {"selector": "textbox", "text": "CallToAction"}, "property": "fill", "expected": "#4F81BD"})
    assert filled.status == "pass", filled.explanation
