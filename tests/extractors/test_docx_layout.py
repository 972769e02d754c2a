"""Rendered boxes of .docx nodes: known positions on the fixtures, and tesseract reading
every paragraph's text inside its box. Each fixture is extracted (rendered by real
LibreOffice, through the render cache) once per session."""

from __future__ import annotations

import os
import re
from pathlib import Path

import imagehash
import pytest
from PIL import Image
from rapidfuzz import fuzz

from artifactcheck.extractors.docx.extract import extract_docx
from artifactcheck.extractors.render import page_image, render_pdf
from artifactcheck.model import Box, Document, Node
from tests.conftest import FIXTURES

DOCX = FIXTURES / "docx"
TOL = 3.0  # points
OCR_DPI = 200

pytestmark = pytest.mark.slow


@pytest.fixture(scope="session")
def rendered_docx() -> dict[str, Document]:
    return {
        name: extract_docx(DOCX / f"{name}.docx")
        for name in ("layout_pages", "layout_flow", "layout_libreoffice")
    }


@pytest.fixture(scope="session")
def pages(rendered_docx: dict[str, Document]) -> Document:
    return rendered_docx["layout_pages"]


@pytest.fixture(scope="session")
def flow(rendered_docx: dict[str, Document]) -> Document:
    return rendered_docx["layout_flow"]


def near(a: float, b: float, tol: float = TOL) -> bool:
    return abs(a - b) <= tol


# -- pages, tools, coverage --------------------------------------------------------------
def test_pages_and_renderer_recorded(pages: Document, flow: Document) -> None:
    assert len(pages.pages) == 2 and all(p.kind == "page" for p in pages.pages)
    assert near(pages.pages[0].width, 595.3, 1) and near(pages.pages[0].height, 841.9, 1)
    assert len(flow.pages) == 2 and near(flow.pages[0].width, 612, 1)
    assert any(t.name == "libreoffice" for t in pages.tools)
    for doc in (pages, flow):
        assert doc.root.attrs["layout_text_coverage"] >= 0.99
        assert all(b.origin == "layout" for n in doc for b in n.boxes)


# -- known positions ----------------------------------------------------------------------
def test_logo_upper_left_of_page_one(pages: Document) -> None:
    (box,) = pages.get("p0/img0").boxes
    assert box.page == 0
    assert box.x0 < 100 and near(box.top, 72)  # top margin; left margin (+ LibreOffice's inset)
    assert near(box.width, 90) and near(box.height, 60)
    assert pages.get("p0").boxes == [box]  # an image-only paragraph is its picture


def test_heading_forced_onto_page_two(pages: Document) -> None:
    (h1,) = pages.select("paragraph[heading_level='1']")
    (box,) = h1.boxes
    assert box.page == 1 and near(box.x0, 72) and box.top < 120
    brk = pages.select_one("paragraph[page_breaks]")
    assert brk is not None and brk.boxes == [] and brk.attrs["rendered"] is False


def test_three_pictures_side_by_side_at_bottom_of_last_page(pages: Document) -> None:
    photos = [pages.get(f"p16/img{i}") for i in range(3)]
    boxes = [p.boxes[0] for p in photos]
    last = len(pages.pages) - 1
    assert all(len(p.boxes) == 1 and b.page == last for p, b in zip(photos, boxes))
    assert all(near(b.top, boxes[0].top, 1) for b in boxes)  # one row
    assert boxes[0].x1 <= boxes[1].x0 and boxes[1].x1 <= boxes[2].x0  # left to right, no overlap
    assert all(b.top > pages.pages[last].height / 2 for b in boxes)  # lower half
    assert all(near(b.width, 128) and near(b.height, 96) for b in boxes)


def test_pictures_matched_by_content(pages: Document) -> None:
    """Each picture's box, cut from the rendered page, looks more like that node's own
    blob than like any other picture of the document."""
    pdf = render_pdf(DOCX / "layout_pages.docx").pdf_path
    hashes = {sha: imagehash.hex_to_hash(b.phash) for sha, b in pages.blobs.items() if b.phash}
    for node in pages.images():
        for box in node.boxes:
            seen = imagehash.phash(_crop(pdf, box, dpi=200).convert("RGB"))
            dist = {sha: seen - h for sha, h in hashes.items()}
            assert min(dist, key=dist.__getitem__) == node.attrs["blob"], (node.id, box, dist)


def test_table_with_merged_header_boxes(pages: Document) -> None:
    (table,) = pages.select("table")
    (tbox,) = table.boxes
    header = table.children[0].children[0]
    (hbox,) = header.boxes
    north = pages.select_one("cell:contains('North')")
    assert north is not None
    q1 = pages.select_one("cell:contains('Spring')")
    assert q1 is not None and tbox.page == 1
    assert hbox.bottom <= q1.boxes[0].top + 1  # header row above the data rows
    assert near(hbox.x0, tbox.x0) and near(north.boxes[0].x0, tbox.x0)
    # the second grid column starts where the first ends: bordered cells share the border's centre line
    assert table.attrs["box_from"] == "borders"
    assert q1.boxes[0].x0 == pytest.approx(north.boxes[0].x1, abs=0.01) and q1.boxes[0].x0 > north.boxes[0].x0
    for cell in table.descendants("cell"):
        for b in cell.boxes:
            assert tbox.x0 - 0.01 <= b.x0 and b.x1 <= tbox.x1 + 0.01


def test_header_with_logo_on_every_page(pages: Document) -> None:
    (header,) = pages.select("header")
    logo = header.select_one("image")
    assert logo is not None
    assert [b.page for b in logo.boxes] == [0, 1]
    assert all(near(b.top, 36) and near(b.height, 18) for b in logo.boxes)
    (footer,) = pages.select("footer")
    assert [b.page for b in footer.boxes] == [0, 1]
    # the page number prints 1, then 2: it is found on both pages all the same
    page_field = footer.select_one("run[field='PAGE']")
    assert page_field is not None and [b.page for b in page_field.boxes] == [0, 1]
    assert all(b.top > 780 for b in footer.boxes)


def test_hidden_and_empty_nodes_have_no_box_and_say_why(pages: Document) -> None:
    (hidden,) = pages.select("run[hidden=true]")
    assert hidden.boxes == [] and hidden.attrs["rendered"] is False
    visible = hidden.parent
    assert visible is not None and visible.boxes  # the paragraph's visible part has a box
    for p in pages.select("paragraph"):
        if not p.text.strip() and not p.select("image"):
            assert p.boxes == [] and "empty" in str(p.attrs["not_rendered_reason"])


def test_paragraph_spanning_two_pages_has_a_box_on_each(flow: Document) -> None:
    span = next(
        p for p in flow.select("paragraph") if p.text.startswith("This paragraph is long enough")
    )
    assert [b.page for b in span.boxes] == [0, 1]
    first, second = span.boxes
    assert first.bottom > 650 and near(second.top, 72)


def test_two_column_section(flow: Document) -> None:
    cols = [p for p in flow.select("paragraph") if p.text.startswith("Column text")]
    left = [p for p in cols if all(b.x1 < 306 for b in p.boxes)]
    right = [p for p in cols if all(b.x0 > 300 for b in p.boxes)]
    assert cols[0] in left and cols[-1] in right
    assert all(near(p.boxes[0].x0, 72) for p in left) and all(
        near(p.boxes[0].x0, 324) for p in right
    )
    # a paragraph continuing in the next column: two boxes on one page, one per column
    split = [p for p in cols if p not in left and p not in right]
    for p in split:
        assert len(p.boxes) == 2 and p.boxes[0].page == p.boxes[1].page
        assert p.boxes[0].x1 < 306 and p.boxes[1].x0 > 300


def test_floating_picture_at_right_margin(flow: Document) -> None:
    (img,) = flow.images()
    (box,) = img.boxes
    assert near(box.x1, 612 - 72) and near(box.width, 100)
    anchor = img.parent
    assert anchor is not None and anchor.boxes
    # a floating picture does not widen its paragraph's box
    assert anchor.boxes[0].x1 <= box.x0 + 1


def test_comment_is_not_rendered(flow: Document) -> None:
    (comment,) = flow.select("comment")
    assert comment.boxes == [] and comment.attrs["rendered"] is False


def test_libreoffice_saved_file_gets_same_layout(rendered_docx: dict[str, Document]) -> None:
    lo = rendered_docx["layout_libreoffice"]
    assert lo.root.attrs["layout_text_coverage"] >= 0.99
    (h1,) = lo.select("paragraph[heading_level='1']")
    assert h1.boxes[0].page == 1
    assert len([i for i in lo.images() if i.boxes]) == 5


# -- OCR: every paragraph's box contains its text ----------------------------------------
_PAGE_IMAGES: dict[tuple[str, int, int], Image.Image] = {}


def _crop(pdf: Path, box: Box, *, dpi: int, pad: float = 0) -> Image.Image:
    key = (str(pdf), box.page, dpi)
    if key not in _PAGE_IMAGES:  # one render per page and resolution, not per paragraph
        _PAGE_IMAGES[key] = page_image(pdf, box.page, dpi=dpi)
    img = _PAGE_IMAGES[key]
    s = dpi / 72
    return img.crop(
        (
            int((box.x0 - pad) * s),
            int((box.top - pad) * s),
            int((box.x1 + pad) * s) + 1,
            int((box.bottom + pad) * s) + 1,
        )
    )


def _visible_text(p: Node) -> str:
    return "".join(
        r.text for r in p.children if r.kind == "run" and r.attrs.get("rendered") is not False
    )


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().lower()


def _ocr_many(pytesseract: object, crops: list[Image.Image]) -> list[str]:
    """OCR many crops with one tesseract run: the crops are stacked on one tall white
    canvas with wide gaps, and each recognised word goes back to the crop it lies in.
    (One process per crop costs ~0.5 s each on a busy machine.)"""
    gap = 40
    scaled = []
    for crop in crops:
        if crop.height < 60:  # tesseract reads short lines better a little larger
            crop = crop.resize((crop.width * 2, crop.height * 2), Image.LANCZOS)
        scaled.append(crop.convert("RGB"))
    width = max(c.width for c in scaled) + 2 * gap
    height = sum(c.height + gap for c in scaled) + gap
    canvas = Image.new("RGB", (width, height), "white")
    spans = []
    y = gap
    for c in scaled:
        canvas.paste(c, (gap, y))
        spans.append((y, y + c.height))
        y += c.height + gap
    # one OpenMP thread: tesseract's threads only fight each other on a busy 2-core box
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    data = pytesseract.image_to_data(canvas, config="--psm 6", output_type="dict")  # type: ignore[attr-defined]
    words: list[list[str]] = [[] for _ in crops]
    for text, top, h in zip(data["text"], data["top"], data["height"]):
        if not str(text).strip():
            continue
        mid = top + h / 2
        for k, (a, b) in enumerate(spans):
            if a - gap / 2 <= mid <= b + gap / 2:
                words[k].append(str(text))
                break
    return [" ".join(w) for w in words]


@pytest.mark.parametrize("name", ["layout_pages", "layout_flow", "layout_libreoffice"])
def test_tesseract_reads_each_paragraph_inside_its_box(
    rendered_docx: dict[str, Document], name: str
) -> None:
    pytesseract = pytest.importorskip("pytesseract")
    doc = rendered_docx[name]
    pdf = render_pdf(DOCX / f"{name}.docx").pdf_path
    paragraphs = [p for p in doc.select("paragraph") if p.boxes and _norm(_visible_text(p))]
    crops = [_crop(pdf, b, dpi=OCR_DPI, pad=2) for p in paragraphs for b in p.boxes]
    reads = iter(_ocr_many(pytesseract, crops))
    checked = 0
    failures = []
    for p in paragraphs:
        expected = _norm(_visible_text(p))
        per_box = [next(reads) for _ in p.boxes]
        # a header is printed on every page: each box holds the whole text; a paragraph
        # split across pages or columns holds part of it in each box
        repeated = any(a.kind in ("header", "footer") for a in p.ancestors())
        for read in per_box if repeated else [" ".join(per_box)]:
            score = fuzz.ratio(_norm(read), expected)
            checked += 1
            if score < 80:
                failures.append((p.id, expected[:60], _norm(read)[:60], round(score)))
    assert checked >= 10
    assert not failures, failures
