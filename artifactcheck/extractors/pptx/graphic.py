"""Graphic frames: tables, charts, SmartArt diagrams and OLE objects.

Tables: cell boxes come from ``a:tblGrid/a:gridCol@w`` and ``a:tr@h`` laid out from the
frame's top-left in the frame's parent space (then through any group transform). Row
heights in the file are what PowerPoint last laid out; a renderer may grow rows whose text
no longer fits. A merged cell (``gridSpan``/``rowSpan``) gets the box of the whole merged
area; cells it covers (``hMerge``/``vMerge``) are kept, with ``merged_into`` and no box.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Protocol, cast

from lxml import etree

from ...errors import ArtifactCheckError
from ...model import Box, Node, NodeKind, Style
from ..drawingml.color import A_NS
from ..tree_builder import make_node
from .fill import Fill, read_fill
from .geometry import Affine, Xfrm, emu_box, translate
from .shape_attrs import base_attrs, source_of
from .slide import SlideContext, child, local
from .table_style import cell_parts, part_fill, part_text_rpr
from .text import TextContext, paragraph_nodes


class ShapeWalker(Protocol):
    """What a graphic frame needs from the walker that met it (``shapes.ShapeWalker``):
    the slide context, the part being walked, placement, pictures, and a walker over a
    SmartArt drawing part. A protocol, so frames sit below the walker that calls them."""

    ctx: SlideContext
    part: str

    def place(self, shape: etree._Element, inherited: list[etree._Element], parent: Affine, attrs: dict[str, Any], rot_acc: float) -> tuple[list[Box], Xfrm | None]: ...

    def blip_blob(self, rid: str | None, part: str) -> str | None: ...

    def walk(self, tree: etree._Element, parent: Affine, parent_id: str, rot_acc: float) -> list[Node]: ...

    def for_part(self, part: str) -> ShapeWalker: ...

_A = f"{{{A_NS}}}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_URI_TABLE = "http://schemas.openxmlformats.org/drawingml/2006/table"
_URI_CHART = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_URI_DIAGRAM = "http://schemas.openxmlformats.org/drawingml/2006/diagram"
_URI_OLE = "http://schemas.openxmlformats.org/presentationml/2006/ole"
_VALIGN = {"t": "top", "ctr": "middle", "b": "bottom"}


def graphic_frame(walker: ShapeWalker, frame: etree._Element, parent: Affine, node_id: str, rot_acc: float) -> Node:
    ctx = walker.ctx
    attrs = base_attrs(frame, ctx)
    inherited = ctx.inherited(frame) if walker.part == ctx.part else []
    boxes, xfrm = walker.place(frame, inherited, parent, attrs, rot_acc)
    data = frame.find(f"{_A}graphic/{_A}graphicData")
    uri = data.get("uri", "") if data is not None else ""
    source = source_of(frame, ctx, walker.part)
    kind = "shape"
    children: list[Node] = []
    if data is not None and uri == _URI_TABLE:
        kind = "table"
        tbl = data.find(f"{_A}tbl")
        if tbl is not None and xfrm is not None:
            children = _table_rows(walker, tbl, xfrm.x, xfrm.y, parent, node_id, attrs)
    elif data is not None and uri == _URI_CHART:
        kind = "chart"
        attrs.update(_chart_attrs(walker, data, source))
    elif data is not None and uri == _URI_DIAGRAM:
        kind = "group"
        attrs["graphic"] = "smartart"
        children = _smartart(walker, data, parent, xfrm, node_id, rot_acc)
    elif data is not None and uri == _URI_OLE:
        attrs["graphic"] = "ole"
        _ole(walker, data, attrs)
    else:
        attrs["graphic"] = uri or "unknown"
    # A chart's drawn title is its text, as in workbooks (xlsx/drawing.py), so "the slide
    # says 'Sales by Region'" finds a chart title.
    text = str(attrs.get("title") or "") if kind == "chart" else ""
    return Node(id=node_id, kind=cast("NodeKind", kind), text=text, attrs=attrs, boxes=boxes, source=source, children=children)


# -- tables ------------------------------------------------------------------------------


def _int(el: etree._Element | None, name: str, default: int) -> int:
    try:
        return int(el.get(name, str(default))) if el is not None else default
    except ValueError:
        return default


def _table_rows(walker: ShapeWalker, tbl: etree._Element, x: float, y: float, parent: Affine, node_id: str, attrs: dict[str, Any]) -> list[Node]:
    ctx = walker.ctx
    widths = [float(_int(c, "w", 0)) for c in tbl.iterfind(f"{_A}tblGrid/{_A}gridCol")]
    rows_el = list(tbl.iterfind(f"{_A}tr"))
    heights = [float(_int(r, "h", 0)) for r in rows_el]
    col_x = [x]
    for w in widths:
        col_x.append(col_x[-1] + w)
    row_y = [y]
    for h in heights:
        row_y.append(row_y[-1] + h)
    attrs.update(rows=len(rows_el), cols=len(widths))
    unsized = sum(1 for h in heights if h <= 0)
    if unsized:
        # PowerPoint sizes such rows to their text; only a render knows how tall they are
        # (render/table_rows.py), so a geometry check asks for the layout.
        attrs["rows_without_height"] = unsized
    text_styles = ctx.master_text_style(None)
    table_style = ctx.table_styles.for_table(tbl) if ctx.table_styles is not None else None
    if table_style is not None:
        attrs["table_style"] = table_style.get("styleName") or table_style.get("styleId")
    # keyed by the ids of the style elements; the value keeps them alive so that no other
    # element's proxy can reuse an id while the entry exists (see SlideContext.text_context)
    ctx_cache: dict[tuple[int, ...], tuple[list[etree._Element], TextContext]] = {}
    rows: list[Node] = []
    origin: dict[tuple[int, int], str] = {}
    for ri, tr in enumerate(rows_el):
        row_id = f"{node_id}/tr{ri}"
        cells: list[Node] = []
        for ci, tc in enumerate(tr.iterfind(f"{_A}tc")):
            cell_id = f"{row_id}/tc{ci}"
            cell_attrs: dict[str, Any] = {"row": ri, "col": ci}
            span_c = max(1, _int(tc, "gridSpan", 1))
            span_r = max(1, _int(tc, "rowSpan", 1))
            covered = tc.get("hMerge") in ("1", "true") or tc.get("vMerge") in ("1", "true")
            boxes = []
            if covered:
                # The origin cell (left for hMerge, above for vMerge) claimed this slot.
                cell_attrs["merged_into"] = origin.get((ri, ci))
                cell_attrs["rendered"] = False
                cell_attrs["not_rendered_reason"] = "covered by a merged cell"
            elif ci < len(widths):
                c1 = min(ci + span_c, len(widths))
                r1 = min(ri + span_r, len(heights))
                boxes = [emu_box(ctx.page, col_x[ci], row_y[ri], col_x[c1] - col_x[ci], row_y[r1] - row_y[ri], parent)]
                if span_c > 1:
                    cell_attrs["col_span"] = span_c
                if span_r > 1:
                    cell_attrs["row_span"] = span_r
                for rr in range(ri, ri + span_r):
                    for cc in range(ci, ci + span_c):
                        origin[(rr, cc)] = cell_id
            parts = cell_parts(table_style, tbl, ri, ci, len(rows_el), len(widths)) if table_style is not None else []
            tc_pr = tc.find(f"{_A}tcPr")
            fill_el = None
            if tc_pr is not None:
                fill_el = next((f for f in tc_pr if local(f) in ("solidFill", "gradFill", "pattFill", "noFill", "blipFill")), None)
            if fill_el is None:
                fill_el = part_fill(parts)
            cell_fill = read_fill(fill_el, ctx.theme, ctx.clr_map, part=None) if fill_el is not None else None
            if cell_fill is not None and cell_fill.alpha < 1 and cell_fill.color is not None:
                cell_attrs["fill_alpha"] = cell_fill.alpha  # laid over the slide: see pptx/see_through.py
            body = tc.find(f"{_A}txBody")
            own = body.find(f"{_A}lstStyle") if body is not None else None
            own_used = own is not None and len(own) > 0
            key = (id(own) if own_used else 0, *(id(p) for p in parts))
            cached = ctx_cache.get(key)
            tctx = cached[1] if cached is not None else None
            if tctx is None:
                tctx = TextContext(
                    theme=ctx.theme,
                    clr_map=ctx.clr_map,
                    list_styles=([own] if own_used else []) + text_styles,
                    font_ref=part_text_rpr(parts),
                    font_ref_at=1 if own_used else 0,
                    hyperlink=ctx.hyperlink,
                    slide_number=ctx.slide_number,
                )
                ctx_cache[key] = ([own, *parts] if own is not None else list(parts), tctx)
            paras = paragraph_nodes(body, tctx, id_prefix=cell_id, boxes=boxes)
            anchor = tc_pr.get("anchor") if tc_pr is not None else None
            insets = _cell_insets(tc_pr)
            if insets is not None:
                cell_attrs["insets_pt"] = insets
            cells.append(
                make_node(
                    cell_id,
                    "cell",
                    style=_cell_style(cell_fill, _VALIGN.get(anchor or "t", "top")),
                    attrs=cell_attrs,
                    boxes=boxes,
                    children=paras,
                )
            )
        row_box = [emu_box(ctx.page, col_x[0], row_y[ri], col_x[-1] - col_x[0], heights[ri], parent)]
        rows.append(make_node(row_id, "row", attrs={"row": ri}, boxes=row_box, children=cells))
    return rows


@lru_cache(maxsize=256)
def _cell_style(fill: Fill | None, valign: str) -> Style:
    """One shared (frozen) Style per distinct cell look: a deck has few, cells many."""
    if fill is None or fill.color is None:
        return Style(valign=valign)
    return Style(fill=fill.color, fill_theme=fill.theme, fill_theme_mods=fill.mods, valign=valign)


_CELL_INSETS_EMU = (("marL", 91440), ("marT", 45720), ("marR", 91440), ("marB", 45720))


def _cell_insets(tc_pr: etree._Element | None) -> list[float] | None:
    """[left, top, right, bottom] in points when ``a:tcPr`` states other margins than
    the defaults (0.1 in left/right, 0.05 in top/bottom); None otherwise."""
    if tc_pr is None or not any(tc_pr.get(name) is not None for name, _ in _CELL_INSETS_EMU):
        return None
    out = [_int(tc_pr, name, default) / 12700.0 for name, default in _CELL_INSETS_EMU]
    return None if out == [7.2, 3.6, 7.2, 3.6] else [round(v, 3) for v in out]


# -- charts ------------------------------------------------------------------------------


def _chart_attrs(walker: ShapeWalker, data: etree._Element, source: str) -> dict[str, Any]:
    ctx = walker.ctx
    ref = data.find("{http://schemas.openxmlformats.org/drawingml/2006/chart}chart")
    rel = ctx.pkg.related(walker.part, ref.get(f"{_R}id") if ref is not None else None)
    if rel is None or rel.external:
        ctx.warnings.append(f"{source}: chart part is missing; chart type, title and series unknown")
        return {"chart_type": None, "chart_error": "chart part missing"}
    # Imported here: the chart reader costs ~0.02 s to import, and most decks have no chart.
    from .chart import read_chart

    try:
        attrs = read_chart(ctx.pkg.xml(rel.target, cache=False))
    except ArtifactCheckError as exc:
        ctx.warnings.append(f"{source}: chart part {rel.target} unreadable: {exc}")
        return {"chart_type": None, "chart_error": str(exc)}
    attrs["chart_part"] = rel.target
    return attrs


# -- SmartArt ----------------------------------------------------------------------------


def _smartart(walker: ShapeWalker, data: etree._Element, parent: Affine, xfrm: Any, node_id: str, rot_acc: float) -> list[Node]:
    """Shapes of the diagram's drawing part (what PowerPoint last drew), placed at the
    frame's offset; without one, the data model's text as paragraphs."""
    ctx = walker.ctx
    rel_ids = child(data, "relIds")
    dm_rel = ctx.pkg.related(walker.part, rel_ids.get(f"{_R}dm")) if rel_ids is not None else None
    drawing_part = None
    if dm_rel is not None and not dm_rel.external and ctx.pkg.has(dm_rel.target):
        dm = ctx.pkg.xml(dm_rel.target, cache=False)
        for ext in dm.iter("{http://schemas.microsoft.com/office/drawing/2008/diagram}dataModelExt"):
            rel = ctx.pkg.related(walker.part, ext.get("relId"))
            if rel is not None and not rel.external and ctx.pkg.has(rel.target):
                drawing_part = rel.target
        if drawing_part is None:
            texts = ["".join(t.text or "" for t in pt.iter(f"{_A}t")) for pt in dm.iter("{http://schemas.openxmlformats.org/drawingml/2006/diagram}pt")]
            body = etree.Element(f"{_A}txBody")
            for text in texts:
                if text:
                    etree.SubElement(etree.SubElement(etree.SubElement(body, f"{_A}p"), f"{_A}r"), f"{_A}t").text = text
            tctx = TextContext(theme=ctx.theme, clr_map=ctx.clr_map, list_styles=ctx.master_text_style(None), hyperlink=ctx.hyperlink, slide_number=ctx.slide_number)
            return paragraph_nodes(body, tctx, id_prefix=node_id, boxes=[])
    if drawing_part is None or xfrm is None:
        return []
    drawing = ctx.pkg.xml(drawing_part, cache=False)
    tree = child(drawing, "spTree")
    if tree is None:
        return []
    inner = walker.for_part(drawing_part)
    # Drawing shapes are in the frame's space with the frame's top-left at (0, 0).
    return inner.walk(tree, parent @ xfrm.own_transform @ translate(xfrm.x, xfrm.y), node_id, rot_acc + xfrm.rot)


# -- OLE ---------------------------------------------------------------------------------


def _ole(walker: ShapeWalker, data: etree._Element, attrs: dict[str, Any]) -> None:
    ole = None
    for el in data.iter("{http://schemas.openxmlformats.org/presentationml/2006/main}oleObj"):
        ole = el
        if child(el, "pic") is not None:
            break
    if ole is None:
        return
    attrs["prog_id"] = ole.get("progId")
    rel = walker.ctx.pkg.related(walker.part, ole.get(f"{_R}id"))
    if rel is not None:
        attrs["ole_target"] = rel.target
    pic = child(ole, "pic")
    blip = pic.find(f".//{_A}blip") if pic is not None else None
    if blip is not None:
        sha = walker.blip_blob(blip.get(f"{_R}embed"), walker.part)
        if sha is not None:
            attrs["blob"] = sha
