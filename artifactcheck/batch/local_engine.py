"""The local engine: rows scored in worker processes on this machine (the default;
``batch -j N``), or in this process with ``-j 1``.

Workers come from a forkserver, never forked from the process running the progress bar's
thread. They ignore SIGINT: on Ctrl-C the coordinator SIGTERMs them by pid (a worker
unwinds, so the renderer's cleanup kills its LibreOffice), SIGKILLs any left after
WORKER_STOP_SECONDS, and the rows they held are redone on resume. A worker returns the
row's report as text (:class:`~.row_scoring.RowResult`); the coordinator writes it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.util
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from .manifest import BatchRow
from .row_scoring import RowOutcome, RowResult, evaluate_row, write_row

__all__ = ["WORKER_STOP_SECONDS", "run_local", "score_in_worker"]


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
    row (``score_in_worker`` checks ``_STOPPING``), and exit at the latest WORKER_STOP_SECONDS
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
    # score_in_worker refuses to start one once this is set, and ends the process instead.
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


def score_in_worker(row: BatchRow, html: bool) -> RowResult:
    """A local worker's entry point: score one row, write nothing."""
    if _STOPPING.is_set():  # this worker was told to stop (or its batch died): start nothing new
        os._exit(128 + signal.SIGTERM)
    return evaluate_row(row, html=html)


def run_local(rows: list[BatchRow], out: Path, *, jobs: int, html: bool, worker_env: dict[str, str],
              done: Callable[[RowOutcome], None]) -> None:
    """Score ``rows``, ``jobs`` at a time; the coordinator writes each result and calls
    ``done`` with its outcome, in the order rows finish."""
    if jobs <= 1:
        for row in rows:
            done(write_row(row, evaluate_row(row, html=html), out))
        return
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_ignore_sigint,
                               initargs=(worker_env, os.getpid(), multiprocessing.util.get_temp_dir()))
    futures: dict[Future[RowResult], BatchRow] = {pool.submit(score_in_worker, row, html): row for row in rows}
    try:
        for future in as_completed(futures):
            row = futures.pop(future)
            try:
                result = future.result()
            except Exception as exc:  # noqa: BLE001 - a worker died
                result = RowResult("error", f"worker failed: {type(exc).__name__}: {exc}")
            done(write_row(row, result, out))
    except BaseException:
        workers = list(getattr(pool, "_processes", None) or {})
        pool.shutdown(wait=False, cancel_futures=True)
        _stop_workers(workers)
        raise
    pool.shutdown(wait=True)
