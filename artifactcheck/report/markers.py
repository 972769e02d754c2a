"""Where the numbered step markers of an HTML page view go, so that no two overlap.

Each step drawn on a page gets one round marker carrying its step number (the list beside
the page says which step it is). A marker wants to sit just above the top-left corner of
the step's box; when that spot is taken, candidates on widening rings around the corner
are tried in order until one is free, and a thin leader line joins a displaced marker to
its corner. Coordinates are page points (the SVG's own space); ``radius`` is in points too.

Why our own: the placement is a few lines over circles; label-placement libraries solve
a harder problem (text of varying size, many anchors per feature) with more machinery
than a handful of equal circles needs.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass

RING_STEP = 2.2
"""Distance between candidate rings, in marker radii."""
ANGLES = 16
GAP = 0.15
"""Minimum free space between two markers, in marker radii."""


@dataclass(frozen=True)
class PlacedMarker:
    number: int
    x: float
    y: float
    anchor_x: float
    anchor_y: float

    @property
    def displaced(self) -> bool:
        """True when the marker sits away from its corner (draw a leader line)."""
        return math.hypot(self.x - self.anchor_x, self.y - self.anchor_y) > 1e-6


def place_markers(
    anchors: list[tuple[int, float, float]], *, radius: float, width: float, height: float
) -> list[PlacedMarker]:
    """Centres for markers ``(number, corner_x, corner_y)``, in order, none overlapping.

    A marker stays within one radius of the page's edges (the view keeps a margin of two
    radii around the page); when that band is full, rings keep growing past it (the SVG
    shows overflow), so every marker finds a free spot.

    >>> [(m.x, m.y) for m in place_markers([(1, 10, 30), (2, 10, 30)], radius=5, width=100, height=100)]
    [(10.0, 24.5), (21.0, 24.5)]
    """
    placed: list[PlacedMarker] = []
    clearance = radius * (2 + GAP)
    for number, ax, ay in anchors:
        home = (ax, ay - radius * 1.1)  # just above the corner, centred on the box's left edge
        for x, y in _candidates(home, radius, width, height):
            if all(math.hypot(x - p.x, y - p.y) >= clearance for p in placed):
                placed.append(PlacedMarker(number, round(x, 3), round(y, 3), round(home[0], 3), round(home[1], 3)))
                break
    return placed


def _candidates(home: tuple[float, float], radius: float, width: float, height: float) -> Iterator[tuple[float, float]]:
    """The home spot, then rings around it (right first, along the box's top edge):
    inside the page while the rings fit in it, then past its edges, without end."""
    hx, hy = home
    yield _inside(hx, hy, radius, width, height)
    for k in itertools.count(1):
        d = k * RING_STEP * radius
        for i in range(ANGLES * k):
            angle = 2 * math.pi * i / (ANGLES * k)
            x, y = hx + d * math.cos(angle), hy + d * math.sin(angle)
            yield _inside(x, y, radius, width, height) if d < max(width, height) else (x, y)


def _inside(x: float, y: float, radius: float, width: float, height: float) -> tuple[float, float]:
    """(x, y) kept within one radius of the page: a marker may stand in the margin the
    view leaves around the page (two radii), never further out."""
    x = min(max(x, -radius), width + radius)
    y = min(max(y, -radius), height + radius)
    return float(x), float(y)
