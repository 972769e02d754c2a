"""What the corpus lacks, from recorded-shaped fixtures: group transforms with rotation,
placeholder inheritance through layout and master, theme colours, charts, videos, notes,
hidden slides, picture backgrounds; Sheets checkboxes, merges, hidden rows, charts from
overlay anchors, conditional formats, filters, protected and named ranges; Docs tabs,
checklists, list labels, tables, links, footnotes, positioned images."""

from __future__ import annotations

import json
import math

import pytest

from artifactcheck import Document
from artifactcheck.extractors.google.responses import extract_google_response
from tests.google.conftest import CHART_URL, LOGO_URL, fixture_json


@pytest.fixture(scope="module")
def deck(logo_png: bytes) -> Document:
    return extract_google_response(fixture_json("slides_features.json"),
                                   images={LOGO_URL: (logo_png, "image/png"), CHART_URL: (logo_png, "image/png")})


def test_group_transform_composes_into_slide_space_polygon(deck: Document) -> None:
    rot = deck.get("s0/group1/rot1")
    box = rot.box
    assert box is not None and box.polygon is not None
    # child: 100x50 pt rotated 30° at (100, 50) in group space; group: x*2 + 50, y + 100
    cos, sin = math.cos(math.radians(30)), math.sin(math.radians(30))

    def to_slide(x: float, y: float) -> tuple[float, float]:
        gx, gy = cos * x - sin * y + 100, sin * x + cos * y + 50
        return (2 * gx + 50, gy + 100)

    expected = [to_slide(0, 0), to_slide(100, 0), to_slide(100, 50), to_slide(0, 50)]
    for got, want in zip(box.polygon, expected):
        assert got == pytest.approx(want, abs=1e-6)
    assert box.x0 == pytest.approx(min(p[0] for p in expected)) and box.bottom == pytest.approx(max(p[1] for p in expected))
    line = deck.get("s0/group1/line1")
    assert line.box is not None and (line.box.x0, line.box.x1, line.box.top) == pytest.approx((50, 450, 250))
    group = deck.get("s0/group1")
    assert group.box is not None and group.box.x0 == pytest.approx(50) and group.box.x1 == pytest.approx(max(box.x1, 450))


def test_placeholder_inherits_geometry_and_style_through_layout_and_master(deck: Document) -> None:
    title = deck.get("s0/s_title")
    assert title.attrs["placeholder_type"] == "title"
    assert title.box is not None and (title.box.x0, title.box.top, title.box.width) == pytest.approx((36, 20, 648))
    run = deck.get("s0/s_title/p0/r0")
    # font and bold from the master, size from the layout, colour ACCENT2 of the master's scheme
    assert run.style is not None
    assert (run.style.font, run.style.size, run.style.bold, run.style.color) == ("Georgia", 34, True, "#212121")


def test_theme_fill_chart_video_notes_background_hidden(deck: Document) -> None:
    assert deck.get("s0/group1/rot1").style.fill == "#ffab40"  # type: ignore[union-attr]
    chart = deck.select_one("chart")
    assert chart is not None and chart.attrs["chart_id"] == 42 and chart.attrs["blob"] in deck.blobs
    video = deck.select_one("media")
    assert video is not None and video.attrs["video_id"] == "fixture"
    note = deck.select_one("slide note")
    assert note is not None and note.text == "Say hello first" and not note.boxes
    slide = deck.get("s0")
    assert slide.attrs["background_type"] == "picture" and slide.attrs["background_blob"] in deck.blobs
    assert deck.pages[1].hidden is True and deck.get("s1").attrs["hidden"] is True
    assert deck.get("s1").attrs["background_color"] == "#ffffff"  # inherited from the master


@pytest.fixture(scope="module")
def book() -> Document:
    return extract_google_response(fixture_json("sheets_parity.json"))


def test_sheets_checkbox_link_image_formula_merge_hidden(book: Document) -> None:
    box = book.get("Data!B4")
    assert box.attrs["checkbox"] is True and box.attrs["checked"] is True and box.attrs["validation_type"] == "checkbox"
    link = book.get("Data!C4")
    assert link.attrs["hyperlink"] == "https://example.org/docs" and link.style.underline is True  # type: ignore[union-attr]
    assert link.style.color == "#0055cc"  # type: ignore[union-attr]
    img = book.get("Data!D4")
    assert img.attrs["image_url"] == "https://example.org/logo.png" and book.get("Data!D4/img").kind == "image"
    merged = book.get("Data!A5")
    assert merged.attrs["merge"] == "A5:B5" and merged.box is not None and merged.box.x1 == pytest.approx(90 + 75)
    with pytest.raises(KeyError):
        book.get("Data!B5")  # covered by the merge: not a node
    hidden = book.get("Data!A6")
    assert hidden.attrs["hidden"] is True and hidden.box is not None and hidden.box.height == 0
    assert book.get("Data!6:6").attrs["hidden"] is True


def test_sheets_chart_box_from_overlay_anchor(book: Document) -> None:
    chart = book.select_one("chart")
    assert chart is not None and chart.attrs["anchor"] == "F2" and chart.attrs["chart_type"] == "column"
    # column F starts after A (120 px) + B..E (4 x 100 px) = 520 px; row 2 after 21 px
    assert chart.box is not None
    assert (chart.box.x0, chart.box.top) == pytest.approx(((520 + 10) * 0.75, (21 + 4) * 0.75))
    assert (chart.box.width, chart.box.height) == pytest.approx((400 * 0.75, 240 * 0.75))
    assert book.pages[0].width == pytest.approx(chart.box.x1)


def test_sheets_sheet_level_metadata(book: Document) -> None:
    sheet = book.get("Data")
    assert sheet.attrs["frozen_rows"] == 1 and sheet.attrs["freeze_panes"] == "A2"
    assert sheet.attrs["filter"] == "A1:D3"
    assert sheet.attrs["conditional_formats"][0]["fill"] == "#b7e1cd"  # type: ignore[index]
    assert sheet.attrs["protected_ranges"][0]["description"] == "header"  # type: ignore[index]
    assert book.root.attrs["named_ranges"] == {"Totals": "Data!D2:D3"}
    assert book.pages[1].hidden is True and book.get("Hidden").attrs["state"] == "hidden"


@pytest.fixture(scope="module")
def tabbed(logo_png: bytes) -> Document:
    return extract_google_response(fixture_json("docs_tabs.json"), images={LOGO_URL: (logo_png, "image/png")})


def test_docs_tabs_headings_lists_tables(tabbed: Document) -> None:
    tabs = tabbed.select("group[role='tab']")
    assert [t.attrs["title"] for t in tabs] == ["Report", "Appendix"]
    assert [p.attrs["heading_level"] for p in tabbed.select("paragraph[heading_level]")] == [0, 1, 3]
    assert [p.attrs.get("list_label") for p in tabbed.select("paragraph[list_level]")] == ["", "1.", "a."]
    assert tabbed.select_one("paragraph[checklist=true]") is not None
    table = tabbed.select_one("table")
    assert table is not None and table.text == "Name\tScore\nAda\t10"
    assert tabbed.get("tab0/t0/r0/c0").style.fill == "#e6e6e6"  # type: ignore[union-attr]


def test_docs_link_style_footnote_image(tabbed: Document) -> None:
    link = tabbed.select_one("run[hyperlink]")
    assert link is not None and link.text == "site"
    assert link.style is not None and (link.style.bold, link.style.italic, link.style.size, link.style.color) == (True, True, 12, "#008b8b")
    ref = tabbed.select_one("run[footnote_ref]")
    assert ref is not None and ref.style is not None and ref.style.baseline == "superscript"
    note = tabbed.get("tab0/footnote-fn1")
    assert note.attrs["label"] == "1" and note.text == "A footnote."
    image = tabbed.select_one("image")
    assert image is not None and image.attrs["alt_text"] == "Company logo" and image.attrs["placement"] == "floating" and image.attrs["blob"] in tabbed.blobs
    assert any("no geometry" in w for w in tabbed.warnings) and not any(n.boxes for n in tabbed)


def test_heading_colour_comes_from_the_named_style(tabbed: Document) -> None:
    run = tabbed.get("tab0/p2/r0")
    assert run.style is not None and run.style.color == "#434343" and run.style.size == 14


@pytest.mark.parametrize("name", ["slides_features", "slides_parity", "sheets_parity", "docs_tabs"])
def test_fixture_trees_match_their_golden_snapshots(name: str, logo_png: bytes) -> None:
    """The whole tree of each fixture, reviewed once (tests/golden/google_*.json);
    regenerate with ARTIFACTCHECK_REGEN_GOLDEN=1 and review the diff."""
    from tests.golden import assert_matches_golden

    images = {LOGO_URL: (logo_png, "image/png"), CHART_URL: (logo_png, "image/png")}
    doc = extract_google_response(fixture_json(f"{name}.json"), images=images)
    data = json.loads(doc.to_json())
    data["artifact"].pop("path", None)
    assert_matches_golden(f"google_{name}", data)


def test_docs_suggestions_are_marked_like_tracked_changes(tabbed: Document) -> None:
    para = tabbed.get("tab1/p1")
    assert para.text == "Kept added"  # a suggested deletion is not text; an insertion is
    inserted, deleted = tabbed.get("tab1/p1/r1"), tabbed.get("tab1/p1/r2")
    assert inserted.attrs["tracked"] == "insert"
    assert deleted.attrs["tracked"] == "delete" and deleted.attrs["deleted_text"] == " removed" and deleted.text == ""
