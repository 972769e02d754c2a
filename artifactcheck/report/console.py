"""The terminal view of a Report: one row per step (status, mechanism, score, a one-line
explanation) and the verdict, drawn with rich."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table
from rich.text import Text

from .model import Report

_STATUS_STYLE = {"pass": "green", "fail": "red", "error": "magenta", "skipped": "yellow"}
_VERDICT_STYLE = {"PASS": "bold green", "PARTIAL": "bold yellow", "FAIL": "bold red"}


def one_line(text: str, limit: int = 110) -> str:
    """The first line of ``text``, cut to ``limit`` characters with an ellipsis."""
    first = text.strip().splitlines()[0] if text.strip() else ""
    return first if len(first) <= limit else first[: limit - 1] + "…"


def report_table(report: Report) -> Table:
    table = Table(title=f"{report.task} — {report.artifact.path or report.artifact.sha256}", title_justify="left", expand=False)
    table.add_column("step", no_wrap=True)
    table.add_column("status", no_wrap=True)
    table.add_column("outcome", no_wrap=True)
    table.add_column("mechanism", no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("explanation", no_wrap=True, overflow="ellipsis")
    for step in report.steps:
        indent = "  " * len(step.path)
        name = f"{indent}{step.id}" + (" *" if step.critical else "")
        score = "—" if step.score is None else f"{step.score:.2f}"
        table.add_row(
            name,
            Text(step.status, style=_STATUS_STYLE.get(step.status, "")),
            step.outcome,
            step.mechanism,
            score,
            one_line(step.explanation),
        )
    return table


def verdict_line(report: Report) -> Text:
    c = report.counts
    text = Text()
    text.append(f"{report.verdict}", style=_VERDICT_STYLE[report.verdict])
    text.append(
        f"  score {report.score:.3f}  requirements {report.requirements_met}/{report.requirements_total}"
        f"  (failed {c.failed}, needs trace {c.needs_trace}, evaluator errors {c.error}, skipped {c.skipped})"
    )
    if report.artifact_error:
        text.append(f"\nartifact could not be loaded: {report.artifact_error}", style="red")
    return text


def print_report(report: Report, console: Console | None = None) -> None:
    console = console or Console()
    console.print(report_table(report))
    console.print(verdict_line(report))
