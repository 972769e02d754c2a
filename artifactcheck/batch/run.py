"""``artifactcheck batch``: score many (artifact, rubric, trace) rows in local worker
processes, with a progress bar, resumable, then write the summary tables.

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
expanded rubric (sha256) is not scored again. Reports are written by rename, so an
interrupted run never leaves a half report behind.
"""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import json
import multiprocessing
import multiprocessing.util
import os
import re
import signal
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..digest import file_digest
from ..errors import ArtifactCheckError
from ..report.json_writer import read_report, write_report_json, write_text_atomic
from ..report.metrics import markdown_table, summary_tables
from ..report.model import Report

_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class BatchRow:
    """One manifest row with resolved paths; ``line`` is its 1-based manifest line."""

    artifact: str
    rubric: str
    trace: str | None
    task: str
    run: str
    line: int
    assets: str | None = None
    rubric_root: str | None = None

    def report_path(self, out: Path) -> Path:
        return out / "reports" / _safe(self.task) / f"run-{_safe(self.run)}.json"

    def report_key(self) -> tuple[str, str]:
        """What decides the report file, as a case-insensitive file system sees it."""
        return _safe(self.task).casefold(), _safe(self.run).casefold()

    def inputs_path(self, out: Path) -> Path:
        """Fingerprint of the inputs a report was made from (for resuming)."""
        return self.report_path(out).with_suffix(".inputs.json")


@dataclass
class RowOutcome:
    row: BatchRow
    state: str  # scored | resumed | error
    message: str = ""


def _ignore_sigint(env: dict[str, str] | None = None, coordinator: int | None = None,
                   coordinator_tmp: str | None = None) -> None:
    """Worker initializer: Ctrl-C is the coordinating process's to handle; SIGTERM
    unwinds the worker (SystemExit) so the renderer's cleanup kills its LibreOffice.
    ``env`` is what the worker needs to render through the batch's warm pool.
    ``coordinator``: the batch process's pid; the worker ends itself (SIGTERM, so the
    same cleanup runs) when that process is gone, even killed by SIGKILL, which gives
    the pool no chance to stop its workers (their parent is the forkserver).
    ``coordinator_tmp``: the coordinator's multiprocessing folder (``pymp-*``, the
    forkserver's socket), which a killed coordinator cannot remove itself."""
    os.environ.update(env or {})
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _exit_on_sigterm)
    if coordinator is not None:
        _watch_coordinator(coordinator, coordinator_tmp)


_STOPPING = threading.Event()  # set in a worker by SIGTERM (from the coordinator or the watcher)


def _watch_coordinator(pid: int, leftover: str | None = None) -> None:
    """In a worker: when process ``pid`` ends, SIGTERM this worker (the main thread
    unwinds, the renderer kills its LibreOffice and removes its work dir), take no new
    row (``score_row`` checks ``_STOPPING``), and exit at the latest WORKER_STOP_SECONDS
    later even if the main thread is stuck (ProcessPoolExecutor's worker loop catches
    the SystemExit of a running task and would otherwise wait for the next one)."""

    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)  # readable when the process exits; immune to pid reuse
        except (OSError, AttributeError):
            fd = None
        if fd is not None:
            import select

            select.select([fd], [], [])
        else:  # pragma: no cover - kernels before 5.3
            while _alive(pid):
                time.sleep(0.5)
        if leftover:
            import shutil

            shutil.rmtree(leftover, ignore_errors=True)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(WORKER_STOP_SECONDS)
        os._exit(128 + signal.SIGTERM)

    threading.Thread(target=watch, name="artifactcheck-coordinator-watch", daemon=True).start()


def _exit_on_sigterm(signum: int, frame: Any) -> None:
    # The running row unwinds (its renderer kills LibreOffice and removes its work dir);
    # the pool's worker loop catches that SystemExit and would take the next row, so
    # score_row refuses to start one once this is set, and ends the process instead.
    _STOPPING.set()
    raise SystemExit(128 + signum)


WORKER_STOP_SECONDS = 20.0


def _stop_workers(pids: list[int]) -> None:
    """SIGTERM the pool's own workers (by pid), give them time to clean up, then SIGKILL
    the ones still alive."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + WORKER_STOP_SECONDS
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        alive = [pid for pid in alive if _alive(pid)]
        time.sleep(0.1)
    for pid in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie is dead for our purpose
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return True


_MAX_NAME = 80  # characters of a task/run name kept in a file name (ext4: 255 bytes)


def _safe(name: str) -> str:
    """A file-name-safe form of a task or run name: never a path (no separators, no
    leading dots), never empty, never too long (long names keep a prefix and a hash of
    the whole). Not injective by itself: read_manifest refuses rows that collide."""
    safe = _SAFE.sub("_", name).strip("._") or "_"
    if len(safe) > _MAX_NAME:
        safe = f"{safe[:_MAX_NAME - 17]}-{hashlib.sha256(name.encode()).hexdigest()[:16]}"
    return safe


def read_manifest(path: str | Path, *, rubric_root: str | Path | None = None) -> list[BatchRow]:
    """Parse a CSV or JSONL manifest. Raises ArtifactCheckError naming the line at fault.
    ``rubric_root`` confines every row's rubric includes and reference images (default:
    per row, the parent of the rubric's folder)."""
    from ..input_files import read_input_bytes
    from ..rubric.loader import load_rubric

    manifest = Path(path)
    data = read_input_bytes(manifest, what="manifest", error=ArtifactCheckError, too_large=ArtifactCheckError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ArtifactCheckError(f"cannot read manifest: {exc}", path=manifest) from None
    root = str(Path(rubric_root).resolve()) if rubric_root is not None else None
    raw: list[tuple[int, dict[str, Any]]] = []
    if manifest.suffix.lower() in (".jsonl", ".ndjson") or text.lstrip().startswith("{"):
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    item = json.loads(line)
                except ValueError as exc:
                    raise ArtifactCheckError(f"line {number}: not JSON: {exc}", path=manifest) from None
                if not isinstance(item, dict):
                    raise ArtifactCheckError(f"line {number}: each line must be a JSON object", path=manifest)
                raw.append((number, item))
    else:
        reader = csv.DictReader(io.StringIO(text))
        for record in reader:
            raw.append((reader.line_num, {k.strip(): (v or "").strip() for k, v in record.items() if k}))
    base = manifest.parent
    rows: list[BatchRow] = []
    seen: set[tuple[str, str]] = set()
    report_files: dict[tuple[str, str], tuple[int, str, str]] = {}
    counters: dict[str, int] = {}
    tasks_of_rubric: dict[str, str] = {}
    allowed = {"artifact", "rubric", "trace", "task", "run", "assets"}
    for number, item in raw:
        unknown = set(item) - allowed
        if unknown:
            raise ArtifactCheckError(f"line {number}: unknown column(s) {sorted(unknown)}; allowed: {sorted(allowed)}", path=manifest)
        if not item.get("artifact") or not item.get("rubric"):
            raise ArtifactCheckError(f"line {number}: artifact and rubric are required", path=manifest)
        rubric = str(base / str(item["rubric"]))
        task = str(item.get("task") or "")
        if not task:
            if rubric not in tasks_of_rubric:
                tasks_of_rubric[rubric] = load_rubric(rubric, root=root).task
            task = tasks_of_rubric[rubric]
        run = str(item.get("run")) if item.get("run") not in (None, "") else str(counters.get(task, 0))
        counters[task] = counters.get(task, 0) + 1
        if (task, run) in seen:
            raise ArtifactCheckError(f"line {number}: task {task!r} run {run!r} appears twice", path=manifest)
        seen.add((task, run))
        trace = str(base / str(item["trace"])) if item.get("trace") else None
        assets = str(base / str(item["assets"])) if item.get("assets") else None
        row = BatchRow(_artifact_location(base, str(item["artifact"])), rubric, trace, task, run, number, assets, root)
        other = report_files.setdefault(row.report_key(), (number, task, run))
        if other[0] != number:
            raise ArtifactCheckError(
                f"line {number}: task {task!r} run {run!r} would be written to the same report file as line "
                f"{other[0]} (task {other[1]!r} run {other[2]!r}): reports/{_safe(task)}/run-{_safe(run)}.json; "
                "rename one of them", path=manifest)
        rows.append(row)
    return rows


def _artifact_location(base: Path, value: str) -> str:
    """A path relative to the manifest, or a Google URL/id kept as written."""
    if (base / value).exists() or "://" not in value and not _google(value):
        return str(base / value)
    return value


def _google(value: str) -> bool:
    from ..extractors.google.access import looks_like_google_ref

    return looks_like_google_ref(value)


def _sha256_file(path: Path) -> str | None:
    return file_digest(path).sha256 if path.is_file() else None


def input_fingerprint(row: BatchRow) -> dict[str, str | None]:
    """sha256 of the artifact, trace and rubric files and of the expanded rubric."""
    from ..rubric.loader import load_rubric

    try:
        expanded: str | None = hashlib.sha256(load_rubric(row.rubric, root=row.rubric_root).model_dump_json().encode()).hexdigest()
    except ArtifactCheckError:
        expanded = None
    return {
        "artifact": _sha256_file(Path(row.artifact)),
        "trace": _sha256_file(Path(row.trace)) if row.trace else None,
        "rubric": expanded,
    }


def is_complete(row: BatchRow, out: Path) -> bool:
    """True when the row's report exists and parses, and its recorded inputs (artifact
    bytes, trace, expanded rubric) are the current ones."""
    path, inputs = row.report_path(out), row.inputs_path(out)
    if not path.is_file() or not inputs.is_file():
        return False
    try:
        read_report(path)
        recorded = json.loads(inputs.read_text(encoding="utf-8"))
    except (ValidationError, OSError, ValueError):
        return False
    return bool(recorded == input_fingerprint(row))


def score_row(row: BatchRow, out: Path, html: bool) -> RowOutcome:
    """Score one row and write its report (worker process entry point). Never raises:
    whatever breaks (the HTML writer included) makes the row an ``error`` whose message
    says what broke, and the row is not recorded as complete, so a rerun redoes it."""
    from ..rubric.loader import load_rubric
    from ..rubric.runner import ArtifactFailure, artifact_ref_for_file, run_rubric
    from ..rubric.scoring import score

    if _STOPPING.is_set():  # this worker was told to stop (or its batch died): start nothing new
        os._exit(128 + signal.SIGTERM)
    stage = "scoring"
    try:
        artifact = Path(row.artifact)
        if artifact.is_file() or artifact.is_dir() or _google(row.artifact):
            report = score(row.artifact if _google(row.artifact) else artifact, row.rubric, trace=row.trace,
                           assets=row.assets, rubric_root=row.rubric_root)
        else:  # the agent produced no file: the task failed, decided
            report = run_rubric(
                None,
                load_rubric(row.rubric, root=row.rubric_root),
                artifact=artifact_ref_for_file(artifact, None),
                rubric_path=row.rubric,
                failure=ArtifactFailure("artifact", "file not found"),
            )
        report = report.model_copy(update={"task": row.task})
        fingerprint = input_fingerprint(row)
        stage = "writing the JSON report"
        path = write_report_json(report, row.report_path(out))
        if html:
            stage = "writing the HTML report"
            from ..report.html import write_report_html

            write_report_html(report, path.with_suffix(".html"), artifact=artifact if artifact.is_file() else None)
        # Last: the fingerprint is what marks the row complete for a rerun.
        write_text_atomic(row.inputs_path(out), json.dumps(fingerprint, indent=1) + "\n")
        return RowOutcome(row, "scored")
    except ArtifactCheckError as exc:
        return RowOutcome(row, "error", f"{stage}: {exc}")
    except Exception as exc:  # noqa: BLE001 - one bad row must not end the batch
        return RowOutcome(row, "error", f"{stage}: {type(exc).__name__}: {exc}")


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
) -> list[RowOutcome]:
    """Score every row not already complete, ``jobs`` at a time, then write the tables.
    ``renderer``: ``auto`` (default: a warm LibreOffice pool while rows need rendering),
    ``warm`` or ``cold`` (batch/rendering.py)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from .rendering import batch_renderer

    rows = read_manifest(manifest, rubric_root=rubric_root)
    out_dir = Path(out)
    out_dir.mkdir(parents=True, exist_ok=True)
    outcomes: dict[BatchRow, RowOutcome] = {}
    todo = []
    for row in rows:
        if not force and is_complete(row, out_dir):
            outcomes[row] = RowOutcome(row, "resumed")
        else:
            todo.append(row)
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with batch_renderer(renderer, [row.artifact for row in todo], jobs=jobs) as worker_env, \
            Progress(*columns, disable=not progress, transient=False) as bar:
        task_id = bar.add_task(f"scoring ({len(outcomes)} resumed)", total=len(rows), completed=len(outcomes))
        if jobs <= 1:
            for row in todo:
                outcomes[row] = score_row(row, out_dir, html)
                bar.advance(task_id)
        else:
            # forkserver: workers are forked from a clean server process, never from this
            # one while the progress bar's refresh thread may hold a lock. Workers ignore
            # SIGINT: on Ctrl-C this process stops them and the rows they held are redone
            # on resume (their reports were never renamed into place).
            context = multiprocessing.get_context("forkserver")
            pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_ignore_sigint,
                                       initargs=(worker_env, os.getpid(), multiprocessing.util.get_temp_dir()))
            futures: dict[Future[RowOutcome], BatchRow] = {pool.submit(score_row, row, out_dir, html): row for row in todo}
            try:
                for future in as_completed(futures):
                    row = futures[future]
                    try:
                        outcomes[row] = future.result()
                    except Exception as exc:  # noqa: BLE001 - a worker died
                        outcomes[row] = RowOutcome(row, "error", f"worker failed: {type(exc).__name__}: {exc}")
                    bar.advance(task_id)
            except BaseException:
                workers = list(getattr(pool, "_processes", None) or {})
                pool.shutdown(wait=False, cancel_futures=True)
                _stop_workers(workers)
                raise
            pool.shutdown(wait=True)
    ordered = [outcomes[row] for row in rows]
    write_summary(ordered, out_dir)
    return ordered


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
                  rubric_root: Path | None = None) -> int:
    """CLI entry: 0 when every row has a report, 2 when some row could not be scored."""
    from rich.console import Console
    from rich.text import Text

    target = out or manifest.with_name(manifest.stem + ".out")
    console = Console(stderr=True)
    try:
        outcomes = run_batch(manifest, target, jobs=jobs, html=html, force=force, renderer=renderer, rubric_root=rubric_root)
    except KeyboardInterrupt:
        # finished rows are on disk (written by rename); the next run resumes after them
        console.print(Text(f"interrupted; rerun the same command to resume (finished rows are kept in {target})"))
        return 130
    errors = [o for o in outcomes if o.state == "error"]
    for o in errors:
        # task names, paths and messages come from the manifest and the artifacts: literal text
        line = Text(f"row {o.row.line} ({o.row.task} run {o.row.run}) not scored:", style="red")
        console.print(line.append(f" {o.message}", style=""))
    console.print(Text(f"{len(outcomes)} rows: {sum(o.state == 'scored' for o in outcomes)} scored, "
                       f"{sum(o.state == 'resumed' for o in outcomes)} already done, {len(errors)} not scored; tables in {target}"))
    return 2 if errors else 0


__all__ = ["BatchRow", "RowOutcome", "batch_command", "read_manifest", "run_batch", "score_row", "write_summary"]
