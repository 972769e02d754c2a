"""Table styles as Word and LibreOffice apply them: which conditional parts of a table
style (``w:tblStylePr``) reach each cell, and the table/row/cell properties a style or
the table states.

A table style has an unconditional part (its ``w:rPr``/``w:pPr``/``w:tblPr``/``w:tcPr``)
and conditional parts: ``firstRow``, ``lastRow``, ``firstCol``, ``lastCol``,
``band1Horz``/``band2Horz``, ``band1Vert``/``band2Vert`` and the corners ``nwCell``,
``neCell``, ``swCell``, ``seCell``. The table's ``w:tblLook`` switches the row/column
parts and the banding on or off (:class:`TableLook`). :func:`cell_parts` gives a cell's
parts in the order they are laid over each other, lowest first, which is LibreOffice's
order (writerfilter ``TableStyleSheetEntry::GetLocalPropertiesFromMask``): horizontal
bands, vertical bands, last/first column, last/first row, corners. So a header cell of
the first column shows the first row's fill over the first column's, as in Word.

Which row is the first/last, and banding, follow LibreOffice (the renderer our boxes
and colour tests come from): the first row and the last row of the table, and rows
marked ``w:tblHeader`` in between, take the row parts; banding skips rows (and cells)
that took a first/last part and counts in steps of the style's
``w:tblStyleRowBandSize``/``w:tblStyleColBandSize`` (Word's rule; LibreOffice ignores
band sizes other than 1, which is every built-in style). Columns are counted by cell
(``w:tc``) within the row, not by grid column, as both applications do.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from lxml import etree

from .colors import shading_raw
from .package import W_NS, find_child

W = f"{{{W_NS}}}"

PART_ORDER: tuple[str, ...] = (
    "band2Horz",
    "band1Horz",
    "band2Vert",
    "band1Vert",
    "lastCol",
    "firstCol",
    "lastRow",
    "firstRow",
    "swCell",
    "seCell",
    "nwCell",
    "neCell",
)
"""Conditional parts from lowest to highest priority."""

_LOOK_BITS = {
    "firstRow": 0x0020,
    "lastRow": 0x0040,
    "firstColumn": 0x0080,
    "lastColumn": 0x0100,
    "noHBand": 0x0200,
    "noVBand": 0x0400,
}
DEFAULT_LOOK = 0x04A0
"""``w:tblLook`` when a table states none: first row, first column, banded rows (what
Word writes for a new table, and LibreOffice's default)."""

_VALIGN = {"top": "top", "center": "middle", "bottom": "bottom", "both": "justify"}
_TABLE_ALIGN = {"left": "left", "start": "left", "center": "center", "right": "right", "end": "right"}


@dataclass(frozen=True)
class TableLook:
    """Which conditional parts a table turns on (``w:tblLook``)."""

    first_row: bool = True
    last_row: bool = False
    first_col: bool = True
    last_col: bool = False
    row_bands: bool = True
    col_bands: bool = False

    @classmethod
    def parse(cls, el: etree._Element | None) -> TableLook:
        """The attribute form (Word 2010+: ``w:firstRow="1"``...) when the element has
        any of those attributes, else the legacy hex bit mask ``w:val="04A0"``, else
        :data:`DEFAULT_LOOK`. (LibreOffice 7 reads only ``w:val``; Word writes both and
        reads the attributes, so a file with the attributes alone renders differently
        there; we follow Word.)"""
        if el is None:
            return cls.from_bits(DEFAULT_LOOK)
        stated = {name: el.get(f"{W}{name}") for name in _LOOK_BITS}
        if any(v is not None for v in stated.values()):
            bits = sum(
                bit
                for name, bit in _LOOK_BITS.items()
                if (stated[name] or "0").lower() in ("1", "true", "on")
            )
            return cls.from_bits(bits)
        try:
            return cls.from_bits(int(el.get(f"{W}val") or "", 16))
        except ValueError:
            return cls.from_bits(DEFAULT_LOOK)

    @classmethod
    def from_bits(cls, bits: int) -> TableLook:
        return cls(
            first_row=bool(bits & 0x0020),
            last_row=bool(bits & 0x0040),
            first_col=bool(bits & 0x0080),
            last_col=bool(bits & 0x0100),
            row_bands=not bits & 0x0200,
            col_bands=not bits & 0x0400,
        )


_CORNERS = {
    ("firstRow", "firstCol"): "nwCell",
    ("firstRow", "lastCol"): "neCell",
    ("lastRow", "firstCol"): "swCell",
    ("lastRow", "lastCol"): "seCell",
}


def cell_parts(
    look: TableLook,
    *,
    row: int,
    rows: int,
    cell: int,
    cells: int,
    header_row: bool = False,
    row_band_size: int = 1,
    col_band_size: int = 1,
) -> tuple[str, ...]:
    """The conditional parts that apply to cell ``cell`` (0-based among its row's
    ``cells``) of row ``row`` (of ``rows``), lowest priority first (:data:`PART_ORDER`).
    The row's half and the column's half are :func:`row_parts_key` and
    :func:`col_parts_key`: a table walker reads the row's once per row."""
    return parts_of(
        row_parts_key(look, row=row, rows=rows, header_row=header_row, row_band_size=row_band_size),
        col_parts_key(look, cell=cell, cells=cells, col_band_size=col_band_size),
    )


def row_parts_key(
    look: TableLook, *, row: int, rows: int, header_row: bool = False, row_band_size: int = 1
) -> tuple[str | None, str | None]:
    """What the row contributes to :func:`cell_parts`: its row part (``firstRow``,
    ``lastRow``) and, without one, its band (``band1Horz``/``band2Horz``, None when rows
    are not banded)."""
    row_part = None
    if row == 0:
        row_part = "firstRow" if look.first_row else None
    elif row == rows - 1:
        row_part = "lastRow" if look.last_row else None
    elif header_row:
        row_part = "firstRow"  # a repeated header row looks like the first row
    band = None
    if row_part is None and look.row_bands:
        n = (row - (1 if look.first_row else 0)) // max(1, row_band_size)
        band = "band1Horz" if n % 2 == 0 else "band2Horz"
    return row_part, band


def col_parts_key(look: TableLook, *, cell: int, cells: int, col_band_size: int = 1) -> tuple[str | None, str | None]:
    """What the column contributes to :func:`cell_parts`: its column part (``firstCol``,
    ``lastCol``) and, without one, its band (``band1Vert``/``band2Vert`` or None)."""
    col_part = None
    if cell == 0:
        col_part = "firstCol" if look.first_col else None
    elif cell == cells - 1:
        col_part = "lastCol" if look.last_col else None
    band = None
    if col_part is None and look.col_bands:
        n = (cell - (1 if look.first_col else 0)) // max(1, col_band_size)
        band = "band1Vert" if n % 2 == 0 else "band2Vert"
    return col_part, band


@functools.lru_cache(maxsize=256)
def parts_of(row_key: tuple[str | None, str | None], col_key: tuple[str | None, str | None]) -> tuple[str, ...]:
    """:func:`cell_parts` from its row's and column's halves: the row part or band, the
    column part or band, and the corner part where a row part meets a column part, in
    :data:`PART_ORDER`. Cached: a table has a handful of combinations."""
    row_part, row_band = row_key
    col_part, col_band = col_key
    parts = {p for p in (row_part or row_band, col_part or col_band) if p is not None}
    corner = _CORNERS.get((row_part or "", col_part or ""))
    if corner is not None:
        parts.add(corner)
    return tuple(p for p in PART_ORDER if p in parts)


def cell_layer(tc_pr: etree._Element | None) -> dict[str, Any]:
    """What one ``w:tcPr`` states: ``shd`` (raw shading), ``valign``, ``width``
    (points) or ``width_pct``. One pass over the children (a table has many cells)."""
    return cell_grid(tc_pr)[2]


def cell_grid(tc_pr: etree._Element | None) -> tuple[int, str | None, dict[str, Any]]:
    """A cell's ``w:tcPr`` in one pass: its grid span (``w:gridSpan``, 1 when absent or
    malformed), vertical merge (``restart``, ``continue`` or None) and
    :func:`cell_layer`. The first ``gridSpan``/``vMerge`` counts (as ``find`` would
    read it); for the layer, later children override earlier ones."""
    out: dict[str, Any] = {}
    span: int | None = None
    vmerge: str | None = None
    merge_seen = False
    if tc_pr is None:
        return 1, None, out
    for child in tc_pr:
        tag = child.tag
        if tag == _SHD:
            out["shd"] = shading_raw(child)
        elif tag == _VALIGN_TAG:
            value = child.get(_VAL)
            if value in _VALIGN:
                out["valign"] = _VALIGN[value]
        elif tag == _TCW:
            out.update(_width(child))
        elif tag == _GRID_SPAN and span is None:
            try:
                span = max(1, int(child.get(_VAL, "1")))
            except ValueError:
                span = 1
        elif tag == _VMERGE and not merge_seen:
            merge_seen = True
            vmerge = child.get(_VAL) or "continue"
    return span or 1, vmerge, out


_SHD, _VALIGN_TAG, _TCW = f"{W}shd", f"{W}vAlign", f"{W}tcW"
_GRID_SPAN, _VMERGE, _VAL = f"{W}gridSpan", f"{W}vMerge", f"{W}val"


def table_layer(tbl_pr: etree._Element | None) -> dict[str, Any]:
    """What one ``w:tblPr`` states: ``align``, ``width``/``width_pct``, ``indent``
    (points), ``row_band_size``, ``col_band_size``."""
    out: dict[str, Any] = {}
    if tbl_pr is None:
        return out
    jc = tbl_pr.find(f"{W}jc")
    if jc is not None and jc.get(f"{W}val") in _TABLE_ALIGN:
        out["align"] = _TABLE_ALIGN[jc.get(f"{W}val", "")]
    out.update(_width(tbl_pr.find(f"{W}tblW")))
    ind = _width(tbl_pr.find(f"{W}tblInd"))
    if "width" in ind:
        out["indent"] = ind["width"]
    for key, tag in (("row_band_size", "tblStyleRowBandSize"), ("col_band_size", "tblStyleColBandSize")):
        el = tbl_pr.find(f"{W}{tag}")
        if el is not None:
            try:
                out[key] = max(1, int(el.get(f"{W}val", "1")))
            except ValueError:
                pass
    return out


def row_attrs(tr_pr: etree._Element | None) -> dict[str, Any]:
    """Row attributes from ``w:trPr``: ``height_pt`` (points) and ``height_rule``
    (``at_least``, the default when a height is stated, or ``exact``; ``auto`` means
    the content decides), ``cant_split``."""
    out: dict[str, Any] = {}
    if tr_pr is None:
        return out
    h = find_child(tr_pr, f"{W}trHeight")
    if h is not None:
        try:
            out["height_pt"] = round(float(h.get(f"{W}val", "0")) / 20.0, 2)
        except ValueError:
            pass
        else:
            rule = h.get(f"{W}hRule") or "atLeast"
            out["height_rule"] = {"exact": "exact", "auto": "auto"}.get(rule, "at_least")
    cs = find_child(tr_pr, f"{W}cantSplit")
    if cs is not None and (cs.get(f"{W}val") or "1").lower() not in ("0", "false", "off"):
        out["cant_split"] = True
    return out


def _width(el: etree._Element | None) -> dict[str, Any]:
    """``w:tblW``/``w:tcW``/``w:tblInd``: ``{"width": pt}`` for ``dxa`` (twips),
    ``{"width_pct": n}`` for ``pct`` (fiftieths of a percent, or ``"50%"``); nothing
    for ``auto``/``nil``."""
    if el is None:
        return {}
    kind = el.get(f"{W}type") or "dxa"
    raw = el.get(f"{W}w") or ""
    try:
        if kind == "dxa":
            return {"width": round(float(raw) / 20.0, 2)}
        if kind == "pct":
            value = float(raw[:-1]) if raw.endswith("%") else float(raw) / 50.0
            return {"width_pct": round(value, 2)}
    except ValueError:
        return {}
    return {}
