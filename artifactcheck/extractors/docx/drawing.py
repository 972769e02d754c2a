"""Pictures, text boxes, shapes and charts of a .docx: DrawingML (``w:drawing``) and the
legacy VML (``w:pict``, ``w:object``).

Geometry here is what the file states, in points: the picture's extent (``wp:extent``,
EMU) and, for floating objects (``wp:anchor``), the position relative to what
``relativeFrom`` names (page, margin, column, paragraph...). These are attributes, not
boxes: where the object lands on a page is only known after layout (``layout.py``).
Crop (``a:srcRect``) is kept as fractions of the source image per edge (negative =
padding, as the file says).
"""

from __future__ import annotations

import mimetypes
import re
from typing import Any, cast

from lxml import etree

from ...model import Node, NodeKind
from ...model.units import emu_to_pt

WP_NS = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"
A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
PIC_NS = "http://schemas.openxmlformats.org/drawingml/2006/picture"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
WPS_NS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"
WPG_NS = "http://schemas.microsoft.com/office/word/2010/wordprocessingGroup"
V_NS = "urn:schemas-microsoft-com:vml"
O_NS = "urn:schemas-microsoft-com:office:office"
C_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
WP, A, PIC, R, WPS, WPG, V, O = (
    f"{{{n}}}" for n in (WP_NS, A_NS, PIC_NS, R_NS, WPS_NS, WPG_NS, V_NS, O_NS)
)

_CSS_UNIT_PT = {
    "pt": 1.0,
    "in": 72.0,
    "cm": 72 / 2.54,
    "mm": 72 / 25.4,
    "px": 0.75,
    "pc": 12.0,
    "emu": 1 / 12700,
}


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        try:
            return int(float(value or ""))  # some writers emit "1.5E6"
        except (TypeError, ValueError):
            return None


def anchor_attrs(container: etree._Element) -> dict[str, Any]:
    """Size and placement attributes of a ``wp:inline``/``wp:anchor`` element."""
    attrs: dict[str, Any] = {}
    extent = container.find(f"{WP}extent")
    if extent is not None:
        cx, cy = _int(extent.get("cx")), _int(extent.get("cy"))
        if cx is not None and cy is not None:
            attrs["width"] = round(emu_to_pt(cx), 3)
            attrs["height"] = round(emu_to_pt(cy), 3)
    doc_pr = container.find(f"{WP}docPr")
    if doc_pr is not None:
        if doc_pr.get("name"):
            attrs["name"] = doc_pr.get("name")
        descr = doc_pr.get("descr") or doc_pr.get("title")
        if descr:
            attrs["alt_text"] = descr
        if doc_pr.get("hidden") in ("1", "true"):
            attrs["hidden"] = True
    if etree.QName(container).localname == "inline":
        attrs["placement"] = "inline"
        return attrs
    attrs["placement"] = "floating"
    for axis, tag in (("h", "positionH"), ("v", "positionV")):
        pos = container.find(f"{WP}{tag}")
        if pos is None:
            continue
        attrs[f"position_{axis}_relative_from"] = pos.get("relativeFrom")
        off = pos.find(f"{WP}posOffset")
        align = pos.find(f"{WP}align")
        if off is not None and _int(off.text) is not None:
            attrs[f"position_{axis}_offset"] = round(emu_to_pt(_int(off.text) or 0), 3)
        if align is not None and align.text:
            attrs[f"position_{axis}_align"] = align.text.strip()
    if container.get("simplePos") in ("1", "true"):
        sp = container.find(f"{WP}simplePos")
        if sp is not None:
            attrs["position_h_relative_from"] = attrs["position_v_relative_from"] = "page"
            attrs["position_h_offset"] = round(emu_to_pt(_int(sp.get("x")) or 0), 3)
            attrs["position_v_offset"] = round(emu_to_pt(_int(sp.get("y")) or 0), 3)
    for child in container:
        if isinstance(child.tag, str) and etree.QName(child).localname.startswith("wrap"):
            attrs["wrap"] = etree.QName(child).localname[4:].lower() or "none"
            break
    attrs["behind_text"] = container.get("behindDoc") in ("1", "true")
    return attrs


def crop_attrs(blip_fill: etree._Element | None) -> dict[str, float] | None:
    """``a:srcRect`` l/t/r/b (1/1000 %) as fractions of the source image, or None."""
    if blip_fill is None:
        return None
    rect = blip_fill.find(f"{A}srcRect")
    if rect is None:
        return None
    crop = {}
    for key, edge in (("l", "left"), ("t", "top"), ("r", "right"), ("b", "bottom")):
        v = _int(rect.get(key))
        if v:
            crop[edge] = v / 100_000
    return crop or None


def vml_size(style: str | None) -> dict[str, Any]:
    """Width/height (points) and absolute position from a VML ``style`` attribute."""
    out: dict[str, Any] = {}
    if not style:
        return out
    for decl in style.split(";"):
        if ":" not in decl:
            continue
        key, value = (s.strip() for s in decl.split(":", 1))
        if key in ("width", "height", "margin-left", "margin-top", "left", "top"):
            pts = css_length_pt(value)
            if pts is not None:
                out[key.replace("margin-", "position_").replace("-", "_")] = round(pts, 3)
        elif key == "position" and value == "absolute":
            out["placement"] = "floating"
    out.setdefault("placement", "inline")
    if "position_left" in out:
        out["position_h_offset"] = out.pop("position_left")
    if "position_top" in out:
        out["position_v_offset"] = out.pop("position_top")
    out.pop("left", None)
    out.pop("top", None)
    return out


def css_length_pt(value: str) -> float | None:
    m = re.fullmatch(r"(-?[0-9.]+)\s*([a-z]*)", value.strip().lower())
    if not m:
        return None
    try:
        number = float(m.group(1))
    except ValueError:
        return None
    unit = m.group(2) or "emu"  # unitless VML lengths are EMU in Word's output
    factor = _CSS_UNIT_PT.get(unit)
    return number * factor if factor is not None else None


_EQUATION_PROG_ID = re.compile(r"(?i)(equation\.|mathtype)")
"""Program ids of embedded equation objects: Microsoft Equation Editor (``Equation.3``,
``Equation.2``), MathType (``Equation.DSMT4``, ``Equation.DSMT36``, ``MathType.*``), and the
like (``Equation.AxMath``). Word's own equations since 2007 are OMML in the text, not
objects; these are the legacy ones agents still produce by pasting or by injected XML."""


def is_equation_prog_id(prog_id: str) -> bool:
    """Whether an ``o:OLEObject ProgID`` names an equation editor's object.

    >>> is_equation_prog_id("Equation.3"), is_equation_prog_id("Equation.DSMT4"), is_equation_prog_id("Excel.Sheet.12")
    (True, True, False)
    """
    return _EQUATION_PROG_ID.match(prog_id.strip()) is not None


def mime_for(part: str, content_types: dict[str, str]) -> str:
    ctype = content_types.get(part)
    if ctype:
        return ctype
    guess, _ = mimetypes.guess_type(part)
    ext = part.rsplit(".", 1)[-1].lower()
    return guess or {"emf": "image/x-emf", "wmf": "image/x-wmf", "jfif": "image/jpeg"}.get(
        ext, "application/octet-stream"
    )


def blank_node(node_id: str, kind: str, attrs: dict[str, Any], source: str | None) -> Node:
    return Node(
        id=node_id,
        kind=cast("NodeKind", kind),
        attrs={k: v for k, v in attrs.items() if v is not None},
        source=source,
    )
