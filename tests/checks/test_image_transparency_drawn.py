"""A transparent logo is compared as a page draws it: on white.

Agents save logos as RGBA PNGs whose transparent pixels store black (RGBA (0, 0, 0, 0)).
LibreOffice draws them on the white slide; ``convert("RGB")`` kept the black, so the stored
hashes saw a logo on black: ``image_matches method=hash`` missed the same logo on white
(phash distance 52) and ``images_unique`` let the two copies pass as distinct. The truth
is the rendered page, read back here."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.util import Pt

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.extractors.render import page_image, render_pdf
from artifactcheck.model import Document, Node
from artifactcheck.model.blobs import describe_image


def logo(background: tuple[int, int, int, int], size: tuple[int, int] = (300, 200)) -> Image.Image:
    """A red disc and a blue bar on ``background``."""
    w, h = size
    img = Image.new("RGBA", size, background)
    draw = ImageDraw.Draw(img)
    draw.ellipse([w * 0.1, h * 0.15, w * 0.57, h * 0.85], fill=(220, 40, 40, 255))
    draw.rectangle([w * 0.6, h * 0.3, w * 0.93, h * 0.7], fill=(30, 60, 200, 255))
    return img


def png(img: Image.Image) -> bytes:
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


TRANSPARENT = png(logo((0, 0, 0, 0)))  # hidden pixels store black, as agents' logos do
ON_WHITE = png(logo((255, 255, 255, 255)).convert("RGB"))


def test_stored_hashes_see_transparency_on_white() -> None:
    transparent = describe_image(TRANSPARENT, mime="image/png")
    white = describe_image(ON_WHITE, mime="image/png")
    assert (transparent.phash, transparent.dhash, transparent.whash) == (white.phash, white.dhash, white.whash)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    """Slide 1: the transparent logo at (100, 100) pt, 300 x 200 pt, and the logo on
    white at (420, 100) pt, 240 x 160 pt. The reference file is the logo on white."""
    folder = tmp_path_factory.mktemp("transparent-logo")
    (folder / "logo_on_white.png").write_bytes(ON_WHITE)
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    slide.shapes.add_picture(io.BytesIO(TRANSPARENT), Pt(100), Pt(100), Pt(300), Pt(200)).name = "Transparent"
    slide.shapes.add_picture(io.BytesIO(ON_WHITE), Pt(420), Pt(100), Pt(240), Pt(160)).name = "White"
    path = folder / "deck.pptx"
    prs.save(str(path))
    return folder, load(path)


@pytest.mark.slow
def test_the_slide_shows_the_transparent_logo_on_white(deck: tuple[Path, Document]) -> None:
    folder, _ = deck
    page = page_image(render_pdf(folder / "deck.pptx").pdf_path, 0, dpi=72)
    assert page.getpixel((105, 105)) == (255, 255, 255)  # a transparent corner of the logo
    assert page.getpixel((175, 200)) == page.getpixel((475, 153))  # the disc's middle, both copies


def test_image_matches_by_hash_finds_the_logo_on_white(deck: tuple[Path, Document]) -> None:
    folder, doc = deck
    resources = Resources(assets_dir=str(folder))
    target = 'image[name="Transparent"]'
    for method in ("identity", "hash"):  # identity already flattened; the stored hashes did not
        r = run_check("image_matches", doc, {"reference": "logo_on_white.png", "target": target, "method": method}, resources)
        assert r.status == "pass", (method, r.explanation)
    r = run_check("image_matches", doc, {"reference": "logo_on_white.png", "target": target, "method": "hash", "max_distance": 0}, resources)
    assert r.status == "pass", r.explanation


def test_transparent_logo_and_its_copy_on_white_are_duplicates(deck: tuple[Path, Document]) -> None:
    _, doc = deck
    r = run_check("images_unique", doc, {}, Resources())
    assert r.status == "fail", r.explanation
    duplicates = cast(list[dict[str, Any]], r.evidence["duplicates"])
    assert [(d["a"], d["b"]) for d in duplicates] == [("s0/sh0", "s0/sh1")]
    assert "alike_but_recoloured" not in r.evidence  # the colours are compared as drawn too


# -- .docx: pictures matched to the PDF's image objects ----------------------------------
# The PDF's image objects are read as stored (pdfium's image bitmap leaves the soft mask
# out: the transparent logo's corner is (0, 0, 0) there, (255, 255, 255) on the page), so
# the layout must match stored pixels with stored pixels, whatever the blob's hashes see.


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    """The transparent logo at 150 pt wide; the same logo 3000 x 2000 px at 72 pt wide
    (LibreOffice embeds it downsampled to 300 x 200: only the phash can match it); the
    logo on white at 150 pt wide."""
    import docx
    from docx.shared import Pt as DocxPt

    folder = tmp_path_factory.mktemp("transparent-docx")
    d = docx.Document()
    d.add_paragraph("Transparent logo:")
    d.add_picture(io.BytesIO(TRANSPARENT), width=DocxPt(150))
    d.add_paragraph("Big transparent logo shown small:")
    d.add_picture(io.BytesIO(png(logo((0, 0, 0, 0), (3000, 2000)))), width=DocxPt(72))
    d.add_paragraph("Logo on white:")
    d.add_picture(io.BytesIO(ON_WHITE), width=DocxPt(150))
    path = folder / "letter.docx"
    d.save(str(path))
    return path, load(path, render=True)


def _pictures(doc: Document) -> list[Node]:
    return [n for n in doc if n.kind == "image"]


@pytest.mark.slow
def test_docx_transparent_and_white_logos_keep_their_own_boxes(letter: tuple[Path, Document]) -> None:
    """Hashing the docx side as drawn while the PDF side is hashed as stored gave the
    transparent logo the white logo's box and lost the white one."""
    path, doc = letter
    transparent, _, white = _pictures(doc)
    assert transparent.boxes and white.boxes, (transparent.attrs, white.attrs)
    first, last = transparent.boxes[0], white.boxes[0]
    assert first.top < last.top  # in document order, as drawn
    page = page_image(render_pdf(path).pdf_path, 0, dpi=72)
    for box in (first, last):
        assert page.getpixel((int(box.x0) + 3, int(box.top) + 3)) == (255, 255, 255)  # each logo's corner, on white
        red = page.getpixel((int(box.x0 + 0.33 * (box.x1 - box.x0)), int((box.top + box.bottom) / 2)))
        assert isinstance(red, tuple) and red[0] > 180 and red[1] < 90, red  # the disc under the box: the box is on the logo


@pytest.mark.slow
def test_docx_resampled_transparent_logo_is_located(letter: tuple[Path, Document]) -> None:
    """Only a phash can match a picture LibreOffice downsampled, and the PDF's image is
    hashed as stored: matched by the blob's phash as drawn (on white), it was lost."""
    _, doc = letter
    big = _pictures(doc)[1]
    assert big.boxes, big.attrs
