"""Sets of values (mechanism ``tree_query``): the values of a column, a range or any
target nodes are unique, equal as a set to a list, include every item of a list, or have
a number of distinct values.

Where the values come from (``values_of``): ``target`` (the text of each node: list
items, paragraphs, cells); else a column found by its header (``column``) in the table of
``scope`` / ``range``, the values being the column's cells below the detected header; else
every cell of ``range``. With ``field``, the value is one field of each text split at
``separator`` (the second comma field of every line: ``field: 2``); a text without that
field is left out and counted. Blank values are skipped. Values are compared after
normalisation: case (unless ``case_sensitive``), whitespace, typography, and numbers by
value (``1,000`` = ``1000``; ``$5`` = ``5``; ``12%`` = ``12 %``), so an author's list
matches what the sheet displays.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...model import Document, Node
from ..normalize import normalize_text, parse_number
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec, node_ref, select_targets
from ._result import query_result
from .grid import Grid, describe_header, detect_header_row, grids
from .selection import count_ok
from .tables import match_columns


class ValuesSource(BaseModel):
    """Where the values come from: ``target``, or ``column`` (by header) in
    ``scope``/``range``, or every cell of ``range``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec | None = Field(
        default=None, description="the nodes whose texts are the values (e.g. list items); or use column/range"
    )
    scope: TargetSpec | None = Field(default=None, description="the sheet or table holding the column (default: the first)")
    range: str | None = Field(
        default=None,
        description="the cells (A1:G9, Sheet1!B2:B40, a defined name or an Excel table name); "
        "with column, the table the column is found in",
    )
    column: str | None = Field(
        default=None, description="the header of the column whose cells below the header are the values (fuzzy)"
    )
    case_sensitive: bool = Field(default=False, description="'Paris' and 'paris' differ")
    field: int | None = Field(
        default=None,
        ge=1,
        description="the value is this field (1-based) of each node's text split at separator (field 2 of "
        "'Ann,1042,Sales' is '1042'); a text with fewer fields is left out and counted in the evidence",
    )
    separator: str = Field(default=",", min_length=1, description="with field: what separates the fields")
    include_totals: bool = Field(
        default=False,
        description="with column: keep a totals row at the bottom (a 'Total' label beside SUM/AVERAGE... formulas)",
    )
    include_hidden: bool = Field(default=False, description="with column: keep the values of hidden rows")

    @model_validator(mode="after")
    def _one_source(self) -> ValuesSource:
        if self.target is None and self.column is None and self.range is None:
            raise ValueError("say where the values are: target, column (with scope or range), or range")
        if self.target is not None and (self.column is not None or self.range is not None):
            raise ValueError("give either target, or column/range, not both")
        return self


@dataclass
class Values:
    """The values found: ``(shown text, key, node)`` in order, and where they came from."""

    items: list[tuple[str, str, Node]]
    where: str
    without_field: int = 0
    """Texts left out because they have no ``field``-th field."""


def value_key(text: str, *, case_sensitive: bool) -> str:
    """The comparison key of a value: a number by its value, text normalised.

    >>> value_key("1,000", case_sensitive=False) == value_key("1000", case_sensitive=False)
    True
    >>> value_key(" Paris ", case_sensitive=False), value_key("12%", case_sensitive=False)
    ('paris', '#12%')
    """
    number = parse_number(text)
    if number is not None:
        return f"#{number.value:g}" + ("%" if number.percent else "")
    return normalize_text(text, case_sensitive=case_sensitive)


def values_of(doc: Document, src: ValuesSource) -> Values | str:
    """The values ``src`` names, or why there are none (a missing column or table)."""
    def item(node: Node) -> tuple[str, str, Node]:
        shown = node.text.strip()
        return shown, value_key(shown, case_sensitive=src.case_sensitive), node

    def values(nodes: list[Node], where: str) -> Values:
        if src.field is None:
            return Values([item(n) for n in nodes], where)
        out: list[tuple[str, str, Node]] = []
        short = 0
        for n in nodes:
            parts = n.text.split(src.separator)
            if len(parts) < src.field:
                short += 1
                continue
            shown = parts[src.field - 1].strip()
            if shown:
                out.append((shown, value_key(shown, case_sensitive=src.case_sensitive), n))
        return Values(out, f"field {src.field} (split at {src.separator!r}) of {where}", short)

    if src.target is not None:
        nodes = [n for n in select_targets(doc, src.target) if n.text.strip()]
        return values(nodes, f"{len(nodes)} node(s) matching {src.target.describe()}")
    found = grids(doc, src.scope, src.range, table_only=True)
    if not found or not found[0].cells:
        return f"no sheet or table with cells{f' in range {src.range!r}' if src.range else ''}"
    g = found[0]
    if src.column is None:
        cells = [c for row in g.cells for c in row if c is not None and c.text.strip()]
        return values(cells, f"cells of {g.describe()}")
    guess = detect_header_row(g)
    if guess.index is None:
        return f"no header row to find column {src.column!r} in: {describe_header(g, guess)}"
    match = match_columns(g, guess.index, [src.column], 80.0)[0]
    if not match["ok"]:
        labels = [t for t in g.row_texts(guess.index) if t]
        return f"no column like {src.column!r}; header row {g.row_numbers[guess.index]} is {labels}"
    j = match["index"]
    rows = list(range(guess.index + 1, len(g.cells)))
    left_out: list[str] = []
    if not src.include_hidden:
        shown = [i for i in rows if not g.is_hidden(i)]
        if len(shown) < len(rows):
            left_out.append(f"{len(rows) - len(shown)} hidden row(s)")
            rows = shown
    if not src.include_totals:
        totals = _totals_row(g, rows)
        if totals is not None:
            left_out.append(f"the totals row {g.row_numbers[totals]}")
            rows = [i for i in rows if i != totals]
    cells = [c for i in rows if (c := g.cells[i][j]) is not None and c.text.strip()]
    where = f"column {match['actual']!r} ({match['column']}) below {describe_header(g, guess)}"
    if left_out:
        where += " (left out: " + ", ".join(left_out) + ")"
    return values(cells, where)


# A totals row's label: what agents and Excel write (Excel's table totals row says "Total")
_TOTAL_LABELS = frozenset({"total", "totals", "grand total", "sum", "overall", "all"})
_AGGREGATES = ("SUM(", "SUBTOTAL(", "AVERAGE(", "AGGREGATE(", "COUNT(", "COUNTA(", "MAX(", "MIN(")


def _totals_row(g: Grid, rows: list[int]) -> int | None:
    """The last non-blank of grid rows ``rows`` when it totals the rows above: a label
    such as "Total" beside an aggregate formula (SUM, AVERAGE...), or in a document's
    table (which has no formulas) the label alone. "Exactly 4 regions"
    must not count its "Total" label, nor a column's values its sum. None when there is
    none."""
    filled = [i for i in rows if not g.is_blank(i)]
    if len(filled) < 2:
        return None
    last = g.cells[filled[-1]]
    labelled = any(
        c is not None and normalize_text(c.text, case_sensitive=False).rstrip(":") in _TOTAL_LABELS for c in last
    )
    aggregated = any(
        c is not None and any(f in str(c.attrs.get("formula", "")).upper() for f in _AGGREGATES) for c in last
    )
    # A document's table has no formulas: its last row labelled "Total" is the totals row.
    return filled[-1] if labelled and (aggregated or g.source.kind == "table") else None


def _sample(items: list[tuple[str, str, Node]], keys: set[str], limit: int = 20) -> list[dict[str, Any]]:
    return [{**node_ref(n), "value": shown} for shown, key, n in items if key in keys][:limit]


# -- values_unique ------------------------------------------------------------------------


class UniqueValuesParams(ValuesSource):
    pass


@register_check(
    "values_unique",
    mechanism="tree_query",
    params=UniqueValuesParams,
    example={"scope": "sheet[name='Contacts']", "column": "Email"},
)
def values_unique(doc: Document, p: UniqueValuesParams, resources: Resources) -> CheckResult:
    """No value repeats in a column, range or list (after normalisation; blanks skipped).

    The score is the share of values that are not repeats; the evidence lists every
    repeated value with the cells or nodes holding it.
    """
    found = values_of(doc, p)
    if isinstance(found, str):
        return query_result("values_unique", False, found, {})
    counts = Counter(key for _, key, _ in found.items)
    repeated = {k for k, c in counts.items() if c > 1}
    extra = sum(c - 1 for c in counts.values())
    n = len(found.items)
    dupes = [
        {"value": next(s for s, k2, _ in found.items if k2 == k), "count": counts[k], "nodes": [node_ref(nd)["id"] for _, k2, nd in found.items if k2 == k][:10]}
        for k in sorted(repeated, key=lambda k: -counts[k])
    ]
    ok = not repeated and n > 0
    explanation = f"{n} value(s) in {found.where}: " + (
        "all distinct" if ok else ("none found" if n == 0 else f"{len(repeated)} repeated, e.g. {dupes[0]['value']!r} x{dupes[0]['count']}")
    )
    return query_result(
        "values_unique", ok, explanation,
        {"values": n, "distinct": len(counts), "repeated": dupes[:50], "without_field": found.without_field},
        score=(1 - extra / n) if n else 0.0,
    )


# -- values_match ---------------------------------------------------------------------------


class SetParams(ValuesSource):
    expected: list[str] = Field(min_length=1, description="the values the author expects")
    mode: Literal["equal", "all_present", "only"] = Field(
        default="equal",
        description="equal: the same set (each expected value present, nothing else); all_present: "
        "every expected value present, others allowed; only: every value is one of expected",
    )


@register_check(
    "values_match",
    mechanism="tree_query",
    params=SetParams,
    example={"scope": "sheet", "column": "Status", "expected": ["Read", "To read"], "mode": "only"},
)
def values_match(doc: Document, p: SetParams, resources: Resources) -> CheckResult:
    """The values of a column, range or list, as a set, equal a list (or include all of it, or are drawn only from it).

    Order and repeats do not matter. The evidence lists the expected values missing and
    the values found that were not expected; the score is the share of expected values
    present (``equal``, ``all_present``) times the share of values found that were expected
    (``equal``, ``only``).
    """
    found = values_of(doc, p)
    if isinstance(found, str):
        return query_result("values_match", False, found, {})
    want = {value_key(e, case_sensitive=p.case_sensitive): e for e in p.expected}
    have = {key for _, key, _ in found.items}
    missing = [want[k] for k in want if k not in have]
    unexpected_keys = have - set(want)
    unexpected = _sample(found.items, unexpected_keys)
    need_all = p.mode in ("equal", "all_present")
    need_only = p.mode in ("equal", "only")
    ok = (not need_all or not missing) and (not need_only or not unexpected_keys) and bool(have)
    present_share = 1 - len(missing) / len(want) if need_all else 1.0
    only_share = 1 - len(unexpected_keys) / len(have) if need_only and have else 1.0
    parts = []
    if need_all and missing:
        parts.append(f"missing {missing[:10]}")
    if need_only and unexpected_keys:
        parts.append(f"not expected {sorted({u['value'] for u in unexpected})[:10]}")
    explanation = f"{len(have)} distinct value(s) in {found.where} vs {len(want)} expected ({p.mode}): " + ("; ".join(parts) or ("as expected" if ok else "no values"))
    return query_result(
        "values_match",
        ok,
        explanation,
        {"mode": p.mode, "missing": missing, "unexpected": unexpected, "distinct_found": len(have)},
        score=present_share * only_share if have else 0.0,
    )


# -- distinct_count -------------------------------------------------------------------------


class DistinctParams(ValuesSource):
    exactly: int | None = Field(default=None, ge=0, description="exactly this many distinct values")
    at_least: int | None = Field(default=None, ge=0, description="at least this many distinct values")
    at_most: int | None = Field(default=None, ge=0, description="at most this many distinct values")

    @model_validator(mode="after")
    def _bound(self) -> DistinctParams:
        if self.exactly is None and self.at_least is None and self.at_most is None:
            raise ValueError("distinct_count needs exactly, at_least or at_most")
        return self


@register_check(
    "distinct_count",
    mechanism="tree_query",
    params=DistinctParams,
    example={"scope": "sheet", "column": "Country", "at_least": 5},
)
def distinct_count(doc: Document, p: DistinctParams, resources: Resources) -> CheckResult:
    """The number of distinct values in a column, range or list is exactly / at least / at most N.

    Values are counted once however often they repeat (after normalisation; blanks
    skipped); the evidence lists them with their counts.
    """
    found = values_of(doc, p)
    if isinstance(found, str):
        return query_result("distinct_count", False, found, {})
    counts = Counter(key for _, key, _ in found.items)
    shown = {key: s for s, key, _ in reversed(found.items)}
    n = len(counts)
    ok, bounds = count_ok(n, p.exactly, p.at_least, p.at_most)
    return query_result(
        "distinct_count",
        ok,
        f"{n} distinct value(s) among {len(found.items)} in {found.where}; expected {bounds}",
        {"distinct": n, "values": [{"value": shown[k], "count": c} for k, c in counts.most_common(50)]},
    )
