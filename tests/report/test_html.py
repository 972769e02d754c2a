"""The HTML report renders in real headless chromium, and the evidence boxes are drawn
where the report says: SVG rect attributes equal the evidence coordinates, the browser
lays them out at page origin + coordinates x scale, and the screenshot is green/red there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import html as lxml_html
from PIL import Image
from report_browser import chromium, dump_dom, screenshot

from artifactcheck.report.evidence_boxes import evidence_boxes
from artifactcheck.report.html import report_html, write_report_html
from artifactcheck.rubric import score

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed (scripts/setup.sh installs it)")


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    """Chromium runs twice per module (DOM dump, screenshot), not per test."""
    from rubric_docs import letter_doc

    from tests.report.conftest import RUBRIC

    tmp_path = tmp_path_factory.mktemp("html")
    rubric = tmp_path / "letter.yaml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    report = score(letter_doc(), rubric)
    page = tmp_path / "report.html"
    write_report_html(report, page)
    dom = lxml_html.fromstring(dump_dom(page))
    png = screenshot(page, tmp_path / "shot.png")
    return report, page, dom, Image.open(png).convert("RGB")


def test_verdict_score_and_steps_are_up_top(rendered) -> None:  # type: ignore[no-untyped-def]
    report, page, dom, _ = rendered
    assert dom.get_element_by_id("verdict").text_content() == report.verdict == "FAIL"
    assert dom.get_element_by_id("score").text_content() == f"{report.score:.3f}"
    for step in report.steps:
        row = dom.get_element_by_id(f"step-{step.id}")
        assert step.explanation[:40] in row.text_content()
        assert row.get("data-status") == step.status
    assert dom.body.get("data-laid-out") == "1", "the page's script did not run"
    text = page.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']https?:""", text), "the report must be self-contained"


def test_boxes_are_where_the_evidence_says(rendered) -> None:  # type: ignore[no-untyped-def]
    report, _, dom, shot = rendered
    svg = dom.get_element_by_id("page-0")
    scale = float(svg.get("data-scale"))
    rects = svg.findall(".//rect[@data-step]")
    expected = [b for s in report.steps for b in evidence_boxes(s)]
    assert len(rects) == len(expected) >= 4
    drawn = {}
    origin = None
    for rect in rects:
        coords = tuple(float(rect.get(k)) for k in ("x", "y", "width", "height"))
        drawn[(rect.get("data-step"), coords)] = rect
        left, top, width, height = map(float, rect.get("data-client").split(","))
        assert (width, height) == pytest.approx((coords[2] * scale, coords[3] * scale), abs=0.05)
        here = (left - coords[0] * scale, top - coords[1] * scale)  # the page's origin on screen
        origin = origin or here
        assert here == pytest.approx(origin, abs=0.05), "every box must share the page's origin"
    for box in expected:  # every evidence box is drawn, at its own coordinates
        assert (box.step_id, (box.x0, box.top, box.x1 - box.x0, box.bottom - box.top)) in drawn
    # the logo (passed) is outlined green, the title (failed: not in the bottom third) red
    colours = {}
    for box in expected:
        if box.role != "found":
            continue
        rect = drawn[(box.step_id, (box.x0, box.top, box.x1 - box.x0, box.bottom - box.top))]
        left, top, width, height = map(float, rect.get("data-client").split(","))
        colours[box.step_id] = shot.getpixel((round(left), round(top + height / 2)))
    r, g, b = colours["logo"]
    assert g > 100 and g > r + 60 and g > b + 40, colours
    r, g, b = colours["title_low"]
    assert r > 180 and r > g + 100 and r > b + 100, colours


def test_failed_boxes_are_drawn_over_passed_ones() -> None:
    import tempfile

    from rubric_docs import letter_doc

    from artifactcheck.report.html import report_html
    from tests.report.conftest import RUBRIC

    with tempfile.TemporaryDirectory() as tmp:
        rubric = Path(tmp) / "r.yaml"
        # the same title paragraph: passes "top 20%", fails "bottom third"
        rubric.write_text(RUBRIC.replace("region: upper-left}\n  - id: title_low", "region: upper-left}\n  - id: title_top\n    step_type: spatial\n    check: in_region\n    params: {target: paragraph, region: top 20%}\n  - id: title_low"), encoding="utf-8")
        report = score(letter_doc(), rubric)
    assert report.step("title_top").status == "pass" and report.step("title_low").status == "fail"
    page = lxml_html.fromstring(report_html(report)).get_element_by_id("page-0")
    at_title = [r for r in page.findall(".//rect[@data-step]") if r.get("y") == "110" and "role-found" in r.get("class")]
    assert [r.get("data-step") for r in at_title][-1] == "title_low"  # drawn last, on top


def test_a_report_without_pages_still_renders(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    _, rubric = letter_files
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 broken")
    report = score(broken, rubric)
    text = report_html(report)
    assert "artifact could not be loaded" in text and "No pages" in text
