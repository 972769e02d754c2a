"""The style a reader sees in a cell: the cell's own (direct) format, then the table
style, then conditional formatting, then the number format's colour, each layer
recorded per property.

Precedence, per property (what Excel draws, and LibreOffice where it draws the layer):

- ``fill``: conditional format > direct fill > table style. A cell's own fill covers
  the table's band; a rule's fill covers both.
- ``color``: number format (``[Red]``) > conditional format > direct > table style. The
  number format's colour wins even over a rule's font colour (LibreOffice draws it so,
  as Excel does; tests/extractors/test_xlsx_display.py).
- ``bold``, ``italic``, ``underline``, ``strike``: conditional format > direct >
  table style.

"Direct" beats the table only where the cell's format says something the workbook's
default font does not: a cell in the default font takes the table's header colour and
bold; a cell the author made red stays red.

A cell whose displayed style differs from its direct one gets ``style_sources``
(``{property: "table_style" | "conditional_format" | "number_format"}``) and
``direct_style`` (``{property: direct value}``, only those properties), so a check can
still ask for the direct style. Cells without other layers keep their shared direct
Style object (no per-cell cost).
"""

from __future__ import annotations

from typing import Any

from ...model import Node, Style

TABLE, CONDITIONAL, NUMBER_FORMAT = "table_style", "conditional_format", "number_format"
_FONT_FLAGS = ("bold", "italic", "underline", "strike")


class DisplayStyler:
    """Builds displayed styles, sharing one Style object per distinct result."""

    def __init__(self, default_color: str | None) -> None:
        self.default_color = default_color
        # Keyed by id(direct): each entry keeps `direct` itself alive, so its id cannot be
        # reused by another Style while the entry exists (a freed id would hand one cell
        # another cell's displayed style).
        self._cache: dict[tuple[int, tuple[tuple[str, Any], ...]], tuple[Style, Style]] = {}

    def apply(self, node: Node, *, table: dict[str, Any] | None, number_format_colour: str | None) -> None:
        direct = node.style
        if direct is None:
            return
        conditional = node.attrs.get("conditional_style")
        cf: dict[str, Any] = conditional if isinstance(conditional, dict) else {}
        if not (table or cf or number_format_colour):
            return
        changes: dict[str, Any] = {}
        sources: dict[str, Any] = {}

        def put(prop: str, value: Any, layer: str) -> None:
            if value is None or prop in changes:
                return
            changes[prop] = value
            sources[prop] = layer

        # Highest layer first; put() keeps the first value set.
        if number_format_colour is not None:
            put("color", number_format_colour, NUMBER_FORMAT)
        for prop in ("fill", "color", *_FONT_FLAGS):
            if prop in cf:
                put(prop, cf[prop], CONDITIONAL)
        if table:
            if "fill" in table and direct.fill is None:
                put("fill", table["fill"], TABLE)
            if "color" in table and direct.color in (None, self.default_color):
                put("color", table["color"], TABLE)
            for flag in _FONT_FLAGS:
                if flag in table and not getattr(direct, flag):
                    put(flag, table[flag], TABLE)
        changed = {k: v for k, v in changes.items() if getattr(direct, k) != v}
        for prop in ("color", "fill"):
            if prop in changed:  # another layer's colour: the direct theme slot no longer applies
                changed[f"{prop}_theme"] = None
                changed[f"{prop}_theme_mods"] = None
        if not sources:
            return
        node.attrs["style_sources"] = dict(sources)
        node.attrs["direct_style"] = {k: getattr(direct, k) for k in sources}
        if not changed:
            return
        key = (id(direct), tuple(sorted(changed.items())))
        entry = self._cache.get(key)
        if entry is None:
            entry = self._cache[key] = (direct, direct.model_copy(update=changed))
        node.style = entry[1]
