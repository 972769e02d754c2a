"""Fast constructors for the many small models a big sheet needs (one Node and one Box
per cell).

They build exactly what ``Model.model_construct(**all_fields)`` builds - the same
``__dict__``, fields-set, extra and private state - without pydantic's per-call
generic work (defaults lookup, private-attribute initialisation), which dominated the
extraction of 100k-cell sheets. Values must already be valid: the extractor produces
them (boxes with ``x0 <= x1`` and ``top <= bottom``, JSON-able attrs). A test compares
both constructions (tests/extractors/test_xlsx_units.py).
"""

from __future__ import annotations

from typing import Any

from ..model import Box, Node, Style

_new = object.__new__
_set = object.__setattr__
# Every field is set, so one shared fields-set per class is exact: pydantic only ever
# adds names to it (on assignment), and they are all members already. Saves ~1.4 KB a cell.
_NODE_FIELDS = set(Node.model_fields)
_BOX_FIELDS = set(Box.model_fields)


def make_box(page: int, x0: float, top: float, x1: float, bottom: float) -> Box:
    """A native box (points, sheet canvas); the caller guarantees x0 <= x1, top <= bottom."""
    b = _new(Box)
    _set(b, "__dict__", {"page": page, "x0": x0, "top": top, "x1": x1, "bottom": bottom,
                         "origin": "native", "polygon": None})
    _set(b, "__pydantic_fields_set__", _BOX_FIELDS)
    _set(b, "__pydantic_extra__", None)
    _set(b, "__pydantic_private__", None)
    return b


def make_node(
    id: str,
    kind: str,
    *,
    text: str = "",
    style: Style | None = None,
    attrs: dict[str, Any] | None = None,
    boxes: list[Box] | None = None,
    source: str | None = None,
    children: list[Node] | None = None,
) -> Node:
    n = _new(Node)
    _set(n, "__dict__", {
        "id": id, "kind": kind, "text": text, "style": style,
        "attrs": {} if attrs is None else attrs, "boxes": [] if boxes is None else boxes,
        "source": source, "children": [] if children is None else children,
    })
    _set(n, "__pydantic_fields_set__", _NODE_FIELDS)
    _set(n, "__pydantic_extra__", None)
    _set(n, "__pydantic_private__", {"_parent": None, "_document": None, "_order": -1})
    return n
