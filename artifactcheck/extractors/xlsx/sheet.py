"""Streaming read of one worksheet part: the grid sizes, the cells that exist in the XML
(as compact tuples), and the sheet-level features (merges, panes, validations,
conditional formats, hyperlinks, drawing/table/comment relationships).

Parsed with ``lxml.etree.iterparse`` (entities and network off, no huge-tree mode), and
each ``<row>`` is freed after it is read, so memory follows the cells present, not the
declared extent: a sheet declaring A1:C1048496 with 100 real cells costs 100 cells.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from functools import lru_cache
from typing import IO, Any

from lxml import etree

from ...errors import ArtifactTooLarge
from ...limits import current_limits
from ..package.xml import charge_elements
from .grid import MAX_COLS, PX_TO_PT, SheetGrid, col_width_chars_to_px, default_col_width_px

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
X14 = "{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}"
XM = "{http://schemas.microsoft.com/office/excel/2006/main}"

_ROW, _C, _V, _F, _IS, _T, _RPH, _RUN = (f"{NS}{t}" for t in ("row", "c", "v", "f", "is", "t", "rPh", "r"))
_TOP_TAGS = tuple(
    f"{NS}{t}"
    for t in (
        "row", "sheetPr", "dimension", "sheetView", "sheetFormatPr", "cols", "mergeCells",
        "conditionalFormatting", "dataValidations", "hyperlinks", "drawing", "legacyDrawing",
        "tableParts", "extLst", "autoFilter", "sortState",
    )
)

# (row, col, style index, type, v text, f text, (f type, f ref, f si) | None, inline text, vm)
CellRecord = tuple[int, int, int, str, str | None, str | None, tuple[str | None, str | None, str | None] | None, str | None, str | None]


@lru_cache(maxsize=20_000)
def col_index(letters: str) -> int:
    """``"A"`` -> 1, ``"XFD"`` -> 16384 (0 when not letters)."""
    n = 0
    for ch in letters.upper():
        o = ord(ch) - 64
        if not 1 <= o <= 26:
            return 0
        n = n * 26 + o
    return n


def split_ref(ref: str) -> tuple[int, int]:
    """``"B3"`` -> (row 3, col 2); (0, 0) when malformed. ``$`` signs are ignored."""
    ref = ref.replace("$", "")
    i = 0
    while i < len(ref) and ref[i].isalpha():
        i += 1
    try:
        return int(ref[i:]), col_index(ref[:i])
    except ValueError:
        return 0, 0


def split_range(rng: str) -> tuple[int, int, int, int] | None:
    """``"A1:C3"`` -> (r0, c0, r1, c1); whole rows/columns (``"A:A"``, ``"2:2"``) extend to
    the sheet edge. None when malformed."""
    from .grid import MAX_ROWS

    parts = rng.replace("$", "").split(":")
    if len(parts) == 1:
        r, c = split_ref(parts[0])
        return (r, c, r, c) if r and c else None
    a, b = parts[0], parts[-1]
    if a.isalpha() and b.isalpha():
        return (1, col_index(a), MAX_ROWS, col_index(b))
    if a.isdigit() and b.isdigit():
        return (int(a), 1, int(b), MAX_COLS)
    r0, c0 = split_ref(a)
    r1, c1 = split_ref(b)
    if not (r0 and c0 and r1 and c1):
        return None
    return (min(r0, r1), min(c0, c1), max(r0, r1), max(c0, c1))


@dataclass
class SheetXml:
    grid: SheetGrid
    cells: list[CellRecord] = field(default_factory=list)
    merges: list[str] = field(default_factory=list)
    dimension: str | None = None
    view: dict[str, Any] = field(default_factory=dict)
    tab_color: etree._Element | None = None
    cond_formats: list[etree._Element] = field(default_factory=list)
    validations: list[etree._Element] = field(default_factory=list)
    x14_validations: list[etree._Element] = field(default_factory=list)
    x14_cond_formats: list[etree._Element] = field(default_factory=list)
    hyperlinks: list[dict[str, str | None]] = field(default_factory=list)
    drawing_rid: str | None = None
    legacy_drawing_rid: str | None = None
    table_rids: list[str] = field(default_factory=list)
    autofilter: etree._Element | None = None
    sort_state: etree._Element | None = None
    sparkline_groups: list[etree._Element] = field(default_factory=list)
    col_styles: list[tuple[int, int, int]] = field(default_factory=list)  # (min, max, style index)
    # (row, col) -> a copy of an inline string's <is> with formatted runs (openpyxl's
    # CellRichText writes them so): the runs become run nodes as shared strings' do
    rich_inline: dict[tuple[int, int], etree._Element] = field(default_factory=dict)


def _is_true(v: str | None) -> bool:
    return v is not None and v.lower() in ("1", "true")


def _inline_text(el: etree._Element) -> str:
    return "".join(t.text or "" for t in el.iter(_T) if t.getparent().tag != _RPH)


def read_sheet_xml(
    stream: IO[bytes],
    *,
    mdw: int,
    digit_pt: float | None = None,
) -> SheetXml:
    """Read one worksheet part. ``mdw``: maximum digit width of the workbook's default
    font (pixels), the unit of column widths in Excel; ``digit_pt``: the same unit as
    LibreOffice draws it (``fonts.metrics.lo_digit_width_pt``), for the widths text is
    judged against (``SheetGrid.fit_left``); None: Excel's widths there too."""
    grid: SheetGrid | None = None
    out: SheetXml | None = None
    base_col_width = 8
    default_col_w_px: int | None = None
    default_col_chars: float | None = None
    default_row_h = 15.0
    pending_cols: list[etree._Element] = []
    cells: list[CellRecord] = []
    rich_inline: dict[tuple[int, int], etree._Element] = {}
    append = cells.append
    last_row = 0
    col_styles: list[tuple[int, int, int]] | None = None  # <col style> ranges, once <cols> is read
    col_style_of: dict[int, int] = {}  # column -> its <col style> (0: none), as cells ask
    extras: dict[str, Any] = {"merges": [], "cf": [], "dv": [], "x14dv": [], "x14cf": [], "links": [], "tables": [],
                              "autofilter": None, "sort": None, "sparklines": []}
    view: dict[str, Any] = {}
    dimension = None
    tab_color = None
    drawing_rid = legacy_rid = None

    def ensure_grid() -> SheetGrid:
        nonlocal grid
        if grid is None:
            col_w = (default_col_w_px if default_col_w_px is not None
                     else default_col_width_px(base_col_width=base_col_width, mdw=mdw)) * PX_TO_PT
            fit_w = default_col_chars * digit_pt if default_col_chars is not None and digit_pt else None
            grid = SheetGrid(
                default_col_width=col_w, default_row_height=default_row_h, mdw=mdw, default_fit_width=fit_w
            )
            for col in pending_cols:
                _add_cols(grid, col, mdw, digit_pt)
        return grid

    context = etree.iterparse(
        stream,
        events=("end",),
        tag=_TOP_TAGS,
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        huge_tree=False,
        remove_comments=True,
        remove_pis=True,
    )
    # The elements of a streamed part are counted as they are read (parse_xml counts
    # the parts it parses whole): a row charges itself and its cells.
    element_limit = current_limits().xml_part_elements
    elements = 0
    for _event, el in context:
        tag = el.tag
        elements += 1 + len(el)
        if elements > element_limit:
            raise ArtifactTooLarge(f"a worksheet part holds more than {element_limit} XML elements "
                                   f"({current_limits().describe('xml_part_elements')})")
        if tag == _ROW:
            g = ensure_grid()
            r_attr = el.get("r")
            try:
                rnum = int(r_attr) if r_attr else last_row + 1
            except ValueError:
                rnum = last_row + 1
            last_row = rnum
            ht = el.get("ht")
            hidden = _is_true(el.get("hidden"))
            if ht is not None or hidden:
                try:
                    height = float(ht) if ht is not None else g.default_row_height
                except ValueError:
                    height = g.default_row_height
                g.add_row(rnum, height, hidden=hidden, custom=_is_true(el.get("customHeight")))
            if ht is not None:
                g.stored_rows.add(rnum)
            # A cell without its own s= shows its row's format (a row with customFormat),
            # else its column's (<col style>), as LibreOffice draws it: openpyxl writes
            # row_dimensions[r].fill / column_dimensions["B"].fill that way, and its
            # default-styled cells carry no s= (a highlighted row read as unfilled).
            row_s = el.get("s") if _is_true(el.get("customFormat")) else None
            row_style = int(row_s) if row_s and row_s.isdigit() else None
            if col_styles is None:
                col_styles = _col_styles(pending_cols)  # <cols> comes before <sheetData>
            col = 0
            for c in el:
                if c.tag != _C:
                    continue
                ref = c.get("r")
                if ref:
                    i = 0
                    n = len(ref)
                    while i < n and ref[i] >= "A":
                        i += 1
                    col = col_index(ref[:i]) or col + 1
                else:
                    col += 1
                v = f = inline = None
                fmeta = None
                for ch in c:
                    t = ch.tag
                    if t == _V:
                        v = ch.text
                    elif t == _F:
                        f = ch.text
                        if ch.get("t"):
                            fmeta = (ch.get("t"), ch.get("ref"), ch.get("si"))
                    elif t == _IS:
                        inline = _inline_text(ch)
                        if ch.find(_RUN) is not None:
                            rich_inline[(rnum, col)] = copy.deepcopy(ch)
                s = c.get("s")
                if s is not None and s.isdigit():
                    style = int(s)
                elif row_style is not None:
                    style = row_style
                else:
                    style = col_style_of.get(col, -1)
                    if style < 0:  # one scan per column, not per cell (a hostile file has 16k <col>s)
                        style = col_style_of[col] = _column_style(col_styles, col)
                append((rnum, col, style, c.get("t") or "n", v, f, fmeta, inline, c.get("vm")))
            el.clear()
            parent = el.getparent()
            if parent is not None:
                while el.getprevious() is not None:
                    del parent[0]
            continue
        parent = el.getparent()
        local = tag[len(NS):]
        if local == "sheetFormatPr":
            try:
                base_col_width = int(float(el.get("baseColWidth", "8")))
                if el.get("defaultColWidth"):
                    default_col_chars = float(el.get("defaultColWidth", "0"))
                    default_col_w_px = col_width_chars_to_px(default_col_chars, mdw)
                default_row_h = float(el.get("defaultRowHeight", "15"))
            except ValueError:
                pass
        elif local == "cols":
            pending_cols.extend(el.findall(f"{NS}col"))
        elif local == "sheetPr":
            tab_color = el.find(f"{NS}tabColor")
        elif local == "dimension":
            dimension = el.get("ref")
        elif local == "sheetView":
            if not view:  # the first view is the one Excel opens with
                view = dict(el.attrib)
                pane = el.find(f"{NS}pane")
                if pane is not None:
                    view["pane"] = dict(pane.attrib)
        elif local == "mergeCells":
            extras["merges"].extend(m.get("ref", "") for m in el.findall(f"{NS}mergeCell"))
        elif local == "conditionalFormatting" and parent is not None and parent.tag == f"{NS}worksheet":
            extras["cf"].append(el)
        elif local == "dataValidations":
            extras["dv"].extend(el.findall(f"{NS}dataValidation"))
        elif local == "hyperlinks":
            for h in el.findall(f"{NS}hyperlink"):
                extras["links"].append({
                    "ref": h.get("ref"), "rid": h.get(f"{R}id"), "location": h.get("location"),
                    "display": h.get("display"), "tooltip": h.get("tooltip"),
                })
        elif local == "drawing":
            drawing_rid = el.get(f"{R}id")
        elif local == "legacyDrawing":
            legacy_rid = el.get(f"{R}id")
        elif local == "tableParts":
            extras["tables"].extend(t.get(f"{R}id") for t in el.findall(f"{NS}tablePart"))
        elif local == "extLst" and parent is not None and parent.tag == f"{NS}worksheet":
            extras["x14dv"].extend(el.iter(f"{X14}dataValidation"))
            extras["x14cf"].extend(el.iter(f"{X14}conditionalFormatting"))
            extras["sparklines"].extend(el.iter(f"{X14}sparklineGroup"))
        elif local == "autoFilter" and parent is not None and parent.tag == f"{NS}worksheet":
            extras["autofilter"] = el
        elif local == "sortState" and parent is not None and parent.tag == f"{NS}worksheet":
            extras["sort"] = el
    charge_elements(elements, path=None, part="a worksheet")
    g = ensure_grid()
    out = SheetXml(grid=g, cells=cells, rich_inline=rich_inline)
    out.merges = [m for m in extras["merges"] if m]
    out.dimension = dimension
    out.view = view
    out.tab_color = tab_color
    out.cond_formats = extras["cf"]
    out.validations = extras["dv"]
    out.x14_validations = extras["x14dv"]
    out.x14_cond_formats = extras["x14cf"]
    out.hyperlinks = extras["links"]
    out.drawing_rid = drawing_rid
    out.legacy_drawing_rid = legacy_rid
    out.table_rids = [t for t in extras["tables"] if t]
    out.autofilter = extras["autofilter"]
    out.sort_state = extras["sort"]
    out.sparkline_groups = extras["sparklines"]
    out.col_styles = _col_styles(pending_cols)
    return out


def _column_style(col_styles: list[tuple[int, int, int]], col: int) -> int:
    """The style index ``<col style>`` gives column ``col`` (0: none)."""
    for lo, hi, idx in col_styles:
        if lo <= col <= hi:
            return idx
    return 0


def _col_styles(cols: list[etree._Element]) -> list[tuple[int, int, int]]:
    """``<col style>`` of columns: the format of the column's cells that are not written."""
    out = []
    for col in cols:
        st = col.get("style")
        if not st or not st.isdigit() or st == "0":
            continue
        try:
            out.append((int(col.get("min", "0")), int(col.get("max", col.get("min", "0"))), int(st)))
        except ValueError:
            continue
    return out


def _add_cols(grid: SheetGrid, col: etree._Element, mdw: int, digit_pt: float | None) -> None:
    try:
        lo = int(col.get("min", "0"))
        hi = int(col.get("max", str(lo)))
    except ValueError:
        return
    hidden = _is_true(col.get("hidden"))
    width_attr = col.get("width")
    fit_pt = None
    try:
        width_pt = col_width_chars_to_px(float(width_attr), mdw) * PX_TO_PT if width_attr else grid.default_col_width
        if width_attr and digit_pt:
            fit_pt = max(0.0, float(width_attr)) * digit_pt
    except ValueError:
        width_pt = grid.default_col_width
    if width_attr is None and not hidden:
        return  # a style-only <col>: geometry is the default
    grid.add_cols(lo, hi, width_pt, hidden=hidden, fit_width_pt=fit_pt)
