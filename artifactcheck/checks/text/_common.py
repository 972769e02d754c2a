"""What the per-node text checks share (``text``, ``numbers_dates``, ``formulas``,
``links``): the pass/fail verdict over one row per target node, the excerpt length of
compared text in the evidence, and the rule that a value nobody could compute makes a
value check ``error``, never ``fail``."""

from __future__ import annotations

from typing import Any

from ...model import Node
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


def unknown_values(nodes: list[Node], *, limit: int = 20) -> list[Node]:
    """Spreadsheet cells among ``nodes`` and their descendants whose value could not be
    computed (``value_unknown``: a formula the file never calculated that no
    recalculation could value)."""
    out: list[Node] = []
    for node in nodes:
        for n in (node, *node.descendants("cell")) if node.kind != "cell" else (node,):
            if n.attrs.get("value_unknown") and n not in out:
                out.append(n)
                if len(out) >= limit:
                    return out
    return out


def guard_unknown_values(
    result: CheckResult, nodes: list[Node], *, also_on_pass: bool = False, on_shown_text: bool = True
) -> CheckResult:
    """``error`` instead of ``fail`` (and instead of ``pass`` when ``also_on_pass``: a
    check that passes because something is absent) when the checked nodes hold values
    that could not be computed: the verdict would rest on a value nobody knows. A check
    judged ``on_shown_text`` also cannot judge a targeted cell whose number format we
    cannot render (:func:`_guard_unrendered_formats`); number and date checks read the
    stored value and pass False."""
    if result.status not in ("fail", "pass"):
        return result
    unknown = unknown_values(nodes) if result.status == "fail" or also_on_pass else []
    if not unknown:
        return _guard_unrendered_formats(result, nodes) if on_shown_text else result
    reasons = sorted({str(n.attrs.get("value_unknown_reason", "")) for n in unknown})
    return result.model_copy(update={
        "status": "error",
        "score": None,
        "explanation": (
            f"cannot judge: {len(unknown)} cell(s) hold formulas whose value could not be computed "
            f"(e.g. {unknown[0].id}: {reasons[0]}); the check would have said {result.status!r}"
        ),
        "error": {"type": "ValueUnknown", "cells": [n.id for n in unknown], "reasons": reasons},
    })


def _guard_unrendered_formats(result: CheckResult, nodes: list[Node]) -> CheckResult:
    """``error`` instead of a verdict when a targeted cell's number format could not be
    applied (``number_format_supported: false``, e.g. a fraction ``# ?/?``): its text is our
    fallback, not what Excel shows (1.75 where the sheet shows 1 3/4), so neither a pass
    nor a fail rests on what a reader sees. Only cells named as targets count: a
    sheet-wide search is not spoiled by one such cell."""
    odd = [n for n in nodes if n.kind == "cell" and n.attrs.get("number_format_supported") is False]
    if not odd:
        return result
    fmt = odd[0].attrs.get("number_format")
    return result.model_copy(update={
        "status": "error",
        "score": None,
        "explanation": (
            f"cannot judge: {len(odd)} cell(s) use a number format we cannot render "
            f"(e.g. {odd[0].id}: {fmt!r}, shown here as {odd[0].text!r}); the check would have said {result.status!r}"
        ),
        "error": {"type": "NumberFormatUnsupported", "cells": [n.id for n in odd[:20]]},
    })
