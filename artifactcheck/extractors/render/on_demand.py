"""``OnDemandWarmRenderer``: a warm pool that starts at the first conversion it is asked
for and lives until :meth:`close` (a batch worker's lifetime, design/batch.md).

A long-lived worker may score thousands of rows and never render one (every render
cached, or only sheets and PDFs): starting LibreOffice up front would cost each worker
~2 s and ~200 MB for nothing. Cache lookups only read ``name``/``version``/``options``,
which are the cold renderer's (the warm one shares its cache key), so a cache hit never
starts the pool.

``strict=False`` (``--renderer auto``): when the pool cannot start, every conversion is
done cold from then on, and the reason logged once. ``strict=True`` (``--renderer
warm``): the start-up error is raised to each conversion instead.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from ...errors import ArtifactCheckError, RenderError
from .pool import PoolSettings
from .renderer import LibreOfficeRenderer
from .warm import WarmRenderer

__all__ = ["OnDemandWarmRenderer"]

log = logging.getLogger(__name__)


class OnDemandWarmRenderer:
    """A :class:`~.renderer.Renderer`; thread-safe. ``close()`` ends the pool (every
    LibreOffice process group it started) and refuses later conversions."""

    def __init__(self, settings: PoolSettings, *, tmp_root: Path | None = None, strict: bool = False) -> None:
        self.settings = settings
        self.tmp_root = tmp_root
        self.strict = strict
        self.cold = LibreOfficeRenderer(tmp_root=tmp_root)
        self._lock = threading.Lock()
        self._warm: WarmRenderer | None = None
        self._start_error: ArtifactCheckError | None = None
        self._closed = False

    @property
    def name(self) -> str:
        return self.cold.name

    @property
    def version(self) -> str:
        return self.cold.version

    @property
    def options(self) -> str:
        return self.cold.options

    @property
    def started(self) -> bool:
        """True once the pool runs (tests, logs)."""
        with self._lock:
            return self._warm is not None

    def _pool(self) -> WarmRenderer | None:
        with self._lock:  # held during start-up: a second caller waits for the same pool
            if self._closed:
                raise RenderError("the batch worker's renderer is closed (the worker is shutting down)")
            if self._warm is None and self._start_error is None:
                try:
                    self._warm = WarmRenderer.start(self.settings, tmp_root=self.tmp_root)
                except ArtifactCheckError as exc:
                    self._start_error = exc
                    log.warning("no warm LibreOffice pool on this worker (%s); rendering cold", exc)
            if self._warm is None and self.strict and self._start_error is not None:
                raise self._start_error
            return self._warm

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float = 120) -> Path:
        """Convert through the pool (started now if it is not yet), else cold."""
        warm = self._pool()
        if warm is None:
            return self.cold.convert(src, out_dir, target=target, timeout=timeout)
        return warm.convert(src, out_dir, target=target, timeout=timeout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            warm, self._warm = self._warm, None
        if warm is not None:
            warm.close()
