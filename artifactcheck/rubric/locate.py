"""Boxes for what a step's evidence names, so a report view can draw what a check looked
at: the nodes named by ``id``/``ids`` keys (the run that is not bold, the topic's
highlight), a whole table when a table is named, and a sheet range named by A1 text
(``"cells": "Papers!A1:E7"``, as the grid checks write it).

A table, a row or a range is drawn as one box per page covering all of it: the union of
its own boxes and those of everything inside (a table's own box comes from its rendered
text and can miss empty cells; a range has no node at all). Each entry carries the
nearest enclosing ``ok``/``passed`` flag when there is one.
"""

from __future__ import annotations

from typing import Any

from ..checks.query.ranges import parse_a1_range
from ..model import Box, Document, Node

MAX_LOCATED_NODES = 60
MAX_BOXES_PER_NODE = 4
_FLAGS = ("ok", "passed", "pass")
_WHOLE = ("table", "row")
_RANGE_KEYS = ("cells", "range")


def locate_evidence_nodes(doc: Document, evidence: dict[str, Any]) -> list[dict[str, Any]]:
    """Located boxes for ``evidence`` (ids that are not nodes of ``doc`` and text that is
    not a range of it are ignored); boxes are rounded to 0.01 pt."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(name: str, boxes: list[Box], ok: bool | None, kind: str | None = None) -> None:
        seen.add(name)
        for box in boxes[:MAX_BOXES_PER_NODE]:
            entry: dict[str, Any] = {
                "id": name,
                "page": box.page,
                "x0": round(box.x0, 2),
                "top": round(box.top, 2),
                "x1": round(box.x1, 2),
                "bottom": round(box.bottom, 2),
            }
            if kind is not None:
                entry["kind"] = kind
            if ok is not None:
                entry["ok"] = ok
            out.append(entry)

    def add_node(node_id: str, ok: bool | None) -> None:
        if node_id in seen or len(seen) >= MAX_LOCATED_NODES:
            return
        try:
            node = doc.get(node_id)
        except KeyError:
            return
        if node.kind in _WHOLE:
            add(node_id, union_by_page(node.iter()), ok, node.kind)
        else:
            add(node_id, node.boxes, ok)

    def add_range(text: str, ok: bool | None) -> None:
        ref = text.split(" (", 1)[0].strip()  # "Papers!A1:E7 (the Excel table)"
        if ref in seen or len(seen) >= MAX_LOCATED_NODES:
            return
        cells = range_cells(doc, ref)
        if cells:
            add(ref, union_by_page(cells), ok, "range")

    def visit(value: Any, ok: bool | None) -> None:
        if isinstance(value, list):
            for item in value:
                visit(item, ok)
        elif isinstance(value, dict):
            flag = next((value[k] for k in _FLAGS if isinstance(value.get(k), bool)), ok)
            if isinstance(value.get("id"), str):
                add_node(value["id"], flag)
            if isinstance(value.get("ids"), list):
                for item in value["ids"]:
                    if isinstance(item, str):
                        add_node(item, flag)
            for key in _RANGE_KEYS:
                if isinstance(value.get(key), str):
                    add_range(value[key], flag)
            for key, child in value.items():
                if key not in ("id", "ids", *_RANGE_KEYS):
                    visit(child, flag)

    visit(evidence, None)
    return out


def union_by_page(nodes: Any) -> list[Box]:
    """One box per page: the union of the boxes of ``nodes`` drawn on it."""
    spans: dict[int, list[float]] = {}
    for node in nodes:
        for b in node.boxes:
            span = spans.get(b.page)
            if span is None:
                spans[b.page] = [b.x0, b.top, b.x1, b.bottom]
            else:
                span[0], span[1] = min(span[0], b.x0), min(span[1], b.top)
                span[2], span[3] = max(span[2], b.x1), max(span[3], b.bottom)
    return [Box(page=p, x0=s[0], top=s[1], x1=s[2], bottom=s[3]) for p, s in sorted(spans.items())]


def range_cells(doc: Document, ref: str) -> list[Node]:
    """The cells of a sheet range written ``Sheet!A1:E7`` (an empty list when ``ref`` is
    not A1 text or names no sheet of ``doc``)."""
    parsed = parse_a1_range(ref)
    if parsed is None or parsed[0] is None:
        return []
    sheet_name, (r0, c0, r1, c1) = parsed
    sheet = next((s for s in doc.iter("sheet") if s.attrs.get("name") == sheet_name), None)
    if sheet is None:
        return []
    found = []
    for cell in sheet.descendants("cell"):
        row, col = cell.attrs.get("row"), cell.attrs.get("col")
        if isinstance(row, int) and isinstance(col, int) and r0 <= row <= r1 and c0 <= col <= c1:
            found.append(cell)
    return found
