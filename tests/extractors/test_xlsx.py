"""The .xlsx extractor on the built fixtures (fixtures/build_xlsx.py): exact boxes from
known column widths, row heights and anchors; features; overflow; golden snapshots."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from artifactcheck import load
from artifactcheck.extractors.drawingml.color import apply_tint
from artifactcheck.extractors.xlsx.extract import extract_xlsx
from artifactcheck.extractors.xlsx.overflow import PADDING_PT
from artifactcheck.model import Document, Node
from tests.conftest import FIXTURES
from tests.golden import assert_matches_golden

GEOMETRY = FIXTURES / "xlsx" / "geometry.xlsx"
GEOMETRY_LO = FIXTURES / "xlsx" / "geometry_lo.xlsx"

# Calibri 11: max digit width 7 px; default column 64 px = 48 pt; column C width 20
# chars -> trunc((256*20 + trunc(128/7)) / 256 * 7) = 140 px = 105 pt; rows 15 pt.
COL = 48.0
COL_C = 105.0
ROW = 15.0


@pytest.fixture(scope="module")
def doc() -> Document:
    return extract_xlsx(GEOMETRY)


@pytest.fixture(scope="module")
def doc_lo() -> Document:
    return extract_xlsx(GEOMETRY_LO)


def rect(node: Node) -> tuple[float, float, float, float]:
    b = node.box
    assert b is not None
    return (round(b.x0, 3), round(b.top, 3), round(b.x1, 3), round(b.bottom, 3))


def test_sheets_in_workbook_order_with_pages(doc: Document) -> None:
    assert [p.name for p in doc.pages] == ["Layout", "Sales", "Tasks", "Secret"]
    assert [p.kind for p in doc.pages] == ["sheet"] * 4
    assert [p.hidden for p in doc.pages] == [False, False, False, True]
    assert [n.id for n in doc.root.children] == ["Layout", "Sales", "Tasks", "Secret"]
    assert doc.get("Secret").attrs["state"] == "hidden"


def test_load_dispatches_to_xlsx(doc: Document) -> None:
    via_load = load(GEOMETRY)
    assert via_load.artifact.format == "xlsx"
    assert len(via_load) == len(doc)


def test_cell_in_custom_width_column_has_exact_box(doc: Document) -> None:
    # C5: left = A + B = 96; row 2 is 30 pt high, so top = 15 + 30 + 15 + 15 = 75.
    assert rect(doc.get("Layout!C5")) == (2 * COL, 75.0, 2 * COL + COL_C, 90.0)
    layout = doc.get("Layout")
    assert layout.attrs["default_col_width_pt"] == COL
    assert layout.attrs["col_widths"] == [[3, 3, COL_C, False]]
    assert layout.attrs["max_digit_width_px"] == 7


def test_chart_anchored_c3_to_h20(doc: Document) -> None:
    chart = doc.select_one("sheet[name='Sales'] chart")
    assert chart is not None
    # Sales: default columns; row 10 is 40 pt. C3 top-left = (2*48, 2*15);
    # H20 top-left = (7*48, 19*15 + 25).
    assert rect(chart) == (2 * COL, 2 * ROW, 7 * COL, 19 * ROW + 25)
    assert chart.attrs["anchor"] == "twoCellAnchor"
    assert (chart.attrs["from"], chart.attrs["to"]) == ("C3", "H20")
    assert chart.attrs["chart_type"] == "column"
    assert chart.attrs["title"] == "Revenue by month"
    series = chart.attrs["series"]
    assert isinstance(series, list) and len(series) == 1
    assert series[0]["values_ref"] == "'Sales'!$B$2:$B$6"  # type: ignore[index]


def test_picture_with_one_cell_anchor(doc: Document) -> None:
    img = doc.select_one("sheet[name='Sales'] image")
    assert img is not None
    # J2, 96 x 48 px -> 72 x 36 pt.
    assert rect(img) == (9 * COL, ROW, 9 * COL + 72, ROW + 36)
    assert img.attrs["anchor"] == "oneCellAnchor"
    blob = doc.blob(str(img.attrs["blob"]))
    assert (blob.width_px, blob.height_px, blob.mime) == (96, 48, "image/png")
    assert blob.phash is not None


def test_merged_header_covers_the_range_and_hides_covered_cells(doc: Document) -> None:
    a1 = doc.get("Layout!A1")
    assert a1.attrs["merge"] == "A1:E1"
    assert rect(a1) == (0.0, 0.0, 4 * COL + COL_C, ROW)
    with pytest.raises(KeyError):
        doc.get("Layout!B1")
    assert a1.style is not None and a1.style.bold and a1.style.size == 14
    # Theme colour 4 (accent1) lightened 40%, through the workbook's own theme.
    assert a1.style.fill == apply_tint("#4f81bd", 0.3999755851924192)


def test_frozen_header_and_page_extent(doc: Document) -> None:
    layout = doc.get("Layout")
    assert layout.attrs["freeze_panes"] == "A2"
    assert layout.attrs["frozen_rows"] == 1
    page = doc.pages[0]
    assert (page.width, page.height) == (4 * COL + COL_C, 16 * ROW + 15)
    sales_page = doc.pages[1]
    assert sales_page.width == 9 * COL + 72  # the picture is the right-most thing


def test_overflow_clipped_vs_spilling(doc: Document) -> None:
    clipped = doc.get("Layout!B8").attrs
    spills = doc.get("Layout!B10").attrs
    assert clipped["overflow"] == "clipped"
    assert clipped["blocked_by"] == "C8"
    assert spills["overflow"] == "spills"
    assert clipped["text_width_pt"] == spills["text_width_pt"]
    assert float(clipped["text_width_pt"]) > COL  # type: ignore[arg-type]
    assert clipped["visible_width_pt"] == COL - PADDING_PT
    assert doc.get("Layout!A16").attrs["overflow"] == "fits"
    assert doc.get("Layout!D12").attrs["overflow"] == "hashes"
    wrapped = doc.get("Layout!A14").attrs
    assert wrapped["overflow"] == "clipped" and int(wrapped["lines"]) > 1  # type: ignore[arg-type]


def test_values_formulas_and_number_formats(doc: Document) -> None:
    b2 = doc.get("Sales!B2")
    assert (b2.attrs["value"], b2.text, b2.attrs["number_format"]) == (120.5, "120.50", "#,##0.00")
    assert doc.get("Sales!C2").text == "19.8%"
    d2 = doc.get("Sales!D2")
    assert (d2.attrs["value"], d2.text, d2.attrs["data_type"]) == ("2024-01-15", "2024-01-15", "date")
    b7 = doc.get("Sales!B7")
    assert b7.attrs["formula"] == "=SUM(B2:B6)"
    assert b7.attrs["cached_value_missing"] is True  # openpyxl never calculates


def test_libreoffice_resave_keeps_geometry_and_caches_formulas(doc_lo: Document) -> None:
    # LibreOffice writes defaultColWidth=8.6796875 (61 px = 45.75 pt) and keeps C at 20.
    assert doc_lo.get("Layout").attrs["default_col_width_pt"] == 45.75
    assert rect(doc_lo.get("Layout!C5")) == (91.5, 75.0, 196.5, 90.0)
    assert doc_lo.get("Sales!B7").attrs["value"] == 609.5
    assert doc_lo.get("Sales!B7").text == "609.5"
    assert doc_lo.get("Layout!B8").attrs["overflow"] == "clipped"
    assert doc_lo.get("Layout!B10").attrs["overflow"] == "spills"
    chart = doc_lo.select_one("chart")
    assert chart is not None and chart.attrs["title"] == "Revenue by month"


def test_checkbox_validation_and_list_values(doc: Document) -> None:
    tasks = doc.get("Tasks")
    dvs = tasks.attrs["data_validations"]
    assert isinstance(dvs, list)
    checkbox = [d for d in dvs if d["checkbox"]]  # type: ignore[index]
    assert [d["ranges"] for d in checkbox] == ["D2:D6"]  # type: ignore[index]
    d2 = doc.get("Tasks!D2")
    assert d2.attrs["checkbox"] is True and d2.attrs["checked"] is True
    assert doc.get("Tasks!D3").attrs["checked"] is False
    assert doc.get("Tasks!C2").attrs["validation_values"] == ["urgent", "normal", "low"]
    assert [n.id for n in doc.select("sheet[name='Tasks'] cell[checkbox=true][checked=true]")] == [
        "Tasks!D2", "Tasks!D5"]


def test_conditional_formatting_rule(doc: Document) -> None:
    cfs = doc.get("Sales").attrs["conditional_formats"]
    assert cfs == [{
        "ranges": "B2:B6", "type": "cellIs", "operator": "greaterThan", "formulas": ["100"],
        "priority": 1, "stop_if_true": False, "style": {"fill": "#ffc7ce"}, "evaluated": True,
        "matched_cells": 3,
    }]


def test_highlighted_rows_grouped_at_top(doc: Document) -> None:
    # Rows 2-3 are filled yellow directly, and the "urgent" rule paints them #ffeb9c over
    # it: the rule's fill is what LibreOffice draws (tests/extractors/test_xlsx_display.py).
    rows = doc.select("sheet[name='Tasks'] row")
    highlighted = [int(r.attrs["row"]) for r in rows  # type: ignore[arg-type]
                   if any(c.style is not None and c.style.fill == "#ffeb9c" for c in r.children)]
    assert highlighted == [2, 3]
    assert [c.id for c in doc.select("sheet[name='Tasks'] cell[fill='#ffeb9c']")][:2] == ["Tasks!A2", "Tasks!B2"]
    a2 = doc.get("Tasks!A2")
    assert a2.attrs["style_sources"] == {"fill": "conditional_format"}
    assert a2.attrs["direct_style"] == {"fill": "#ffff00"}


def test_table_header_comment_hyperlink_hidden(doc: Document) -> None:
    tables = doc.get("Sales").attrs["tables"]
    assert isinstance(tables, list) and tables[0]["name"] == "SalesTable"  # type: ignore[index]
    assert [c.text for c in doc.select("sheet[name='Sales'] cell[table_header=true]")] == [
        "Month", "Revenue", "Share", "Date"]
    comment = doc.get("Tasks!A2/comment")
    assert (comment.kind, comment.text, comment.attrs["author"]) == ("comment", "Check me", "QA")
    assert doc.get("Tasks!A8").attrs["hyperlink"] == "https://example.org/project"
    e2 = doc.get("Tasks!E2")
    assert e2.attrs["hidden"] is True and e2.attrs["overflow"] == "hidden"
    assert rect(e2)[0] == rect(e2)[2]  # hidden column: zero width
    a7 = doc.get("Tasks!A7")
    assert rect(a7)[1] == rect(a7)[3]  # hidden row: zero height
    assert rect(doc.get("Tasks!A8"))[1] == 6 * ROW


def test_rows_hold_cells_and_json_round_trips(doc: Document) -> None:
    row = doc.get("Tasks!1:1")
    assert row.kind == "row" and [c.attrs["col"] for c in row.children] == [1, 2, 3, 4]
    assert row.text == "Task\tOwner\tStatus\tDone"
    again = Document.from_json(doc.to_json())
    assert again.get("Layout!C5").box == doc.get("Layout!C5").box
    assert again.get("Layout!A1").style == doc.get("Layout!A1").style


def _snapshot(doc: Document) -> dict[str, Any]:
    def node(n: Node) -> dict[str, Any]:
        out: dict[str, Any] = {"id": n.id, "kind": n.kind, "text": n.text}
        if n.boxes:
            b = n.boxes[0]
            out["box"] = [b.page, b.x0, b.top, b.x1, b.bottom]
        if n.style is not None:
            out["style"] = n.style.model_dump(exclude_none=True)
        attrs = {k: v for k, v in n.attrs.items() if k not in ("blob",)}
        if attrs:
            out["attrs"] = attrs
        if n.children:
            out["children"] = [node(c) for c in n.children]
        return out

    return {
        "pages": [p.model_dump() for p in doc.pages],
        "root": node(doc.root),
        "warnings": doc.warnings,
        "blobs": sorted((b.mime, b.width_px, b.height_px) for b in doc.blobs.values()),
    }


@pytest.mark.parametrize("path", [GEOMETRY, GEOMETRY_LO], ids=lambda p: Path(p).stem)
def test_golden(path: Path) -> None:
    assert_matches_golden(f"xlsx_{path.stem}", _snapshot(extract_xlsx(path)))


def test_conditional_rules_are_evaluated_on_cells(doc: Document, doc_lo: Document) -> None:
    # cellIs > 100 on Sales!B2:B6 (120.5, 98.25, 143, 87.75, 160).
    assert [n.id for n in doc.select("sheet[name='Sales'] cell[conditional_fill='#ffc7ce']")] == [
        "Sales!B2", "Sales!B4", "Sales!B6"]
    # $C2="urgent" on Tasks!A2:D6 highlights the whole rows 2 and 3.
    for d in (doc, doc_lo):
        rows = {int(n.attrs["row"]) for n in d.select("sheet[name='Tasks'] cell[conditional_fill='#ffeb9c']")}  # type: ignore[arg-type]
        assert rows == {2, 3}
    rules = doc.get("Tasks").attrs["conditional_formats"]
    assert isinstance(rules, list) and all(r["evaluated"] for r in rules)  # type: ignore[index]
