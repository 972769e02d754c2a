"""Where a .docx picture is drawn, as python-docx users place pictures: a logo in the
header, plain single-colour pictures (one phash for all of them), the same logo in the
header and in the body, a cropped picture. The truth is the page image LibreOffice
draws: the colour under each box, and where a picture's colour is on the page."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.shared import Inches
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.checks.color import delta_e
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box, Node
from tests.extractors.rendered_look import DPI, page_png

pytestmark = pytest.mark.slow

COLOURS = {"logo": (240, 160, 0), "red": (220, 30, 30), "green": (30, 180, 30), "blue": (30, 30, 220)}


def _png(folder: Path, name: str, rgb: tuple[int, int, int], size: tuple[int, int] = (300, 200)) -> Path:
    path = folder / f"{name}.png"
    Image.new("RGB", size, rgb).save(path)
    return path


def _centre_colour(pdf: Path, box: Box) -> tuple[int, int, int]:
    k = DPI / 72.0
    rgb = page_png(pdf, box.page).convert("RGB").getpixel(
        (int((box.x0 + box.x1) / 2 * k), int((box.top + box.bottom) / 2 * k))
    )
    return rgb  # type: ignore[return-value]


def _is(rgb: tuple[int, int, int], want: tuple[int, int, int]) -> bool:
    return delta_e("#{:02x}{:02x}{:02x}".format(*rgb), "#{:02x}{:02x}{:02x}".format(*want)) < 3


@pytest.fixture(scope="module")
def plain_pictures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A header logo, a right-aligned blue picture, and three pictures in a row on the
    last page, all single-colour: their phashes are equal."""
    folder = tmp_path_factory.mktemp("plain-pictures")
    png = {name: _png(folder, name, rgb) for name, rgb in COLOURS.items()}
    d = docx.Document()
    d.sections[0].header.paragraphs[0].add_run().add_picture(str(png["logo"]), width=Inches(1.0))
    d.add_paragraph("Page one body text. " * 20)
    right = d.add_paragraph()
    right.alignment = WD_ALIGN_PARAGRAPH.RIGHT
    right.add_run().add_picture(str(png["blue"]), width=Inches(1.2))
    d.add_page_break()
    d.add_paragraph("Last page: three pictures side by side below.")
    row = d.add_paragraph()
    for name in ("red", "green", "blue"):
        row.add_run().add_picture(str(png[name]), width=Inches(1.5))
        row.add_run(" ")
    path = folder / "plain.docx"
    d.save(str(path))
    return path


def _colour_of(node: Node, doc_path: Path) -> tuple[int, int, int]:
    """The picture's own colour, from the file the node says it shows."""
    part = str(node.attrs["image_part"])
    import zipfile

    with zipfile.ZipFile(doc_path) as z, z.open(part) as f:
        return Image.open(f).convert("RGB").getpixel((0, 0))  # type: ignore[return-value]


def test_each_plain_picture_is_boxed_where_its_colour_is_drawn(plain_pictures: Path) -> None:
    doc = load(plain_pictures, render=True)
    pdf = render_pdf(plain_pictures).pdf_path
    images = doc.select("image")
    assert len(images) == 5
    for node in images:
        assert node.boxes, node.id
        for box in node.boxes:
            drawn = _centre_colour(pdf, box)
            assert _is(drawn, _colour_of(node, plain_pictures)), (node.id, box, drawn)
    right = next(n for n in images if n.id.startswith("p1/"))
    assert right.box is not None and right.box.x0 > doc.pages[0].width / 2  # drawn on the right
    row = run_check("side_by_side", doc, {"target": {"selector": "image", "exclude": "header"}, "page": "last", "min_count": 3})
    assert row.status == "pass", row.explanation


@pytest.fixture(scope="module")
def logo_twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One logo in the header and again in the body of page 2 ("Approved by:" above it)."""
    folder = tmp_path_factory.mktemp("logo-twice")
    logo = folder / "logo.png"
    img = Image.new("RGB", (300, 200), (240, 160, 0))
    for x in range(0, 300, 20):  # texture, so the phash is not the plain-colour one
        for y in range(200):
            img.putpixel((x, y), (20, 20, 120))
    img.save(logo)
    d = docx.Document()
    d.sections[0].header.paragraphs[0].add_run().add_picture(str(logo), width=Inches(0.5))
    d.add_paragraph("First page.")
    d.add_page_break()
    d.add_paragraph("Approved by:")
    d.add_paragraph().add_run().add_picture(str(logo), width=Inches(0.8))
    path = folder / "logo_twice.docx"
    d.save(str(path))
    return path


def test_the_body_copy_of_the_header_logo_keeps_its_own_place(logo_twice: Path) -> None:
    doc = load(logo_twice, render=True)
    pdf = render_pdf(logo_twice).pdf_path
    header = next(n for n in doc.select("image") if "header" in n.id)
    body = next(n for n in doc.select("image") if "header" not in n.id)
    assert [b.page for b in header.boxes] == [0, 1]
    assert all(b.bottom <= 72 + 1 for b in header.boxes)  # in the top margin on both pages
    assert body.box is not None and body.box.page == 1 and body.box.top > 72
    assert abs((body.box.x1 - body.box.x0) - 0.8 * 72) < 1  # the body copy's own size
    assert _is(_centre_colour(pdf, body.box), (240, 160, 0)) or _is(_centre_colour(pdf, body.box), (20, 20, 120))
    approved = run_check(
        "relative_position",
        doc,
        {"a": {"selector": "paragraph", "text": "Approved by:"}, "relation": "above", "b": {"selector": "image", "exclude": "header"}},
    )
    assert approved.status == "pass", approved.explanation


def test_a_cropped_picture_is_boxed_by_its_visible_part(tmp_path: Path) -> None:
    """srcRect l=r=25%: LibreOffice draws the whole picture clipped to its 3-inch frame;
    the PDF image object's bounds are the uncropped 6 inches."""
    img = Image.new("RGB", (400, 200), (20, 20, 20))
    for x in range(100, 300):
        for y in range(200):
            img.putpixel((x, y), (220, 30, 30))  # the middle half, what the crop keeps
    png = tmp_path / "crop.png"
    img.save(png)
    d = docx.Document()
    d.add_paragraph("Cropped picture below:")
    d.add_picture(str(png), width=Inches(3))
    blip_fill = d.inline_shapes[-1]._inline.xpath(".//pic:blipFill")[0]
    src = OxmlElement("a:srcRect")
    src.set("l", "25000")
    src.set("r", "25000")
    blip_fill.insert(1, src)
    path = tmp_path / "cropped.docx"
    d.save(str(path))

    doc = load(path, render=True)
    box = doc.select_one("image").box
    assert box is not None
    pdf = render_pdf(path).pdf_path
    page = page_png(pdf, box.page).convert("RGB")
    k = DPI / 72.0
    y = int((box.top + box.bottom) / 2 * k)
    red = [x for x in range(page.width) if _is(page.getpixel((x, y)), (220, 30, 30))]  # type: ignore[arg-type]
    assert red, "no red drawn on the picture's middle row"
    assert abs(box.x0 - red[0] / k) < 1.5 and abs(box.x1 - (red[-1] + 1) / k) < 1.5, (box, red[0] / k, red[-1] / k)
    assert run_check("within_page", doc, {"target": "image"}).status == "pass"
