"""``Box``: an axis-aligned rectangle on one page, in points, origin top-left, y down.

See design/coordinates.md. Boxes are never clamped to the page: a picture hanging off a
slide keeps its off-slide coordinates, because that is evidence a check must see.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator
from pydantic.dataclasses import dataclass

from .model_spelling import ModelSpelling

BoxOrigin = Literal["native", "layout", "ocr"]
"""How a box was obtained: ``native`` file geometry, ``layout`` a rendered PDF, ``ocr``."""

Point = tuple[float, float]


@dataclass(frozen=True, slots=True, config=ConfigDict(extra="forbid"))
class Box(ModelSpelling):
    """A rectangle on page ``page`` (0-based): ``x0 <= x1`` and ``top <= bottom``, in points.

    ``polygon`` is set for rotated or skewed shapes: the shape's true outline (page
    coordinates, clockwise from the unrotated top-left corner); the box is then its
    axis-aligned bounding rectangle.

    >>> b = Box(page=0, x0=72, top=72, x1=144, bottom=108)
    >>> (b.width, b.height, b.area, b.center)
    (72.0, 36.0, 2592.0, (108.0, 90.0))
    """

    # A slotted pydantic dataclass, not a BaseModel: the same validation and JSON schema,
    # but no instance dict, fields-set or extras per box - 88 bytes instead of ~160 (a
    # 100k-cell sheet holds 100k boxes; design/xlsx-geometry.md). The model_* methods
    # of ModelSpelling keep the BaseModel spelling every caller and test already uses.

    page: Annotated[int, Field(ge=0)]
    x0: float
    top: float
    x1: float
    bottom: float
    origin: BoxOrigin = "native"
    polygon: tuple[Point, ...] | None = None

    @model_validator(mode="after")
    def _well_formed(self) -> Box:
        coords = (self.x0, self.top, self.x1, self.bottom)
        if not all(math.isfinite(c) for c in coords):
            raise ValueError(f"box coordinates must be finite, got {coords}")
        if self.x1 < self.x0 or self.bottom < self.top:
            raise ValueError(f"box must have x0 <= x1 and top <= bottom, got {coords}")
        return self

    @classmethod
    def from_xywh(
        cls,
        page: int,
        x: float,
        y: float,
        width: float,
        height: float,
        *,
        origin: BoxOrigin = "native",
    ) -> Box:
        """A box from its top-left corner and size (negative sizes are normalised)."""
        x0, x1 = sorted((x, x + width))
        top, bottom = sorted((y, y + height))
        return cls(page=page, x0=x0, top=top, x1=x1, bottom=bottom, origin=origin)

    @classmethod
    def around(cls, page: int, points: list[Point] | tuple[Point, ...], *, origin: BoxOrigin = "native") -> Box:
        """The bounding box of a polygon, keeping the polygon."""
        xs = [p[0] for p in points]
        ys = [p[1] for p in points]
        return cls(
            page=page,
            x0=min(xs),
            top=min(ys),
            x1=max(xs),
            bottom=max(ys),
            origin=origin,
            polygon=tuple((float(x), float(y)) for x, y in points),
        )

    @property
    def width(self) -> float:
        return self.x1 - self.x0

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def area(self) -> float:
        return self.width * self.height

    @property
    def center(self) -> Point:
        return ((self.x0 + self.x1) / 2, (self.top + self.bottom) / 2)

    @property
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Clockwise from top-left; the polygon's corners when the box has one of four."""
        if self.polygon is not None and len(self.polygon) == 4:
            p = self.polygon
            return (p[0], p[1], p[2], p[3])
        return ((self.x0, self.top), (self.x1, self.top), (self.x1, self.bottom), (self.x0, self.bottom))

    def union(self, other: Box) -> Box:
        """The smallest box covering both (same page only; the polygon is dropped)."""
        if other.page != self.page:
            raise ValueError(f"cannot unite boxes on pages {self.page} and {other.page}")
        x0, top = min(self.x0, other.x0), min(self.top, other.top)
        x1, bottom = max(self.x1, other.x1), max(self.bottom, other.bottom)
        if type(x0) is float and type(top) is float and type(x1) is float and type(bottom) is float:
            # Two valid boxes: the mins and maxes of finite, ordered floats are finite and
            # ordered, so validating again (~50 us; a long table unites ~10k cell boxes)
            # could only convert types, and these are floats already.
            return unchecked_box(self.page, x0, top, x1, bottom, self.origin)
        return Box(page=self.page, x0=x0, top=top, x1=x1, bottom=bottom, origin=self.origin)

    # -- the BaseModel spelling ----------------------------------------------------
    def model_copy(self, *, update: dict[str, Any] | None = None) -> Box:
        """A copy with ``update`` applied, unvalidated - as ``BaseModel.model_copy``."""
        new = _new(Box)
        for name in _BOX_FIELDS:
            _set(new, name, update[name] if update and name in update else getattr(self, name))
        return new


_BOX_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Box))
_new = object.__new__
_set = object.__setattr__


def unchecked_box(page: int, x0: float, top: float, x1: float, bottom: float, origin: BoxOrigin) -> Box:
    """A Box without pydantic's validation, for callers that guarantee finite floats, x0 <=
    x1 and top <= bottom (``tree_builder.make_box`` is this for the extractors).
    Every slot is set, as validation would."""
    b = _new(Box)
    _set(b, "page", page)
    _set(b, "x0", x0)
    _set(b, "top", top)
    _set(b, "x1", x1)
    _set(b, "bottom", bottom)
    _set(b, "origin", origin)
    _set(b, "polygon", None)
    return b


def union_all(boxes: list[Box]) -> list[Box]:
    """One covering box per page, in page order."""
    if len(boxes) < 2:  # what the loop gives for none or one (most cells, rows), sooner
        return list(boxes)
    by_page: dict[int, Box] = {}
    for b in boxes:
        by_page[b.page] = by_page[b.page].union(b) if b.page in by_page else b
    return [by_page[p] for p in sorted(by_page)]
