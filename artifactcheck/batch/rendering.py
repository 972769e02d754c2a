"""The renderer a batch uses: by default a warm LibreOffice pool for the batch's duration
when some row still has a .docx to render (cold starts are ~85% of a .docx's time).

``--renderer`` (or ``ARTIFACTCHECK_RENDERER``): ``auto`` (the default: warm when a row
needs rendering and the pool can start, else cold), ``warm`` (always; an error when the
pool cannot start), ``cold`` (one soffice per conversion). The pool has
``min(jobs, rows to render)`` processes and lives in the coordinating process; with
``--jobs`` > 1 the workers render through it (``pool_front.py``), so a batch never runs
more LibreOffice processes than it has jobs.
"""

from __future__ import annotations

import contextlib
import logging
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from ..errors import ArtifactCheckError
from ..extractors.render.cache import cache_dir, cache_key
from ..extractors.render.pool import PoolSettings
from ..extractors.render.pool_front import POOL_ENV, PoolFront
from ..extractors.render.renderer import LibreOfficeRenderer
from ..extractors.render.selection import RENDERER_ENV, RENDERER_MODES, use_renderer
from ..extractors.render.warm import WarmRenderer

__all__ = ["batch_renderer", "files_to_render"]

log = logging.getLogger(__name__)


def files_to_render(artifacts: Iterable[str]) -> int:
    """How many of ``artifacts`` are .docx files (by content) without a render-cache entry."""
    from ..extractors.package.inspection import inspect_package

    key_renderer = LibreOfficeRenderer()  # the warm renderer shares its cache key
    count = 0
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
            count += 1
    return count


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
    if chosen == "auto" and pending == 0:
        yield {}
        return
    size = max(1, jobs) if chosen == "warm" else max(1, min(jobs, pending))
    try:
        warm = WarmRenderer.start(PoolSettings(size=size))
    except ArtifactCheckError as exc:
        if chosen == "warm":
            raise
        log.warning("no warm LibreOffice pool (%s); rendering cold", exc)
        yield {}
        return
    front = PoolFront(warm) if jobs > 1 else None
    try:
        with use_renderer(warm):
            yield front.env() if front is not None else {}
    finally:
        if front is not None:
            front.close()
        warm.close()
