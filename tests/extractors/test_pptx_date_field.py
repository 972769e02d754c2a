"""A date field on a slide (``a:fld type="datetime1"``, what a footer's date shows):
PowerPoint and LibreOffice draw the date the deck is opened, not the text the file stored.
The tree keeps the stored text (the same tree every day); its box is where the render
draws the date, read back from the PDF's text positions, not from our tree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation
from pptx.util import Inches, Pt

from artifactcheck import load
from artifactcheck.extractors.render import read_layout, render_pdf

from .agent_decks import A, save

pytestmark = pytest.mark.slow

STORED = "1/1/2001"
_DATE = re.compile(r"\d{1,4}[./-]\d{1,2}[./-]\d{1,4}")


def _deck(path: Path) -> Path:
    """A blank slide with a title text box and a date text box whose run python-pptx
    wrote, then made a ``datetime1`` field (python-pptx has no API for fields)."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    title = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(1))
    title.text_frame.text = "Quarterly review"
    box = slide.shapes.add_textbox(Inches(1), Inches(6.5), Inches(2.5), Inches(0.5))
    box.text_frame.text = STORED
    run = box.text_frame.paragraphs[0].runs[0]
    run.font.size = Pt(14)
    r = run._r
    fld = etree.SubElement(r.getparent(), f"{{{A}}}fld", id="{5C1D3B8E-2B4F-4C41-9F0E-3A6C1D2E7F10}", type="datetime1")
    for child in list(r):
        fld.append(child)  # a:rPr and a:t move into the field
    r.addprevious(fld)
    r.getparent().remove(r)
    return save(prs, path)


def test_a_date_field_is_boxed_where_the_render_draws_the_date(tmp_path: Path) -> None:
    path = _deck(tmp_path / "dated.pptx")
    doc = load(path)
    doc.ensure_layout()
    (run,) = [r for r in doc.iter("run") if r.attrs.get("field") == "datetime1"]
    assert run.text == STORED  # the stored text: the tree does not change with the day
    pdf = read_layout(render_pdf(path).pdf_path, images=False)
    drawn = [ln for ln in pdf.lines if ln.page == 0 and _DATE.search(ln.text)]
    assert len(drawn) == 1, [ln.text for ln in pdf.lines]
    (line,) = drawn
    assert run.box is not None and run.box.origin == "layout"
    assert (run.box.x0, run.box.top, run.box.x1, run.box.bottom) == pytest.approx(
        (line.x0, line.top, line.x1, line.bottom), abs=0.5
    )
    (title,) = [p for p in doc.iter("paragraph") if p.text == "Quarterly review"]
    assert title.box is not None and title.box.origin == "layout" and title.box.bottom < line.top
