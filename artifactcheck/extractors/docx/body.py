"""Walk WordprocessingML block and inline content into tree nodes, in document order.

We walk the XML ourselves because python-docx's ``paragraphs``/``tables`` skip block
content controls (``w:sdt``), ``w:customXml``, tracked insertions, text boxes, fields and
``mc:AlternateContent``. One walker serves the body, headers, footers, notes, comments
and text-box content (``part`` says whose relationships resolve ``r:id``).

Ids are paths: ``p3`` (fourth paragraph of its container), ``p3/r0`` (its first run),
``t0/r1/c2/p0`` (table 0, row 1, cell 2, paragraph 0), ``p3/img0``, ``p3/tb0/p1``.
Block content controls and ``w:customXml`` do not add a level: their paragraphs keep
counting in the enclosing container and carry ``sdt_tag``/``sdt_alias`` attributes.
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ...model import Blob, Node, Style, describe_image
from ..drawingml.color import ThemedColor, hex_to_rgb, resolve_themed_color
from ..tree_builder import make_node
from .drawing import (
    PIC,
    WPS,
    A,
    O,
    R,
    V,
    anchor_attrs,
    blank_node,
    crop_attrs,
    is_equation_prog_id,
    mime_for,
    vml_size,
)
from .numbering import Numbering, format_number
from .package import W_NS, DocxPackage, find_child
from .para_format import geometry_attrs
from .styles import (
    StyleSheet,
    complex_script_props,
    is_complex_script,
    read_ppr,
    read_rpr,
    underline_kind,
)
from .table_styles import (
    TableLook,
    cell_grid,
    col_parts_key,
    parts_of,
    row_attrs,
    row_parts_key,
    table_layer,
)

W = f"{{{W_NS}}}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"
M = "{http://schemas.openxmlformats.org/officeDocument/2006/math}"
W14 = "{http://schemas.microsoft.com/office/word/2010/wordml}"
# Tags the walker asks every paragraph or run for, qualified once.
_PPR, _RPR, _PSTYLE, _RSTYLE, _SECTPR, _TCPR = (
    f"{W}{t}" for t in ("pPr", "rPr", "pStyle", "rStyle", "sectPr", "tcPr")
)
_PARA_ID = f"{W14}paraId"

_HYPERLINK_INSTR = re.compile(
    r'^\s*HYPERLINK\s+(?:"([^"]*)"|(\S+))?(.*)$', re.IGNORECASE | re.DOTALL
)
_ANCHOR_SWITCH = re.compile(r'\\l\s+"([^"]*)"|\\l\s+(\S+)')
_TRANSPARENT_INLINE = {"smartTag", "customXml", "dir", "bdo", "ins", "moveTo"}
_DELETED_INLINE = {"del", "moveFrom"}
# Paragraph children _inline has no branch for, met in most paragraphs: skipped before
# the name is split off and compared with every branch's.
_INLINE_SKIPPED = frozenset(f"{W}{t}" for t in ("pPr", "bookmarkStart", "bookmarkEnd", "proofErr"))


# Fields whose shown value is the page they print on (or the page count), not their stored result.
PAGE_NUMBER_FIELDS = frozenset({"PAGE", "NUMPAGES"})
# Why a run's text is not printed (``not_rendered_reason``); the layout and the checks'
# targets (checks/target.py ``unprinted``) read these.
TRACKED_DELETION = "tracked deletion"
HIDDEN_TEXT = "hidden text (w:vanish)"
CLOCK_FIELDS = frozenset({"DATE", "TIME"})
# Fields whose shown value is a count over the document (caption numbers), computed by
# seq_fields.show_seq_fields, not their stored result.
COUNTED_FIELDS = frozenset({"SEQ"})
# Fields that print something even when the file stores no result: they get an empty run
# to hold what they print.
_PLACEHELD_FIELDS = PAGE_NUMBER_FIELDS | COUNTED_FIELDS


@dataclass
class _Field:
    instr: str = ""
    in_result: bool = False
    shown: bool = False  # its result put text in the tree
    serial: int = 0  # which field of the document: its result runs share it

    @property
    def kind(self) -> str:
        return self.instr.strip().split(" ", 1)[0].upper() if self.instr.strip() else ""

    @property
    def hyperlink(self) -> str | None:
        m = _HYPERLINK_INSTR.match(self.instr)
        if not m:
            return None
        target = m.group(1) or m.group(2) or ""
        anchor = _ANCHOR_SWITCH.search(m.group(3) or "")
        if anchor:
            return (target + "#" if target else "#") + (anchor.group(1) or anchor.group(2) or "")
        return target or None


def _seq_mark(fld: _Field) -> dict[str, Any]:
    """The private mark seq_fields.show_seq_fields numbers a SEQ field's runs by (then
    drops); nothing for other fields."""
    return {"field": fld.kind, "_seq": (fld.serial, fld.instr)} if fld.kind in COUNTED_FIELDS else {}


def _layer_key(layer: dict[str, Any]) -> tuple[Any, ...]:
    """A property layer (``run_layer``/``para_layer``/``cell_layer``: hashable values)
    as a cache key; the same properties stated in another order make another key, and
    so only a second entry with the same content."""
    return tuple(layer.items())


@dataclass(frozen=True)
class _ParaFormat:
    """What a paragraph's style and direct ``w:pPr`` layer resolve to in their table
    context, before numbering."""

    props: dict[str, Any]
    style_name: str
    heading_level: int | None


@dataclass(frozen=True)
class _ParaFinal:
    """What follows from a paragraph's final properties (after its list level's)."""

    geometry: dict[str, Any]
    page_break_before: bool
    mark_style: Style


@dataclass
class WalkState:
    """Shared across all parts of one document: counters that run through the whole
    document (note numbers, list counters, open fields and comment ranges)."""

    pkg: DocxPackage
    styles: StyleSheet
    numbering: Numbering
    content_types: dict[str, str]
    blobs: dict[str, Blob] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    style_num_ids: dict[str, str] = field(default_factory=dict)
    footnote_fmt: str = "decimal"
    endnote_fmt: str = "lowerRoman"
    note_numbers: dict[tuple[str, str], str] = field(default_factory=dict)  # (type, id) -> label
    note_order: list[tuple[str, str]] = field(default_factory=list)
    current_note_label: str = ""
    fields: list[_Field] = field(default_factory=list)
    field_count: int = 0
    open_comments: dict[str, list[str]] = field(default_factory=dict)
    comment_text: dict[str, list[str]] = field(default_factory=dict)
    comment_nodes: dict[str, list[str]] = field(default_factory=dict)
    image_cache: dict[str, str | None] = field(default_factory=dict)  # part -> sha
    # Formatting resolved once per (style, the direct properties an element states,
    # table context): a long document states a few hundred distinct w:rPr/w:pPr
    # thousands of times, and merging the layers and making the Style cost more than
    # reading the element (keys: ``_layer_key``).
    run_formats: dict[tuple[Any, ...], tuple[Style, dict[str, Any]]] = field(default_factory=dict)
    para_formats: dict[tuple[Any, ...], _ParaFormat] = field(default_factory=dict)
    para_finals: dict[tuple[Any, ...], _ParaFinal] = field(default_factory=dict)


@dataclass
class _Para:
    """Per-paragraph scratch: the nodes built so far and break bookkeeping."""

    node_id: str
    part: str
    style_id: str | None
    table_style: str | None
    table_parts: tuple[str, ...] = ()
    # the colour behind the text when a run has no shading of its own: the paragraph's
    # shading, else the cell's fill (None: the page); automatic text colour follows it
    background: str | None = None
    # a Word shape's text colour (its wps:style fontRef), for text without a colour of its own
    text_color: str | None = None
    children: list[Node] = field(default_factory=list)
    floating: list[Node] = field(default_factory=list)
    counters: dict[str, int] = field(default_factory=dict)
    text_seen: bool = False
    events: list[str] = field(default_factory=list)  # "B" page break, "T" visible text
    attrs: dict[str, Any] = field(default_factory=dict)

    def next_id(self, prefix: str) -> str:
        n = self.counters.get(prefix, 0)
        self.counters[prefix] = n + 1
        return f"{self.node_id}/{prefix}{n}"


# Tag -> (namespace, local name), filled as tags are met: the walker asks for the local
# name of every element it passes (~160k in a 180-page file), and ``etree.QName`` built
# a new object for each; a document uses a few hundred distinct tags.
_TAG_PARTS: dict[str, tuple[str, str]] = {}


def _tag_parts(tag: str) -> tuple[str, str]:
    got = _TAG_PARTS.get(tag)
    if got is None:
        ns, _, local = tag[1:].rpartition("}") if tag[:1] == "{" else ("", "", tag)
        if len(_TAG_PARTS) > 8192:  # a hostile file's made-up tags must not pile up
            _TAG_PARTS.clear()
        got = _TAG_PARTS[tag] = (ns, local)
    return got


def _local(el: etree._Element) -> str:
    tag = el.tag
    got = _TAG_PARTS.get(tag)  # a known tag in one lookup (~70k calls in a 180-page file)
    if got is not None:
        return got[1]
    return _tag_parts(tag)[1] if isinstance(tag, str) else ""


def _ns(el: etree._Element) -> str:
    tag = el.tag
    return _tag_parts(tag)[0] if isinstance(tag, str) else ""


def _choose_alternate(el: etree._Element) -> etree._Element | None:
    """The branch of ``mc:AlternateContent`` we read: the first ``mc:Choice`` (DrawingML,
    which we understand), else ``mc:Fallback`` (VML). Never both: Word writes the same
    text box twice, once per branch."""
    choice = el.find(f"{MC}Choice")
    if choice is not None:
        return choice
    return el.find(f"{MC}Fallback")


def _sdt_attrs(sdt: etree._Element) -> dict[str, Any]:
    pr = sdt.find(f"{W}sdtPr")
    out: dict[str, Any] = {}
    if pr is None:
        return {"sdt": True}
    tag = pr.find(f"{W}tag")
    alias = pr.find(f"{W}alias")
    if tag is not None and tag.get(f"{W}val"):
        out["sdt_tag"] = tag.get(f"{W}val")
    if alias is not None and alias.get(f"{W}val"):
        out["sdt_alias"] = alias.get(f"{W}val")
    for child in pr:
        name = _local(child)
        if name in (
            "text",
            "richText",
            "date",
            "dropDownList",
            "comboBox",
            "checkbox",
            "picture",
            "docPartObj",
            "group",
            "citation",
            "bibliography",
            "equation",
        ):
            out["sdt_type"] = name
            break
    out["sdt"] = True
    return out


class BodyWalker:
    """Builds nodes for one part's block content (body, header, note, comment, text box)."""

    def __init__(self, state: WalkState, part: str) -> None:
        self.s = state
        self.part = part

    # -- blocks --------------------------------------------------------------------------
    def blocks(
        self,
        container: etree._Element,
        prefix: str,
        *,
        table_style: str | None = None,
        table_parts: tuple[str, ...] = (),
        background: str | None = None,
        text_color: str | None = None,
    ) -> list[Node]:
        """Nodes for the block children of ``container`` (``w:body``, ``w:tc``,
        ``w:hdr``, ``w:txbxContent``...). ``prefix`` is the container's id ('' at the top);
        ``table_style``/``table_parts``: the enclosing table's style id and the
        conditional parts of it that reach this cell; ``background``: the cell's fill;
        ``text_color``: the text colour of the Word shape holding them (its fontRef)."""
        out: list[Node] = []
        counters: dict[str, int] = {}

        def next_id(kind: str) -> str:
            n = counters.get(kind, 0)
            counters[kind] = n + 1
            return f"{prefix}/{kind}{n}" if prefix else f"{kind}{n}"

        for el, name, extra in self._iter_blocks(container, {}):
            if name == "p":
                out.extend(
                    self.paragraph(
                        el,
                        next_id("p"),
                        table_style=table_style,
                        table_parts=table_parts,
                        background=background,
                        text_color=text_color,
                        extra=extra,
                    )
                )
            elif name == "tbl":
                out.append(
                    self.table(el, next_id("t"), extra=extra, background=background, text_color=text_color)
                )
            elif name == "altChunk":
                self.s.warnings.append(
                    f"{self.part}: an embedded alternative-format chunk (w:altChunk) is not read"
                )
        return out

    def _iter_blocks(self, container: etree._Element, extra: dict[str, Any]):  # type: ignore[no-untyped-def]
        # (element, its local name, sdt attributes): the name read once, for blocks too
        for el in container:
            name = _local(el)
            if name in ("p", "tbl", "altChunk"):
                yield el, name, extra
            elif name == "sdt":
                content = el.find(f"{W}sdtContent")
                if content is not None:
                    yield from self._iter_blocks(content, {**extra, **_sdt_attrs(el)})
            elif name in ("customXml", "ins", "moveTo", "smartTag"):
                yield from self._iter_blocks(el, extra)
            elif name == "AlternateContent":
                branch = _choose_alternate(el)
                if branch is not None:
                    yield from self._iter_blocks(branch, extra)

    # -- tables --------------------------------------------------------------------------
    def table(
        self,
        tbl: etree._Element,
        node_id: str,
        *,
        extra: dict[str, Any],
        background: str | None = None,
        text_color: str | None = None,
    ) -> Node:
        tbl_pr = tbl.find(f"{W}tblPr")
        styles = self.s.styles
        named = tbl_pr.find(f"{W}tblStyle") if tbl_pr is not None else None
        tstyle = styles.table_style(named.get(f"{W}val") if named is not None else None)
        style_id = tstyle.style_id
        look = TableLook.parse(tbl_pr.find(f"{W}tblLook") if tbl_pr is not None else None)
        tprops = {**tstyle.tblpr, **table_layer(tbl_pr)}
        grid = tbl.find(f"{W}tblGrid")
        grid_widths = [
            _twips_pt(g.get(f"{W}w")) for g in grid.findall(f"{W}gridCol")
        ] if grid is not None else []
        grid_cols = len(grid_widths)
        rows_el = list(self._iter_rows(tbl))
        # First pass: grid positions and vertical merges -> row spans of the origin cells.
        layout: list[list[tuple[etree._Element, int, int, str | None, dict[str, Any], Any]]] = []
        for tr, _ in rows_el:
            col = _grid_before(tr)
            cells = []
            for tc, cextra in self._iter_cells(tr):
                span, vmerge, layer = cell_grid(find_child(tc, _TCPR))
                cells.append((tc, col, span, vmerge, cextra, layer))
                col += span
            layout.append(cells)
        row_span: dict[tuple[int, int], int] = {}
        origin_at: dict[int, int] = {}  # grid column -> row index of the open vertical merge
        for ri, cells in enumerate(layout):
            for _tc, col, _span, vmerge, _, _k in cells:
                if vmerge == "continue" and col in origin_at:
                    row_span[(origin_at[col], col)] += 1
                else:
                    row_span[(ri, col)] = 1
                    if vmerge == "restart":
                        origin_at[col] = ri
                    else:
                        origin_at.pop(col, None)
        rows: list[Node] = []
        row_band_size = int(tprops.get("row_band_size", 1))
        col_band_size = int(tprops.get("col_band_size", 1))
        # (table style, parts, w:tcPr) -> the cell's Style and widths
        cell_looks: dict[tuple[Any, ...], tuple[Style, dict[str, Any]]] = {}
        styled_parts: dict[tuple[Any, Any], tuple[str, ...]] = {}
        for ri, ((tr, rextra), cells) in enumerate(zip(rows_el, layout)):
            row_id = f"{node_id}/r{ri}"
            tr_pr = find_child(tr, f"{W}trPr")
            rattrs: dict[str, Any] = {"index": ri, **row_attrs(tr_pr), **rextra}
            header_row = tr_pr is not None and find_child(tr_pr, f"{W}tblHeader") is not None
            if header_row:
                rattrs["header"] = True
            if tr_pr is not None and find_child(tr_pr, f"{W}del") is not None:
                rattrs["tracked"] = "delete"  # a deleted row (its text is deleted text)
            elif tr_pr is not None and find_child(tr_pr, f"{W}ins") is not None:
                rattrs["tracked"] = "insert"
            cell_nodes: list[Node] = []
            row_key = row_parts_key(
                look, row=ri, rows=len(layout), header_row=header_row, row_band_size=row_band_size
            )
            for ci, (tc, col, span, vmerge, cextra, layer) in enumerate(cells):
                if vmerge == "continue" and (ri, col) not in row_span:
                    continue  # covered by the merge origin above; Word does not show it
                # cell_parts(...) limited to the parts the style defines, per (row half,
                # column half): a table has a handful of combinations and ~500 cells
                col_key = col_parts_key(look, cell=ci, cells=len(cells), col_band_size=col_band_size)
                parts = styled_parts.get((row_key, col_key))
                if parts is None:
                    parts = styled_parts[(row_key, col_key)] = tuple(
                        p for p in parts_of(row_key, col_key) if p in tstyle.parts
                    )
                look_key = (style_id, parts, _layer_key(layer))
                got = cell_looks.get(look_key)
                if got is None:
                    cprops = styles.cell_props(style_id, parts, layer)
                    fill = styles.color(cprops.get("shd"))
                    got = cell_looks[look_key] = (
                        _cell_style(fill, cprops.get("valign", "top")),
                        {k: cprops[k] for k in ("width", "width_pct") if k in cprops},
                    )
                cell_style, widths = got
                cell_id = f"{row_id}/c{ci}"
                fill_hex = cell_style.fill or background  # an unfilled nested cell shows its host's
                children = self.blocks(
                    tc, cell_id, table_style=style_id, table_parts=parts, background=fill_hex,
                    text_color=text_color,
                )
                cattrs: dict[str, Any] = {
                    "row": ri,
                    "col": col,
                    "row_span": row_span.get((ri, col), 1),
                    "col_span": span,
                }
                if widths:
                    cattrs.update(widths)
                if parts:
                    cattrs["table_style_parts"] = list(parts)
                cell_nodes.append(
                    fast_node(
                        id=cell_id,
                        kind="cell",
                        attrs={**cattrs, **cextra},
                        style=cell_style,
                        children=children,
                        source=self.part,
                    )
                )
            rows.append(
                fast_node(
                    id=row_id, kind="row", attrs=rattrs, children=cell_nodes, source=self.part
                )
            )
        cols = max([grid_cols] + [max((c[1] + c[2] for c in cells), default=0) for cells in layout])
        attrs: dict[str, Any] = {"rows": len(rows), "cols": cols, **extra}
        if tstyle.name:
            attrs["style_name"] = tstyle.name
        attrs["align"] = tprops.get("align", "left")
        for key in ("width", "width_pct", "indent"):
            if key in tprops:
                attrs[key] = tprops[key]
        if grid_widths and all(w is not None for w in grid_widths):
            attrs["column_widths"] = grid_widths
        attrs["table_look"] = {
            "first_row": look.first_row,
            "last_row": look.last_row,
            "first_column": look.first_col,
            "last_column": look.last_col,
            "banded_rows": look.row_bands,
            "banded_columns": look.col_bands,
        }
        nested = any(_local(a) == "tc" for a in tbl.iterancestors())
        if nested:
            attrs["nested"] = True
        return Node(id=node_id, kind="table", attrs=attrs, children=rows, source=self.part)

    def _iter_rows(self, tbl: etree._Element, extra: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
        for el in tbl:
            name = _local(el)
            if name == "tr":
                yield el, dict(extra or {})
            elif name == "sdt":
                content = el.find(f"{W}sdtContent")
                if content is not None:
                    yield from self._iter_rows(content, {**(extra or {}), **_sdt_attrs(el)})
            elif name in ("customXml", "ins", "moveTo"):
                yield from self._iter_rows(el, extra)

    def _iter_cells(self, tr: etree._Element, extra: dict[str, Any] | None = None):  # type: ignore[no-untyped-def]
        for el in tr:
            name = _local(el)
            if name == "tc":
                yield el, dict(extra or {})
            elif name == "sdt":
                content = el.find(f"{W}sdtContent")
                if content is not None:
                    yield from self._iter_cells(content, {**(extra or {}), **_sdt_attrs(el)})
            elif name in ("customXml", "ins", "moveTo"):
                yield from self._iter_cells(el, extra)

    # -- paragraphs ----------------------------------------------------------------------
    def paragraph(
        self,
        p: etree._Element,
        node_id: str,
        *,
        table_style: str | None = None,
        table_parts: tuple[str, ...] = (),
        background: str | None = None,
        text_color: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> list[Node]:
        """The paragraph node, followed by the text boxes anchored in it (siblings, so
        their text does not run into the paragraph's text)."""
        ppr = find_child(p, _PPR)
        direct, ppr_children = read_ppr(ppr)  # one pass: the layer, w:pStyle, w:sectPr
        style_id = self.s.styles.paragraph_style_named(ppr_children.get(_PSTYLE))
        key = (style_id, _layer_key(direct), table_style, table_parts)
        fmt = self.s.para_formats.get(key)
        if fmt is None:
            fmt = self.s.para_formats[key] = self._para_format(
                style_id, direct, table_style, table_parts
            )
        para = _Para(
            node_id=node_id,
            part=self.part,
            style_id=style_id,
            table_style=table_style,
            table_parts=table_parts,
            text_color=text_color,
        )
        attrs: dict[str, Any] = dict(extra or {})
        attrs["style_name"] = fmt.style_name
        if fmt.heading_level is not None:
            attrs["heading_level"] = fmt.heading_level
        num_id = fmt.props.get("num_id")
        final_key: tuple[Any, ...] = key
        if num_id:
            ilvl = fmt.props.get("ilvl", 0)
            info = self.s.numbering.next_label(num_id, ilvl, style_num_id=self.s.style_num_ids)
            if info is not None:
                attrs.update(
                    list_level=info.level + _style_depth(fmt.style_name, direct),
                    list_ordered=info.ordered,
                    list_format=info.format,
                    list_label=info.label,
                    list_id=info.num_id,
                )
                final_key = (*key, num_id, ilvl)  # the level's pPr depends on these only
        final = self.s.para_finals.get(final_key)
        if final is None:
            final = self.s.para_finals[final_key] = self._para_final(
                style_id, direct, fmt, table_style, table_parts, numbered=final_key is not key
            )
        para.background = final.mark_style.fill or background  # paragraph shading covers the cell
        attrs.update(final.geometry)
        if final.page_break_before:
            attrs["page_break_before"] = True
        if ppr_children.get(_SECTPR) is not None:
            attrs["_ends_section"] = True  # consumed by docx._assign_sections
        para.attrs = attrs
        self._inline(p, para, {})
        events = "".join(para.events)
        if events.startswith("B") and "T" in events:
            para.attrs["page_break_before"] = True  # the visible text starts on a new page
        if events.endswith("B"):
            para.attrs["page_break_after"] = True  # what follows starts on a new page
        mark_style = final.mark_style
        children = _merge_runs(para.children, node_id)
        w14_id = p.get(_PARA_ID)
        node = fast_node(
            id=node_id,
            kind="paragraph",
            style=mark_style,
            attrs=para.attrs,
            children=children,
            source=f"{self.part}#{w14_id}" if w14_id else self.part,
        )
        for cid in list(self.s.open_comments):
            self.s.comment_nodes.setdefault(cid, []).append(node_id)
        return [node, *para.floating]

    def _para_format(
        self,
        style_id: str | None,
        direct: dict[str, Any],
        table_style: str | None,
        table_parts: tuple[str, ...],
    ) -> _ParaFormat:
        styles = self.s.styles
        props = styles.paragraph_props(style_id, direct, table_style, table_parts=table_parts)
        style_name = styles.name(style_id) or "Normal"  # no styles at all: Word's Normal
        return _ParaFormat(
            props=props,
            style_name=style_name,
            heading_level=heading_level(style_name, props.get("outline_level")),
        )

    def _para_final(
        self,
        style_id: str | None,
        direct: dict[str, Any],
        fmt: _ParaFormat,
        table_style: str | None,
        table_parts: tuple[str, ...],
        *,
        numbered: bool,
    ) -> _ParaFinal:
        """Geometry, page break and the paragraph mark's Style from the final props: the
        list level's ``w:pPr`` joins them for a numbered paragraph (between its style and
        its direct formatting)."""
        styles = self.s.styles
        props = fmt.props
        if numbered:
            num_id, ilvl = props.get("num_id"), props.get("ilvl", 0)
            lvl = self.s.numbering.level(num_id, ilvl, style_num_id=self.s.style_num_ids)
            if lvl is not None and lvl.ppr:
                props = styles.paragraph_props(
                    style_id, direct, table_style, table_parts=table_parts, numbering=lvl.ppr
                )
        mark_style = styles.to_style(
            styles.run_props(
                paragraph_style=style_id,
                character_style=None,
                direct={},
                table_style=table_style,
                table_parts=table_parts,
            ),
            align=props.get("align") or "left",
            fill=styles.color(props.get("shd")),
        )
        return _ParaFinal(
            geometry=geometry_attrs(props),
            page_break_before=bool(props.get("page_break_before")),
            mark_style=mark_style,
        )

    # -- inline content ------------------------------------------------------------------
    def _inline(self, parent: etree._Element, para: _Para, inherited: dict[str, Any]) -> None:
        for el in parent:
            tag = el.tag
            if tag in _INLINE_SKIPPED:
                continue  # nothing to read (the most common children after runs)
            ns, name = _tag_parts(tag) if isinstance(tag, str) else ("", "")
            if name == "r" and ns == W_NS:
                self._run(el, para, inherited)
            elif name == "hyperlink":
                url = None
                rel = self.s.pkg.rel_target(self.part, el.get(f"{R}id"))
                if rel is not None:
                    url = rel.target
                anchor = el.get(f"{W}anchor")
                if anchor:
                    url = (url or "") + "#" + anchor
                self._inline(el, para, {**inherited, "hyperlink": url} if url else inherited)
            elif name == "fldSimple":
                self.s.field_count += 1
                fld = _Field(instr=el.get(f"{W}instr") or "", in_result=True, serial=self.s.field_count)
                sub = dict(inherited)
                if fld.hyperlink:
                    sub["hyperlink"] = fld.hyperlink
                if fld.kind:
                    sub["field"] = fld.kind
                    if fld.kind in CLOCK_FIELDS:
                        sub["_clock"] = (fld.serial, fld.instr)
                    elif fld.kind in COUNTED_FIELDS:
                        sub["_seq"] = (fld.serial, fld.instr)
                before = len(para.children)
                self._inline(el, para, sub)
                if fld.kind in _PLACEHELD_FIELDS and not any(c.text for c in para.children[before:]):
                    style, own = self._run_format(None, {}, para)
                    self._page_number_placeholder(para, style, {**sub, **own}, fld.kind)
            elif name in _TRANSPARENT_INLINE:
                sub = {**inherited, "tracked": "insert"} if name in ("ins", "moveTo") else inherited
                self._inline(el, para, sub)
            elif name in _DELETED_INLINE:
                self._inline(el, para, {**inherited, "tracked": "delete"})
            elif name == "sdt":
                content = el.find(f"{W}sdtContent")
                if content is not None:
                    self._inline(content, para, {**inherited, **_sdt_attrs(el)})
            elif name == "AlternateContent":
                branch = _choose_alternate(el)
                if branch is not None:
                    self._inline(branch, para, inherited)
            elif name in ("oMath", "oMathPara") and ns == M[1:-1]:
                text = "".join(t.text or "" for t in el.iter(f"{M}t"))
                if text:
                    attrs = {**inherited, "math": True, "equation": True, "equation_format": "omml"}
                    self._emit_text(para, text, None, attrs)
            elif name == "commentRangeStart":
                cid = el.get(f"{W}id") or ""
                self.s.open_comments[cid] = self.s.comment_text.setdefault(cid, [])
                self.s.comment_nodes.setdefault(cid, []).append(para.node_id)
            elif name == "commentRangeEnd":
                self.s.open_comments.pop(el.get(f"{W}id") or "", None)

    def _run(self, r: etree._Element, para: _Para, inherited: dict[str, Any]) -> None:
        rpr = find_child(r, _RPR)
        direct, rpr_children = read_rpr(rpr)  # one pass: the layer and w:rStyle
        char_style = self.s.styles.character_style_named(rpr_children.get(_RSTYLE))
        key = (
            char_style,
            _layer_key(direct),
            para.style_id,
            para.table_style,
            para.table_parts,
            para.background,
            para.text_color,
        )
        fmt = self.s.run_formats.get(key)
        if fmt is None:
            fmt = self.s.run_formats[key] = self._run_format(char_style, direct, para)
        style, own = fmt
        attrs: dict[str, Any] = {**inherited, **own} if own else dict(inherited)
        buf: list[str] = []

        def style_of(text: str) -> Style:
            if not is_complex_script(text):
                return style
            cs_key = (*key, "complex")
            cs_fmt = self.s.run_formats.get(cs_key)
            if cs_fmt is None:
                cs_fmt = self.s.run_formats[cs_key] = self._run_format(char_style, direct, para, complex_script=True)
            return cs_fmt[0]

        def flush() -> None:
            if buf:
                text = "".join(buf)
                self._emit_text(para, text, style_of(text), self._field_attrs(attrs))
                for fld in self.s.fields:
                    fld.shown = fld.shown or fld.in_result
                buf.clear()

        for el, name in self._run_children(r):
            if name in ("t", "delText"):
                if self.s.fields and not self.s.fields[-1].in_result:
                    continue  # text between fldChar begin and separate is not shown
                buf.append(el.text or "")
            elif name in ("tab", "ptab"):
                buf.append("\t")
            elif name == "br":
                btype = el.get(f"{W}type") or "textWrapping"
                if btype == "page":
                    flush()
                    para.attrs["page_breaks"] = int(para.attrs.get("page_breaks", 0)) + 1
                    para.events.append("B")
                elif btype == "column":
                    flush()
                    para.attrs["column_breaks"] = int(para.attrs.get("column_breaks", 0)) + 1
                else:
                    buf.append("\n")
            elif name == "cr":
                buf.append("\n")
            elif name == "noBreakHyphen":
                buf.append("-")
            elif name == "sym":
                try:
                    buf.append(chr(int(el.get(f"{W}char", "20"), 16)))
                except ValueError:
                    pass
            elif name == "fldChar":
                flush()
                ftype = el.get(f"{W}fldCharType")
                if ftype == "begin":
                    self.s.field_count += 1
                    self.s.fields.append(_Field(serial=self.s.field_count))
                elif ftype == "separate" and self.s.fields:
                    self.s.fields[-1].in_result = True
                elif ftype == "end" and self.s.fields:
                    done = self.s.fields.pop()
                    if done.kind in _PLACEHELD_FIELDS and not done.shown:
                        held = {**attrs, **_seq_mark(done)}
                        self._page_number_placeholder(para, style, held, done.kind)
            elif name == "instrText":
                if self.s.fields and not self.s.fields[-1].in_result:
                    self.s.fields[-1].instr += el.text or ""
            elif name in ("footnoteReference", "endnoteReference"):
                flush()
                ntype = "footnote" if name.startswith("foot") else "endnote"
                nid = el.get(f"{W}id") or ""
                label = self._note_label(
                    ntype, nid, custom=el.get(f"{W}customMarkFollows") in ("1", "true")
                )
                self._emit_text(
                    para, label, style, {**self._field_attrs(attrs), f"{ntype}_ref": nid}
                )
            elif name in ("footnoteRef", "endnoteRef"):
                buf.append(self.s.current_note_label)
            elif name in ("drawing", "pict", "object") and attrs.get("tracked") == "delete":
                # A picture, shape or text box deleted with track changes on: like deleted
                # text, not part of the document (one image left, not two, after "remove
                # the old chart"); the paragraph keeps a count for evidence.
                flush()
                para.attrs["deleted_drawings"] = int(para.attrs.get("deleted_drawings", 0)) + 1
            elif name == "drawing":
                flush()
                self._drawing(el, para, attrs)
            elif name in ("pict", "object"):
                flush()
                self._vml(el, para, attrs, ole=name == "object")
            elif name == "ruby":
                base = el.find(f"{W}rubyBase")
                if base is not None:
                    buf.append("".join(t.text or "" for t in base.iter(f"{W}t")))
        flush()

    def _run_format(
        self, char_style: str | None, direct: dict[str, Any], para: _Para, *, complex_script: bool = False
    ) -> tuple[Style, dict[str, Any]]:
        """A run's Style and the attributes its formatting gives it (``character_style``,
        ``underline_style``, ``hidden``, ``caps``, ``small_caps``), in that order.
        ``complex_script``: the Style of text in a complex script (Hebrew, Arabic...),
        which takes the ``*Cs`` properties (``styles.complex_script_props``)."""
        styles = self.s.styles
        props = styles.run_props(
            paragraph_style=para.style_id,
            character_style=char_style,
            direct=direct,
            table_style=para.table_style,
            table_parts=para.table_parts,
        )
        if complex_script:
            props = complex_script_props(props)
        own: dict[str, Any] = {}
        if char_style is not None:
            own["character_style"] = styles.name(char_style)
        underline = underline_kind(props)
        if underline is not None:
            own["underline_style"] = underline
        if props.get("hidden"):
            own["hidden"] = True
        if props.get("caps"):
            own["caps"] = True
        if props.get("small_caps"):
            own["small_caps"] = True
        style = styles.to_style(props, background=para.background, auto_color=para.text_color)
        painted = _painted_instead(props.get("color"), style.color)
        if painted is not None:
            own["color_stated_rgb"] = painted
        return style, own

    def _run_children(self, r: etree._Element):  # type: ignore[no-untyped-def]
        """The run's content as (element, local name): its children but ``w:rPr``, an
        ``mc:AlternateContent`` replaced by its chosen branch's children. The name is
        read once here for the caller (~30k children in a 180-page file)."""
        for el in r:
            name = _local(el)
            if name == "AlternateContent":
                branch = _choose_alternate(el)
                if branch is not None:
                    for sub in branch:
                        yield sub, _local(sub)
            elif name != "rPr":
                yield el, name

    def _field_attrs(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Run attributes from the fields whose results enclose this run."""
        out = dict(attrs)
        for fld in self.s.fields:
            if not fld.in_result:
                continue
            link = fld.hyperlink
            if link:
                out["hyperlink"] = link
            elif fld.kind and "field" not in out:
                out["field"] = fld.kind
                if fld.kind in CLOCK_FIELDS:
                    # read by clock_fields.show_clock_fields, then dropped
                    out["_clock"] = (fld.serial, fld.instr)
            if fld.kind in COUNTED_FIELDS:
                out.update(_seq_mark(fld))  # the innermost SEQ numbers the run
        return out

    def _page_number_placeholder(self, para: _Para, style: Any, attrs: dict[str, Any], kind: str) -> None:
        """An empty run for a PAGE / NUMPAGES / SEQ field that stores no result
        (python-docx's usual recipe: begin, instruction, end): Word and LibreOffice print
        the number, so there is a run to give it to (docx/layout.py writes the page
        number in, seq_fields.py the caption number)."""
        para.children.append(
            fast_node(
                id=para.next_id("r"),
                kind="run",
                text="",
                style=style,
                attrs={**attrs, "field": kind},
            )
        )

    def _note_label(self, ntype: str, nid: str, *, custom: bool) -> str:
        key = (ntype, nid)
        if key not in self.s.note_numbers:
            n = sum(1 for t, _ in self.s.note_order if t == ntype) + 1
            fmt = self.s.footnote_fmt if ntype == "footnote" else self.s.endnote_fmt
            self.s.note_numbers[key] = "" if custom else format_number(n, fmt)
            self.s.note_order.append(key)
        return self.s.note_numbers[key]

    def _emit_text(self, para: _Para, text: str, style: Any, attrs: dict[str, Any]) -> None:
        if not text:
            return
        for cid in self.s.open_comments.values():
            cid.append(text)
        if attrs.get("tracked") == "delete":
            # Deleted text is not part of the document's text; keep it for evidence only.
            attrs = {
                **attrs,
                "deleted_text": text,
                "rendered": False,
                "not_rendered_reason": TRACKED_DELETION,
            }
            text = ""
        elif attrs.get("hidden"):
            # Not shown nor printed: like a deletion, not part of the text a reader reads
            # ("visible after" was broken by the hidden word between them); kept for evidence.
            attrs = {**attrs, "hidden_text": text, "rendered": False, "not_rendered_reason": HIDDEN_TEXT}
            text = ""
        else:
            para.text_seen = True
            if not para.events or para.events[-1] != "T":
                para.events.append("T")
        para.children.append(
            fast_node(id=para.next_id("r"), kind="run", text=text, style=style, attrs=attrs)
        )

    # -- drawings ------------------------------------------------------------------------
    def _drawing(self, drawing: etree._Element, para: _Para, run_attrs: dict[str, Any]) -> None:
        for container in drawing:
            if _local(container) not in ("inline", "anchor"):
                continue
            attrs = anchor_attrs(container)
            if run_attrs.get("hyperlink"):
                attrs["hyperlink"] = run_attrs["hyperlink"]
            data = container.find(f"{A}graphic/{A}graphicData")
            if data is None:
                continue
            for node in self._graphic(data, para, attrs):
                (para.floating if node.kind == "textbox" else para.children).append(node)

    def _graphic(self, data: etree._Element, para: _Para, attrs: dict[str, Any]) -> list[Node]:
        uri = data.get("uri", "")
        out: list[Node] = []
        for el in data:
            name = _local(el)
            if name == "pic":
                out.append(self._picture(el, para, attrs))
            elif name == "wsp":
                out.extend(self._wordprocessing_shape(el, para, attrs))
            elif name in ("wgp", "wpc"):
                members: list[Node] = []
                for child in el.iter(f"{PIC}pic", f"{WPS}wsp"):
                    if _local(child) == "pic":
                        members.append(self._picture(child, para, {}))
                    else:
                        members.extend(self._wordprocessing_shape(child, para, {}))
                # text boxes of a group are emitted beside the group (as for any text box)
                para.floating.extend(m for m in members if m.kind == "textbox")
                out.append(
                    blank_node(para.next_id("grp"), "group", attrs, self.part).model_copy(
                        update={"children": [m for m in members if m.kind != "textbox"]}
                    )
                )
            elif name == "chart":
                rel = self.s.pkg.rel_target(self.part, el.get(f"{R}id"))
                out.append(
                    blank_node(
                        para.next_id("chart"),
                        "chart",
                        {**attrs, "part": rel.target if rel else None},
                        self.part,
                    )
                )
            elif name in ("relIds",) or "diagram" in uri:
                out.append(
                    blank_node(
                        para.next_id("shape"), "shape", {**attrs, "diagram": True}, self.part
                    )
                )
                break
        return out

    def _picture(self, pic: etree._Element, para: _Para, attrs: dict[str, Any]) -> Node:
        blip_fill = pic.find(f"{PIC}blipFill")
        blip = blip_fill.find(f"{A}blip") if blip_fill is not None else None
        node_attrs = dict(attrs)
        crop = crop_attrs(blip_fill)
        if crop:
            node_attrs["crop"] = crop
        xfrm = pic.find(f"{PIC}spPr/{A}xfrm")
        if xfrm is not None:
            try:
                turn = (int(xfrm.get("rot") or 0) / 60000.0) % 360
            except ValueError:
                turn = 0.0
            if turn:
                node_attrs["rotation"] = round(turn, 3)
            for flip, key in (("flipH", "flip_h"), ("flipV", "flip_v")):
                if xfrm.get(flip) in ("1", "true"):
                    node_attrs[key] = True
        if "width" not in node_attrs:
            ext = pic.find(f"{PIC}spPr/{A}xfrm/{A}ext")
            if ext is not None:
                from ...model.units import emu_to_pt

                node_attrs["width"] = round(emu_to_pt(int(ext.get("cx", "0") or 0)), 3)
                node_attrs["height"] = round(emu_to_pt(int(ext.get("cy", "0") or 0)), 3)
        if blip is not None:
            self._attach_blob(node_attrs, blip.get(f"{R}embed"), blip.get(f"{R}link"))
        return blank_node(para.next_id("img"), "image", node_attrs, self.part)

    def _attach_blob(self, attrs: dict[str, Any], embed: str | None, link: str | None) -> None:
        """The picture's bytes (``r:embed``) into the blob store, and its link
        (``r:link``: Word's "Insert and Link" or "Link to File") as ``linked_url``. A
        picture may have both: Word shows the embedded copy and refreshes it from the
        link; a link alone shows whatever the target holds when the file is opened."""
        linked = self.s.pkg.rel_target(self.part, link) if link else None
        if linked is not None:
            attrs["linked_url"] = linked.target
        rel = self.s.pkg.rel_target(self.part, embed) if embed else None
        if rel is None or rel.external:
            if rel is not None:
                attrs["linked_url"] = rel.target  # an "embed" that points outside the file
            elif linked is None:
                attrs["missing_image"] = True
            return
        if rel.target not in self.s.image_cache:
            sha = None
            if self.s.pkg.has(rel.target):
                data = self.s.pkg.read(rel.target)
                blob = describe_image(
                    data,
                    mime=mime_for(rel.target, self.s.content_types),
                    name=rel.target.rsplit("/", 1)[-1],
                )
                self.s.blobs.setdefault(blob.sha256, blob)
                sha = blob.sha256
                if blob.decode_error:
                    self.s.warnings.append(
                        f"{rel.target}: image not decodable ({blob.decode_error})"
                    )
            else:
                self.s.warnings.append(f"{self.part}: image part {rel.target} is missing")
            self.s.image_cache[rel.target] = sha
        sha = self.s.image_cache[rel.target]
        if sha:
            attrs["blob"] = sha
            attrs["image_part"] = rel.target
        else:
            attrs["missing_image"] = True

    def _wordprocessing_shape(
        self, wsp: etree._Element, para: _Para, attrs: dict[str, Any]
    ) -> list[Node]:
        content = wsp.find(f"{WPS}txbx/{W}txbxContent")
        prst = wsp.find(f"{WPS}spPr/{A}prstGeom")
        shape_attrs = dict(attrs)
        if prst is not None and prst.get("prst"):
            shape_attrs["geometry"] = prst.get("prst")
        fill = self._shape_fill(wsp)
        style = (
            Style(fill=fill.hex, fill_theme=fill.theme, fill_theme_mods=fill.mods) if fill is not None else None
        )
        if content is None:
            linked = wsp.find(f"{WPS}linkedTxbx")
            if linked is not None:
                shape_attrs["linked_textbox"] = linked.get("id")
            node = blank_node(para.next_id("shape"), "shape", shape_attrs, self.part)
            return [node.model_copy(update={"style": style}) if style is not None else node]
        font_ref = wsp.find(f"{WPS}style/{A}fontRef")
        font_color = resolve_themed_color(font_ref, self.s.styles.theme) if font_ref is not None else None
        tb = self._textbox(
            content,
            para,
            shape_attrs,
            background=fill.hex if fill is not None else None,
            text_color=font_color.hex if font_color is not None else None,
        )
        return [tb.model_copy(update={"style": style}) if style is not None else tb]

    def _shape_fill(self, wsp: etree._Element) -> ThemedColor | None:
        """The colour a Word shape is filled with: its ``spPr`` solid fill, else the
        theme fill its ``wps:style`` refers to (``a:fillRef``, idx 1+: Office's fill
        styles start with a solid one of the reference's colour); None for no fill."""
        sp_pr = wsp.find(f"{WPS}spPr")
        if sp_pr is not None:
            if sp_pr.find(f"{A}noFill") is not None:
                return None
            solid = sp_pr.find(f"{A}solidFill")
            if solid is not None:
                return resolve_themed_color(solid, self.s.styles.theme)
            if any(sp_pr.find(f"{A}{tag}") is not None for tag in ("gradFill", "blipFill", "pattFill", "grpFill")):
                return None  # not one colour
        ref = wsp.find(f"{WPS}style/{A}fillRef")
        if ref is not None and (ref.get("idx") or "0") not in ("0", ""):
            return resolve_themed_color(ref, self.s.styles.theme)
        return None

    def _textbox(
        self,
        content: etree._Element,
        para: _Para,
        attrs: dict[str, Any],
        *,
        background: str | None = None,
        text_color: str | None = None,
    ) -> Node:
        tb_id = para.next_id("tb")
        children = BodyWalker(self.s, self.part).blocks(
            content, tb_id, background=background, text_color=text_color
        )
        return blank_node(
            tb_id, "textbox", {**attrs, "anchor_paragraph": para.node_id}, self.part
        ).model_copy(update={"children": children})

    def _wordart(self, text: str, shape: etree._Element, para: _Para) -> Node:
        """A VML WordArt shape (``v:textpath string=...``): Word's "DRAFT" or
        "CONFIDENTIAL" watermark. LibreOffice draws its letters as outlines, with no text
        layer, so the text has no box; it is the shape's own text (no run: nothing for
        the layout to look for among the page's characters), so "the document is marked
        DRAFT" finds what every page shows."""
        attrs = vml_size(shape.get("style"))
        attrs.update(vml=True, wordart=True)
        if _is_watermark(shape):
            attrs["watermark"] = True
        return fast_node(id=para.next_id("shape"), kind="shape", text=text, attrs=attrs, source=self.part)

    def _vml(
        self, pict: etree._Element, para: _Para, run_attrs: dict[str, Any], *, ole: bool
    ) -> None:
        # The handled elements themselves (not their ids): held here, lxml hands back the
        # same proxy for the same node, while a freed proxy's id could be another node's.
        handled: set[etree._Element] = set()
        for el in pict.iter():
            if not isinstance(el.tag, str) or any(a in handled for a in el.iterancestors()):
                continue
            name = _local(el)
            if name == "txbxContent":
                handled.add(el)
                shape = next(
                    (a for a in el.iterancestors() if _ns(a) == V[1:-1] and _local(a) != "textbox"),
                    None,
                )
                attrs = vml_size(shape.get("style") if shape is not None else None)
                attrs["vml"] = True
                para.floating.append(self._textbox(el, para, attrs))
            elif name == "textpath" and _ns(el) == V[1:-1] and el.get("string"):
                shape = el.getparent()
                if shape is None or _local(shape) == "shapetype":
                    continue  # the shape type's textpath says only that text may follow a path
                handled.add(el)
                para.children.append(self._wordart(el.get("string") or "", shape, para))
            elif name == "imagedata" and _ns(el) == V[1:-1]:
                handled.add(el)
                shape = el.getparent()
                attrs = vml_size(shape.get("style") if shape is not None else None)
                attrs["vml"] = True
                if ole:
                    attrs["ole"] = True
                    ole_el = pict.find(f"{O}OLEObject")
                    prog_id = ole_el.get("ProgID") if ole_el is not None else None
                    if prog_id:
                        attrs["ole_prog_id"] = prog_id
                        if is_equation_prog_id(prog_id):
                            attrs["equation"] = True
                            attrs["equation_format"] = "ole"
                if run_attrs.get("hyperlink"):
                    attrs["hyperlink"] = run_attrs["hyperlink"]
                self._attach_blob(attrs, el.get(f"{R}id") or el.get(f"{R}pict"), el.get(f"{R}href"))
                para.children.append(blank_node(para.next_id("img"), "image", attrs, self.part))


def _is_watermark(shape: etree._Element) -> bool:
    """Word's watermark (Design > Watermark): a VML WordArt shape Word names
    ``PowerPlusWaterMarkObject``, drawn behind the text of every page its header is on."""
    return "watermark" in (shape.get("id") or "").lower()


# A Node without pydantic re-validation: the walker builds tens of thousands per large
# document and every value it passes is already of the declared type (validating
# ``attrs`` as JsonValue dominated extraction time). tree_builder.make_node makes exactly
# what ``Node.model_construct`` makes at a fifth of its cost (~40k nodes in a 180-page
# file); the name is that function itself, not a wrapper passing the keywords on (a
# second packing of them per node).
fast_node = make_node


_NESTED_LIST_STYLE = re.compile(r"list(?: bullet| number| continue)? ([2-9])", re.IGNORECASE)


def _painted_instead(raw: Any, shown: str | None) -> str | None:
    """The ``w:val`` of a ``w:color`` that also names a theme colour, when the two are
    visibly apart (RGB distance > 16: Word writes the theme colour's own value, within
    rounding). The tree follows the theme colour, as Word draws it; LibreOffice 7.4
    paints ``w:val`` (python-docx's ``font.color.theme_color = ACCENT_1`` writes
    ``w:val="000000"``: drawn black there), so a verdict that disagrees with the render
    can say why."""
    if not isinstance(raw, tuple) or len(raw) < 2 or not raw[1] or not isinstance(raw[0], str) or len(raw[0]) != 6:
        return None
    stated, drawn = hex_to_rgb(raw[0]), hex_to_rgb(shown)
    if stated is None or drawn is None:
        return None
    apart = math.dist(stated, drawn) * 255 > 16
    return f"#{raw[0].lower()}" if apart else None


def _style_depth(style_name: str, direct: dict[str, Any]) -> int:
    """How many levels Word's built-in nested list styles ("List Bullet 2" .. "List
    Number 5") sit below the top: each is level 0 of its own list, indented one step
    further per number, and is how python-docx users nest bullets. A person sees a
    second-level bullet, so the item's level counts the style's depth. Numbering set on
    the paragraph itself (``w:numPr``) says its own level: 0."""
    if "num_id" in direct or "ilvl" in direct:
        return 0
    m = _NESTED_LIST_STYLE.fullmatch(style_name.strip())
    return int(m.group(1)) - 1 if m else 0


@functools.lru_cache(maxsize=1024)
def heading_level(style_name: str | None, outline_level: int | None) -> int | None:
    """1-9 for ``Heading N`` styles and paragraphs with an outline level 0-8; 0 for
    ``Title``; None for body text (outline level 9 or none)."""
    if style_name:
        m = re.fullmatch(r"heading\s*([1-9])", style_name.strip(), re.IGNORECASE)
        if m:
            return int(m.group(1))
        if style_name.strip().lower() == "title":
            return 0
    if outline_level is not None and 0 <= outline_level <= 8:
        return outline_level + 1
    return None


def _twips_pt(raw: str | None) -> float | None:
    """A twips value (``w:gridCol w:w``) in points; None when absent or malformed."""
    try:
        return round(float(raw) / 20.0, 2) if raw is not None else None
    except ValueError:
        return None


_CELL_STYLES: dict[tuple[Any, str], Style] = {}


def _cell_style(fill: Any, valign: str) -> Style:
    """A cell's Style (fill with its theme slot, vertical alignment), shared per value."""
    key = (fill, valign)
    got = _CELL_STYLES.get(key)
    if got is None:
        got = _CELL_STYLES[key] = Style(
            fill=fill.hex if fill is not None else None,
            fill_theme=fill.theme if fill is not None else None,
            fill_theme_mods=fill.mods if fill is not None else None,
            valign=valign,
        )
    return got


def _grid_before(tr: etree._Element) -> int:
    gb = None  # tr.find("w:trPr/w:gridBefore"): the first in any w:trPr
    for tr_pr in tr.iterchildren(f"{W}trPr"):
        gb = find_child(tr_pr, f"{W}gridBefore")
        if gb is not None:
            break
    try:
        return int(gb.get(f"{W}val", "0")) if gb is not None else 0
    except ValueError:
        return 0


_MERGE_BLOCKERS = ("footnote_ref", "endnote_ref", "math", "field")


# Text after a tab: the pieces a tab stop moves apart ("ACME Corp\t\tConfidential").
_TAB_PIECES = re.compile(r"[^\t]*\t+|[^\t]+")


def _split_after_tabs(node: Node) -> list[Node]:
    """``node`` as one run per tab-ended piece of its text (the tabs stay with the text
    before them); any other node as itself."""
    if node.kind != "run" or "\t" not in node.text.rstrip("\t"):
        return [node]
    first, *rest = _TAB_PIECES.findall(node.text)
    pieces = [node.model_copy(update={"text": text, "attrs": dict(node.attrs)}) for text in rest]
    node.text = first
    return [node, *pieces]


def _merge_runs(children: list[Node], para_id: str) -> list[Node]:
    """Join adjacent text runs with the same effective style and attributes: Word splits
    runs at every edit session (``w:rsidR``), which says nothing about formatting. Then
    split runs after their tabs: text a tab stop sends to the right margin is drawn apart
    from what precedes it (a left/right footer on one line), and a run is one box."""
    out: list[Node] = []
    for node in children:
        prev = out[-1] if out else None
        if (
            prev is not None
            and node.kind == "run"
            and prev.kind == "run"
            and prev.style == node.style
            and prev.attrs == node.attrs
            and not any(k in node.attrs for k in _MERGE_BLOCKERS)
            and not (prev.text.endswith("\t") and node.text.strip("\t"))
        ):
            # In place, not model_copy: the walker's fresh nodes are referenced only by
            # this list (a copy cost ~10 us a run, ~20k runs in a long document).
            prev.text = prev.text + node.text
        else:
            out.append(node)
    if any(n.kind == "run" and "\t" in n.text.rstrip("\t") for n in out):
        out = [piece for node in out for piece in _split_after_tabs(node)]
    # renumber runs so their ids stay dense (r0, r1, ...) after merging
    k = 0
    for node in out:
        if node.kind == "run":
            run_id = f"{para_id}/r{k}"
            if node.id != run_id:
                node.id = run_id
            k += 1
    return out
