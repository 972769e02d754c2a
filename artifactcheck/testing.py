"""Helpers for users' own regression tests (pytest or plain asserts).

>>> from artifactcheck.testing import assert_scores                  # doctest: +SKIP
>>> assert_scores("out/letter.docx", "rubrics/letter.yaml",          # doctest: +SKIP
...               {"verdict": "PASS", "logo": "pass", "signature": 1.0})

Expected reports are compared through :func:`report_summary` — scores, verdicts and
per-step outcomes, never timings or free-text explanations — so they stay stable while
wording improves. Regenerate expected files with ``ARTIFACTCHECK_REGEN_GOLDEN=1`` and
review the diff.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .model import Document
from .report.model import Report
from .rubric.model import Rubric

REGEN_ENV = "ARTIFACTCHECK_REGEN_GOLDEN"
_REPORT_KEYS = ("score", "verdict", "success", "requirements_met", "requirements_total", "complete", "evaluator_errors")
_STATUSES = ("pass", "fail", "error", "skipped")
_OUTCOMES = ("decided", "needs_trace", "error", "skipped")


def report_summary(report: Report, *, digits: int = 4) -> dict[str, Any]:
    """The stable part of a report: task, score (rounded), verdict, counts and, per step,
    status, outcome and score."""
    return {
        "task": report.task,
        "score": round(report.score, digits),
        "success": report.success,
        "verdict": report.verdict,
        "requirements_met": report.requirements_met,
        "requirements_total": report.requirements_total,
        "complete": report.complete,
        "counts": report.counts.model_dump(),
        "steps": {
            s.id: {
                "status": s.status,
                "outcome": s.outcome,
                "score": None if s.score is None else round(s.score, digits),
            }
            for s in report.steps
        },
    }


def assert_scores(
    artifact: str | Path | Document | Report,
    rubric: str | Path | Rubric | None = None,
    expected: float | str | Mapping[str, Any] | None = None,
    *,
    tolerance: float = 1e-6,
    **score_options: Any,
) -> Report:
    """Score ``artifact`` against ``rubric`` (or check a Report already made) and assert
    ``expected``: a number (the total score), a verdict (``"PASS"``), or a mapping whose
    keys are report fields (``score``, ``verdict``, ``success``, ``requirements_met``, ...)
    or step ids, a step's value being a status (``"pass"``), an outcome (``"needs_trace"``)
    or a score. Every mismatch is listed, with the step's explanation. Returns the report.
    """
    if isinstance(artifact, Report):
        report = artifact
    else:
        if rubric is None:
            raise TypeError("assert_scores needs a rubric unless given a Report")
        from .rubric.scoring import score

        report = score(artifact, rubric, **score_options)
    if expected is None:
        return report
    wanted: Mapping[str, Any]
    if isinstance(expected, (int, float)) and not isinstance(expected, bool):
        wanted = {"score": float(expected)}
    elif isinstance(expected, str):
        wanted = {"verdict": expected}
    elif isinstance(expected, Mapping):
        wanted = expected
    else:
        raise TypeError(f"expected must be a number, a verdict or a mapping, got {expected!r}")
    problems: list[str] = []
    steps = {s.id: s for s in report.steps}
    for key, value in wanted.items():
        if key in _REPORT_KEYS:
            actual = getattr(report, key)
            if not _same(actual, value, tolerance):
                problems.append(f"{key}: expected {value!r}, got {actual!r}")
            continue
        step = steps.get(key)
        if step is None:
            problems.append(f"{key}: no such step (steps: {', '.join(steps)})")
            continue
        if isinstance(value, str):
            actual_text = step.status if value in _STATUSES else step.outcome if value in _OUTCOMES else None
            if actual_text is None:
                problems.append(f"{key}: expected value {value!r} is neither a status nor an outcome")
            elif actual_text != value:
                problems.append(f"{key}: expected {value}, got {step.status}/{step.outcome} — {step.explanation}")
        elif not _same(step.score, value, tolerance):
            problems.append(f"{key}: expected score {value!r}, got {step.score!r} ({step.status}) — {step.explanation}")
    if problems:
        raise AssertionError(
            f"{report.task} ({report.artifact.path}): {report.verdict} {report.score:.4f}\n  " + "\n  ".join(problems)
        )
    return report


def assert_matches_expected(report: Report, path: str | Path, *, digits: int = 4) -> None:
    """Compare :func:`report_summary` with the JSON file at ``path``; with
    ``ARTIFACTCHECK_REGEN_GOLDEN=1`` write the file instead (then review the diff)."""
    target = Path(path)
    actual = report_summary(report, digits=digits)
    if os.environ.get(REGEN_ENV) == "1":
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(actual, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    if not target.is_file():
        raise AssertionError(f"no expected report {target}; run with {REGEN_ENV}=1 and review it")
    expected = json.loads(target.read_text(encoding="utf-8"))
    if actual != expected:
        lines = []
        for key in sorted(set(actual) | set(expected)):
            if key == "steps":
                continue
            if actual.get(key) != expected.get(key):
                lines.append(f"{key}: expected {expected.get(key)!r}, got {actual.get(key)!r}")
        a_steps, e_steps = actual.get("steps", {}), expected.get("steps", {})
        for step_id in list(dict.fromkeys([*e_steps, *a_steps])):
            if a_steps.get(step_id) != e_steps.get(step_id):
                explanation = next((s.explanation for s in report.steps if s.id == step_id), "")
                lines.append(f"step {step_id}: expected {e_steps.get(step_id)}, got {a_steps.get(step_id)} — {explanation}")
        raise AssertionError(f"{report.task}: report differs from {target}\n  " + "\n  ".join(lines))


def _same(actual: Any, expected: Any, tolerance: float) -> bool:
    if isinstance(expected, float) or (isinstance(expected, int) and not isinstance(expected, bool) and isinstance(actual, float)):
        return actual is not None and abs(float(actual) - float(expected)) <= tolerance
    return bool(actual == expected)
