""""Do the text boxes overlap?" on a slide whose frames paint nothing: a reader sees only
their text. An agent moves the title down into the empty lower part of the body
placeholder's frame; the frames overlap, the words do not. Another agent stacks two
labels whose frames are apart but whose first label runs onto the second: they overlap,
bare or filled (a filled frame shows its paint and its text). The truth is where the render draws each text's
characters, and where it paints the two filled boxes."""

from __future__ import annotations

from pathlib import Path

import pytest
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_AUTO_SIZE
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


def _deck(path: Path, build) -> Path:  # type: ignore[no-untyped-def]
    prs = Presentation()
    build(prs)
    prs.save(str(path))
    return path


def _title_in_empty_body(prs) -> None:  # type: ignore[no-untyped-def]
    slide = prs.slides.add_slide(prs.slide_layouts[1])  # title + body frames
    slide.placeholders[1].text_frame.text = "One short point"
    slide.shapes.title.text = "Results"
    slide.shapes.title.top = Inches(6)  # into the empty bottom of the body's frame


def _spilling_labels(prs, *, filled: bool) -> None:  # type: ignore[no-untyped-def]
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    for y, text in ((1.0, "A label that runs on and on over several lines of text here"), (1.9, "Second label")):
        shape = slide.shapes.add_textbox(Inches(1), Inches(y), Inches(3), Inches(0.5))
        frame = shape.text_frame
        frame.word_wrap, frame.auto_size = True, MSO_AUTO_SIZE.NONE
        run = frame.paragraphs[0].add_run()
        run.text, run.font.size = text, Pt(24)
        if filled:
            shape.fill.solid()
            shape.fill.fore_color.rgb = RGBColor(0xDD, 0xEE, 0xFF)


def _text_boxes(path: Path) -> list[tuple[float, float, float, float]]:
    """Per frame's text (in drawing order), the bounds of its drawn characters."""
    layout = read_layout(render_pdf(path).pdf_path)
    text = "".join(c.char for c in layout.chars)
    out = []
    for key in ("One short point", "Results", "A label", "Second label"):
        if key in text:
            start = text.index(key)
            end = start + len(key) if key != "A label" else text.index("Second label")
            chars = [c for c in layout.chars[start:end] if c.char.strip()]
            out.append((min(c.x0 for c in chars), min(c.top for c in chars), max(c.x1 for c in chars), max(c.bottom for c in chars)))
    return out


def _meet(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_overlapping_empty_frames_do_not_overlap(tmp_path: Path) -> None:
    path = _deck(tmp_path / "moved.pptx", _title_in_empty_body)
    body, title = _text_boxes(path)
    assert not _meet(body, title)
    doc = load(path)
    frames = [(b.x0, b.top, b.x1, b.bottom) for n in doc.select("shape") if (b := n.box) is not None]
    assert _meet(frames[0], frames[1])
    verdict = run_check("no_overlap", doc, {"target": "shape"})
    assert verdict.status == "pass", verdict.explanation


@pytest.mark.parametrize("filled", [False, True])
def test_text_running_onto_the_next_label_overlaps(tmp_path: Path, filled: bool) -> None:
    path = _deck(tmp_path / f"spill{filled}.pptx", lambda prs: _spilling_labels(prs, filled=filled))
    first, second = _text_boxes(path)
    assert _meet(first, second) is True  # the first label's third line is drawn over the second
    doc = load(path)
    verdict = run_check("no_overlap", doc, {"target": "textbox"})
    # the frames are apart; the first one's text spills out of its box, over the second
    # label's text (bare frames) and over its painted box (filled frames)
    assert verdict.status == "fail", verdict.explanation
