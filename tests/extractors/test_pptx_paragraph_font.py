"""Formatting set through python-pptx's ``paragraph.font`` (what agents write to style a
whole paragraph: ``p.font.bold = True``, ``p.font.size = Pt(32)``) lands in the
paragraph's ``a:pPr/a:defRPr``, not in the runs. LibreOffice draws the runs with it, so
the tree's run style must say so. What is true is read off the render (the PDF's font
and size of the drawn characters, and the colour of the drawn pixels), not our tree."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import page_image, read_layout, render_pdf

from .agent_decks import save

BLUE = (0x1F, 0x3A, 0x93)


def _deck(path: Path) -> Path:
    """Slide 1: a "Title Only" title whose paragraph font is bold, 32 pt, dark blue (the
    layout's own is 44 pt, regular, black). Slide 2: a text box whose first paragraph
    is set the same way and whose second run overrides the size on the run itself."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    title = slide.shapes.title
    title.text = "Bold Title"
    p = title.text_frame.paragraphs[0]
    p.font.bold = True
    p.font.size = Pt(32)
    p.font.color.rgb = RGBColor(*BLUE)
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(7), Inches(1.5))
    p = box.text_frame.paragraphs[0]
    p.font.size = Pt(28)
    p.font.italic = True
    p.add_run().text = "Paragraph sized "
    run = p.add_run()
    run.text = "run sized"
    run.font.size = Pt(12)
    return save(prs, path)


@pytest.mark.slow
def test_paragraph_font_is_the_style_the_render_draws(tmp_path: Path) -> None:
    path = _deck(tmp_path / "paragraph_font.pptx")
    pdf_path = render_pdf(path).pdf_path
    drawn = read_layout(pdf_path, images=False).chars
    title_chars = [c for c in drawn if c.page == 0 and not c.generated and c.char.strip()]
    assert "".join(c.char for c in title_chars) == "BoldTitle"
    assert {round(c.size) for c in title_chars} == {32}
    assert all("bold" in c.font.lower() for c in title_chars), {c.font for c in title_chars}
    # the title's ink is the paragraph colour
    pixels = np.asarray(page_image(pdf_path, 0, dpi=100).convert("RGB")).reshape(-1, 3).astype(int)
    assert (np.abs(pixels - np.array(BLUE)).sum(axis=1) < 40).sum() > 50

    doc = load(path)
    (title_run,) = [r for r in doc.iter("run") if r.text == "Bold Title"]
    assert title_run.style is not None
    assert (title_run.style.bold, title_run.style.size, title_run.style.color) == (True, 32.0, "#1f3a93")
    assert run_check("format_is", doc, {"target": {"text": "Bold Title"}, "bold": True, "size": 32}).status == "pass"

    sizes = {round(c.size) for c in drawn if c.page == 1 and c.char.strip() and not c.generated}
    assert sizes == {28, 12}
    by_text = {r.text: r for r in doc.iter("run") if r.text in ("Paragraph sized ", "run sized")}
    para_run, own_run = by_text["Paragraph sized "], by_text["run sized"]
    assert para_run.style is not None and own_run.style is not None
    assert (para_run.style.size, para_run.style.italic) == (28.0, True)
    assert (own_run.style.size, own_run.style.italic) == (12.0, True)  # the run's own size wins
