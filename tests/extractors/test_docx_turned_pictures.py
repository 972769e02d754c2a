"""A picture turned by a right angle (``a:xfrm rot="5400000"``, as agents rotate a photo
by editing the XML). LibreOffice embeds the turned bitmap, so neither the file's pixel
hash nor its phash matched, and the picture was "not located" (or took a look-alike's
place). The truth is the page image: the picture's red half, on its left in the file,
is drawn on top once turned 90 degrees clockwise."""

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


@pytest.fixture(scope="module")
def turned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("turned")
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
    xfrm.set("rot", "5400000")
    d.add_paragraph("End of report")
    path = folder / "turned.docx"
    d.save(str(path))
    return path


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
