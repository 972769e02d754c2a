"""Named page regions: "upper-left", "top 20%", "bottom third", "last page bottom third".

A region is a rectangle given as *fractions* of the page (0..1 on each axis, origin
top-left, y down) so it does not depend on the page size; ``Region.on(width, height)``
turns it into points. Pure code: no Document, no I/O.

Grammar (case-insensitive; hyphens, underscores and commas are spaces; filler words such
as "corner", "of", "the", "page", "area" are ignored):

- a *side* is ``top``/``upper``, ``bottom``/``lower``, ``left``, ``right`` or
  ``center``/``centre``/``middle``;
- an *amount* is ``20%``, ``20 percent``, ``0.2``, ``1/3``, ``half``, ``third``,
  ``quarter``, ``fifth``, ``two thirds``, ``three quarters``, ...;
- an amount applies to the sides written just before it ("bottom 25%", "left third"); a
  side without an amount takes one third, so the names form a 3x3 grid: "top" is the top
  third of the page (full width), "upper-left" its left third, "center" the middle cell,
  "center-left" the middle of the left third;
- ``center`` constrains only the axes no other side constrains ("top center": top third,
  middle third horizontally), and a centred amount is centred ("center 50%": the middle
  half of both axes);
- several sides intersect: "top 20% left 30%"; "top-left quadrant" (or "quarter" after two
  perpendicular sides) is the top-left half by half;
- "page", "full", "whole", "all" alone (only filler words) mean the whole page;
- "first page" / "last page" (or slide, sheet; "the last slide's"), leading or anywhere
  ("bottom of the last page"), names the page: :func:`parse_region` returns it separately.

Boundaries are closed: the top third is ``[0, 1/3]`` of the height, so "top third" and
"bottom two thirds" share the line ``y = h/3`` and together cover the page exactly.

>>> parse_region("upper-left").region
Region(x0=0.0, top=0.0, x1=0.333333, bottom=0.333333)
>>> parse_region("bottom 25%").region.on(720, 540)
(0.0, 405.0, 720.0, 540.0)
>>> r = parse_region("last page bottom third"); (r.page, round(r.region.top, 4))
('last', 0.6667)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

PageWord = Literal["first", "last"]

_SIDE_WORDS: dict[str, str] = {
    "top": "top",
    "upper": "top",
    "bottom": "bottom",
    "lower": "bottom",
    "left": "left",
    "right": "right",
    "center": "center",
    "centre": "center",
    "middle": "center",
    "central": "center",
}
_FRACTION_WORDS: dict[str, Fraction] = {
    "half": Fraction(1, 2),
    "halves": Fraction(1, 2),
    "third": Fraction(1, 3),
    "thirds": Fraction(1, 3),
    "quarter": Fraction(1, 4),
    "quarters": Fraction(1, 4),
    "fourth": Fraction(1, 4),
    "fourths": Fraction(1, 4),
    "fifth": Fraction(1, 5),
    "fifths": Fraction(1, 5),
    "sixth": Fraction(1, 6),
    "sixths": Fraction(1, 6),
    "eighth": Fraction(1, 8),
    "eighths": Fraction(1, 8),
    "tenth": Fraction(1, 10),
    "tenths": Fraction(1, 10),
}
_MULTIPLIERS: dict[str, int] = {"one": 1, "a": 1, "two": 2, "three": 3, "four": 4}
_FILLER = {
    "corner", "of", "the", "page", "slide", "area", "region", "part", "portion", "and",
    "side", "edge", "in", "on", "sheet", "zone", "band", "strip",
}
_WHOLE = {"full", "whole", "all", "entire", "everywhere", "anywhere"}
_PERCENT = re.compile(r"^(\d+(?:\.\d+)?)%$")
_NUMBER = re.compile(r"^(\d*\.\d+|\d+)$")
_RATIO = re.compile(r"^(\d+)/(\d+)$")

DEFAULT_SIDE_FRACTION = Fraction(1, 3)


def _r(value: float) -> float:
    """Round fractions for display and comparison stability (1e-6 of a page)."""
    return round(float(value), 6)


@dataclass(frozen=True)
class Region:
    """A rectangle in page fractions: ``0 <= x0 <= x1 <= 1``, ``0 <= top <= bottom <= 1``.

    >>> Region(0, 0, 0.5, 1).on(612, 792)
    (0.0, 0.0, 306.0, 792.0)
    """

    x0: float
    top: float
    x1: float
    bottom: float

    def __post_init__(self) -> None:
        if not (0 <= self.x0 <= self.x1 <= 1 and 0 <= self.top <= self.bottom <= 1):
            raise ValueError(f"region fractions must satisfy 0 <= x0 <= x1 <= 1 and 0 <= top <= bottom <= 1, got {self}")

    def __repr__(self) -> str:
        return f"Region(x0={_r(self.x0)}, top={_r(self.top)}, x1={_r(self.x1)}, bottom={_r(self.bottom)})"

    @property
    def area(self) -> float:
        """Fraction of the page's area."""
        return (self.x1 - self.x0) * (self.bottom - self.top)

    def on(self, width: float, height: float) -> tuple[float, float, float, float]:
        """``(x0, top, x1, bottom)`` in points on a page of ``width`` x ``height`` points."""
        return (
            float(self.x0 * width),
            float(self.top * height),
            float(self.x1 * width),
            float(self.bottom * height),
        )

    def to_dict(self) -> dict[str, float]:
        return {"x0": _r(self.x0), "top": _r(self.top), "x1": _r(self.x1), "bottom": _r(self.bottom)}


WHOLE_PAGE = Region(0.0, 0.0, 1.0, 1.0)


@dataclass(frozen=True)
class ParsedRegion:
    """A parsed region text: the region and the page it named, if any."""

    text: str
    region: Region
    page: PageWord | None = None


def _tokens(text: str) -> list[str]:
    # "the last slide's bottom": a possessive names the same page as "the last slide"
    cleaned = re.sub(r"['\u2019]s\b", "", text.lower())
    cleaned = re.sub(r"[-_,;]+", " ", cleaned)
    cleaned = re.sub(r"(\d)\s*(%|percent\b)", r"\1%", cleaned)
    return [t for t in cleaned.split() if t]


_PAGE_NOUNS = ("page", "slide", "sheet")


def _page_phrase(text: str, tokens: list[str]) -> tuple[PageWord | None, list[str]]:
    """The page a region text names ("first"/"last" before page, slide or sheet) and
    the other tokens. The phrase may stand anywhere: authors write "last page bottom"
    and, as often, "the bottom of the last page" (KNOWS: "side by side at the bottom of
    the last page"), which was refused as an unknown word 'last'."""
    found = [i for i in range(len(tokens) - 1) if tokens[i] in ("first", "last") and tokens[i + 1] in _PAGE_NOUNS]
    if not found:
        return None, tokens
    if len({tokens[i] for i in found}) > 1:
        raise ValueError(f"cannot read region {text!r}: it names both the first and the last page")
    drop = {j for i in found for j in (i, i + 1)}
    page: PageWord = "first" if tokens[found[0]] == "first" else "last"
    return page, [t for j, t in enumerate(tokens) if j not in drop]


def _amount(tokens: list[str], i: int) -> tuple[Fraction | None, int]:
    """The amount starting at ``tokens[i]`` and how many tokens it used (0 when none)."""
    tok = tokens[i]
    if m := _PERCENT.match(tok):
        return Fraction(m.group(1)) / 100, 1
    if m := _RATIO.match(tok):
        if int(m.group(2)) == 0:
            raise ValueError(f"division by zero in region amount {tok!r}")
        return Fraction(int(m.group(1)), int(m.group(2))), 1
    if _NUMBER.match(tok):
        value = Fraction(tok)
        if value > 1:
            raise ValueError(f"region amount {tok!r} is ambiguous; write a percentage ({tok}%) or a fraction (0..1)")
        return value, 1
    if tok in _MULTIPLIERS and i + 1 < len(tokens) and tokens[i + 1] in _FRACTION_WORDS:
        return _MULTIPLIERS[tok] * _FRACTION_WORDS[tokens[i + 1]], 2
    if tok in _FRACTION_WORDS:
        return _FRACTION_WORDS[tok], 1
    if tok == "quadrant":
        return Fraction(1, 2), 1
    return None, 0


def _interval(side: str, amount: Fraction) -> tuple[Fraction, Fraction]:
    if side in ("top", "left"):
        return Fraction(0), amount
    if side in ("bottom", "right"):
        return 1 - amount, Fraction(1)
    margin = (1 - amount) / 2  # centre: the middle ``amount`` of the axis
    return margin, 1 - margin


@lru_cache(maxsize=1024)
def parse_region(text: str) -> ParsedRegion:
    """Parse a region name or fraction phrase (see the module docstring).

    Raises ValueError naming the text and the word at fault for anything it cannot read:
    a region that silently became "the whole page" would make every check pass.

    >>> parse_region("top 20%").region.on(720, 540)
    (0.0, 0.0, 720.0, 108.0)
    >>> parse_region("left third").region.x1 == 1/3
    True
    >>> parse_region("top-left quadrant").region
    Region(x0=0.0, top=0.0, x1=0.5, bottom=0.5)
    """
    page, words = _page_phrase(text, _tokens(text))
    if not words and page is None:
        raise ValueError(f"empty region text {text!r}")
    tokens = [t for t in words if t not in _FILLER]
    if not tokens or all(t in _WHOLE for t in tokens):
        return ParsedRegion(text, WHOLE_PAGE, page)  # "page", "whole page", "last slide"
    placed: list[tuple[str, Fraction]] = []
    pending: list[str] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok in _SIDE_WORDS:
            pending.append(_SIDE_WORDS[tok])
            i += 1
            continue
        amount, used = _amount(tokens, i)
        if amount is None:
            raise ValueError(f"cannot read region {text!r}: unknown word {tok!r}")
        if not pending:
            raise ValueError(f"cannot read region {text!r}: amount {tok!r} names no side (write e.g. 'top {tok}')")
        if not 0 < amount <= 1:
            raise ValueError(f"cannot read region {text!r}: amount {tok!r} must be in (0, 1]")
        perpendicular = {"top", "bottom"} & set(pending) and {"left", "right"} & set(pending)
        if tokens[i] in ("quarter", "quarters") and perpendicular:
            amount = Fraction(1, 2)  # "top-left quarter" means the quadrant, not 1/16 of the page
        placed.extend((side, amount) for side in pending)
        pending = []
        i += used
    placed.extend((side, DEFAULT_SIDE_FRACTION) for side in pending)

    x_lo, x_hi, y_lo, y_hi = Fraction(0), Fraction(1), Fraction(0), Fraction(1)
    x_set = y_set = False
    centres: list[Fraction] = []
    for side, amount in placed:
        lo, hi = _interval(side, amount)
        if side in ("left", "right"):
            x_lo, x_hi, x_set = max(x_lo, lo), min(x_hi, hi), True
        elif side in ("top", "bottom"):
            y_lo, y_hi, y_set = max(y_lo, lo), min(y_hi, hi), True
        else:
            centres.append(amount)
    for amount in centres:
        lo, hi = _interval("center", amount)
        if x_set and y_set:
            raise ValueError(f"cannot read region {text!r}: 'center' has no free axis left")
        if not x_set:
            x_lo, x_hi = max(x_lo, lo), min(x_hi, hi)
        if not y_set:
            y_lo, y_hi = max(y_lo, lo), min(y_hi, hi)
    if x_lo > x_hi or y_lo > y_hi:
        raise ValueError(f"region {text!r} is empty (its sides exclude each other)")
    return ParsedRegion(text, Region(float(x_lo), float(y_lo), float(x_hi), float(y_hi)), page)


# -- what "in the region" means ---------------------------------------------------------

Criterion = Literal["center", "area", "contained"]
"""How a node is judged "in" a region (design/checks-geometry.md, "Regions: the
criterion"): ``center`` its centre lies in the region (edges included; the default, chosen
from measurements over logos placed the way people and agents place them); ``area`` at
least ``min_fraction`` of its area lies inside; ``contained`` all of it lies inside."""

DEFAULT_CRITERION: Criterion = "center"
DEFAULT_AREA_FRACTION = 0.5


def format_pt(value: float) -> str:
    """Points for explanations: whole numbers bare, else one decimal."""
    return f"{value:.0f}" if abs(value - round(value)) < 0.05 else f"{value:.1f}"


def describe_bounds(region_pt: tuple[float, float, float, float], width: float, height: float) -> str:
    """The region's limits that constrain anything, in points: ``x<=204, y<=264`` for the
    upper-left third of a Letter page, ``240<=x<=480`` for a centred band; sides on the
    page's own edge are left out (they constrain nothing). ``whole page`` when none does.

    >>> describe_bounds((0, 0, 204, 264), 612, 792)
    'x<=204, y<=264'
    >>> describe_bounds((240, 0, 480, 540), 720, 540)
    '240<=x<=480'
    """
    x0, top, x1, bottom = region_pt
    parts: list[str] = []
    for lo, hi, limit, axis in ((x0, x1, width, "x"), (top, bottom, height, "y")):
        low = lo > 0.05
        high = hi < limit - 0.05
        if low and high:
            parts.append(f"{format_pt(lo)}<={axis}<={format_pt(hi)}")
        elif low:
            parts.append(f"{axis}>={format_pt(lo)}")
        elif high:
            parts.append(f"{axis}<={format_pt(hi)}")
    return ", ".join(parts) or "whole page"
