"""Conditional formatting evaluated on the sheet's cells, so a cell says what a reader
sees: the rules that are on for it, the merged style they give, the colour a colour scale
paints it, the data bar and icon it shows.

Rules apply in priority order (``priority`` 1 first). For each cell and style property
the first rule that is on and sets it wins; a rule that is on and has ``stopIfTrue``
stops the rules after it for that cell. A colour scale's colour is a fill like a rule's
fill (and loses to a higher-priority rule's fill). Which rule types are on/off tests and
how each is decided: ``cf_rules.py``; colour scales, data bars, icon sets:
``cf_scales.py``; formulas: ``cf_formula.py``.

What cells get (only when a rule touches them):

- ``conditional_rules``: indexes (into the sheet's ``conditional_formats``) of the rules
  that are on, in priority order;
- ``conditional_style``: their merged differential style (``fill``, ``color``, ``bold``,
  ``italic``, ``underline``, ``strike``, ``number_format``, ``borders``), the colour
  scale's fill included; ``conditional_fill`` repeats the fill for selectors;
- ``data_bar`` / ``icon``: the facts of a data bar / icon set rule.

Every rule gets ``evaluated`` (bool), ``not_evaluated`` (why, when False),
``matched_cells`` and, when its result depends on the day (``TODAY()``, date periods),
``evaluated_on`` (ISO date): an unevaluated rule is never read as "no cell matched".
Cells that are not in the tree (empty, unstyled cells) are never marked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import Any

from ...model import Node
from .cell_index import CellIndex
from .cf_formula import Context, XlError
from .cf_rules import Built, build_test, is_number
from .cf_scales import colour_scale_stops, data_bar, icon, icon_thresholds, scale_colour, threshold
from .sheet import split_range

_VISUAL = ("colorScale", "dataBar", "iconSet")


def cf_value(node: Node | None) -> Any:
    """A cell's value as formulas see it: numbers (dates as their serial), text,
    booleans, error values; None for blank."""
    if node is None:
        return None
    attrs = node.attrs
    dtype = attrs.get("data_type")
    if dtype == "error":
        return XlError(str(attrs.get("value")))
    if dtype == "date" and "serial" in attrs:
        return attrs["serial"]
    v = attrs.get("value")
    if isinstance(v, int) and not isinstance(v, bool):
        return float(v)
    return v


class _Sheet:
    """Cell values of one sheet by position, for formulas and range statistics."""

    def __init__(self, by_pos: CellIndex) -> None:
        self.by_pos = by_pos
        self._values: dict[tuple[int, int], Any] = {}

    def value(self, r: int, c: int) -> Any:
        key = (r, c)
        if key in self._values:
            return self._values[key]
        v = self._values[key] = cf_value(self.by_pos.get(key))
        return v

    def cells_in(self, r0: int, c0: int, r1: int, c1: int) -> list[Any]:
        return [self.value(r, c) for (r, c) in self.by_pos if r0 <= r <= r1 and c0 <= c <= c1]

    def targets(self, ranges: str) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
        """The tree's cells inside a space-separated list of ranges (each once, in
        range order) and the anchor: the first range's top-left cell."""
        out: list[tuple[int, int]] = []
        seen: set[tuple[int, int]] = set()
        anchor: tuple[int, int] | None = None
        for rng in ranges.split():
            rect = split_range(rng)
            if rect is None:
                continue
            r0, c0, r1, c1 = rect
            if anchor is None:
                anchor = (r0, c0)
            if (r1 - r0 + 1) * (c1 - c0 + 1) <= len(self.by_pos):
                cand = [(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1) if (r, c) in self.by_pos]
            else:
                cand = sorted(p for p in self.by_pos if r0 <= p[0] <= r1 and c0 <= p[1] <= c1)
            for p in cand:
                if p not in seen:
                    seen.add(p)
                    out.append(p)
        return out, anchor


def apply_conditional_formats(
    rules: list[dict[str, Any]],
    by_pos: CellIndex,
    *,
    today: dt.date | None = None,
    date1904: bool = False,
) -> None:
    """Evaluate ``rules`` (sorted by priority) on the cells ``by_pos`` and mark the
    cells and rules as the module docstring says. ``today``: the date ``TODAY()`` and
    date-period rules use (default: the day of extraction)."""
    day = today or dt.date.today()
    sheet = _Sheet(by_pos)
    stopped: set[tuple[int, int]] = set()
    for index, rule in enumerate(rules):
        targets, anchor = sheet.targets(str(rule.get("ranges") or ""))
        if anchor is None:
            rule["evaluated"] = False
            rule["not_evaluated"] = f"no usable range in {rule.get('ranges')!r}"
            continue
        values = [sheet.value(r, c) for r, c in targets]

        a_row, a_col = anchor

        def context(r: int, c: int, a_row: int = a_row, a_col: int = a_col) -> Context:
            return Context(sheet.value, sheet.cells_in, r, c, r - a_row, c - a_col, day, date1904)

        kind = rule.get("type")
        if kind in _VISUAL:
            applied = _visual(rule, str(kind), targets, values, context(*anchor))
            if applied is None:
                continue
            matched = 0
            for (r, c), fact in applied.items():
                if (r, c) in stopped:
                    continue
                matched += 1
                _mark(by_pos[(r, c)], index, fact)
            rule["evaluated"] = True
            rule["matched_cells"] = matched
            continue
        built: Built = build_test(rule, values)
        if built.test is None:
            rule["evaluated"] = False
            rule["not_evaluated"] = built.reason
            continue
        rule["evaluated"] = True
        if built.uses_today:
            rule["evaluated_on"] = day.isoformat()
        matched = 0
        style = rule.get("style") or {}
        test: Callable[[Any, Context], bool] = built.test
        for (r, c), v in zip(targets, values):
            if (r, c) in stopped:
                continue
            try:
                on = test(v, context(r, c))
            except (ArithmeticError, ValueError, TypeError):
                on = False
            if not on:
                continue
            matched += 1
            _mark(by_pos[(r, c)], index, {"style": style})
            if rule.get("stop_if_true"):
                stopped.add((r, c))
        rule["matched_cells"] = matched


def _visual(
    rule: dict[str, Any], kind: str, targets: list[tuple[int, int]], values: list[Any], anchor: Context
) -> dict[tuple[int, int], dict[str, Any]] | None:
    """Per numeric cell, what a colour scale / data bar / icon set draws (None and the
    rule marked not evaluated when its thresholds cannot be resolved)."""
    spec = rule.get(kind) or {}
    nums = sorted(float(v) for v in values if is_number(v))
    out: dict[tuple[int, int], dict[str, Any]] = {}
    if not nums:
        rule["evaluated"] = True
        rule["matched_cells"] = 0
        return None
    numeric = [(p, float(v)) for p, v in zip(targets, values) if is_number(v)]
    if kind == "colorScale":
        stops = colour_scale_stops(spec, nums, anchor)
        if stops is None:
            return _not_evaluated(rule, "a colour scale threshold could not be resolved")
        for p, v in numeric:
            out[p] = {"style": {"fill": scale_colour(v, stops)}}
        return out
    if kind == "dataBar":
        cfvos = spec.get("cfvo") or []
        if len(cfvos) < 2:
            return _not_evaluated(rule, "a data bar needs two thresholds")
        low, high = threshold(cfvos[0], nums, anchor), threshold(cfvos[1], nums, anchor)
        if low is None or high is None:
            return _not_evaluated(rule, "a data bar threshold could not be resolved")
        for p, v in numeric:
            out[p] = {"data_bar": data_bar(spec, v, low, high)}
        return out
    marks = icon_thresholds(spec, nums, anchor)
    if marks is None:
        return _not_evaluated(rule, "an icon set threshold could not be resolved")
    for p, v in numeric:
        out[p] = {"icon": icon(spec, v, marks)}
    return out


def _not_evaluated(rule: dict[str, Any], reason: str) -> dict[tuple[int, int], dict[str, Any]] | None:
    """Mark the rule as not evaluated; None (no cell gets anything)."""
    rule["evaluated"] = False
    rule["not_evaluated"] = reason
    return None


def _mark(node: Node, index: int, fact: dict[str, Any]) -> None:
    attrs = node.attrs
    applied = attrs.get("conditional_rules")
    if not isinstance(applied, list):
        applied = attrs["conditional_rules"] = []
    applied.append(index)
    style = fact.get("style")
    if style:
        merged = attrs.get("conditional_style")
        if not isinstance(merged, dict):
            merged = attrs["conditional_style"] = {}
        for key, value in style.items():
            if value is not None:
                merged.setdefault(key, value)
        if "fill" in merged:
            attrs["conditional_fill"] = merged["fill"]
    for key in ("data_bar", "icon"):
        if key in fact and key not in attrs:
            attrs[key] = {**fact[key], "rule": index}
