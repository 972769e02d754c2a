"""Page regions by name and by fraction: grammar, errors, and partition properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import box

from artifactcheck.checks.regions import Region, parse_region


def frac(text: str) -> tuple[float, float, float, float]:
    r = parse_region(text).region
    return (round(r.x0, 6), round(r.top, 6), round(r.x1, 6), round(r.bottom, 6))


T = round(1 / 3, 6)
TT = round(2 / 3, 6)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("upper-left", (0, 0, T, T)),
        ("top-left corner", (0, 0, T, T)),
        ("Upper Right", (TT, 0, 1, T)),
        ("lower_left", (0, TT, T, 1)),
        ("bottom-right", (TT, TT, 1, 1)),
        ("top", (0, 0, 1, T)),
        ("bottom", (0, TT, 1, 1)),
        ("left", (0, 0, T, 1)),
        ("center", (T, T, TT, TT)),
        ("centre", (T, T, TT, TT)),
        ("top center", (T, 0, TT, T)),
        ("center-left", (0, T, T, TT)),
        ("top 20%", (0, 0, 1, 0.2)),
        ("top 20 %", (0, 0, 1, 0.2)),
        ("top 20 percent", (0, 0, 1, 0.2)),
        ("bottom 25%", (0, 0.75, 1, 1)),
        ("left third", (0, 0, T, 1)),
        ("right two thirds", (T, 0, 1, 1)),
        ("bottom three quarters", (0, 0.25, 1, 1)),
        ("lower half", (0, 0.5, 1, 1)),
        ("top 0.1", (0, 0, 1, 0.1)),
        ("top 1/4", (0, 0, 1, 0.25)),
        ("top 20% left 30%", (0, 0, 0.3, 0.2)),
        ("top-left quadrant", (0, 0, 0.5, 0.5)),
        ("upper left quarter", (0, 0, 0.5, 0.5)),
        ("bottom quarter", (0, 0.75, 1, 1)),
        ("center 50%", (0.25, 0.25, 0.75, 0.75)),
        ("whole page", (0, 0, 1, 1)),
        ("top third of the page", (0, 0, 1, T)),
    ],
)
def test_region_grammar(text: str, expected: tuple[float, ...]) -> None:
    assert frac(text) == pytest.approx(expected)


def test_page_prefix() -> None:
    parsed = parse_region("last page bottom third")
    assert parsed.page == "last"
    assert (round(parsed.region.top, 6), parsed.region.bottom) == (TT, 1)
    assert parse_region("first slide top").page == "first"
    assert parse_region("bottom").page is None


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty"),
        ("uper left", "unknown word 'uper'"),
        ("top 20", "ambiguous"),
        ("20%", "names no side"),
        ("top 150%", "must be in (0, 1]"),
        ("top 20% bottom 20%", "empty"),
        ("top left center", "no free axis"),
    ],
)
def test_region_errors_name_the_fault(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=None) as info:
        parse_region(text)
    assert message in str(info.value)


def test_region_on_points() -> None:
    assert parse_region("bottom 25%").region.on(720, 540) == (0.0, 405.0, 720.0, 540.0)
    with pytest.raises(ValueError):
        Region(0.5, 0, 0.4, 1)


amounts = st.fractions(min_value=Fraction(1, 100), max_value=Fraction(99, 100), max_denominator=100)


@given(amounts)
def test_side_and_complement_partition_the_page(f: Fraction) -> None:
    """'top f' and 'bottom 1-f' (and left/right) tile the page: areas add to 1, no overlap."""
    pct = f"{float(f) * 100:.10g}%"
    rest = f"{float(1 - f) * 100:.10g}%"
    for a, b in ((f"top {pct}", f"bottom {rest}"), (f"left {pct}", f"right {rest}")):
        ra, rb = parse_region(a).region, parse_region(b).region
        ga, gb = box(ra.x0, ra.top, ra.x1, ra.bottom), box(rb.x0, rb.top, rb.x1, rb.bottom)
        assert ra.area + rb.area == pytest.approx(1.0)
        assert ga.intersection(gb).area == pytest.approx(0.0, abs=1e-9)
        assert ga.union(gb).area == pytest.approx(1.0)


def test_named_grid_partitions_the_page() -> None:
    """The nine named cells cover the page exactly once."""
    names = [
        "upper-left", "top center", "upper-right",
        "center-left", "center", "center-right",
        "lower-left", "bottom center", "lower-right",
    ]
    cells = [parse_region(n).region for n in names]
    geoms = [box(c.x0, c.top, c.x1, c.bottom) for c in cells]
    assert sum(c.area for c in cells) == pytest.approx(1.0)
    for i, g in enumerate(geoms):
        for h in geoms[i + 1 :]:
            assert g.intersection(h).area == pytest.approx(0.0, abs=1e-12)
    thirds = [parse_region(n).region for n in ("left third", "center", "right third")]
    assert thirds[0].x1 == pytest.approx(thirds[1].x0) and thirds[1].x1 == pytest.approx(thirds[2].x0)


@given(st.sampled_from(["top", "bottom", "left", "right", "center"]), amounts, st.floats(1, 2000), st.floats(1, 2000))
def test_region_stays_on_page(side: str, f: Fraction, w: float, h: float) -> None:
    x0, top, x1, bottom = parse_region(f"{side} {float(f) * 100:.10g}%").region.on(w, h)
    assert 0 <= x0 <= x1 <= w * (1 + 1e-12)
    assert 0 <= top <= bottom <= h * (1 + 1e-12)
