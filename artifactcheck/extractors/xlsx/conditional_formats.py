"""Evaluating the simple conditional formatting rules, so a cell highlighted by a rule
says so (``attrs["conditional_fill"]``, ``attrs["conditional_style"]``).

Evaluated (the forms agents and people write most):

- ``cellIs`` with constant operands (numbers, ``"text"``, TRUE/FALSE): between,
  notBetween, equal, notEqual, greaterThan, lessThan, greaterThanOrEqual,
  lessThanOrEqual;
- ``containsText`` / ``notContainsText`` / ``beginsWith`` / ``endsWith`` (case-insensitive);
- ``containsBlanks`` / ``notContainsBlanks``;
- ``expression`` of one comparison between a cell reference (relative or ``$``-absolute,
  taken relative to the range's top-left cell, as Excel does) and a constant:
  ``$C2="urgent"``, ``B2>100``, ``$D2=TRUE``.

Everything else (colour scales, data bars, icon sets, top-N, averages, duplicates,
expressions with functions or several terms) is recorded on the sheet but not evaluated;
those rules carry ``evaluated: false``. Rules apply in priority order; the first rule
that sets a property wins it; ``stopIfTrue`` stops later rules for that cell.
Comparison follows Excel: numbers compare as numbers, text case-insensitively, a number
never equals a text.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from ...model import Node
from .sheet import col_index, split_range

_REF_CMP = re.compile(r"^\s*(\$?)([A-Za-z]{1,3})(\$?)(\d+)\s*(<=|>=|<>|=|<|>)\s*(.+?)\s*$")
_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "=": lambda a, b: a == b,
    "<>": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    ">": lambda a, b: a > b,
    "<=": lambda a, b: a <= b,
    ">=": lambda a, b: a >= b,
}
_CELL_IS = {
    "equal": "=", "notEqual": "<>", "greaterThan": ">", "lessThan": "<",
    "greaterThanOrEqual": ">=", "lessThanOrEqual": "<=",
}
_NO_VALUE = object()


def _constant(text: str) -> Any:
    """A formula constant as a Python value, or ``_NO_VALUE`` when it is not one."""
    t = text.strip()
    if len(t) >= 2 and t[0] == '"' and t[-1] == '"':
        return t[1:-1].replace('""', '"')
    if t.upper() in ("TRUE", "FALSE"):
        return t.upper() == "TRUE"
    try:
        return float(t)
    except ValueError:
        return _NO_VALUE


def _norm(v: Any) -> Any:
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float)):
        return ("num", float(v))
    if isinstance(v, str):
        return ("text", v.casefold())
    return ("blank", 0)


def compare(a: Any, op: str, b: Any) -> bool:
    """Excel-style comparison of two cell values (None is blank)."""
    ka, kb = _norm(a), _norm(b)
    if ka[0] == "blank" and kb[0] == "num":
        ka = ("num", 0.0)
    if ka[0] == "blank" and kb[0] == "text":
        ka = ("text", "")
    if ka[0] != kb[0]:
        return op == "<>"
    return _OPS[op](ka[1], kb[1])


def _numeric_value(node: Node) -> Any:
    # Dates compare by their serial number, as Excel stores them.
    return node.attrs.get("serial", node.attrs.get("value"))


def _rule_test(rule: dict[str, Any]) -> Callable[[Node, int, int, int, int, Callable[[int, int], Any]], bool] | None:
    kind = rule.get("type")
    formulas = [str(f) for f in rule.get("formulas") or []]
    if kind == "cellIs":
        op = rule.get("operator")
        consts = [_constant(f) for f in formulas]
        if any(c is _NO_VALUE for c in consts) or not consts:
            return None
        if op in _CELL_IS:
            sym = _CELL_IS[op]
            return lambda n, r, c, r0, c0, get: compare(_numeric_value(n), sym, consts[0])
        if op in ("between", "notBetween") and len(consts) >= 2:
            lo, hi = consts[0], consts[1]
            want = op == "between"

            def between(n: Node, r: int, c: int, r0: int, c0: int, get: Callable[[int, int], Any]) -> bool:
                v = _numeric_value(n)
                return bool(compare(v, ">=", lo) and compare(v, "<=", hi)) is want

            return between
        return None
    if kind in ("containsText", "notContainsText", "beginsWith", "endsWith"):
        needle = str(rule.get("text") or "").casefold()
        if not needle:
            return None

        def text_test(n: Node, r: int, c: int, r0: int, c0: int, get: Callable[[int, int], Any]) -> bool:
            hay = (n.text or "").casefold()
            if kind == "containsText":
                return needle in hay
            if kind == "notContainsText":
                return needle not in hay
            if kind == "beginsWith":
                return hay.startswith(needle)
            return hay.endswith(needle)

        return text_test
    if kind == "containsBlanks":
        return lambda n, r, c, r0, c0, get: not (n.text or "").strip()
    if kind == "notContainsBlanks":
        return lambda n, r, c, r0, c0, get: bool((n.text or "").strip())
    if kind == "expression" and len(formulas) == 1:
        m = _REF_CMP.match(formulas[0])
        if m is None:
            return None
        col_abs, letters, row_abs, digits, op, rhs = m.groups()
        const = _constant(rhs)
        if const is _NO_VALUE:
            return None
        ref_col, ref_row = col_index(letters.upper()), int(digits)

        def expr_test(n: Node, r: int, c: int, r0: int, c0: int, get: Callable[[int, int], Any]) -> bool:
            rr = ref_row if row_abs else ref_row + (r - r0)
            cc = ref_col if col_abs else ref_col + (c - c0)
            return compare(get(rr, cc), op, const)

        return expr_test
    return None


def apply_conditional_formats(rules: list[dict[str, Any]], by_pos: dict[tuple[int, int], Node]) -> None:
    """Mark the cells that rules highlight. ``rules`` are sorted by priority; each gets
    ``evaluated`` (bool). Cells get ``conditional_style`` (merged dxf properties),
    ``conditional_fill`` (when a rule sets a fill) and ``conditional_rules`` (indexes)."""

    def get(r: int, c: int) -> Any:
        node = by_pos.get((r, c))
        return None if node is None else _numeric_value(node)

    stopped: set[tuple[int, int]] = set()
    for index, rule in enumerate(rules):
        test = _rule_test(rule)
        rule["evaluated"] = test is not None
        if test is None:
            continue
        style = rule.get("style") or {}
        for rng in str(rule.get("ranges") or "").split():
            rect = split_range(rng)
            if rect is None:
                continue
            r0, c0, r1, c1 = rect
            if (r1 - r0 + 1) * (c1 - c0 + 1) <= len(by_pos):
                targets = [((r, c), by_pos[(r, c)]) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)
                           if (r, c) in by_pos]
            else:
                targets = [(p, n) for p, n in by_pos.items() if r0 <= p[0] <= r1 and c0 <= p[1] <= c1]
            for (r, c), node in targets:
                if (r, c) in stopped:
                    continue
                if not test(node, r, c, r0, c0, get):
                    continue
                applied = node.attrs.setdefault("conditional_rules", [])
                if isinstance(applied, list):
                    applied.append(index)
                merged = node.attrs.setdefault("conditional_style", {})
                if isinstance(merged, dict):
                    for key, value in style.items():
                        merged.setdefault(key, value)
                    if "fill" in merged:
                        node.attrs["conditional_fill"] = merged["fill"]
                if rule.get("stop_if_true"):
                    stopped.add((r, c))
