"""Slide-space geometry of DrawingML shapes: transforms, group composition, rotation, flips.

All values here are in EMU (914400 per inch, 12700 per point) until :func:`to_box`
converts to points. A shape's ``a:xfrm`` gives its unrotated box in its *parent's*
coordinate space (the slide, or the child space of the enclosing group). A group maps its
child space (``chOff``/``chExt``) onto its own box (``off``/``ext``), flips within that box,
then rotates about the box centre; nested groups compose. See design/pptx-geometry.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lxml import etree

from ...model import Box
from ..tree_builder import make_box

EMU_PER_PT = 12700.0
_ROT_UNITS = 60000.0  # ST_Angle: 60000ths of a degree, clockwise (y down)


@dataclass(frozen=True)
class Affine:
    """``x' = a*x + c*y + e``, ``y' = b*x + d*y + f`` (y down)."""

    a: float = 1.0
    b: float = 0.0
    c: float = 0.0
    d: float = 1.0
    e: float = 0.0
    f: float = 0.0

    def __matmul__(self, o: Affine) -> Affine:
        """``self @ o``: apply ``o`` first, then ``self``."""
        return Affine(
            a=self.a * o.a + self.c * o.b,
            b=self.b * o.a + self.d * o.b,
            c=self.a * o.c + self.c * o.d,
            d=self.b * o.c + self.d * o.d,
            e=self.a * o.e + self.c * o.f + self.e,
            f=self.b * o.e + self.d * o.f + self.f,
        )

    def apply(self, x: float, y: float) -> tuple[float, float]:
        return (self.a * x + self.c * y + self.e, self.b * x + self.d * y + self.f)

    @property
    def is_axis_aligned(self) -> bool:
        """True when the transform keeps rectangles axis-aligned (no rotation/skew
        other than multiples of 180 degrees folded into flips)."""
        return abs(self.b) < 1e-12 and abs(self.c) < 1e-12


IDENTITY = Affine()


def translate(dx: float, dy: float) -> Affine:
    return Affine(e=dx, f=dy)


def rotate_about(degrees: float, cx: float, cy: float) -> Affine:
    """Clockwise rotation on screen (y down) about (cx, cy)."""
    t = math.radians(degrees)
    cos, sin = math.cos(t), math.sin(t)
    return translate(cx, cy) @ Affine(a=cos, b=sin, c=-sin, d=cos) @ translate(-cx, -cy)


def flip_about(flip_h: bool, flip_v: bool, cx: float, cy: float) -> Affine:
    sx, sy = (-1.0 if flip_h else 1.0), (-1.0 if flip_v else 1.0)
    return translate(cx, cy) @ Affine(a=sx, d=sy) @ translate(-cx, -cy)


@dataclass(frozen=True)
class Xfrm:
    """An ``a:xfrm`` (or ``p:xfrm``) in EMU. ``ch_*`` only on group transforms."""

    x: float
    y: float
    cx: float
    cy: float
    rot: float = 0.0  # degrees, clockwise
    flip_h: bool = False
    flip_v: bool = False
    ch_x: float | None = None
    ch_y: float | None = None
    ch_cx: float | None = None
    ch_cy: float | None = None

    @property
    def own_transform(self) -> Affine:
        """Flip, then rotate, both about the box centre (in the parent's space)."""
        cx, cy = self.x + self.cx / 2, self.y + self.cy / 2
        t = IDENTITY
        if self.flip_h or self.flip_v:
            t = flip_about(self.flip_h, self.flip_v, cx, cy)
        if self.rot % 360:
            t = rotate_about(self.rot, cx, cy) @ t
        return t

    def child_transform(self) -> Affine:
        """Group child space -> parent space (before the parent's own transform)."""
        ch_x = self.ch_x if self.ch_x is not None else self.x
        ch_y = self.ch_y if self.ch_y is not None else self.y
        ch_cx = self.ch_cx if self.ch_cx else self.cx
        ch_cy = self.ch_cy if self.ch_cy else self.cy
        sx = self.cx / ch_cx if ch_cx else 1.0
        sy = self.cy / ch_cy if ch_cy else 1.0
        scale = Affine(a=sx, d=sy, e=self.x - ch_x * sx, f=self.y - ch_y * sy)
        return self.own_transform @ scale

    def corners(self) -> list[tuple[float, float]]:
        """Unrotated box corners clockwise from top-left."""
        return [
            (self.x, self.y),
            (self.x + self.cx, self.y),
            (self.x + self.cx, self.y + self.cy),
            (self.x, self.y + self.cy),
        ]


def _num(el: etree._Element | None, name: str) -> float | None:
    if el is None:
        return None
    raw = el.get(name)
    if raw is None:
        return None
    try:
        v = float(raw)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


@dataclass(frozen=True)
class XfrmParts:
    """What one ``a:xfrm`` states, each part optional: ``off`` (x, y) and ``ext`` (cx, cy)
    in EMU, and the attributes of the element itself. CT_Transform2D makes both children
    optional, and python-pptx writes an ``a:off`` alone when a placeholder that inherits
    its size is moved (``shape.top = ...``): the missing part comes from the layout or
    master (design/pptx-geometry.md, "Placeholder inheritance")."""

    off: tuple[float, float] | None
    ext: tuple[float, float] | None
    rot: float | None = None  # None: the element does not say (not: 0)
    flip_h: bool | None = None
    flip_v: bool | None = None
    ch_off: tuple[float, float] | None = None
    ch_ext: tuple[float, float] | None = None

    def complete(
        self,
        off: tuple[float, float],
        ext: tuple[float, float],
        *,
        rot: float | None = None,
        flip_h: bool | None = None,
        flip_v: bool | None = None,
    ) -> Xfrm:
        """An :class:`Xfrm` with the given position and size, this element's child space,
        and its rotation and flips unless others are given (inherited ones)."""
        rot = self.rot if rot is None else rot
        flip_h = self.flip_h if flip_h is None else flip_h
        flip_v = self.flip_v if flip_v is None else flip_v
        return Xfrm(
            x=off[0], y=off[1], cx=ext[0], cy=ext[1], rot=rot or 0.0,
            flip_h=bool(flip_h), flip_v=bool(flip_v),
            ch_x=self.ch_off[0] if self.ch_off else None, ch_y=self.ch_off[1] if self.ch_off else None,
            ch_cx=self.ch_ext[0] if self.ch_ext else None, ch_cy=self.ch_ext[1] if self.ch_ext else None,
        )  # fmt: skip


def _pair(el: etree._Element | None, a: str, b: str) -> tuple[float, float] | None:
    x, y = _num(el, a), _num(el, b)
    return (x, y) if x is not None and y is not None else None


def read_xfrm_parts(el: etree._Element | None) -> XfrmParts | None:
    """Parse an xfrm element (any namespace) part by part; None without an element."""
    if el is None:
        return None
    off = ext = ch_off = ch_ext = None
    for child in el:
        if not isinstance(child.tag, str):
            continue
        name = etree.QName(child).localname
        if name == "off":
            off = child
        elif name == "ext":
            ext = child
        elif name == "chOff":
            ch_off = child
        elif name == "chExt":
            ch_ext = child
    return XfrmParts(
        off=_pair(off, "x", "y"),
        ext=_pair(ext, "cx", "cy"),
        rot=rot / _ROT_UNITS if (rot := _num(el, "rot")) is not None else None,
        flip_h=el.get("flipH") in ("1", "true") if el.get("flipH") is not None else None,
        flip_v=el.get("flipV") in ("1", "true") if el.get("flipV") is not None else None,
        ch_off=_pair(ch_off, "x", "y"),
        ch_ext=_pair(ch_ext, "cx", "cy"),
    )


def read_xfrm(el: etree._Element | None) -> Xfrm | None:
    """Parse an xfrm element (any namespace); None when it lacks ``off`` or ``ext``."""
    parts = read_xfrm_parts(el)
    if parts is None or parts.off is None or parts.ext is None:
        return None
    return parts.complete(parts.off, parts.ext)


def to_box(page: int, xfrm: Xfrm, parent: Affine) -> Box:
    """The shape's box in slide space, in points. Rotated (or inside a rotated group) ->
    ``Box.around`` its four transformed corners, keeping the polygon."""
    t = parent @ xfrm.own_transform
    pts = [t.apply(x, y) for x, y in xfrm.corners()]
    pts_pt = [(x / EMU_PER_PT, y / EMU_PER_PT) for x, y in pts]
    if t.is_axis_aligned:
        xs = [p[0] for p in pts_pt]
        ys = [p[1] for p in pts_pt]
        x0, top, x1, bottom = min(xs), min(ys), max(xs), max(ys)
        if all(math.isfinite(v) for v in (x0, top, x1, bottom)):
            return make_box(page, x0, top, x1, bottom)  # well-formed by construction
        return Box(page=page, x0=x0, top=top, x1=x1, bottom=bottom)  # raises, naming the values
    return Box.around(page, pts_pt)


def emu_box(page: int, x: float, y: float, cx: float, cy: float, parent: Affine) -> Box:
    """A sub-rectangle (a table cell, a SmartArt part) given in the parent's EMU space."""
    return to_box(page, Xfrm(x=x, y=y, cx=cx, cy=cy), parent)
