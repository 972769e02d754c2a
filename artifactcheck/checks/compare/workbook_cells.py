"""Cell aspects of a workbook comparison: values, formulas, number formats, styles.

Each walks the positions of one sheet pair that the aspect is about, inside the ranges
asked for, and records one compared item per position in the :class:`Comparison`:

- values: every position holding a value on either side (a cell that only has a fill
  holds no value); blank against blank is not compared;
- formulas: every position where the reference has a formula;
- number formats: every position holding a value on either side (a format on an empty
  cell shows nothing);
- styles: every position with a cell node on either side (values or formatting), the
  side without a cell taking the workbook's default look.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node, Style
from ..query.ranges import column_letter
from ..target import layer_style
from .cell_values import CellValue, ValueOptions, cell_value, values_agree
from .diff import Comparison
from .workbook_pairs import Position, SheetPair, attrs_of


def a1(pos: Position) -> str:
    return f"{column_letter(pos[1])}{pos[0]}"


def _sorted(positions: Iterable[Position]) -> list[Position]:
    return sorted(positions)


# -- values ---------------------------------------------------------------------------------


def compare_values(pair: SheetPair, options: ValueOptions, out: Comparison, unknown: list[str]) -> None:
    """One item per position holding a value on either side. Cells whose value nobody
    could compute go to ``unknown`` (their location), not to the differences."""
    values_ref: dict[Position, CellValue] = {}
    for pos, node in pair.ref_cells.items():
        if pair.in_scope(*pos):
            v = cell_value(node)
            if v.kind != "blank":
                values_ref[pos] = v
    values_art: dict[Position, CellValue] = {}
    for pos, node in pair.art_cells.items():
        if pair.in_scope(*pos):
            v = cell_value(node)
            if v.kind != "blank":
                values_art[pos] = v
    pair.ref_values, pair.art_values = values_ref, values_art
    blank = CellValue("blank")
    for pos in _sorted(values_ref.keys() | values_art.keys()):
        want, got = values_ref.get(pos, blank), values_art.get(pos, blank)
        if want.kind == "unknown" or got.kind == "unknown":
            where = pair.where(a1(pos))
            side = "reference" if want.kind == "unknown" else "artifact"
            unknown.append(f"{where} ({side})")
            continue
        same, note = values_agree(want, got, options)
        if same:
            out.agree("values")
            continue
        shown_want = want.shown if options.compare == "text" else want.describe()
        shown_got = got.shown if options.compare == "text" else got.describe()
        out.check("values", pair.where(a1(pos)), shown_want, shown_got, equal=False, note=note)


# -- formulas -------------------------------------------------------------------------------


class FormulaOptions(BaseModel):
    """How formulas are compared (the ``formulas`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    match: Literal["present", "text"] = Field(
        default="present",
        description="present: where the reference has a formula the artifact has one too (its result is the "
        "values aspect's business); text: the same formula text, ignoring case, spaces and (unless "
        "absolute_refs) the $ of absolute references",
    )
    absolute_refs: bool = Field(default=False, description="with match: text, $B$2 and B2 differ")


_QUOTED = re.compile(r'("(?:[^"]|"")*"|\'(?:[^\']|\'\')*\')')


def normalize_formula(formula: str, *, absolute_refs: bool) -> str:
    """Formula text for comparison: no leading ``=``, upper case and no whitespace outside
    string literals and quoted sheet names, ``$`` dropped unless ``absolute_refs``.

    >>> normalize_formula("=sum( $B$2:B4 ) & \\" total\\"", absolute_refs=False)
    'SUM(B2:B4)&" total"'
    """
    text = formula.strip().removeprefix("=")
    parts = _QUOTED.split(text)
    out = []
    for i, part in enumerate(parts):
        if i % 2 == 1:
            out.append(part)
            continue
        part = re.sub(r"\s+", "", part).upper()
        out.append(part if absolute_refs else part.replace("$", ""))
    return "".join(out)


def compare_formulas(pair: SheetPair, options: FormulaOptions, out: Comparison) -> None:
    for pos in _sorted(pair.ref_cells):
        if not pair.in_scope(*pos):
            continue
        want = pair.ref_cells[pos].attrs.get("formula")
        if not isinstance(want, str):
            continue
        node = pair.art_cells.get(pos)
        got = attrs_of(node).get("formula") if node is not None else None
        where = pair.where(a1(pos))
        if not isinstance(got, str):
            shown = cell_value(node).describe()
            out.check("formulas", where, want, shown, equal=False,
                      note="a value where the reference has a formula" if shown is not None else "no formula")
            continue
        if options.match == "present":
            out.check("formulas", where, want, got, equal=True)
        else:
            same = normalize_formula(want, absolute_refs=options.absolute_refs) == normalize_formula(
                got, absolute_refs=options.absolute_refs
            )
            out.check("formulas", where, want, got, equal=same)


# -- number formats -------------------------------------------------------------------------


def _format_code(node: Node | None) -> str:
    """The cell's format, written so that codes printing the same text are equal."""
    # lazily, as text_fit does: checks stay light to import (any workbook loaded it)
    from ...extractors.xlsx.number_format import canonical_format

    code = attrs_of(node).get("number_format") if node is not None else None
    text = str(code).strip() if code else "General"
    return "general" if text.lower() == "general" else canonical_format(text.lower())


def compare_number_formats(pair: SheetPair, out: Comparison) -> None:
    positions = {
        p for p, n in (*pair.ref_cells.items(), *pair.art_cells.items())
        if pair.in_scope(*p) and cell_value(n).kind != "blank"
    }
    for pos in _sorted(positions):
        ref, art = pair.ref_cells.get(pos), pair.art_cells.get(pos)
        want, got = _format_code(ref), _format_code(art)
        shown_want = attrs_of(ref).get("number_format", "General") if ref is not None else "General"
        shown_got = attrs_of(art).get("number_format", "General") if art is not None else "General"
        out.check("number_formats", pair.where(a1(pos)), shown_want, shown_got, equal=want == got)


# -- styles ---------------------------------------------------------------------------------

StyleProperty = Literal[
    "fill", "font_color", "bold", "italic", "underline", "strike", "font_size", "font_name",
    "borders", "align", "valign", "wrap",
]

DEFAULT_STYLE_PROPERTIES: tuple[StyleProperty, ...] = (
    "fill", "font_color", "bold", "italic", "underline", "strike", "font_size", "font_name", "borders",
)
_STYLE_FIELD = {
    "fill": "fill", "font_color": "color", "bold": "bold", "italic": "italic", "underline": "underline",
    "strike": "strike", "font_size": "size", "font_name": "font", "align": "align", "valign": "valign",
    "wrap": "wrap",
}


class StyleOptions(BaseModel):
    """Which parts of a cell's look are compared (the ``styles`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    properties: list[StyleProperty] = Field(
        default=list(DEFAULT_STYLE_PROPERTIES),
        min_length=1,
        description="fill, font_color, bold, italic, underline, strike, font_size, font_name, borders (style and "
        "colour per side), align, valign, wrap",
    )
    layer: Literal["displayed", "direct"] = Field(
        default="displayed",
        description="displayed: what a reader sees (conditional formats, table styles and [Red] number formats "
        "painted over the cell's own format); direct: the cell's own format",
    )


class _Defaults:
    """The look of a cell the sheet does not have, from the workbook's default font."""

    def __init__(self, doc: Document) -> None:
        font = attrs_of(doc.root).get("default_font")
        font = font if isinstance(font, dict) else {}
        self.font = font.get("name") if isinstance(font.get("name"), str) else None
        self.size = float(font["size"]) if isinstance(font.get("size"), (int, float)) else None

    def value(self, prop: str, style: Style | None) -> Any:
        field = _STYLE_FIELD[prop]
        raw = getattr(style, field) if style is not None else None
        if raw is not None:
            return raw
        return {
            "font": self.font, "size": self.size, "color": "#000000", "bold": False, "italic": False,
            "underline": False, "strike": False, "wrap": False, "align": "general", "valign": "bottom",
        }.get(field)


def _borders(node: Node | None) -> dict[str, Any]:
    raw = attrs_of(node).get("borders") if node is not None else None
    if not isinstance(raw, dict):
        return {}
    out = {}
    for side in ("left", "right", "top", "bottom", "diagonal"):
        b = raw.get(side)
        if isinstance(b, dict) and b.get("style") not in (None, "none"):
            out[side] = f"{b.get('style')} {b.get('color') or '#000000'}"
    return out


def compare_styles(pair: SheetPair, options: StyleOptions, ref_doc: Document, art_doc: Document, out: Comparison) -> None:
    ref_default, art_default = _Defaults(ref_doc), _Defaults(art_doc)
    positions = {p for p in (*pair.ref_cells, *pair.art_cells) if pair.in_scope(*p)}
    for pos in _sorted(positions):
        ref, art = pair.ref_cells.get(pos), pair.art_cells.get(pos)
        ref_style = layer_style(ref, options.layer) if ref is not None else None
        art_style = layer_style(art, options.layer) if art is not None else None
        where = pair.where(a1(pos))
        for prop in options.properties:
            if prop == "borders":
                want_b, got_b = _borders(ref), _borders(art)
                out.check("style.borders", where, want_b or None, got_b or None, equal=want_b == got_b)
                continue
            want = ref_default.value(prop, ref_style)
            got = art_default.value(prop, art_style)
            if prop == "font_name":
                same = str(want or "").casefold() == str(got or "").casefold()
            elif prop == "font_size" and want is not None and got is not None:
                same = abs(float(want) - float(got)) < 0.05
            else:
                same = want == got
            out.check(f"style.{prop}", where, want, got, equal=same)


# -- rows inserted or deleted ---------------------------------------------------------------


def row_shifts(pair: SheetPair) -> dict[str, list[int]] | None:
    """Rows the artifact has that the reference lacks (``inserted``, artifact row numbers)
    and rows of the reference the artifact lacks (``deleted``, reference row numbers),
    found by aligning the two sheets' rows by content (difflib). Only a hint for the
    evidence: the comparison stays positional, so a row inserted in the middle still
    shows every value below it as shifted. None when no whole row was added or removed."""
    import difflib

    def rows(values: dict[Position, CellValue]) -> list[int]:
        by_row: dict[int, list[tuple[int, Any]]] = {}
        for (r, c), v in values.items():
            by_row.setdefault(r, []).append((c, v))
        last = max(by_row, default=0)
        # one hash per row: difflib compares ints much faster than tuples of values
        return [hash(tuple(sorted(by_row.get(r, []), key=lambda cv: cv[0]))) for r in range(1, last + 1)]

    ref_rows, art_rows = rows(pair.ref_values), rows(pair.art_values)  # read by compare_values
    inserted: list[int] = []
    deleted: list[int] = []
    matcher = difflib.SequenceMatcher(None, ref_rows, art_rows, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "insert":
            inserted.extend(range(j1 + 1, j2 + 1))
        elif tag == "delete":
            deleted.extend(range(i1 + 1, i2 + 1))
    if not inserted and not deleted:
        return None
    return {"inserted": inserted[:50], "deleted": deleted[:50]}
