"""Uploaded files: a per-request directory, safe names, the body-size limit, asset zips.

Every request that carries files gets its own directory (``artifactcheck-req-*`` in the
system temp dir); the handler removes it on every path, including errors, 504s and client
disconnects (the worker thread that uses it removes it when it ends). File names are
reduced to their last component with unsafe characters replaced, so an upload named
``../../etc/passwd`` lands as ``passwd`` inside the directory.
"""

from __future__ import annotations

import asyncio
import lzma
import re
import shutil
import tempfile
import time
import zipfile
import zlib
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from pathlib import Path, PurePosixPath
from typing import Any

from .http_errors import ServiceError

__all__ = ["BodyLimit", "extract_assets_zip", "remove_dir", "request_dir", "safe_name", "safe_relative"]

_UNSAFE = re.compile(r"[^A-Za-z0-9._ -]+")
_ZIP_MAX_FILES = 1000
_CHUNK = 1 << 20

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def request_dir() -> Path:
    return Path(tempfile.mkdtemp(prefix="artifactcheck-req-"))


def safe_name(name: str | None, default: str) -> str:
    """The last path component of an uploaded file's name, made safe (never empty, never
    a dot name)."""
    base = PurePosixPath((name or "").replace("\\", "/")).name
    cleaned = _UNSAFE.sub("_", base).strip(" .")
    return cleaned[:120] or default


def safe_relative(name: str | None, default: str) -> str:
    """A relative path made of safe components: ``..``, ``.``, empty and absolute parts
    are dropped, so the result always stays inside the folder it is joined to."""
    parts = [safe_name(p, "") for p in (name or "").replace("\\", "/").split("/") if p not in ("", ".", "..")]
    kept = [p for p in parts if p][-8:]
    return "/".join(kept) or default


def extract_assets_zip(archive: Path, dest: Path, *, max_bytes: int) -> None:
    """Unpack a zip of reference images into ``dest``: members keep only their file name
    (no directories, no absolute or ``..`` paths), at most 1000 files and ``max_bytes``
    uncompressed in total (counted while reading, not trusted from the header)."""
    try:
        zf = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ServiceError(422, "InvalidRequest", f"assets: not a zip file: {exc}") from None
    with zf:
        members = [m for m in zf.infolist() if not m.is_dir()]
        if len(members) > _ZIP_MAX_FILES:
            raise ServiceError(413, "UploadTooLarge", f"assets zip holds {len(members)} files (limit {_ZIP_MAX_FILES})")
        total = 0
        for member in members:
            target = dest / safe_name(member.filename, "asset")
            with open(target, "wb") as out:
                for chunk in _member_chunks(zf, member):
                    total += len(chunk)
                    if total > max_bytes:
                        raise ServiceError(413, "UploadTooLarge", f"assets zip unpacks to more than {max_bytes} bytes")
                    out.write(chunk)


# What zipfile raises for a member it cannot inflate: an unknown compression method
# (NotImplementedError), the encryption flag (RuntimeError "password required"), corrupt
# deflate/bzip2/LZMA data (zlib.error, OSError, lzma.LZMAError), a bad CRC or a short
# member (BadZipFile, EOFError). All are the upload's fault: a 422, never a 500.
_MEMBER_ERRORS = (zipfile.BadZipFile, NotImplementedError, RuntimeError, zlib.error, lzma.LZMAError, EOFError,
                  OSError, ValueError)


def _member_chunks(zf: zipfile.ZipFile, member: zipfile.ZipInfo) -> Iterator[bytes]:
    """The inflated bytes of ``member``, 1 MiB at a time; a member that cannot be read is
    an InvalidRequest naming it."""
    try:
        with zf.open(member) as src:
            while chunk := src.read(_CHUNK):
                yield chunk
    except _MEMBER_ERRORS as exc:
        name = safe_name(member.filename, "asset")
        raise ServiceError(422, "InvalidRequest", f"assets: cannot unpack {name}: {_why(exc)}") from None


def _why(exc: BaseException) -> str:
    if isinstance(exc, NotImplementedError):
        return "unsupported compression method"
    if isinstance(exc, RuntimeError):  # zipfile's "... is encrypted, password required"
        return "the member is encrypted (password-protected)"
    if isinstance(exc, (zlib.error, lzma.LZMAError, OSError, EOFError)):
        return f"corrupt compressed data ({exc})"
    return str(exc)


def remove_dir(path: Path | None) -> None:
    if path is not None:
        shutil.rmtree(path, ignore_errors=True)


class BodyLimit:
    """ASGI middleware: a request body over ``max_bytes`` gets 413 — at once when
    Content-Length says so, else as soon as the streamed body passes the limit. A body
    that stops arriving gets 408: no bytes for ``idle_s``, or not complete within
    ``deadline_s`` of the request's arrival (a client that declared 100 kB and sent 50
    held its request, and a drain on SIGTERM, forever)."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, idle_s: float = 60.0, deadline_s: float = 300.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.idle_s = idle_s
        self.deadline_s = deadline_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await _too_large(send, self.max_bytes)
            return
        seen = 0
        body_done = False
        arrived = time.monotonic()

        async def limited() -> Message:
            nonlocal seen, body_done
            if body_done:  # only disconnect listeners wait now: they may wait as long as they like
                return await receive()
            message = await self._next_chunk(receive, arrived)
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise ServiceError(413, "UploadTooLarge", f"request body exceeds {self.max_bytes} bytes")
                body_done = not message.get("more_body", False)
            return message

        await self.app(scope, limited, send)

    async def _next_chunk(self, receive: Receive, arrived: float) -> Message:
        left = self.deadline_s - (time.monotonic() - arrived)
        wait = max(0.0, min(self.idle_s, left))
        try:
            return await asyncio.wait_for(receive(), wait)
        except TimeoutError:
            why = f"no bytes for {self.idle_s:g} s" if wait >= self.idle_s else f"not complete within the {self.deadline_s:g} s deadline"
            raise ServiceError(408, "RequestTimeout", f"the request body stopped arriving ({why})",
                               headers={"Connection": "close"}) from None


async def _too_large(send: Send, limit: int) -> None:
    import json

    body = json.dumps({"error": {"type": "UploadTooLarge", "message": f"request body exceeds {limit} bytes"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})
