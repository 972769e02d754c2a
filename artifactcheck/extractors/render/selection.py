"""Which renderer ``render_pdf`` uses when the caller names none.

In order:

1. a renderer installed in this process with :func:`use_renderer` (the HTTP service
   installs its warm pool; ``--renderer warm`` and ``batch`` install theirs);
2. ``ARTIFACTCHECK_RENDERER=cold``: a cold ``soffice`` per conversion, whatever else is set;
3. a pool shared by another process (``ARTIFACTCHECK_RENDER_POOL``, set by ``batch`` for
   its workers): :class:`~.pool_front.RemoteRenderer`;
4. ``ARTIFACTCHECK_RENDERER=warm``: a warm pool started once for this process
   (``ARTIFACTCHECK_RENDERERS`` processes, default 1), ended at exit;
5. otherwise the cold renderer.

The warm renderer has the cold one's name, version and options, so the render cache is
shared: switching modes never re-renders a cached file.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING

from ...errors import ArtifactCheckError
from .pool_env import POOL_ENV, POOL_TOKEN_ENV
from .renderer import LibreOfficeRenderer, Renderer

if TYPE_CHECKING:
    from .warm import WarmRenderer

# The pool modules (xmlrpc client and server, http.server, logging: ~0.05 s of CPU) are
# imported by the branches that start or reach a pool; a cold conversion, or none, does
# not pay for them (design/startup.md).

__all__ = ["RENDERER_ENV", "RENDERER_MODES", "default_renderer", "renderer_mode", "use_renderer"]

RENDERER_ENV = "ARTIFACTCHECK_RENDERER"
POOL_SIZE_ENV = "ARTIFACTCHECK_RENDERERS"
RENDERER_MODES = ("auto", "cold", "warm")

_lock = threading.Lock()
_installed: list[Renderer] = []
_process_pool: WarmRenderer | None = None


def _env_mode() -> str:
    mode = os.environ.get(RENDERER_ENV, "auto").strip().lower() or "auto"
    if mode not in RENDERER_MODES:
        raise ArtifactCheckError(f"{RENDERER_ENV}={mode!r}: expected one of {', '.join(RENDERER_MODES)}")
    return mode


def _pool_size(default: int = 1) -> int:
    raw = os.environ.get(POOL_SIZE_ENV, "")
    try:
        return max(1, int(raw)) if raw else default
    except ValueError:
        raise ArtifactCheckError(f"{POOL_SIZE_ENV}={raw!r}: expected a whole number") from None


def default_renderer() -> Renderer:
    """The renderer for this call (see the module docstring for the order)."""
    global _process_pool
    with _lock:
        if _installed:
            return _installed[-1]
    mode = _env_mode()
    if mode == "cold":
        return LibreOfficeRenderer()
    if os.environ.get(POOL_ENV):
        from .pool_front import RemoteRenderer

        return RemoteRenderer(os.environ[POOL_ENV], os.environ.get(POOL_TOKEN_ENV, ""))
    if mode == "warm":
        from .pool import PoolSettings
        from .warm import WarmRenderer

        with _lock:
            if _process_pool is None:
                _process_pool = WarmRenderer.start(PoolSettings(size=_pool_size()))
                atexit.register(_process_pool.close)
            return _process_pool
    return LibreOfficeRenderer()


@contextlib.contextmanager
def use_renderer(renderer: Renderer) -> Iterator[Renderer]:
    """Make ``renderer`` this process's default inside the block (blocks nest)."""
    with _lock:
        _installed.append(renderer)
    try:
        yield renderer
    finally:
        with _lock:
            _installed.remove(renderer)


@contextlib.contextmanager
def renderer_mode(mode: str | None, *, size: int = 1) -> Iterator[Renderer | None]:
    """What a CLI command's ``--renderer`` does: ``warm`` starts a pool of ``size``
    processes for the block (and ends it after); ``cold`` forces one soffice per
    conversion; ``auto`` or None leaves the choice to :func:`default_renderer`."""
    chosen = (mode or "auto").lower()
    if chosen not in RENDERER_MODES:
        raise ArtifactCheckError(f"--renderer {mode!r}: expected one of {', '.join(RENDERER_MODES)}")
    if chosen == "auto":
        yield None
        return
    renderer: Renderer
    if chosen == "cold":
        renderer = LibreOfficeRenderer()
        with use_renderer(renderer):
            yield renderer
        return
    from .pool import PoolSettings
    from .warm import WarmRenderer

    warm = WarmRenderer.start(PoolSettings(size=max(1, size)))
    try:
        with use_renderer(warm):
            yield warm
    finally:
        warm.close()
