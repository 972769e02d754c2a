"""``serve``: run the app under uvicorn with a warm LibreOffice pool, until SIGTERM/SIGINT.

Shutdown (SIGTERM or Ctrl-C): uvicorn stops accepting connections and lets requests in
flight finish for up to ``shutdown_grace_s``; the app's lifespan then waits for work that
outlived its request (a 504) for the same time; last, the pool's LibreOffice processes are
killed with their process groups and every request directory is gone. Nothing is left,
and the exit status is 0.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
import time
from typing import Any

from ..errors import ArtifactCheckError, MissingDependency
from ..extractors.render.pool import PoolSettings
from ..extractors.render.process_group import live_processes
from ..extractors.render.renderer import LibreOfficeRenderer, Renderer
from ..extractors.render.selection import use_renderer
from ..extractors.render.warm import WarmRenderer
from .settings import ServiceSettings

__all__ = ["serve"]

log = logging.getLogger("artifactcheck.service")


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)


def _kill_child_groups() -> int:
    """SIGKILL the process group of every child we started in its own session (cold
    soffice runs, a warm pool's fallback): after the grace, work still running is
    abandoned, and a cold LibreOffice would otherwise keep the process alive (Python
    joins the worker threads at exit) until its own render timeout. Linux /proc only."""
    me, killed = os.getpid(), 0
    own_group = os.getpgrp()
    for proc in live_processes():
        if proc.ppid == me and proc.pgrp == proc.pid and proc.pgrp != own_group:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pgrp, signal.SIGKILL)
                killed += 1
    return killed


def _end_abandoned_work(gate: Any, seconds: float) -> None:
    """Until the request threads are done (at most ``seconds``), kill the LibreOffice
    they wait on; a thread whose render was killed ends with a RenderError at once."""
    deadline = time.monotonic() + seconds
    while True:
        killed = _kill_child_groups()
        if killed:
            log.warning("killed %d LibreOffice process group(s) of abandoned work", killed)
        if not gate.pending or time.monotonic() >= deadline:
            return
        time.sleep(0.2)


def serve(settings: ServiceSettings) -> None:
    """Run the service in the foreground (blocks until it is told to stop)."""
    settings.check()
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        raise MissingDependency(f"the service's packages ({exc.name})", hint='pip install "artifactcheck[service]"') from None
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    renderer: Renderer
    warm: WarmRenderer | None = None
    if settings.renderers > 0:
        try:
            warm = WarmRenderer.start(PoolSettings(size=settings.renderers))
            renderer = warm
        except ArtifactCheckError as exc:
            log.warning("no warm LibreOffice pool (%s); every .docx renders cold", exc)
            renderer = LibreOfficeRenderer()
    else:
        renderer = LibreOfficeRenderer()
    app = None
    try:
        app = create_app(settings, renderer=warm)
        gate = app.state.gate

        class _Server(uvicorn.Server):
            async def shutdown(self, sockets: Any = None) -> None:
                gate.begin_stop()  # requests past the grace get a JSON 503 before uvicorn cancels them
                await super().shutdown(sockets)

        config = uvicorn.Config(
            app, host=settings.host, port=settings.port, log_level="info",
            # uvicorn cancels what is left a little after the gate answered it
            timeout_graceful_shutdown=math.ceil(settings.shutdown_grace_s) + 2, lifespan="on", access_log=False,
        )
        log.info("artifactcheck service on http://%s:%d (renderer: %s)", settings.host, settings.port,
                 f"warm pool of {settings.renderers}" if warm is not None else "cold")
        # uvicorn handles SIGTERM/SIGINT itself (graceful shutdown), then re-raises the
        # signal to the handler that was there before: ours turns it into a normal exit, so
        # the pool below is closed and its work directory removed before the process ends.
        previous = signal.signal(signal.SIGTERM, _exit_cleanly)
        try:
            with use_renderer(renderer):
                _Server(config).run()
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        if warm is not None:
            warm.close()
        if app is not None:
            _end_abandoned_work(app.state.gate, settings.shutdown_grace_s + 10)
        log.info("artifactcheck service stopped")
