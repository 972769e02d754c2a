"""OCR checks on pictures as the page draws them: turned, covered by another picture,
transparent, set in two columns, or screenshots with 8-10 px text. Each deck is built with
python-pptx the way agents build them, with text drawn at known pixel positions; where the
verdict depends on what is seen, the LibreOffice render is the truth (ink, or its absence,
where the word is drawn)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from PIL import Image, ImageDraw, ImageFont
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.util import Pt

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.extractors.ocr.engine import OcrResult, OcrWord
from artifactcheck.extractors.ocr.phrase import find_phrase
from artifactcheck.model import Document
from tests.extractors.agent_decks import save

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
A = "http://schemas.openxmlformats.org/drawingml/2006/main"

needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed")
Rect = tuple[float, float, float, float]


def text_picture(
    size: tuple[int, int], texts: list[tuple[str, int, int, int]], *, bg: tuple[int, ...] = (255, 255, 255), fg: tuple[int, ...] = (0, 0, 0), font: str = FONT, panel: Rect | None = None
) -> tuple[bytes, dict[str, Rect]]:
    """A PNG with each (text, x, y, px) drawn, and a ``panel`` outline (a screenshot's
    content pane); the drawn text's pixel boxes by text."""
    mode = "RGBA" if len(bg) == 4 else "RGB"
    img = Image.new(mode, size, bg)
    draw = ImageDraw.Draw(img)
    if panel is not None:
        draw.rectangle(panel, outline=fg)
    where: dict[str, Rect] = {}
    for text, x, y, px in texts:
        f = ImageFont.truetype(font, px)
        draw.text((x, y), text, fill=fg, font=f)
        where[text] = draw.textbbox((x, y), text, font=f)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue(), where


def solid_png(size: tuple[int, int], colour: tuple[int, ...]) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA" if len(colour) == 4 else "RGB", size, colour).save(out, format="PNG")
    return out.getvalue()


def dot_png() -> bytes:
    """A logo on a transparent background: one red dot at its right end."""
    img = Image.new("RGBA", (300, 100), (0, 0, 0, 0))
    ImageDraw.Draw(img).ellipse([220, 10, 290, 80], fill=(200, 40, 40, 255))
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def white_box(slide: object, x: float, y: float, w: float, h: float, *, alpha: float | None = None) -> None:
    shape = slide.shapes.add_shape(1, Pt(x), Pt(y), Pt(w), Pt(h))  # type: ignore[attr-defined]
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor(255, 255, 255)  # type: ignore[no-untyped-call]
    shape.line.fill.background()
    if alpha is not None:
        colour = shape._element.spPr.find(f"{{{A}}}solidFill")[0]
        etree.SubElement(colour, f"{{{A}}}alpha").set("val", str(int(alpha * 100000)))


STAMP, STAMP_AT = text_picture((800, 400), [("Confidential", 40, 40, 56), ("Approved", 40, 290, 56)])
MEMO, MEMO_AT = text_picture((800, 500), [("Confidential", 60, 40, 50), ("Draft", 60, 210, 50), ("Budget", 60, 380, 50)])
COLUMNS, _ = text_picture((900, 400), [("Revenue grew", 40, 60, 40), ("strongly in Q3", 40, 120, 40), ("Costs fell", 480, 60, 40), ("sharply in Q4", 480, 120, 40)])
LOGO_BLACK, LOGO_AT = text_picture((360, 120), [("ACME", 20, 25, 56)], bg=(0, 0, 0, 0), fg=(0, 0, 0, 255), font=BOLD)
LOGO_WHITE, _ = text_picture((360, 120), [("ACME", 20, 25, 56)], bg=(0, 0, 0, 0), fg=(255, 255, 255, 255), font=BOLD)
SHOT, SHOT_AT = text_picture(
    (1400, 900),
    [("File  Edit  View  Insert  Format  Tools  Help", 10, 8, 10), ("Dashboard", 20, 60, 10), ("Revenue", 20, 90, 9), ("Customers", 20, 120, 9),
     ("Settings", 20, 150, 9), ("Monthly active users", 300, 60, 10), ("Export report", 1200, 60, 9), ("Status: Confidential", 300, 860, 8)],
    bg=(246, 246, 246), fg=(40, 40, 40), panel=(290, 200, 1380, 820),
)  # fmt: skip
"""With the pane's outline tesseract reads the 10 px text at 1x and misses the 9 px and 8 px
labels; without it, it read them all."""

# slide 0: STAMP at 160,120 400x200 pt turned 180, an opaque box over the frame's lower half
# slide 1: STAMP at 160,170 400x200 pt turned 90 (drawn 260..460 x 70..470), a box over its left half
# slide 2: MEMO at 120,80 480x300 pt (0.6 pt/px); an opaque picture over "Budget", a clear logo over "Confidential"
# slide 3: two text columns; slide 4: transparent black logo; slide 5: transparent white logo on a dark slide
# slide 6: a 1400x900 px screenshot at 40,60 640x411 pt
STAMP180_FRAME = (160.0, 120.0, 400.0, 200.0)
STAMP90_FRAME = (160.0, 170.0, 400.0, 200.0)
MEMO_FRAME = (120.0, 80.0, 480.0, 300.0)
SHOT_FRAME = (40.0, 60.0, 640.0, 411.0)
# slide 7: "Picture with Caption" layout; insert_picture crops the 2:1 SPLIT to the 4:3 placeholder
SPLIT, SPLIT_AT = text_picture((800, 400), [("Revenue", 60, 170, 50), ("Profit", 480, 170, 50)])


def build(path: Path) -> Path:
    prs = Presentation()
    blank = prs.slide_layouts[6]

    def picture(slide: object, data: bytes, frame: tuple[float, float, float, float], name: str, rotation: float = 0) -> None:
        x, y, w, h = frame
        shape = slide.shapes.add_picture(io.BytesIO(data), Pt(x), Pt(y), Pt(w), Pt(h))  # type: ignore[attr-defined]
        shape.name = name
        shape.rotation = rotation

    s = prs.slides.add_slide(blank)
    picture(s, STAMP, STAMP180_FRAME, "Stamp180", 180)
    white_box(s, 150, 220, 420, 110)
    s = prs.slides.add_slide(blank)
    picture(s, STAMP, STAMP90_FRAME, "Stamp90", 90)
    white_box(s, 250, 60, 110, 420)
    s = prs.slides.add_slide(blank)
    picture(s, MEMO, MEMO_FRAME, "Memo")
    picture(s, solid_png((200, 30), (30, 140, 60)), (110, 300, 300, 45), "Patch")  # over "Budget" (y 313..342)
    picture(s, dot_png(), (110, 95, 420, 45), "Dot")  # over "Confidential" (y 109..133); its dot clears the word
    s = prs.slides.add_slide(blank)
    picture(s, COLUMNS, (60, 100, 600, 267), "Columns")
    s = prs.slides.add_slide(blank)
    picture(s, LOGO_BLACK, (60, 60, 180, 60), "LogoBlack")
    s = prs.slides.add_slide(blank)
    s.background.fill.solid()
    s.background.fill.fore_color.rgb = RGBColor(0x10, 0x18, 0x30)  # type: ignore[no-untyped-call]
    picture(s, LOGO_WHITE, (60, 60, 180, 60), "LogoWhite")
    s = prs.slides.add_slide(blank)
    picture(s, SHOT, SHOT_FRAME, "Shot")
    s = prs.slides.add_slide(prs.slide_layouts[8])
    placed = s.placeholders[1].insert_picture(io.BytesIO(SPLIT))
    placed.name = "Placed"
    return save(prs, path)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Document:
    if shutil.which("tesseract") is None:
        pytest.skip("tesseract not installed")
    return load(build(tmp_path_factory.mktemp("ocr_drawn") / "drawn.pptx"))


@pytest.fixture(scope="module")
def res() -> Resources:
    from artifactcheck.extractors.ocr.engine import OcrEngine

    return Resources(extras={"ocr_engine": OcrEngine()})


def in_picture(deck: Document, res: Resources, text: str, name: str) -> tuple[str, list[dict[str, Any]], str]:
    r = run_check("ocr_text_in_node", deck, {"text": text, "target": f'image[name="{name}"]'}, res)
    evidence: Any = r.evidence
    matches = [m for row in evidence.get("nodes", []) for m in row.get("matches", [])]
    return r.status, matches, r.explanation


def turned(frame: tuple[float, float, float, float], px: Rect, size: tuple[int, int], degrees: int) -> Rect:
    """Where a pixel box of a picture in ``frame`` is drawn when the frame is turned
    clockwise by ``degrees`` (90 or 180) about its centre: plain geometry, the truth."""
    x, y, w, h = frame
    cx, cy = x + w / 2, y + h / 2
    corners = [(x + u / size[0] * w - cx, y + v / size[1] * h - cy) for u in (px[0], px[2]) for v in (px[1], px[3])]
    if degrees == 180:
        pts = [(cx - dx, cy - dy) for dx, dy in corners]
    else:
        pts = [(cx - dy, cy + dx) for dx, dy in corners]
    return min(p[0] for p in pts), min(p[1] for p in pts), max(p[0] for p in pts), max(p[1] for p in pts)


def ink(deck: Document, page: int, rect: Rect, *, light: bool = False) -> float:
    """Share of text-dark (``light``: light) pixels of the LibreOffice render inside
    ``rect`` (points): black lettering, not the green patch (grey level 98) over it."""
    from artifactcheck.extractors.render import page_image, render_pdf

    assert deck.artifact.path is not None
    image = page_image(render_pdf(Path(deck.artifact.path)).pdf_path, page, dpi=72).convert("L")
    part = image.crop(tuple(round(v) for v in rect))  # type: ignore[arg-type]
    histogram = part.histogram()
    return sum(histogram[160:] if light else histogram[:60]) / max(1, sum(histogram))


def near(box: dict[str, float], rect: Rect, slack: float = 6.0) -> bool:
    return all(abs(a - b) <= slack for a, b in zip((box["x0"], box["top"], box["x1"], box["bottom"]), rect, strict=True))


@pytest.mark.slow
def test_text_of_a_turned_picture_is_placed_where_it_is_drawn(deck: Document, res: Resources) -> None:
    """Turned 180: "Confidential" (the picture's top) is drawn at the bottom, under the
    box; "Approved" at the top, seen. Turned 90: "Confidential" runs down the right side,
    seen; "Approved" down the left, under the box. The render agrees (ink or none)."""
    cases = [
        (0, "Stamp180", STAMP180_FRAME, 180, {"Confidential": False, "Approved": True}),
        (1, "Stamp90", STAMP90_FRAME, 90, {"Confidential": True, "Approved": False}),
    ]
    for page, name, frame, degrees, shown in cases:
        for word, visible in shown.items():
            drawn = turned(frame, STAMP_AT[word], (800, 400), degrees)
            assert (ink(deck, page, drawn) > 0.05) is visible, (name, word)  # the render's truth
            status, matches, why = in_picture(deck, res, word, name)
            assert status == ("pass" if visible else "fail"), (name, word, why)
            assert matches and near(matches[0]["box"], drawn), (name, word, matches, drawn)


@pytest.mark.slow
def test_a_picture_drawn_over_the_text_hides_it_where_it_paints(deck: Document, res: Resources) -> None:
    def drawn(word: str) -> Rect:
        x0, y0, x1, y1 = MEMO_AT[word]
        return 120 + x0 * 0.6, 80 + y0 * 0.6, 120 + x1 * 0.6, 80 + y1 * 0.6

    assert ink(deck, 2, drawn("Budget")) < 0.01  # the green patch paints over it
    status, _, why = in_picture(deck, res, "Budget", "Memo")
    assert status == "fail" and "not shown (under s2/sh1)" in why, why
    assert ink(deck, 2, drawn("Confidential")) > 0.05  # the logo's clear part shows it
    status, _, why = in_picture(deck, res, "Confidential", "Memo")
    assert status == "pass", why


@pytest.mark.slow
def test_text_in_two_columns_reads_down_each_column(deck: Document, res: Resources) -> None:
    """Tesseract reads the rows across both columns ("Revenue grew Costs fell")."""
    status, matches, why = in_picture(deck, res, "Revenue grew strongly", "Columns")
    assert status == "pass", why
    box = matches[0]["box"]
    assert box["x1"] < 360, box  # the left column only (it ends at px 300 -> 260 pt)
    status, matches, why = in_picture(deck, res, "Costs fell sharply", "Columns")
    assert status == "pass" and str(matches[0]["text"]).lower() == "costs fell sharply", (why, matches)


@pytest.mark.slow
def test_lettering_of_a_transparent_logo_is_read(deck: Document, res: Resources) -> None:
    """The logo's clear pixels show the slide behind them (white; dark blue on slide 5);
    read as stored they are black, and at 5x (600 px high) its letters are too big."""
    x0, y0, x1, y1 = LOGO_AT["ACME"]
    drawn = (60 + x0 * 0.5, 60 + y0 * 0.5, 60 + x1 * 0.5, 60 + y1 * 0.5)  # 360x120 px in 180x60 pt
    for page, name, light in ((4, "LogoBlack", False), (5, "LogoWhite", True)):
        assert ink(deck, page, drawn, light=light) > 0.1  # the render shows the lettering
        status, matches, why = in_picture(deck, res, "ACME", name)
        assert status == "pass", (name, why)
        assert near(matches[0]["box"], drawn, slack=3), (matches, drawn)


@pytest.mark.slow
def test_small_labels_of_a_screenshot_are_read(deck: Document, res: Resources) -> None:
    x, y, w, h = SHOT_FRAME
    for word in ("Customers", "Status: Confidential"):
        status, matches, why = in_picture(deck, res, word, "Shot")
        assert status == "pass", (word, why)
        x0, y0, x1, y1 = SHOT_AT[word]
        truth = (x + x0 * w / 1400, y + y0 * h / 900, x + x1 * w / 1400, y + y1 * h / 900)
        assert near(matches[0]["box"], truth, slack=3), (matches, truth)


def test_a_table_row_stays_a_phrase_when_columns_are_read() -> None:
    """Reading down columns is added to tesseract's row order, not put in its place: a
    receipt's "Total ... $1,250" (a row across a wide gap) is still one phrase."""
    rows = [("Subtotal", 0, "1"), ("$1,000", 400, "1"), ("Tax", 0, "2"), ("$250", 400, "2"), ("Total", 0, "3"), ("$1,250", 400, "3")]
    words = tuple(OcrWord(t, 95, x, 20 * int(ln), 60, 12, f"1.1.{ln}") for t, x, ln in rows)
    result = OcrResult(words, 500, 80, "eng", 3, "k", 0)
    assert [m.text for m in find_phrase(result, "Total $1,250")] == ["Total $1,250"]
    # neither the last label with the first amount (columns read one after the other)
    # nor "Subtotal $1,000" (a score of 88) is "Total $1,000"
    assert find_phrase(result, "Total $1,000") == []


def test_a_longer_word_is_not_the_word() -> None:
    """A stamp reading "UNAPPROVED" does not say "Approved" (rapidfuzz: 89)."""
    words = tuple(OcrWord(t, 95, 100 * i, 0, 90, 20, "1.1.1") for i, t in enumerate(["UNAPPROVED", "Inactive", "users", "Revenues"]))
    result = OcrResult(words, 500, 40, "eng", 3, "k", 0)
    assert find_phrase(result, "Approved") == [] and find_phrase(result, "active users") == []
    assert [m.text for m in find_phrase(result, "Revenue")] == ["Revenues"]  # a plural's "s" is not another word


@pytest.mark.slow
def test_a_word_the_crop_cuts_through_is_not_shown(deck: Document, res: Resources) -> None:
    """python-pptx crops the picture to its placeholder's shape (a sixth off each side):
    the page shows "venue", which scores 83 against "Revenue"."""
    node = next(n for n in deck.select("image") if n.attrs.get("name") == "Placed")
    crop: Any = node.attrs["crop"]
    left = float(crop["l"]) * 800
    assert SPLIT_AT["Revenue"][0] < left < SPLIT_AT["Revenue"][2]  # the crop's edge runs through the word
    status, _, why = in_picture(deck, res, "Revenue", "Placed")
    assert status == "fail" and "'venue'" in why, why
    status, _, why = in_picture(deck, res, "Profit", "Placed")
    assert status == "pass", why


@pytest.mark.slow
def test_a_region_holds_the_text_of_a_turned_picture(deck: Document, res: Resources) -> None:
    """The page's OCR does not read the upside-down stamp; where the picture draws its
    words decides, and what the box covers is still not there."""
    top_half = {"x0": 0, "top": 0, "x1": 1, "bottom": 0.5}
    shown = run_check("ocr_text_in_region", deck, {"text": "Approved", "region": top_half, "page": 0}, res)
    assert shown.status == "pass", shown.explanation
    hidden = run_check("ocr_text_in_region", deck, {"text": "Confidential", "region": "page", "page": 0}, res)
    assert hidden.status == "fail", hidden.explanation
    assert ink(deck, 0, turned(STAMP180_FRAME, STAMP_AT["Approved"], (800, 400), 180)) > 0.05  # drawn (upside down) in the top half
