"""Tree queries on sheets and tables (mechanism ``tree_query``): the header row, columns
found by their header text, and "rows with property P are grouped at the top".

A sheet or table is read as a ``grid.Grid`` (only rows and columns that hold a cell);
short labels are compared with ``normalize.label_similarity``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node
from ..color import DEFAULT_TOLERANCE, match_color, resolve_color, theme_of
from ..normalize import label_similarity
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import Target, TargetSpec, text_matches
from ._result import query_result
from .grid import Grid, HeaderGuess, describe_header, detect_header_row, grids, row_is_bold

# -- sheets and tables: header row, columns, grouped rows -------------------------------------


class HeaderRowParams(BaseModel):
    """Parameters of ``header_row``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    scope: TargetSpec | None = Field(
        default=None, description="the sheet or table (default: every one)"
    )
    range: str | None = Field(
        default=None,
        description="only these cells: A1 text ('A1:G9', 'Sheet1!A1:G9', 'B:D'), a defined "
        "name or an Excel table name; the header is detected inside it. Default: the sheet's "
        "table (its only Excel table, else the block of adjacent columns holding most text)",
    )
    row: int | None = Field(default=None, ge=1, description="the header must be this 1-based row")
    bold: bool | None = Field(default=None, description="the header cells must (not) be bold")
    headers: list[str] = Field(
        default_factory=list, description="labels the header must contain (fuzzy)"
    )
    threshold: float = Field(default=85.0, ge=0, le=100, description="label_similarity a label needs (0-100)")


@register_check(
    "header_row",
    mechanism="tree_query",
    params=HeaderRowParams,
    example={"scope": "sheet[name='Data']", "row": 1, "bold": True},
)
def header_row(doc: Document, params: HeaderRowParams, resources: Resources) -> CheckResult:
    """A sheet or table has a header row (labels above data rows), optionally at a given row, bold, with given labels.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("header_row", tiny_doc(), {"row": 1, "bold": True, "headers": ["name", "score"]}).status
    'pass'
    """
    gs = grids(doc, params.scope, params.range, table_only=True)
    if not gs:
        return query_result("header_row", False, "no sheet or table found", {"grids": []})
    rows = []
    for g in gs:
        guess = detect_header_row(g)
        row: dict[str, Any] = {
            "grid": g.name,
            "cells": g.describe(),
            "header": describe_header(g, guess),
            "detected_row": None if guess.index is None else g.row_numbers[guess.index],
            "reason": guess.reason,
            "problems": [],
        }
        if guess.index is None:
            row["problems"].append("no header row")
        else:
            i = guess.index
            row["labels"] = [t for t in g.row_texts(i) if t]
            if params.row is not None and g.row_numbers[i] != params.row:
                row["problems"].append(
                    f"header is row {g.row_numbers[i]}, expected row {params.row}"
                )
            if params.bold is not None and row_is_bold(g, i) != params.bold:
                row["problems"].append(f"header {'is not' if params.bold else 'is'} bold")
            for label in params.headers:
                best = max(
                    (label_similarity(label, t) for t in row["labels"]),
                    default=0,
                )
                if best < params.threshold:
                    row["problems"].append(f"no header like {label!r}")
        row["ok"] = not row["problems"]
        rows.append(row)
    good = sum(r["ok"] for r in rows)
    passed = good == len(rows)
    return query_result(
        "header_row",
        passed,
        f"{good}/{len(rows)} sheet(s)/table(s) have the expected header; "
        + (
            rows[0]["header"]
            if passed
            else next(r for r in rows if not r["ok"])["header"]
            + "; "
            + "; ".join(next(r for r in rows if not r["ok"])["problems"])
        ),
        {"grids": rows},
        score=good / len(rows),
    )


def match_columns(
    grid: Grid, header_index: int, headers: list[str], threshold: float
) -> list[dict[str, Any]]:
    """Map each expected header text to the best column of the header row
    (``normalize.label_similarity``: token_set_ratio, numbers must match; each column is
    used at most once, best pairs first)."""
    labels = grid.row_texts(header_index)
    pairs = sorted(
        (
            (label_similarity(h, t) if t else 0.0, k, j)
            for k, h in enumerate(headers)
            for j, t in enumerate(labels)
        ),
        key=lambda p: (-p[0], p[1], p[2]),  # best first; ties: earlier header, leftmost column
    )
    taken_k: dict[int, tuple[float, int]] = {}
    taken_j: set[int] = set()
    for score, k, j in pairs:
        if k in taken_k or j in taken_j or score < threshold:
            continue
        taken_k[k] = (score, j)
        taken_j.add(j)
    out = []
    for k, h in enumerate(headers):
        if k in taken_k:
            score, j = taken_k[k]
            out.append(
                {
                    "expected": h,
                    "column": grid.col_label(j),
                    "index": j,
                    "actual": labels[j],
                    "similarity": round(score, 1),
                    "ok": True,
                }
            )
        else:
            out.append({"expected": h, "column": None, "index": None, "ok": False})
    return out


class ColumnsParams(BaseModel):
    """Parameters of ``columns_match``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    scope: TargetSpec | None = Field(default=None, description="the sheet or table (default: the one whose header matches best)")
    range: str | None = Field(
        default=None,
        description="only these cells: A1 text ('A1:G9', 'Sheet1!A1:G9', 'B:D'), a defined "
        "name or an Excel table name; the header is detected inside it. Default: the sheet's "
        "table (its only Excel table, else the block of adjacent columns holding most text)",
    )
    headers: list[str] = Field(min_length=1, description="the header texts expected (fuzzy)")
    threshold: float = Field(
        default=80.0,
        ge=0,
        le=100,
        description="label_similarity (token_set_ratio; numbers must match)",
    )
    in_order: bool = Field(default=False, description="the matched columns must be in the order of headers")
    header_row: int | None = Field(default=None, ge=1, description="1-based sheet row; default: detected")


@register_check(
    "columns_match",
    mechanism="tree_query",
    params=ColumnsParams,
    example={"scope": "sheet", "headers": ["Name", "Email", "Phone"], "in_order": True},
)
def columns_match(doc: Document, params: ColumnsParams, resources: Resources) -> CheckResult:
    """The header row has a column for each expected header text (fuzzy), optionally in that order.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("columns_match", tiny_doc(), {"headers": ["score", "names"], "in_order": False}).status
    'pass'
    """
    gs = grids(doc, params.scope, params.range, table_only=True)
    if not gs:
        return query_result("columns_match", False, "no sheet or table found", {})
    best: tuple[int, Grid, list[dict[str, Any]], int, HeaderGuess] | None = None
    for g in gs:
        guess = _header_of(g, params.header_row)
        if guess.index is None:
            continue
        m = match_columns(g, guess.index, params.headers, params.threshold)
        hits = sum(r["ok"] for r in m)
        if best is None or hits > best[0]:
            best = (hits, g, m, guess.index, guess)
    if best is None:
        return query_result(
            "columns_match", False, "no header row found in " + ", ".join(g.describe() for g in gs), {"grids": [g.name for g in gs]}
        )
    hits, g, mapping, idx, chosen = best
    order_ok = True
    if params.in_order:
        found = [r["index"] for r in mapping if r["ok"]]
        order_ok = found == sorted(found)
    passed = hits == len(params.headers) and order_ok
    missing = [r["expected"] for r in mapping if not r["ok"]]
    explanation = f"{hits}/{len(params.headers)} header(s) matched; {describe_header(g, chosen)}"
    if missing:
        explanation += f"; missing {missing}; header row is {[t for t in g.row_texts(idx) if t]}"
    if not order_ok:
        explanation += "; columns are out of order"
    return query_result(
        "columns_match",
        passed,
        explanation,
        {
            "grid": g.name,
            "cells": g.describe(),
            "header_row": g.row_numbers[idx],
            "header_reason": chosen.reason,
            "mapping": mapping,
            "in_order": order_ok,
        },
        score=hits / len(params.headers) * (1.0 if order_ok else 0.5),
    )


RowProperty = Literal["filled", "highlighted", "bold", "italic", "text"]


class GroupedParams(BaseModel):
    """Parameters of ``rows_grouped_at_top``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    scope: TargetSpec | None = Field(default=None, description="the sheet or table (default: the first)")
    range: str | None = Field(
        default=None,
        description="only these cells: A1 text ('A1:G9', 'Sheet1!A1:G9', 'B:D'), a defined "
        "name or an Excel table name; the header is detected inside it. Default: the sheet's "
        "table (its only Excel table, else the block of adjacent columns holding most text)",
    )
    property: RowProperty = Field(default="filled", description="what marks a row: a fill colour, a highlight (fill or text highlight), bold or italic text, or text in a column")
    color: str | None = Field(
        default=None,
        description="filled/highlighted: only this colour counts (CIEDE2000 tolerance)",
    )
    color_tolerance: float = Field(default=DEFAULT_TOLERANCE, ge=0, description="CIEDE2000 distance a colour may be from color")
    column: str | None = Field(default=None, description="text: the header of the column to test")
    text: str | None = Field(default=None, description="text: rows whose cell contains this")
    cells: Literal["majority", "all", "any"] = Field(
        default="majority",
        description="majority (default): cells covering more than half of the row's width in "
        "the table have P, what a reader sees as a highlighted row; all: every cell with text "
        "has it; any: one cell with text has it",
    )
    header_row: int | None = Field(
        default=None, ge=1, description="1-based sheet row; default: detected (none: the block starts at the first row)"
    )
    min_rows: int = Field(default=1, ge=0, description="at least this many marked rows")


def column_widths(g: Grid) -> list[float]:
    """Each grid column's width in points, from any of its cells' boxes (1.0 each when
    the grid has no geometry, so shares become shares of cells)."""
    out = []
    for j in range(len(g.col_numbers)):
        width = next((c.boxes[0].width for row in g.cells if (c := row[j]) is not None and c.boxes), None)
        out.append(width if width is not None and width > 0 else 0.0)
    if not any(out):
        return [1.0] * len(out)
    known = [w for w in out if w > 0]
    return [w if w > 0 else sum(known) / len(known) for w in out]


def _header_of(g: Grid, row: int | None) -> HeaderGuess:
    """The header the author named (a 1-based sheet row) or the detected one."""
    if row is None:
        return detect_header_row(g)
    if row in g.row_numbers:
        return HeaderGuess(g.row_numbers.index(row), f"row {row} as given (header_row)")
    return HeaderGuess(None, f"row {row} (header_row) holds no cell in {g.describe()}")


def _cell_has(cell: Node, params: GroupedParams, ignore_white: set[str]) -> bool:
    style = cell.style
    if params.property in ("filled", "highlighted"):
        values = []
        sources = cell.attrs.get("style_sources")
        # an Excel table's banding is the table's look, not a row someone highlighted
        banded = isinstance(sources, dict) and sources.get("fill") == "table_style"
        if style is not None and style.fill and not (banded and params.property == "highlighted"):
            values.append(style.fill)
        shown = cell.attrs.get("conditional_fill")  # a conditional format's fill is what shows
        if isinstance(shown, str) and shown:
            values = [shown]
        if params.property == "highlighted":
            values += [
                r.style.highlight
                for r in cell.descendants("run")
                if r.style is not None and r.style.highlight
            ]
            if style is not None and style.highlight:
                values.append(style.highlight)
        values = [v for v in values if v not in ignore_white]
        if params.color is not None:
            return any(
                match_color(v, params.color, tolerance=params.color_tolerance, theme=theme_of(cell)).ok
                for v in values
            )
        return bool(values)
    units = [r for r in cell.descendants("run") if r.text.strip()] or [cell]
    flag = params.property
    return all(u.style is not None and bool(getattr(u.style, flag)) for u in units)


@register_check(
    "rows_grouped_at_top",
    mechanism="tree_query",
    params=GroupedParams,
    example={"scope": "sheet", "property": "filled", "color": "yellow"},
)
def rows_grouped_at_top(doc: Document, params: GroupedParams, resources: Resources) -> CheckResult:
    """Rows with a property (filled, highlighted, bold, text in a column) form one block right below the header.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("rows_grouped_at_top", tiny_doc(), {"property": "text", "column": "Name", "text": "Ada"}).status
    'pass'
    """
    if params.property == "text" and (params.column is None or params.text is None):
        raise ValueError("property 'text' needs 'column' and 'text'")
    gs = grids(doc, params.scope, params.range, table_only=True)
    if not gs:
        return query_result("rows_grouped_at_top", False, "no sheet or table found", {})
    g = gs[0]
    guess = _header_of(g, params.header_row)
    h = guess.index
    header_text = describe_header(g, guess)
    start = 0 if h is None else h + 1
    # hidden rows are not seen: the rows around one are drawn next to each other
    data = [i for i in range(start, len(g.cells)) if not g.is_blank(i) and not g.is_hidden(i)]
    col_index = None
    if params.property == "text":
        if h is None:
            return query_result(
                "rows_grouped_at_top",
                False,
                "no header row to find the column in",
                {"grid": g.name},
            )
        assert params.column is not None
        m = match_columns(g, h, [params.column or ""], 80.0)[0]
        if not m["ok"]:
            return query_result(
                "rows_grouped_at_top",
                False,
                f"no column like {params.column!r}",
                {"grid": g.name, "header": g.row_texts(h)},
            )
        col_index = m["index"]
    white = {c.hex for c in resolve_color("white")}
    widths = column_widths(g)
    flags = []
    for i in data:
        if col_index is not None:
            cell = g.cells[i][col_index]
            flags.append(
                cell is not None and text_matches(cell.text, params.text or "", Target(text="x"))
            )
            continue
        if params.cells == "majority":
            # a reader sees a highlighted row: most of its width in the table has P
            has = [c is not None and _cell_has(c, params, white) for c in g.cells[i]]
            flags.append(sum(w for w, ok in zip(widths, has) if ok) * 2 > sum(widths))
            continue
        cells = [c for c in g.cells[i] if c is not None and (c.text.strip() or c.style is not None)]
        texted = [c for c in cells if c.text.strip()] or cells
        results = [_cell_has(c, params, white) for c in texted]
        flags.append(bool(results) and (all(results) if params.cells == "all" else any(results)))
    marked = [g.row_numbers[i] for i, f in zip(data, flags) if f]
    k = len(marked)
    top_block = all(flags[:k]) if k else True
    stray = [g.row_numbers[i] for i, f in zip(data[k:], flags[k:]) if f]
    passed = k >= params.min_rows and top_block
    rule = "" if col_index is not None or params.property == "text" else f" ({params.cells} of each row's text cells)"
    explanation = f"{k} row(s) with {params.property}{rule}" + (
        f", all directly below the header (rows {marked[0]}-{marked[-1]})" if passed and k else ""
    )
    if not passed:
        if k < params.min_rows:
            explanation += f"; expected at least {params.min_rows}"
        else:
            gap = next(g.row_numbers[i] for i, f in zip(data[:k], flags[:k]) if not f)
            explanation += f"; row {gap} lacks it while rows {stray} below have it"
    explanation += f"; {header_text}"
    in_block = sum(1 for f in flags[:k] if f)
    return query_result(
        "rows_grouped_at_top",
        passed,
        explanation,
        {
            "grid": g.name,
            "cells": g.describe(),
            "header_row": None if h is None else g.row_numbers[h],
            "header_reason": guess.reason,
            "row_rule": params.cells,
            "marked_rows": marked,
            "out_of_place_rows": stray,
            "grid_truncated": g.truncated,
            "data_rows": len(data),
        },
        score=(in_block / k if k else float(passed)) if k >= params.min_rows else 0.0,
    )
