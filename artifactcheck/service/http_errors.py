"""Errors on the wire: one body shape, ``{"error": {"type": ..., "message": ...}}``, and one
status per kind of fault. ``type`` is the ArtifactCheckError class name (``CorruptArtifact``,
``RubricError``, ...) or one of the service's own (``UploadTooLarge``, ``ServerBusy``,
``DeadlinePassed``, ``Unauthorized``, ``InvalidRequest``, ``InternalError``). No traceback is
ever sent; an unexpected exception is logged on the server and answered 500 by type name.
"""

from __future__ import annotations

from pydantic import BaseModel

from ..errors import (
    ArtifactCheckError,
    ArtifactTooLarge,
    GoogleAPIError,
    MissingDependency,
    RendererBusy,
    RenderTimeout,
)

__all__ = ["ErrorBody", "ErrorDetail", "ServiceError", "status_for"]

RETRY_AFTER_S = 5


class ErrorDetail(BaseModel):
    type: str
    message: str


class ErrorBody(BaseModel):
    """Every non-2xx answer of the API."""

    error: ErrorDetail


class ServiceError(Exception):
    """A fault of the request itself (not of the library): status, type and message."""

    def __init__(self, status: int, kind: str, message: str, *, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.headers = headers or {}


def status_for(exc: ArtifactCheckError) -> tuple[int, dict[str, str]]:
    """HTTP status (and headers) for a library error: the input's fault is 422, except an
    artifact over one of the loading budgets (``artifactcheck.limits``), which is 413 like
    an upload over the size limit; a full pool 503 with Retry-After; a render past its
    timeout 504; a missing tool 500 (the server's fault); a Google API failure 502."""
    if isinstance(exc, ArtifactTooLarge):
        return 413, {}
    if isinstance(exc, RendererBusy):
        return 503, {"Retry-After": str(RETRY_AFTER_S)}
    if isinstance(exc, RenderTimeout):
        return 504, {}
    if isinstance(exc, MissingDependency):
        return 500, {}
    if isinstance(exc, GoogleAPIError):
        return 502, {}
    return 422, {}
