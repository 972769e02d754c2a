"""Colour scales, data bars and icon sets: what each numeric cell of the range shows.

Thresholds (``cfvo``, ECMA-376 §18.3.1.11) are resolved over the numeric cells of the
rule's ranges: ``min``/``max``, Excel 2010's ``autoMin``/``autoMax`` (0 included),
``num`` (a constant or a formula), ``percent`` (of the min-max span), ``percentile``
(PERCENTILE.INC) and ``formula``.

- Colour scale: the cell's fill, interpolated linearly in RGB between the two or three
  stops; values beyond the end stops take the end colours. Text, blanks and errors get
  no colour.
- Data bar: recorded as a fact, ``{"ratio", "length_pct", "color"}``: ``ratio`` is the
  value's position between the low and high thresholds (0..1, clamped), ``length_pct``
  the bar's length in % of the cell width (``minLength + ratio * (maxLength -
  minLength)``, Excel's defaults 10 and 90).
- Icon set: ``{"icon_set", "index", "icon"}``: the index counts from the icon for the
  lowest values (Excel lists a set's icons from low to high: red, yellow, green
  circles), ``reverse`` flips it; ``icon`` names it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

from .cf_formula import Context, compile_formula, to_number

ICON_NAMES: dict[str, tuple[str, ...]] = {
    "3Arrows": ("red down arrow", "yellow side arrow", "green up arrow"),
    "3ArrowsGray": ("gray down arrow", "gray side arrow", "gray up arrow"),
    "3Flags": ("red flag", "yellow flag", "green flag"),
    "3TrafficLights1": ("red circle", "yellow circle", "green circle"),
    "3TrafficLights2": ("red traffic light", "yellow traffic light", "green traffic light"),
    "3Signs": ("red diamond", "yellow triangle", "green circle"),
    "3Symbols": ("red cross circle", "yellow exclamation circle", "green check circle"),
    "3Symbols2": ("red cross", "yellow exclamation", "green check"),
    "3Stars": ("empty star", "half star", "full star"),
    "3Triangles": ("red down triangle", "yellow dash", "green up triangle"),
    "4Arrows": ("red down arrow", "yellow down-right arrow", "yellow up-right arrow", "green up arrow"),
    "4ArrowsGray": ("gray down arrow", "gray down-right arrow", "gray up-right arrow", "gray up arrow"),
    "4RedToBlack": ("black circle", "gray circle", "pink circle", "red circle"),
    "4Rating": ("1 bar", "2 bars", "3 bars", "4 bars"),
    "4TrafficLights": ("black circle", "red circle", "yellow circle", "green circle"),
    "5Arrows": ("red down arrow", "yellow down-right arrow", "yellow side arrow", "yellow up-right arrow",
                "green up arrow"),
    "5ArrowsGray": ("gray down arrow", "gray down-right arrow", "gray side arrow", "gray up-right arrow",
                    "gray up arrow"),
    "5Rating": ("0 bars", "1 bar", "2 bars", "3 bars", "4 bars"),
    "5Quarters": ("empty circle", "quarter circle", "half circle", "three-quarter circle", "full circle"),
    "5Boxes": ("0 boxes", "1 box", "2 boxes", "3 boxes", "4 boxes"),
}


def percentile_inc(sorted_nums: Sequence[float], p: float) -> float:
    """Excel's PERCENTILE.INC of ascending numbers, ``p`` in 0..1."""
    if not sorted_nums:
        return math.nan
    p = min(1.0, max(0.0, p))
    pos = p * (len(sorted_nums) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(sorted_nums) - 1)
    return sorted_nums[lo] + (sorted_nums[hi] - sorted_nums[lo]) * (pos - lo)


def threshold(cfvo: dict[str, Any], nums: Sequence[float], anchor: Context) -> float | None:
    """One ``cfvo`` as a number over the ascending numeric values ``nums``; None when
    it cannot be resolved (an unsupported formula, an unknown type)."""
    kind = cfvo.get("type")
    if not nums:
        return None
    lo, hi = nums[0], nums[-1]
    if kind == "min":
        return lo
    if kind == "max":
        return hi
    if kind == "autoMin":
        return min(0.0, lo)
    if kind == "autoMax":
        return max(0.0, hi)
    val = _value(cfvo.get("val"), anchor)
    if val is None:
        return None
    if kind in ("num", "formula"):
        return val
    if kind == "percent":
        return lo + (hi - lo) * val / 100.0
    if kind == "percentile":
        return percentile_inc(nums, val / 100.0)
    return None


def _value(text: Any, anchor: Context) -> float | None:
    if text is None:
        return None
    try:
        return float(text)
    except (TypeError, ValueError):
        pass
    fn = compile_formula(str(text))
    if fn is None:
        return None
    n = to_number(fn(anchor))
    return None if isinstance(n, str) else n


def _rgb(hex_value: str) -> tuple[int, int, int]:
    return int(hex_value[1:3], 16), int(hex_value[3:5], 16), int(hex_value[5:7], 16)


def scale_colour(value: float, stops: Sequence[tuple[float, str]]) -> str:
    """The colour of ``value`` on a colour scale of ascending ``(threshold, #rrggbb)``."""
    if value <= stops[0][0]:
        return stops[0][1]
    for (t0, c0), (t1, c1) in pairwise(stops):
        if value <= t1:
            f = 0.0 if t1 == t0 else (value - t0) / (t1 - t0)
            a, b = _rgb(c0), _rgb(c1)
            mix = (round(x + (y - x) * f) for x, y in zip(a, b))
            return "#" + "".join(f"{v:02x}" for v in mix)
    return stops[-1][1]


def colour_scale_stops(spec: dict[str, Any], nums: Sequence[float], anchor: Context) -> list[tuple[float, str]] | None:
    """The resolved stops of a ``colorScale`` summary (None when one cannot be resolved)."""
    cfvos, colours = spec.get("cfvo") or [], spec.get("colors") or []
    if len(cfvos) < 2 or len(colours) != len(cfvos):
        return None
    stops: list[tuple[float, str]] = []
    for cfvo, colour in zip(cfvos, colours):
        t = threshold(cfvo, nums, anchor)
        if t is None:
            return None
        stops.append((t, colour))
    # Thresholds out of order (a num stop beyond max) keep Excel's stop order.
    for i in range(1, len(stops)):
        if stops[i][0] < stops[i - 1][0]:
            stops[i] = (stops[i - 1][0], stops[i][1])
    return stops


def data_bar(spec: dict[str, Any], value: float, low: float, high: float) -> dict[str, Any]:
    """The data bar fact of one value between the resolved thresholds."""
    ratio = 0.0 if high <= low else min(1.0, max(0.0, (value - low) / (high - low)))
    lo_len, hi_len = int(spec.get("min_length", 10)), int(spec.get("max_length", 90))
    colours = spec.get("colors") or []
    out: dict[str, Any] = {
        "ratio": round(ratio, 4),
        "length_pct": round(lo_len + ratio * (hi_len - lo_len), 2),
        "color": colours[0] if colours else None,
    }
    if spec.get("show_value") is False:
        out["show_value"] = False
    return out


def icon_thresholds(spec: dict[str, Any], nums: Sequence[float], anchor: Context) -> list[tuple[float, bool]] | None:
    out: list[tuple[float, bool]] = []
    for cfvo in spec.get("cfvo") or []:
        t = threshold(cfvo, nums, anchor)
        if t is None:
            return None
        out.append((t, cfvo.get("gte", True) is not False))
    return out or None


def icon(spec: dict[str, Any], value: float, thresholds: Sequence[tuple[float, bool]]) -> dict[str, Any]:
    """The icon fact of one value: the highest threshold it reaches (the first icon
    when it reaches none above the first)."""
    index = 0
    for i, (t, gte) in enumerate(thresholds[1:], start=1):
        if value > t or (gte and value == t):
            index = i
    n = len(thresholds)
    if spec.get("reverse"):
        index = n - 1 - index
    name = str(spec.get("icon_set") or "3TrafficLights1")
    names = ICON_NAMES.get(name)
    out: dict[str, Any] = {"icon_set": name, "index": index}
    if names is not None and len(names) == n:
        out["icon"] = names[index]
    if spec.get("show_value") is False:
        out["show_value"] = False
    return out
