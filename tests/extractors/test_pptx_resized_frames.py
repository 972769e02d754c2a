"""Text boxes that "resize to fit their text" (``spAutoFit``: every python-pptx
``add_textbox``). LibreOffice draws such a frame around its text, not at the size the
file states: an unwrapped box with a long line grows both ways from its centre and hangs
off the slide; a wrapped one grows or shrinks in height from the edge its text is
anchored to. "Is every text box within the slide?" must fail for the box the audience
sees cut off. The truth is where the render paints each box's fill."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_ANCHOR
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf

pytestmark = pytest.mark.slow

FILLS = {"OffRight": "FF0000", "Short": "00C000", "Grown": "0000FF", "BottomUp": "FF00FF", "Thin": "FFA500"}


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])

    def box(name: str, x: float, y: float, w: float, h: float, text: str, *, wrap: bool | None = None,
            lines: int = 1, anchor: MSO_ANCHOR | None = None, filled: bool = True) -> None:
        shape = slide.shapes.add_textbox(Inches(x), Inches(y), Inches(w), Inches(h))
        shape.name = name
        if filled:
            shape.fill.solid()
            shape.fill.fore_color.rgb = RGBColor.from_string(FILLS[name])
        frame = shape.text_frame
        if wrap is not None:
            frame.word_wrap = wrap
        if anchor is not None:
            frame.vertical_anchor = anchor
        for i in range(lines):
            run = (frame.paragraphs[0] if i == 0 else frame.add_paragraph()).add_run()
            run.text = text if i == 0 else f"{text} {i + 1}"
            run.font.size = Pt(20)

    box("OffRight", 5, 0.5, 3, 0.4, "A headline far too long for its little box, running well off the edge of the slide")
    box("Short", 1, 1.5, 5, 0.4, "Short")
    box("Grown", 1, 2.5, 3, 0.4, "Wrapped text that goes on and on over lines", wrap=True)
    box("BottomUp", 5, 2.5, 3, 1.0, "Grow", wrap=True, lines=5, anchor=MSO_ANCHOR.BOTTOM)
    box("Thin", 1, 5, 3, 0.4, "Invisible frame, inside the slide", filled=False)
    path = tmp_path_factory.mktemp("resized") / "frames.pptx"
    prs.save(str(path))
    return path


def _painted(pdf: Path, rgb: str, scale: int = 4) -> tuple[float, float, float, float]:
    page = pdfium.PdfDocument(str(pdf))[0]
    pixels = np.asarray(page.render(scale=scale).to_pil().convert("RGB")).astype(int)
    want = np.array([int(rgb[i : i + 2], 16) for i in (0, 2, 4)])
    ys, xs = np.nonzero(np.abs(pixels - want).sum(axis=2) < 30)
    return xs.min() / scale, ys.min() / scale, (xs.max() + 1) / scale, (ys.max() + 1) / scale


@pytest.mark.parametrize("name", ["OffRight", "Short", "Grown", "BottomUp"])
def test_a_resized_frame_is_boxed_where_it_is_painted(deck: Path, name: str) -> None:
    doc = load(deck, render=True)
    frame = next(n for n in doc.select("textbox") if n.attrs.get("name") == name)
    x0, top, x1, bottom = _painted(render_pdf(deck).pdf_path, FILLS[name])
    stated = frame.attrs["stated_box"]
    assert max(abs(stated[k] - v) for k, v in zip(("x0", "top", "x1", "bottom"), (x0, top, x1, bottom))) > 10
    box = frame.box
    assert box is not None
    x1 = 720.0 if x1 >= 719.75 else x1  # painted up to the slide's edge: the box goes on
    ok = [abs(box.x0 - x0) < 1, abs(box.top - top) < 1, box.x1 >= x1 - 1 if x1 == 720 else abs(box.x1 - x1) < 1,
          abs(box.bottom - bottom) < 1]
    assert all(ok), (name, box, (x0, top, x1, bottom))


def test_is_every_text_box_within_the_slide(deck: Path) -> None:
    doc = load(deck)  # layout deferred: the geometry check asks for it
    everything = run_check("within_page", doc, {"target": "textbox"})
    assert everything.status == "fail", everything.explanation
    assert "s0/sh0" in everything.explanation and "right" in everything.explanation, everything.explanation
    thin = run_check("within_page", doc, {"target": {"selector": "textbox", "text": "Invisible frame", "match": "contains"}})
    assert thin.status == "pass", thin.explanation
