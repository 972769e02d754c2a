"""``WarmRenderer``: the warm pool first, the cold path when the warm path cannot.

A :class:`Renderer` like the cold one, with the **same name, version and options**, so
both share render-cache entries: the warm path exports through the same filter with the
same FilterData, and a test over the .docx corpus compares every line box of both
renders (design/rendering.md, "Warm pool").

The warm path is not a drop-in replacement everywhere: measured here, LibreOffice driven
over UNO crashed on some .docx with comments and refused to load others that a cold
``soffice --convert-to`` converts. Such a conversion (``WarmPathError``: refused, crashed
twice, pool not running) is done again by the cold renderer and counted in
``fallbacks``, so no document that renders cold stops rendering. A timeout is not
retried cold (the cold path would most likely hang as long again) and neither is
``RendererBusy`` (starting more LibreOffice than the pool allows is what the pool is
there to prevent).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any, Self

from .lo_process import WarmPathError
from .pool import PoolSettings, WarmPool
from .renderer import LibreOfficeRenderer

__all__ = ["WarmRenderer"]

log = logging.getLogger(__name__)


class WarmRenderer:
    """A started :class:`WarmPool` with the cold renderer behind it.

    ``WarmRenderer.start(PoolSettings(size=2))`` starts the pool; ``close()`` (or the
    ``with`` block) ends every LibreOffice it started."""

    def __init__(self, pool: WarmPool, *, cold: LibreOfficeRenderer | None = None) -> None:
        self.pool = pool
        self.cold = cold or LibreOfficeRenderer(tagged=pool.tagged, tmp_root=pool.tmp_root)
        self._lock = threading.Lock()
        self.fallbacks = 0
        self.fallback_reasons: dict[str, int] = {}

    @classmethod
    def start(cls, settings: PoolSettings | None = None, *, tagged: bool = False, tmp_root: Path | None = None) -> WarmRenderer:
        """Start a pool (returns once one process is ready) and wrap it."""
        return cls(WarmPool(settings, tagged=tagged, tmp_root=tmp_root).start())

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.pool.close()

    @property
    def name(self) -> str:
        return self.cold.name

    @property
    def version(self) -> str:
        return self.cold.version

    @property
    def options(self) -> str:
        return self.cold.options

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float = 120) -> Path:
        """Convert through the pool; on a WarmPathError, through a cold soffice."""
        if target != "pdf":
            return self.cold.convert(src, out_dir, target=target, timeout=timeout)
        try:
            return self.pool.convert(src, out_dir, target=target, timeout=timeout)
        except WarmPathError as exc:
            kind = type(exc).__name__
            with self._lock:
                self.fallbacks += 1
                self.fallback_reasons[kind] = self.fallback_reasons.get(kind, 0) + 1
            log.warning("warm render failed (%s), rendering cold: %s", kind, exc)
            return self.cold.convert(src, out_dir, target=target, timeout=timeout)

    def state(self) -> dict[str, Any]:
        """The pool's state plus the cold fallbacks (``/v1/health``, ``/metrics``)."""
        with self._lock:
            return {**self.pool.state(), "fallbacks": self.fallbacks, "fallback_reasons": dict(self.fallback_reasons)}
