"""A sheet's drawing part (``xl/drawings/drawingN.xml``): pictures, charts, shapes, text
boxes, connectors and groups, each with a box computed from its anchor.

Anchors (ECMA-376 Part 1, 20.5.2): ``twoCellAnchor`` (from and to markers: 0-based
column/row plus an offset in EMU), ``oneCellAnchor`` (from marker plus ``ext`` size) and
``absoluteAnchor`` (``pos`` plus ``ext``, EMU from the top-left of A1). Markers are turned
into points with the sheet's :class:`SheetGrid`; offsets are never clamped to the cell.
Group members are mapped from the group's child space (``chOff``/``chExt``) onto the
group's box. Rotation is recorded in attrs (``rotation`` degrees), not applied.
openpyxl drops most of this (shapes, groups, offsets of one-cell anchors), so the XML is
read here directly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

from lxml import etree

from ...model import Blob, Box, Node, NodeKind, describe_image
from ...model.units import emu_to_pt
from .chart import read_chart
from .grid import SheetGrid
from .parts import Parts

XDR = "{http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
MC = "{http://schemas.openxmlformats.org/markup-compatibility/2006}"

Mapper = Callable[[float, float, float, float], tuple[float, float, float, float]]


@dataclass
class DrawingResult:
    nodes: list[Node] = field(default_factory=list)
    blobs: dict[str, Blob] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    extent: tuple[float, float] = (0.0, 0.0)  # max x1, max bottom over all boxes


def _int(el: etree._Element | None, name: str, default: int = 0) -> int:
    if el is None:
        return default
    try:
        return int(float(el.get(name, default)))
    except (TypeError, ValueError):
        return default


def _marker(el: etree._Element | None) -> tuple[int, int, int, int]:
    """(col, colOff EMU, row, rowOff EMU) of an ``xdr:from``/``xdr:to``."""
    if el is None:
        return (0, 0, 0, 0)

    def num(tag: str) -> int:
        try:
            return int(float(el.findtext(f"{XDR}{tag}") or 0))
        except ValueError:
            return 0

    return (num("col"), num("colOff"), num("row"), num("rowOff"))


def _ref(col0: int, row0: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(max(1, min(col0 + 1, 16384)))}{row0 + 1}"


def _anchor_rect(anchor: etree._Element, grid: SheetGrid) -> tuple[tuple[float, float, float, float], dict[str, Any]]:
    local = etree.QName(anchor).localname
    attrs: dict[str, Any] = {"anchor": local}
    if local == "twoCellAnchor":
        f = _marker(anchor.find(f"{XDR}from"))
        t = _marker(anchor.find(f"{XDR}to"))
        x0, y0 = grid.anchor_point(f[0], f[1], f[2], f[3])
        x1, y1 = grid.anchor_point(t[0], t[1], t[2], t[3])
        attrs.update({"from": _ref(f[0], f[2]), "to": _ref(t[0], t[2])})
        if anchor.get("editAs"):
            attrs["edit_as"] = anchor.get("editAs")
        return (x0, y0, x1, y1), attrs
    if local == "oneCellAnchor":
        f = _marker(anchor.find(f"{XDR}from"))
        ext = anchor.find(f"{XDR}ext")
        x0, y0 = grid.anchor_point(f[0], f[1], f[2], f[3])
        attrs["from"] = _ref(f[0], f[2])
        return (x0, y0, x0 + emu_to_pt(_int(ext, "cx")), y0 + emu_to_pt(_int(ext, "cy"))), attrs
    pos = anchor.find(f"{XDR}pos")
    ext = anchor.find(f"{XDR}ext")
    x0, y0 = emu_to_pt(_int(pos, "x")), emu_to_pt(_int(pos, "y"))
    return (x0, y0, x0 + emu_to_pt(_int(ext, "cx")), y0 + emu_to_pt(_int(ext, "cy"))), attrs


def _box(page: int, rect: tuple[float, float, float, float]) -> Box:
    x0, y0, x1, y1 = rect
    return Box(page=page, x0=min(x0, x1), top=min(y0, y1), x1=max(x0, x1), bottom=max(y0, y1))


def _text_of(el: etree._Element) -> str:
    body = el.find(f"{XDR}txBody")
    if body is None:
        return ""
    return "\n".join("".join(t.text or "" for t in p.iter(f"{A}t")) for p in body.iterfind(f"{A}p"))


def _cnv(el: etree._Element) -> tuple[str, dict[str, Any]]:
    """(shape id, attrs) from the non-visual properties (``cNvPr``)."""
    nv = next(el.iter(f"{XDR}cNvPr"), None)
    attrs: dict[str, Any] = {}
    sid = "0"
    if nv is not None:
        sid = nv.get("id", "0")
        if nv.get("name"):
            attrs["name"] = nv.get("name")
        if nv.get("descr"):
            attrs["alt_text"] = nv.get("descr")
        if nv.get("hidden") in ("1", "true"):
            attrs["hidden"] = True
        link = nv.find(f"{A}hlinkClick")
        if link is not None:
            attrs["hyperlink_rid"] = link.get(f"{R}id")
    return sid, attrs


def _xfrm(el: etree._Element) -> etree._Element | None:
    for path in (f"{XDR}spPr/{A}xfrm", f"{XDR}grpSpPr/{A}xfrm", f"{XDR}xfrm"):
        x = el.find(path)
        if x is not None:
            return x
    return None


class DrawingReader:
    """Turns one drawing part into nodes for sheet page ``page``."""

    def __init__(self, parts: Parts, part: str, *, grid: SheetGrid, page: int, id_prefix: str) -> None:
        self.parts = parts
        self.part = part
        self.grid = grid
        self.page = page
        self.prefix = id_prefix
        self.result = DrawingResult()
        self._max = [0.0, 0.0]

    def read(self) -> DrawingResult:
        root = self.parts.xml(self.part)
        for anchor in root:
            local = etree.QName(anchor).localname if isinstance(anchor.tag, str) else ""
            if local not in ("twoCellAnchor", "oneCellAnchor", "absoluteAnchor"):
                continue
            rect, anchor_attrs = _anchor_rect(anchor, self.grid)
            for content in self._contents(anchor):
                node = self._node(content, rect, anchor_attrs, identity)
                if node is not None:
                    self.result.nodes.append(node)
        self.result.extent = (self._max[0], self._max[1])
        return self.result

    def _contents(self, parent: etree._Element) -> list[etree._Element]:
        out = []
        for el in parent:
            if not isinstance(el.tag, str):
                continue
            local = etree.QName(el).localname
            if local == "AlternateContent":
                # Prefer the Fallback (plain DrawingML) over a Choice needing extensions.
                fb = el.find(f"{MC}Fallback")
                choice = el.find(f"{MC}Choice")
                pick = fb if fb is not None and len(fb) else choice
                if pick is not None:
                    out.extend(self._contents(pick))
            elif local in ("sp", "pic", "graphicFrame", "grpSp", "cxnSp"):
                out.append(el)
        return out

    def _node(
        self,
        el: etree._Element,
        rect: tuple[float, float, float, float],
        anchor_attrs: dict[str, Any],
        mapper: Mapper,
    ) -> Node | None:
        local = etree.QName(el).localname
        sid, attrs = _cnv(el)
        attrs.update(anchor_attrs)
        xfrm = _xfrm(el)
        if xfrm is not None and xfrm.get("rot"):
            attrs["rotation"] = _int(xfrm, "rot") / 60000
        if xfrm is not None and (xfrm.get("flipH") in ("1", "true") or xfrm.get("flipV") in ("1", "true")):
            attrs["flip"] = "".join(
                k for k, a in (("h", "flipH"), ("v", "flipV")) if xfrm.get(a) in ("1", "true")
            )
        box = _box(self.page, mapper(*rect))
        self._max[0] = max(self._max[0], box.x1)
        self._max[1] = max(self._max[1], box.bottom)
        node_id = f"{self.prefix}/{local}{sid}"
        source = f"{self.part}#{sid}"
        if local == "pic":
            return self._picture(el, node_id, source, box, attrs)
        if local == "graphicFrame":
            return self._frame(el, node_id, source, box, attrs)
        if local == "grpSp":
            return self._group(el, node_id, source, box, attrs, rect, mapper)
        text = _text_of(el)
        geom = el.find(f"{XDR}spPr/{A}prstGeom")
        if geom is not None:
            attrs["shape_type"] = geom.get("prst")
        if local == "cxnSp":
            attrs["connector"] = True
        nv_sp = el.find(f"{XDR}nvSpPr/{XDR}cNvSpPr")
        kind = "textbox" if nv_sp is not None and nv_sp.get("txBox") in ("1", "true") else "shape"
        return Node(id=node_id, kind=cast("NodeKind", kind), text=text, attrs=attrs, boxes=[box], source=source)

    def _picture(self, el: etree._Element, node_id: str, source: str, box: Box, attrs: dict[str, Any]) -> Node:
        blip = el.find(f"{XDR}blipFill/{A}blip")
        rid = blip.get(f"{R}embed") if blip is not None else None
        link = blip.get(f"{R}link") if blip is not None else None
        rels = self.parts.rels(self.part)
        src = el.find(f"{XDR}blipFill/{A}srcRect")
        if src is not None and any(src.get(k) for k in ("l", "t", "r", "b")):
            attrs["crop"] = {k: _int(src, k) / 100000 for k in ("l", "t", "r", "b")}
        if rid and rid in rels and not rels[rid].external:
            target = rels[rid].target
            if self.parts.has(target):
                blob = describe_image(self.parts.read(target), mime=self.parts.mime(target), name=target.rsplit("/", 1)[-1])
                self.result.blobs.setdefault(blob.sha256, blob)
                attrs["blob"] = blob.sha256
                attrs["media_part"] = target
                if blob.decode_error:
                    self.result.warnings.append(f"{node_id}: image {target} not decoded: {blob.decode_error}")
            else:
                self.result.warnings.append(f"{node_id}: image part {target} is missing")
        elif link and link in rels:
            attrs["image_link"] = rels[link].target
        return Node(id=node_id, kind="image", attrs=attrs, boxes=[box], source=source)

    def _frame(self, el: etree._Element, node_id: str, source: str, box: Box, attrs: dict[str, Any]) -> Node:
        data = el.find(f"{A}graphic/{A}graphicData")
        chart_ref = data.find(f"{C}chart") if data is not None else None
        if chart_ref is None:
            attrs["graphic"] = data.get("uri") if data is not None else None
            return Node(id=node_id, kind="shape", attrs=attrs, boxes=[box], source=source)
        rid = chart_ref.get(f"{R}id")
        rel = self.parts.rels(self.part).get(rid or "")
        text = ""
        if rel is not None and self.parts.has(rel.target):
            chart = read_chart(self.parts.xml(rel.target))
            attrs.update(chart)
            attrs["chart_part"] = rel.target
            text = chart.get("title") or ""
        else:
            self.result.warnings.append(f"{node_id}: chart part for {rid} is missing")
        return Node(id=node_id, kind="chart", text=text, attrs=attrs, boxes=[box], source=source)

    def _group(
        self,
        el: etree._Element,
        node_id: str,
        source: str,
        box: Box,
        attrs: dict[str, Any],
        rect: tuple[float, float, float, float],
        mapper: Mapper,
    ) -> Node:
        xfrm = el.find(f"{XDR}grpSpPr/{A}xfrm")
        child_mapper = mapper
        if xfrm is not None:
            ch_off, ch_ext = xfrm.find(f"{A}chOff"), xfrm.find(f"{A}chExt")
            gx0, gy0, gx1, gy1 = mapper(*rect)
            cx, cy = emu_to_pt(_int(ch_off, "x")), emu_to_pt(_int(ch_off, "y"))
            cw, chh = emu_to_pt(_int(ch_ext, "cx")), emu_to_pt(_int(ch_ext, "cy"))
            sx = (gx1 - gx0) / cw if cw else 1.0
            sy = (gy1 - gy0) / chh if chh else 1.0

            def child_mapper(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
                return (gx0 + (x0 - cx) * sx, gy0 + (y0 - cy) * sy, gx0 + (x1 - cx) * sx, gy0 + (y1 - cy) * sy)

        children: list[Node] = []
        for child in self._contents(el):
            cx_el = _xfrm(child)
            if cx_el is None:
                continue
            off, ext = cx_el.find(f"{A}off"), cx_el.find(f"{A}ext")
            x0, y0 = emu_to_pt(_int(off, "x")), emu_to_pt(_int(off, "y"))
            crect = (x0, y0, x0 + emu_to_pt(_int(ext, "cx")), y0 + emu_to_pt(_int(ext, "cy")))
            node = self._node(child, crect, {}, child_mapper)
            if node is not None:
                node.id = f"{node_id}/{node.id.rsplit('/', 1)[-1]}"
                children.append(node)
        return Node(id=node_id, kind="group", attrs=attrs, boxes=[box], source=source, children=children)


def identity(x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
    return (x0, y0, x1, y1)
