"""Text in a text box turned a quarter (a sidebar label set down the slide's right edge).
LibreOffice draws the line down the page; the PDF's characters are turned with it, so a
character's place is pdfium's box for it, not the font's band about a horizontal
baseline (that band put the label 12 pt above its frame: "drawn outside its frame").
The truth is where the render puts the label's ink."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pptx import Presentation
from pptx.enum.text import MSO_AUTO_SIZE
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def turned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    for x, y, length, text in ((7.5, 2.5, 4.0, "Vertical side label"), (0.0, 3.0, 2.0, "A label far too long for its turned box")):
        shape = slide.shapes.add_textbox(Inches(x), Inches(y), Inches(length), Inches(0.6))
        shape.text_frame.word_wrap = False
        shape.text_frame.auto_size = MSO_AUTO_SIZE.NONE
        run = shape.text_frame.paragraphs[0].add_run()
        run.text = text
        run.font.size = Pt(20)
        shape.rotation = 90
    path = tmp_path_factory.mktemp("turned") / "turned.pptx"
    prs.save(str(path))
    return path


def _ink(pdf: Path, x0: float, x1: float, scale: int = 4) -> tuple[float, float, float, float]:
    """Bounds of the dark pixels in the page's columns x0..x1 (points)."""
    page = pdfium.PdfDocument(str(pdf))[0]
    pixels = np.asarray(page.render(scale=scale).to_pil().convert("L")).astype(int)
    band = pixels[:, int(x0 * scale) : int(x1 * scale)] < 128
    ys, xs = np.nonzero(band)
    return x0 + xs.min() / scale, ys.min() / scale, x0 + (xs.max() + 1) / scale, (ys.max() + 1) / scale


def test_a_turned_label_that_fits_its_frame_fits(turned: Path) -> None:
    doc = load(turned)
    label = next(n for n in doc.select("textbox") if n.text == "Vertical side label")
    frame = label.box
    assert frame is not None
    x0, top, x1, bottom = _ink(render_pdf(turned).pdf_path, frame.x0, frame.x1)
    assert frame.x0 <= x0 and x1 <= frame.x1 and frame.top <= top and bottom <= frame.bottom  # drawn inside
    verdict = run_check("text_fits", doc, {"target": {"selector": "textbox", "text": "Vertical side label"}})
    assert verdict.status == "pass", verdict.explanation
    run = doc.select_one("run")
    assert run is not None and run.box is not None
    assert abs(run.box.top - top) < 3 and abs(run.box.bottom - bottom) < 3, (run.box, top, bottom)


def test_a_turned_label_longer_than_its_frame_overflows(turned: Path) -> None:
    doc = load(turned)
    label = next(n for n in doc.select("textbox") if n.text.startswith("A label far"))
    frame = label.box
    assert frame is not None
    _x0, top, _x1, bottom = _ink(render_pdf(turned).pdf_path, frame.x0, frame.x1)
    assert frame.top <= top and bottom > frame.bottom + 10  # the line runs out past the frame's end
    verdict = run_check("text_fits", doc, {"target": {"selector": "textbox", "text": "A label far", "match": "contains"}})
    assert verdict.status == "fail", verdict.explanation
