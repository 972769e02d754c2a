"""The Dask engine (``batch --scheduler``): rows scored on a Dask distributed cluster, a
running one (``tcp://HOST:8786``, started with ``dask scheduler`` / ``dask worker``) or a
LocalCluster started for the batch (``local:N``: N worker processes on 127.0.0.1, free
ports, no dashboard). design/batch.md says why Dask and how each fault is handled.

- **Who writes.** A worker returns the row's report as text (``score_on_worker``); this
  process writes it with the same atomic rename as the local engine, once per row, as
  each result arrives. A row is done when its fingerprint file is on disk, so a
  coordinator killed at any moment leaves rows either complete or redone on resume.
- **Retries.** A worker that dies mid-row (killed, out of memory) makes the scheduler run
  the row again on another worker; each attempt announces itself on an event topic, so
  the coordinator counts attempts per row (``RowOutcome.attempts``, the progress bar's
  "retried"). The scheduler gives up on a row after its ``allowed-failures`` (set to
  ``max_attempts - 1`` on a LocalCluster; a running scheduler's own setting, default 3,
  applies there) and the row is an error, never lost: every submitted row ends as exactly
  one outcome. ``retries=`` covers a task that raised (a worker's full disk).
- **Bounded memory.** At most ``window`` rows are in flight (4 per worker thread, at least
  8) and at most MAX_SHIPPED_IN_FLIGHT bytes of shipped files; the next row is submitted
  as one finishes, so task state and shipped bytes stay bounded however long the manifest.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ArtifactCheckError, MissingDependency, SchedulerUnreachable, UsageError
from ..limits import ENV_VAR as LIMITS_ENV
from .manifest import BatchRow
from .row_scoring import RowOutcome, RowResult, write_row
from .shipping import ShippedRow

__all__ = ["DaskSession", "DaskSettings", "dask_session"]

log = logging.getLogger(__name__)

INSTALL_HINT = "pip install 'artifactcheck[cluster]'"
CONNECT_TIMEOUT_ENV = "ARTIFACTCHECK_SCHEDULER_TIMEOUT"
_LOCAL_PREFIX = "artifactcheck-dask-"
MAX_SHIPPED_IN_FLIGHT = 1024 * 1024 * 1024
"""Bytes of shipped files in tasks not yet finished (--ship-artifacts): past it, the next
row waits for one to finish (a single row over it still goes, alone)."""


@dataclass(frozen=True)
class DaskSettings:
    """How a batch runs on Dask (``run_batch`` builds it from the CLI options)."""

    scheduler: str
    """``tcp://HOST:PORT`` (any address a Dask Client accepts) or ``local:N``."""
    html: bool = False
    ship_artifacts: bool = False
    """Send each row's files as bytes (``shipping.py``) instead of reading the manifest's
    paths on the workers (a shared file system)."""
    renderer: str | None = None
    """auto (default) | warm | cold: each worker's renderer (``dask_worker.py``)."""
    cache_dir: str | None = None
    """The workers' render cache folder (shared storage shares renders); None: each
    worker's own ``ARTIFACTCHECK_CACHE_DIR`` or user cache folder."""
    connect_timeout: float = 10.0
    """Seconds to reach a running scheduler before SchedulerUnreachable."""
    max_attempts: int = 3
    """Times a row may be started (on a LocalCluster; see the module docstring)."""


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise MissingDependency("Dask distributed (needed by batch --scheduler)", hint=INSTALL_HINT) from None
    return distributed


class DaskSession:
    """A connected client with the batch's worker plugin registered (see
    :func:`dask_session`); :meth:`run` scores rows on it."""

    def __init__(self, distributed: Any, client: Any, settings: DaskSettings) -> None:
        self.distributed = distributed
        self.client = client
        self.settings = settings

    def run(self, rows: list[BatchRow], out: Path, *, done: Callable[[RowOutcome], None], retried: Callable[[], None]) -> None:
        """Score ``rows``; write each result and call ``done`` with its outcome as it
        arrives, and ``retried`` whenever a row is started again."""
        _Submission(self.distributed, self.client, out, self.settings, done, retried).run(rows)


@contextlib.contextmanager
def dask_session(settings: DaskSettings) -> Iterator[DaskSession]:
    """Connect (or start the LocalCluster), register the worker plugin; on exit
    unregister it (each worker closes its LibreOffice pool) and disconnect (a LocalCluster
    is shut down and its folder removed). Raises MissingDependency without Dask,
    SchedulerUnreachable when the scheduler does not answer in time."""
    distributed = _distributed()
    mode = (settings.renderer or os.environ.get("ARTIFACTCHECK_RENDERER") or "auto").lower()
    if mode not in ("auto", "warm", "cold"):
        raise ArtifactCheckError(f"--renderer {mode!r}: expected one of auto, cold, warm")
    with _connected(distributed, settings) as client:
        from .dask_worker import PLUGIN_NAME, BatchWorkerPlugin

        local = settings.scheduler.strip().startswith("local")
        client.register_plugin(BatchWorkerPlugin(mode, _worker_env(settings), ignore_sigint=local), name=PLUGIN_NAME)
        try:
            yield DaskSession(distributed, client, settings)
        finally:
            with contextlib.suppress(Exception):  # the cluster may be going away with us
                client.unregister_worker_plugin(PLUGIN_NAME)


def _worker_env(settings: DaskSettings) -> dict[str, str]:
    env: dict[str, str] = {}
    if os.environ.get(LIMITS_ENV):  # --limit: the same budgets on every worker
        env[LIMITS_ENV] = os.environ[LIMITS_ENV]
    if settings.cache_dir is not None:
        env["ARTIFACTCHECK_CACHE_DIR"] = str(Path(settings.cache_dir).resolve())
    return env


class _Submission:
    """One batch's rows on one client: a window of futures, attempts counted from events."""

    def __init__(self, distributed: Any, client: Any, out: Path, settings: DaskSettings,
                 done: Callable[[RowOutcome], None], retried: Callable[[], None]) -> None:
        self.distributed = distributed
        self.client = client
        self.out = out
        self.settings = settings
        self.done = done
        self.retried = retried
        self.topic = f"artifactcheck-batch-{uuid.uuid4().hex}"
        self.attempts: dict[str, int] = {}
        self.lock = threading.Lock()
        self.rows: dict[str, BatchRow] = {}

    def _started(self, event: tuple[float, dict[str, Any]]) -> None:
        # Runs on the client's event loop thread.
        key = str(event[1].get("key"))
        with self.lock:
            self.attempts[key] = self.attempts.get(key, 0) + 1
            again = self.attempts[key] > 1
        if again:
            self.retried()

    def run(self, rows: list[BatchRow]) -> None:
        from .dask_worker import score_on_worker
        from .shipping import RubricFiles, pack_row

        window = max(8, 4 * (sum(self.client.nthreads().values()) or 1))
        pending = iter(rows)
        rubrics = RubricFiles()
        held: list[Any] = []  # a packed row waiting for shipped bytes in flight to drop
        in_flight: dict[str, int] = {}  # key -> bytes shipped with it
        self.client.subscribe_topic(self.topic, self._started)

        def payloads() -> Iterator[Any]:
            for row in pending:
                if not self.settings.ship_artifacts:
                    yield row
                    continue
                try:
                    yield pack_row(row, rubrics)
                except (ArtifactCheckError, OSError) as exc:
                    self.done(RowOutcome(row, "error", f"shipping its files: {exc}", 0))

        source = payloads()

        def submit_next() -> Any:
            """The next row's future, or None (no rows left, or the window is full)."""
            if len(in_flight) >= window:
                return None
            payload = held.pop() if held else next(source, None)
            if payload is None:
                return None
            size = payload.size if isinstance(payload, ShippedRow) else 0
            if in_flight and sum(in_flight.values()) + size > MAX_SHIPPED_IN_FLIGHT:
                held.append(payload)  # sent when an earlier row's bytes are freed
                return None
            row = payload.row if isinstance(payload, ShippedRow) else payload
            key = f"artifactcheck-row-{row.line}-{self.topic[-12:]}"
            self.rows[key] = row
            in_flight[key] = size
            return self.client.submit(score_on_worker, payload, self.settings.html, self.topic, key, key=key,
                                      pure=False, retries=self.settings.max_attempts - 1)

        def fill(into: Any) -> None:
            while (future := submit_next()) is not None:
                into.add(future)

        try:
            first = submit_next()
            if first is None:
                return
            # as_completed of this client's futures (it must not look for a default client)
            completed = self.distributed.as_completed([first], loop=self.client.loop)
            fill(completed)
            for future in completed:
                row = self.rows.pop(future.key)
                in_flight.pop(future.key, None)
                result = self._result(future)
                with self.lock:
                    attempts = max(1, self.attempts.pop(future.key, 1))
                self.done(write_row(row, result, self.out, attempts=attempts))
                future.release()
                fill(completed)
        finally:
            with contextlib.suppress(Exception):
                self.client.unsubscribe_topic(self.topic)

    def _result(self, future: Any) -> RowResult:
        try:
            result = future.result()
        except self.distributed.KilledWorker:
            with self.lock:
                started = self.attempts.get(future.key, 0)
            return RowResult("error", f"a worker died under this row {started} time(s); not started again "
                                      "(the scheduler's allowed-failures)")
        except Exception as exc:  # noqa: BLE001 - a task that raised every retry
            return RowResult("error", f"worker failed: {type(exc).__name__}: {exc}")
        if not isinstance(result, RowResult):
            return RowResult("error", f"worker returned {type(result).__name__}, not a row result")
        return result


@contextlib.contextmanager
def _connected(distributed: Any, settings: DaskSettings) -> Iterator[Any]:
    """A client of the named scheduler, or of a LocalCluster started (and ended) here."""
    address = settings.scheduler.strip()
    if address.startswith("local:") or address == "local":
        with _local_cluster(distributed, address, settings) as cluster, \
                distributed.Client(cluster, set_as_default=False) as client:
            yield client
        return
    timeout = float(os.environ.get(CONNECT_TIMEOUT_ENV) or settings.connect_timeout)
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        reason = " ".join(str(exc).split()) or type(exc).__name__
        raise SchedulerUnreachable(f"cannot reach the Dask scheduler at {address} within {timeout:g} s ({reason})") from None
    with client:
        yield client


@contextlib.contextmanager
def _local_cluster(distributed: Any, address: str, settings: DaskSettings) -> Iterator[Any]:
    count = address.partition(":")[2]
    if not count.isdigit() or int(count) < 1:
        raise UsageError(f"--scheduler {address!r}: write local:N with N worker processes, e.g. local:2")
    _sweep_dead_local_folders()
    folder = Path(tempfile.mkdtemp(prefix=f"{_LOCAL_PREFIX}{os.getpid()}-"))
    try:
        import dask

        # The scheduler and nannies make scratch folders too: all of them go in ours.
        with dask.config.set({"temporary-directory": str(folder)}):
            cluster = distributed.LocalCluster(
                n_workers=int(count), threads_per_worker=1, processes=True, host="127.0.0.1", scheduler_port=0,
                dashboard_address=None, local_directory=str(folder), silence_logs=logging.ERROR,
                scheduler_kwargs={"allowed_failures": settings.max_attempts - 1},
            )
        with cluster:
            yield cluster
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _sweep_dead_local_folders() -> None:
    """Remove LocalCluster folders of batches whose process is gone (killed before it
    could remove its own); the owner's pid is in the name."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_LOCAL_PREFIX}*"):
        pid = folder.name[len(_LOCAL_PREFIX):].split("-", 1)[0]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists() and os.name == "posix" and Path("/proc/self").exists():
            shutil.rmtree(folder, ignore_errors=True)
