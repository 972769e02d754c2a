"""A .docx picture cropped with ``a:srcRect`` (Word's crop tool; an agent edits the XML)
shows only the part it keeps. The file stores the whole original, and the tree's blob
was that original: ``image_matches`` of what the page shows failed (SSIM 0.62) while the
uncropped original passed on identical bytes. The blob is now the kept part, the file's
image ``original_blob``, as for .pptx. The truth is the page: inside the picture's box
LibreOffice draws the middle of the original (blue, a yellow disc) and none of its red
and green sides."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn
from docx.shared import Pt
from lxml import etree
from PIL import Image, ImageDraw

from artifactcheck import load, run_check
from artifactcheck.checks.registry import Resources
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box
from tests.extractors.rendered_look import background, same_color

RED, BLUE, GREEN, YELLOW = (230, 40, 40), (30, 60, 200), (40, 170, 60), (250, 220, 0)


def _original() -> bytes:
    """400 x 200 px: a red quarter, a blue half with a yellow disc, a green quarter."""
    img = Image.new("RGB", (400, 200), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, 99, 199), fill=RED)
    draw.rectangle((100, 0, 299, 199), fill=BLUE)
    draw.rectangle((300, 0, 399, 199), fill=GREEN)
    draw.ellipse((150, 50, 250, 150), fill=YELLOW)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """letter.docx: the original at 150 pt wide, cropped by a quarter left and right (its
    extent halved, as Word does), so 75 x 75 pt is shown; the references beside it."""
    out = tmp_path_factory.mktemp("cropped")
    original = _original()
    (out / "original.png").write_bytes(original)
    Image.open(io.BytesIO(original)).crop((100, 0, 300, 200)).save(out / "shown.png")
    d = docx.Document()
    d.add_paragraph("The middle half:")
    d.add_picture(io.BytesIO(original), width=Pt(150))
    inline = d.inline_shapes[0]._inline
    blip_fill = inline.find(".//" + qn("pic:blipFill"))
    src = etree.Element(qn("a:srcRect"), {"l": "25000", "r": "25000"})
    blip_fill.insert(1, src)  # after a:blip, before a:stretch
    extent = inline.find(qn("wp:extent"))
    half = str(int(extent.get("cx")) // 2)
    extent.set("cx", half)
    inline.find(".//" + qn("a:ext")).set("cx", half)
    d.add_paragraph("After.")
    d.save(str(out / "letter.docx"))
    return out


def _check(folder: Path, name: str, reference: str) -> tuple[str, str]:
    result = run_check(name, load(folder / "letter.docx"), {"reference": reference}, Resources(assets_dir=str(folder)))
    return result.status, result.explanation


def test_the_blob_is_what_the_page_shows(folder: Path) -> None:
    doc = load(folder / "letter.docx")
    (image,) = doc.select("image")
    blob = doc.blobs[str(image.attrs["blob"])]
    original = doc.blobs[str(image.attrs["original_blob"])]
    assert (blob.width_px, blob.height_px) == (200, 200) and (original.width_px, original.height_px) == (400, 200)
    assert _check(folder, "image_matches", "shown.png")[0] == "pass"
    status, explanation = _check(folder, "image_matches", "original.png")
    assert status == "fail", explanation
    assert _check(folder, "image_crop_of", "original.png")[0] == "pass"
    assert run_check("image_not_distorted", doc, {}).status == "pass"


@pytest.mark.slow
def test_libreoffice_draws_the_kept_part_in_the_box(folder: Path) -> None:
    doc = load(folder / "letter.docx")
    (image,) = doc.select("image")
    b = image.box
    assert abs(b.width - 75) < 2 and abs(b.height - 75) < 2, b
    pdf = render_pdf(folder / "letter.docx").pdf_path
    cx, cy = (b.x0 + b.x1) / 2, (b.top + b.bottom) / 2
    centre = Box(page=b.page, x0=cx - 4, top=cy - 4, x1=cx + 4, bottom=cy + 4)
    left = Box(page=b.page, x0=b.x0 + 2, top=b.top + 2, x1=b.x0 + 8, bottom=b.top + 8)
    right = Box(page=b.page, x0=b.x1 - 8, top=b.top + 2, x1=b.x1 - 2, bottom=b.top + 8)
    assert same_color(background(pdf, centre), "#fadc00", tolerance=8), background(pdf, centre)
    for edge in (left, right):  # blue, not the red or green the crop cut away
        assert same_color(background(pdf, edge), "#1e3cc8", tolerance=8), background(pdf, edge)
