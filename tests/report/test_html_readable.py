"""The HTML report reads right in a real browser (headless chromium): step markers never
overlap and each step is marked once per page, with a list beside the page; a failed step
that found nothing is shown as missing; a table or range is boxed whole; sheet wireframes
keep each cell's text inside what a reader sees of the cell; whole-page boxes do not tint
the page."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import pytest
from lxml import html as lxml_html
from PIL import Image
from report_browser import chromium, dump_dom, screenshot
from rubric_docs import letter_doc

from artifactcheck import load
from artifactcheck.report.html import write_report_html
from artifactcheck.rubric import check, group, rubric, score
from artifactcheck.rubric.locate import range_cells, union_by_page

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed (scripts/setup.sh installs it)")

TASKS = Path(__file__).resolve().parents[2] / "fixtures" / "tasks"
TRACKER = TASKS / "paper_tracker"


def client_rect(element: Any) -> tuple[float, float, float, float]:
    left, top, width, height = map(float, element.get("data-client").split(","))
    return left, top, left + width, top + height


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Fourteen steps about the same two places of the letter, and two that find
    nothing: the worst case for labels."""
    steps = [check(f"title_{i}", "in_region", {"target": "paragraph", "region": "top 20%" if i % 2 else "bottom third"}) for i in range(10)]
    steps += [check(f"logo_{i}", "in_region", {"target": "image", "region": "upper-left"}) for i in range(4)]
    steps += [
        check("table_here", "exists", {"target": "table"}),  # nothing to point at
        check("no_table_top", "in_region", {"target": "table", "region": "top third"}),
    ]
    report = score(letter_doc(), rubric("crowded", steps))
    page = write_report_html(report, tmp_path_factory.mktemp("crowded") / "crowded.html")
    return report, lxml_html.fromstring(dump_dom(page))


def test_markers_never_overlap_and_each_step_is_marked_once(crowded: Any) -> None:
    report, dom = crowded
    markers = dom.findall(".//g[@class]")
    markers = [m for m in markers if "marker" in m.get("class")]
    assert dom.body.get("data-laid-out") == "1"
    steps_drawn = [m.get("data-step") for m in markers]
    assert len(steps_drawn) == len(set(steps_drawn)) == 14
    rects = [client_rect(m) for m in markers]
    assert all(r[2] - r[0] > 10 and r[3] - r[1] > 10 for r in rects)  # drawn, at a readable size
    for (a, ra), (b, rb) in itertools.combinations(zip(steps_drawn, rects, strict=True), 2):
        # markers are discs: apart when their centres are at least the two radii apart
        gap = math.dist(((ra[0] + ra[2]) / 2, (ra[1] + ra[3]) / 2), ((rb[0] + rb[2]) / 2, (rb[1] + rb[3]) / 2))
        assert gap >= (ra[2] - ra[0]) / 2 + (rb[2] - rb[0]) / 2 - 0.5, (a, b, ra, rb)
    # the list beside the page names every marker's step, by its number in the steps table
    numbers = {s.id: i for i, s in enumerate(report.steps, start=1)}
    for marker in markers:
        item = dom.get_element_by_id(f"mark-0-{marker.get('data-number')}")
        assert item.get("data-step") == marker.get("data-step")
        assert int(marker.get("data-number")) == numbers[marker.get("data-step")]


def test_a_failed_step_that_found_nothing_is_shown_as_missing(crowded: Any) -> None:
    report, dom = crowded
    assert report.step("table_here").status == "fail" and report.step("no_table_top").status == "fail"
    panel = dom.get_element_by_id("missing")
    listed = [li.get("data-step") for li in panel.findall(".//li")]
    assert listed == ["table_here", "no_table_top"]  # no box anywhere: said in words, in step order
    assert panel.text_content().count("missing") >= 2
    assert "no node matches table" in panel.text_content()
    assert not [g for g in dom.findall(".//g") if g.get("data-step") in listed]


@pytest.fixture(scope="module")
def tracker_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The paper tracker's cut-off and no-checkbox variants, as chromium lays them out."""
    out: dict[str, Any] = {}
    tmp = tmp_path_factory.mktemp("tracker")
    for variant in ("fail_text_cut_off", "fail_no_checkboxes"):
        artifact = TRACKER / f"{variant}.xlsx"
        report = score(artifact, TRACKER / "rubric.yaml")
        page = write_report_html(report, tmp / f"{variant}.html", artifact=artifact)
        out[variant] = (report, lxml_html.fromstring(dump_dom(page)), Image.open(screenshot(page, tmp / f"{variant}.png")).convert("RGB"), load(artifact))
    return out


def test_a_step_with_many_boxes_is_labelled_once(tracker_pages: dict[str, Any]) -> None:
    report, dom, _, _ = tracker_pages["fail_text_cut_off"]
    cut = report.step("no_cut_off_text")
    assert cut.status == "fail" and len(cut.located) == 5
    boxes = [r for r in dom.findall(".//rect") if r.get("data-step") == "no_cut_off_text"]
    markers = [g for g in dom.findall(".//g") if g.get("data-step") == "no_cut_off_text"]
    assert len(boxes) == 5 and len(markers) == 1


def test_wireframe_text_stays_inside_its_cell(tracker_pages: dict[str, Any]) -> None:
    _, dom, _, doc = tracker_pages["fail_text_cut_off"]
    clips = {
        clip.find(".//text").text_content(): clip
        for clip in dom.findall(".//svg")
        if clip.get("class") == "wire-clip"
    }
    for cell in doc.select("cell"):
        if not cell.text or not cell.boxes:
            continue
        clip = clips[cell.text.splitlines()[0][:120]]
        box = cell.boxes[0]
        if cell.attrs.get("overflow") == "spills":
            assert float(clip.get("width")) > box.width
        else:
            assert (float(clip.get("x")), float(clip.get("width"))) == pytest.approx((box.x0, box.width), abs=0.01)
        assert clip.get("overflow") == "hidden"
    assert any(c.attrs.get("overflow") == "clipped" for c in doc.select("cell"))


def test_the_whole_range_is_boxed_and_does_not_tint_the_sheet(tracker_pages: dict[str, Any]) -> None:
    report, dom, shot, doc = tracker_pages["fail_text_cut_off"]
    columns = report.step("columns")
    (box,) = union_by_page(range_cells(doc, "Papers!A1:E7"))
    rect = next(r for r in dom.findall(".//rect") if r.get("data-step") == "columns")
    assert [float(rect.get(k)) for k in ("x", "y", "width", "height")] == pytest.approx([box.x0, box.top, box.width, box.height], abs=0.01)
    assert columns.located[0]["kind"] == "range" and "whole" in rect.get("class")
    # inside the range, a white cell stays white: the whole-range box is outlined, not filled
    e7 = doc.get("Papers!E7").boxes[0]  # "low": an unfilled cell
    svg = dom.get_element_by_id("page-0")
    scale = float(svg.get("data-scale"))
    left, top, _, _ = client_rect(rect)
    x = round(left + (e7.x1 - 3 - box.x0) * scale)
    y = round(top + (e7.top + 2 - box.top) * scale)
    assert min(shot.getpixel((x, y))) >= 250, shot.getpixel((x, y))


def test_no_checkboxes_is_missing_not_nothing(tracker_pages: dict[str, Any]) -> None:
    report, dom, _, _ = tracker_pages["fail_no_checkboxes"]
    assert report.step("read_checkboxes").status == "fail"
    listed = [li.get("data-step") for li in dom.get_element_by_id("missing").findall(".//li")]
    assert "read_checkboxes" in listed


def test_a_table_is_boxed_whole() -> None:
    """A check naming a table draws the table's extent, rows and cells included."""
    from artifactcheck.checks.examples import tiny_doc
    from artifactcheck.model import Box

    doc = tiny_doc()
    for i, row in enumerate(doc.select("row")):  # rows drawn from their text only, the table box from row 0
        for j, cell in enumerate(row.children):
            cell.boxes = [Box(page=0, x0=72 + 100 * j, top=400 + 20 * i, x1=150 + 100 * j, bottom=415 + 20 * i)]
    doc.get("t0").boxes = [Box(page=0, x0=72, top=400, x1=250, bottom=415)]
    report = score(doc, rubric("t", [group("g", [check("table", "exists", {"target": "table"})])]))
    (located,) = report.step("table").located
    assert (located["kind"], located["x0"], located["top"], located["x1"], located["bottom"]) == ("table", 72, 400, 250, 455)
