"""One warm LibreOffice process, seen from our side: start it, convert through it, measure
it, kill it. The pool (``pool.py``) decides when.

The process is ``lo_server.py`` run under the Python that has ``uno`` (it starts soffice
and speaks XML-RPC on 127.0.0.1) in its own session, so one ``killpg`` ends the server,
``oosplash`` and ``soffice.bin`` together. Its stdin is a pipe from us: if we die, even by
SIGKILL, it reads EOF and kills its own group, so no LibreOffice outlives the pool's owner.
Each process owns a profile directory (a copy of the cold renderer's template when there
is one): two LibreOffice instances on one profile hand work to each other.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import secrets
import select
import shutil
import socket
import subprocess
import time
import xmlrpc.client
from http.client import HTTPConnection
from pathlib import Path

from ...errors import MissingDependency, RenderError, RenderTimeout
from .lo_leftovers import remove_ipc_socket, soffice_environment
from .process_group import group_rss_bytes, kill_group

__all__ = ["LoadRefused", "OfficeCrashed", "WarmPathError", "WarmProcess", "find_uno_python"]

_SERVER_SCRIPT = Path(__file__).with_name("lo_server.py")
_PROFILE_IGNORE = shutil.ignore_patterns(".lock", "*.lock", "*.log")


class WarmPathError(RenderError):
    """The warm path could not convert a file that the cold path may still convert."""


class LoadRefused(WarmPathError):
    """LibreOffice, driven over UNO, would not load the file ("Could not load document")."""


class OfficeCrashed(WarmPathError):
    """LibreOffice died (or stopped answering) during a conversion."""


@functools.cache
def find_uno_python() -> str:
    """A Python interpreter that can ``import uno``: ``ARTIFACTCHECK_UNO_PYTHON``, else
    LibreOffice's bundled ``program/python``, else the system ``python3`` (Debian:
    ``apt-get install python3-uno``). Checked by running it once per process."""
    from .renderer import find_soffice

    candidates = [os.environ.get("ARTIFACTCHECK_UNO_PYTHON", "")]
    try:
        candidates.append(str(Path(find_soffice()).resolve().parent / "python"))
    except MissingDependency:
        pass
    candidates += ["/usr/bin/python3", shutil.which("python3") or ""]
    for exe in filter(None, candidates):
        if not os.access(exe, os.X_OK):
            continue
        try:
            ok = subprocess.run([exe, "-c", "import uno"], capture_output=True, timeout=30, check=False).returncode == 0
        except (OSError, subprocess.TimeoutExpired):
            continue
        if ok:
            return exe
    raise MissingDependency("LibreOffice's Python bridge (uno)", hint="apt-get install python3-uno")


@functools.cache
def unoserver_path() -> str:
    """The directory holding the ``unoserver`` package (appended to the uno Python's path)."""
    spec = importlib.util.find_spec("unoserver")
    if spec is None or not spec.submodule_search_locations:
        raise MissingDependency("unoserver", hint="pip install unoserver")
    return str(Path(next(iter(spec.submodule_search_locations))).parent)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class TimeoutTransport(xmlrpc.client.Transport):
    """XML-RPC over HTTP with a socket timeout (the stdlib transport has none)."""

    def __init__(self, timeout: float) -> None:
        super().__init__()
        self.timeout = timeout

    def make_connection(self, host: object) -> HTTPConnection:
        conn = super().make_connection(host)  # type: ignore[arg-type]
        conn.timeout = self.timeout
        return conn


class WarmProcess:
    """A running ``lo_server.py`` + soffice pair; ``conversions`` counts its successes."""

    def __init__(self, *, soffice: str, workdir: Path, template: Path | None, start_timeout: float = 60.0) -> None:
        self.soffice = soffice
        self.workdir = workdir
        self.template = template
        self.start_timeout = start_timeout
        self.conversions = 0
        self._token = secrets.token_hex(16)
        self._proc: subprocess.Popen[bytes] | None = None
        self._port = 0
        self.office_pid = 0

    @property
    def pid(self) -> int:
        """The server's pid, which is also the process group id."""
        return self._proc.pid if self._proc is not None else 0

    def start(self) -> None:
        """Start the process and wait until LibreOffice accepts conversions; RenderError
        (or MissingDependency) if it does not within ``start_timeout``."""
        uno_python = find_uno_python()
        self.workdir.mkdir(parents=True, exist_ok=True)
        profile = self.workdir / "profile"
        if self.template is not None and self.template.is_dir() and not profile.exists():
            try:
                shutil.copytree(self.template, profile, symlinks=True, ignore=_PROFILE_IGNORE)
            except OSError:
                shutil.rmtree(profile, ignore_errors=True)  # LibreOffice makes a fresh one
        env = soffice_environment(self.workdir, dict(os.environ, ARTIFACTCHECK_POOL_TOKEN=self._token))
        cmd = [
            uno_python, str(_SERVER_SCRIPT), "--soffice", self.soffice, "--profile", profile.as_uri(),
            "--uno-port", str(_free_port()), "--unoserver-path", unoserver_path(),
        ]
        with open(self.workdir / "server.log", "ab") as log:
            self._proc = subprocess.Popen(
                cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=env,
                cwd=self.workdir, start_new_session=True,
            )
        line = self._read_line(self.start_timeout)
        if not line.startswith("READY "):
            self.kill()
            tail = self._log_tail()
            raise RenderError(f"warm LibreOffice did not start: {line or 'no answer'}; log tail: {tail!r}", path=self.workdir)
        _, port, office = line.split()
        self._port, self.office_pid = int(port), int(office)

    def _read_line(self, timeout: float) -> str:
        assert self._proc is not None and self._proc.stdout is not None
        out = self._proc.stdout
        ready, _, _ = select.select([out], [], [], timeout)
        if not ready:
            return ""
        return out.readline().decode(errors="replace").strip()

    def _log_tail(self) -> str:
        try:
            return (self.workdir / "server.log").read_text(errors="replace")[-1500:]
        except OSError:
            return ""

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def rss_bytes(self) -> int:
        """Resident memory of the whole group (server + LibreOffice), bytes."""
        return group_rss_bytes(self.pid) if self.alive() else 0

    def convert(self, src: Path, dest: Path, *, filtername: str, options: list[str], timeout: float) -> None:
        """Convert ``src`` into ``dest``. RenderTimeout after ``timeout`` seconds (the
        process is then killed: a LibreOffice stuck in a document does not come back);
        LoadRefused, OfficeCrashed or WarmPathError for the other failures."""
        if not self.alive():
            raise OfficeCrashed("warm LibreOffice is not running", path=src)
        proxy = xmlrpc.client.ServerProxy(f"http://127.0.0.1:{self._port}/", transport=TimeoutTransport(timeout), allow_none=True)
        started = time.monotonic()
        try:
            proxy.convert(self._token, str(src), str(dest), filtername, options)
        except xmlrpc.client.Fault as fault:
            text = str(fault.faultString)
            reason = text.split(":", 1)[-1].strip() if ":" in text else text
            if "refused:" in text:
                raise LoadRefused(f"warm LibreOffice would not load the file: {reason}", path=src) from None
            if "crashed:" in text:
                raise OfficeCrashed(f"LibreOffice died during the conversion: {reason}", path=src) from None
            raise WarmPathError(f"warm conversion failed: {reason}", path=src) from None
        except TimeoutError:
            self.kill()
            raise RenderTimeout(f"LibreOffice did not finish within {timeout:g} s (warm process killed)", path=src) from None
        except (OSError, xmlrpc.client.ProtocolError) as exc:
            # The server went away mid-call: its LibreOffice died and took it down.
            raise OfficeCrashed(
                f"warm LibreOffice stopped answering after {time.monotonic() - started:.1f} s: {type(exc).__name__}: {exc}",
                path=src,
            ) from None
        self.conversions += 1

    def kill(self) -> None:
        """End the whole group (server, oosplash, soffice.bin) and wait until it is gone."""
        proc = self._proc
        if proc is None:
            return
        if proc.stdin is not None:
            try:
                proc.stdin.close()
            except OSError:
                pass
        kill_group(proc)
        remove_ipc_socket((self.workdir / "profile").as_uri())
        if proc.stdout is not None:
            proc.stdout.close()

    def close(self) -> None:
        """Kill the process and remove its work directory (profile, log)."""
        self.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)
