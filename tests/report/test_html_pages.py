"""The HTML report of a real slide deck embeds the rendered slide (LibreOffice) under the
evidence boxes, in the slide's own coordinates."""

from __future__ import annotations

import base64
import io
import re
from pathlib import Path

import pytest
from lxml import html as lxml_html
from PIL import Image

from artifactcheck.report.html import PAGE_IMAGE_DPI, write_report_html
from artifactcheck.rubric import score

DECK = Path(__file__).resolve().parents[2] / "fixtures" / "tasks" / "slide_deck"


@pytest.mark.slow
def test_the_rendered_slide_sits_under_the_boxes(tmp_path: Path) -> None:
    artifact = DECK / "fail_credit_top_right.pptx"
    report = score(artifact, DECK / "rubric.yaml")
    out = write_report_html(report, tmp_path / "deck.html", artifact=artifact)
    dom = lxml_html.fromstring(out.read_text(encoding="utf-8"))
    svg = dom.get_element_by_id("page-0")
    assert svg.get("viewbox", svg.get("viewBox")) == "0 0 960 540"
    images = svg.findall(".//image")
    assert len(images) == 1, "the rendered slide must be embedded"
    data = re.sub(r"^data:image/png;base64,", "", images[0].get("href"))
    picture = Image.open(io.BytesIO(base64.b64decode(data)))
    expected = (960 * PAGE_IMAGE_DPI / 72, 540 * PAGE_IMAGE_DPI / 72)
    assert abs(picture.size[0] - expected[0]) <= 2 and abs(picture.size[1] - expected[1]) <= 2  # PDF rounding
    credit = report.step("credit_lower_left")
    drawn = {(r.get("class"), r.get("data-step")): r for r in svg.findall(".//rect[@data-step]")}
    found = drawn[("ev tone-fail role-found", "credit_lower_left")]
    node_box = credit.evidence["nodes"][0]["boxes"][0]  # type: ignore[index]
    assert float(found.get("x")) == node_box["x0"] and float(found.get("y")) == node_box["top"]  # type: ignore[index]
    region = drawn[("ev tone-region role-region", "credit_lower_left")]
    assert [float(region.get(k)) for k in ("x", "y", "width", "height")] == [0, 360, 320, 180]
    # the credit is drawn where its box is: the slide image is not blank there (dark text on the sky)
    scale = PAGE_IMAGE_DPI / 72
    crop = picture.convert("L").crop(tuple(round(v * scale) for v in (node_box["x0"], node_box["top"], node_box["x1"], node_box["bottom"])))  # type: ignore[index]
    low, high = crop.getextrema()
    assert high - low > 80, "expected text pixels inside the credit's box"


def test_a_sheet_without_a_page_image_shows_a_wireframe_with_fills(tmp_path: Path) -> None:
    tracker = DECK.parent / "paper_tracker"
    artifact = tracker / "fail_rows_scattered.xlsx"
    report = score(artifact, tracker / "rubric.yaml")
    out = write_report_html(report, tmp_path / "sheet.html", artifact=artifact)
    svg = lxml_html.fromstring(out.read_text(encoding="utf-8")).get_element_by_id("page-0")
    assert not svg.findall(".//image")
    texts = [t.text_content() for t in svg.findall(".//text[@class='wire']")]
    assert "Attention Is All You Need" in texts and "Title" in texts
    filled = [r for r in svg.findall(".//rect[@class='wire']") if r.get("fill") == "#ffff00"]
    assert len(filled) == 3 * 5  # three highlighted rows of five cells


def test_a_long_document_draws_the_pages_with_evidence_and_its_ends(tmp_path: Path) -> None:
    from artifactcheck.extractors.tree_builder import fill_container_text
    from artifactcheck.model import ArtifactInfo, Box, Document, Node, Page
    from artifactcheck.report.html import pages_to_draw, report_html

    paragraphs = [Node(id=f"p{i}", kind="paragraph", text=f"page {i}", boxes=[Box(page=i, x0=72, top=72, x1=300, bottom=90)]) for i in range(10)]
    root = Node(id="doc", kind="document", children=paragraphs)
    fill_container_text(root)
    doc = Document(
        artifact=ArtifactInfo(format="docx", platform="office", sha256="1" * 64, size_bytes=1),
        pages=[Page(index=i, kind="page", width=612, height=792) for i in range(10)],
        root=root,
    )
    rubric = tmp_path / "r.yaml"
    rubric.write_text("task: t\nsteps:\n  - {id: p4, step_type: spatial, check: in_region, params: {target: {text: 'page 4'}, region: top half}}\n", encoding="utf-8")
    report = score(doc, rubric)
    assert pages_to_draw(report) == [0, 4, 9]
    page = report_html(report)
    assert 'id="page-4"' in page and 'id="page-5"' not in page
