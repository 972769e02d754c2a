"""``cells_compare``: every cell of a range (or every target node) holds a number that
satisfies a comparison — ``>= 0``, ``< 100``, ``between [0, 1]`` — OSWorld's
``check_cell`` comparisons (``ge``, ``range``...) without a gold file.

The number of a cell is its stored value: a percentage cell holds its fraction (25% is
0.25), a date its serial. Text is not a number, even text that reads like one (a number
stored as text is what agents get wrong): such a cell fails, located, with a note. A
node that is not a sheet cell (a paragraph, a table cell in a document) is read from its
text (``$1,200`` is 1200). Blank cells of the range are skipped by default (``blanks:
fail`` makes them fail); a formula nobody could compute makes the verdict ``error``
unless the known cells already decide it (one failing cell under ``all``, one passing
cell under ``any``).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...model import Document, Node
from ..normalize import parse_number
from ..query.ranges import OPEN, CellRange, quote_sheet, range_container, resolve_range
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec, cap_rows, select_targets
from .cell_values import cell_value
from .workbook_cells import a1
from .workbook_pairs import cells_by_position, sheet_name, sheets_of

_STORED_AS_TEXT = "a number stored as text"

Op = Literal[">=", "<=", ">", "<", "==", "!="]
_OPS: dict[str, Callable[[float, float], bool]] = {
    ">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt, "==": operator.eq, "!=": operator.ne,
}


class CellsCompareParams(BaseModel):
    """Parameters of ``cells_compare``."""

    model_config = ConfigDict(extra="forbid")

    range: str | None = Field(
        default=None,
        description="the cells (D2:D9, Budget!D2:D9, a defined name or table); without a sheet, the first sheet "
        "with cells; open ranges (D:D) stop at the last used row and leave out the text above a column's first value (its header)",
    )
    target: TargetSpec | None = Field(default=None, description="or: the nodes to read numbers from")
    op: Op | None = Field(default=None, description="the comparison: >=, <=, >, <, == or !=")
    value: float | None = Field(default=None, description="the number the comparison is made with")
    between: tuple[float, float] | None = Field(
        default=None, description="or: [lo, hi], both ends included"
    )
    quantifier: Literal["all", "any"] = Field(
        default="all", description="all: every cell satisfies it (score = share that do); any: one suffices"
    )
    blanks: Literal["skip", "fail"] = Field(default="skip", description="blank cells of the range: skipped or failing")

    @model_validator(mode="after")
    def _complete(self) -> CellsCompareParams:
        if (self.range is None) == (self.target is None):
            raise ValueError("give range or target (one of them)")
        if self.between is not None:
            if self.op is not None or self.value is not None:
                raise ValueError("give between, or op and value, not both")
            if self.between[0] > self.between[1]:
                raise ValueError(f"between {list(self.between)}: lo is above hi")
        elif self.op is None or self.value is None:
            raise ValueError("give op and value (e.g. op: '>=', value: 0), or between: [lo, hi]")
        return self

    def describe(self) -> str:
        if self.between is not None:
            return f"between {self.between[0]:g} and {self.between[1]:g}"
        return f"{self.op} {self.value:g}"

    def holds(self, number: float) -> bool:
        if self.between is not None:
            return self.between[0] <= number <= self.between[1]
        assert self.op is not None and self.value is not None
        return _OPS[self.op](number, self.value)


def _range_cells(doc: Document, text: str, blanks: str) -> tuple[list[tuple[str, Node | None]], str, list[str]]:
    """(location, cell) of the range's cells, its A1 text, and the locations of the labels
    left out: in a whole-column range (C:C) the text above a column's first value is its
    header or title, not a value that fails the comparison."""
    target = resolve_range(doc, text)
    candidates = [s for s in sheets_of(doc) if cells_by_position(doc, s)]
    sheet = range_container(doc, target, candidates)
    cells = cells_by_position(doc, sheet)
    quoted = quote_sheet(sheet_name(sheet)) or sheet_name(sheet)
    where = f"{quoted}!{target.a1().split('!')[-1]}"
    labels = _column_labels(cells, target) if target.r0 == 1 and target.r1 >= OPEN else set()
    if blanks == "skip" or not cells:
        found = sorted(p for p in cells if target.contains(*p) and p not in labels)
    else:
        last_row, last_col = max(r for r, _ in cells), max(c for _, c in cells)
        r1 = min(target.r1, last_row if target.r1 >= OPEN else target.r1)
        c1 = min(target.c1, last_col if target.c1 >= OPEN else target.c1)
        found = [(r, c) for r in range(target.r0, r1 + 1) for c in range(target.c0, c1 + 1) if (r, c) not in labels]
    return [(f"{quoted}!{a1(p)}", cells.get(p)) for p in found], where, [f"{quoted}!{a1(p)}" for p in sorted(labels)]


def _column_labels(cells: dict[tuple[int, int], Node], target: CellRange) -> set[tuple[int, int]]:
    """Cells of each column of ``target`` holding text that does not read as a number,
    above the column's first cell that holds anything else (a number, a date, a number
    stored as text): its header and any title rows."""
    labels: set[tuple[int, int]] = set()
    by_column: dict[int, list[tuple[int, Node]]] = {}
    for (r, c), node in cells.items():
        if target.contains(r, c):
            by_column.setdefault(c, []).append((r, node))
    for c, column in by_column.items():
        above: list[tuple[int, int]] = []
        for r, node in sorted(column, key=lambda item: item[0]):
            kind, _number, _shown, note = _reading(node)
            if kind == "blank":
                continue
            if kind != "other" or note == _STORED_AS_TEXT or cell_value(node).kind != "text":
                labels.update(above)  # only a column with values below has a header
                break
            above.append((r, c))
    return labels


def _reading(node: Node | None) -> tuple[str, float | None, Any, str]:
    """(kind, number, shown value, note): kind is number, blank, unknown or other."""
    if node is None:
        return "blank", None, None, "empty cell"
    if node.kind == "cell" and ("value" in node.attrs or "data_type" in node.attrs):
        v = cell_value(node)
        if v.kind == "number":
            return "number", v.number, v.describe(), ""
        if v.kind == "blank":
            return "blank", None, None, "empty cell"
        if v.kind == "unknown":
            return "unknown", None, None, str(node.attrs.get("value_unknown_reason") or "value unknown")
        stored_as_text = v.kind == "text" and parse_number(v.typed) is not None
        note = _STORED_AS_TEXT if stored_as_text else f"not a number ({v.kind})"
        return "other", None, v.describe(), note
    if not node.text.strip():
        return "blank", None, None, "empty"
    parsed = parse_number(node.text)
    if parsed is None:
        return "other", None, node.text.strip()[:60], "not a number"
    return "number", parsed.value, node.text.strip()[:60], ""


@register_check(
    "cells_compare",
    mechanism="exact",
    params=CellsCompareParams,
    example={"range": "Budget!B2:B9", "op": ">=", "value": 0},
)
def cells_compare(doc: Document, p: CellsCompareParams, resources: Resources) -> CheckResult:
    """Every cell of a range (or any one, with quantifier any) holds a number satisfying >=, <=, >, <, ==, != or between [lo, hi].

    A cell holding text, a boolean or an error fails with its location; a cell whose
    formula nobody could compute makes the check ``error`` unless the other cells decide.

    >>> from artifactcheck import run_check
    >>> from artifactcheck.checks.examples import tiny_doc
    >>> run_check("cells_compare", tiny_doc(), {"target": "table row:nth-child(2) cell:nth-child(2)",
    ...                                         "op": ">", "value": 90}).status
    'pass'
    """
    labels: list[str] = []
    if p.range is not None:
        nodes, where, labels = _range_cells(doc, p.range, p.blanks)
    else:
        assert p.target is not None
        nodes = [(n.id, n) for n in select_targets(doc, p.target)]
        where = p.target.describe()
    rows: list[dict[str, Any]] = []
    unknown: list[str] = []
    for location, node in nodes:
        kind, number, shown, note = _reading(node)
        if kind == "blank" and p.blanks == "skip":
            continue
        if kind == "unknown":
            unknown.append(location)
            continue
        ok = kind == "number" and number is not None and p.holds(number)
        row: dict[str, Any] = {"location": location, "value": shown, "ok": ok}
        if note:
            row["note"] = note
        rows.append(row)
    good = sum(1 for r in rows if r["ok"])
    bad = [r for r in rows if not r["ok"]]
    condition = p.describe()
    evidence: dict[str, Any] = {"where": where, "condition": condition, "cells": cap_rows(rows), "cells_total": len(rows),
                                "failing": bad[:20], "failing_total": len(bad)}
    if unknown:
        evidence["unknown_values"] = unknown[:20]
    if labels:
        evidence["labels_left_out"] = labels[:20]
    if not rows and not unknown:
        return CheckResult(check="cells_compare", status="fail", mechanism="exact", score=0.0,
                           explanation=f"no numbers to compare in {where}", evidence=evidence)
    if p.quantifier == "all":
        decided = bool(bad) or not unknown
        passed = not bad
        score = good / len(rows) if rows else 0.0
    else:
        decided = good > 0 or not unknown
        passed = good > 0
        score = float(passed)
    if not decided:
        return CheckResult(
            check="cells_compare", status="error", mechanism="exact", score=None, evidence=evidence,
            explanation=f"cannot judge: {len(unknown)} cell(s) of {where} hold formulas whose value could not be "
            f"computed (e.g. {unknown[0]}); the known cells do not decide '{condition}'",
        )
    if passed:
        explanation = (f"{good}/{len(rows)} cell(s) of {where} are {condition}" if p.quantifier == "all"
                       else f"{good} of {len(rows)} cell(s) of {where} are {condition} (one suffices)")
    else:
        first = "; ".join(f"{r['location']} = {r['value']!r}" + (f" ({r['note']})" if r.get("note") else "") for r in bad[:3])
        explanation = f"{len(bad)} of {len(rows)} cell(s) of {where} are not {condition}: {first}" + (
            f" (+{len(bad) - 3} more)" if len(bad) > 3 else "")
    if labels:
        explanation += f"; label(s) above the values left out: {', '.join(labels[:3])}" + ("..." if len(labels) > 3 else "")
    return CheckResult(check="cells_compare", status="pass" if passed else "fail", mechanism="exact",
                       score=score, explanation=explanation, evidence=evidence)
