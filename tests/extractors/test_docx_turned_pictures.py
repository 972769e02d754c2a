"""A turned picture (``a:xfrm rot="5400000"``, as agents rotate a photo by editing the
XML). LibreOffice embeds the turned bitmap, so neither the file's pixel hash nor its phash
matched, and the picture was "not located" (or took a look-alike's place). The truth is
the page image: the picture's red half, on its left in the file, is drawn on top once
turned 90 degrees clockwise. At 15 degrees the bitmap is embedded in its bounding box
(the picture was not located at all), and a turned picture's aspect is its own, not its
bounding box's (at 90 degrees ``image_not_distorted`` read it squeezed by 75%)."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn
from docx.shared import Inches
from PIL import Image, ImageDraw

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box
from tests.extractors.rendered_look import background, same_color

pytestmark = pytest.mark.slow


def _turned_letter(folder: Path, rot: str) -> Path:
    img = Image.new("RGB", (400, 300), (30, 60, 200))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 199, 299), fill=(210, 30, 30))
    for x in range(0, 400, 25):  # texture, as a photo has
        draw.line((x, 0, 400 - x, 300), fill=(240, 220, 60), width=3)
    img.save(folder / "photo.png")
    d = docx.Document()
    d.add_paragraph("Figure 1")
    picture = d.add_paragraph().add_run().add_picture(str(folder / "photo.png"), width=Inches(2))
    xfrm = picture._inline.find(".//" + qn("a:xfrm"))
    xfrm.set("rot", rot)
    d.add_paragraph("End of report")
    path = folder / f"turned-{rot}.docx"
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def turned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _turned_letter(tmp_path_factory.mktemp("turned"), "5400000")


@pytest.fixture(scope="module")
def tilted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _turned_letter(tmp_path_factory.mktemp("tilted"), "900000")  # 15 degrees


def test_a_turned_picture_is_boxed_where_it_is_drawn(turned: Path) -> None:
    doc = load(turned)
    (image,) = doc.select("image")
    assert image.attrs["rotation"] == 90
    assert image.boxes, image.attrs
    b = image.box
    assert b.height > b.width  # drawn upright: 2 in wide turned is 2 in tall
    pdf = render_pdf(turned).pdf_path
    top = Box(page=b.page, x0=b.x0 + 4, top=b.top + 4, x1=b.x1 - 4, bottom=b.top + 20)
    bottom = Box(page=b.page, x0=b.x0 + 4, top=b.bottom - 20, x1=b.x1 - 4, bottom=b.bottom - 4)
    assert same_color(background(pdf, top), "#d21e1e", tolerance=6), background(pdf, top)
    assert same_color(background(pdf, bottom), "#1e3cc8", tolerance=6), background(pdf, bottom)
    verdict = run_check("relative_position", doc, {"a": {"text": "End of report"}, "b": "image", "relation": "below"})
    assert verdict.status == "pass", verdict.explanation


def test_a_quarter_turned_picture_keeps_its_own_aspect(turned: Path) -> None:
    doc = load(turned)
    (image,) = doc.select("image")
    assert image.box.polygon is not None
    verdict = run_check("image_not_distorted", doc, {"target": "image"})
    assert verdict.status == "pass", verdict.explanation


def test_a_tilted_picture_is_boxed_around_what_is_drawn(tilted: Path) -> None:
    """144 x 108 pt turned 15 degrees: drawn in a 167.0 x 141.6 pt box (w cos + h sin,
    w sin + h cos), its corners on the box's edges. The render shows the red half's colour left
    of the centre and the blue half's right of it, and white in the box's corners."""
    doc = load(tilted)
    (image,) = doc.select("image")
    assert image.boxes, image.attrs
    b = image.box
    assert abs(b.width - 167.0) < 3 and abs(b.height - 141.6) < 3, b
    assert b.polygon is not None and len(b.polygon) == 4
    pdf = render_pdf(tilted).pdf_path
    cx, cy = (b.x0 + b.x1) / 2, (b.top + b.bottom) / 2
    left = Box(page=b.page, x0=cx - 50, top=cy - 8, x1=cx - 30, bottom=cy + 8)
    right = Box(page=b.page, x0=cx + 30, top=cy - 8, x1=cx + 50, bottom=cy + 8)
    corner = Box(page=b.page, x0=b.x0 + 1, top=b.top + 1, x1=b.x0 + 8, bottom=b.top + 8)
    assert same_color(background(pdf, left), "#d21e1e", tolerance=12), background(pdf, left)
    assert same_color(background(pdf, right), "#1e3cc8", tolerance=12), background(pdf, right)
    assert same_color(background(pdf, corner), "#ffffff", tolerance=6), background(pdf, corner)
    for check in ("image_not_distorted", "within_page"):
        verdict = run_check(check, doc, {"target": "image"})
        assert verdict.status == "pass", (check, verdict.explanation)
