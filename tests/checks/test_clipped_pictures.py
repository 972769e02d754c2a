"""Pictures LibreOffice draws clipped, in a .docx built the way agents build it: a 4 in
picture in a table cell about 3 in wide is cut at the cell's edge, and a tall picture
(1000 x 2000 px at 6 in wide: 12 in on an 11 in page) is cut at the page's body. A reader
sees the part shown; the tree's box is that part, and within_page says the picture is
cut off. The truth is the render's pixels."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.shared import Inches
from PIL import Image

from artifactcheck import Document, load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import layout_of, page_png

pytestmark = pytest.mark.slow

ORANGE, TEAL = (240, 140, 20), (20, 150, 150)


def solid(rgb: tuple[int, int, int], size: tuple[int, int]) -> io.BytesIO:
    out = io.BytesIO()
    Image.new("RGB", size, rgb).save(out, format="PNG")
    out.seek(0)
    return out


@pytest.fixture(scope="module")
def oversize(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_heading("Infographic", 1)
    d.add_picture(solid(TEAL, (1000, 2000)), width=Inches(6))
    d.add_paragraph("After the infographic.")
    table = d.add_table(rows=1, cols=2)
    table.style = "Table Grid"
    table.cell(0, 0).paragraphs[0].add_run().add_picture(solid(ORANGE, (400, 300)), width=Inches(4))
    table.cell(0, 1).text = "Description of the orange picture."
    path = tmp_path_factory.mktemp("clipped") / "oversize.docx"
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def doc(oversize: Path) -> Document:
    return load(oversize, render=True)


def _colour_at(path: Path, page: int, x: float, y: float) -> tuple[int, int, int]:
    image = page_png(render_pdf(path).pdf_path, page).convert("RGB")
    k = image.width / 612
    return image.getpixel((int(x * k), int(y * k)))  # type: ignore[return-value]


def test_a_picture_wider_than_its_cell_is_the_part_shown(doc: Document, oversize: Path) -> None:
    (picture,) = doc.select("table image")
    (box,) = picture.boxes
    assert box.width < 4 * 72 - 50  # stated 288 pt wide
    mid = (box.top + box.bottom) / 2
    assert _colour_at(oversize, box.page, box.x1 - 3, mid) == pytest.approx(ORANGE, abs=12)
    assert _colour_at(oversize, box.page, box.x1 + 3, mid) != pytest.approx(ORANGE, abs=40)  # the cut
    words = [w for w in layout_of(render_pdf(oversize).pdf_path).words if w.text == "Description"]
    assert box.x1 < words[0].x0  # the text starts right of what is drawn
    beside = run_check("relative_position", doc, {"a": "table image", "b": {"text": "Description"}, "relation": "left_of"})
    assert beside.status == "pass", beside.explanation
    assert run_check("no_overlap", doc, {"target": "table image, table cell:nth-of-type(2) paragraph"}).status == "pass"
    assert run_check("image_size", doc, {"target": "table image", "max_width_pt": 230}).status == "pass"
    assert picture.attrs["cut_off_pt"] == {"right": pytest.approx(4 * 72 - box.width, abs=0.1)}
    # cut, not squeezed: the placed picture keeps its aspect, and its 400 px span 4 in
    assert run_check("image_not_distorted", doc, {"target": "table image"}).status == "pass"
    assert run_check("image_size", doc, {"target": "table image", "min_pixels_per_inch": 101}).status == "fail"
    assert run_check("image_size", doc, {"target": "table image", "min_pixels_per_inch": 99}).status == "pass"


def test_a_picture_taller_than_the_page_is_cut_off(doc: Document, oversize: Path) -> None:
    tall = next(n for n in doc.select("image") if not n.is_inside(doc.select("table")[0]))
    (box,) = tall.boxes
    assert box.bottom <= doc.pages[box.page].height  # drawn down to the body's end, not beyond
    assert _colour_at(oversize, box.page, (box.x0 + box.x1) / 2, box.bottom - 3) == pytest.approx(TEAL, abs=12)
    assert _colour_at(oversize, box.page, (box.x0 + box.x1) / 2, box.bottom + 3) != pytest.approx(TEAL, abs=40)
    assert run_check("image_not_distorted", doc, {"target": "image"}).status == "pass"
    verdict = run_check("within_page", doc, {"target": "image"})
    assert verdict.status == "fail" and "cut off" in verdict.explanation, verdict.explanation
    assert {row["id"] for row in verdict.evidence["outside"]} == {tall.id, doc.select("table image")[0].id}
