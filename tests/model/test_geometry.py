import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from artifactcheck.model import Box, union_all

coord = st.floats(min_value=-1e5, max_value=1e5, allow_nan=False, allow_infinity=False)
size = st.floats(min_value=0, max_value=1e4, allow_nan=False, allow_infinity=False)


@st.composite
def boxes(draw: st.DrawFn, page: int | None = None) -> Box:
    return Box.from_xywh(
        draw(st.integers(0, 3)) if page is None else page, draw(coord), draw(coord), draw(size), draw(size)
    )


def test_box_measures() -> None:
    b = Box(page=0, x0=72, top=72, x1=144, bottom=108)
    assert (b.width, b.height, b.area, b.center) == (72, 36, 2592, (108, 90))


def test_negative_extent_is_rejected_not_clamped() -> None:
    with pytest.raises(ValidationError):
        Box(page=0, x0=10, top=0, x1=5, bottom=1)


def test_off_page_geometry_is_kept() -> None:
    b = Box(page=0, x0=-50, top=-20, x1=10, bottom=5)
    assert (b.x0, b.top) == (-50, -20)


def test_non_finite_rejected() -> None:
    with pytest.raises(ValidationError):
        Box(page=0, x0=math.nan, top=0, x1=1, bottom=1)


@given(coord, coord, st.floats(-1e4, 1e4), st.floats(-1e4, 1e4))
def test_from_xywh_normalises_negative_sizes(x: float, y: float, w: float, h: float) -> None:
    b = Box.from_xywh(0, x, y, w, h)
    assert b.width == pytest.approx(abs(w), abs=1e-6)
    assert b.height == pytest.approx(abs(h), abs=1e-6)
    assert b.x0 == pytest.approx(min(x, x + w))


@given(boxes(page=1), boxes(page=1))
def test_union_covers_both(a: Box, b: Box) -> None:
    u = a.union(b)
    for box in (a, b):
        assert u.x0 <= box.x0 and u.top <= box.top and u.x1 >= box.x1 and u.bottom >= box.bottom
    assert u.area >= max(a.area, b.area) - 1e-6


def test_union_refuses_other_pages() -> None:
    with pytest.raises(ValueError, match="pages 0 and 1"):
        Box(page=0, x0=0, top=0, x1=1, bottom=1).union(Box(page=1, x0=0, top=0, x1=1, bottom=1))


@given(st.lists(boxes(), min_size=1, max_size=12))
def test_union_all_one_box_per_page(items: list[Box]) -> None:
    merged = union_all(items)
    assert [m.page for m in merged] == sorted({b.page for b in items})


def test_around_keeps_polygon_and_bounds_it() -> None:
    diamond = [(50.0, 0.0), (100.0, 50.0), (50.0, 100.0), (0.0, 50.0)]
    b = Box.around(2, diamond)
    assert (b.page, b.x0, b.top, b.x1, b.bottom) == (2, 0, 0, 100, 100)
    assert b.polygon == tuple(diamond)
    assert b.corners == tuple(diamond)


@given(boxes())
def test_json_round_trip(b: Box) -> None:
    assert Box.model_validate_json(b.model_dump_json()) == b
