"""The geometry core: relations between boxes and placement measures, in page points
(origin top-left, y down). Pure functions over :class:`~artifactcheck.model.Box` and
shapely geometries; the registered checks in ``geometry.py`` wrap them.

Relation verbs form a closed set with stated boundaries (shapely's semantics, which are
DE-9IM's):

==============  =============================================================  ==========
verb            true when                                                      inverse
==============  =============================================================  ==========
``covered_by``  no point of A lies outside B (A on B's edge counts as inside)   ``covers``
``covers``      no point of B lies outside A                                    ``covered_by``
``intersects``  A and B share at least one point (touching edges count)        itself
``disjoint``    A and B share no point; ``disjoint == not intersects``          itself
``overlaps``    A and B share an area > 0 (touching edges do NOT count)          itself
``touches``     A and B meet only on their boundaries                          itself
``equals``      A and B are the same set of points                              itself
==============  =============================================================  ==========

``contains``/``within`` are deliberately absent: shapely's ``contains`` is False for a
line lying on the container's edge, which is never what "the logo is inside the header"
means (design/checks-geometry.md).

``tolerance`` (points) loosens each verb the way a person would: the container grows by
``tolerance`` for ``covered_by``/``covers``; shapes within ``tolerance`` of each other
``intersect``; an overlap no deeper than ``tolerance`` is forgiven; ``equals`` allows a
Hausdorff distance up to ``tolerance``. Every verb keeps its inverse pair under tolerance.

>>> from artifactcheck.model import Box
>>> page = shape_of(Box(page=0, x0=0, top=0, x1=720, bottom=540))
>>> rule = shape_of(Box(page=0, x0=0, top=0, x1=100, bottom=0))  # a line on the top edge
>>> relate("covered_by", rule, page), page.contains(rule)
(True, False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import TYPE_CHECKING, Literal

from ..model import Box

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

# shapely (and numpy beneath it) is imported by the functions that build geometry, not
# here: every check module imports this one to register, and most rubrics never ask a
# geometric question (design/startup.md).

Relation = Literal["covered_by", "covers", "intersects", "disjoint", "overlaps", "touches", "equals"]
RELATIONS: tuple[str, ...] = Relation.__args__  # type: ignore[attr-defined]
INVERSE: dict[str, str] = {
    "covered_by": "covers",
    "covers": "covered_by",
    "intersects": "intersects",
    "disjoint": "disjoint",
    "overlaps": "overlaps",
    "touches": "touches",
    "equals": "equals",
}
Placement = Literal["left_of", "right_of", "above", "below"]
Edge = Literal["left", "right", "top", "bottom", "center_x", "center_y"]
Bounds = tuple[float, float, float, float]
"""``(x0, top, x1, bottom)`` in points; shapely's ``bounds`` has the same order because
our y axis points down."""



@lru_cache(maxsize=8192)
def shape_of(b: Box) -> BaseGeometry:
    """The shapely geometry of a box: its polygon when rotated, else the rectangle.
    A zero-width or zero-height box becomes a line (a connector), a zero-size one a point,
    so predicates stay well defined."""
    import shapely
    from shapely.geometry import LineString, Point, Polygon
    from shapely.geometry import box as shapely_box

    if b.polygon is not None and len(b.polygon) >= 3:
        poly = Polygon(b.polygon)
        if not poly.is_valid:
            poly = shapely.make_valid(poly)
        if poly.area > 0:
            return poly
    if b.width > 0 and b.height > 0:
        return shapely_box(b.x0, b.top, b.x1, b.bottom)
    if b.width == 0 and b.height == 0:
        return Point(b.x0, b.top)
    return LineString([(b.x0, b.top), (b.x1, b.bottom)])


def union_of(shapes: Iterable[BaseGeometry]) -> BaseGeometry:
    """One geometry for several shapes (empty geometry for none)."""
    import shapely
    from shapely.geometry import Polygon

    items = list(shapes)
    if len(items) == 1:
        return items[0]
    return shapely.union_all(items) if items else Polygon()


@lru_cache(maxsize=256)
def page_shape(width: float, height: float) -> BaseGeometry:
    from shapely.geometry import box as shapely_box

    return shapely_box(0.0, 0.0, width, height)


def _canonical(a: BaseGeometry, b: BaseGeometry) -> tuple[BaseGeometry, BaseGeometry]:
    """The pair in a fixed order, so symmetric measures (distance, shared area) give the
    same float whichever way round they are asked: floating point is not symmetric at
    the last bit, and a verb must equal its inverse exactly."""
    return (a, b) if a.wkb <= b.wkb else (b, a)


def _grow(g: BaseGeometry, tolerance: float) -> BaseGeometry:
    import shapely

    # mitre joins: rectangles grow into rectangles, not rounded ones
    return g.buffer(tolerance, join_style=shapely.BufferJoinStyle.mitre) if tolerance > 0 else g


def relate(relation: str, a: BaseGeometry, b: BaseGeometry, *, tolerance: float = 0.0) -> bool:
    """Evaluate one relation verb (see the module table) of A to B.

    >>> from shapely.geometry import box as shapely_box
    >>> a = shapely_box(0, 0, 10, 10); b = shapely_box(10, 0, 20, 10)
    >>> [relate(r, a, b) for r in ("intersects", "overlaps", "touches", "disjoint")]
    [True, False, True, False]
    >>> relate("disjoint", a, shapely_box(12, 0, 20, 10)), relate("intersects", a, shapely_box(12, 0, 20, 10), tolerance=2)
    (True, True)
    """
    if tolerance < 0:
        raise ValueError(f"tolerance must be >= 0 points, got {tolerance}")
    if relation == "covered_by":
        return bool(a.covered_by(_grow(b, tolerance)))
    if relation == "covers":
        return bool(_grow(a, tolerance).covers(b))
    if relation == "intersects":
        return bool(a.intersects(b)) or (tolerance > 0 and distance(a, b) <= tolerance)
    if relation == "disjoint":
        return not relate("intersects", a, b, tolerance=tolerance)
    if relation == "overlaps":
        return overlap_area(a, b) > 0 and (tolerance == 0 or overlap_depth(a, b) > tolerance)
    if relation == "touches":
        return relate("intersects", a, b, tolerance=tolerance) and not relate("overlaps", a, b, tolerance=tolerance)
    if relation == "equals":
        if a.is_empty or b.is_empty:
            return bool(a.is_empty and b.is_empty)
        first, second = _canonical(a, b)
        return bool(a.equals(b)) or first.hausdorff_distance(second) <= tolerance
    raise ValueError(f"unknown relation {relation!r}; known: {', '.join(RELATIONS)}")


def distance(a: BaseGeometry, b: BaseGeometry) -> float:
    """Shortest distance (pt) between A and B; 0 when they intersect."""
    first, second = _canonical(a, b)
    return float(first.distance(second))


def relate_pages(relation: str, a: dict[int, BaseGeometry], b: dict[int, BaseGeometry], *, tolerance: float = 0.0) -> bool:
    """A relation between two multi-page shapes (``{page: geometry}``; a page absent or
    empty means nothing there). Pages are separate planes: shapes on different pages never
    touch, so the verbs combine page by page exactly as if each page were far from the
    others. Inverse pairs hold as for :func:`relate`.

    >>> from shapely.geometry import box as shapely_box
    >>> one, two = {0: shapely_box(0, 0, 10, 10)}, {1: shapely_box(0, 0, 10, 10)}
    >>> relate_pages("disjoint", one, two), relate_pages("covered_by", one, {**one, **two})
    (True, True)
    """
    from shapely.geometry import Polygon

    a = {k: g for k, g in a.items() if not g.is_empty}
    b = {k: g for k, g in b.items() if not g.is_empty}
    empty = Polygon()
    if relation == "covered_by":
        return bool(a) and all(relate("covered_by", g, b.get(k, empty), tolerance=tolerance) for k, g in a.items())
    if relation == "covers":
        return relate_pages("covered_by", b, a, tolerance=tolerance)
    if relation in ("intersects", "overlaps"):
        return any(relate(relation, g, b[k], tolerance=tolerance) for k, g in a.items() if k in b)
    if relation == "disjoint":
        return not relate_pages("intersects", a, b, tolerance=tolerance)
    if relation == "touches":
        return relate_pages("intersects", a, b, tolerance=tolerance) and not relate_pages("overlaps", a, b, tolerance=tolerance)
    if relation == "equals":
        return set(a) == set(b) and all(relate("equals", g, b[k], tolerance=tolerance) for k, g in a.items())
    raise ValueError(f"unknown relation {relation!r}; known: {', '.join(RELATIONS)}")


def overlap_area(a: BaseGeometry, b: BaseGeometry) -> float:
    """Area (pt^2) shared by A and B; 0 when they only touch."""
    first, second = _canonical(a, b)
    if not first.intersects(second):
        return 0.0
    return float(first.intersection(second).area)


def overlap_depth(a: BaseGeometry, b: BaseGeometry) -> float:
    """How deep A and B overlap (pt): the smaller side of their intersection's bounding
    box, 0 when they do not share an area. A 1-pt sliver between neighbours is shallow."""
    if overlap_area(a, b) <= 0:
        return 0.0
    first, second = _canonical(a, b)
    x0, top, x1, bottom = first.intersection(second).bounds
    return float(min(x1 - x0, bottom - top))


def fraction_inside(a: BaseGeometry, region: BaseGeometry) -> float:
    """Share of A's area inside ``region``, in [0, 1]. For a line (zero area), the share
    of its length; for a point, 1.0 when it is covered by the region, else 0.0."""
    if a.area <= 0:
        if a.length > 0 and region.area > 0:
            return min(1.0, float(a.intersection(region).length / a.length))
        return 1.0 if a.covered_by(region) else 0.0
    return min(1.0, float(a.intersection(region).area / a.area))


def line_inside(line: BaseGeometry, other: BaseGeometry) -> float:
    """Length (pt) of a line (zero area) drawn across the *inside* of a shape with an
    area: a connector crossing a box overlaps it on the page, although they share no
    area; one ending on the box's edge, or running along it, reaches 0 pt inside.
    0 when ``line`` has an area or ``other`` has none.

    >>> from shapely.geometry import LineString, box as shapely_box
    >>> b = shapely_box(0, 0, 10, 10)
    >>> line_inside(LineString([(-5, 5), (15, 5)]), b), line_inside(LineString([(10, 5), (20, 5)]), b)
    (10.0, 0.0)
    """
    if line.area > 0 or line.length <= 0 or other.area <= 0:
        return 0.0
    crossing = line.intersection(other)
    if crossing.is_empty:
        return 0.0
    return float(crossing.difference(other.boundary).length)


def rect_covered_by(a: Bounds, b: Bounds) -> bool:
    """``covered_by`` for two axis-aligned rectangles (edges count as inside): the
    arithmetic fast path of :func:`relate`, same answer.

    >>> rect_covered_by((0, 0, 10, 10), (0, 0, 10, 10)), rect_covered_by((0, 0, 10, 11), (0, 0, 10, 10))
    (True, False)
    """
    return a[0] >= b[0] and a[1] >= b[1] and a[2] <= b[2] and a[3] <= b[3]


def rect_fraction_inside(a: Bounds, region: Bounds) -> float:
    """:func:`fraction_inside` for a rectangle of positive area in a rectangular region."""
    w = axis_overlap(a[0], a[2], region[0], region[2])
    h = axis_overlap(a[1], a[3], region[1], region[3])
    area = (a[2] - a[0]) * (a[3] - a[1])
    return min(1.0, w * h / area) if area > 0 else (1.0 if rect_covered_by(a, region) else 0.0)


def coverage(shapes: Sequence[BaseGeometry], width: float, height: float) -> float:
    """Share of the page's area covered by the union of ``shapes`` (overlaps counted
    once; the parts hanging off the page ignored), in [0, 1].

    >>> from shapely.geometry import box as shapely_box
    >>> coverage([shapely_box(0, 0, 50, 100), shapely_box(25, 0, 75, 100)], 100, 100)
    0.75
    """
    if width <= 0 or height <= 0:
        raise ValueError(f"page size must be positive, got {width} x {height}")
    page = page_shape(width, height)
    areas = [s for s in shapes if s.area > 0]  # lines and points cover nothing (and upset GEOS unions)
    covered = union_of(areas).intersection(page)
    return min(1.0, float(covered.area / page.area))


# -- placement (on bounds) ------------------------------------------------------------


def axis_overlap(a_lo: float, a_hi: float, b_lo: float, b_hi: float) -> float:
    """Length shared by intervals [a_lo, a_hi] and [b_lo, b_hi] (0 when apart)."""
    return max(0.0, min(a_hi, b_hi) - max(a_lo, b_lo))


def overlap_fraction(a_lo: float, a_hi: float, b_lo: float, b_hi: float) -> float:
    """Shared length over the shorter interval's length, in [0, 1] (1 when one interval
    lies within the other). Zero-length intervals count as inside when within the other."""
    shorter = min(a_hi - a_lo, b_hi - b_lo)
    if shorter <= 0:
        inside = (b_lo <= a_lo <= b_hi) if a_hi - a_lo <= 0 else (a_lo <= b_lo <= a_hi)
        return 1.0 if inside else 0.0
    return axis_overlap(a_lo, a_hi, b_lo, b_hi) / shorter


def gap(a: Bounds, b: Bounds, placement: str) -> float:
    """Signed gap (pt) for "A <placement> B": positive when A is clear of B on that side
    (the distance between the facing edges), negative when they overlap by that much.

    >>> gap((0, 0, 10, 10), (15, 0, 25, 10), "left_of"), gap((0, 0, 10, 10), (5, 0, 25, 10), "left_of")
    (5, -5)
    """
    ax0, atop, ax1, abottom = a
    bx0, btop, bx1, bbottom = b
    if placement == "left_of":
        return bx0 - ax1
    if placement == "right_of":
        return ax0 - bx1
    if placement == "above":
        return btop - abottom
    if placement == "below":
        return atop - bbottom
    raise ValueError(f"unknown placement {placement!r}; known: left_of, right_of, above, below")


def center_gap(a: Bounds, b: Bounds, placement: str) -> float:
    """Signed distance between centres along the placement axis (positive when A's centre
    is on the named side of B's centre)."""
    acx, acy = (a[0] + a[2]) / 2, (a[1] + a[3]) / 2
    bcx, bcy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
    return {"left_of": bcx - acx, "right_of": acx - bcx, "above": bcy - acy, "below": acy - bcy}[placement]


def edge_value(b: Bounds, edge: str) -> float:
    """The coordinate (pt) of one edge or centre line of a box."""
    x0, top, x1, bottom = b
    values = {
        "left": x0,
        "right": x1,
        "top": top,
        "bottom": bottom,
        "center_x": (x0 + x1) / 2,
        "center_y": (top + bottom) / 2,
    }
    try:
        return values[edge]
    except KeyError:
        raise ValueError(f"unknown edge {edge!r}; known: {', '.join(values)}") from None


def spread(values: Sequence[float]) -> float:
    """max - min (0 for fewer than two values)."""
    return max(values) - min(values) if len(values) > 1 else 0.0


def gaps_along(bounds: Sequence[Bounds], axis: Literal["horizontal", "vertical"]) -> list[float]:
    """Gaps (pt) between consecutive boxes sorted along ``axis`` (negative: overlap)."""
    ordered = sorted(bounds, key=(lambda b: b[0]) if axis == "horizontal" else (lambda b: b[1]))
    if axis == "horizontal":
        return [b[0] - a[2] for a, b in pairwise(ordered)]
    return [b[1] - a[3] for a, b in pairwise(ordered)]


def centre_offset(b: Bounds, width: float, height: float) -> tuple[float, float]:
    """(dx, dy) from the page centre to the box centre, in points (positive: right/down)."""
    return ((b[0] + b[2]) / 2 - width / 2, (b[1] + b[3]) / 2 - height / 2)
