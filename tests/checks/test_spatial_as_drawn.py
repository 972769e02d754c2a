"""Spatial intents judged as the slide is drawn, on decks built the way agents build them
(python-pptx defaults). The truth is LibreOffice's render: where it draws each text's
glyphs (pdfium's tight character boxes) and which pixels it paints.

- A picture placed over the empty bottom of the title frame is *below* the title: the
  title's words are drawn in the middle of the frame, clear above it (the frames overlap).
- A caption anchored at the bottom of a tall text box that starts over the picture is
  *below* the picture.
- A title left-aligned in the full-width title frame is not centred on the slide (the
  frame is).
- A diagonal connector does not touch a label standing in the empty corner of the
  rectangle it runs across (its bounding box "overlapped" the label); a connector drawn
  straight through a label overlaps it (a line shares no area with it, so it "did not").
- "the bottom of the last page" names the last page, as "last page bottom" does.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_CONNECTOR, MSO_SHAPE
from pptx.enum.text import MSO_ANCHOR, MSO_AUTO_SIZE, PP_ALIGN
from pptx.slide import Slide
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.checks.regions import parse_region
from artifactcheck.extractors.render import render_pdf

TITLE = "shape[placeholder_type='title']"
Bounds = tuple[float, float, float, float]


def _picture(tmp_path: Path) -> Path:
    path = tmp_path / "chart.png"
    Image.new("RGB", (400, 300), (200, 40, 40)).save(path)
    return path


def _title(slide: Slide) -> Any:
    title = slide.shapes.title
    assert title is not None
    return title


def _deck(path: Path, layout: int, build: Callable[[Slide], None]) -> Path:
    prs = Presentation()
    build(prs.slides.add_slide(prs.slide_layouts[layout]))
    prs.save(str(path))
    return path


def _glyphs(pdf: Path, text: str) -> Bounds:
    """The tight bounds of the glyphs drawing ``text`` on the first page (top-left origin)."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(pdf))[0]
    height, chars = page.get_height(), page.get_textpage()
    at = chars.get_text_range().index(text)
    boxes = [chars.get_charbox(at + k) for k in range(len(text)) if not text[k].isspace()]
    return (min(b[0] for b in boxes), height - max(b[3] for b in boxes), max(b[2] for b in boxes), height - min(b[1] for b in boxes))


def _pictures(pdf: Path) -> list[Bounds]:
    import pypdfium2 as pdfium
    from pypdfium2 import raw

    page = pdfium.PdfDocument(str(pdf))[0]
    height = page.get_height()
    out = []
    for obj in page.get_objects(max_depth=5):
        if obj.type == raw.FPDF_PAGEOBJ_IMAGE:
            left, bottom, right, top = obj.get_bounds()
            out.append((left, height - top, right, height - bottom))
    return out


def _dark_pixels(pdf: Path, box: Bounds, scale: float = 2.0) -> int:
    """Near-black pixels LibreOffice paints inside ``box`` (pt): the connectors are black,
    the labels blue with white text."""
    import numpy as np
    import pypdfium2 as pdfium

    image = pdfium.PdfDocument(str(pdf))[0].render(scale=scale).to_pil().convert("RGB")
    x0, top, x1, bottom = (int(v * scale) for v in box)
    pixels = np.asarray(image)[top:bottom, x0:x1].astype(int)
    return int((pixels.max(axis=2) < 70).sum())


@pytest.mark.slow
def test_picture_over_the_empty_bottom_of_the_title_frame_is_below_the_title(tmp_path: Path) -> None:
    chart = _picture(tmp_path)

    def build(slide: Slide) -> None:
        _title(slide).text = "Quarterly Results"
        slide.shapes.add_picture(str(chart), Inches(2.5), Inches(1.45), width=Inches(5))

    path = _deck(tmp_path / "title.pptx", 5, build)
    pdf = render_pdf(path).pdf_path
    title, (picture,) = _glyphs(pdf, "Quarterly Results"), _pictures(pdf)
    assert title[3] + 5 < picture[1]  # the title's words end well above the picture
    doc = load(path)
    frame = doc.select(TITLE)[0].box
    assert frame is not None and frame.bottom > picture[1] + 5  # but its frame runs into it
    for check, params in (
        ("relative_position", {"a": TITLE, "b": "image", "relation": "above"}),
        ("stacked", {"target": "slide > *"}),
        ("spatial_relation", {"a": TITLE, "b": "image", "relation": "disjoint"}),
        ("no_overlap", {"target": "slide > *"}),
    ):
        verdict = run_check(check, doc, params)
        assert verdict.status == "pass", (check, verdict.explanation)


@pytest.mark.slow
def test_caption_at_the_bottom_of_a_tall_text_box_is_below_the_picture(tmp_path: Path) -> None:
    chart = _picture(tmp_path)

    def build(slide: Slide) -> None:
        slide.shapes.add_picture(str(chart), Inches(1), Inches(1), width=Inches(4))
        box = slide.shapes.add_textbox(Inches(1), Inches(2), Inches(4), Inches(2.5))
        box.text_frame.text = "Figure 1: revenue"
        box.text_frame.auto_size = MSO_AUTO_SIZE.NONE
        box.text_frame.vertical_anchor = MSO_ANCHOR.BOTTOM

    path = _deck(tmp_path / "caption.pptx", 6, build)
    pdf = render_pdf(path).pdf_path
    caption, (picture,) = _glyphs(pdf, "Figure 1: revenue"), _pictures(pdf)
    assert caption[1] > picture[3]
    doc = load(path)
    below = run_check("relative_position", doc, {"a": "textbox", "b": "image", "relation": "below"})
    assert below.status == "pass", below.explanation
    evidence: Any = below.evidence
    assert evidence["judged_by_drawn_text"] == [doc.select("textbox")[0].id]
    column = run_check("stacked", doc, {"target": "slide > *"})
    assert column.status == "pass", column.explanation


@pytest.mark.slow
def test_left_aligned_title_in_the_full_width_frame_is_not_centred(tmp_path: Path) -> None:
    def build(slide: Slide) -> None:
        title = _title(slide)
        title.text = "Quarterly Results"
        title.text_frame.paragraphs[0].alignment = PP_ALIGN.LEFT

    path = _deck(tmp_path / "left.pptx", 5, build)
    title = _glyphs(render_pdf(path).pdf_path, "Quarterly Results")
    assert abs((title[0] + title[2]) / 2 - 360) > 100  # drawn well left of the slide's centre
    verdict = run_check("centered_on_page", load(path), {"target": TITLE})
    assert verdict.status == "fail", verdict.explanation


def _black(connector: Any) -> None:
    connector.line.color.rgb = RGBColor(0, 0, 0)  # type: ignore[no-untyped-call]


def _label(slide: Slide, x: float, y: float, w: float, h: float, text: str) -> None:
    slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(x), Inches(y), Inches(w), Inches(h)).text = text


@pytest.mark.slow
@pytest.mark.parametrize("upward", [False, True])
def test_diagonal_connector_misses_the_label_in_its_boxes_corner(tmp_path: Path, upward: bool) -> None:
    # downward: (1.5, 1) -> (5, 4) in, the label near the top-right corner of that
    # rectangle; upward (python-pptx flips it): (1, 5) -> (6, 1), the label lower right
    label = (4.5, 3.8, 1.3, 0.8) if upward else (4.2, 0.8, 1.3, 0.6)
    ends = [Inches(v) for v in ((1, 5, 6, 1) if upward else (1.5, 1, 5, 4))]

    def build(slide: Slide) -> None:
        _label(slide, label[0], label[1], label[2], label[3], "Note")
        _black(slide.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, ends[0], ends[1], ends[2], ends[3]))

    path = _deck(tmp_path / f"diagonal{upward}.pptx", 6, build)
    x, y, w, h = label
    assert _dark_pixels(render_pdf(path).pdf_path, (x * 72, y * 72, (x + w) * 72, (y + h) * 72)) == 0
    doc = load(path)
    for check, params in (
        ("no_overlap", {"target": "shape"}),
        ("spatial_relation", {"a": {"selector": "shape", "text": "Note"}, "b": "shape[connector=true]", "relation": "disjoint"}),
    ):
        verdict = run_check(check, doc, params)
        assert verdict.status == "pass", (check, verdict.explanation)


@pytest.mark.slow
def test_connector_drawn_through_a_label_overlaps_it(tmp_path: Path) -> None:
    def build(slide: Slide) -> None:
        _label(slide, 3, 2, 2, 1, "Label")
        _black(slide.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, Inches(1), Inches(2.5), Inches(7), Inches(2.5)))
        # a connector joining two boxes edge to edge touches them: no overlap
        _label(slide, 1, 4, 1.5, 1, "A")
        _label(slide, 5, 5, 1.5, 1, "B")
        _black(slide.shapes.add_connector(MSO_CONNECTOR.STRAIGHT, Inches(2.5), Inches(4.5), Inches(5), Inches(5.5)))

    path = _deck(tmp_path / "through.pptx", 6, build)
    assert _dark_pixels(render_pdf(path).pdf_path, (3 * 72, 2 * 72, 5 * 72, 3 * 72)) > 100
    doc = load(path)
    verdict = run_check("no_overlap", doc, {"target": "shape"})
    assert verdict.status == "fail", verdict.explanation
    evidence: Any = verdict.evidence
    assert [{o["a"], o["b"]} for o in evidence["overlapping"]] == [{doc.select("shape")[0].id, doc.select("shape")[1].id}]


@pytest.mark.parametrize(
    "text", ["bottom of the last page", "the last slide's bottom", "bottom third of the last slide", "last page bottom"]
)
def test_the_page_may_be_named_after_the_side(text: str) -> None:
    parsed = parse_region(text)
    assert (parsed.page, parsed.region) == ("last", parse_region("bottom").region)


def test_three_pictures_at_the_bottom_of_the_last_slide(tmp_path: Path) -> None:
    chart = _picture(tmp_path)
    prs = Presentation()
    for _ in range(3):
        slide = prs.slides.add_slide(prs.slide_layouts[6])
    for i in range(3):
        slide.shapes.add_picture(str(chart), Inches(0.75 + 3 * i), Inches(5), width=Inches(2.5))
    prs.save(str(tmp_path / "deck.pptx"))
    doc = load(tmp_path / "deck.pptx")
    verdict = run_check("in_region", doc, {"target": "image", "region": "the bottom of the last page"})
    assert verdict.status == "pass", verdict.explanation
    evidence: Any = verdict.evidence
    assert evidence["nodes"][0]["page"] == 2
    with pytest.raises(ValueError, match="both the first and the last"):
        parse_region("top of the first page or the last page")


@pytest.mark.slow
def test_body_narrowed_by_width_alone_sits_beside_the_picture(tmp_path: Path) -> None:
    # python-pptx's `placeholder.width = ...` writes <a:xfrm><a:ext cx=".." cy="0"/>: the
    # frame is 0 pt high, the text is drawn from its top down, beside the picture
    chart = _picture(tmp_path)

    def build(slide: Slide) -> None:
        _title(slide).text = "Highlights"
        body = slide.placeholders[1]
        body.text_frame.text = "Revenue up 12%"
        body.text_frame.add_paragraph().text = "Costs down 3%"
        body.width = Inches(4.5)
        slide.shapes.add_picture(str(chart), Inches(5.3), Inches(1.8), width=Inches(4))

    path = _deck(tmp_path / "narrowed.pptx", 1, build)
    pdf = render_pdf(path).pdf_path
    first, last, (picture,) = _glyphs(pdf, "Revenue up 12%"), _glyphs(pdf, "Costs down 3%"), _pictures(pdf)
    assert picture[1] < first[1] and last[3] < picture[3] and last[2] < picture[0]  # beside it
    pair = {"selector": "shape, image", "where": ["top > 120"]}  # the body and the picture
    verdict = run_check("side_by_side", load(path), {"target": pair})
    assert verdict.status == "pass", verdict.explanation


def _red_columns(pdf: Path) -> list[tuple[int, int]]:
    """Column spans (pt, at 72 dpi) of the red marks LibreOffice paints, left to right."""
    import numpy as np
    import pypdfium2 as pdfium

    pixels = np.asarray(pdfium.PdfDocument(str(pdf))[0].render(scale=1).to_pil().convert("RGB")).astype(int)
    red: Any = ((pixels[:, :, 0] > 180) & (pixels[:, :, 1] < 80)).any(axis=0).tolist()
    spans: list[tuple[int, int]] = []
    start: int | None = None
    for x, on in enumerate([*red, False]):
        if on and start is None:
            start = x
        elif not on and start is not None:
            spans.append((start, x - 1))
            start = None
    return spans


@pytest.mark.slow
def test_logos_whose_transparent_margins_overlap_do_not_overlap(tmp_path: Path) -> None:
    # a PNG logo on a transparent canvas twice its size, as logo exports come; the
    # second copy placed 2.2 in right of the first: the canvases overlap, the marks do not
    logo = tmp_path / "logo.png"
    image = Image.new("RGBA", (400, 400), (0, 0, 0, 0))
    from PIL import ImageDraw

    ImageDraw.Draw(image).ellipse([100, 100, 300, 300], fill=(220, 30, 30, 255))
    image.save(logo)

    def build(slide: Slide) -> None:
        for x in (1, 3.2):
            slide.shapes.add_picture(str(logo), Inches(x), Inches(2), width=Inches(3))

    path = _deck(tmp_path / "logos.pptx", 6, build)
    pdf = render_pdf(path).pdf_path
    (first, second) = _red_columns(pdf)
    assert first[1] + 20 < second[0]  # the marks are well apart
    frames = _pictures(pdf)
    assert frames[0][2] > frames[1][0] + 20  # their canvases overlap
    doc = load(path)
    for check in ("no_overlap", "side_by_side"):
        verdict = run_check(check, doc, {"target": "image"})
        assert verdict.status == "pass", (check, verdict.explanation)
    assert run_check("same_size", doc, {"target": "image"}).status == "pass"  # sizes stay the frames'


def test_unwrapped_text_running_off_the_slide_hangs_off_it(tmp_path: Path) -> None:
    """"Nothing hangs off the slide": a python-pptx text box whose frame lies on the slide
    but whose unwrapped URL is drawn far past its right edge passed ``within_page``, which
    held only the frame to the slide."""
    url = "https://example.org/a/very/long/path/that/does/not/wrap/at/all"

    def build(slide: Slide) -> None:
        box = slide.shapes.add_textbox(Inches(6), Inches(3), Inches(3.5), Inches(0.8))
        box.text_frame.word_wrap = False
        box.text_frame.auto_size = MSO_AUTO_SIZE.NONE
        box.text_frame.text = url

    path = _deck(tmp_path / "off_edge.pptx", 6, build)
    pdf = render_pdf(path).pdf_path
    assert _glyphs(pdf, "does")[2] > 720  # drawn past the 720 pt wide slide
    result = run_check("within_page", load(path), {"target": "textbox"})
    assert result.status == "fail", result.explanation
    assert result.evidence["outside"][0].get("drawn_text") is True

    def on_slide(slide: Slide) -> None:
        slide.shapes.add_textbox(Inches(1), Inches(3), Inches(3.5), Inches(0.8)).text_frame.text = "Short"

    fits = _deck(tmp_path / "on_slide.pptx", 6, on_slide)
    assert run_check("within_page", load(fits), {"target": "textbox"}).status == "pass"
