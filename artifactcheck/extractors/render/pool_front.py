"""One warm pool, shared with other processes on this machine (batch workers).

The process that owns the pool serves its ``convert`` over XML-RPC on 127.0.0.1 with a
random token (:class:`PoolFront`); a worker process renders through
:class:`RemoteRenderer`, which the coordinator announces in the worker's environment
(``ARTIFACTCHECK_RENDER_POOL`` and ``ARTIFACTCHECK_RENDER_POOL_TOKEN``). Only paths travel:
both sides see the same file system. Typed errors cross as the fault text
``<ErrorName>\\n<message>`` and are raised again under the same class on the other side.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import xmlrpc.client
from pathlib import Path
from socketserver import ThreadingMixIn
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

from ... import errors
from ...errors import ArtifactCheckError, RenderError
from .lo_process import TimeoutTransport
from .pool_env import POOL_ENV, POOL_TOKEN_ENV
from .renderer import Renderer

__all__ = ["POOL_ENV", "POOL_TOKEN_ENV", "PoolFront", "RemoteRenderer"]

_RPC_MARGIN_S = 180.0  # on top of the conversion timeout: waiting for a free process, restarts


class _ThreadingServer(ThreadingMixIn, SimpleXMLRPCServer):
    daemon_threads = True


class _QuietHandler(SimpleXMLRPCRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class PoolFront:
    """Serves ``renderer.convert`` to other local processes until :meth:`close`."""

    def __init__(self, renderer: Renderer) -> None:
        self.renderer = renderer
        self.token = secrets.token_hex(16)
        self._server = _ThreadingServer(("127.0.0.1", 0), requestHandler=_QuietHandler, allow_none=True, logRequests=False)
        self._server.register_function(self._describe, "describe")  # type: ignore[arg-type]
        self._server.register_function(self._convert, "convert")  # type: ignore[arg-type]
        self.address = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, name="render-pool-front", daemon=True)
        self._thread.start()

    def env(self) -> dict[str, str]:
        """What a child process needs in its environment to render through this pool."""
        return {POOL_ENV: self.address, POOL_TOKEN_ENV: self.token}

    def _check(self, token: str) -> None:
        if not hmac.compare_digest(token.encode(), self.token.encode()):
            raise PermissionError("RenderError\nbad render pool token")

    def _describe(self, token: str) -> list[str]:
        self._check(token)
        return [self.renderer.name, self.renderer.version, self.renderer.options]

    def _convert(self, token: str, src: str, out_dir: str, target: str, timeout: float) -> str:
        self._check(token)
        try:
            return str(self.renderer.convert(Path(src), Path(out_dir), target=target, timeout=timeout))
        except ArtifactCheckError as exc:
            raise RuntimeError(f"{type(exc).__name__}\n{exc}") from None
        except Exception as exc:  # noqa: BLE001 - reported to the worker as a RenderError
            raise RuntimeError(f"RenderError\n{type(exc).__name__}: {exc}") from None

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


class RemoteRenderer:
    """A :class:`Renderer` that converts through a :class:`PoolFront` in another process."""

    def __init__(self, address: str, token: str) -> None:
        self.address = address
        self.token = token
        self._described: list[str] | None = None

    def _proxy(self, timeout: float) -> xmlrpc.client.ServerProxy:
        return xmlrpc.client.ServerProxy(self.address, transport=TimeoutTransport(timeout), allow_none=True)

    def _describe(self) -> list[str]:
        if self._described is None:
            try:
                self._described = [str(v) for v in self._proxy(30).describe(self.token)]  # type: ignore[union-attr]
            except (OSError, xmlrpc.client.Error) as exc:
                raise RenderError(f"the render pool at {self.address} does not answer: {exc}") from None
        return self._described

    @property
    def name(self) -> str:
        return self._describe()[0]

    @property
    def version(self) -> str:
        return self._describe()[1]

    @property
    def options(self) -> str:
        return self._describe()[2]

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float = 120) -> Path:
        try:
            produced = self._proxy(timeout + _RPC_MARGIN_S).convert(self.token, str(src), str(out_dir), target, timeout)
        except xmlrpc.client.Fault as fault:
            raise _typed(str(fault.faultString), src) from None
        except (OSError, xmlrpc.client.Error) as exc:
            raise RenderError(f"the render pool at {self.address} failed: {type(exc).__name__}: {exc}", path=src) from None
        return Path(str(produced))


def _typed(fault: str, src: Path) -> ArtifactCheckError:
    """The error a PoolFront fault stands for (RenderError when the name is unknown)."""
    text = fault.split(":", 1)[1] if fault.startswith("<class") and ":" in fault else fault
    name, _, message = text.strip().partition("\n")
    cls = getattr(errors, name.strip(), None)
    if isinstance(cls, type) and issubclass(cls, RenderError):
        return cls(message)
    return RenderError(message or text, path=src)
