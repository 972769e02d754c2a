"""Sheet aspects of a workbook comparison: merged ranges, frozen panes, zoom, the
autofilter and sort, data validations, conditional formatting rules, column widths and
row heights, hidden rows and columns.

Lists of things (merges, validations, rules) are compared as multisets of normalised
items: each item of the reference must be in the artifact (else ``missing``), each item
of the artifact must be in the reference (else ``extra``). An item is located by its
range (``Budget!D2:D9``). Ranges are compared without ``$`` and with sheet names
unquoted (``'Budget'!$B$2:$B$4`` = ``Budget!B2:B4``).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ...model import Node
from ..query.grid import parse_a1
from ..query.ranges import column_letter, parse_a1_range
from .diff import Comparison
from .workbook_pairs import SheetPair, attrs_of


def normalize_ref(ref: Any) -> str:
    """A range or reference as compared: no ``$``, no quotes around the sheet name, sheet
    name kept in its case; multiple areas sorted (``B2 A1`` = ``A1 B2``).

    >>> normalize_ref("'Budget'!$B$2:$B$4"), normalize_ref("D2:D4 A1")
    ('Budget!B2:B4', 'A1 D2:D4')
    """
    if ref is None:
        return ""
    text = str(ref).strip().lstrip("=").replace("$", "")
    areas = []
    for area in re.split(r"[\s,]+", text):
        if not area:
            continue
        if "!" in area:
            sheet, cells = area.rsplit("!", 1)
            if sheet.startswith("'") and sheet.endswith("'") and len(sheet) >= 2:
                sheet = sheet[1:-1].replace("''", "'")
            area = f"{sheet}!{cells.upper()}"
        else:
            area = area.upper()
        areas.append(area)
    return " ".join(sorted(areas))


def _in_scope(pair: SheetPair, ref: str) -> bool:
    """Whether a range lies in the compared ranges (its top-left cell decides)."""
    if pair.ranges is None:
        return True
    parsed = parse_a1_range(ref.split(" ")[0])
    if parsed is None:
        return True
    r0, c0, _, _ = parsed[1]
    return pair.in_scope(r0, c0)


def _multiset(aspect: str, pair: SheetPair, want: list[tuple[str, str]], got: list[tuple[str, str]], out: Comparison,
              describe: dict[str, Any]) -> None:
    """``want``/``got``: (location range, canonical key) items; ``describe`` maps a key to
    what the evidence shows."""
    have = Counter(k for _, k in got)
    for loc, key in want:
        if have[key] > 0:
            have[key] -= 1
            out.check(aspect, pair.where(loc), describe[key], describe[key], equal=True)
        else:
            near = next((describe[k] for lg, k in got if lg == loc and have[k] > 0), None)
            out.check(aspect, pair.where(loc), describe[key], near, equal=False,
                      note="differs" if near is not None else "missing in the artifact")
    wanted = Counter(k for _, k in want)
    for loc, key in got:
        if wanted[key] > 0:
            wanted[key] -= 1
            continue
        if any(lw == loc for lw, _ in want):
            continue  # already reported as differing at this location
        out.extra(aspect, pair.where(loc), describe[key])


def _key(item: Any) -> str:
    return json.dumps(item, sort_keys=True, default=str)


# -- merges ---------------------------------------------------------------------------------


def compare_merges(pair: SheetPair, out: Comparison) -> None:
    def items(sheet: Node | None) -> list[tuple[str, str]]:
        merges = attrs_of(sheet).get("merges") if sheet is not None else None
        refs = [normalize_ref(m) for m in merges] if isinstance(merges, list) else []
        return [(r, r) for r in refs if _in_scope(pair, r)]

    want, got = items(pair.ref), items(pair.art)
    _multiset("merges", pair, want, got, out, {k: k for _, k in want + got})


# -- view: freeze panes, zoom ---------------------------------------------------------------


def compare_freeze(pair: SheetPair, out: Comparison) -> None:
    def frozen(sheet: Node | None) -> str | None:
        if sheet is None:
            return None
        rows, cols = int(attrs_of(sheet).get("frozen_rows") or 0), int(attrs_of(sheet).get("frozen_cols") or 0)
        if not rows and not cols:
            return None
        return f"{column_letter(cols + 1)}{rows + 1}"

    want, got = frozen(pair.ref), frozen(pair.art)
    out.check("freeze", pair.where(), want, got,
              note="" if want == got else f"frozen rows/columns: reference {_panes(want)}, artifact {_panes(got)}")


def _panes(top_left: str | None) -> str:
    if top_left is None:
        return "none"
    pos = parse_a1(top_left)
    return f"{pos[0] - 1} row(s), {pos[1] - 1} column(s)" if pos else top_left


def compare_zoom(pair: SheetPair, out: Comparison) -> None:
    def zoom(sheet: Node | None) -> int | None:
        if sheet is None:
            return None
        z = attrs_of(sheet).get("zoom")
        return int(z) if isinstance(z, (int, float)) else 100

    out.check("zoom", pair.where(), zoom(pair.ref), zoom(pair.art))


# -- autofilter and sort --------------------------------------------------------------------


def compare_filters(pair: SheetPair, out: Comparison) -> None:
    """The autofilter's range, the criteria per column, and the sort keys in order."""
    def state(sheet: Node | None) -> tuple[str | None, Any, Any]:
        if sheet is None:
            return None, None, None
        ref = attrs_of(sheet).get("autofilter") or attrs_of(sheet).get("filter")
        af = attrs_of(sheet).get("autofilter_state")
        columns = af.get("columns") if isinstance(af, dict) else None
        sort = attrs_of(sheet).get("sort_state")
        keys = None
        if isinstance(sort, dict):
            keys = [
                {"column": c.get("column"), "descending": bool(c.get("descending")), **({"by": c["by"]} if c.get("by") else {})}
                for c in sort.get("conditions", []) if isinstance(c, dict)
            ]
        return (normalize_ref(ref) or None), (columns or None), (keys or None)

    (ref_a, cols_a, sort_a), (ref_b, cols_b, sort_b) = state(pair.ref), state(pair.art)
    out.check("filters", pair.where("autofilter"), ref_a, ref_b)
    out.check("filters", pair.where("filter criteria"), cols_a, cols_b, equal=_key(cols_a) == _key(cols_b))
    out.check("filters", pair.where("sort"), sort_a, sort_b, equal=_key(sort_a) == _key(sort_b))


# -- data validations -----------------------------------------------------------------------


def _validation_item(dv: dict[str, Any]) -> tuple[str, str, dict[str, Any]]:
    """What a validation rule means: a list's values (or its source formula), a custom
    rule's formula, else the operator with the formulas it uses (``formula2`` only for
    between / notBetween: LibreOffice writes a stray ``formula2`` 0 on lists)."""
    ranges = normalize_ref(dv.get("ranges"))
    kind = dv.get("type") or "any"
    item: dict[str, Any] = {"ranges": ranges, "type": kind}
    if kind == "list":
        values = dv.get("values")
        if isinstance(values, list) and values:
            item["values"] = [str(v) for v in values]
        else:
            item["formula1"] = _norm_formula(dv.get("formula1"))
    elif kind == "custom":
        item["formula1"] = _norm_formula(dv.get("formula1"))
    elif kind != "any":
        operator = dv.get("operator") or "between"
        item["operator"] = operator
        item["formula1"] = _norm_formula(dv.get("formula1"))
        if operator in ("between", "notBetween"):
            item["formula2"] = _norm_formula(dv.get("formula2"))
    item = {k: v for k, v in item.items() if v is not None}
    return ranges, _key(item), item


def _norm_formula(f: Any) -> str | None:
    if f is None:
        return None
    return re.sub(r"\s+", "", str(f)).replace("$", "").lstrip("=")


def compare_validations(pair: SheetPair, out: Comparison) -> None:
    describe: dict[str, Any] = {}

    def items(sheet: Node | None) -> list[tuple[str, str]]:
        dvs = attrs_of(sheet).get("data_validations") if sheet is not None else None
        found = []
        for dv in dvs if isinstance(dvs, list) else []:
            if isinstance(dv, dict):
                loc, key, item = _validation_item(dv)
                if _in_scope(pair, loc):
                    describe[key] = item
                    found.append((loc, key))
        return found

    _multiset("data_validations", pair, items(pair.ref), items(pair.art), out, describe)


# -- conditional formatting -----------------------------------------------------------------

_RULE_KEYS = ("type", "operator", "formulas", "text", "rank", "percent", "bottom", "above_average",
              "equal_average", "std_dev", "time_period", "colorScale", "dataBar", "iconSet", "stop_if_true")


def compare_conditional_formats(pair: SheetPair, out: Comparison) -> None:
    """Rules compared by range, type, operator, formulas and the look they give (fill,
    font colour, bold...), not by priority number (tools renumber priorities)."""
    describe: dict[str, Any] = {}

    def items(sheet: Node | None) -> list[tuple[str, str]]:
        rules = attrs_of(sheet).get("conditional_formats") if sheet is not None else None
        found = []
        for rule in rules if isinstance(rules, list) else []:
            if not isinstance(rule, dict):
                continue
            loc = normalize_ref(rule.get("ranges"))
            if not _in_scope(pair, loc):
                continue
            item: dict[str, Any] = {"ranges": loc}
            for k in _RULE_KEYS:
                v = rule.get(k)
                if v not in (None, False, [], {}):
                    item[k] = [_norm_formula(f) for f in v] if k == "formulas" and isinstance(v, list) else v
            style = rule.get("style")
            if isinstance(style, dict):
                item["style"] = {k: v for k, v in style.items() if v is not None}
            key = _key(item)
            describe[key] = item
            found.append((loc, key))
        return found

    _multiset("conditional_formats", pair, items(pair.ref), items(pair.art), out, describe)


# -- widths and heights, hidden rows and columns --------------------------------------------


class DimensionOptions(BaseModel):
    """How column widths and row heights are compared (the ``dimensions`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    tolerance_pt: float = Field(
        default=1.0, ge=0,
        description="widths and heights may differ by this many points (inclusive); Excel and openpyxl round "
        "widths to whole pixels differently",
    )
    columns: bool = Field(default=True, description="compare column widths")
    rows: bool = Field(default=True, description="compare row heights")


def _col_widths(sheet: Node) -> tuple[dict[int, tuple[float, bool]], float]:
    default = float(attrs_of(sheet).get("default_col_width_pt") or 48.0)
    out: dict[int, tuple[float, bool]] = {}
    entries = attrs_of(sheet).get("col_widths")
    for e in entries if isinstance(entries, list) else []:
        if isinstance(e, list) and len(e) >= 4:
            lo, hi = int(e[0]), min(int(e[1]), int(e[0]) + 16384)
            for c in range(lo, hi + 1):
                out[c] = (float(e[2]), bool(e[3]))
    return out, default


def _row_heights(sheet: Node) -> tuple[dict[int, tuple[float, bool]], float]:
    default = float(attrs_of(sheet).get("default_row_height_pt") or 15.0)
    out: dict[int, tuple[float, bool]] = {}
    entries = attrs_of(sheet).get("row_heights")
    for e in entries if isinstance(entries, list) else []:
        if isinstance(e, list) and len(e) >= 3:
            out[int(e[0])] = (float(e[1]), bool(e[2]))
    for row in sheet.children:
        if row.kind == "row" and isinstance(attrs_of(row).get("row"), int) and isinstance(attrs_of(row).get("height_pt"), (int, float)):
            r = int(attrs_of(row)["row"])
            hidden = bool(attrs_of(row).get("hidden")) or out.get(r, (0.0, False))[1]
            height = float(attrs_of(row)["height_pt"])
            out[r] = (out[r][0] if hidden and r in out else height, hidden)
    return out, default


def _extent(pair: SheetPair) -> tuple[int, int]:
    """The last row and column holding a cell on either side (0 when none)."""
    positions = [*pair.ref_cells, *pair.art_cells]
    return max((r for r, _ in positions), default=0), max((c for _, c in positions), default=0)


def compare_dimensions(pair: SheetPair, options: DimensionOptions, out: Comparison) -> None:
    """Widths of the columns and heights of the rows up to the last used one on either
    side (inside the compared ranges), a column or row without its own size taking the
    sheet's default."""
    if pair.art is None:
        return
    last_row, last_col = _extent(pair)
    tol = options.tolerance_pt + 1e-6
    if options.columns:
        (want, dflt_a), (got, dflt_b) = _col_widths(pair.ref), _col_widths(pair.art)
        for c in range(1, last_col + 1):
            if pair.ranges is not None and not any(r.c0 <= c <= r.c1 for r in pair.ranges):
                continue
            a, b = want.get(c, (dflt_a, False))[0], got.get(c, (dflt_b, False))[0]
            out.check("dimensions", pair.where(f"column {column_letter(c)}"), round(a, 2), round(b, 2),
                      equal=abs(a - b) <= tol, note="width in pt")
    if options.rows:
        (want, dflt_a), (got, dflt_b) = _row_heights(pair.ref), _row_heights(pair.art)
        for r in range(1, last_row + 1):
            if pair.ranges is not None and not any(x.r0 <= r <= x.r1 for x in pair.ranges):
                continue
            a, b = want.get(r, (dflt_a, False))[0], got.get(r, (dflt_b, False))[0]
            out.check("dimensions", pair.where(f"row {r}"), round(a, 2), round(b, 2),
                      equal=abs(a - b) <= tol, note="height in pt")


def _hidden(sheet: Node | None) -> tuple[set[int], set[int]]:
    if sheet is None:
        return set(), set()
    cols = {c for c, (_, h) in _col_widths(sheet)[0].items() if h}
    rows = {r for r, (_, h) in _row_heights(sheet)[0].items() if h}
    for letter in attrs_of(sheet).get("hidden_cols") or []:  # Google Sheets
        pos = parse_a1(f"{letter}1")
        if pos:
            cols.add(pos[1])
    rows.update(int(r) for r in attrs_of(sheet).get("hidden_rows") or [] if isinstance(r, int))
    return rows, cols


def compare_hidden(pair: SheetPair, out: Comparison) -> None:
    """Hidden rows and columns (each one the reference hides must be hidden, and none
    other), and whether the sheet itself is hidden."""
    want_rows, want_cols = _hidden(pair.ref)
    got_rows, got_cols = _hidden(pair.art)
    for kind, want, got, label in (("row", want_rows, got_rows, str), ("column", want_cols, got_cols, column_letter)):
        for i in _sorted_ints(want | got):
            if pair.ranges is not None and not any(
                (r.r0 <= i <= r.r1) if kind == "row" else (r.c0 <= i <= r.c1) for r in pair.ranges
            ):
                continue
            out.check("hidden", pair.where(f"{kind} {label(i)}"), "hidden" if i in want else "shown",
                      "hidden" if i in got else "shown")
    state = (attrs_of(pair.ref).get("state") or "visible", (attrs_of(pair.art).get("state") or "visible") if pair.art else None)
    out.check("hidden", pair.where(), f"sheet {state[0]}", f"sheet {state[1]}" if state[1] else None)


def _sorted_ints(values: Iterable[int]) -> list[int]:
    return sorted(values)
