"""A table that breaks across pages is not "on page 1", nor "wholly in the bottom half":
``in_region`` judged a node by its part on one page, so a 30-row table whose last 22 rows
LibreOffice draws on page 2 was "wholly inside" page 1 ("100% of its area"). What repeats
on every page (a header's logo, a table's repeated header row) is whole on each page and
keeps being judged page by page. Built as agents build it (python-docx, "Table Grid");
the truth is the render: the rows' text on each printed page."""

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
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    logo = io.BytesIO()
    Image.new("RGB", (200, 100), (200, 30, 30)).save(logo, format="PNG")
    logo.seek(0)
    d.sections[0].header.paragraphs[0].add_run().add_picture(logo, width=Inches(1))
    d.add_heading("Long table", 1)
    small = d.add_table(rows=2, cols=2, style="Table Grid")
    for r in range(2):
        for c in range(2):
            small.cell(r, c).text = f"s{r}{c}"
    for i in range(20):
        d.add_paragraph(f"Intro paragraph {i} with some words to fill the page.")
    table = d.add_table(rows=30, cols=3, style="Table Grid")
    for r in range(30):
        for c in range(3):
            table.cell(r, c).text = "Head" if r == 0 else f"r{r}c{c}"
    tr_pr = table.rows[0]._tr.get_or_add_trPr()
    tr_pr.append(OxmlElement("w:tblHeader"))
    tr_pr[-1].set(qn("w:val"), "true")
    path = tmp_path_factory.mktemp("across") / "across.docx"
    d.save(str(path))
    return path


def test_a_table_broken_across_pages_is_not_wholly_on_one(report: Path) -> None:
    first, second = page_texts(render_pdf(report).pdf_path)[:2]
    assert "r5c0" in first and "r29c0" in second and "r29c0" not in first  # drawn on both pages
    assert first.count("Head") == second.count("Head") == 3  # the header row repeats
    doc = load(report)
    long = {"selector": "table", "nth": 1}
    assert {b.page for b in doc.select("table")[1].boxes} == {0, 1}

    def verdict(target: object, **params: object) -> str:
        r = run_check("in_region", doc, {"target": target, **params})
        return f"{r.status}: {r.explanation}"

    assert verdict(long, region="first page", criterion="contained").startswith("fail")
    on_one = verdict(long, region="page", page=0, criterion="area", min_fraction=0.9)
    assert on_one.startswith("fail") and "continues on page(s) 1" in on_one, on_one
    assert verdict(long, region="bottom half", criterion="contained").startswith("fail")  # its rest is at the top of page 2
    assert verdict(long, region="page", criterion="contained").startswith("pass")  # every part lies on its page
    # a table on one page, and what repeats on every page, are judged as before
    assert verdict({"selector": "table", "nth": 0}, region="first page", criterion="contained").startswith("pass")
    assert verdict("image", region="upper-left", page=1, criterion="contained").startswith("pass")
    assert verdict({"selector": "table row", "nth": 2}, region="top half", page=1, criterion="contained").startswith("pass")
