"""What the per-node text checks share (``text``, ``numbers_dates``, ``formulas``,
``links``): the pass/fail verdict over one row per target node, and the excerpt length
of compared text in the evidence."""

from __future__ import annotations

from typing import Any

from ..result import CheckResult
from ..target import cap_rows

EXCERPT = 120


def excerpt(text: str) -> str:
    return text if len(text) <= EXCERPT else text[: EXCERPT - 3] + "..."


def verdict(
    name: str,
    mechanism: Any,
    rows: list[dict[str, Any]],
    quantifier: str,
    what: str,
    **evidence: Any,
) -> CheckResult:
    """Pass/fail over per-node rows with an ``ok`` key; ``any``: one suffices (score 0/1),
    ``all``: every node (score = fraction)."""
    ok = sum(1 for r in rows if r["ok"])
    if quantifier == "all":
        passed, score = ok == len(rows), ok / len(rows)
    else:
        passed, score = ok > 0, float(ok > 0)
    explanation = f"{ok}/{len(rows)} target node(s) {what}"
    if not passed:
        bad = next(r for r in rows if not r["ok"])
        explanation += f"; e.g. {bad['id']}: {bad.get('compared', bad.get('text'))!r}"
    return CheckResult(
        check=name,
        status="pass" if passed else "fail",
        mechanism=mechanism,
        score=score,
        explanation=explanation,
        evidence={"nodes": cap_rows(rows), "nodes_total": len(rows), **evidence},
    )
