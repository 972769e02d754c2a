"""PDFs for the PDF extractor tests, made the way agents make them: a .docx written with
python-docx, exported to PDF by LibreOffice (through the render cache, so once per
machine). Also an encrypted one (pypdf)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls
from docx.shared import Inches, Pt
from PIL import Image, ImageDraw, ImageFont

from artifactcheck.extractors.render import render_pdf

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
BODY = (
    "Revenue grew by twelve percent over the previous quarter, driven by strong sales in the "
    "northern region and a new product line that launched in March."
)
LINK_URL = "https://example.org/q3-results"


def chart_picture() -> Image.Image:
    """A navy block with white text: what OCR and image matching look for."""
    img = Image.new("RGB", (600, 300), "#ffffff")
    d = ImageDraw.Draw(img)
    d.rectangle((20, 20, 580, 280), fill="#1e3a8a")
    d.text((300, 150), "SALES UP", fill="#ffffff", font=ImageFont.truetype(FONT, 64), anchor="mm")
    return img


def png_bytes(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def add_link(paragraph, url: str, text: str) -> None:  # type: ignore[no-untyped-def]
    r_id = paragraph.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    paragraph._p.append(parse_xml(f'<w:hyperlink {nsdecls("w", "r")} r:id="{r_id}"><w:r><w:t>{text}</w:t></w:r></w:hyperlink>'))


def report_docx(path: Path, *, heading_at_bottom: bool = False, picture: bool = True) -> Path:
    """A one-page report: a heading, a body paragraph (several lines), a linked
    sentence, a 3-inch picture, a two-row table; the heading moves to the end when asked."""
    d = docx.Document()
    d.core_properties.author = "agent"
    if not heading_at_bottom:
        d.add_heading("Quarterly Report 2024", level=1)
    d.add_paragraph(BODY + " " + BODY)
    para = d.add_paragraph("Details: ")
    add_link(para, LINK_URL, "full results")
    if picture:
        d.add_picture(io.BytesIO(png_bytes(chart_picture())), width=Inches(3))
    table = d.add_table(rows=2, cols=2)
    for (r, c), text in {(0, 0): "Region", (0, 1): "Sales", (1, 0): "North", (1, 1): "1,200"}.items():
        table.cell(r, c).text = text
    if heading_at_bottom:
        for _ in range(12):
            d.add_paragraph("")
        d.add_heading("Quarterly Report 2024", level=1)
    d.styles["Normal"].font.size = Pt(11)
    d.save(str(path))
    return path


def export_pdf(docx_path: Path, out: Path) -> Path:
    """LibreOffice's PDF export of ``docx_path`` (cached by content), copied to ``out``."""
    shutil.copyfile(render_pdf(docx_path).pdf_path, out)
    return out


def encrypted_pdf(pdf_path: Path, out: Path) -> Path:
    """``pdf_path`` re-saved with an open password (pypdf, AES-256): the PDF an agent
    "protected" before handing it in."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(pdf_path))
    writer.encrypt(user_password="secret", owner_password="owner", algorithm="AES-256")
    with out.open("wb") as fh:
        writer.write(fh)
    return out


def text_rect(pdf_path: Path, text: str) -> tuple[float, float, float, float]:
    """PDF-space rectangle (left, bottom, right, top) of the first occurrence of ``text``
    on page 1, found by pdfium's own text search (independent of our tree)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(pdf_path))
    try:
        textpage = doc[0].get_textpage()
        searcher = textpage.search(text)
        found = searcher.get_next()
        assert found is not None, text
        index, count = found
        rects = [textpage.get_charbox(i) for i in range(index, index + count)]
        return (min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects))
    finally:
        doc.close()


def with_links(pdf_path: Path, out: Path, *, uri: tuple[str, str], internal_over: str) -> Path:
    """``pdf_path`` with a URI link annotation over the text ``uri[0]`` (to ``uri[1]``) and
    a link to page 1 over ``internal_over``, added with pypdf. LibreOffice 7.4's headless
    export writes no link annotations (its PDFs have no /Annots), so the links a
    Word or browser export would carry are added the way those writers store them."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.annotations import Link

    writer = PdfWriter(clone_from=PdfReader(pdf_path))
    pad = 1.0
    l, b, r, t = text_rect(pdf_path, uri[0])
    writer.add_annotation(0, Link(rect=(l - pad, b - pad, r + pad, t + pad), url=uri[1]))
    l, b, r, t = text_rect(pdf_path, internal_over)
    writer.add_annotation(0, Link(rect=(l - pad, b - pad, r + pad, t + pad), target_page_index=0))
    with out.open("wb") as fh:
        writer.write(fh)
    return out
