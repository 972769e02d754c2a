"""What runs on a Dask worker during a batch: the worker plugin that gives the worker its
renderer for its lifetime, and the task that scores one row.

The plugin (registered by the coordinator, ``dask_engine.py``) sets the batch's
environment (``ARTIFACTCHECK_LIMITS``, the render cache folder when the batch names one)
and installs one renderer for the worker process: with ``--renderer auto`` or ``warm``
an :class:`~artifactcheck.extractors.render.on_demand.OnDemandWarmRenderer` (LibreOffice
starts at the worker's first cache miss, never for a worker that renders nothing), with
``cold`` one soffice per conversion. Its work folders live in the worker's own Dask
folder. ``teardown`` (the worker closing, or the batch unregistering the plugin) closes
the pool: every LibreOffice process group it started is killed. A worker killed outright
cannot run teardown; its LibreOffice servers end themselves when their stdin closes
(``lo_server.py``), and Dask removes a dead worker's folder when the next one starts.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from pathlib import Path
from typing import Any

from distributed import WorkerPlugin, get_worker

from ..extractors.render.on_demand import OnDemandWarmRenderer
from ..extractors.render.pool import PoolSettings
from ..extractors.render.renderer import LibreOfficeRenderer, Renderer
from ..extractors.render.selection import use_renderer
from .row_scoring import RowResult, evaluate_row
from .shipping import ShippedRow, unpacked

__all__ = ["PLUGIN_NAME", "BatchWorkerPlugin", "score_on_worker"]

PLUGIN_NAME = "artifactcheck-batch"
ACQUIRE_TIMEOUT_S = 300.0  # as batch/rendering.py: a row may wait for a long document ahead of it


class BatchWorkerPlugin(WorkerPlugin):
    """One per worker process; see the module docstring."""

    name = PLUGIN_NAME

    def __init__(self, renderer: str, env: dict[str, str], *, ignore_sigint: bool = False) -> None:
        self.renderer_mode = renderer
        self.env = env
        self.ignore_sigint = ignore_sigint
        self._sigint: Any = None
        self._earlier: dict[str, str | None] = {}
        self._renderer: Renderer | None = None
        self._stack = contextlib.ExitStack()

    def setup(self, worker: Any) -> None:
        if self.ignore_sigint and threading.current_thread() is threading.main_thread():
            # A LocalCluster's workers share the terminal's process group: Ctrl-C is the
            # coordinator's to handle (it closes the cluster, and each worker its pool).
            self._sigint = signal.signal(signal.SIGINT, signal.SIG_IGN)
        self._earlier = {name: os.environ.get(name) for name in self.env}
        os.environ.update(self.env)
        scratch = scratch_folder(worker)
        renderer: Renderer
        if self.renderer_mode == "cold":
            renderer = LibreOfficeRenderer(tmp_root=scratch)
        else:
            settings = PoolSettings(size=max(1, int(worker.state.nthreads)), acquire_timeout=ACQUIRE_TIMEOUT_S)
            renderer = OnDemandWarmRenderer(settings, tmp_root=scratch, strict=self.renderer_mode == "warm")
        self._renderer = renderer
        self._stack.enter_context(use_renderer(renderer))

    def teardown(self, worker: Any) -> None:
        self._stack.close()
        if isinstance(self._renderer, OnDemandWarmRenderer):
            self._renderer.close()
        self._renderer = None
        for name, value in self._earlier.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if self._sigint is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, self._sigint)


def scratch_folder(worker: Any) -> Path:
    """This batch's folder inside the worker's own Dask folder (removed with it)."""
    folder = Path(worker.local_directory) / "artifactcheck"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def score_on_worker(row: Any, html: bool, topic: str, key: str) -> RowResult:
    """The task: say on ``topic`` that this attempt started (the coordinator counts
    attempts per ``key``: a second start means the first worker died under the row),
    then score the row (``row`` is a BatchRow, or a ShippedRow with its files)."""
    worker = get_worker()
    worker.log_event(topic, {"key": key, "worker": worker.address})
    if not isinstance(row, ShippedRow):
        return evaluate_row(row, html=html)
    try:
        with unpacked(row, scratch_folder(worker)) as (copy, prefix):
            return evaluate_row(copy, html=html, named_as=row.row, hide_prefix=prefix)
    except (OSError, ValueError) as exc:  # the worker's disk, not the row: raise, Dask retries elsewhere
        raise RuntimeError(f"could not write the shipped files on {worker.address}: {type(exc).__name__}: {exc}") from None
