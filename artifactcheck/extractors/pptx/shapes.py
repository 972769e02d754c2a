"""Walking a slide's ``p:spTree`` into nodes with exact slide-space boxes.

Dispatch is on local names, so the same walker reads a SmartArt drawing part
(``dsp:`` namespace). Each shape gets: ``z`` (draw order over the whole slide, group
children included), ``shape_id``/``name``/``alt_text``, ``rotation`` (own, degrees
clockwise) and ``rotation_effective`` (with enclosing groups), flips, placeholder
type/idx, its fill in ``Style.fill`` and text children. Tables, charts, SmartArt and OLE
objects live in ``graphic.py``; the attributes every shape carries in ``shape_attrs.py``.
"""

from __future__ import annotations

import math
from typing import Any, cast

from lxml import etree

from ...errors import ArtifactTooLarge
from ...model import Box, Node, NodeKind, Style
from ..drawingml.color import A_NS
from .fill import Fill, line_color, shadow_alpha, shape_fill
from .geometry import EMU_PER_PT, Affine, Xfrm, XfrmParts, read_xfrm_parts, to_box
from .graphic import graphic_frame
from .media import Crop
from .shape_attrs import base_attrs, shape_xfrm, source_of
from .slide import SlideContext, child, local, placeholder_of
from .text import paragraph_nodes

_A = f"{{{A_NS}}}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_VALIGN = {"t": "top", "ctr": "middle", "b": "bottom", "just": "justify", "dist": "distributed"}
NO_POSITION = "placeholder has no position on the slide, its layout or its master"
NO_SIZE = "placeholder has no size on the slide, its layout or its master"


class ShapeWalker:
    """Turns one spTree into nodes. ``part`` is the XML part the tree lives in (the
    slide, or a SmartArt drawing part) for relationship lookups."""

    def __init__(self, ctx: SlideContext, *, part: str) -> None:
        self.ctx = ctx
        self.part = part

    def for_part(self, part: str) -> ShapeWalker:
        """A walker over another part's shape tree (a SmartArt drawing) on the same slide."""
        return ShapeWalker(self.ctx, part=part)

    def walk(
        self,
        tree: etree._Element,
        parent: Affine,
        parent_id: str,
        rot_acc: float,
        group_fill: Fill | None = None,
        *,
        skip_placeholders: bool = False,
    ) -> list[Node]:
        """Nodes of the drawable children of ``tree``. ``skip_placeholders`` for a
        layout's or master's tree: its placeholders are prompts, not drawn on slides."""
        out: list[Node] = []
        for shape in _shape_children(tree):
            if skip_placeholders and placeholder_of(shape) is not None:
                continue
            node_id = f"{parent_id}/sh{len(out)}"
            try:
                node = self.shape(shape, parent, node_id, rot_acc, group_fill)
            except ArtifactTooLarge:
                raise  # a budget refuses the deck, not one shape
            except Exception as exc:  # noqa: BLE001 - one bad shape must not lose the deck
                self.ctx.warnings.append(
                    f"internal: {source_of(shape, self.ctx, self.part)}: shape skipped: {type(exc).__name__}: {exc}"
                )
                continue
            if node is not None:
                holder = shape.getparent()
                if holder is not None and local(holder) in ("Fallback", "Choice"):
                    # From mc:AlternateContent (readers that skip it, like python-pptx, miss it).
                    node.attrs["alternate_content"] = local(holder).lower()
                out.append(node)
        return out

    def shape(self, shape: etree._Element, parent: Affine, node_id: str, rot_acc: float, group_fill: Fill | None) -> Node | None:
        name = local(shape)
        if name == "grpSp":
            return self.group(shape, parent, node_id, rot_acc, group_fill)
        if name == "graphicFrame":
            return graphic_frame(self, shape, parent, node_id, rot_acc)
        if name in ("sp", "pic", "cxnSp"):
            return self.drawn(shape, parent, node_id, rot_acc, group_fill)
        if name == "contentPart":
            attrs = base_attrs(shape, self.ctx)
            attrs.update(rendered=False, not_rendered_reason="ink content part: geometry is not in the slide XML")
            return Node(id=node_id, kind="shape", attrs=attrs, source=self.part)
        return None

    # -- geometry ----------------------------------------------------------------------
    def place(self, shape: etree._Element, inherited: list[etree._Element], parent: Affine, attrs: dict[str, Any], rot_acc: float) -> tuple[list[Box], Xfrm | None]:
        """Boxes of a shape. Position (``a:off``) and size (``a:ext``) are resolved
        independently, each from the shape's own xfrm, else from the first placeholder up
        the chain (layout, master) that states it; rotation and flips likewise from the
        first xfrm that states them. LibreOffice draws partial xfrms exactly so (tests/
        extractors/test_pptx_xfrm.py). ``position_from``/``size_from`` name the layout or
        master when a part was inherited."""
        xfrm = self._resolve_xfrm(shape, inherited, attrs)
        if xfrm is None:
            return [], None
        if xfrm.rot % 360:
            attrs["rotation"] = round(xfrm.rot % 360, 6)
        eff = (rot_acc + xfrm.rot) % 360
        if eff:
            attrs["rotation_effective"] = round(eff, 6)
        if xfrm.flip_h:
            attrs["flip_h"] = True
        if xfrm.flip_v:
            attrs["flip_v"] = True
        attrs.update(_drawn_turn(parent @ xfrm.own_transform, xfrm, eff))
        if local(shape) == "cxnSp" or _is_line(shape):
            # A line runs corner to corner; flips choose which corners.
            t = parent @ xfrm.own_transform
            ends = [t.apply(xfrm.x, xfrm.y), t.apply(xfrm.x + xfrm.cx, xfrm.y + xfrm.cy)]
            attrs["endpoints"] = [[x / EMU_PER_PT, y / EMU_PER_PT] for x, y in ends]
        return [to_box(self.ctx.page, xfrm, parent)], xfrm

    def _resolve_xfrm(self, shape: etree._Element, inherited: list[etree._Element], attrs: dict[str, Any]) -> Xfrm | None:
        """The shape's complete transform, or None (with ``rendered: false`` and the
        reason in ``attrs``) when no element of the chain gives a position or a size."""
        off: tuple[float, float] | None = None
        ext: tuple[float, float] | None = None
        rot: float | None = None
        flip_h: bool | None = None
        flip_v: bool | None = None
        own = read_xfrm_parts(shape_xfrm(shape))
        for src in [shape, *inherited]:
            parts = own if src is shape else read_xfrm_parts(shape_xfrm(src))
            if parts is None:
                continue
            where = None if src is shape else self._where(src)
            if off is None and parts.off is not None:
                off = parts.off
                if where:
                    attrs["position_from"] = where
            if ext is None and parts.ext is not None:
                ext = parts.ext
                if where:
                    attrs["size_from"] = where
            rot = parts.rot if rot is None else rot
            flip_h = parts.flip_h if flip_h is None else flip_h
            flip_v = parts.flip_v if flip_v is None else flip_v
        if placeholder_of(shape) is None:
            # Not a placeholder: nothing to inherit, and a missing part is CT_Transform2D's
            # default, (0, 0). LibreOffice draws such shapes (and groups) exactly there: a
            # lone a:off gives a zero-size frame whose text grows around it.
            if off is None:
                off = (0.0, 0.0)
                attrs["position_from"] = "default"
            if ext is None:
                ext = (0.0, 0.0)
                attrs["size_from"] = "default"
        if off is None or ext is None:
            attrs.pop("position_from", None)
            attrs.pop("size_from", None)
            attrs["rendered"] = False
            attrs["not_rendered_reason"] = NO_POSITION if off is None else NO_SIZE
            return None
        base = own if own is not None else XfrmParts(off=off, ext=ext)
        return base.complete(off, ext, rot=rot, flip_h=flip_h, flip_v=flip_v)

    def _where(self, placeholder: etree._Element) -> str:
        """``layout`` or ``master``: which part an inherited placeholder lives in."""
        return "layout" if placeholder.getroottree().getroot() is self.ctx.layout else "master"

    # -- kinds -------------------------------------------------------------------------
    def group(self, shape: etree._Element, parent: Affine, node_id: str, rot_acc: float, group_fill: Fill | None) -> Node:
        attrs = base_attrs(shape, self.ctx)
        boxes, xfrm = self.place(shape, [], parent, attrs, rot_acc)
        child_t = parent @ xfrm.child_transform() if xfrm is not None else parent
        own_fill = shape_fill([(child(shape, "grpSpPr"), self.part)], None, self.ctx.theme, self.ctx.clr_map, theme_part=self.ctx.theme_part)
        fill = group_fill if own_fill is not None and own_fill.type == "group" else own_fill
        children = self.walk(shape, child_t, node_id, rot_acc + (xfrm.rot if xfrm else 0.0), fill or group_fill)
        return Node(id=node_id, kind="group", attrs=attrs, boxes=boxes, source=source_of(shape, self.ctx, self.part), children=children)

    def drawn(self, shape: etree._Element, parent: Affine, node_id: str, rot_acc: float, group_fill: Fill | None) -> Node:
        ctx = self.ctx
        name = local(shape)
        inherited = ctx.inherited(shape) if self.part == ctx.part else []
        attrs = base_attrs(shape, ctx)
        boxes, _xfrm = self.place(shape, inherited, parent, attrs, rot_acc)
        sppr_chain = [(child(shape, "spPr"), self.part)] + [(child(s, "spPr"), "") for s in inherited]
        style_el = child(shape, "style")
        kind = "shape"
        if name == "pic":
            kind = self.picture(shape, attrs)
        else:
            c_nv = next((child(nv, "cNvSpPr") for nv in shape if local(nv).startswith("nv")), None)
            if c_nv is not None and c_nv.get("txBox") in ("1", "true"):
                kind = "textbox"
        geom = child(child(shape, "spPr"), "prstGeom")
        if geom is not None:
            attrs["shape_type"] = geom.get("prst")
        elif child(child(shape, "spPr"), "custGeom") is not None:
            attrs["shape_type"] = "custom"
        if name == "cxnSp":
            attrs["connector"] = True
            c_nv = next((child(nv, "cNvCxnSpPr") for nv in shape if local(nv).startswith("nv")), None)
            for end in ("stCxn", "endCxn"):
                el = child(c_nv, end)
                if el is not None:
                    attrs["start_shape_id" if end == "stCxn" else "end_shape_id"] = el.get("id")
        fill = shape_fill(sppr_chain, style_el, ctx.theme, ctx.clr_map, theme_part=ctx.theme_part)
        if fill is not None and fill.type == "group":
            fill = group_fill
        fill_color = fill_theme = fill_mods = None
        if fill is not None:
            attrs["fill_type"] = fill.type
            if fill.type in ("solid", "gradient", "pattern"):
                fill_color, fill_theme, fill_mods = fill.color, fill.theme, fill.mods
            if fill.alpha < 1 and fill_color is not None:
                attrs["fill_alpha"] = fill.alpha  # laid over its backdrop: see pptx/see_through.py
            if fill.type == "picture":
                blob = self.blip_blob(fill.blip_rid, fill.part or self.part)
                if blob is not None:
                    attrs["fill_blob"] = blob
        shadow = shadow_alpha(sppr_chain, style_el, ctx.theme)
        if shadow is not None:
            attrs["shadow_alpha"] = shadow
        lc = line_color(sppr_chain, style_el, ctx.theme, ctx.clr_map)
        if lc is not None:
            attrs["line_color"] = lc.hex
            if lc.theme:
                attrs["line_color_theme"] = lc.theme
                if lc.mods:
                    attrs["line_color_theme_mods"] = lc.mods
        body = child(shape, "txBody")
        body_pr = _first_body_pr([shape, *inherited])
        valign = _VALIGN.get(body_pr.get("anchor", "t"), "top") if body_pr is not None else ("top" if body is not None else None)
        wrap = (body_pr.get("wrap") != "none") if body_pr is not None else (True if body is not None else None)
        if body is not None:
            attrs.update(_autofit([(shape, None), *((s, self._where(s)) for s in inherited)]))
            insets = _text_insets([shape, *inherited])
            if insets is not None:
                attrs["insets_pt"] = insets
        children = paragraph_nodes(body, ctx.text_context(shape, inherited), id_prefix=node_id, boxes=boxes) if body is not None else []
        if not boxes and children:
            for n in children:
                _mark_unrendered(n, attrs.get("not_rendered_reason", ""))
        return Node(
            id=node_id,
            kind=cast("NodeKind", kind),
            style=Style(fill=fill_color, fill_theme=fill_theme, fill_theme_mods=fill_mods, valign=valign, wrap=wrap),
            attrs=attrs,
            boxes=boxes,
            source=source_of(shape, ctx, self.part),
            children=children,
        )

    def picture(self, shape: etree._Element, attrs: dict[str, Any]) -> str:
        """Fill picture attrs (blob, original_blob, crop); returns ``image`` or ``media``."""
        kind = "image"
        nv_pr = next((child(nv, "nvPr") for nv in shape if local(nv).startswith("nv")), None)
        if nv_pr is not None:
            for media in ("videoFile", "audioFile", "quickTimeFile"):
                m = child(nv_pr, media)
                if m is not None:
                    kind = "media"
                    attrs["media_type"] = media.removesuffix("File")
                    rel = self.ctx.pkg.related(self.part, m.get(f"{_R}link"))
                    if rel is not None:
                        attrs["media_target"] = rel.target
        blip_fill = child(shape, "blipFill")
        blip = child(blip_fill, "blip")
        if blip is None:
            return kind
        src = child(blip_fill, "srcRect")
        crop = Crop()
        if src is not None:
            vals = {}
            for k in ("l", "t", "r", "b"):
                try:
                    vals[k] = float(src.get(k, "0")) / 100_000.0
                except ValueError:
                    vals[k] = 0.0
            crop = Crop(**vals)
        if not crop.is_empty:
            attrs["crop"] = crop.as_attrs()
        link = blip.get(f"{_R}link")
        if link and not blip.get(f"{_R}embed"):
            rel = self.ctx.pkg.related(self.part, link)
            attrs["linked_image"] = rel.target if rel is not None else None
            return kind
        rel = self.ctx.pkg.related(self.part, blip.get(f"{_R}embed"))
        if rel is None or rel.external:
            attrs["image_missing"] = True
            return kind
        original = self.ctx.media.original(rel.target)
        if original is None:
            attrs["image_missing"] = True
            return kind
        attrs["original_blob"] = original.sha256
        attrs["blob"] = original.sha256
        if not crop.is_empty:
            cropped = self.ctx.media.cropped(rel.target, crop)
            if cropped is not None:
                attrs["blob"] = cropped.sha256
        attrs["image_part"] = rel.target
        return kind

    def blip_blob(self, rid: str | None, part: str) -> str | None:
        rel = self.ctx.pkg.related(part, rid)
        if rel is None or rel.external:
            return None
        blob = self.ctx.media.original(rel.target)
        return blob.sha256 if blob is not None else None


def _drawn_turn(total: Affine, xfrm: Xfrm, rotation: float) -> dict[str, Any]:
    """How the page draws the shape's content when enclosing groups flip it: a flipped
    group mirrors its children (and turns their rotation the other way), which the
    shape's own ``flipH``/``flipV`` and the summed rotations do not say. From the whole
    transform: ``mirrored_drawn`` (drawn mirrored left-right, then turned) and
    ``rotation_drawn`` (clockwise degrees after that mirror), only where they differ
    from the shape's own flips and ``rotation_effective``."""
    det = total.a * total.d - total.b * total.c
    mirrored = det < 0
    a, b = (-total.a, -total.b) if mirrored else (total.a, total.b)
    angle = math.degrees(math.atan2(b, a)) % 360
    # The shape's own flips as "mirror left-right, then turn": flipV is a mirror and a
    # half turn, flipH and flipV together a half turn.
    own_mirrored = xfrm.flip_h != xfrm.flip_v
    own_angle = (rotation + (180.0 if xfrm.flip_v else 0.0)) % 360
    off = abs((angle - own_angle + 180) % 360 - 180)
    if mirrored == own_mirrored and off < 0.5:
        return {}
    return {"mirrored_drawn": mirrored, "rotation_drawn": round(angle, 6)}


def _is_line(shape: etree._Element) -> bool:
    geom = child(child(shape, "spPr"), "prstGeom")
    return geom is not None and geom.get("prst") in ("line", "straightConnector1")


def _first_body_pr(shapes: list[etree._Element]) -> etree._Element | None:
    """The first ``bodyPr`` stating an anchor or wrap along the inheritance chain."""
    first = None
    for s in shapes:
        bp = child(child(s, "txBody"), "bodyPr")
        if bp is None:
            continue
        if first is None:
            first = bp
        if bp.get("anchor") is not None or bp.get("wrap") is not None:
            return bp
    return first


_AUTOFIT = {"normAutofit": "shrink", "spAutoFit": "shape", "noAutofit": "none"}
_TEXT_INSETS_EMU = (("lIns", 91440), ("tIns", 45720), ("rIns", 91440), ("bIns", 45720))


def _text_insets(shapes: list[etree._Element]) -> list[float] | None:
    """[left, top, right, bottom] text insets in points, each from the first ``bodyPr``
    along the placeholder chain that states it, when they differ from the defaults
    (0.1 in left/right, 0.05 in top/bottom); None otherwise."""
    body_prs = [bp for s in shapes if (bp := child(child(s, "txBody"), "bodyPr")) is not None]
    out = []
    for name, default in _TEXT_INSETS_EMU:
        stated = next((v for bp in body_prs if (v := bp.get(name)) is not None and v.lstrip("-").isdigit()), None)
        out.append((int(stated) if stated is not None else default) / EMU_PER_PT)
    return None if out == [7.2, 3.6, 7.2, 3.6] else [round(v, 3) for v in out]


def _autofit(chain: list[tuple[etree._Element, str | None]]) -> dict[str, Any]:
    """How the text frame fits its text, from the first ``bodyPr`` along the placeholder
    chain (shape, where it is: None for the slide, ``layout``, ``master``) that says:
    ``autofit`` = ``shrink`` (``normAutofit``: the text is shrunk to the frame),
    ``shape`` (``spAutoFit``: the frame grows to the text) or ``none``, and
    ``autofit_from`` when a layout or master says it; with ``normAutofit``, the
    ``fontScale`` and ``lnSpcReduction`` PowerPoint last applied, as fractions (run
    sizes stay the stated sizes). Nothing when no element of the chain says (PowerPoint
    then does not fit). LibreOffice 7.4 shrinks only text whose own bodyPr asks: an
    inherited ``shrink`` is drawn at full size (design/pptx-geometry.md)."""
    for s, where in chain:
        body_pr = child(child(s, "txBody"), "bodyPr")
        if body_pr is None:
            continue
        for el in body_pr:
            kind = _AUTOFIT.get(local(el))
            if kind is None:
                continue
            out: dict[str, Any] = {"autofit": kind}
            if where is not None:
                out["autofit_from"] = where
            for name, key in (("fontScale", "autofit_font_scale"), ("lnSpcReduction", "autofit_line_spacing_reduction")):
                raw = el.get(name)
                if raw:
                    try:
                        out[key] = float(raw.rstrip("%")) / (100000.0 if not raw.endswith("%") else 100.0)
                    except ValueError:
                        pass
            return out
    return {}


def _mark_unrendered(node: Node, reason: str) -> None:
    for n in node.iter():
        n.attrs["rendered"] = False
        n.attrs["not_rendered_reason"] = reason


def _shape_children(tree: etree._Element) -> list[etree._Element]:
    """Drawable children of an spTree/grpSp in z-order; ``mc:AlternateContent`` is
    replaced by its Fallback (or, without one, its first Choice)."""
    out: list[etree._Element] = []
    for el in tree:
        name = local(el)
        if name == "AlternateContent":
            pick = child(el, "Fallback")
            if pick is None or len(pick) == 0:
                pick = child(el, "Choice")
            if pick is not None:
                out.extend(_shape_children(pick))
        elif name in ("sp", "grpSp", "pic", "cxnSp", "graphicFrame", "contentPart"):
            out.append(el)
    return out
