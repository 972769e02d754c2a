"""The renderer a batch uses: by default a warm LibreOffice pool for the batch's duration
when some row still has a .docx to render (cold starts are ~85% of a .docx's time).

``--renderer`` (or ``ARTIFACTCHECK_RENDERER``): ``auto`` (the default: warm when a row
needs rendering and the pool can start, else cold), ``warm`` (always; an error when the
pool cannot start), ``cold`` (one soffice per conversion). The pool has
``min(jobs, rows to render)`` processes and lives in the coordinating process; with
``--jobs`` > 1 the workers render through it (``pool_front.py``), so a batch never runs
more LibreOffice processes than it has jobs. With ``--jobs 1`` the pool has up to two
processes and renders the coming rows ahead while the current one is scored.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import ArtifactCheckError
from ..extractors.render.cache import cache_dir, cache_key, render_pdf
from ..extractors.render.pool import PoolSettings
from ..extractors.render.pool_front import POOL_ENV, PoolFront
from ..extractors.render.renderer import LibreOfficeRenderer
from ..extractors.render.selection import RENDERER_ENV, RENDERER_MODES, use_renderer
from ..extractors.render.warm import WarmRenderer

__all__ = ["batch_renderer", "files_to_render"]

log = logging.getLogger(__name__)
BATCH_ACQUIRE_TIMEOUT_S = 300.0


def files_to_render(artifacts: Iterable[str]) -> list[Path]:
    """Those of ``artifacts`` that are .docx files (by content) without a render-cache
    entry, in order, each once."""
    from ..extractors.package.inspection import inspect_package

    key_renderer = LibreOfficeRenderer()  # the warm renderer shares its cache key
    pending: dict[str, Path] = {}
    for artifact in artifacts:
        path = Path(artifact)
        if not path.is_file():
            continue
        try:
            if inspect_package(path).format != "docx":
                continue
            key = cache_key(path, key_renderer)
        except ArtifactCheckError:
            continue  # a broken file is scored as such, without rendering
        if not (cache_dir() / key[:2] / key).is_dir():
            pending.setdefault(key, path)
    return list(pending.values())


class _RenderAhead:
    """With ``--jobs 1`` the batch scores in this process, one row at a time: ``threads``
    threads render the coming .docx rows through the pool meanwhile, so LibreOffice and
    the Python extraction run side by side. The first thread goes in row order (the
    scorer's next file is ready first); the others take the largest files first, so a
    long document renders while the small ones before it are scored. Each file is taken
    once; ``render_pdf`` lets the scorer wait for a render in flight instead of starting
    a second one."""

    def __init__(self, paths: list[Path], renderer: WarmRenderer, *, threads: int) -> None:
        self.renderer = renderer
        self.stop = threading.Event()
        largest_first = sorted(paths, key=lambda p: p.stat().st_size, reverse=True)
        self._orders = [paths, largest_first]
        self._taken: set[Path] = set()
        self._lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self._run, args=(self._orders[min(i, 1)],), name=f"batch-render-ahead-{i}", daemon=True)
            for i in range(threads)
        ]
        for thread in self.threads:
            thread.start()

    def _next(self, order: list[Path]) -> Path | None:
        with self._lock:
            for path in order:
                if path not in self._taken:
                    self._taken.add(path)
                    return path
            return None

    def _run(self, order: list[Path]) -> None:
        while not self.stop.is_set() and (path := self._next(order)) is not None:
            try:
                render_pdf(path, renderer=self.renderer)
            except ArtifactCheckError:
                continue  # the scorer renders it again and reports the error in its row
            except Exception:  # noqa: BLE001 - a pool closed under us at the end of the batch
                return

    def close(self) -> None:
        self.stop.set()

    def join(self, timeout: float) -> None:
        for thread in self.threads:
            thread.join(timeout=timeout)


@contextlib.contextmanager
def batch_renderer(mode: str | None, artifacts: list[str], *, jobs: int) -> Iterator[dict[str, str]]:
    """Install the batch's renderer for the block; yields the environment worker processes
    need (empty when they render on their own)."""
    chosen = (mode or os.environ.get(RENDERER_ENV) or "auto").lower()
    if chosen not in RENDERER_MODES:
        raise ArtifactCheckError(f"--renderer {chosen!r}: expected one of {', '.join(RENDERER_MODES)}")
    if chosen == "cold":
        with use_renderer(LibreOfficeRenderer()):
            yield {RENDERER_ENV: "cold"}
        return
    if chosen == "auto" and os.environ.get(POOL_ENV):
        yield {}  # someone else's pool is already announced to us and our workers
        return
    pending = files_to_render(artifacts)
    if chosen == "auto" and not pending:
        yield {}
        return
    # With --jobs 1 the pool renders ahead of the scorer: two processes keep both cores
    # busy while one long document renders (design/rendering.md, "Batch").
    wanted = max(jobs, 2) if jobs <= 1 else jobs
    size = wanted if chosen == "warm" else max(1, min(wanted, len(pending)))
    try:
        # A row may wait for both processes to finish long documents rendered ahead of
        # it: the acquisition deadline covers two full conversion timeouts.
        warm = WarmRenderer.start(PoolSettings(size=size, acquire_timeout=BATCH_ACQUIRE_TIMEOUT_S))
    except ArtifactCheckError as exc:
        if chosen == "warm":
            raise
        log.warning("no warm LibreOffice pool (%s); rendering cold", exc)
        yield {}
        return
    log.info("warm LibreOffice pool of %d for %d file(s) to render (%s)", size, len(pending),
             "rendering ahead" if jobs <= 1 else f"shared with {jobs} workers")
    front = PoolFront(warm) if jobs > 1 else None
    ahead = _RenderAhead(pending, warm, threads=size) if jobs <= 1 else None
    try:
        with use_renderer(warm):
            yield front.env() if front is not None else {}
    finally:
        if ahead is not None:
            ahead.close()
        if front is not None:
            front.close()
        warm.close()
        if ahead is not None:
            ahead.join(timeout=30)
