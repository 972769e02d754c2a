"""The python-pptx fixture deck (fixtures/build_pptx.py): exact geometry, effective
styles, charts, tables, notes, backgrounds and a golden snapshot."""

from __future__ import annotations

import math
from typing import Any

import pytest

from artifactcheck.extractors.pptx.extract import extract_pptx
from artifactcheck.model import Box, Document, Node
from tests.conftest import FIXTURES
from tests.golden import assert_matches_golden

DECK = FIXTURES / "pptx" / "deck.pptx"
IN = 72.0  # points per inch
TOL = 0.01  # points


@pytest.fixture(scope="module")
def doc() -> Document:
    return extract_pptx(DECK)


def by_name(doc: Document, name: str) -> Node:
    found = [n for n in doc if n.attrs.get("name") == name]
    assert len(found) == 1, f"{name}: {found}"
    return found[0]


def assert_box(box: Box | None, x0: float, top: float, x1: float, bottom: float) -> None:
    assert box is not None
    got = (box.x0, box.top, box.x1, box.bottom)
    want = (x0, top, x1, bottom)
    assert all(abs(g - w) <= TOL for g, w in zip(got, want)), f"{got} != {want}"


def test_slides_pages_and_order(doc: Document) -> None:
    slides = list(doc.iter("slide"))
    assert [s.attrs["index"] for s in slides] == [0, 1, 2, 3, 4]
    assert [(p.kind, p.width, p.height) for p in doc.pages] == [("slide", 720.0, 540.0)] * 5
    assert [p.hidden for p in doc.pages] == [False, False, False, True, False]
    assert slides[3].attrs["hidden"] is True
    assert slides[0].attrs["layout"] == "Title Slide"
    assert doc.pages[0].name == "Quarterly Review"
    assert doc.warnings == []


def test_picture_at_one_inch_and_its_blob(doc: Document) -> None:
    pic = by_name(doc, "Picture 3")
    assert pic.kind == "image"
    assert_box(pic.box, 1 * IN, 1 * IN, 3 * IN, 2 * IN)
    blob = doc.blob(pic.attrs["blob"])
    assert (blob.width_px, blob.height_px) == (200, 100)
    assert pic.source == "ppt/slides/slide1.xml#id=4"


def test_cropped_picture_keeps_only_the_shown_part(doc: Document) -> None:
    pic = by_name(doc, "Picture 4")
    assert pic.attrs["crop"] == {"l": 0.5, "t": 0.0, "r": 0.0, "b": 0.5}
    assert pic.attrs["blob"] != pic.attrs["original_blob"]
    cropped = doc.blob(pic.attrs["blob"])
    assert (cropped.width_px, cropped.height_px) == (100, 50)
    from io import BytesIO

    from PIL import Image

    assert cropped.data is not None
    with Image.open(BytesIO(cropped.data)) as img:
        assert img.convert("RGB").getpixel((50, 25)) == (30, 160, 30)  # the green quadrant


def test_inherited_placeholders_take_the_layout_position(doc: Document) -> None:
    title = doc.get("s0/sh0")
    # python-pptx's default "Title Slide" layout: ctrTitle at (685800, 2130425) 7772400 x 1470025 EMU
    assert title.attrs["position_from"] == "layout"
    assert_box(title.box, 685800 / 12700, 2130425 / 12700, (685800 + 7772400) / 12700, (2130425 + 1470025) / 12700)
    title3 = doc.get("s2/sh0")
    assert title3.attrs["position_from"] == "master"  # "Title Only" layout has no xfrm either


def test_group_child_space_is_composed(doc: Document) -> None:
    outer = by_name(doc, "Outer Group")
    assert outer.kind == "group"
    assert_box(outer.box, 1 * IN, 1 * IN, 5 * IN, 3 * IN)
    # child (0.5in, 0.25in) 0.5x0.25 in, scaled x2 from chOff (0,0) onto off (1in, 1in)
    assert_box(by_name(doc, "Scaled Rect").box, 2 * IN, 1.5 * IN, 3 * IN, 2 * IN)
    # nested group: identity inside, then the outer x2 scale
    assert_box(by_name(doc, "Inner Group").box, 3 * IN, 2 * IN, 4 * IN, 3 * IN)
    assert_box(by_name(doc, "Nested Oval").box, 3 * IN, 2 * IN, 4 * IN, 3 * IN)
    oval = by_name(doc, "Nested Oval")
    assert [a.attrs.get("name") for a in oval.ancestors()][:2] == ["Inner Group", "Outer Group"]


def test_rotated_group_keeps_the_polygon(doc: Document) -> None:
    member = by_name(doc, "Rotated Member")
    box = member.box
    assert box is not None and box.polygon is not None
    # 2 x 1 in at (6in, 4in) turned 90 degrees about its centre (7in, 4.5in)
    assert_box(box, 6.5 * IN, 3.5 * IN, 7.5 * IN, 5.5 * IN)
    want = [(7.5 * IN, 3.5 * IN), (7.5 * IN, 5.5 * IN), (6.5 * IN, 5.5 * IN), (6.5 * IN, 3.5 * IN)]
    assert all(math.dist(p, q) <= TOL for p, q in zip(box.polygon, want))
    assert member.attrs["rotation_effective"] == 90.0
    assert "rotation" not in member.attrs  # the member itself is not rotated


def test_rotated_shape_polygon(doc: Document) -> None:
    shape = by_name(doc, "Rotated 30")
    assert shape.attrs["rotation"] == 30.0
    box = shape.box
    assert box is not None and box.polygon is not None
    cx, cy = 2 * IN, 1.5 * IN
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    corners = [(-IN, -0.5 * IN), (IN, -0.5 * IN), (IN, 0.5 * IN), (-IN, 0.5 * IN)]
    want = [(cx + x * c - y * s, cy + x * s + y * c) for x, y in corners]
    assert all(math.dist(p, q) <= TOL for p, q in zip(box.polygon, want))
    assert_box(box, min(p[0] for p in want), min(p[1] for p in want), max(p[0] for p in want), max(p[1] for p in want))
    assert shape.style is not None and shape.style.fill == "#c0504d"  # accent2 of the default theme


def test_flipped_shape_and_connector(doc: Document) -> None:
    flipped = by_name(doc, "Flipped")
    assert flipped.attrs["flip_h"] is True and flipped.box is not None and flipped.box.polygon is None
    assert_box(flipped.box, 4 * IN, 1 * IN, 6 * IN, 2 * IN)
    line = by_name(doc, "Connector")
    assert line.attrs["connector"] is True
    assert_box(line.box, 1 * IN, 4 * IN, 5 * IN, 5 * IN)
    assert line.attrs["endpoints"] == [[1 * IN, 4 * IN], [5 * IN, 5 * IN]]
    assert by_name(doc, "Red Oval").style.fill == "#ff0000"  # type: ignore[union-attr]


def test_z_order_follows_the_sptree(doc: Document) -> None:
    slide = doc.get("s1")
    zs = [n.attrs["z"] for n in slide.descendants() if "z" in n.attrs]
    assert zs == list(range(len(zs)))


def test_table_cells_and_merges(doc: Document) -> None:
    table = doc.select_one("table")
    assert table is not None and table.attrs["rows"] == 3 and table.attrs["cols"] == 3
    assert_box(table.box, 0.5 * IN, 1.5 * IN, 5 * IN, 3 * IN)
    head = doc.get("s2/sh1/tr0/tc0")
    assert head.text == "Region and quarter" and head.attrs["col_span"] == 2
    assert_box(head.box, 0.5 * IN, 1.5 * IN, 4 * IN, 2 * IN)  # columns 2in + 1.5in
    covered = doc.get("s2/sh1/tr0/tc1")
    assert covered.boxes == [] and covered.attrs["merged_into"] == "s2/sh1/tr0/tc0"
    tall = doc.get("s2/sh1/tr1/tc2")
    assert tall.attrs["row_span"] == 2
    assert_box(tall.box, 4 * IN, 2 * IN, 5 * IN, 3 * IN)
    assert_box(doc.get("s2/sh1/tr2/tc1").box, 2.5 * IN, 2.5 * IN, 4 * IN, 3 * IN)


def test_table_style_fills_and_header_text(doc: Document) -> None:
    """python-pptx writes no table style definition; the default "Medium Style 2 -
    Accent 1" applies: accent1 header with white text, banded rows accent1 tint 40% / 20%
    (d0d8e8 / e9edf4, the colours PowerPoint shows for 4F81BD). The header text is
    regular, as LibreOffice draws the style it supplies itself (PowerPoint's own
    definition, when the deck carries it, is bold: test_pptx_table_style_render.py)."""
    assert doc.select_one("table").attrs["table_style"] == "Medium Style 2 – Accent 1"  # type: ignore[union-attr]
    head = doc.get("s2/sh1/tr0/tc0")
    assert head.style is not None and head.style.fill == "#4f81bd"
    run = doc.get("s2/sh1/tr0/tc0/p0/r0").style
    assert run is not None and (run.color, run.bold) == ("#ffffff", False)
    assert doc.get("s2/sh1/tr1/tc0").style.fill == "#d0d8e8"  # type: ignore[union-attr]
    assert doc.get("s2/sh1/tr2/tc0").style.fill == "#e9edf4"  # type: ignore[union-attr]
    body = doc.get("s2/sh1/tr1/tc0/p0/r0").style
    assert body is not None and (body.color, body.bold) == ("#000000", False)


def test_chart_attrs(doc: Document) -> None:
    chart = doc.select_one("chart")
    assert chart is not None
    a = chart.attrs
    assert a["chart_type"] == "column" and a["title"] == "Sales by quarter"
    assert a["chart_grouping"] == "clustered"
    assert a["legend"] is True and a["legend_position"] == "bottom"
    names = [s["name"] for s in a["series"]]  # type: ignore[index,union-attr]
    assert names == ["North", "South"]
    first: Any = a["series"][0]  # type: ignore[index]
    assert first["values"] == [1.5, 2.5, 3.5] and first["categories"] == ["Q1", "Q2", "Q3"]
    assert first["values_ref"] == "Sheet1!$B$2:$B$4"
    assert [ax["title"] for ax in a["axes"]] == [None, "Units"]  # type: ignore[index,union-attr]
    assert_box(chart.box, 5.5 * IN, 1.5 * IN, 9.5 * IN, 4.5 * IN)


def test_effective_run_styles(doc: Document) -> None:
    title_run = doc.get("s0/sh0/p0/r0")
    assert title_run.style is not None
    assert (title_run.style.font, title_run.style.size, title_run.style.color) == ("Calibri", 44.0, "#000000")
    sub = doc.get("s0/sh1/p0/r0").style
    assert sub is not None and sub.size == 32.0 and sub.color == "#898989"  # tx1 tint 75% in the master
    dark = doc.get("s3/sh1/p2/r0").style
    assert dark is not None
    # accent1 4F81BD with lumMod 75000 -> 376092 (PowerPoint's "Darker 25%")
    assert (dark.color, dark.bold, dark.italic, dark.underline, dark.size, dark.font) == (
        "#376092", True, True, True, 20.0, "Liberation Serif",
    )  # fmt: skip
    plain = doc.get("s3/sh2/p0/r0").style
    assert plain is not None and (plain.font, plain.size, plain.bold) == ("Calibri", 18.0, False)


def test_hyperlinks_bullets_and_levels(doc: Document) -> None:
    link = doc.get("s3/sh1/p1/r0")
    assert link.attrs["hyperlink"] == "https://example.org/docs"
    assert link.style is not None and link.style.color == "#0000ff" and link.style.underline is True
    assert doc.select('run[hyperlink*="example.org"]') == [link]
    p0, p1 = doc.get("s3/sh1/p0"), doc.get("s3/sh1/p1")
    assert (p0.attrs["list_level"], p0.attrs["bullet"], p0.attrs["list_ordered"]) == (0, "•", False)
    assert p1.attrs["list_level"] == 1
    assert "list_level" not in doc.get("s0/sh0/p0").attrs  # a title is not a list item


def test_notes_and_backgrounds(doc: Document) -> None:
    note = doc.get("s0/notes")
    assert note.kind == "note" and note.text == "Speaker notes for the title slide"
    assert note.boxes == [] and note.attrs["rendered"] is False
    s3 = doc.get("s3").attrs
    assert (s3["background_type"], s3["background_color"], s3["background_from"]) == ("solid", "#f0f8ff", "slide")
    s0 = doc.get("s0").attrs
    assert s0["background_from"] in ("master", "default") and s0["background_color"] == "#ffffff"


def test_json_round_trip_and_unique_ids(doc: Document) -> None:
    again = Document.from_json(doc.to_json())
    assert again.to_json() == doc.to_json()
    ids = [n.id for n in doc]
    assert len(ids) == len(set(ids))


def _snapshot(doc: Document) -> list[dict[str, Any]]:
    out = []
    for n in doc:
        attrs = {k: v for k, v in n.attrs.items() if k not in ("blob", "original_blob", "fill_blob")}
        out.append(
            {
                "id": n.id,
                "kind": n.kind,
                "text": n.text,
                "boxes": [[b.x0, b.top, b.x1, b.bottom] + ([list(map(list, b.polygon))] if b.polygon else []) for b in n.boxes],
                "style": n.style.model_dump(exclude_none=True) if n.style else None,
                "attrs": attrs,
                "source": n.source,
            }
        )
    return out


def test_golden_snapshot(doc: Document) -> None:
    assert_matches_golden("pptx_fixture_deck", _snapshot(doc))
