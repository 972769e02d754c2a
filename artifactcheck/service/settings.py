"""The service's settings: where it listens, who may call it, and its limits."""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from ..errors import ArtifactCheckError

__all__ = ["TOKEN_ENV", "ServiceSettings"]

from ..client import TOKEN_ENV


@dataclass(frozen=True)
class ServiceSettings:
    """Defaults are for one evaluator machine; every field has a ``serve`` flag."""

    host: str = "127.0.0.1"
    port: int = 8000
    renderers: int = 2
    """Warm LibreOffice processes (0: a cold soffice per conversion)."""
    token: str | None = None
    """Bearer token every request except /v1/health must carry; required off loopback."""
    max_upload_mb: float = 50.0
    """Largest request body (all uploaded files together), MiB; more gets 413."""
    max_concurrent: int = 2
    """Scorings/extractions running at once (threads; the pool bounds LibreOffice)."""
    max_queue: int = 16
    """Requests waiting for a slot; one more gets 503 with Retry-After."""
    deadline_s: float = 300.0
    """Per-request deadline (queueing included); past it the answer is 504."""
    shutdown_grace_s: float = 30.0
    """On SIGTERM, how long requests in flight may take to finish."""
    upload_idle_s: float = 60.0
    """A request body that sends no bytes for this long gets 408 (a stalled client must
    not hold its request, or a shutdown drain, forever)."""

    def check(self) -> ServiceSettings:
        """Refuse settings that would be unsafe or cannot work."""
        if not _is_loopback(self.host) and not self.token:
            raise ArtifactCheckError(
                f"binding to {self.host} needs a bearer token (--token-file or {TOKEN_ENV}); "
                "without one the service listens on 127.0.0.1 only"
            )
        for name in ("max_upload_mb", "deadline_s", "upload_idle_s"):
            if getattr(self, name) <= 0:
                raise ArtifactCheckError(f"{name} must be positive")
        if self.max_concurrent < 1 or self.max_queue < 0 or self.renderers < 0:
            raise ArtifactCheckError("max_concurrent >= 1, max_queue >= 0 and renderers >= 0 are required")
        return self


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
