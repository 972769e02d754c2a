"""``artifactcheck serve``: the library over HTTP (FastAPI on uvicorn), with a warm
LibreOffice pool shared by every request. See design/service.md.

- :func:`create_app` builds the ASGI app (tests and embedding);
- :func:`serve` runs it with its pool until SIGTERM/SIGINT;
- :class:`ServiceSettings` holds the limits, each with a CLI flag.
"""

from .app import create_app
from .server import serve
from .settings import ServiceSettings

__all__ = ["ServiceSettings", "create_app", "serve"]
