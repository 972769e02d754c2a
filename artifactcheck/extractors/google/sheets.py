"""Google Sheets (Sheets API v4 ``spreadsheets.get`` with grid data) -> Document tree.

Same shape and attribute names as the .xlsx extractor so one rubric scores both:
``sheet`` (attrs ``name``, ``index``, ``state``, ``frozen_rows``, ``freeze_panes``,
``merges``, ``conditional_formats``, ...) > ``row`` (id ``Sheet1!3:3``, ``height_pt``) >
``cell`` (id ``Sheet1!B3``; attrs ``ref``, ``row``/``col`` 1-based, ``value``,
``data_type``, ``formula`` with its ``=``, ``number_format``, ``hyperlink``, ``comment``
(the note, also a ``comment`` child), ``merge``, ``checkbox``/``checked``, ``overflow``);
the node's text is the formatted value Sheets shows. ``chart`` nodes follow the rows.

Geometry (native, points, one canvas per sheet with origin at the top-left of A1): row
heights and column widths are the API's pixel sizes * 0.75 (96 dpi); hidden rows and
columns take no space (their cells keep a zero-size box). Charts are placed from their
overlay anchor: the anchor cell's corner plus the pixel offsets, sized by
``widthPixels``/``heightPixels``. Sheets' defaults: 100 px columns, 21 px rows.

Cells are emitted as the .xlsx extractor does: a value or formula, or a visible mark
(fill, border, link, note, checkbox, merge); cells covered by a merge are not emitted.
"""

from __future__ import annotations

import hashlib
import json
import re
from bisect import bisect_left
from collections.abc import Mapping
from datetime import datetime, timedelta
from itertools import accumulate
from pathlib import Path
from typing import Any

from openpyxl.styles.colors import COLOR_INDEX

from ...errors import ArtifactTooLarge
from ...limits import current_limits
from ...model import ArtifactInfo, Box, Document, Node, Page, Style, ToolInfo
from ..tree_builder import fill_container_text
from ..xlsx.number_format import format_colour
from .values import a1_column, a1_ref, index_value, rgb_hex, theme_color_hex

Json = dict[str, Any]
PX_TO_PT = 0.75
DEFAULT_COL_PX = 100
DEFAULT_ROW_PX = 21
_ALIGN = {"LEFT": "left", "CENTER": "center", "RIGHT": "right"}
_VALIGN = {"TOP": "top", "MIDDLE": "middle", "BOTTOM": "bottom"}
ERROR_TEXT = {
    "DIVIDE_BY_ZERO": "#DIV/0!", "VALUE": "#VALUE!", "REF": "#REF!", "NAME": "#NAME?",
    "NUM": "#NUM!", "N_A": "#N/A", "NULL_VALUE": "#NULL!", "ERROR": "#ERROR!", "LOADING": "#LOADING",
}
_EPOCH = datetime(1899, 12, 30)
# Sheets condition types -> the data-validation types the .xlsx extractor reports.
_VALIDATION_TYPES = {
    "ONE_OF_LIST": "list", "ONE_OF_RANGE": "list", "BOOLEAN": "checkbox", "CUSTOM_FORMULA": "custom",
    "NUMBER_BETWEEN": "decimal", "NUMBER_NOT_BETWEEN": "decimal", "NUMBER_GREATER": "decimal",
    "NUMBER_GREATER_THAN_EQ": "decimal", "NUMBER_LESS": "decimal", "NUMBER_LESS_THAN_EQ": "decimal",
    "NUMBER_EQ": "decimal", "NUMBER_NOT_EQ": "decimal", "DATE_BEFORE": "date", "DATE_AFTER": "date",
    "DATE_ON_OR_BEFORE": "date", "DATE_ON_OR_AFTER": "date", "DATE_BETWEEN": "date", "DATE_IS_VALID": "date",
}
_IMAGE_FORMULA = re.compile(r'^=\s*IMAGE\s*\(\s*"([^"]+)"', re.IGNORECASE)


def _theme(props: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    for entry in ((props.get("spreadsheetTheme") or {}).get("themeColors") or []):
        hexv = rgb_hex((entry.get("color") or {}).get("rgbColor") or {})
        if entry.get("colorType") and hexv:
            out[str(entry["colorType"])] = hexv
    return out


def _colour(fmt: Mapping[str, Any], key: str, theme: Mapping[str, str]) -> str | None:
    """``<key>Style`` (rgb or theme) wins over the deprecated ``<key>``."""
    style = fmt.get(f"{key}Style")
    if style:
        return theme_color_hex(style, theme)
    if key in fmt:
        return rgb_hex(fmt[key] or {})
    return None


def _deep_merge(base: Mapping[str, Any] | None, top: Mapping[str, Any] | None) -> Json:
    out: Json = dict(base or {})
    for k, v in (top or {}).items():
        out[k] = _deep_merge(out.get(k), v) if isinstance(v, Mapping) and isinstance(out.get(k), Mapping) else v
    return out


def _font_family(value: Any) -> str:
    """Sheets may store a CSS font stack (``arial,sans,sans-serif``): the first family,
    with the capitalisation the font menu shows."""
    first = str(value or "Arial").split(",")[0].strip().strip("'\"") or "Arial"
    return first.title() if first.islower() else first


def cell_style(fmt: Mapping[str, Any], theme: Mapping[str, str], *, text_format: Mapping[str, Any] | None = None) -> Style:
    tf = _deep_merge(fmt.get("textFormat"), text_format)
    bg = _colour(fmt, "backgroundColor", theme)
    return Style(
        font=_font_family(tf.get("fontFamily")),
        size=float(tf.get("fontSize", 10) or 0),
        bold=bool(tf.get("bold", False)),
        italic=bool(tf.get("italic", False)),
        underline=bool(tf.get("underline", False)),
        strike=bool(tf.get("strikethrough", False)),
        color=_colour(tf, "foregroundColor", theme) or "#000000",
        fill=None if bg == "#ffffff" else bg,  # white is Sheets' "no fill", as in Excel
        align=_ALIGN.get(str(fmt.get("horizontalAlignment", "")), "general"),
        valign=_VALIGN.get(str(fmt.get("verticalAlignment", "BOTTOM")), "bottom"),
        wrap=str(fmt.get("wrapStrategy", "OVERFLOW_CELL")) == "WRAP",
    )


def _cached_style(fmt: Mapping[str, Any], theme: Mapping[str, str], cache: dict[str, Style]) -> Style:
    """``cell_style`` memoised per extraction on the fields it reads (Style is frozen, so
    sharing is safe): a sheet has thousands of cells and a handful of formats."""
    key = repr([fmt.get(k) for k in ("textFormat", "backgroundColorStyle", "backgroundColor",
                                     "horizontalAlignment", "verticalAlignment", "wrapStrategy")])
    style = cache.get(key)
    if style is None:
        style = cache[key] = cell_style(fmt, theme)
    return style


_LAYERED = ("fill", "color", "bold", "italic", "underline", "strike")
# Excel's 56-colour palette for [ColorN] in number formats (indexes 8..63), as Sheets reads them.
_PALETTE = [f"#{c[2:].lower()}" for c in COLOR_INDEX[:64]]


def _own_format(default_fmt: Mapping[str, Any], user: Mapping[str, Any] | None) -> Json:
    """The cell's own format over the spreadsheet's default. A colour the user set in the
    legacy field (``backgroundColor``) must not lose to the default's ``...Style`` field."""
    base = dict(default_fmt)
    user = user or {}
    if "backgroundColor" in user and "backgroundColorStyle" not in user:
        base.pop("backgroundColorStyle", None)
    tf = user.get("textFormat") or {}
    if "foregroundColor" in tf and "foregroundColorStyle" not in tf and isinstance(base.get("textFormat"), Mapping):
        base["textFormat"] = {k: v for k, v in base["textFormat"].items() if k != "foregroundColorStyle"}
    return _deep_merge(base, user)


def _displayed(effective: Style, direct: Style, value: Any, attrs: dict[str, Any], cache: dict[str, Style]) -> Style:
    """The .xlsx conventions for what a reader sees (design/xlsx-display.md): the style
    is the API's ``effectiveFormat`` (conditional formatting applied), with the number
    format's colour (``[Red]``) over it; where that differs from the cell's own
    ``userEnteredFormat``, ``style_sources`` names the layer and ``direct_style`` keeps
    the cell's own values."""
    sources: dict[str, Any] = {k: "conditional_format" for k in _LAYERED if getattr(effective, k) != getattr(direct, k)}
    shown = effective
    colour = format_colour(value if not isinstance(value, str) or attrs.get("data_type") == "string"
                           else None, str(attrs.get("number_format") or "General"))
    if isinstance(attrs.get("serial"), (int, float)):
        colour = format_colour(attrs["serial"], str(attrs.get("number_format") or "General"))
    if isinstance(colour, int):
        colour = _PALETTE[colour] if 0 <= colour < len(_PALETTE) else None
    if colour is not None:
        sources["color"] = "number_format"
        if shown.color != colour:
            key = f"nf:{id(shown)}:{colour}"
            cached = cache.get(key)
            if cached is None:
                cached = cache[key] = shown.model_copy(update={"color": colour})
                # Keep the keyed Style alive with its entry: a freed id could be reused by
                # another cell's style and hand it this colour.
                cache[f"nf-key:{id(shown)}"] = shown
            shown = cached
    if sources:
        attrs["style_sources"] = sources
        attrs["direct_style"] = {k: getattr(direct, k) for k in sources}
    return shown


def _value(ev: Mapping[str, Any] | None) -> tuple[Any, str | None]:
    if not ev:
        return None, None
    if "numberValue" in ev:
        v = float(ev["numberValue"])
        return (int(v) if v.is_integer() and abs(v) < 2**53 else v), "number"
    if "stringValue" in ev:
        return str(ev["stringValue"]), "string"
    if "boolValue" in ev:
        return bool(ev["boolValue"]), "bool"
    if "errorValue" in ev:
        err = ev["errorValue"] or {}
        return ERROR_TEXT.get(str(err.get("type", "ERROR")), "#ERROR!"), "error"
    if "formulaValue" in ev:
        return str(ev["formulaValue"]), "string"
    return None, None


class _Axis:
    """Offsets along one axis in points: ``start(i)`` of 0-based index i; hidden = 0.

    Sparse: only the rows/columns the response sizes explicitly are stored, the rest
    take ``default``, so a declared ``rowCount`` costs nothing (a grid of 1e12 rows must
    not become a list of 1e12 sizes). ``start`` is exact for the API's pixel sizes
    (multiples of 0.25 pt), so it equals the running sum it replaces."""

    def __init__(self, sizes: dict[int, float], default: float, count: int) -> None:
        self.count = max(count, (max(sizes) + 1) if sizes else 0)
        self.default = default
        self._sizes = sizes
        self._explicit = sorted(sizes)
        # _shift[k]: how far the first k explicit sizes move later positions off the default grid
        self._shift = [0.0, *accumulate(sizes[i] - default for i in self._explicit)]

    def start(self, i: int) -> float:
        return i * self.default + self._shift[bisect_left(self._explicit, i)]

    def size(self, i: int) -> float:
        return self._sizes.get(i, self.default)


def _axis(meta_by_grid: list[tuple[int, list[Json]]], default_px: int, count: int) -> tuple[_Axis, set[int]]:
    sizes: dict[int, float] = {}
    hidden: set[int] = set()
    for start, metas in meta_by_grid:
        for k, m in enumerate(metas or []):
            i = start + k
            if m.get("hiddenByUser") or m.get("hiddenByFilter"):
                hidden.add(i)
                sizes[i] = 0.0
            else:
                sizes[i] = float(m.get("pixelSize", default_px) or 0) * PX_TO_PT
    return _Axis(sizes, default_px * PX_TO_PT, count), hidden


def grid_index(value: Any, what: str) -> int:
    """A row/column index or count of a Sheets response: 0 <= n <= the grid budget (a
    Sheets grid holds at most 10 million cells, so no real index is larger)."""
    number = index_value(value, what, at_most=2**63)
    limit = current_limits().grid_cells
    if number > limit:
        raise ArtifactTooLarge(f"{what} {number} is beyond a grid of {limit} cells "
                               f"({current_limits().describe('grid_cells')})")
    return number


def grid_range_a1(rng: Mapping[str, Any], titles: Mapping[int, str] | None = None) -> str:
    """A GridRange (0-based, end-exclusive; missing bounds = unbounded) as A1 text."""
    r0, r1 = rng.get("startRowIndex"), rng.get("endRowIndex")
    c0, c1 = rng.get("startColumnIndex"), rng.get("endColumnIndex")
    start = f"{a1_column(grid_index(c0, 'startColumnIndex'))}{grid_index(r0, 'startRowIndex') + 1 if r0 is not None or r1 is not None else ''}"
    end_col = a1_column(grid_index(c1, "endColumnIndex") - 1) if c1 is not None else ""
    end_row = str(grid_index(r1, "endRowIndex")) if r1 is not None else ""
    a1 = f"{start}:{end_col}{end_row}" if (c1 is not None or r1 is not None) else start
    if titles is not None and rng.get("sheetId") is not None and int(rng["sheetId"]) in titles:
        a1 = f"{titles[int(rng['sheetId'])]}!{a1}"
    return a1


def _chart_node(node_id: str, chart: Mapping[str, Any], sheet_page: int, cols: _Axis, rows: _Axis, titles: Mapping[int, str]) -> Node:
    spec = chart.get("spec") or {}
    attrs: dict[str, Any] = {"chart_id": chart.get("chartId")}
    if spec.get("title"):
        attrs["title"] = spec["title"]
    for key in ("basicChart", "pieChart", "histogramChart", "bubbleChart", "candlestickChart", "orgChart",
                "treemapChart", "waterfallChart", "scorecardChart"):
        if key in spec:
            sub = spec[key] or {}
            attrs["chart_type"] = str(sub.get("chartType") or key.replace("Chart", "")).lower()
            series = sub.get("series") or []
            if series:
                attrs["series_count"] = len(series)
                ranges = [grid_range_a1(s.get("series", {}).get("sourceRange", {}).get("sources", [{}])[0], titles)
                          for s in series if (s.get("series") or {}).get("sourceRange")]
                if ranges:
                    attrs["series_ranges"] = ranges
    boxes: list[Box] = []
    overlay = (chart.get("position") or {}).get("overlayPosition")
    if overlay:
        anchor = overlay.get("anchorCell") or {}
        r, c = grid_index(anchor.get("rowIndex"), "rowIndex"), grid_index(anchor.get("columnIndex"), "columnIndex")
        x = cols.start(c) + float(overlay.get("offsetXPixels", 0) or 0) * PX_TO_PT
        y = rows.start(r) + float(overlay.get("offsetYPixels", 0) or 0) * PX_TO_PT
        w = float(overlay.get("widthPixels", 600) or 0) * PX_TO_PT
        h = float(overlay.get("heightPixels", 371) or 0) * PX_TO_PT
        boxes = [Box.from_xywh(sheet_page, x, y, w, h)]
        attrs["anchor"] = a1_ref(r, c)
    elif (chart.get("position") or {}).get("sheetId") is not None:
        attrs["own_sheet"] = True
    return Node(id=node_id, kind="chart", attrs=attrs, boxes=boxes, source=f"chart:{chart.get('chartId')}",
                text=str(spec.get("title") or ""))


def _overflow(cells: dict[tuple[int, int], Node], cols: _Axis, rows: _Axis) -> None:
    """Excel's visibility rules (shared with .xlsx: ``xlsx/overflow.py``) on
    measured text widths; skipped when the font measurer is unavailable."""
    try:
        from ..fonts.metrics import line_height_pt, text_width_pt
        from ..xlsx.overflow import classify, wrap_lines
    except ImportError:
        return
    occupied: dict[int, list[int]] = {}
    for (r, c), node in cells.items():
        if node.text:
            occupied.setdefault(r, []).append(c)
    for cols_list in occupied.values():
        cols_list.sort()
    for (r, c), node in cells.items():
        if not node.text or node.style is None or not node.boxes:
            continue
        st = node.style
        family, size = st.font, st.size or 10.0
        box = node.boxes[0]
        row_cols = occupied.get(r, [])
        i = bisect_left(row_cols, c)
        left_limit = cols.start(row_cols[i - 1] + 1) if i > 0 else 0.0
        right_limit = cols.start(row_cols[i + 1]) if i + 1 < len(row_cols) else float("inf")
        text = node.text

        def width_of(s: str, family: str | None = family, size: float = size, st: Style = st) -> float:
            return text_width_pt(s, family, size, bold=bool(st.bold), italic=bool(st.italic))

        vt = node.attrs.get("data_type")
        kind = {"number": "number", "date": "number", "bool": "bool", "error": "error"}.get(str(vt), "text")
        text_w = max((width_of(line) for line in text.split("\n")), default=0.0)
        out = classify(
            kind=kind, text_w=text_w,
            x0=box.x0, x1=box.x1, height=box.height, align=st.align or "general", wrap=bool(st.wrap),
            merged="merge" in node.attrs, shrink=False, rotation=0, left_limit=left_limit,
            right_limit=right_limit, line_h=line_height_pt(family, size),
            lines=wrap_lines(text, width_of, box.width - 3.75) if st.wrap else 1,
            fixed_height=True, general_min_w=None,
        )
        out["text_width_pt"] = round(text_w, 3)
        node.attrs.update(out)


def _sheet(i: int, sheet: Mapping[str, Any], *, theme: Mapping[str, str], default_fmt: Mapping[str, Any], titles: Mapping[int, str]) -> tuple[Node, Page]:
    props = sheet.get("properties") or {}
    name = str(props.get("title") or f"Sheet{i + 1}")
    grid = props.get("gridProperties") or {}
    data = list(sheet.get("data") or [])
    _check_grid_size(name, grid)
    cols, hidden_cols = _axis([(grid_index(g.get("startColumn"), "startColumn"), g.get("columnMetadata") or []) for g in data],
                              DEFAULT_COL_PX, grid_index(grid.get("columnCount"), "columnCount"))
    rows, hidden_rows = _axis([(grid_index(g.get("startRow"), "startRow"), g.get("rowMetadata") or []) for g in data],
                              DEFAULT_ROW_PX, grid_index(grid.get("rowCount"), "rowCount"))
    merges: dict[tuple[int, int], tuple[int, int, int, int]] = {}
    covered: dict[tuple[int, int], tuple[int, int]] = {}
    merged_cells = 0
    for m in sheet.get("merges") or []:
        r0, r1 = grid_index(m.get("startRowIndex"), "startRowIndex"), grid_index(m.get("endRowIndex"), "endRowIndex")
        c0, c1 = grid_index(m.get("startColumnIndex"), "startColumnIndex"), grid_index(m.get("endColumnIndex"), "endColumnIndex")
        # Merges never overlap, so together they cover at most the grid: count before
        # the loop below allocates one entry per covered cell.
        merged_cells += max(0, r1 - r0) * max(0, c1 - c0)
        if merged_cells > current_limits().grid_cells:
            raise ArtifactTooLarge(f"sheet {name!r}: merges cover more than {current_limits().grid_cells} cells "
                                   f"({current_limits().describe('grid_cells')})")
        merges[(r0, c0)] = (r0, r1, c0, c1)
        for rr in range(r0, r1):
            for cc in range(c0, c1):
                if (rr, cc) != (r0, c0):
                    covered[(rr, cc)] = (r0, c0)
    cells: dict[tuple[int, int], Node] = {}
    style_cache: dict[str, Style] = {}
    for g in data:
        r_start, c_start = grid_index(g.get("startRow"), "startRow"), grid_index(g.get("startColumn"), "startColumn")
        for dr, row in enumerate(g.get("rowData") or []):
            for dc, cell in enumerate((row or {}).get("values") or []):
                r, c = r_start + dr, c_start + dc
                node = _cell(name, i, r, c, cell or {}, theme=theme, default_fmt=default_fmt, cols=cols, rows=rows,
                             merge=merges.get((r, c)), covered=covered.get((r, c)),
                             hidden=r in hidden_rows or c in hidden_cols, style_cache=style_cache)
                if node is not None:
                    cells[(r, c)] = node
    _overflow(cells, cols, rows)
    used_right = max((n.boxes[0].x1 for n in cells.values() if n.boxes), default=0.0)
    row_nodes: list[Node] = []
    by_row: dict[int, list[int]] = {}
    for r, c in cells:
        by_row.setdefault(r, []).append(c)
    for r in sorted(by_row):
        kids = [cells[(r, c)] for c in sorted(by_row[r])]
        rattrs: dict[str, Any] = {"row": r + 1, "height_pt": rows.size(r)}
        if r in hidden_rows:
            rattrs["hidden"] = True
        box = Box(page=i, x0=0.0, top=rows.start(r), x1=used_right, bottom=rows.start(r) + rows.size(r))
        row_nodes.append(Node(id=f"{name}!{r + 1}:{r + 1}", kind="row", attrs=rattrs, boxes=[box], children=kids))
    charts = [_chart_node(f"{name}!chart{k}", ch, i, cols, rows, titles) for k, ch in enumerate(sheet.get("charts") or [])]
    attrs: dict[str, Any] = {"name": name, "index": i, "sheet_id": props.get("sheetId"),
                             "hidden": bool(props.get("hidden", False)),
                             "state": "hidden" if props.get("hidden") else "visible",
                             "sheet_type": "worksheet" if str(props.get("sheetType", "GRID")) == "GRID" else "chartsheet",
                             "frozen_rows": grid_index(grid.get("frozenRowCount"), "frozenRowCount"),
                             "frozen_cols": grid_index(grid.get("frozenColumnCount"), "frozenColumnCount"),
                             "row_count": grid_index(grid.get("rowCount"), "rowCount"),
                             "col_count": grid_index(grid.get("columnCount"), "columnCount")}
    if grid.get("hideGridlines"):
        attrs["hide_gridlines"] = True
    if attrs["frozen_rows"] or attrs["frozen_cols"]:
        attrs["freeze_panes"] = a1_ref(attrs["frozen_rows"], attrs["frozen_cols"])
    if cells:
        rs, cs = [rc[0] for rc in cells], [rc[1] for rc in cells]
        attrs["used_range"] = f"{a1_ref(min(rs), min(cs))}:{a1_ref(max(rs), max(cs))}"
    tab = _colour(props, "tabColor", theme)
    if tab:
        attrs["tab_color"] = tab
    if hidden_rows:
        attrs["hidden_rows"] = sorted(r + 1 for r in hidden_rows)
    if hidden_cols:
        attrs["hidden_cols"] = [a1_column(c) for c in sorted(hidden_cols)]
    if merges:
        attrs["merges"] = [grid_range_a1({"startRowIndex": a, "endRowIndex": b, "startColumnIndex": c, "endColumnIndex": d})
                           for (a, b, c, d) in merges.values()]
    if sheet.get("basicFilter"):
        attrs["filter"] = grid_range_a1((sheet["basicFilter"] or {}).get("range") or {})
    if sheet.get("filterViews"):
        attrs["filter_views"] = [str(v.get("title", "")) for v in sheet["filterViews"]]
    if sheet.get("protectedRanges"):
        attrs["protected_ranges"] = [
            {"range": grid_range_a1(p.get("range") or {}), "warning_only": bool(p.get("warningOnly", False)),
             "description": p.get("description")}
            for p in sheet["protectedRanges"]
        ]
    if sheet.get("conditionalFormats"):
        attrs["conditional_formats"] = [_conditional(cf, theme) for cf in sheet["conditionalFormats"]]
    if sheet.get("bandedRanges"):
        attrs["banded_ranges"] = [grid_range_a1(b.get("range") or {}) for b in sheet["bandedRanges"]]
    used_w = max([cols.start(c + 1) for (_, c) in cells] + [b.x1 for ch in charts for b in ch.boxes] + [0.0])
    used_h = max([rows.start(r + 1) for (r, _) in cells] + [b.bottom for ch in charts for b in ch.boxes] + [0.0])
    page = Page(index=i, kind="sheet", width=used_w, height=used_h, name=name, hidden=attrs["hidden"])
    node = Node(id=name, kind="sheet", attrs=attrs, source=f"sheetId={props.get('sheetId')}",
                boxes=[Box(page=i, x0=0, top=0, x1=used_w, bottom=used_h)], children=row_nodes + charts)
    return node, page


def _check_grid_size(name: str, grid: Mapping[str, Any]) -> None:
    rows, cols = grid_index(grid.get("rowCount"), "rowCount"), grid_index(grid.get("columnCount"), "columnCount")
    limit = current_limits().grid_cells
    if rows * cols > limit:
        raise ArtifactTooLarge(f"sheet {name!r} declares a grid of {rows} x {cols} cells "
                               f"(limit {limit}; {current_limits().describe('grid_cells')})")


def _conditional(cf: Mapping[str, Any], theme: Mapping[str, str]) -> Json:
    out: Json = {"ranges": [grid_range_a1(r) for r in cf.get("ranges") or []]}
    if "booleanRule" in cf:
        rule = cf["booleanRule"] or {}
        cond = rule.get("condition") or {}
        out["type"] = "boolean"
        out["condition"] = str(cond.get("type", ""))
        out["values"] = [str(v.get("userEnteredValue", v.get("relativeDate", ""))) for v in cond.get("values") or []]
        fmt = rule.get("format") or {}
        fill = _colour(fmt, "backgroundColor", theme)
        if fill:
            out["fill"] = fill
        color = _colour(fmt.get("textFormat") or {}, "foregroundColor", theme)
        if color:
            out["color"] = color
        for k in ("bold", "italic", "strikethrough", "underline"):
            if k in (fmt.get("textFormat") or {}):
                out[k] = bool(fmt["textFormat"][k])
    elif "gradientRule" in cf:
        out["type"] = "gradient"
        g = cf["gradientRule"] or {}
        out["colors"] = [c for c in (_colour(g.get(k) or {}, "color", theme) for k in ("minpoint", "midpoint", "maxpoint")) if c]
    return out


def _cell(sheet: str, page: int, r: int, c: int, cell: Mapping[str, Any], *, theme: Mapping[str, str],
          default_fmt: Mapping[str, Any], cols: _Axis, rows: _Axis, merge: tuple[int, int, int, int] | None,
          covered: tuple[int, int] | None, hidden: bool, style_cache: dict[str, Style]) -> Node | None:
    uev = cell.get("userEnteredValue") or {}
    if covered is not None:
        return None  # inside a merge: not drawn; the merge's top-left cell covers it (as .xlsx)
    fmt0 = cell.get("effectiveFormat") or cell.get("userEnteredFormat") or {}
    filled = _colour(fmt0, "backgroundColor", {}) not in (None, "#ffffff")
    # The .xlsx rule: a value or formula, or a visible mark (fill, border, link, note, checkbox).
    interesting = ("effectiveValue" in cell or "formulaValue" in uev or bool(uev) or "note" in cell
                   or "hyperlink" in cell or filled or bool(fmt0.get("borders"))
                   or ((cell.get("dataValidation") or {}).get("condition") or {}).get("type") == "BOOLEAN")
    if not interesting and merge is None:
        return None
    ref = a1_ref(r, c)
    value, vtype = _value(cell.get("effectiveValue") or (uev if "formulaValue" not in uev else None))
    attrs: dict[str, Any] = {"ref": ref, "row": r + 1, "col": c + 1}
    if vtype is not None:
        attrs["value"] = value
        attrs["data_type"] = vtype
    if "formulaValue" in uev:
        attrs["formula"] = str(uev["formulaValue"])
        m = _IMAGE_FORMULA.match(attrs["formula"])
        if m:
            attrs["image_url"] = m.group(1)
    elif uev:
        entered, _ = _value(uev)
        if entered is not None and entered != value:
            attrs["entered_value"] = entered
    fmt = cell.get("effectiveFormat")
    if fmt is None:
        fmt = _deep_merge(default_fmt, cell.get("userEnteredFormat"))
    nf = (fmt.get("numberFormat") or {})
    attrs["number_format"] = str(nf.get("pattern") or "General")
    nf_type = str(nf.get("type", "")).upper()
    if vtype == "number" and nf_type in ("DATE", "TIME", "DATE_TIME"):
        # Sheets serials count days from 1899-12-30, as Excel's 1900 system does after March 1900
        attrs["serial"] = value
        attrs["value"] = (_EPOCH + timedelta(days=float(value))).isoformat()
        attrs["data_type"] = "date"
    display = cell.get("formattedValue")
    if display is None and value is not None and "formattedValue" not in cell:
        display = ("TRUE" if value else "FALSE") if vtype == "bool" else str(value)
    if cell.get("hyperlink"):
        attrs["hyperlink"] = str(cell["hyperlink"])
    dv = cell.get("dataValidation")
    if dv:
        cond = dv.get("condition") or {}
        ctype = str(cond.get("type", ""))
        attrs["validation_type"] = _VALIDATION_TYPES.get(ctype, ctype.lower())
        if ctype == "BOOLEAN":
            attrs["checkbox"] = True
            attrs["checked"] = value is True
        elif ctype in ("ONE_OF_LIST", "ONE_OF_RANGE"):
            attrs["validation_values"] = [str(v.get("userEnteredValue", "")) for v in cond.get("values") or []]
        if cond.get("values") and ctype not in ("ONE_OF_LIST", "ONE_OF_RANGE"):
            attrs["validation_values"] = [str(v.get("userEnteredValue", "")) for v in cond.get("values") or []]
    if hidden:
        attrs["hidden"] = True
    x0, y0 = cols.start(c), rows.start(r)
    x1, y1 = x0 + cols.size(c), y0 + rows.size(r)
    if merge is not None:
        r0, r1, c0, c1 = merge
        attrs["merge"] = grid_range_a1({"startRowIndex": r0, "endRowIndex": r1, "startColumnIndex": c0, "endColumnIndex": c1})
        attrs["row_span"], attrs["col_span"] = r1 - r0, c1 - c0
        x1, y1 = cols.start(c1), rows.start(r1)
    style = _cached_style(fmt, theme, style_cache)
    if "formula" in attrs and vtype is not None:
        attrs["value_source"] = "cached"  # Sheets returns every formula's computed value
    if cell.get("effectiveFormat") is not None:
        direct = _cached_style(_own_format(default_fmt, cell.get("userEnteredFormat")), theme, style_cache)
        style = _displayed(style, direct, value, attrs, style_cache)
    children: list[Node] = []
    runs = cell.get("textFormatRuns")
    text = str(display or "")
    if runs and text:
        for k, run in enumerate(runs):
            start = int(run.get("startIndex", 0) or 0)
            end = int(runs[k + 1].get("startIndex", len(text)) or 0) if k + 1 < len(runs) else len(text)
            rf = run.get("format") or {}
            rattrs: dict[str, Any] = {}
            link = (rf.get("link") or {}).get("uri")
            if link:
                rattrs["hyperlink"] = link
            children.append(Node(id=f"{sheet}!{ref}/r{k}", kind="run", text=text[start:end], attrs=rattrs,
                                 style=cell_style(fmt, theme, text_format=rf)))
    # Cells are the bulk of a sheet: built without re-validation (values are checked above;
    # the .xlsx extractor does the same), so 100k cells load in seconds.
    box = Box.model_construct(page=page, x0=x0, top=y0, x1=x1, bottom=y1, origin="native", polygon=None)
    if cell.get("note"):
        attrs["comment"] = str(cell["note"])
        children.append(Node(id=f"{sheet}!{ref}/comment", kind="comment", text=str(cell["note"]), source=f"{sheet}!{ref}"))
    if "image_url" in attrs:
        children.append(Node(id=f"{sheet}!{ref}/img", kind="image", boxes=[box],
                             attrs={"src": attrs["image_url"], "in_cell": True}))
    return Node.model_construct(id=f"{sheet}!{ref}", kind="cell", text=text, style=style, attrs=attrs, boxes=[box],
                                source=f"{sheet}!{ref}", children=children)


def extract_gsheet(
    data: Mapping[str, Any],
    *,
    path: str | Path | None = None,
    raw: bytes | None = None,
    pdf: Any = None,
    images: Any = None,
    **_options: Any,
) -> Document:
    """Build the tree of a ``spreadsheets.get`` response (with ``includeGridData=true``;
    a metadata-only response gives sheets without cells, and says so in a warning)."""
    props = data.get("properties") or {}
    theme = _theme(props)
    default_fmt = props.get("defaultFormat") or {}
    sheets = list(data.get("sheets") or [])
    titles = {int((s.get("properties") or {}).get("sheetId", 0) or 0): str((s.get("properties") or {}).get("title") or f"Sheet{k + 1}")
              for k, s in enumerate(sheets)}
    warnings: list[str] = []
    nodes: list[Node] = []
    pages: list[Page] = []
    for i, sheet in enumerate(sheets):
        node, page = _sheet(i, sheet, theme=theme, default_fmt=default_fmt, titles=titles)
        nodes.append(node)
        pages.append(page)
    if sheets and not any(s.get("data") for s in sheets):
        warnings.append("the response has no grid data (fetched without includeGridData=true): sheets have no cells")
    attrs: dict[str, Any] = {"title": props.get("title"), "spreadsheet_id": data.get("spreadsheetId"),
                             "locale": props.get("locale")}
    if data.get("namedRanges"):
        attrs["named_ranges"] = {str(n.get("name")): grid_range_a1(n.get("range") or {}, titles) for n in data["namedRanges"]}
    root = Node(id="doc", kind="document", attrs=attrs, source=data.get("spreadsheetId"), children=nodes)
    fill_container_text(root)
    raw = raw if raw is not None else json.dumps(data, sort_keys=True).encode()
    artifact = ArtifactInfo(format="gsheet", platform="google", sha256=hashlib.sha256(raw).hexdigest(),
                            size_bytes=len(raw), path=str(path) if path is not None else None,
                            producer="Google Sheets API v4")
    tools = [ToolInfo(name="google-sheets-api-v4", version="v4")]
    return Document(artifact=artifact, pages=pages, root=root, tools=tools, warnings=warnings)
