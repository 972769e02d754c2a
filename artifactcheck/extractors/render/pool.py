"""The warm pool: N LibreOffice processes kept running, converting one file at a time each.

Boundaries (design/rendering.md, "Warm pool"):

- **Never more than ``size`` LibreOffice processes.** A process is replaced only after the
  old one's whole process group is gone; replacement happens in a background thread, so
  a request never waits for a restart unless it needs that very slot.
- **Acquisition has a deadline.** When every process stays busy for ``acquire_timeout``
  seconds the call raises :class:`~artifactcheck.errors.RendererBusy`; the pool never
  starts extra processes and never blocks forever.
- **A hanging conversion** is killed with its process group at ``timeout`` (RenderTimeout)
  and the process replaced.
- **A crash** (LibreOffice died mid-conversion) replaces the process and retries once on
  a fresh process (one that has converted nothing yet); a second crash raises
  :class:`OfficeCrashed`. A file LibreOffice refuses to load raises :class:`LoadRefused`.
  Both are :class:`WarmPathError`: the warm renderer (``warm.py``) then tries the cold path.
- **Recycling.** A process is replaced after ``max_conversions`` conversions or once its
  group's resident memory passes ``max_rss_mb`` (LibreOffice's memory grows with every
  document it has opened).
- Every conversion runs in its own job directory (a copy of the input under a plain name,
  like the cold path); the pool's work directory is removed by :meth:`WarmPool.close`.
"""

from __future__ import annotations

import itertools
import shutil
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from ...errors import ArtifactCheckError, RendererBusy, RenderError, RenderTimeout
from .lo_process import LoadRefused, OfficeCrashed, WarmPathError, WarmProcess
from .renderer import LibreOfficeRenderer, check_pdf, input_format, pdf_filter

__all__ = ["PoolSettings", "WarmPool"]

_WORK_PREFIX = "artifactcheck-lo-pool-"  # swept like the cold path's work dirs when stale


@dataclass(frozen=True)
class PoolSettings:
    """How the pool behaves. Defaults are measured in design/rendering.md."""

    size: int = 2
    """LibreOffice processes kept running (each ~150-300 MB resident)."""
    max_conversions: int = 200
    """Replace a process after this many conversions."""
    max_rss_mb: float = 1024.0
    """Replace a process once its group's resident memory passes this (MiB)."""
    acquire_timeout: float = 60.0
    """Seconds a conversion may wait for a free process before RendererBusy."""
    start_timeout: float = 60.0
    """Seconds a process may take to accept its first connection."""


@dataclass
class _Slot:
    index: int
    process: WarmProcess | None = None
    busy: bool = False
    starting: bool = False
    error: ArtifactCheckError | None = None


class WarmPool:
    """``size`` warm LibreOffice processes; thread-safe; use as a context manager or call
    :meth:`start` and :meth:`close`."""

    def __init__(
        self,
        settings: PoolSettings | None = None,
        *,
        soffice: str | None = None,
        tagged: bool = False,
        tmp_root: Path | None = None,
    ) -> None:
        self.settings = settings or PoolSettings()
        if self.settings.size < 1:
            raise ValueError("a warm pool needs at least one process")
        self._cold = LibreOfficeRenderer(soffice=soffice, tagged=tagged, tmp_root=tmp_root)
        self.tagged = tagged
        self.tmp_root = tmp_root
        self._slots = [_Slot(i) for i in range(self.settings.size)]
        self._cond = threading.Condition()
        self._workdir: Path | None = None
        self._closed = False
        self._generation = itertools.count()
        self.stats = {"conversions": 0, "restarts": 0, "crashes": 0, "timeouts": 0, "refused": 0, "recycled": 0}

    # -- life cycle ------------------------------------------------------------------------
    def start(self, *, wait: str = "first") -> Self:
        """Start every process in the background; return once one is ready (``wait="first"``)
        or all are (``"all"``). Raises the start error when none could start."""
        with self._cond:
            if self._workdir is None:
                self._workdir = Path(tempfile.mkdtemp(prefix=_WORK_PREFIX, dir=self.tmp_root))
                for slot in self._slots:
                    self._spawn(slot)
            while True:
                ready = [s for s in self._slots if s.process is not None]
                starting = [s for s in self._slots if s.starting]
                if (wait == "first" and ready) or not starting:
                    break
                self._cond.wait(1.0)
            if not ready:
                errors = [s.error for s in self._slots if s.error is not None]
                raise errors[0] if errors else RenderError("warm pool could not start")
        return self

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Kill every process (waiting for conversions in flight up to a few seconds is the
        caller's business) and remove the work directory. Idempotent."""
        with self._cond:
            self._closed = True
            self._cond.notify_all()
            while any(s.starting for s in self._slots):
                self._cond.wait(1.0)
            processes = [s.process for s in self._slots if s.process is not None]
            for s in self._slots:
                s.process = None
        for process in processes:
            process.close()
        if self._workdir is not None:
            shutil.rmtree(self._workdir, ignore_errors=True)

    @property
    def name(self) -> str:
        return self._cold.name

    @property
    def version(self) -> str:
        return self._cold.version

    @property
    def options(self) -> str:
        return self._cold.options

    def _spawn(self, slot: _Slot) -> None:
        """Start ``slot``'s process in a thread (caller holds the lock)."""
        slot.starting = True
        slot.error = None
        threading.Thread(target=self._start_slot, args=(slot,), name=f"warm-lo-{slot.index}", daemon=True).start()

    def _start_slot(self, slot: _Slot) -> None:
        assert self._workdir is not None
        process = WarmProcess(
            soffice=self._cold.soffice,
            workdir=self._workdir / f"slot-{slot.index}-{next(self._generation)}",
            template=self._cold.profile_template(),
            start_timeout=self.settings.start_timeout,
        )
        error: ArtifactCheckError | None = None
        try:
            process.start()
        except ArtifactCheckError as exc:
            error = exc
        except Exception as exc:  # noqa: BLE001 - a start failure must not kill the thread silently
            error = RenderError(f"warm LibreOffice did not start: {type(exc).__name__}: {exc}")
        with self._cond:
            slot.starting = False
            keep = error is None and not self._closed
            if keep:
                slot.process = process
            else:
                slot.error = error
            self._cond.notify_all()
        if not keep:
            process.close()

    def _replace(self, slot: _Slot, process: WarmProcess, *, reason: str) -> None:
        """Kill ``process`` (the slot's, in use by the caller) and start a fresh one."""
        process.close()
        with self._cond:
            self.stats["restarts"] += 1
            if reason == "recycled":
                self.stats["recycled"] += 1
            slot.process = None
            slot.busy = False
            if not self._closed:
                self._spawn(slot)
            self._cond.notify_all()

    # -- conversions -----------------------------------------------------------------------
    def _acquire(self, *, fresh: bool, src: Path) -> tuple[_Slot, WarmProcess]:
        deadline = time.monotonic() + self.settings.acquire_timeout
        with self._cond:
            while True:
                if self._closed:
                    raise RenderError("the warm pool is closed", path=src)
                # "fresh" (a retry after a crash) prefers a process that has converted
                # nothing; when none is starting, any idle process will do.
                any_starting = any(s.starting for s in self._slots)
                for slot in self._slots:
                    process = slot.process
                    if process is not None and not slot.busy and (not fresh or not any_starting or process.conversions == 0):
                        slot.busy = True
                        return slot, process
                if all(s.process is None and not s.starting for s in self._slots):
                    errors = [s.error for s in self._slots if s.error is not None]
                    raise WarmPathError(f"no warm LibreOffice is running: {errors[0] if errors else 'unknown'}", path=src)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise RendererBusy(
                        f"all {len(self._slots)} warm LibreOffice processes stayed busy for "
                        f"{self.settings.acquire_timeout:g} s",
                        path=src,
                    )
                self._cond.wait(min(left, 1.0))

    def _release(self, slot: _Slot, process: WarmProcess) -> None:
        over_rss = process.rss_bytes() > self.settings.max_rss_mb * 1024 * 1024
        if process.conversions >= self.settings.max_conversions or over_rss:
            self._replace(slot, process, reason="recycled")
            return
        with self._cond:
            slot.busy = False
            self._cond.notify_all()

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float = 120) -> Path:
        """Convert ``src`` to PDF through a warm process into ``out_dir/<src.stem>.pdf``.

        Raises RenderError for input that is not an Office file, RenderTimeout,
        RendererBusy, and WarmPathError subclasses (LoadRefused, OfficeCrashed) when the
        warm path cannot do it."""
        if target != "pdf":
            raise WarmPathError(f"the warm pool converts to pdf only, not {target}", path=src)
        src = Path(src)
        if not src.is_file():
            raise RenderError("input file does not exist", path=src)
        fmt = input_format(src)
        filtername, options = pdf_filter(fmt, tagged=self.tagged)
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        assert self._workdir is not None, "start() the pool first"
        job = self._workdir / f"job-{uuid.uuid4().hex}"
        job.mkdir()
        try:
            job_in = job / f"input.{fmt}"
            shutil.copyfile(src, job_in)
            produced = job / "input.pdf"
            for attempt in (1, 2):
                slot, process = self._acquire(fresh=attempt == 2, src=src)
                try:
                    process.convert(job_in, produced, filtername=filtername, options=options, timeout=timeout)
                except RenderTimeout:
                    self._count("timeouts")
                    self._replace(slot, process, reason="timeout")
                    raise
                except OfficeCrashed:
                    self._count("crashes")
                    self._replace(slot, process, reason="crash")
                    if attempt == 2:
                        raise
                    produced.unlink(missing_ok=True)
                    continue
                except WarmPathError as exc:
                    if isinstance(exc, LoadRefused):
                        self._count("refused")
                    if process.alive():
                        self._release(slot, process)
                    else:
                        self._replace(slot, process, reason="crash")
                    raise
                except BaseException:
                    self._replace(slot, process, reason="interrupted")
                    raise
                self._release(slot, process)
                break
            if not produced.is_file() or produced.stat().st_size == 0:
                raise WarmPathError("warm LibreOffice produced no pdf", path=src)
            check_pdf(produced, src=src, stderr="(warm pool)")
            self._count("conversions")
            dest = out_dir / f"{src.stem}.pdf"
            shutil.move(str(produced), dest)
            return dest
        finally:
            shutil.rmtree(job, ignore_errors=True)

    def _count(self, key: str) -> None:
        with self._cond:
            self.stats[key] += 1

    # -- state -----------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """What /v1/health shows: processes running, busy, starting, and the counters."""
        with self._cond:
            return {
                "size": len(self._slots),
                "processes": sum(s.process is not None for s in self._slots),
                "busy": sum(s.busy for s in self._slots),
                "starting": sum(s.starting for s in self._slots),
                **self.stats,
            }

    def office_pids(self) -> list[int]:
        """Process-group ids of the running processes (for tests and the bench)."""
        with self._cond:
            return [s.process.pid for s in self._slots if s.process is not None]
