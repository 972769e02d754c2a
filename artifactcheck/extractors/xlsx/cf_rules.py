"""Which cells a conditional formatting rule switches on: one test per rule type Excel
has, built once per rule from the values of its whole range (top-N, averages and
duplicates depend on every cell of the range) and then asked per cell.

Types (ECMA-376 §18.3.1.10 ``ST_CfType``) and how each is decided:

- ``cellIs``: the cell's value against one or two operand formulas (constants, cell
  references, expressions), Excel's comparison (numbers as numbers, text without case,
  blank as 0 or ""); ``between`` is inclusive and order-free.
- ``expression``: the formula's result (TRUE or a non-zero number), references relative
  to the rule's anchor (``cf_formula.py``).
- ``top10``: ``rank`` N (``percent``: N % of the numeric cells, at least 1), ``bottom``;
  ties with the N-th value are in.
- ``aboveAverage``: the mean of the numeric cells; ``aboveAverage="0"`` means below,
  ``equalAverage`` includes the mean itself, ``stdDev`` N moves the bar N population
  standard deviations away from the mean (Excel uses STDEVP here).
- ``duplicateValues`` / ``uniqueValues``: among the non-blank cells, text compared
  without case.
- ``containsText`` / ``notContainsText`` / ``beginsWith`` / ``endsWith``: the rule's
  ``text`` in the cell's value as text, without case (what ``SEARCH`` does).
- ``containsBlanks`` / ``notContainsBlanks``: empty or spaces only;
  ``containsErrors`` / ``notContainsErrors``: an error value.
- ``timePeriod``: the cell's date against the extraction day (``today``, ``yesterday``,
  ``tomorrow``, ``last7Days``, ``thisWeek``/``lastWeek``/``nextWeek`` - weeks start on
  Sunday, as in Excel - ``thisMonth``/``lastMonth``/``nextMonth``).

``colorScale``, ``dataBar`` and ``iconSet`` are not on/off rules: ``cf_scales.py``.
A test that cannot be built returns a reason instead (recorded on the rule as
``not_evaluated``), so an unevaluated rule is never mistaken for "no cell matched".
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import fmean, pstdev
from typing import Any

from .cf_formula import (
    Area,
    Compiled,
    Context,
    XlError,
    compare,
    compile_formula,
    serial_to_date,
    to_text,
    truthy,
)

CellTest = Callable[[Any, Context], bool]
"""(the cell's value, its evaluation context) -> is the rule true for it."""

_CELL_IS = {
    "equal": "=", "notEqual": "<>", "greaterThan": ">", "lessThan": "<",
    "greaterThanOrEqual": ">=", "lessThanOrEqual": "<=",
}


@dataclass(frozen=True)
class Built:
    """A rule's per-cell test, or why there is none; ``uses_today`` when the result
    depends on the day of extraction."""

    test: CellTest | None
    reason: str | None = None
    uses_today: bool = False


def is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _numbers(values: Sequence[Any]) -> list[float]:
    return [float(v) for v in values if is_number(v)]


def _formulas(rule: dict[str, Any]) -> list[str]:
    return [str(f) for f in rule.get("formulas") or [] if str(f).strip()]


def build_test(rule: dict[str, Any], range_values: Sequence[Any]) -> Built:
    """The test of one rule; ``range_values`` are the values of every cell of the
    rule's ranges that holds something (blanks need not be listed)."""
    kind = rule.get("type")
    maker = _MAKERS.get(str(kind))
    if maker is None:
        return Built(None, f"rule type {kind!r} is not an on/off rule")
    return maker(rule, range_values)


def _cell_is(rule: dict[str, Any], _values: Sequence[Any]) -> Built:
    formulas = _formulas(rule)
    compiled = [compile_formula(f) for f in formulas]
    if not compiled or any(c is None for c in compiled):
        return Built(None, f"operand formula not supported: {formulas}")
    ops: list[Compiled] = [c for c in compiled if c is not None]
    op = rule.get("operator") or "equal"
    uses_today = any("TODAY" in f.upper() or "NOW" in f.upper() for f in formulas)
    if op in _CELL_IS:
        sym = _CELL_IS[op]
        first = ops[0]
        return Built(lambda v, ctx: compare(v, sym, _one(first(ctx))) is True, uses_today=uses_today)
    if op in ("between", "notBetween") and len(ops) >= 2:
        lo_f, hi_f = ops[0], ops[1]
        want = op == "between"

        def between(v: Any, ctx: Context) -> bool:
            a, b = _one(lo_f(ctx)), _one(hi_f(ctx))
            if compare(a, ">", b) is True:
                a, b = b, a
            inside = compare(v, ">=", a) is True and compare(v, "<=", b) is True
            return inside is want

        return Built(between, uses_today=uses_today)
    return Built(None, f"cellIs operator {op!r} with {len(ops)} operand(s)")


def _one(v: Any) -> Any:
    if isinstance(v, Area):
        return v.values[0] if v.values else None
    return v


def _expression(rule: dict[str, Any], _values: Sequence[Any]) -> Built:
    formulas = _formulas(rule)
    if len(formulas) != 1:
        return Built(None, "expression rule without exactly one formula")
    fn = compile_formula(formulas[0])
    if fn is None:
        return Built(None, f"formula not supported: {formulas[0]}")
    upper = formulas[0].upper()
    return Built(lambda v, ctx: truthy(fn(ctx)), uses_today="TODAY(" in upper or "NOW(" in upper)


def _int_attr(rule: dict[str, Any], key: str, default: int) -> int:
    try:
        return int(float(rule.get(key, default)))
    except (TypeError, ValueError):
        return default


def _flag(rule: dict[str, Any], key: str, default: bool) -> bool:
    v = rule.get(key)
    if v is None:
        return default
    return str(v).lower() in ("1", "true")


def _top10(rule: dict[str, Any], values: Sequence[Any]) -> Built:
    nums = sorted(_numbers(values))
    rank = _int_attr(rule, "rank", 10)
    if not nums or rank <= 0:
        return Built(lambda v, ctx: False)
    n = max(1, int(len(nums) * rank / 100)) if _flag(rule, "percent", False) else rank
    n = min(n, len(nums))
    if _flag(rule, "bottom", False):
        low = nums[n - 1]
        return Built(lambda v, ctx: is_number(v) and float(v) <= low)
    high = nums[-n]
    return Built(lambda v, ctx: is_number(v) and float(v) >= high)


def _above_average(rule: dict[str, Any], values: Sequence[Any]) -> Built:
    nums = _numbers(values)
    if not nums:
        return Built(lambda v, ctx: False)
    mean = fmean(nums)
    above = _flag(rule, "above_average", True)
    equal = _flag(rule, "equal_average", False)
    sds = _int_attr(rule, "std_dev", 0)
    bar = mean + (sds * pstdev(nums) if sds else 0.0) * (1 if above else -1)
    if above:
        return Built(lambda v, ctx: is_number(v) and (float(v) >= bar if equal else float(v) > bar))
    return Built(lambda v, ctx: is_number(v) and (float(v) <= bar if equal else float(v) < bar))


def _key(v: Any) -> Any:
    if isinstance(v, bool):
        return ("bool", v)
    if is_number(v):
        return ("num", float(v))
    return ("text", str(v).casefold())


def _duplicates(unique: bool) -> Callable[[dict[str, Any], Sequence[Any]], Built]:
    def make(rule: dict[str, Any], values: Sequence[Any]) -> Built:
        counts = Counter(_key(v) for v in values if v is not None and v != "")

        def test(v: Any, ctx: Context) -> bool:
            if v is None or v == "":
                return False
            return (counts.get(_key(v), 0) == 1) is unique

        return Built(test)

    return make


def _text_rule(rule: dict[str, Any], _values: Sequence[Any]) -> Built:
    kind = rule.get("type")
    needle = str(rule.get("text") or "").casefold()

    def test(v: Any, ctx: Context) -> bool:
        if isinstance(v, XlError):
            return kind == "notContainsText"  # SEARCH on an error is an error: NOT(ISERROR(...))
        hay = str(to_text(v)).casefold()
        if kind == "containsText":
            return needle in hay
        if kind == "notContainsText":
            return needle not in hay
        if kind == "beginsWith":
            return hay.startswith(needle)
        return hay.endswith(needle)

    return Built(test)


def _blanks(want_blank: bool) -> Callable[[dict[str, Any], Sequence[Any]], Built]:
    def make(rule: dict[str, Any], _values: Sequence[Any]) -> Built:
        def test(v: Any, ctx: Context) -> bool:
            blank = v is None or (isinstance(v, str) and not isinstance(v, XlError) and not v.strip())
            return blank is want_blank

        return Built(test)

    return make


def _errors(want_error: bool) -> Callable[[dict[str, Any], Sequence[Any]], Built]:
    def make(rule: dict[str, Any], _values: Sequence[Any]) -> Built:
        return Built(lambda v, ctx: isinstance(v, XlError) is want_error)

    return make


def _week_start(day: dt.date) -> dt.date:
    return day - dt.timedelta(days=(day.isoweekday() % 7))  # Sunday


def _month_shift(day: dt.date, months: int) -> tuple[int, int]:
    m = day.year * 12 + (day.month - 1) + months
    return m // 12, m % 12 + 1


def period_contains(period: str, today: dt.date, day: dt.date) -> bool | None:
    """Is ``day`` in Excel's ``timePeriod`` relative to ``today``? None: unknown period."""
    delta = (day - today).days
    if period == "today":
        return delta == 0
    if period == "yesterday":
        return delta == -1
    if period == "tomorrow":
        return delta == 1
    if period == "last7Days":
        return -6 <= delta <= 0
    if period in ("thisWeek", "lastWeek", "nextWeek"):
        shift = {"thisWeek": 0, "lastWeek": -7, "nextWeek": 7}[period]
        return _week_start(day) == _week_start(today) + dt.timedelta(days=shift)
    if period in ("thisMonth", "lastMonth", "nextMonth"):
        shift = {"thisMonth": 0, "lastMonth": -1, "nextMonth": 1}[period]
        return (day.year, day.month) == _month_shift(today, shift)
    return None


def _time_period(rule: dict[str, Any], _values: Sequence[Any]) -> Built:
    period = str(rule.get("time_period") or "")
    if period_contains(period, dt.date(2000, 1, 1), dt.date(2000, 1, 1)) is None:
        return Built(None, f"time period {period!r}")

    def test(v: Any, ctx: Context) -> bool:
        if not is_number(v) or float(v) < 0:
            return False
        try:
            day = serial_to_date(float(v), ctx.date1904)
        except OverflowError:
            return False
        return period_contains(period, ctx.today, day) is True

    return Built(test, uses_today=True)


_MAKERS: dict[str, Callable[[dict[str, Any], Sequence[Any]], Built]] = {
    "cellIs": _cell_is,
    "expression": _expression,
    "top10": _top10,
    "aboveAverage": _above_average,
    "duplicateValues": _duplicates(False),
    "uniqueValues": _duplicates(True),
    "containsText": _text_rule,
    "notContainsText": _text_rule,
    "beginsWith": _text_rule,
    "endsWith": _text_rule,
    "containsBlanks": _blanks(True),
    "notContainsBlanks": _blanks(False),
    "containsErrors": _errors(True),
    "notContainsErrors": _errors(False),
    "timePeriod": _time_period,
}
