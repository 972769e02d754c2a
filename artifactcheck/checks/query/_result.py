"""The one result shape of the tree-query checks (mechanism ``tree_query``), shared by
``selection``, ``outline``, ``structure`` and ``tables``: pass/fail from one
boolean, score 0/1 unless the check computes a fraction."""

from __future__ import annotations

from typing import Any

from ..result import CheckResult


def query_result(
    name: str, passed: bool, explanation: str, evidence: dict[str, Any], score: float | None = None
) -> CheckResult:
    """A tree-query CheckResult; ``score`` defaults to 1.0 on pass and 0.0 on fail."""
    return CheckResult(
        check=name,
        status="pass" if passed else "fail",
        mechanism="tree_query",
        score=score if score is not None else float(passed),
        explanation=explanation,
        evidence=evidence,
    )
