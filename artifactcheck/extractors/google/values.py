"""Small value shapes shared by the Docs, Sheets and Slides APIs, converted once.

- ``Dimension`` ``{"magnitude": 12, "unit": "PT"|"EMU"}`` -> points. A missing magnitude
  is 0 (proto3 JSON omits zero numbers); a missing unit with a magnitude is an error in
  the response, read as points (Docs only ever uses PT).
- ``Color`` ``{"red": .5, "green": 0, "blue": 1}`` (floats 0..1, omitted = 0) -> ``#rrggbb``.
  ``{}`` is therefore black, which is what the APIs mean by it.
- ``OptionalColor`` ``{"color": {...}}`` -> ``#rrggbb``; ``{}`` without ``color`` means
  *transparent* (None) — for a background; callers decide what it means for text.
- Sheets' ``ColorStyle`` ``{"rgbColor": {...}}`` or ``{"themeColor": "ACCENT1"}`` and Slides'
  ``OpaqueColor`` ``{"rgbColor": ...}``/``{"themeColor": ...}`` resolve through a theme map.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...model.units import emu_to_pt

Json = dict[str, Any]


def dimension_pt(value: Mapping[str, Any] | None) -> float | None:
    """A Dimension in points; None when the Dimension itself is absent."""
    if value is None:
        return None
    magnitude = float(value.get("magnitude", 0) or 0)
    unit = value.get("unit", "PT")
    if unit == "EMU":
        return emu_to_pt(magnitude)
    return magnitude


def rgb_hex(color: Mapping[str, Any] | None) -> str | None:
    """An RGB ``Color`` (channels 0..1, omitted = 0) as ``#rrggbb``; None when absent."""
    if color is None:
        return None

    def channel(name: str) -> int:
        v = min(1.0, max(0.0, float(color.get(name, 0) or 0)))  # clamp first: 1e308 * 255 is inf
        return round(v * 255)

    return f"#{channel('red'):02x}{channel('green'):02x}{channel('blue'):02x}"


def optional_color_hex(value: Mapping[str, Any] | None) -> str | None:
    """Docs ``OptionalColor``: ``{"color": {"rgbColor": {...}}}``. ``{}`` = transparent."""
    if not value or "color" not in value:
        return None
    inner = value["color"] or {}
    return rgb_hex(inner.get("rgbColor", {}))


def theme_color_hex(value: Mapping[str, Any] | None, theme: Mapping[str, str]) -> str | None:
    """Sheets ``ColorStyle`` / Slides ``OpaqueColor``: an ``rgbColor`` or a ``themeColor``
    looked up in ``theme`` (``{"ACCENT1": "#4285f4", ...}``); None when absent or unknown."""
    if not value:
        return None
    if "rgbColor" in value:
        return rgb_hex(value["rgbColor"])
    name = value.get("themeColor")
    if name:
        return theme.get(str(name))
    return None


def index_value(value: Any, what: str, *, at_most: int, default: int = 0) -> int:
    """An integer field of a response that counts or indexes something (a row, a span, a
    nesting level): missing/0/null is ``default``; a negative value, or one above
    ``at_most`` (the structure's own bound: 8 list levels, the table's row count), is a
    ValueError that the extractor reports as CorruptArtifact. ``inf``/``NaN`` fail in
    ``int()`` the same way. Every such field goes through here, so a loop over a span or
    a list of levels is bounded by the response itself.

    >>> index_value(None, "rowSpan", at_most=3, default=1)
    1
    >>> index_value(-1, "endColumnIndex", at_most=10)
    Traceback (most recent call last):
    ValueError: endColumnIndex -1 is outside 0..10
    """
    number = int(value or default)
    if not 0 <= number <= at_most:
        raise ValueError(f"{what} {number} is outside 0..{at_most}")
    return number


def a1_column(index0: int) -> str:
    """0-based column index to letters: 0 -> A, 25 -> Z, 26 -> AA. A negative index is
    a ValueError (there is no column before A).

    >>> [a1_column(i) for i in (0, 25, 26, 701, 702)]
    ['A', 'Z', 'AA', 'ZZ', 'AAA']
    """
    if index0 < 0:
        raise ValueError(f"column index {index0} is negative")
    letters = ""
    n = index0 + 1
    while n:
        n, rem = divmod(n - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def a1_ref(row0: int, col0: int) -> str:
    """0-based row and column to an A1 reference: (0, 0) -> A1."""
    return f"{a1_column(col0)}{row0 + 1}"
