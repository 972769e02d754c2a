"""The terminal view of a Report: one row per step (status, mechanism, score, the
explanation) and the verdict, drawn with rich.

Everything that comes from a rubric or an artifact (task and step ids, explanations,
paths, error text) is passed to rich as :class:`~rich.text.Text`, never as a markup
string: ``footer run[field='PAGE']`` must print as written, not lose its brackets to
rich's markup parser. In a terminal each explanation is cut to one line to keep the
table scannable; when stdout is not a terminal (CI logs, files) nothing is cut: the
explanation column wraps.
"""

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


def report_table(report: Report, width: int = 120, *, wrap: bool = False) -> Table:
    """The steps table for a console ``width`` characters wide: every column keeps its
    natural width and the explanation gets the rest, cut to one line, or (``wrap``) the
    whole explanation wrapped over as many lines as it needs."""
    step_width = max([len("step")] + [2 * len(s.path) + len(s.id) + 2 for s in report.steps])
    others = step_width + max(len(s.status) for s in report.steps) + 11 + 14 + 5 if report.steps else 40
    room = max(16, width - others - 19)
    table = Table(title=Text(f"task {report.task}"), title_justify="left", expand=False)
    table.add_column("step", no_wrap=True, min_width=4)
    table.add_column("status", no_wrap=True, min_width=7)
    table.add_column("outcome", no_wrap=True, min_width=7)
    table.add_column("mechanism", no_wrap=True, min_width=9)
    table.add_column("score", justify="right", no_wrap=True, min_width=5)
    if wrap:
        table.add_column("explanation", overflow="fold", min_width=16)
    else:
        table.add_column("explanation", no_wrap=True, overflow="ellipsis", max_width=room)
    for step in report.steps:
        indent = "  " * len(step.path)
        name = f"{indent}{step.id}" + (" *" if step.critical else "")
        score = "—" if step.score is None else f"{step.score:.2f}"
        explanation = step.explanation.strip() if wrap else one_line(step.explanation, room)
        table.add_row(
            Text(name),
            Text(step.status, style=_STATUS_STYLE.get(step.status, "")),
            Text(step.outcome),
            Text(step.mechanism),
            Text(score),
            Text(explanation),
        )
    return table


def verdict_line(report: Report) -> Text:
    c = report.counts
    text = Text(no_wrap=False)
    text.append(f"{report.verdict}", style=_VERDICT_STYLE[report.verdict])
    text.append(
        f"  score {report.score:.3f}  requirements {report.requirements_met}/{report.requirements_total}"
        f"\n  failed {c.failed} · needs trace {c.needs_trace} · evaluator errors {c.error} · skipped {c.skipped}"
        f"\n  artifact {report.artifact.path or report.artifact.sha256}"
    )
    if report.artifact_error:
        text.append(f"\nartifact could not be loaded: {report.artifact_error}", style="red")
    return text


def print_report(report: Report, console: Console | None = None) -> None:
    """Print the table and the verdict; explanations wrap in full unless ``console`` is
    an interactive terminal."""
    console = console or Console()
    console.print(report_table(report, console.width, wrap=not console.is_terminal))
    console.print(verdict_line(report))
