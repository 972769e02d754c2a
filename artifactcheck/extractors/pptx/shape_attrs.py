"""What every slide shape carries whatever its kind: the non-visual properties (id, name,
alt text, hidden, click hyperlink), placeholder type/idx, its xfrm element, and the
``source`` string naming its part and shape id. Shared by the shape walker and the graphic
frames (tables, charts, SmartArt, OLE) below it.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .slide import SlideContext, child, local, ph_type, placeholder_of

_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def non_visual(shape: etree._Element) -> etree._Element | None:
    """``cNvPr`` of a shape (id, name, descr, hidden)."""
    for nv in shape:
        if isinstance(nv.tag, str) and local(nv).startswith("nv"):
            return child(nv, "cNvPr")
    return None


def shape_xfrm(shape: etree._Element) -> etree._Element | None:
    """The xfrm element of a shape: ``spPr/a:xfrm``, ``grpSpPr/a:xfrm`` or ``p:xfrm``."""
    for name in ("spPr", "grpSpPr"):
        pr = child(shape, name)
        if pr is not None:
            return child(pr, "xfrm")
    return child(shape, "xfrm")


def base_attrs(shape: etree._Element, ctx: SlideContext) -> dict[str, Any]:
    attrs: dict[str, Any] = {"z": ctx.next_z()}
    c = non_visual(shape)
    if c is not None:
        attrs["shape_id"] = c.get("id")
        attrs["name"] = c.get("name")
        if c.get("descr"):
            attrs["alt_text"] = c.get("descr")
        if c.get("hidden") in ("1", "true"):
            attrs["hidden"] = True
        click = child(c, "hlinkClick")
        if click is not None:
            link = ctx.hyperlink(click.get(f"{_R}id"), click.get("action"))
            if link:
                attrs["hyperlink"] = link
    ph = placeholder_of(shape)
    if ph is not None:
        attrs["placeholder_type"] = ph_type(ph)
        if ph.get("idx") is not None:
            attrs["placeholder_idx"] = ph.get("idx")
    return attrs


def source_of(shape: etree._Element, ctx: SlideContext, part: str | None = None) -> str:
    c = non_visual(shape)
    sid = c.get("id") if c is not None else None
    return f"{part or ctx.part}#id={sid}" if sid else (part or ctx.part)
