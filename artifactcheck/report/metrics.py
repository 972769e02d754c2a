"""Batch metrics over many reports: the tables a benchmark paper prints (the shape of
KNOWS's Tables 7 and 8): success rate, mean score, pass@k, pass rates by mechanism, step
type and artifact type, and failure attribution by outcome.

Definitions (design/reports.md):

- success rate: share of runs with ``success`` (score 1); mean score: mean of run scores
  (partial completion).
- pass@k: the unbiased estimator of Chen et al. (2021), per task with n runs of which c
  succeeded, ``1 - C(n-c, k) / C(n, k)``, averaged over the tasks that have at least k runs.
- step pass rate: passed / decided steps (undecided steps are not in the denominator; they
  are counted in their own columns).
- attribution: every step that did not pass is attributed to exactly one outcome:
  decided (the artifact failed it), needs_trace, error (the evaluator broke), skipped.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from .model import Report

Table = list[dict[str, Any]]


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one task: n runs, c successes, k samples (k <= n).

    >>> pass_at_k(5, 0, 1), pass_at_k(5, 5, 3), round(pass_at_k(4, 1, 2), 4)
    (0.0, 1.0, 0.5)
    """
    if not 0 < k <= n or not 0 <= c <= n:
        raise ValueError(f"pass@k needs 0 < k <= n and 0 <= c <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    product = 1.0
    for i in range(n - c + 1, n + 1):
        product *= 1.0 - k / i
    return 1.0 - product


def _rate(numerator: int, denominator: int) -> float | None:
    return round(numerator / denominator, 6) if denominator else None


def overall_table(reports: Sequence[Report], task_of: Sequence[str]) -> Table:
    """One row: runs, tasks, success rate, mean score, evaluator-error runs."""
    n = len(reports)
    return [
        {
            "runs": n,
            "tasks": len(set(task_of)),
            "success_rate": _rate(sum(r.success for r in reports), n),
            "mean_score": round(sum(r.score for r in reports) / n, 6) if n else None,
            "partial_runs": sum(r.verdict == "PARTIAL" for r in reports),
            "failed_runs": sum(r.verdict == "FAIL" for r in reports),
            "runs_with_evaluator_errors": sum(r.evaluator_errors > 0 for r in reports),
            "incomplete_runs": sum(not r.complete for r in reports),
        }
    ]


def pass_at_k_table(reports: Sequence[Report], task_of: Sequence[str]) -> Table:
    """pass@k for k = 1 .. the largest number of runs of any task."""
    runs: dict[str, list[bool]] = defaultdict(list)
    for report, task in zip(reports, task_of, strict=True):
        runs[task].append(report.success)
    if not runs:
        return []
    rows = []
    for k in range(1, max(len(v) for v in runs.values()) + 1):
        eligible = [(len(v), sum(v)) for v in runs.values() if len(v) >= k]
        rows.append(
            {
                "k": k,
                "tasks": len(eligible),
                "pass_at_k": round(sum(pass_at_k(n, c, k) for n, c in eligible) / len(eligible), 6),
            }
        )
    return rows


def _step_rows(reports: Iterable[Report], key: str) -> Table:
    stats: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for report in reports:
        for step in report.steps:
            name = str(getattr(step, key) or "unknown")
            row = stats[name]
            row["steps"] += 1
            row[step.outcome] += 1
            if step.outcome == "decided":
                row["passed" if step.status == "pass" else "failed"] += 1
    table = []
    for name in sorted(stats):
        s = stats[name]
        table.append(
            {
                key: name,
                "steps": s["steps"],
                "decided": s["decided"],
                "passed": s["passed"],
                "failed": s["failed"],
                "needs_trace": s["needs_trace"],
                "error": s["error"],
                "skipped": s["skipped"],
                "pass_rate": _rate(s["passed"], s["decided"]),
            }
        )
    return table


def by_mechanism_table(reports: Sequence[Report]) -> Table:
    return _step_rows(reports, "mechanism")


def by_step_type_table(reports: Sequence[Report]) -> Table:
    return _step_rows(reports, "step_type")


def by_format_table(reports: Sequence[Report]) -> Table:
    """Runs, success rate and mean score per artifact format (docx, xlsx, pptx, ...)."""
    groups: dict[str, list[Report]] = defaultdict(list)
    for report in reports:
        groups[report.artifact.format or "unknown"].append(report)
    return [
        {
            "format": name,
            "runs": len(group),
            "success_rate": _rate(sum(r.success for r in group), len(group)),
            "mean_score": round(sum(r.score for r in group) / len(group), 6),
        }
        for name, group in sorted(groups.items())
    ]


def attribution_table(reports: Sequence[Report]) -> Table:
    """Steps that did not pass, and runs that did not succeed, by cause. A run's cause is
    ``decided`` when some step failed on the artifact, else the first undecided outcome
    among error, needs_trace, skipped."""
    step_counts: dict[str, int] = defaultdict(int)
    run_counts: dict[str, int] = defaultdict(int)
    for report in reports:
        for step in report.steps:
            if step.status != "pass":
                step_counts[step.outcome] += 1
        if not report.success:
            outcomes = {s.outcome for s in report.steps if s.status != "pass"}
            cause = next((o for o in ("decided", "error", "needs_trace", "skipped") if o in outcomes), "decided")
            run_counts[cause] += 1
    steps_total = sum(step_counts.values())
    runs_total = sum(run_counts.values())
    return [
        {
            "cause": cause,
            "steps": step_counts[cause],
            "step_share": _rate(step_counts[cause], steps_total),
            "runs": run_counts[cause],
            "run_share": _rate(run_counts[cause], runs_total),
        }
        for cause in ("decided", "needs_trace", "error", "skipped")
    ]


def summary_tables(reports: Sequence[Report], task_of: Sequence[str]) -> dict[str, Table]:
    """Every table, keyed by its file stem."""
    return {
        "overall": overall_table(reports, task_of),
        "pass_at_k": pass_at_k_table(reports, task_of),
        "by_mechanism": by_mechanism_table(reports),
        "by_step_type": by_step_type_table(reports),
        "by_format": by_format_table(reports),
        "attribution": attribution_table(reports),
    }


def markdown_table(rows: Table) -> str:
    """A GitHub-flavoured markdown table (None shows as an em dash)."""
    if not rows:
        return "_no rows_\n"
    headers = list(rows[0])
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    for row in rows:
        cells = []
        for h in headers:
            v = row[h]
            cells.append("—" if v is None else f"{v:.3f}" if isinstance(v, float) else str(v))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
