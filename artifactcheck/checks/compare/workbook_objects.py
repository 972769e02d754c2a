"""Charts and pivot tables of a workbook comparison.

The charts of a sheet pair by title when titles are distinct on both sides, else in
drawing order; likewise pivot tables by name, else in order. Each chart compares the
properties asked for: ``type`` (every plot type, so a combo chart of columns and a line
differs from plain columns), ``title``, ``series`` (per series, in order: the range of
its values, of its categories and its name or the cell its name comes from),
``legend`` (its position), ``axis_titles``. Ranges compare as in
:func:`workbook_sheets.normalize_ref`. A pivot table compares its source range, the
fields on rows, columns and filters (in order), the data fields with their functions,
and, when asked, its location. Sparklines pair by the cell they are drawn in and compare
their ``source`` range and ``type`` (line, column, stacked), and ``color`` when asked.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Node
from ..query.grid import parse_a1
from .diff import Comparison
from .workbook_pairs import SheetPair, attrs_of
from .workbook_sheets import normalize_ref

ChartProperty = Literal["type", "title", "series", "legend", "axis_titles"]
PivotProperty = Literal["source", "rows", "columns", "filters", "data", "location"]
SparklineProperty = Literal["source", "type", "color"]


class ChartOptions(BaseModel):
    """Which chart properties are compared (the ``charts`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    properties: list[ChartProperty] = Field(
        default=["type", "title", "series"], min_length=1,
        description="type (plot types), title, series (values, categories and name ranges, in order), legend "
        "(position), axis_titles",
    )


class PivotOptions(BaseModel):
    """Which pivot-table properties are compared (the ``pivot_tables`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    properties: list[PivotProperty] = Field(
        default=["source", "rows", "columns", "filters", "data"], min_length=1,
        description="source (range summarised), rows / columns / filters (fields in order), data (fields with "
        "their function), location (where it sits on the sheet)",
    )


class SparklineOptions(BaseModel):
    """Which sparkline properties are compared (the ``sparklines`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    properties: list[SparklineProperty] = Field(
        default=["source", "type"], min_length=1,
        description="source (the data range drawn), type (line, column, stacked), color (the series colour)",
    )


def _charts(sheet: Node | None) -> list[Node]:
    return list(sheet.descendants("chart")) if sheet is not None else []


def _pair_by(ref: list[Node], art: list[Node], key: str) -> list[tuple[Node, Node | None]]:
    names_a = [str(n.attrs.get(key) or "") for n in ref]
    names_b = [str(n.attrs.get(key) or "") for n in art]
    distinct = all(names_a) and len(set(names_a)) == len(names_a) and len(set(names_b)) == len(names_b)
    if distinct and set(names_a) & set(names_b):
        by_name = {name: n for name, n in zip(names_b, art, strict=True)}
        out: list[tuple[Node, Node | None]] = [(n, by_name.get(name)) for name, n in zip(names_a, ref, strict=True)]
        taken = {id(b) for _, b in out if b is not None}
        rest = [b for b in art if id(b) not in taken]
        return [(a, b if b is not None else (rest.pop(0) if rest else None)) for a, b in out]
    return [(a, art[i] if i < len(art) else None) for i, a in enumerate(ref)]


def _series(chart: Node) -> list[dict[str, str]]:
    out = []
    for s in attrs_of(chart).get("series") or []:
        if not isinstance(s, dict):
            continue
        name = s.get("name_ref") or s.get("name")
        out.append({
            "values": normalize_ref(s.get("values_ref")),
            "categories": normalize_ref(s.get("categories_ref")),
            "name": normalize_ref(name) if s.get("name_ref") else str(name or ""),
        })
    return out


def _chart_value(chart: Node, prop: str) -> Any:
    a = attrs_of(chart)
    if prop == "type":
        types = a.get("chart_types")
        return sorted({str(t) for t in types}) if isinstance(types, list) and types else [str(a.get("chart_type"))]
    if prop == "title":
        title = a.get("title")
        return str(title).strip() if title else None
    if prop == "series":
        return _series(chart)
    if prop == "legend":
        legend = a.get("legend_position") or a.get("legend")
        return {"r": "right", "b": "bottom", "t": "top", "l": "left", "tr": "top_right"}.get(str(legend), legend) if legend else None
    axes = a.get("axes")
    return [str(x.get("title") or "") for x in axes if isinstance(x, dict)] if isinstance(axes, list) else []


def compare_charts(pair: SheetPair, options: ChartOptions, out: Comparison) -> None:
    ref, art = _charts(pair.ref), _charts(pair.art)
    pairs = _pair_by(ref, art, "title")
    for i, (a, b) in enumerate(pairs):
        label = f"chart {i + 1}" + (f" {attrs_of(a).get('title')!r}" if attrs_of(a).get("title") else "")
        where = pair.where() + f" {label}"
        if b is None:
            out.missing("charts", where, {p: _chart_value(a, p) for p in options.properties})
            continue
        for prop in options.properties:
            want, got = _chart_value(a, prop), _chart_value(b, prop)
            if prop == "series" and isinstance(want, list) and isinstance(got, list):
                for k in range(max(len(want), len(got))):
                    out.check("charts", f"{where} series {k + 1}", want[k] if k < len(want) else None,
                              got[k] if k < len(got) else None)
                continue
            out.check("charts", f"{where} {prop}", want, got)
    used = {id(b) for _, b in pairs if b is not None}
    for j, b in enumerate(n for n in art if id(n) not in used):
        out.extra("charts", pair.where() + f" chart {len(ref) + j + 1}", {p: _chart_value(b, p) for p in options.properties})


def _pivots(sheet: Node | None) -> list[Node]:
    return [n for n in sheet.children if n.kind == "table" and n.attrs.get("pivot")] if sheet is not None else []


def _pivot_value(node: Node, prop: str) -> Any:
    a = attrs_of(node)
    if prop == "source":
        return normalize_ref(a.get("source_range") or a.get("source"))
    if prop == "location":
        return normalize_ref(a.get("location"))
    if prop == "data":
        return [
            {"field": d.get("field"), "function": d.get("function") or "sum"}
            for d in a.get("data_fields") or [] if isinstance(d, dict)
        ]
    key = {"rows": "row_fields", "columns": "column_fields", "filters": "filter_fields"}[prop]
    return [str(f) for f in a.get(key) or []]


def compare_pivots(pair: SheetPair, options: PivotOptions, out: Comparison) -> None:
    ref, art = _pivots(pair.ref), _pivots(pair.art)
    pairs = _pair_by(ref, art, "name")
    for i, (a, b) in enumerate(pairs):
        where = pair.where() + f" pivot table {i + 1}" + (f" {attrs_of(a).get('name')!r}" if attrs_of(a).get("name") else "")
        if b is None:
            out.missing("pivot_tables", where, {p: _pivot_value(a, p) for p in options.properties})
            continue
        for prop in options.properties:
            out.check("pivot_tables", f"{where} {prop}", _pivot_value(a, prop), _pivot_value(b, prop))
    used = {id(b) for _, b in pairs if b is not None}
    for j, b in enumerate(n for n in art if id(n) not in used):
        out.extra("pivot_tables", pair.where() + f" pivot table {len(ref) + j + 1}",
                  {p: _pivot_value(b, p) for p in options.properties})


def _sparklines(sheet: Node | None) -> dict[str, dict[str, Any]]:
    """The sheet's sparklines by the cell they are drawn in (upper case, no ``$``)."""
    found = attrs_of(sheet).get("sparklines") if sheet is not None else None
    out: dict[str, dict[str, Any]] = {}
    for s in found if isinstance(found, list) else []:
        if isinstance(s, dict) and s.get("cell"):
            out.setdefault(normalize_ref(s["cell"]), s)
    return out


def _sparkline_value(spark: dict[str, Any], prop: str) -> Any:
    if prop == "source":
        return normalize_ref(spark.get("source"))
    value = spark.get(prop)
    return str(value).lower() if value is not None else None


def compare_sparklines(pair: SheetPair, options: SparklineOptions, out: Comparison) -> None:
    def in_scope(cell: str) -> bool:
        parsed = parse_a1(cell)
        return parsed is None or pair.in_scope(*parsed)

    ref, art = _sparklines(pair.ref), _sparklines(pair.art)
    for cell, a in ref.items():
        if not in_scope(cell):
            continue
        where = pair.where(cell) + " sparkline"
        b = art.get(cell)
        if b is None:
            out.missing("sparklines", where, {p: _sparkline_value(a, p) for p in options.properties})
            continue
        for prop in options.properties:
            out.check("sparklines", f"{where} {prop}", _sparkline_value(a, prop), _sparkline_value(b, prop))
    for cell, b in art.items():
        if cell not in ref and in_scope(cell):
            out.extra("sparklines", pair.where(cell) + " sparkline", {p: _sparkline_value(b, p) for p in options.properties})
