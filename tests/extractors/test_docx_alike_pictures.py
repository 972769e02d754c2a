"""Pictures the render cannot tell apart by their pixels, boxed where each is drawn.

LibreOffice downsamples a big picture shown small (a 2400 x 1600 photo at 2 in), so the
PDF's pixels are no longer the file's and pictures are matched by perceptual hash, which
is one and the same for every plain colour; one logo file placed twice has the same pixels
twice. LibreOffice draws floating pictures after the inline ones (a watermark behind the
text first), so the document's order cannot decide either: pictures took each other's
boxes. What decides is what the file states: a floating picture's place, and an inline
picture's text (its own line, or the text around it). The truth is the colour the render
paints at the centre of each picture's box.
"""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.shared import Inches
from PIL import Image

from artifactcheck import load
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Document
from tests.extractors.rendered_look import page_png

pytestmark = pytest.mark.slow

COLOURS = {"red": (220, 30, 30), "green": (30, 160, 60), "blue": (30, 60, 200), "gray": (200, 200, 200)}


def big_solid(colour: str, size: tuple[int, int] = (2400, 1600)) -> io.BytesIO:
    out = io.BytesIO()
    Image.new("RGB", size, COLOURS[colour]).save(out, format="JPEG", quality=90)
    out.seek(0)
    return out


def floating(run, picture: io.BytesIO, width: float, h: tuple[str, str], v: tuple[str, str], *, behind: bool = False) -> None:  # type: ignore[no-untyped-def]
    """add_picture, then its wp:inline swapped for a wp:anchor (python-docx has no floating
    pictures; agents paste this). ``h``/``v``: (relativeFrom, an offset in pt or an align)."""
    run.add_picture(picture, width=Inches(width))
    inline = run._r.xpath(".//wp:inline")[0]
    ext = inline.xpath("./wp:extent")[0]
    docpr = inline.xpath("./wp:docPr")[0]

    def position(axis: str, rel: str, where: str) -> str:
        inner = f"<wp:posOffset>{int(float(where) * 12700)}</wp:posOffset>" if where[0].isdigit() else f"<wp:align>{where}</wp:align>"
        return f'<wp:position{axis} relativeFrom="{rel}">{inner}</wp:position{axis}>'

    wrap = "<wp:wrapNone/>" if behind else '<wp:wrapSquare wrapText="bothSides"/>'
    anchor = parse_xml(
        f'<wp:anchor {nsdecls("wp", "a", "pic", "r")} distT="0" distB="0" distL="114300" distR="114300" simplePos="0" '
        f'relativeHeight="251659264" behindDoc="{int(behind)}" locked="0" layoutInCell="1" allowOverlap="1">'
        f'<wp:simplePos x="0" y="0"/>{position("H", *h)}{position("V", *v)}'
        f'<wp:extent cx="{ext.get("cx")}" cy="{ext.get("cy")}"/><wp:effectExtent l="0" t="0" r="0" b="0"/>{wrap}'
        f'<wp:docPr id="{docpr.get("id")}" name="{docpr.get("name")}"/><wp:cNvGraphicFramePr/></wp:anchor>'
    )
    anchor.append(inline.xpath("./a:graphic")[0])
    inline.getparent().replace(inline, anchor)


def drawn_colour(path: Path, doc: Document, node_id: str) -> str:
    """The colour the render paints at the centre of the node's box."""
    (box,) = doc.get(node_id).boxes
    image = page_png(render_pdf(path).pdf_path, box.page).convert("RGB")
    k = image.width / doc.pages[box.page].width
    rgb = image.getpixel((int((box.x0 + box.x1) / 2 * k), int((box.top + box.bottom) / 2 * k)))
    return min(COLOURS, key=lambda c: sum(abs(a - b) for a, b in zip(COLOURS[c], rgb)))  # type: ignore[arg-type]


def test_a_float_and_two_inline_photos_of_one_size(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_heading("Report with a photo", 1)
    p = d.add_paragraph()
    floating(p.add_run(), big_solid("red"), 2.0, ("column", "290"), ("paragraph", "0"))
    p.add_run("The red photo floats at the right of this paragraph. " * 8)
    d.add_paragraph("Below, the blue and green photos, inline:")
    row = d.add_paragraph()
    row.add_run().add_picture(big_solid("blue"), width=Inches(2))
    row.add_run("   ")
    row.add_run().add_picture(big_solid("green"), width=Inches(2))
    path = tmp_path / "photos.docx"
    d.save(str(path))
    doc = load(path, render=True)
    assert {n.id: drawn_colour(path, doc, n.id) for n in doc.select("image")} == {"p1/img0": "red", "p3/img0": "blue", "p3/img1": "green"}


def test_a_body_photo_and_a_header_watermark_of_one_size(tmp_path: Path) -> None:
    d = docx.Document()
    header = d.sections[0].header.paragraphs[0]
    floating(header.add_run(), big_solid("gray", (2000, 2000)), 4.0, ("page", "center"), ("page", "center"), behind=True)
    d.add_paragraph("The text before the photo.")
    d.add_paragraph().add_run().add_picture(big_solid("red", (2000, 2000)), width=Inches(4))
    for _ in range(12):
        d.add_paragraph("The text after the photo runs on. " * 6)
    path = tmp_path / "watermark.docx"
    d.save(str(path))
    doc = load(path, render=True)
    (photo,) = doc.select("image:not(header image)")
    assert drawn_colour(path, doc, photo.id) == "red"
    (mark,) = doc.select("header image")
    box = mark.boxes_on(0)[0]
    assert abs((box.x0 + box.x1) / 2 - doc.pages[0].width / 2) < 2  # page-centred, as stated
    # the photo is drawn over the watermark's middle; its lower-right corner shows
    image = page_png(render_pdf(path).pdf_path, 0).convert("RGB")
    k = image.width / doc.pages[0].width
    assert image.getpixel((int((box.x1 - 6) * k), int((box.bottom - 6) * k))) == pytest.approx(COLOURS["gray"], abs=12)


def test_one_logo_file_floating_and_inline(tmp_path: Path) -> None:
    """The same file twice (same pixels, same size): the float states its place against
    the column, the inline copy starts the line "signed, the board"."""
    logo = Image.new("RGB", (300, 100), COLOURS["blue"])
    logo.paste(COLOURS["red"], (0, 0, 150, 100))
    data = io.BytesIO()
    logo.save(data, format="PNG")
    d = docx.Document()
    first = d.add_paragraph()
    floating(first.add_run(), io.BytesIO(data.getvalue()), 1.5, ("column", "320"), ("paragraph", "0"))
    first.add_run("Board letter. " * 6)
    for _ in range(3):
        d.add_paragraph("We thank every member for a good year. " * 4)
    last = d.add_paragraph()
    last.add_run().add_picture(io.BytesIO(data.getvalue()), width=Inches(1.5))
    last.add_run("  signed, the board")
    path = tmp_path / "letter.docx"
    d.save(str(path))
    doc = load(path, render=True)
    floated, inline = doc.get("p0/img0").boxes[0], doc.get("p4/img0").boxes[0]
    assert floated.x0 == pytest.approx(doc.root.attrs["sections"][0]["margins"]["left"] + 320, abs=1)  # type: ignore[index]
    assert inline.top > floated.bottom  # the inline copy is on the last paragraph's line, below
    signed = next(w for w in _words(path) if w.text == "signed,")
    assert inline.x1 <= signed.x0 and inline.top <= signed.top <= inline.bottom


def _words(path: Path):  # type: ignore[no-untyped-def]
    from tests.extractors.rendered_look import layout_of

    return layout_of(render_pdf(path).pdf_path).words


def _logo_letter(path: Path, *, unique: bool) -> Path:
    """One logo file in a right-aligned header, 1.8 in wide (taller than the top margin
    leaves it), and on the cover at the left. ``unique``: the cover copy differs by one
    pixel, so the render tells the two apart by their exact pixels: that twin is the truth."""
    def logo(n: int) -> io.BytesIO:
        img = Image.new("RGB", (300, 200), COLOURS["blue"])
        img.paste(COLOURS["red"], (30, 30, 150, 170))
        if unique:
            img.putpixel((299, 199), (n, n, n))
        out = io.BytesIO()
        img.save(out, format="PNG")
        out.seek(0)
        return out

    d = docx.Document()
    header = d.sections[0].header.paragraphs[0]
    header.alignment = 2
    header.add_run().add_picture(logo(1), width=Inches(1.8))
    d.add_paragraph().add_run().add_picture(logo(2), width=Inches(1.8))
    d.add_paragraph("Annual report")
    d.save(str(path))
    return path


def test_a_tall_header_logo_and_the_same_logo_on_the_cover(tmp_path: Path) -> None:
    boxes = {}
    for unique in (True, False):
        doc = load(_logo_letter(tmp_path / f"letter_{unique}.docx", unique=unique), render=True)
        boxes[unique] = {n.id: [(b.page, round(b.x0), round(b.top)) for b in n.boxes] for n in doc.select("image")}
    assert boxes[False] == boxes[True]
    (header_box,) = boxes[True]["s0/header-default/p0/img0"]
    assert header_box[1] > 306 and header_box[2] < 72  # the truth: right, starting in the header
