"""``serve``: run the app under uvicorn with a warm LibreOffice pool, until SIGTERM/SIGINT.

Shutdown (SIGTERM or Ctrl-C): uvicorn stops accepting connections and lets requests in
flight finish for up to ``shutdown_grace_s``; the app's lifespan then waits for work that
outlived its request (a 504) for the same time; last, the pool's LibreOffice processes are
killed with their process groups and every request directory is gone. Nothing is left,
and the exit status is 0.
"""

from __future__ import annotations

import logging
import signal

from ..errors import ArtifactCheckError, MissingDependency
from ..extractors.render.pool import PoolSettings
from ..extractors.render.renderer import LibreOfficeRenderer, Renderer
from ..extractors.render.selection import use_renderer
from ..extractors.render.warm import WarmRenderer
from .settings import ServiceSettings

__all__ = ["serve"]

log = logging.getLogger("artifactcheck.service")


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)


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
    try:
        app = create_app(settings, renderer=warm)
        config = uvicorn.Config(
            app, host=settings.host, port=settings.port, log_level="info",
            timeout_graceful_shutdown=int(settings.shutdown_grace_s), lifespan="on", access_log=False,
        )
        log.info("artifactcheck service on http://%s:%d (renderer: %s)", settings.host, settings.port,
                 f"warm pool of {settings.renderers}" if warm is not None else "cold")
        # uvicorn handles SIGTERM/SIGINT itself (graceful shutdown), then re-raises the
        # signal to the handler that was there before: ours turns it into a normal exit, so
        # the pool below is closed and its work directory removed before the process ends.
        previous = signal.signal(signal.SIGTERM, _exit_cleanly)
        try:
            with use_renderer(renderer):
                uvicorn.Server(config).run()
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
    finally:
        if warm is not None:
            warm.close()
        log.info("artifactcheck service stopped")
