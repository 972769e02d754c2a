"""Excel table styles (``TableStyleMedium2`` ...): the fill, font colour and bold a
table gives its header row, banded rows and columns, first/last column and total row.

Built-in styles are not stored in the file: ECMA-376 defines them
(``presetTableStyles.xml``, Part 1 supplement). They come in families of seven, one per
colour: the first of each family uses dark 1 (black), the next six accent 1-6. Each
family is encoded below by the parts that reach a cell's Style (fill, font colour, bold;
borders are not part of Style), with colours as (theme slot, tint): slot ``"A"`` is the
family member's accent. For the black member, an accent tint becomes grey the way the
preset file writes it: the accent itself -> dark 1, tint 0.8 -> light 1 darker 15%,
tint 0.6 -> light 1 darker 35%, tint -0.25 -> dark 1 lighter 25%. Dark 8-11 pair two
accents (``"B"`` is the second). Custom styles come from the workbook's
``<tableStyles>`` and its dxfs.

Elements apply from the whole table up (ECMA-376 §18.8.40 ``tableStyleElement``):
whole table, column stripes, row stripes, first/last column, header row, total row; a
later element's property wins. Row stripes count from the first data row; the header
and total rows are not banded. ``showRowStripes``/``showColumnStripes``/
``showFirstColumn``/``showLastColumn`` of the table switch their elements on.

LibreOffice 7.4 does not draw table styles (a table renders as plain cells), so the
values here follow the preset definitions, not a render (design/xlsx-display.md).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..drawingml.color import apply_tint
from .styles import NS, Stylesheet

Colour = tuple[str | int, float]  # (theme index or "A"/"B", tint)
Element = dict[str, Any]  # {"fill": Colour, "color": Colour, "bold": bool}

_WHITE: Colour = (0, 0.0)
_BLACK: Colour = (1, 0.0)

# Family name -> (first style number, elements). Only fill / color / bold.
_FAMILIES: dict[str, tuple[int, dict[str, Element]]] = {
    "Light1": (1, {
        "wholeTable": {"color": ("A", -0.25)},
        "headerRow": {"bold": True, "color": ("A", -0.25)},
        "totalRow": {"bold": True, "color": ("A", -0.25)},
        "firstColumn": {"bold": True, "color": ("A", -0.25)},
        "lastColumn": {"bold": True, "color": ("A", -0.25)},
        "firstRowStripe": {"fill": ("A", 0.8)},
        "firstColumnStripe": {"fill": ("A", 0.8)},
    }),
    "Light8": (8, {
        "wholeTable": {"color": _BLACK},
        "headerRow": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "totalRow": {"bold": True, "color": _BLACK},
        "firstColumn": {"bold": True, "color": _BLACK},
        "lastColumn": {"bold": True, "color": _BLACK},
    }),
    "Light15": (15, {
        "wholeTable": {"color": _BLACK},
        "headerRow": {"bold": True, "color": _BLACK},
        "totalRow": {"bold": True, "color": _BLACK},
        "firstColumn": {"bold": True, "color": _BLACK},
        "lastColumn": {"bold": True, "color": _BLACK},
        "firstRowStripe": {"fill": ("A", 0.8)},
        "firstColumnStripe": {"fill": ("A", 0.8)},
    }),
    "Medium1": (1, {
        "wholeTable": {"color": _BLACK},
        "headerRow": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "totalRow": {"bold": True, "color": _BLACK},
        "firstColumn": {"bold": True, "color": _BLACK},
        "lastColumn": {"bold": True, "color": _BLACK},
        "firstRowStripe": {"fill": ("A", 0.8)},
        "firstColumnStripe": {"fill": ("A", 0.8)},
    }),
    "Medium8": (8, {
        "wholeTable": {"color": _BLACK, "fill": ("A", 0.8)},
        "headerRow": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "totalRow": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "firstColumn": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "lastColumn": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "firstRowStripe": {"fill": ("A", 0.6)},
        "firstColumnStripe": {"fill": ("A", 0.6)},
    }),
    "Medium15": (15, {
        "wholeTable": {"color": _BLACK},
        "headerRow": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "firstColumn": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "lastColumn": {"bold": True, "color": _WHITE, "fill": ("A", 0.0)},
        "firstRowStripe": {"fill": (0, -0.15)},
        "firstColumnStripe": {"fill": (0, -0.15)},
    }),
    "Medium22": (22, {
        "wholeTable": {"color": _BLACK, "fill": ("A", 0.8)},
        "headerRow": {"bold": True, "color": _BLACK},
        "totalRow": {"bold": True, "color": _BLACK},
        "firstColumn": {"bold": True, "color": _BLACK},
        "lastColumn": {"bold": True, "color": _BLACK},
        "firstRowStripe": {"fill": ("A", 0.6)},
        "firstColumnStripe": {"fill": ("A", 0.6)},
    }),
    "Dark1": (1, {
        "wholeTable": {"color": _WHITE, "fill": ("A", 0.0)},
        "headerRow": {"bold": True, "color": _WHITE, "fill": _BLACK},
        "totalRow": {"bold": True, "color": _WHITE, "fill": ("A", -0.5)},
        "firstColumn": {"bold": True, "color": _WHITE, "fill": ("A", -0.25)},
        "lastColumn": {"bold": True, "color": _WHITE, "fill": ("A", -0.25)},
        "firstRowStripe": {"fill": ("A", -0.25)},
        "firstColumnStripe": {"fill": ("A", -0.25)},
    }),
    "Dark8": (8, {
        "wholeTable": {"fill": ("A", 0.8)},
        "headerRow": {"color": _WHITE, "fill": ("B", 0.0)},
        "totalRow": {"bold": True, "color": _BLACK},
        "firstColumn": {"bold": True, "color": _BLACK},
        "lastColumn": {"bold": True, "color": _BLACK},
        "firstRowStripe": {"fill": ("A", 0.6)},
        "firstColumnStripe": {"fill": ("A", 0.6)},
    }),
}
# Dark 1 (black) differs from its family's rule for greys: its own values.
_DARK1_BLACK: dict[str, Element] = {
    "wholeTable": {"color": _WHITE, "fill": (1, 0.45)},
    "headerRow": {"bold": True, "color": _WHITE, "fill": _BLACK},
    "totalRow": {"bold": True, "color": _WHITE, "fill": (1, 0.15)},
    "firstColumn": {"bold": True, "color": _WHITE, "fill": (1, 0.25)},
    "lastColumn": {"bold": True, "color": _WHITE, "fill": (1, 0.25)},
    "firstRowStripe": {"fill": (1, 0.25)},
    "firstColumnStripe": {"fill": (1, 0.25)},
}
_BLACK_TINTS: dict[float, Colour] = {0.0: (1, 0.0), 0.8: (0, -0.15), 0.6: (0, -0.35), -0.25: (1, 0.25), -0.5: (1, 0.15)}


def _builtin(name: str) -> tuple[dict[str, Element], int | None, int | None] | None:
    """(elements, accent A theme index or None for black, accent B) of a preset name."""
    for prefix in ("TableStyleLight", "TableStyleMedium", "TableStyleDark"):
        if name.startswith(prefix) and name[len(prefix):].isdigit():
            number = int(name[len(prefix):])
            kind = prefix.removeprefix("TableStyle")
            family = None
            for fam, (first, elements) in _FAMILIES.items():
                size = 4 if fam == "Dark8" else 7
                if fam.startswith(kind) and first <= number < first + size:
                    family = (first, elements, fam)
            if family is None:
                return None
            first, elements, fam = family
            member = number - first
            if fam == "Dark8":
                return (elements, None, None) if member == 0 else (elements, 2 + 2 * member, 3 + 2 * member)
            if member == 0:
                return (_DARK1_BLACK if fam == "Dark1" else elements), None, None
            return elements, 3 + member, None
    return None


class TableStyles:
    """Resolves a table style name to per-element style properties (``#rrggbb``)."""

    def __init__(self, styles: Stylesheet, root: etree._Element | None) -> None:
        self.theme = styles.colours.theme
        self.custom: dict[str, dict[str, dict[str, Any]]] = {}
        self.default_name = "TableStyleMedium9"
        if root is None:
            return
        ts = root.find(f"{NS}tableStyles")
        if ts is None:
            return
        self.default_name = ts.get("defaultTableStyle") or self.default_name
        for style in ts.iterfind(f"{NS}tableStyle"):
            elements: dict[str, dict[str, Any]] = {}
            for el in style.iterfind(f"{NS}tableStyleElement"):
                try:
                    dxf = styles.dxfs[int(el.get("dxfId", "-1"))]
                except (ValueError, IndexError):
                    continue
                props = {k: dxf[k] for k in ("fill", "color", "bold", "italic", "underline", "strike") if k in dxf}
                elements[el.get("type", "")] = props
            if style.get("name"):
                self.custom[str(style.get("name"))] = elements

    def elements(self, name: str | None) -> dict[str, dict[str, Any]] | None:
        """Element type -> {fill, color, bold, ...}; None for an unknown style."""
        if not name:
            return None
        if name in self.custom:
            return self.custom[name]
        found = _builtin(name)
        if found is None:
            return None
        elements, a, b = found
        out: dict[str, dict[str, Any]] = {}
        for kind, props in elements.items():
            resolved: dict[str, Any] = {}
            for key, value in props.items():
                resolved[key] = self._colour(value, a, b) if key in ("fill", "color") else value
            out[kind] = resolved
        return out

    def _colour(self, spec: Colour, a: int | None, b: int | None) -> str:
        slot, tint = spec
        if slot == "A" or slot == "B":
            index = a if slot == "A" else b
            if index is None:  # the black member: greys instead of accent tints
                slot, tint = _BLACK_TINTS.get(round(tint, 2), (1, tint))
            else:
                slot = index
        base = self.theme[int(slot)] if 0 <= int(slot) < len(self.theme) else "#000000"
        return apply_tint(base, tint) if tint else base


def table_cell_style(table: dict[str, Any], elements: dict[str, dict[str, Any]],
                     rect: tuple[int, int, int, int], r: int, c: int) -> dict[str, Any]:
    """The merged properties the table style gives cell (r, c) of the table ``rect``."""
    r0, c0, r1, c1 = rect
    header_rows = int(table.get("header_row_count") or 0)
    total_rows = int(table.get("totals_row_count") or 0)
    flags = table.get("style_flags") or {}
    first_data, last_data = r0 + header_rows, r1 - total_rows
    kinds = ["wholeTable"]
    data_row = first_data <= r <= last_data
    if flags.get("column_stripes") and data_row:
        kinds.append("firstColumnStripe" if (c - c0) % 2 == 0 else "secondColumnStripe")
    if flags.get("row_stripes") and data_row:
        kinds.append("firstRowStripe" if (r - first_data) % 2 == 0 else "secondRowStripe")
    if flags.get("last_column") and c == c1:
        kinds.append("lastColumn")
    if flags.get("first_column") and c == c0:
        kinds.append("firstColumn")
    if r < first_data:
        kinds.append("headerRow")
    if r > last_data:
        kinds.append("totalRow")
    merged: dict[str, Any] = {}
    for kind in kinds:  # already in precedence order (_ORDER)
        merged.update(elements.get(kind) or {})
    return merged
