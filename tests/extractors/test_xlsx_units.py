"""Units of the .xlsx extractor: width conversion, grid offsets, number formats,
overflow rules, fast node construction."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artifactcheck.extractors.xlsx.grid import (
    SheetGrid,
    col_width_chars_to_px,
    default_col_width_px,
)
from artifactcheck.extractors.xlsx.nodes import make_box, make_node
from artifactcheck.extractors.xlsx.number_format import format_value, general
from artifactcheck.extractors.xlsx.overflow import PADDING_PT, classify, wrap_lines
from artifactcheck.extractors.xlsx.sheet import split_range, split_ref
from artifactcheck.model import Box, Node, Style


def test_width_conversion_matches_excel() -> None:
    assert col_width_chars_to_px(9.140625, 7) == 64  # Excel's stored form of "8.43"
    assert col_width_chars_to_px(20, 7) == 140
    assert default_col_width_px(base_col_width=8, mdw=7) == 64  # 61 px rounded up to 8s
    assert default_col_width_px(base_col_width=10, mdw=7) == 80


def test_grid_offsets_with_hidden_and_custom() -> None:
    g = SheetGrid(default_col_width=48.0, default_row_height=15.0, mdw=7)
    g.add_cols(3, 3, 105.0, hidden=False)
    g.add_cols(5, 7, 60.0, hidden=True)
    g.add_row(2, 30.0, hidden=False, custom=True)
    g.add_row(4, 20.0, hidden=True, custom=True)
    assert [g.col_left(c) for c in range(1, 10)] == [0, 48, 96, 201, 249, 249, 249, 249, 297]
    assert [g.row_top(r) for r in range(1, 7)] == [0, 15, 45, 60, 60, 75]
    assert g.col_width(6) == 0 and g.row_height(4) == 0
    # A million rows down is one bisect, not a loop.
    assert g.row_top(1_048_576) == 1_048_575 * 15 + 15 - 15
    assert g.range_rect(1, 1, 2, 3) == (0, 0, 201, 45)
    # Anchor offsets are EMU and are not clamped to the cell.
    assert g.anchor_point(2, 12700 * 200, 0, 0) == (96 + 200, 0)


@given(st.lists(st.tuples(st.integers(1, 60), st.floats(0, 200)), max_size=20), st.integers(1, 80))
def test_col_left_equals_sum_of_widths(entries: list[tuple[int, float]], col: int) -> None:
    g = SheetGrid(default_col_width=48.0, default_row_height=15.0, mdw=7)
    widths: dict[int, float] = {}
    for c, w in sorted(dict(entries).items()):
        g.add_cols(c, c, w, hidden=False)
        widths[c] = w
    expected = sum(widths.get(c, 48.0) for c in range(1, col))
    assert g.col_left(col) == pytest.approx(expected)


def test_refs_and_ranges() -> None:
    assert split_ref("B3") == (3, 2)
    assert split_ref("$XFD$1048576") == (1_048_576, 16_384)
    assert split_range("C3:A1") == (1, 1, 3, 3)
    assert split_range("A:B") == (1, 1, 1_048_576, 2)
    assert split_range("nonsense") is None


@pytest.mark.parametrize(
    ("value", "fmt", "text"),
    [
        (1234.567, "General", "1234.567"),
        (1 / 3, "General", "0.333333333"),
        (1e15, "General", "1E+15"),
        (1234.567, "0", "1235"),
        (1234.567, "0.00", "1234.57"),
        (1234567.891, "#,##0", "1,234,568"),
        (-1234.5, "#,##0.00", "-1,234.50"),
        (0.256, "0%", "26%"),
        (0.256, "0.00%", "25.60%"),
        (12345.678, "0.00E+00", "1.23E+04"),
        (1234.5, '"$"#,##0.00', "$1,234.50"),
        (-1234.5, '"$"#,##0.00_);[Red]\\("$"#,##0.00\\)', "($1,234.50)"),
        (0, '#,##0;-#,##0;"-"', "-"),
        (1234.5, "[$€-407] #,##0.00", "€ 1,234.50"),
        (45000, "yyyy-mm-dd", "2023-03-15"),
        (45000, "d-mmm-yy", "15-Mar-23"),
        (45000, "dddd, mmmm dd, yyyy", "Wednesday, March 15, 2023"),
        (45000.75, "m/d/yyyy h:mm AM/PM", "3/15/2023 6:00 PM"),
        (1.5, "[h]:mm", "36:00"),
        (True, "General", "TRUE"),
        ("text", "0.00", "text"),
    ],
)
def test_number_formats(value: object, fmt: str, text: str) -> None:
    assert format_value(value, fmt).text == text


def test_unsupported_format_is_flagged() -> None:
    out = format_value(0.5, "#\\:#/#")  # a literal between the whole and the fraction
    assert not out.supported and out.text == general(0.5)
    assert format_value(0.5, "# ?/?").text == " 1/2"  # the usual shape is rendered


def _classify(**kw: object) -> dict[str, object]:
    base: dict[str, object] = {
        "kind": "text", "text_w": 100.0, "x0": 0.0, "x1": 48.0, "height": 15.0, "align": "general", "wrap": False,
        "merged": False, "shrink": False, "rotation": 0, "left_limit": 0.0, "right_limit": 1000.0, "line_h": 13.4,
        "lines": 1, "fixed_height": False, "general_min_w": None,
    }
    base.update(kw)
    return classify(**base)  # type: ignore[arg-type]


def test_overflow_rules() -> None:
    assert _classify(text_w=20.0)["overflow"] == "fits"
    assert _classify()["overflow"] == "spills"
    assert _classify(right_limit=96.0)["overflow"] == "clipped"
    assert _classify(right_limit=96.0)["visible_width_pt"] == 96.0 - PADDING_PT
    assert _classify(align="right", x0=200.0, x1=248.0, left_limit=100.0)["overflow"] == "spills"
    assert _classify(align="right", x0=200.0, x1=248.0, left_limit=190.0)["overflow"] == "clipped"
    assert _classify(merged=True)["overflow"] == "clipped"
    assert _classify(kind="number")["overflow"] == "hashes"
    rounded = _classify(kind="number", general_min_w=20.0)
    assert rounded["overflow"] == "fits" and rounded["display_rounded"] is True
    assert _classify(shrink=True)["overflow"] == "fits"
    assert _classify(align="center", x0=100.0, x1=148.0, left_limit=0.0)["overflow"] == "spills"
    assert _classify(align="center", x0=100.0, x1=148.0, left_limit=90.0)["overflow"] == "clipped"
    assert _classify(wrap=True, lines=3, fixed_height=True)["overflow"] == "clipped"
    assert _classify(wrap=True, lines=3, fixed_height=False)["needs_row_autofit"] is True
    assert _classify(rotation=90)["overflow"] == "unknown"


def test_wrap_lines() -> None:
    def width(s: str) -> float:
        return 5.0 * len(s)

    assert wrap_lines("aaaa bbbb", width, 100) == 1
    assert wrap_lines("aaaa bbbb", width, 30) == 2
    assert wrap_lines("a\nb\nc", width, 100) == 3
    assert wrap_lines("x" * 50, width, 100) == 3  # 250 pt word broken into 100 pt lines


def test_fast_constructors_equal_model_construct() -> None:
    style = Style(bold=True)
    fast = make_node("S!A1", "cell", text="x", style=style, attrs={"row": 1},
                     boxes=[make_box(0, 1.0, 2.0, 3.0, 4.0)], source="S!A1")
    slow = Node.model_construct(id="S!A1", kind="cell", text="x", style=style, attrs={"row": 1},
                                boxes=[Box(page=0, x0=1.0, top=2.0, x1=3.0, bottom=4.0)],
                                source="S!A1", children=[])
    assert fast.model_dump() == slow.model_dump()
    assert fast._navigation() == slow._navigation() == {"_parent": None, "_document": None, "_order": -1}
    assert fast == slow and not hasattr(fast, "__dict__")  # slotted nodes: every slot set, no dict
    assert not hasattr(fast.boxes[0], "__dict__")  # a slotted box: no per-box dict
    assert fast.boxes[0] == Box(page=0, x0=1.0, top=2.0, x1=3.0, bottom=4.0)
    assert Node.model_validate(fast.model_dump()) == fast


def test_excel_comparison() -> None:
    from artifactcheck.extractors.xlsx.cf_formula import compare

    assert compare(120.5, ">", 100.0)
    assert compare("URGENT", "=", "urgent")  # text compares case-insensitively
    assert not compare("5", "=", 5.0)  # a text never equals a number
    assert compare("5", "<>", 5.0)
    assert compare(None, "=", 0.0) and compare(None, "=", "")
    assert compare(True, "=", True) and not compare(True, "=", 1.0)
    assert compare("a", ">", 99.0) and compare(True, ">", "z")  # numbers < text < logicals


def test_rules_apply_in_priority_order_and_stop() -> None:
    from artifactcheck.extractors.xlsx.conditional_formats import apply_conditional_formats

    cells = {(r, 1): make_node(f"S!A{r}", "cell", text=str(v), attrs={"row": r, "col": 1, "value": v})
             for r, v in ((1, 5), (2, 50), (3, 500))}
    rules = [
        {"ranges": "A1:A3", "type": "cellIs", "operator": "greaterThan", "formulas": ["100"],
         "stop_if_true": True, "style": {"fill": "#ff0000"}},
        {"ranges": "A1:A3", "type": "cellIs", "operator": "between", "formulas": ["10", "1000"],
         "stop_if_true": False, "style": {"fill": "#00ff00", "bold": True}},
        {"ranges": "A1:A3", "type": "colorScale", "formulas": [], "style": None},
    ]
    apply_conditional_formats(rules, cells)
    assert [cells[(r, 1)].attrs.get("conditional_fill") for r in (1, 2, 3)] == [None, "#00ff00", "#ff0000"]
    assert "bold" not in cells[(3, 1)].attrs["conditional_style"]  # type: ignore[operator]
    assert [r["evaluated"] for r in rules] == [True, True, False]
    assert "colour scale" in str(rules[2]["not_evaluated"])


def test_cf_formulas_follow_excel() -> None:
    from artifactcheck.extractors.xlsx.cf_formula import Context, compile_formula

    cells = {(2, 1): 5.0, (3, 1): "urgent", (2, 2): None, (4, 1): 12.0}

    def ctx(row: int, col: int = 1, anchor: tuple[int, int] = (2, 1)) -> Context:
        return Context(lambda r, c: cells.get((r, c)), lambda r0, c0, r1, c1: [v for (r, c), v in cells.items()
                       if r0 <= r <= r1 and c0 <= c <= c1], row, col, row - anchor[0], col - anchor[1])

    def ev(formula: str, row: int = 2) -> object:
        fn = compile_formula(formula)
        assert fn is not None, formula
        return fn(ctx(row))

    assert ev("-2^2") == 4.0 and ev("2+3*4") == 14.0 and ev("50%") == 0.5
    assert ev('$A2="URGENT"', row=3) is True  # relative row, case-insensitive text
    assert ev("MOD(ROW(),2)=0") is True and ev("MOD(ROW(),2)=0", row=3) is False
    assert ev("ISBLANK(B2)") is True and ev("AND(A2>1,A2<10)") is True and ev("OR(A2>10,FALSE)") is False
    assert ev('COUNTIF($A$2:$A$4,">4")') == 2.0 and ev("SUM($A:$A)") == 17.0  # whole column
    assert ev("1/0") == "#DIV/0!" and ev('IFERROR(1/0,"x")') == "x"
    assert ev('A2&"!"') == "5!" and ev("LEN(A3)", row=2) == 6.0
    assert compile_formula("VLOOKUP(A2,Other!A:B,2,FALSE)") is None  # another sheet: not evaluated
    assert compile_formula("MyName>3") is None  # a defined name: not evaluated
    assert compile_formula("XNPV(A1,B1,C1)") is None  # an unknown function


def test_compact_attrs_is_the_same_dict() -> None:
    from artifactcheck.extractors.tree_builder import compact_attrs

    first = compact_attrs({"row": 1, "col": 2, "ref": "B1", "value": 1.5})
    second = compact_attrs({"row": 3, "col": 2, "ref": "B3", "value": None})
    assert type(first) is dict and first == {"row": 1, "col": 2, "ref": "B1", "value": 1.5}
    assert list(second.items()) == [("row", 3), ("col", 2), ("ref", "B3"), ("value", None)]
    other_order = compact_attrs({"col": 2, "row": 1})
    assert list(other_order) == ["col", "row"]
    second["table"] = "T1"  # adding a key later: an ordinary dict again, order kept
    assert list(second) == ["row", "col", "ref", "value", "table"] and first["ref"] == "B1"
    assert json.dumps(second) == '{"row": 3, "col": 2, "ref": "B3", "value": null, "table": "T1"}'
