"""A long table whose first row is marked "repeat as header row" (``w:tblHeader``, the XML
agents paste for it): LibreOffice draws the row again at the top of every page the table
continues on, logo and column titles included. The tree gives the row's text and
pictures a box on each of those pages, where the render draws them."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Inches
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import layout_of

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def parts_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_heading("Parts list", 1)
    table = d.add_table(rows=1, cols=3)
    table.style = "Table Grid"
    head = table.rows[0]
    head._tr.get_or_add_trPr().append(OxmlElement("w:tblHeader"))
    logo = io.BytesIO()
    Image.new("RGB", (180, 60), (200, 40, 40)).save(logo, format="PNG")
    logo.seek(0)
    head.cells[0].paragraphs[0].add_run().add_picture(logo, width=Inches(0.9))
    head.cells[1].text, head.cells[2].text = "Item", "Quantity"
    for n in range(1, 61):
        cells = table.add_row().cells
        cells[0].text, cells[1].text, cells[2].text = str(n), f"Part {n}", str(n * 3)
    path = tmp_path_factory.mktemp("repeat") / "parts.docx"
    d.save(str(path))
    return path


def test_the_header_row_is_boxed_on_every_page_it_is_drawn(parts_list: Path) -> None:
    pdf = render_pdf(parts_list).pdf_path
    drawn = {w.page: w for w in layout_of(pdf).words if w.text == "Quantity"}
    assert set(drawn) == {0, 1}  # the render repeats the row on page 2
    doc = load(parts_list, render=True)
    (quantity,) = [c for c in doc.select("cell") if c.text == "Quantity"]
    runs = quantity.select("run")
    assert sorted(b.page for b in runs[0].boxes) == [0, 1]
    for b in runs[0].boxes:
        assert abs(b.x0 - drawn[b.page].x0) < 1 and abs(b.top - drawn[b.page].top) < 1
    (logo,) = doc.select("image")
    assert [b.page for b in logo.boxes] == [0, 1]
    assert run_check("count_each", doc, {"each": "page", "target": "image", "at_least": 1}).status == "pass"
    below = run_check("relative_position", doc, {"a": {"text": "Part 60"}, "b": {"text": "Quantity"}, "relation": "below", "page": "last"})
    assert below.status == "pass", below.explanation
    # the table's own rows are not repeated
    (part_one,) = [c for c in doc.select("cell") if c.text == "Part 1"]
    assert {b.page for b in part_one.boxes} == {0}
