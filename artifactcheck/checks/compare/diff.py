"""Differences between an artifact and its reference, and the one CheckResult shape
every comparison check returns.

A comparison walks the aspects it was asked for and records, per aspect, how many items
it compared and which differ. The verdict is ``pass`` when nothing differs. The score is
0/1 by default — a gold-file comparison is usually all-or-nothing, as in the evaluators
authors port (OSWorld's ``compare_table`` returns 0 or 1) — or, with ``partial_credit``,
the share of compared items that agree, so a rubric can give credit for a mostly right
file. Evidence holds the first ``max_shown`` differences and the count of the rest, so a
10k-cell diff stays readable and the report stays small.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field

from ..result import CheckResult, Mechanism


class CompareParams(BaseModel):
    """Parameters every comparison check takes; each check adds its aspects."""

    model_config = ConfigDict(extra="forbid")

    reference: str = Field(
        description="the gold file: a path relative to the assets folder (or absolute, inside the rubric's folders); "
        "any format load() reads"
    )
    max_shown: int = Field(default=20, ge=0, le=1000, description="differences listed in the evidence; the rest are counted")
    partial_credit: bool = Field(
        default=False,
        description="score = share of compared items that agree (default: 1 when nothing differs, else 0)",
    )


class ComparisonOptions(Protocol):
    """What :func:`comparison_result` reads from a check's parameters: CompareParams, or
    the parameters of a comparison against values written in the rubric (no reference
    file) that declare the same two fields."""

    @property
    def max_shown(self) -> int: ...

    @property
    def partial_credit(self) -> bool: ...


@dataclass(frozen=True)
class Difference:
    """One disagreement: ``aspect`` (``values``, ``fill``, ``text``...), ``location`` in
    words a person can find (``Sheet1!B3``, ``slide 2 shape 'Title 1'``), and the
    reference's value beside the artifact's (None where one side has no such item)."""

    aspect: str
    location: str
    expected: Any
    actual: Any
    note: str = ""

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "aspect": self.aspect,
            "location": self.location,
            "expected": _jsonable(self.expected),
            "actual": _jsonable(self.actual),
        }
        if self.note:
            out["note"] = self.note
        return out

    def describe(self) -> str:
        text = f"{self.aspect} at {self.location}: expected {_short(self.expected)}, got {_short(self.actual)}"
        return f"{text} ({self.note})" if self.note else text


@dataclass
class Comparison:
    """What a comparison found: items compared per aspect, and the differences."""

    compared: Counter[str] = field(default_factory=Counter)
    differences: list[Difference] = field(default_factory=list)

    def check(
        self, aspect: str, location: str, expected: Any, actual: Any, *, equal: bool | None = None, note: str = ""
    ) -> bool:
        """Compare one item; ``equal`` overrides ``expected == actual`` (tolerances,
        normalisation). Returns whether they agree."""
        self.compared[aspect] += 1
        same = (expected == actual) if equal is None else equal
        if not same:
            self.differences.append(Difference(aspect, location, expected, actual, note))
        return same

    def agree(self, aspect: str, count: int = 1) -> None:
        """``count`` items of ``aspect`` compared and found equal (no location is built:
        the fast path of a 10k-cell comparison where nearly everything agrees)."""
        self.compared[aspect] += count

    def missing(self, aspect: str, location: str, expected: Any, *, note: str = "missing in the artifact") -> None:
        """An item the reference has and the artifact lacks."""
        self.check(aspect, location, expected, None, equal=False, note=note)

    def extra(self, aspect: str, location: str, actual: Any, *, note: str = "not in the reference") -> None:
        """An item the artifact has and the reference lacks."""
        self.check(aspect, location, None, actual, equal=False, note=note)

    def differences_in(self, aspect: str) -> int:
        """How many differences of ``aspect`` were recorded so far."""
        return sum(1 for d in self.differences if d.aspect == aspect)

    @property
    def total(self) -> int:
        return sum(self.compared.values())


def comparison_result(
    check: str,
    comparison: Comparison,
    params: ComparisonOptions,
    *,
    mechanism: Mechanism,
    reference_label: str,
    evidence: dict[str, Any] | None = None,
    score_floor: float | None = None,
) -> CheckResult:
    """The CheckResult of a comparison: pass when nothing differs; evidence per aspect
    (compared / different), the first ``max_shown`` differences and the count of the rest.
    ``score_floor`` (in [0, 1), with ``partial_credit``) rescales the share of agreeing
    items: at or below the floor 0, above it ``(share - floor) / (1 - floor)``."""
    diffs = comparison.differences
    by_aspect: Counter[str] = Counter(d.aspect for d in diffs)
    aspects = {
        aspect: {"compared": n, "different": by_aspect.get(aspect, 0)} for aspect, n in sorted(comparison.compared.items())
    }
    shown = diffs[: params.max_shown]
    ev: dict[str, Any] = {
        "reference": reference_label,
        "aspects": aspects,
        "compared": comparison.total,
        "different": len(diffs),
        "differences": [d.as_dict() for d in shown],
        "more_differences": len(diffs) - len(shown),
        **(evidence or {}),
    }
    passed = not diffs
    if params.partial_credit and comparison.total:
        score = (comparison.total - len(diffs)) / comparison.total
        score = min(1.0, max(0.0, score))
        if score_floor is not None:
            ev["share_agreeing"] = score
            score = max(0.0, (score - score_floor) / (1 - score_floor))
    else:
        score = float(passed)
    if comparison.total == 0:
        explanation = f"nothing to compare with {reference_label} in the aspects asked for"
    elif passed:
        names = ", ".join(f"{a} ({n})" for a, n in sorted(comparison.compared.items()))
        explanation = f"matches {reference_label}: {comparison.total} items compared, none differ — {names}"
    else:
        first = "; ".join(d.describe() for d in diffs[:3])
        rest = f" (+{len(diffs) - 3} more)" if len(diffs) > 3 else ""
        where = ", ".join(f"{a} {n}" for a, n in sorted(by_aspect.items()))
        explanation = (
            f"{len(diffs)} of {comparison.total} compared items differ from {reference_label} ({where}): {first}{rest}"
        )
    return CheckResult(
        check=check,
        status="pass" if passed else "fail",
        mechanism=mechanism,
        score=score,
        explanation=explanation,
        evidence=ev,
    )


def _jsonable(value: Any) -> Any:
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else str(value)
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return str(value)


def _short(value: Any, limit: int = 60) -> str:
    text = "nothing" if value is None else repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
