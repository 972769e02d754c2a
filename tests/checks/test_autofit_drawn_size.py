"""Font sizes as drawn on a slide. An agent fills a text box with ten 18 pt lines and
turns on "shrink text on overflow" (python-pptx ``auto_size = TEXT_TO_FIT_SHAPE``);
LibreOffice draws them at about 11 pt. "Is all body text at least 18 pt?" is about what
the audience sees, so it must fail, and "about 11 pt?" pass. The truth is the size of
every character in the render's PDF. A frame that inherits its shrink from the master is
drawn at full size and keeps passing."""

from __future__ import annotations

from pathlib import Path

import pytest
from pptx import Presentation
from pptx.enum.text import MSO_AUTO_SIZE
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow

LINES = [f"Line {i}: the quarterly revenue target was exceeded in every region" for i in range(1, 11)]


@pytest.fixture(scope="module")
def shrunk(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(0.5), Inches(5), Inches(2)).text_frame
    frame.word_wrap = True
    for i, line in enumerate(LINES):
        run = (frame.paragraphs[0] if i == 0 else frame.add_paragraph()).add_run()
        run.text = line
        run.font.size = Pt(18)
    frame.auto_size = MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE
    roomy = slide.shapes.add_textbox(Inches(1), Inches(4), Inches(8), Inches(2)).text_frame
    roomy.auto_size = MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE  # shrink allowed, but the text fits
    run = roomy.paragraphs[0].add_run()
    run.text = "Roomy caption"
    run.font.size = Pt(18)
    path = tmp_path_factory.mktemp("autofit") / "shrunk.pptx"
    prs.save(str(path))
    return path


def _drawn_sizes(path: Path) -> dict[str, float]:
    layout = read_layout(render_pdf(path).pdf_path)
    text = "".join(c.char for c in layout.chars)
    out = {}
    for key in ("Line 1:", "Line 10:", "Roomy caption"):
        start = text.index(key)
        out[key] = max(c.size for c in layout.chars[start : start + len(key)])
    return out


def test_shrunk_text_is_judged_at_the_size_it_is_drawn(shrunk: Path) -> None:
    drawn = _drawn_sizes(shrunk)
    assert drawn["Line 1:"] < 14 and abs(drawn["Line 1:"] - drawn["Line 10:"]) < 0.1, drawn
    assert abs(drawn["Roomy caption"] - 18) < 0.1, drawn
    doc = load(shrunk)  # layout deferred: the size check asks for it
    lines = {"selector": "run", "text": "quarterly", "match": "contains"}
    at_least = run_check("format_is", doc, {"target": lines, "size_min": 18})
    assert at_least.status == "fail", at_least.explanation
    assert "autofit shrink" in at_least.explanation, at_least.explanation
    as_drawn = run_check("format_is", doc, {"target": lines, "size": drawn["Line 1:"], "size_tolerance": 0.25})
    assert as_drawn.status == "pass", as_drawn.explanation
    stated = run_check("format_is", doc, {"target": lines, "size": 18, "layer": "direct"})
    assert stated.status == "pass", stated.explanation  # the file still states 18 pt
    roomy = run_check("format_is", doc, {"target": {"selector": "run", "text": "Roomy caption"}, "size": 18})
    assert roomy.status == "pass", roomy.explanation
