"""``artifactcheck batch``: score many (artifact, rubric, trace) rows in local worker
processes (``local_engine.py``) or on a Dask cluster (``dask_engine.py``, ``--scheduler``),
with a progress bar, resumable, then write the summary tables.

Manifest: CSV with a header row, or JSONL, with columns ``artifact`` and ``rubric``
(required), ``trace``, ``task``, ``run``, ``assets`` (optional; reference images, default
the ``assets/`` folder next to the rubric). Relative paths are relative to the
manifest's folder. ``task`` defaults to the rubric's task; ``run`` defaults to the row's
position among the rows of its task (0, 1, ...). (task, run) must be unique, and so must
the report file each pair is written to: names are made file-safe (``deck a`` and
``deck/a`` both become ``deck_a``; case is ignored, as on macOS and Windows disks), and
two rows that would share a report file are refused, naming both lines.

Output folder::

    reports/<task>/run-<run>.json   one report per row (written atomically)
    reports/<task>/run-<run>.html   with --html
    runs.csv                        one line per row: task, run, score, verdict, counts
    summary.md / summary.json       every table
    overall.csv pass_at_k.csv by_mechanism.csv by_step_type.csv by_format.csv attribution.csv

Resuming: a row whose report exists, parses, and matches the current artifact bytes and
expanded rubric (sha256) is not scored again. Reports are written by the coordinating
process, by rename, so an interrupted run never leaves a half report behind, whichever
engine scored the row (design/batch.md).
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ..report.json_writer import read_report, write_text_atomic
from ..report.metrics import markdown_table, summary_tables
from ..report.model import Report
from .local_engine import run_local
from .manifest import BatchRow, read_manifest
from .progress import BatchProgress
from .row_scoring import RowOutcome, evaluate_row, is_complete, write_row

CACHE_ENV = "ARTIFACTCHECK_CACHE_DIR"


def run_batch(
    manifest: str | Path,
    out: str | Path,
    *,
    jobs: int = 2,
    html: bool = False,
    force: bool = False,
    progress: bool = True,
    renderer: str | None = None,
    rubric_root: str | Path | None = None,
    scheduler: str | None = None,
    ship_artifacts: bool = False,
    cache_dir: str | Path | None = None,
) -> list[RowOutcome]:
    """Score every row not already complete, then write the tables.

    Local engine (``scheduler`` None): ``jobs`` worker processes. ``renderer``: ``auto``
    (default: a warm LibreOffice pool while rows need rendering), ``warm`` or ``cold``
    (batch/rendering.py). Dask engine: ``scheduler`` is ``tcp://HOST:PORT`` (a running
    ``dask scheduler``) or ``local:N`` (a LocalCluster of N worker processes started for
    the batch); each worker keeps its own warm renderer; ``ship_artifacts`` sends each
    row's files to the worker as bytes (no shared file system needed). ``cache_dir``:
    the render cache for this batch, the coordinator's and every worker's (a folder on
    shared storage shares renders between machines)."""
    from .rendering import batch_renderer

    rows = read_manifest(manifest, rubric_root=rubric_root)
    out_dir = Path(out)
    with contextlib.ExitStack() as stack:
        stack.enter_context(_cache_dir(cache_dir))
        session = None
        if scheduler is not None:  # connect first: an unreachable scheduler fails before any work
            from .dask_engine import DaskSettings, dask_session

            settings = DaskSettings(scheduler=scheduler, html=html, ship_artifacts=ship_artifacts, renderer=renderer,
                                    cache_dir=str(cache_dir) if cache_dir is not None else None)
            session = stack.enter_context(dask_session(settings))
        out_dir.mkdir(parents=True, exist_ok=True)
        outcomes: dict[BatchRow, RowOutcome] = {}
        todo = []
        for row in rows:
            if not force and is_complete(row, out_dir):
                outcomes[row] = RowOutcome(row, "resumed")
            else:
                todo.append(row)

        with BatchProgress(len(rows), len(outcomes), enabled=progress) as bar:
            def done(outcome: RowOutcome) -> None:
                if outcome.row in outcomes and outcomes[outcome.row].state != "resumed":
                    raise RuntimeError(f"row {outcome.row.line} finished twice")  # an engine bug, never data
                outcomes[outcome.row] = outcome
                bar.done(outcome)

            if session is not None:
                session.run(todo, out_dir, done=done, retried=bar.retried)
            else:
                with batch_renderer(renderer, [row.artifact for row in todo], jobs=jobs) as worker_env:
                    run_local(todo, out_dir, jobs=jobs, html=html, worker_env=worker_env, done=done)
    ordered = [outcomes[row] for row in rows]
    write_summary(ordered, out_dir)
    return ordered


@contextlib.contextmanager
def _cache_dir(folder: str | Path | None) -> Iterator[None]:
    """``ARTIFACTCHECK_CACHE_DIR`` for the block (local workers inherit it), restored after."""
    if folder is None:
        yield
        return
    earlier = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(Path(folder).resolve())
    try:
        yield
    finally:
        if earlier is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = earlier


def score_row(row: BatchRow, out: Path, html: bool) -> RowOutcome:
    """Score one row here and write its report (what ``-j 1`` does for each row)."""
    return write_row(row, evaluate_row(row, html=html), out)


def write_summary(outcomes: list[RowOutcome], out: Path) -> dict[str, Any]:
    """Read the rows' reports and write runs.csv, the per-table CSVs, summary.md/json."""
    reports: list[Report] = []
    tasks: list[str] = []
    runs_rows: list[dict[str, Any]] = []
    for outcome in outcomes:
        row = outcome.row
        record: dict[str, Any] = {"task": row.task, "run": row.run, "artifact": row.artifact, "state": outcome.state}
        path = row.report_path(out)
        if outcome.state != "error" and path.is_file():
            report = read_report(path)
            reports.append(report)
            tasks.append(row.task)
            c = report.counts
            record.update(
                format=report.artifact.format, score=report.score, verdict=report.verdict,
                requirements_met=report.requirements_met, requirements_total=report.requirements_total,
                failed=c.failed, needs_trace=c.needs_trace, error=c.error, skipped=c.skipped,
                report=str(path.relative_to(out)), message="",
            )
        else:
            record.update(format=None, score=None, verdict=None, requirements_met=None, requirements_total=None,
                          failed=None, needs_trace=None, error=None, skipped=None, report=None, message=outcome.message)
        runs_rows.append(record)
    tables = summary_tables(reports, tasks)
    unscored = sum(o.state == "error" for o in outcomes)
    summary = {"rows": len(outcomes), "rows_not_scored": unscored, "tables": tables}
    write_text_atomic(out / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    _write_csv(out / "runs.csv", runs_rows)
    for name, table in tables.items():
        _write_csv(out / f"{name}.csv", table)
    titles = {
        "overall": "Overall", "pass_at_k": "pass@k (unbiased estimator)", "by_mechanism": "Step pass rate by mechanism",
        "by_step_type": "Step pass rate by step type", "by_format": "Success by artifact type",
        "attribution": "Failure attribution (steps not passed, runs not successful)",
    }
    md = [f"# Batch summary\n\n{len(outcomes)} rows, {unscored} not scored.\n"]
    md.extend(f"\n## {titles[name]}\n\n{markdown_table(table)}" for name, table in tables.items())
    write_text_atomic(out / "summary.md", "".join(md))
    return summary


def _write_csv(path: Path, rows: list[dict[str, Any]]) -> None:
    buffer = io.StringIO()
    if rows:
        writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    write_text_atomic(path, buffer.getvalue())


def batch_command(manifest: Path, *, out: Path | None, jobs: int, html: bool, force: bool, renderer: str | None = None,
                  rubric_root: Path | None = None, scheduler: str | None = None, ship_artifacts: bool = False,
                  cache_dir: Path | None = None) -> int:
    """CLI entry: 0 when every row has a report, 2 when some row could not be scored."""
    from rich.console import Console
    from rich.text import Text

    from ..errors import UsageError

    if ship_artifacts and scheduler is None:
        raise UsageError("--ship-artifacts sends files to Dask workers; it needs --scheduler")
    target = out or manifest.with_name(manifest.stem + ".out")
    console = Console(stderr=True)
    try:
        outcomes = run_batch(manifest, target, jobs=jobs, html=html, force=force, renderer=renderer, rubric_root=rubric_root,
                             scheduler=scheduler, ship_artifacts=ship_artifacts, cache_dir=cache_dir)
    except KeyboardInterrupt:
        # finished rows are on disk (written by rename); the next run resumes after them
        console.print(Text(f"interrupted; rerun the same command to resume (finished rows are kept in {target})"))
        return 130
    errors = [o for o in outcomes if o.state == "error"]
    for o in errors:
        # task names, paths and messages come from the manifest and the artifacts: literal text
        line = Text(f"row {o.row.line} ({o.row.task} run {o.row.run}) not scored:", style="red")
        console.print(line.append(f" {o.message}", style=""))
    retried = sum(o.attempts > 1 for o in outcomes)
    again = f", {retried} retried after a worker died" if retried else ""
    console.print(Text(f"{len(outcomes)} rows: {sum(o.state == 'scored' for o in outcomes)} scored, "
                       f"{sum(o.state == 'resumed' for o in outcomes)} already done, {len(errors)} not scored{again}; "
                       f"tables in {target}"))
    return 2 if errors else 0


__all__ = ["BatchRow", "RowOutcome", "batch_command", "read_manifest", "run_batch", "score_row", "write_summary"]
