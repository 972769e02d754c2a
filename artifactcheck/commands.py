"""What ``artifactcheck score`` and ``artifactcheck batch`` do; cli.py only declares the
options. Exit codes (design/reports.md): 0 PASS, 1 PARTIAL or FAIL, 2 when no trustworthy
score exists (bad rubric, missing artifact, or an evaluator error inside the run)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console

if TYPE_CHECKING:
    from .report.model import Report

EXIT_PASS = 0
EXIT_NOT_PASS = 1
EXIT_ERROR = 2


def score_command(
    artifact: str | Path,
    rubric: Path,
    *,
    trace: Path | None = None,
    assets: Path | None = None,
    json_out: Path | None = None,
    html_out: Path | None = None,
    params: dict[str, Any] | None = None,
    console: Console | None = None,
    rubric_root: Path | None = None,
) -> int:
    """Score one artifact, print the table, write the requested files; the exit code."""
    from .rubric.scoring import score

    report = score(artifact, rubric, trace=trace, assets=assets, params=params, rubric_root=rubric_root)
    if html_out is not None:
        from .report.html import write_report_html
        from .rubric.scoring import is_google_ref

        write_report_html(report, html_out, artifact=None if is_google_ref(artifact) else artifact)
    return emit_report(report, json_out=json_out, html_out=html_out, console=console)


def emit_report(
    report: Report,
    *,
    json_out: Path | None = None,
    html_out: Path | None = None,
    html_text: str | None = None,
    console: Console | None = None,
) -> int:
    """Print the table, write the JSON (and ``html_text`` when given; an HTML report
    already written by the caller is only announced); the exit code."""
    from .report.console import print_report
    from .report.json_writer import write_report_json, write_text_atomic

    console = console or Console()
    print_report(report, console)
    notes = Console(stderr=True)
    if json_out is not None:
        write_report_json(report, json_out)
        notes.print(f"wrote {json_out}", markup=False, highlight=False)
    if html_out is not None:
        if html_text is not None:
            write_text_atomic(Path(html_out), html_text)
        notes.print(f"wrote {html_out}", markup=False, highlight=False)
    if report.evaluator_errors:
        return EXIT_ERROR
    return EXIT_PASS if report.verdict == "PASS" else EXIT_NOT_PASS


def parse_params(pairs: list[str]) -> dict[str, Any]:
    """``name=value`` pairs from the command line; values are read as YAML scalars (so
    ``count=3`` is a number)."""
    from .errors import RubricError
    from .rubric.yaml_lines import load_value

    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise RubricError(f"--param wants name=value, got {pair!r}")
        out[name.strip()] = load_value(value, what=f"--param {name.strip()}") if value else ""
    return out
