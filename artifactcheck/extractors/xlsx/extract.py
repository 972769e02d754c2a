"""The .xlsx extractor: one ``sheet`` node (and one ``Page(kind="sheet")``) per sheet in
workbook order, ``row`` nodes holding ``cell`` nodes, and the drawing's images, charts
and shapes, every box in points on the sheet's grid canvas (origin: top-left of A1).

Tree shape (design/xlsx-geometry.md)::

    document
      sheet "Data"                      attrs: grid sizes, merges, panes, validations, CF, tables
        row "Data!1:1"                  one per row that has an emitted cell
          cell "Data!A1"                value, formula, number format, displayed text, overflow
            comment "Data!A1/comment"   (when the cell has a note)
            run "Data!A1/r0"            (rich text: one per run, with its own style)
            image "Data!A1/picture"     (a picture placed in the cell)
        image / chart / shape / textbox / group "Data!drawing1/pic3"

Cells emitted: every cell with a value or formula, and every empty cell that has a fill,
a border, a hyperlink, a comment or an in-cell checkbox (so highlighted empty cells count). Cells covered by a merge are
not emitted; the top-left cell's box covers the merge.

The workbook is read with lxml straight from the zip (styles, shared strings, streamed
sheets, drawings, charts, comments, tables): openpyxl loads every cell into Python
objects and drops drawing detail, and a second ``data_only`` load would double the cost.
openpyxl supplies helpers: built-in number formats, date conversion, colour index,
formula translation of shared formulas.
"""

from __future__ import annotations

import datetime as dt
import gc
import math
from bisect import bisect_left, bisect_right
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

from lxml import etree
from openpyxl.utils import get_column_letter

from ...digest import file_digest
from ...errors import ArtifactCheckError, ArtifactTooLarge, CorruptArtifact, UnsupportedFormat
from ...model import ArtifactInfo, Blob, Box, Document, Node, Page, Style, ToolInfo, describe_image
from ...model.node import NO_CHILDREN
from ..fonts.metrics import (
    MAX_MEASURED_CHARS,
    em_measurer,
    lo_digit_width_pt,
    lo_line_height_pt,
    max_digit_width_px,
    resolve_font,
)
from ..package.inspection import inspect_package
from ..package.xml import one_line
from ..tree_builder import compact_attrs, fill_container_text
from .autofit import measurable, needed_height
from .cell_index import CellIndex
from .conditional_formats import apply_conditional_formats
from .display_style import DisplayStyler
from .drawing import DrawingReader
from .features import (
    read_comments,
    read_conditional_formats,
    read_data_validations,
    read_table,
)
from .filters import read_autofilter, read_sort_state
from .grid import MAX_COLS, SheetGrid
from .nodes import make_box, make_node
from .number_format import (
    CELL_TEXT_MARGINS_PT,
    format_colour,
    format_value,
    general_in_width,
    is_date,
    lo_general,
)
from .overflow import INDENT_PT, PADDING_PT, classify, wrap_lines
from .parts import Parts
from .pivots import read_pivot
from .recalc import Recalculation, RecalculationFailed, needs_recalculation
from .richdata import read_cell_pictures
from .sheet import SheetXml, read_sheet_xml, split_range, split_ref
from .sparklines import read_sparklines
from .styles import (
    THEME_ORDER,
    CellFormat,
    Stylesheet,
    read_run_font,
    read_stylesheet,
    read_theme_colours,
    run_style,
)
from .table_styles import TableStyles, table_cell_style
from .threads import Thread, read_persons, read_threads

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_T, _RPH, _SI, _R_RUN, _RPR = f"{NS}t", f"{NS}rPh", f"{NS}si", f"{NS}r", f"{NS}rPr"
MAX_CELL_CHARS = 32_767  # Excel's limit for one cell; longer strings are cut (with a warning)
_SHARE_MAX = 65_536  # entries per sharing table: bounded even when every value differs

_V = TypeVar("_V", str, int, float)


def _shared(table: dict[_V, _V], value: _V) -> _V:
    """The first value equal to ``value`` seen in ``table`` (one object for a value a
    sheet repeats); ``value`` itself once the table holds ``_SHARE_MAX`` entries."""
    got = table.get(value)
    if got is not None:
        return got
    if len(table) < _SHARE_MAX:
        table[value] = value
    return value
MAX_TOTAL_TEXT_CHARS = 50_000_000  # all cell text of a workbook; beyond it: ArtifactTooLarge
MAX_EXPANDED_CELLS = 200_000  # a hyperlink/table range larger than this is not expanded per cell
_SHEET_TYPES = {"worksheet", "chartsheet", "dialogsheet", "xlMacrosheet"}


def extract_xlsx(
    path: str | Path, *, today: dt.date | str | None = None, recalculate: bool = True, **options: Any
) -> Document:
    """Read a .xlsx/.xlsm file into a Document (see the module docstring).

    ``today``: the date ``TODAY()`` and date-period conditional formats are evaluated
    against (a date or ISO string; default: the day of extraction). ``recalculate``:
    formulas the file never calculated (openpyxl output) get their values from a
    LibreOffice recalculation (cached by content; ``recalc.py``); with False, or when
    LibreOffice fails, such cells are ``value_unknown``. ``timeout``: seconds allowed
    for LibreOffice (default 120).

    Raises ``UnsupportedFormat`` (not a spreadsheet, Strict OOXML), ``CorruptArtifact``
    (broken zip/XML, missing parts) or its subclasses, always naming the file."""
    p = Path(path)
    info = inspect_package(p)
    if info.format != "xlsx":
        raise UnsupportedFormat(f"this is a {info.format} package, not a spreadsheet", path=p)
    extractor = _Extractor(p, info.main_part)
    extractor.today = dt.date.fromisoformat(today) if isinstance(today, str) else today
    if recalculate:
        extractor.recalc = Recalculation(p, timeout=float(options.get("timeout", 120)))
    # The tree is hundreds of thousands of small acyclic objects: the cyclic garbage
    # collector would rescan them over and over while they are built (~30% of the time).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return extractor.run()
    except ArtifactCheckError:
        raise
    except etree.XMLSyntaxError as exc:
        raise CorruptArtifact(f"part {extractor.current_part} is not well-formed XML: {one_line(exc)}", path=p) from None
    except (MemoryError, RecursionError) as exc:
        raise CorruptArtifact(f"part {extractor.current_part} is too large or deep: {type(exc).__name__}", path=p) from None
    except Exception as exc:
        raise CorruptArtifact(
            f"cannot read part {extractor.current_part}: {type(exc).__name__}: {one_line(exc)}", path=p
        ) from exc
    finally:
        if gc_was_enabled:
            gc.enable()


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


class _Extractor:
    def __init__(self, path: Path, main_part: str) -> None:
        self.path = path
        self.main_part = main_part
        self.current_part = main_part
        self.warnings: list[str] = []
        self.blobs: dict[str, Blob] = {}
        self._warned_fonts: set[str] = set()
        self.text_chars = 0
        self.rich: dict[int, list[tuple[str, Any]]] = {}  # shared string index -> runs
        # (id(cell style), font) -> (cell style kept alive so its id stays its own, run style)
        self._run_styles: dict[tuple[int, Any], tuple[Style, Style]] = {}
        self._measurers: dict[tuple[str | None, bool, bool], Any] = {}
        # One object per distinct date string / width float (a 100k-cell sheet repeats a
        # few hundred of each); separate tables because 1 == 1.0 == True as dict keys.
        self._strs: dict[str, str] = {}
        self._floats: dict[float, float] = {}
        self._ints: dict[int, int] = {}
        self.sheet_cells: dict[str, CellIndex] = {}
        self.today: dt.date | None = None
        self.recalc: Recalculation | None = None
        self.persons: dict[str, str] = {}
        self.defined_names: dict[str, str] = {}  # workbook-level name (lower case) -> formula text
        self.table_refs: dict[str, str] = {}  # table name (lower case) -> "Sheet!A1:D9"
        self.pivots: list[Node] = []
        self.pending_validations: list[tuple[Any, CellIndex, list[dict[str, Any]]]] = []

    # -- workbook -------------------------------------------------------------------
    def run(self) -> Document:
        digest = file_digest(self.path)
        with Parts(self.path) as parts:
            self.parts = parts
            wb = parts.xml(self.main_part)
            if wb.tag != f"{NS}workbook":
                raise UnsupportedFormat(
                    f"main part {self.main_part} is <{etree.QName(wb).localname}> in namespace "
                    f"{etree.QName(wb).namespace}, not a Transitional SpreadsheetML workbook",
                    path=self.path,
                )
            wb_rels = parts.rels(self.main_part)
            pr = wb.find(f"{NS}workbookPr")
            self.date1904 = pr is not None and pr.get("date1904", "0").lower() in ("1", "true")
            calc = wb.find(f"{NS}calcPr")
            # xlsxwriter stores 0 for every formula and asks for a full calculation on
            # load, which Excel makes: the cached values are placeholders
            self.full_calc_on_load = calc is not None and calc.get("fullCalcOnLoad", "0").lower() in ("1", "true")
            if self.full_calc_on_load and self.recalc is not None:
                self.recalc.drop_cached_values = True
            theme_rel = next((r for r in wb_rels.values() if r.type == "theme"), None)
            self.current_part = theme_rel.target if theme_rel else self.main_part
            theme = read_theme_colours(parts.xml_or_none(theme_rel.target if theme_rel else None))
            styles_rel = next((r for r in wb_rels.values() if r.type == "styles"), None)
            self.current_part = styles_rel.target if styles_rel else self.main_part
            styles_root = parts.xml_or_none(styles_rel.target if styles_rel else None)
            self.styles: Stylesheet = read_stylesheet(styles_root, theme)
            self.table_styles = TableStyles(self.styles, styles_root)
            self.styler = DisplayStyler(self.styles.default_font.color)
            sst_rel = next((r for r in wb_rels.values() if r.type == "sharedStrings"), None)
            self.shared: list[str] = self._shared_strings(sst_rel.target) if sst_rel else []
            person_rel = next((r for r in wb_rels.values() if r.type == "person"), None)
            self.current_part = person_rel.target if person_rel else self.main_part
            self.persons = read_persons(parts.xml_or_none(person_rel.target if person_rel else None))
            self.current_part = "xl/metadata.xml"
            self.cell_pictures = read_cell_pictures(parts)
            font = self.styles.default_font
            self.mdw = max_digit_width_px(font.name, font.size or 11.0)
            self.digit_pt = lo_digit_width_pt(font.name, font.size or 11.0)
            self._note_font(font.name)
            pages: list[Page] = []
            sheets: list[Node] = []
            sheet_els = wb.findall(f"{NS}sheets/{NS}sheet")
            if not sheet_els:
                raise CorruptArtifact(f"workbook {self.main_part} lists no sheets", path=self.path)
            self.defined_names = {
                (dn.get("name") or "").lower(): dn.text for dn in wb.iterfind(f"{NS}definedNames/{NS}definedName")
                if dn.get("name") and dn.text and dn.get("localSheetId") is None
            }
            seen: set[str] = set()
            for index, sh in enumerate(sheet_els):
                name = sh.get("name") or f"Sheet{index + 1}"
                if name in seen:
                    name = f"{name}#{index + 1}"
                seen.add(name)
                state = sh.get("state", "visible")
                rel = wb_rels.get(sh.get(f"{R}id") or "")
                page = Page(index=index, kind="sheet", width=0.0, height=0.0, name=name, hidden=state != "visible")
                if rel is None or rel.type not in _SHEET_TYPES or not parts.has(rel.target):
                    self.warnings.append(f"sheet {name!r}: its part is missing; left empty")
                    node = Node(id=name, kind="sheet", attrs={"name": name, "state": state, "missing_part": True},
                                source=None, boxes=[Box(page=index, x0=0, top=0, x1=0, bottom=0)])
                elif rel.type == "worksheet":
                    node = self._worksheet(rel.target, name, index, page)
                else:
                    node = self._chartsheet(rel.target, name, index, page, rel.type)
                node.attrs["state"] = state
                node.attrs["index"] = index
                pages.append(page)
                sheets.append(node)
            self._finish_validations(wb)
            self._pivot_sources()
            # The per-sheet position indexes (a tuple key per cell, ~11 MiB at 100k cells)
            # are done with: free them before the Document indexes the tree, so the two
            # never peak together. Dropping them also breaks the builder <-> extractor
            # cycle, which only the paused collector would otherwise free.
            self.sheet_cells.clear()
            self.pending_validations.clear()
            active = wb.find(f"{NS}bookViews/{NS}workbookView")
            root_attrs: dict[str, Any] = {"date1904": self.date1904}
            if active is not None and active.get("activeTab"):
                try:
                    root_attrs["active_sheet"] = sheets[int(active.get("activeTab", "0"))].id
                except (ValueError, IndexError):
                    pass
            named = self._named_ranges(wb, [s.id for s in sheets])
            if named:
                root_attrs["named_ranges"] = named
            root_attrs["default_font"] = {"name": font.name, "size": font.size}
            root_attrs["max_digit_width_px"] = self.mdw
            root_attrs["theme_colors"] = dict(zip(THEME_ORDER, self.styles.colours.theme))
            producer = self._producer()
        root = Node(id="doc", kind="document", attrs=root_attrs, children=sheets, source=self.main_part)
        fill_container_text(root)
        return Document(
            artifact=ArtifactInfo(
                format="xlsx",
                platform="office",
                sha256=digest.sha256,
                size_bytes=digest.size_bytes,
                path=str(self.path),
                producer=producer,
            ),
            pages=pages,
            root=root,
            blobs=self.blobs,
            tools=[
                ToolInfo(name="lxml", version=etree.__version__),
                ToolInfo(name="openpyxl (helpers)", version=_version("openpyxl")),
                ToolInfo(name="fonttools", version=_version("fonttools")),
            ],
            warnings=self.warnings,
        )

    def _pivot_sources(self) -> None:
        """A pivot whose source is a table or defined name gets the range it names
        (``source_range``), once every sheet's tables are known."""
        for node in self.pivots:
            source = str(node.attrs.get("source") or "")
            if not source or "!" in source:
                if source:
                    node.attrs["source_range"] = source.replace("$", "")
                continue
            ref = self.table_refs.get(source.lower()) or self.defined_names.get(source.lower())
            if ref is not None:
                node.attrs["source_range"] = ref.lstrip("=").replace("$", "")

    def _finish_validations(self, wb: etree._Element) -> None:
        """Fill list validations that point at a range (or a defined name for one) with
        the displayed texts of that range's cells, then mark the validated cells."""
        names: dict[str, str] = {}
        for dn in wb.iterfind(f"{NS}definedNames/{NS}definedName"):
            if dn.get("name") and dn.text and dn.get("localSheetId") is None:
                names[dn.get("name", "").lower()] = dn.text
        for builder, by_pos, dvs in self.pending_validations:
            for dv in dvs:
                if dv.get("type") == "list" and dv.get("values") is None and dv.get("formula1"):
                    resolved = self._list_from_range(str(dv["formula1"]), builder.name, names)
                    if resolved is not None:
                        dv["values_ref"], dv["values"] = resolved
                        dv["checkbox"] = _is_boolean_pair(dv["values"])
            if dvs:
                builder.node.attrs["data_validations"] = dvs
                builder._mark_ranges(by_pos, dvs, builder._apply_validation)

    @staticmethod
    def _named_ranges(wb: etree._Element, sheet_names: list[str]) -> dict[str, str]:
        """Defined names that stand for a range: ``{name: "Sheet!A1:D9"}`` (absolute
        markers dropped). A name local to a sheet is keyed ``Sheet!name``. Excel's own
        names (``_xlnm.Print_Area``...) and formulas that are not one range are left out."""
        out: dict[str, str] = {}
        for dn in wb.iterfind(f"{NS}definedNames/{NS}definedName"):
            name, text = dn.get("name") or "", (dn.text or "").strip().lstrip("=")
            if not name or not text or name.startswith("_xlnm.") or "," in text or "(" in text:
                continue
            sheet_part, sep, ref = text.rpartition("!")
            if not sep or split_range(ref.replace("$", "")) is None:
                continue
            local = dn.get("localSheetId")
            if local is not None:
                try:
                    name = f"{sheet_names[int(local)]}!{name}"
                except (ValueError, IndexError):
                    continue
            out[name] = f"{sheet_part}!{ref.replace('$', '')}"
        return out

    def _list_from_range(self, formula: str, sheet: str, names: dict[str, str]) -> tuple[str, list[str]] | None:
        ref = formula.strip().lstrip("=")
        ref = names.get(ref.lower(), ref).strip().lstrip("=")
        if "!" in ref:
            sheet_part, ref = ref.rsplit("!", 1)
            sheet = sheet_part.strip("'").replace("''", "'")
        rect = split_range(ref)
        cells = self.sheet_cells.get(sheet)
        if rect is None or cells is None:
            return None
        r0, c0, r1, c1 = rect
        if (r1 - r0 + 1) * (c1 - c0 + 1) > 10_000:
            return None
        values = [cells[(r, c)].text for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                  if (r, c) in cells and cells[(r, c)].text]
        return f"{sheet}!{ref}", values

    def _producer(self) -> str | None:
        app = self.parts.xml_or_none("docProps/app.xml")
        if app is None:
            return None
        ns = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"
        name = app.findtext(f"{ns}Application")
        ver = app.findtext(f"{ns}AppVersion")
        return " ".join(x for x in (name, ver) if x) or None

    def share_str(self, s: str) -> str:
        """The first equal string seen (bounded table: past it, ``s`` itself)."""
        return _shared(self._strs, s)

    def share_int(self, n: int) -> int:
        """The first equal int seen (date serials: a column of dates repeats a few hundred)."""
        return _shared(self._ints, n)

    def share_float(self, x: float) -> float:
        """The first equal float seen; zeros are not shared (0.0 == -0.0 but prints apart)."""
        return _shared(self._floats, x) if x else x

    def measurer(self, family: str | None, bold: bool, italic: bool) -> Any:
        key = (family, bold, italic)
        m = self._measurers.get(key)
        if m is None:
            self._note_font(family)
            m = self._measurers[key] = em_measurer(family, bold=bold, italic=italic)[1]
        return m

    def _note_font(self, family: str | None) -> None:
        if family in self._warned_fonts:
            return
        self._warned_fonts.add(family or "")
        face = resolve_font(family)
        if face.substituted:
            self.warnings.append(
                f"font {family!r} has no metric-compatible font installed; text widths are "
                f"measured with {face.family} and are approximate"
                + (" (DejaVu Sans fallback)" if face.fallback else "")
            )

    def _shared_strings(self, part: str) -> list[str]:
        self.current_part = part
        out: list[str] = []
        if not self.parts.has(part):
            self.warnings.append(f"shared strings part {part} is missing")
            return out
        with self.parts.open(part) as fh:
            for _ev, si in etree.iterparse(
                fh, events=("end",), tag=_SI, resolve_entities=False, no_network=True,
                load_dtd=False, huge_tree=False,
            ):
                text = "".join(t.text or "" for t in si.iter(_T) if t.getparent().tag != _RPH)
                if si.find(_R_RUN) is not None:
                    self.rich[len(out)] = self.rich_runs(si)
                if len(text) > MAX_CELL_CHARS:
                    self.warnings.append(
                        f"shared string {len(out)} has {len(text)} characters, more than Excel's "
                        f"{MAX_CELL_CHARS}; cut to that length"
                    )
                    text = text[:MAX_CELL_CHARS]
                out.append(text)
                si.clear()
                while si.getprevious() is not None:
                    del si.getparent()[0]
        return out

    # -- sheets ---------------------------------------------------------------------
    def _chartsheet(self, part: str, name: str, index: int, page: Page, kind: str) -> Node:
        self.current_part = part
        root = self.parts.xml(part)
        grid = SheetGrid(default_col_width=64 * 0.75, default_row_height=15.0, mdw=self.mdw)
        children: list[Node] = []
        width = height = 0.0
        drawing = root.find(f"{NS}drawing")
        if drawing is not None:
            rel = self.parts.rels(part).get(drawing.get(f"{R}id") or "")
            if rel is not None and self.parts.has(rel.target):
                res = self._drawing(rel.target, grid, index, name)
                children.extend(res[0])
                width, height = res[1]
        if kind != "chartsheet":
            self.warnings.append(f"sheet {name!r} is a {kind}; only its drawing is read")
        page.width, page.height = width, height
        return Node(
            id=name, kind="sheet", attrs={"name": name, "sheet_type": kind}, source=part,
            boxes=[Box(page=index, x0=0, top=0, x1=width, bottom=height)], children=children,
        )

    def _drawing(self, part: str, grid: SheetGrid, index: int, name: str) -> tuple[list[Node], tuple[float, float]]:
        self.current_part = part
        stem = part.rsplit("/", 1)[-1].removesuffix(".xml")
        res = DrawingReader(self.parts, part, grid=grid, page=index, id_prefix=f"{name}!{stem}").read()
        self.blobs.update(res.blobs)
        self.warnings.extend(res.warnings)
        return res.nodes, res.extent

    def _worksheet(self, part: str, name: str, index: int, page: Page) -> Node:
        self.current_part = part
        with self.parts.open(part) as fh:
            sx = read_sheet_xml(fh, mdw=self.mdw, digit_pt=self.digit_pt)
        builder = _SheetBuilder(self, sx, part, name, index, page)
        self._fill_uncalculated(sx, name, builder)
        self.current_part = part
        return builder.build()

    def rich_runs(self, string: etree._Element) -> list[tuple[str, Any]]:
        """(text, font) of each formatted run of a string (``<si>`` or ``<is>``)."""
        runs = []
        for r in string.iterfind(_R_RUN):
            rpr = r.find(_RPR)
            font = read_run_font(rpr, self.styles.colours) if rpr is not None else None
            runs.append(("".join(t.text or "" for t in r.iter(_T)), font))
        return runs

    def _fill_uncalculated(self, sx: SheetXml, name: str, builder: _SheetBuilder) -> None:
        """Give formulas without a cached value the value LibreOffice computes; mark
        the builder's cells that got one, and those that could not (with why)."""
        everything = self.full_calc_on_load  # every cached value is a placeholder
        missing = {(rec[0], rec[1]): i for i, rec in enumerate(sx.cells)
                   if (rec[5] is not None or rec[6] is not None)
                   and (everything or (rec[4] is None and needs_recalculation(rec[3], rec[4], rec[5], rec[6], rec[7])))}
        if not missing:
            return
        if self.recalc is None:
            builder.value_unknown = dict.fromkeys(missing, "never calculated, and recalculate=False")
            return
        try:
            values = self.recalc.values(name, set(missing))
        except RecalculationFailed as exc:
            reason = f"never calculated, and LibreOffice could not recalculate it ({exc})"
            if not any("could not recalculate" in w for w in self.warnings):
                self.warnings.append(f"formulas without cached values were not recalculated: {exc}")
            builder.value_unknown = dict.fromkeys(missing, reason)
            return
        for pos, i in missing.items():
            got = values.get(pos)
            if got is None:
                builder.value_unknown[pos] = "never calculated, and absent from LibreOffice's recalculation"
                continue
            t, v = got
            if t == "e" and v == "#NAME?":
                builder.value_unknown[pos] = "LibreOffice does not know a function of this formula (#NAME?)"
                continue
            r, c, s, _t, _v, f, fmeta, _inline, vm = sx.cells[i]
            sx.cells[i] = (r, c, s, t, v, f, fmeta, None, vm)
            builder.recalculated.add(pos)


class _SheetBuilder:
    """Turns one parsed worksheet into its sheet node."""

    def __init__(self, ex: _Extractor, sx: SheetXml, part: str, name: str, index: int, page: Page) -> None:
        self.ex = ex
        self.sx = sx
        self.grid = sx.grid
        self.part = part
        self.name = name
        self.index = index
        self.page = page
        self.rels = ex.parts.rels(part)
        self._col_span: dict[int, tuple[float, float]] = {}  # column -> (x0, x1)
        self._row_span: dict[int, tuple[float, float]] = {}  # row -> (top, bottom)
        # The current row's A1 refs by column: a clipped cell's ``blocked_by`` and its
        # neighbour's ``ref`` are then one string object, not two (~54 bytes a clipped cell).
        self._refs_row = 0
        self._refs: dict[int, str] = {}
        self.format_colours: dict[tuple[int, int], str] = {}  # cell -> its number format's colour
        self.recalculated: set[tuple[int, int]] = set()  # formula cells valued by LibreOffice
        self.value_unknown: dict[tuple[int, int], str] = {}  # formula cells without a value: why

    def build(self) -> Node:
        ex, sx, grid = self.ex, self.sx, self.grid
        attrs: dict[str, Any] = {"name": self.name, "sheet_type": "worksheet"}
        # Merges: top-left -> (r1, c1); per existing row, the merged column intervals.
        merges: dict[tuple[int, int], tuple[int, int, str]] = {}
        merge_rects: list[tuple[int, int, int, int]] = []
        for ref in sx.merges:
            rect = split_range(ref)
            if rect is None:
                continue
            merges[(rect[0], rect[1])] = (rect[2], rect[3], ref)
            merge_rects.append(rect)
        self._autofit_rows(merge_rects)
        rows_present = sorted({c[0] for c in sx.cells} | {r[0] for r in merge_rects})
        row_intervals: dict[int, list[tuple[int, int]]] = {}
        for r0, c0, r1, c1 in merge_rects:
            lo, hi = bisect_left(rows_present, r0), bisect_right(rows_present, r1)
            for r in rows_present[lo:hi]:
                row_intervals.setdefault(r, []).append((c0, c1))
        self.links = self._hyperlinks()
        self.comments = self._comments()
        self.threads = self._threads()
        for pos in self.threads:
            self.comments.setdefault(pos, (None, "", ""))  # a thread without its legacy note still makes a cell
        self.sparklines = read_sparklines(sx.sparkline_groups, ex.styles.colours)
        self.sparkline_at = {split_ref(sp["cell"]): sp for sp in self.sparklines if all(split_ref(sp["cell"]))}
        # Shared formulas: si -> (master formula, master ref).
        shared_f: dict[str, tuple[str, str]] = {}
        sheet_children: list[Node] = []
        row_nodes: list[Node] = []
        cells_by_pos = CellIndex()
        max_x = max_y = 0.0
        # Typed loosely: each row's raw records leave the list (None) as the row is built, so
        # the records and the tree never peak together (7 MiB of a 100k-cell sheet's 148).
        cells: list[Any] = sx.cells
        n = len(cells)
        i = 0
        while i < n:
            rnum = cells[i][0]
            j = i
            while j < n and cells[j][0] == rnum:
                j += 1
            row_cells = cells[i:j]
            for k in range(i, j):
                cells[k] = None
            i = j
            intervals = row_intervals.get(rnum, [])
            covered = [(c0, c1) for (c0, c1) in intervals]
            # Obstacles for spilling text: non-empty cells and merged ranges.
            starts = sorted({c[1] for c in row_cells if c[4] is not None or c[5] is not None or c[7] is not None}
                            | {c0 for c0, _ in intervals})
            ends = sorted({c[1] for c in row_cells if c[4] is not None or c[5] is not None or c[7] is not None}
                          | {c1 for _, c1 in intervals})
            built: list[Node] = []
            for rec in row_cells:
                r, c = rec[0], rec[1]
                merge = merges.get((r, c))
                if merge is None and covered and any(c0 <= c <= c1 for c0, c1 in covered):
                    continue  # hidden under a merge
                node = self._cell(rec, merge, starts, ends, shared_f)
                if node is not None:
                    built.append(node)
                    cells_by_pos[(r, c)] = node
                    b = node.boxes[0]
                    max_x = max(max_x, b.x1)
                    max_y = max(max_y, b.bottom)
            if built:
                top = grid.row_top(rnum)
                row_attrs: dict[str, Any] = {"row": rnum, "height_pt": grid.row_height(rnum)}
                if rnum in grid.autofit_rows:
                    row_attrs["autofit"] = True
                if grid.row_height(rnum) == 0:
                    row_attrs["hidden"] = True
                row_nodes.append(make_node(
                    f"{self.name}!{rnum}:{rnum}", kind="row", attrs=compact_attrs(row_attrs),
                    boxes=[make_box(self.index, 0.0, top, 0.0, top + grid.row_height(rnum))],
                    source=f"{self.part}#row{rnum}", children=built,
                ))
        # Comments and sparklines on cells that were not emitted get their cell.
        for r, c in [*self.comments, *self.sparkline_at]:
            if (r, c) not in cells_by_pos:
                self._orphan_comment_cell(r, c, row_nodes, cells_by_pos)
                if (r, c) in cells_by_pos:
                    cb = cells_by_pos[(r, c)].boxes[0]
                    max_x, max_y = max(max_x, cb.x1), max(max_y, cb.bottom)
        for rect in merge_rects:
            _, _, x1, y1 = grid.range_rect(*rect)
            max_x, max_y = max(max_x, x1), max(max_y, y1)
        # Drawing (images, charts, shapes).
        drawing_nodes: list[Node] = []
        if sx.drawing_rid and sx.drawing_rid in self.rels and ex.parts.has(self.rels[sx.drawing_rid].target):
            nodes, (dx, dy) = ex._drawing(self.rels[sx.drawing_rid].target, grid, self.index, self.name)
            drawing_nodes = nodes
            max_x, max_y = max(max_x, dx), max(max_y, dy)
        ex.current_part = self.part
        # Row boxes span the used width.
        for rn in row_nodes:
            b = rn.boxes[0]
            rn.boxes[0] = make_box(self.index, 0.0, b.top, max_x, b.bottom)
        sheet_children.extend(row_nodes)
        sheet_children.extend(drawing_nodes)
        attrs.update(self._geometry_attrs())
        if sx.merges:
            attrs["merges"] = list(sx.merges)
        if sx.dimension:
            attrs["declared_dimension"] = sx.dimension
        if cells_by_pos:
            # Generators, not lists of every row and column (1.6 MiB at 100k cells, at the peak).
            r0, r1 = min(cells_by_pos.rows()), max(cells_by_pos.rows())
            c0, c1 = min(cells_by_pos.columns()), max(cells_by_pos.columns())
            attrs["used_range"] = f"{get_column_letter(c0)}{r0}:{get_column_letter(c1)}{r1}"
        attrs.update(self._view_attrs())
        tab = self.ex.styles.colours.resolve(sx.tab_color) if sx.tab_color is not None else None
        if tab:
            attrs["tab_color"] = tab
        dvs = read_data_validations(sx.validations, sx.x14_validations)
        # Validations are applied to cells after every sheet is read: a list may name a
        # range on another sheet (resolved in _Extractor._finish_validations).
        self.ex.sheet_cells[self.name] = cells_by_pos
        self.ex.pending_validations.append((self, cells_by_pos, dvs))
        cfs = read_conditional_formats(sx.cond_formats, sx.x14_cond_formats, self.ex.styles)
        if cfs:
            apply_conditional_formats(cfs, cells_by_pos, today=self.ex.today, date1904=self.ex.date1904)
            attrs["conditional_formats"] = cfs
        tables = self._tables()
        table_layers: dict[tuple[int, int], dict[str, Any]] = {}
        if tables:
            attrs["tables"] = tables
            for t in tables:
                self._mark_table(cells_by_pos, t, table_layers)
        if cfs or table_layers or self.format_colours:
            self._display_styles(cells_by_pos, table_layers)
        self._filter_attrs(attrs)
        if self.sparklines:
            attrs["sparklines"] = self.sparklines
        col_styles = self._column_styles()
        if col_styles:
            attrs["column_styles"] = col_styles
        pivots = self._pivots()
        sheet_children.extend(pivots)
        if sx.legacy_drawing_rid:
            attrs["has_legacy_drawing"] = True
        self.page.width, self.page.height = max_x, max_y
        sx.cells = []  # the raw records are no longer needed; free them before the next sheet
        self.node = Node(
            id=self.name, kind="sheet", attrs=attrs, source=self.part,
            boxes=[Box(page=self.index, x0=0, top=0, x1=max_x, bottom=max_y)], children=sheet_children,
        )
        return self.node

    # -- one cell -------------------------------------------------------------------
    def _cell(
        self,
        rec: tuple[Any, ...],
        merge: tuple[int, int, str] | None,
        starts: list[int],
        ends: list[int],
        shared_f: dict[str, tuple[str, str]],
    ) -> Node | None:
        r, c, s, t, v, f, fmeta, inline, vm = rec
        fmt = self.ex.styles.format(s)
        ref = self._ref(r, c) if 1 <= c <= MAX_COLS else f"C{c}R{r}"
        formula = self._formula(ref, f, fmeta, shared_f)
        value, dtype, serial = self._value(t, v, inline, fmt, ref)
        pos = (r, c)
        link = self.links.get(pos)
        comment = self.comments.get(pos)
        has_content = value is not None or formula is not None
        if not has_content and not (fmt.has_fill or fmt.borders or link or comment or fmt.checkbox or merge
                                    or (self.sparkline_at and pos in self.sparkline_at)):
            return None
        grid = self.grid
        if merge is not None:
            x0, top, x1, bottom = grid.range_rect(r, c, merge[0], merge[1])
        else:
            cols = self._col_span.get(c)
            if cols is None:
                left = grid.col_left(c)
                cols = self._col_span[c] = (left, left + grid.col_width(c))
            rows = self._row_span.get(r)
            if rows is None:
                top0 = grid.row_top(r)
                rows = self._row_span[r] = (top0, top0 + grid.row_height(r))
            x0, x1 = cols
            top, bottom = rows
        attrs: dict[str, Any] = {"row": r, "col": c, "ref": ref, "value": value, "data_type": dtype,
                                 "number_format": fmt.number_format}
        style = fmt.style
        if serial is not None:
            attrs["serial"] = serial
        if formula is not None:
            attrs["formula"] = formula
            if self.recalculated and pos in self.recalculated:
                attrs["cached_value_missing"] = True  # never calculated (e.g. written by openpyxl)
                attrs["value_source"] = "recalculated"
            elif pos in self.value_unknown:
                attrs["cached_value_missing"] = True
                attrs["value_unknown"] = True
                attrs["value_unknown_reason"] = self.value_unknown[pos]
            else:
                attrs["value_source"] = "cached"
        if merge is not None:
            attrs["merge"] = merge[2]
        if fmt.borders:
            attrs["borders"] = fmt.borders
        if fmt.checkbox:
            attrs["checkbox"] = True
            attrs["checked"] = bool(value) if isinstance(value, bool) else None
        picture_node = None
        if vm is not None:
            attrs["value_metadata"] = vm  # a rich value (e.g. a picture in the cell)
            picture = self.ex.cell_pictures.get(vm)
            if picture is not None:
                picture_node = self._cell_picture(f"{self.name}!{ref}", picture, x0, top, x1, bottom)
                attrs["value"], attrs["data_type"], value = None, "image", None
                attrs["image"] = picture_node.attrs["blob"]
        if link:
            attrs["hyperlink"] = link[0]
            if link[1]:
                attrs["hyperlink_tooltip"] = link[1]
        hidden = x1 == x0 or bottom == top
        if hidden:
            attrs["hidden"] = True
        text = ""
        if value is not None:
            shown = format_value(value if serial is None else serial, fmt.number_format, date1904=self.ex.date1904)
            text = shown.text if serial is None else self.ex.share_str(shown.text)
            if (serial is None and dtype == "number" and isinstance(value, (int, float))
                    and fmt.number_format.lower() in ("general", "")):
                # LibreOffice's General text, not Excel's 11 characters: a wide column shows
                # 123456789012 (Excel: 1.23457E+11); a narrow one shortens it (_overflow).
                text = lo_general(value)
            if len(text) > MAX_CELL_CHARS:
                text = text[:MAX_CELL_CHARS]
            self.ex.text_chars += len(text)
            if self.ex.text_chars > MAX_TOTAL_TEXT_CHARS:
                raise ArtifactTooLarge(
                    f"cell text exceeds {MAX_TOTAL_TEXT_CHARS} characters in total (reached at "
                    f"{self.name}!{ref}); the workbook is too large to hold as a tree",
                    path=self.ex.path,
                )
            if not shown.supported:
                attrs["number_format_supported"] = False
        if text and "[" in fmt.number_format:
            colour = self._colour_of(value if serial is None else serial, fmt.number_format)
            if colour is not None:
                self.format_colours[pos] = colour
        if text:
            fitted = self._overflow(text, dtype, value, fmt, x0, x1, top, bottom, r, c, merge, starts, ends, hidden)
            text = fitted.pop("text", text)
            attrs.update(fitted)
        children: list[Node] = [picture_node] if picture_node is not None else []
        cell_id = f"{self.name}!{ref}"
        if t == "s" and self.ex.rich and v is not None and v.isdigit() and int(v) in self.ex.rich:
            children.extend(self._runs(cell_id, self.ex.rich[int(v)], style))
        elif t == "inlineStr" and self.sx.rich_inline and (r, c) in self.sx.rich_inline:
            children.extend(self._runs(cell_id, self.ex.rich_runs(self.sx.rich_inline[(r, c)]), style))
        thread = self.threads.get(pos) if self.threads else None
        if thread is not None:
            attrs["comment"] = thread.first.text
            children.append(self._thread_node(cell_id, thread))
        elif comment:
            attrs["comment"] = comment[1]
            children.append(make_node(
                f"{cell_id}/comment", kind="comment", text=comment[1],
                attrs={"author": comment[0]}, boxes=[], source=comment[2], children=[],
            ))
        spark = self.sparkline_at.get(pos) if self.sparkline_at else None
        if spark is not None:
            attrs["sparkline"] = {k: v for k, v in spark.items() if k != "cell"}
        return make_node(
            cell_id, kind="cell", text=text, style=style, attrs=compact_attrs(attrs),
            boxes=[make_box(self.index, x0, top, x1, bottom)],
            source=cell_id, children=children or NO_CHILDREN,  # most cells are leaves: one shared list
        )

    def _ref(self, r: int, c: int) -> str:
        """``get_column_letter(c) + str(r)``, one object per cell of the current row."""
        if r != self._refs_row:
            self._refs_row, self._refs = r, {}
        ref = self._refs.get(c)
        if ref is None:
            ref = self._refs[c] = f"{get_column_letter(c)}{r}"
        return ref

    def _runs(self, cell_id: str, runs: list[tuple[str, Any]], cell_style: Style) -> list[Node]:
        """Rich-text runs of a cell, each with its effective style (no boxes: the grid
        gives no layout inside a cell)."""
        out = []
        for i, (text, font) in enumerate(runs):
            key = (id(cell_style), font)
            entry = self.ex._run_styles.get(key)
            if entry is None:
                entry = self.ex._run_styles[key] = (cell_style, run_style(cell_style, font))
            st = entry[1]
            out.append(make_node(f"{cell_id}/r{i}", kind="run", text=text, style=st, source=cell_id))
        return out

    def _cell_picture(self, cell_id: str, picture: Any, x0: float, top: float, x1: float, bottom: float) -> Node:
        """The picture shown in a cell ("Place in Cell"): it fills the cell's box."""
        parts = self.ex.parts
        blob = describe_image(parts.read(picture.part), mime=parts.mime(picture.part),
                              name=picture.part.rsplit("/", 1)[-1])
        self.ex.blobs.setdefault(blob.sha256, blob)
        attrs: dict[str, Any] = {"blob": blob.sha256, "in_cell": True, "media_part": picture.part}
        if picture.alt_text:
            attrs["alt_text"] = picture.alt_text
        return make_node(f"{cell_id}/picture", kind="image", attrs=attrs,
                         boxes=[make_box(self.index, x0, top, x1, bottom)], source=picture.part)

    def _formula(self, ref: str, f: str | None, fmeta: tuple[str | None, ...] | None, shared: dict[str, tuple[str, str]]) -> str | None:
        if fmeta is not None and fmeta[0] == "shared" and fmeta[2] is not None:
            si = fmeta[2]
            if f:
                shared[si] = (f, ref)
                return "=" + f
            master = shared.get(si)
            if master is None:
                return None
            try:
                from openpyxl.formula.translate import Translator

                return str(Translator("=" + master[0], origin=master[1]).translate_formula(ref))
            except Exception:  # noqa: BLE001 - an untranslatable formula keeps the master's text
                return "=" + master[0]
        if f is None:
            return None
        return "=" + f

    def _value(self, t: str, v: str | None, inline: str | None, fmt: CellFormat, ref: str) -> tuple[Any, str, float | None]:
        """(JSON value, data type, date serial when the value is a formatted date)."""
        if t == "s":
            if v is None:
                return None, "string", None
            try:
                return self.ex.shared[int(v)], "string", None
            except (ValueError, IndexError):
                self.ex.warnings.append(f"{self.name}!{ref}: shared string index {v!r} out of range")
                return None, "string", None
        if t == "inlineStr":
            return inline, "string", None
        if t == "str":
            return v if v is not None else (inline if inline is not None else None), "string", None
        if t == "b":
            return (None if v is None else v.strip() in ("1", "true")), "bool", None
        if t == "e":
            return v, "error", None
        if t == "d":
            return v, "date", None
        if v is None:
            return None, "number", None
        try:
            num: float | int = float(v)
        except ValueError:
            return v, "string", None
        if not math.isfinite(num):
            return v, "number", None
        if float(num).is_integer() and "." not in v and "e" not in v.lower() and abs(num) < 2**53:
            num = int(num)
        if is_date(fmt.number_format):
            iso = _iso_date(float(num), fmt.number_format, self.ex.date1904)
            if iso is not None:
                serial = self.ex.share_int(num) if type(num) is int else self.ex.share_float(num)
                return self.ex.share_str(iso), "date", serial
        return num, "number", None

    def _overflow(
        self, text: str, dtype: str, value: Any, fmt: CellFormat, x0: float, x1: float, top: float,
        bottom: float, rnum: int, c: int, merge: tuple[int, int, str] | None, starts: list[int], ends: list[int], hidden: bool,
    ) -> dict[str, Any]:
        st = fmt.style
        size = st.size or 11.0
        # A cell may hold 32,767 characters; measure a bounded prefix and scale.
        work = text[:MAX_MEASURED_CHARS]
        scale = len(text) / len(work) if len(work) < len(text) else 1.0
        flat = work.replace("\r", "").replace("\n", "") if ("\n" in work or "\r" in work) else work
        measure = self.ex.measurer(st.font, bool(st.bold), bool(st.italic))
        em, missing = measure(flat)
        full_w = em * size * scale
        kind = "text" if dtype == "string" else ("number" if dtype in ("number", "date") else dtype)
        # Text is judged against the columns as LibreOffice draws them (``fit_left``:
        # an explicit width is ~6% wider there than on the canvas, whose boxes follow
        # Excel's whole pixels); positions written back are the canvas's.
        grid = self.grid
        c_last = merge[1] if merge else c
        fx0, fx1 = grid.fit_left(c), grid.fit_left(c_last + 1)
        indent = INDENT_PT * fmt.indent if fmt.indent and st.align in ("left", "right") else 0.0
        if (not st.wrap and not fmt.rotation and full_w + PADDING_PT + indent <= fx1 - fx0 and not hidden and not missing
                and (size <= 11.0 or rnum not in grid.custom_rows)):
            # The common case: one line that fits its cell; no neighbour matters.
            w = self.ex.share_float(round(full_w, 3))
            return {"overflow": "fits", "visible_width_pt": w, "text_width_pt": w}
        align: str = st.align or "general"
        if align == "general":
            align = {"number": "right", "bool": "center", "error": "center"}.get(kind, "general")
        nxt = bisect_right(starts, c_last)
        right_limit = grid.fit_left(starts[nxt]) if nxt < len(starts) else grid.fit_left(MAX_COLS + 1)
        prv = bisect_left(ends, c) - 1
        left_limit = grid.fit_left(ends[prv] + 1) if prv >= 0 else 0.0
        lines = 1
        line_h = lo_line_height_pt(st.font, size, bold=bool(st.bold))
        def width_of(s: str) -> float:
            return float(measure(s)[0]) * size

        if st.wrap and kind == "text":
            avail = fx1 - fx0 - PADDING_PT - indent
            lines = math.ceil(wrap_lines(work, width_of, avail) * scale)
        general_min = None
        narrowed = None
        if (kind == "number" and full_w + PADDING_PT > fx1 - fx0 and fmt.number_format.lower() == "general"
                and isinstance(value, (int, float))):
            # A General number too wide for its column is drawn shorter (fewer decimals,
            # then scientific), as LibreOffice fits it; ### only when nothing fits.
            room = fx1 - fx0 - CELL_TEXT_MARGINS_PT
            narrowed = text if full_w <= room else general_in_width(value, room, width_of)
            if narrowed is not None:
                general_min = full_w if narrowed == text else width_of(narrowed)
        row_fixed = merge is not None or rnum in self.grid.custom_rows
        out = classify(
            kind=kind, text_w=full_w, x0=fx0, x1=fx1, height=bottom - top, align=align, wrap=bool(st.wrap),
            merged=merge is not None, shrink=fmt.shrink, rotation=fmt.rotation, left_limit=left_limit,
            right_limit=right_limit, line_h=line_h, lines=lines, fixed_height=row_fixed, general_min_w=general_min,
            indent=indent,
        )
        if "spill_to_x" in out:  # back onto the canvas, from the cell's edge it spills past
            spill = out["spill_to_x"]
            out["spill_to_x"] = round(x0 + (spill - fx0) if spill >= fx0 else x1 - (fx1 - spill), 3)
        out["text_width_pt"] = self.ex.share_float(round(full_w, 3))
        if narrowed is not None and narrowed != text and out.get("display_rounded"):
            out["text"] = narrowed  # the caller makes it the cell's text
            out["rounded_from"] = text
        for key in ("visible_width_pt", "spill_to_x"):  # bounded by the distinct widths too
            if key in out:
                out[key] = self.ex.share_float(out[key])
        if out.get("overflow") == "clipped" and kind == "text" and merge is None and not st.wrap:
            # Name the neighbour that stops the spill (evidence for "text is cut off").
            if align in ("left", "general", "center") and nxt < len(starts):
                out["blocked_by"] = self._ref(rnum, starts[nxt])
            elif align == "right" and prv >= 0:
                out["blocked_by"] = self._ref(rnum, ends[prv])
        if missing:
            out["text_width_estimated_chars"] = missing
        if scale != 1.0:
            out["text_width_estimated"] = True
        if hidden:
            out["overflow"] = "hidden"
            out["visible_width_pt"] = 0.0
        return out

    # -- sheet features -------------------------------------------------------------
    def _geometry_attrs(self) -> dict[str, Any]:
        g = self.grid
        out: dict[str, Any] = {
            "default_col_width_pt": g.default_col_width,
            "default_row_height_pt": g.default_row_height,
            "max_digit_width_px": g.mdw,
        }
        if g.col_entries:
            out["col_widths"] = g.col_entries  # [min, max, width_pt, hidden]
        if g.row_entries:
            out["row_heights"] = g.row_entries  # [row, height_pt, hidden, custom]
        return out

    def _view_attrs(self) -> dict[str, Any]:
        view = self.sx.view
        out: dict[str, Any] = {}
        if not view:
            return out
        if view.get("showGridLines") in ("0", "false"):
            out["show_grid_lines"] = False
        if view.get("rightToLeft") in ("1", "true"):
            out["right_to_left"] = True
        if view.get("zoomScale"):
            try:
                out["zoom"] = int(view["zoomScale"])
            except ValueError:
                pass
        if view.get("tabSelected") in ("1", "true"):
            out["tab_selected"] = True
        pane = view.get("pane")
        if isinstance(pane, dict):
            state = pane.get("state", "split")
            try:
                xs = int(float(pane.get("xSplit", "0")))
                ys = int(float(pane.get("ySplit", "0")))
            except ValueError:
                xs = ys = 0
            if state in ("frozen", "frozenSplit"):
                out["freeze_panes"] = pane.get("topLeftCell") or f"{get_column_letter(xs + 1)}{ys + 1}"
                out["frozen_rows"] = ys
                out["frozen_cols"] = xs
            else:
                out["split_panes"] = {"x_split": pane.get("xSplit"), "y_split": pane.get("ySplit")}
        return out

    def _hyperlinks(self) -> dict[tuple[int, int], tuple[str, str | None]]:
        out: dict[tuple[int, int], tuple[str, str | None]] = {}
        for h in self.sx.hyperlinks:
            target = None
            rid = h.get("rid")
            if rid and rid in self.rels:
                target = self.rels[rid].target
                if h.get("location"):
                    target += "#" + str(h["location"])
            elif h.get("location"):
                target = "#" + str(h["location"])
            rect = split_range(h.get("ref") or "")
            if target is None or rect is None:
                continue
            r0, c0, r1, c1 = rect
            if (r1 - r0 + 1) * (c1 - c0 + 1) > MAX_EXPANDED_CELLS:
                self.ex.warnings.append(f"{self.name}: hyperlink range {h.get('ref')} too large to expand")
                continue
            for r in range(r0, r1 + 1):
                for c in range(c0, c1 + 1):
                    out[(r, c)] = (target, h.get("tooltip"))
        return out

    def _comments(self) -> dict[tuple[int, int], tuple[str | None, str, str]]:
        out: dict[tuple[int, int], tuple[str | None, str, str]] = {}
        for rel in self.rels.values():
            if rel.type == "comments" and not rel.external and self.ex.parts.has(rel.target):
                self.ex.current_part = rel.target
                for ref, author, text in read_comments(self.ex.parts.xml(rel.target)):
                    r, c = split_ref(ref)
                    if r and c:
                        out[(r, c)] = (author, text, f"{rel.target}#{ref}")
        self.ex.current_part = self.part
        return out

    def _orphan_comment_cell(self, r: int, c: int, row_nodes: list[Node], by_pos: CellIndex) -> None:
        node = self._cell((r, c, 0, "n", None, None, None, None, None), None, [], [], {})
        if node is None:
            return
        by_pos[(r, c)] = node
        rid = f"{self.name}!{r}:{r}"
        for rn in row_nodes:
            if rn.id == rid:
                rn.children.append(node)
                rn.children.sort(key=lambda n: n.attrs["col"])  # type: ignore[arg-type,return-value]
                return
        top = self.grid.row_top(r)
        new = make_node(
            rid, kind="row", attrs={"row": r, "height_pt": self.grid.row_height(r)},
            boxes=[make_box(self.index, 0.0, top, 0.0, top + self.grid.row_height(r))],
            source=f"{self.part}#row{r}", children=[node],
        )
        row_nodes.append(new)
        row_nodes.sort(key=lambda n: n.attrs["row"])  # type: ignore[arg-type,return-value]

    def _autofit_rows(self, merge_rects: list[tuple[int, int, int, int]]) -> None:
        """Heights of rows the file leaves unsized, as Excel auto-fits them (autofit.py).
        Only cells that can need more than the default height are measured: wrapped
        text and fonts larger than the workbook's default."""
        grid, styles = self.grid, self.ex.styles
        default_size = styles.default_font.size or 11.0
        # Formats that can need more than the default height; most workbooks have none,
        # and then no cell is looked at.
        tall = {i for i, f in enumerate(styles.formats)
                if (f.style.wrap or (f.style.size or default_size) > default_size + 0.01) and not f.rotation}
        if not tall:
            return
        in_merge = {(r, c) for r0, c0, r1, c1 in merge_rects if (r1 - r0 + 1) * (c1 - c0 + 1) <= 10_000
                    for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}
        heights: dict[int, float] = {}
        for r, c, s, t, v, _f, _fm, inline, _vm in self.sx.cells:
            if s not in tall or r in grid.stored_rows or (r, c) in in_merge:
                continue
            fmt = styles.format(s)
            st = fmt.style
            size = st.size or default_size
            text = self._plain_text(t, v, inline, fmt)
            if not text or not measurable(st.font, bold=bool(st.bold), italic=bool(st.italic)):
                continue
            measure = self.ex.measurer(st.font, bool(st.bold), bool(st.italic))

            def width_of(x: str, m: Any = measure, z: float = size) -> float:
                return float(m(x)[0]) * z

            need = needed_height(text, family=st.font, size=size, bold=bool(st.bold), wrap=bool(st.wrap),
                                 width_pt=grid.col_width(c), width_of=width_of)
            if need > max(heights.get(r, 0.0), grid.default_row_height + 0.01):
                heights[r] = need
        grid.set_auto_heights(heights)

    def _plain_text(self, t: str, v: str | None, inline: str | None, fmt: CellFormat) -> str:
        """The text a cell shows, without side effects (no warnings): for auto-fit."""
        if t == "s":
            try:
                return self.ex.shared[int(v or "")]
            except (ValueError, IndexError):
                return ""
        if t in ("inlineStr", "str"):
            return inline if inline is not None else (v or "")
        if v is None:
            return ""
        if t == "n":
            try:
                return format_value(float(v), fmt.number_format, date1904=self.ex.date1904).text
            except ValueError:
                return v
        return v

    def _threads(self) -> dict[tuple[int, int], Thread]:
        out: dict[tuple[int, int], Thread] = {}
        for rel in self.rels.values():
            if rel.type == "threadedComment" and not rel.external and self.ex.parts.has(rel.target):
                self.ex.current_part = rel.target
                for thread in read_threads(self.ex.parts.xml(rel.target), self.ex.persons):
                    r, c = split_ref(thread.ref)
                    if r and c:
                        out[(r, c)] = thread
        self.ex.current_part = self.part
        return out

    def _thread_node(self, cell_id: str, thread: Thread) -> Node:
        """The thread's first comment, its replies as children (threads.py)."""
        replies = [
            make_node(f"{cell_id}/comment/reply{i}", kind="comment", text=reply.text,
                      attrs={"author": reply.author, "created": reply.created, "threaded": True, "reply": True},
                      boxes=[], source=f"{cell_id}#{reply.id}", children=[])
            for i, reply in enumerate(thread.replies, start=1)
        ]
        first = thread.first
        attrs: dict[str, Any] = {"author": first.author, "created": first.created, "threaded": True,
                                 "replies": len(replies)}
        if thread.resolved:
            attrs["resolved"] = True
        return make_node(f"{cell_id}/comment", kind="comment", text=first.text, attrs=attrs,
                         boxes=[], source=f"{cell_id}#{first.id}", children=replies)

    def _filter_attrs(self, attrs: dict[str, Any]) -> None:
        """The sheet's autofilter and sort (filters.py): objects, plus the scalars a
        selector can test (``autofilter``, ``sorted_by``, ``sort_descending``)."""
        af = read_autofilter(self.sx.autofilter)
        sort = read_sort_state(self.sx.sort_state)
        if af is not None:
            attrs["autofilter"] = af["ref"]
            attrs["autofilter_state"] = af
            sort = sort or af.get("sort")
        if sort is not None and sort["conditions"]:
            attrs["sort_state"] = sort
            attrs["sorted_by"] = sort["conditions"][0]["column"]
            attrs["sort_descending"] = sort["conditions"][0]["descending"]

    def _column_styles(self) -> list[dict[str, Any]]:
        """Formats whole columns carry (``<col style>``): what empty, unwritten cells of
        the column show, and what cells typed there later get."""
        out: list[dict[str, Any]] = []
        fallback = self.ex.styles.fallback
        for lo, hi, idx in self.sx.col_styles:
            fmt = self.ex.styles.format(idx)
            style = {k: v for k, v in fmt.style.model_dump(exclude_none=True).items()
                     if getattr(fallback.style, k) != v}
            if fmt.number_format != fallback.number_format:
                style["number_format"] = fmt.number_format
            if not style:
                continue
            if out and out[-1]["style"] == style and int(out[-1]["max"]) + 1 == lo:
                out[-1]["max"] = hi  # adjacent <col> entries with one format: one range
            else:
                out.append({"min": lo, "max": hi, "style": style})
        return out

    def _pivots(self) -> list[Node]:
        """One ``table`` node per pivot table of the sheet (pivots.py), boxed over its location."""
        out: list[Node] = []
        for n, rel in enumerate(r for r in self.rels.values() if r.type == "pivotTable" and self.ex.parts.has(r.target)):
            parts = self.ex.parts
            self.ex.current_part = rel.target
            table = parts.xml(rel.target)
            cache_rel = next((r for r in parts.rels(rel.target).values() if r.type == "pivotCacheDefinition"), None)
            cache = parts.xml_or_none(cache_rel.target) if cache_rel is not None else None
            attrs = read_pivot(table, cache)
            rect = split_range(str(attrs.get("location") or ""))
            boxes = [make_box(self.index, *self.grid.range_rect(*rect))] if rect else []
            node = make_node(f"{self.name}!pivot{n + 1}", kind="table", attrs=attrs, boxes=boxes,
                             source=rel.target, children=[])
            self.ex.pivots.append(node)
            out.append(node)
        self.ex.current_part = self.part
        return out

    def _tables(self) -> list[dict[str, Any]]:
        out = []
        for rid in self.sx.table_rids:
            rel = self.rels.get(rid)
            if rel is None or not self.ex.parts.has(rel.target):
                continue
            self.ex.current_part = rel.target
            table = read_table(self.ex.parts.xml(rel.target)) | {"part": rel.target}
            if table.get("name") and table.get("ref"):
                self.ex.table_refs[str(table["name"]).lower()] = f"{self.name}!{table['ref']}"
            out.append(table)
        self.ex.current_part = self.part
        return out

    def _mark_ranges(self, by_pos: CellIndex, items: list[dict[str, Any]], apply: Any) -> None:
        for idx, item in enumerate(items):
            for rng in str(item.get("ranges") or "").split():
                rect = split_range(rng)
                if rect is None:
                    continue
                r0, c0, r1, c1 = rect
                if (r1 - r0 + 1) * (c1 - c0 + 1) <= len(by_pos):
                    targets = (by_pos.get((r, c)) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1))
                else:
                    targets = (n for (r, c), n in by_pos.items() if r0 <= r <= r1 and c0 <= c <= c1)
                for node in targets:
                    if node is not None:
                        apply(node, idx, item)

    @staticmethod
    def _apply_validation(node: Node, idx: int, dv: dict[str, Any]) -> None:
        node.attrs["validation"] = idx
        node.attrs["validation_type"] = dv.get("type")
        if dv.get("values") is not None:
            node.attrs["validation_values"] = dv["values"]
        if dv.get("checkbox"):
            node.attrs["checkbox"] = True
            v = node.attrs.get("value")
            node.attrs["checked"] = v if isinstance(v, bool) else (str(v).lower() in ("true", "yes", "☑", "☒", "✓", "x") if v is not None else False)

    def _mark_table(self, by_pos: CellIndex, table: dict[str, Any],
                    layers: dict[tuple[int, int], dict[str, Any]]) -> None:
        """Mark the table's cells, and collect what its table style gives each one."""
        rect = split_range(str(table.get("ref") or ""))
        if rect is None:
            return
        r0, c0, r1, c1 = rect
        header_rows = int(table.get("header_row_count") or 0)
        elements = self.ex.table_styles.elements(table.get("style"))
        if table.get("style") and elements is None:
            self.ex.warnings.append(f"{self.name}: table style {table.get('style')!r} of {table.get('name')} is unknown")
        for (r, c), node in by_pos.items():
            if r0 <= r <= r1 and c0 <= c <= c1:
                node.attrs["table"] = table.get("name")
                if r < r0 + header_rows:
                    node.attrs["table_header"] = True
                if elements:
                    props = table_cell_style(table, elements, rect, r, c)
                    if props:
                        layers[(r, c)] = props

    def _display_styles(self, by_pos: CellIndex, tables: dict[tuple[int, int], dict[str, Any]]) -> None:
        """Each cell's displayed style from its layers (``display_style.py``); a
        conditional number format also changes the text shown."""
        styler = self.ex.styler
        for pos, node in by_pos.items():
            cond = node.attrs.get("conditional_style")
            colour = self.format_colours.get(pos)
            if isinstance(cond, dict) and cond.get("number_format"):
                colour = self._reformat(node, str(cond["number_format"]))
            table = tables.get(pos)
            if cond is None and table is None and colour is None:
                continue
            styler.apply(node, table=table, number_format_colour=colour)

    def _reformat(self, node: Node, fmt: str) -> str | None:
        """Show the cell's value with a conditional format's number format; its colour."""
        value = node.attrs.get("serial", node.attrs.get("value"))
        if value is None or node.attrs.get("data_type") == "image":
            return None
        node.text = format_value(value, fmt, date1904=self.ex.date1904).text
        return self._colour_of(value, fmt)

    def _colour_of(self, value: Any, fmt: str) -> str | None:
        spec = format_colour(value, fmt)
        if isinstance(spec, int):
            indexed = self.ex.styles.colours.indexed
            return indexed[spec] if 0 <= spec < len(indexed) else None
        return spec


def _is_boolean_pair(values: list[str]) -> bool:
    from .features import _BOOLEAN_PAIRS

    return bool(values) and {v.lower() for v in values} in _BOOLEAN_PAIRS


def _iso_date(serial: float, fmt: str, date1904: bool) -> str | None:
    from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

    try:
        when = from_excel(serial, epoch=CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900)
    except (ValueError, OverflowError, TypeError):
        return None
    if isinstance(when, dt.datetime):
        if when.time() == dt.time() and serial == int(serial):
            return when.date().isoformat()
        return when.isoformat()
    if isinstance(when, (dt.date, dt.time)):
        return when.isoformat()
    if isinstance(when, dt.timedelta):
        return str(when)
    return None
