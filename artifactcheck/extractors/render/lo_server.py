"""One warm LibreOffice behind a tiny XML-RPC server: the process the warm pool runs.

This file runs as a script under the Python that has LibreOffice's ``uno`` module
(Debian's ``python3-uno``: the system ``/usr/bin/python3``), not under the project's
interpreter, so it imports nothing from ``artifactcheck``: only the standard library,
``uno`` and unoserver's ``UnoConverter`` (the maintained UNO bridge that loads a file and
stores it through an export filter). unoserver's own server shell is not used because its
start-up sleeps a fixed 7 s before it accepts requests; this one polls the UNO socket and
is ready as soon as LibreOffice is (design/rendering.md, "Warm pool").

Protocol (all on 127.0.0.1):

- started with ``--soffice EXE --profile URI --uno-port N [--unoserver-path DIR]``; the
  shared secret arrives in the environment (``ARTIFACTCHECK_POOL_TOKEN``), never on the
  command line, and every call must carry it;
- prints one line, ``READY <xmlrpc port> <soffice pid>`` (or ``FAILED <reason>``) on stdout;
- ``convert(token, inpath, outpath, filtername, options)`` loads ``inpath`` read-only,
  stores it to ``outpath`` with ``filtername`` and ``options`` (``Name=value`` strings of
  the filter's FilterData), and returns True. A failure is an XML-RPC fault whose text
  starts with ``refused:`` (LibreOffice would not load the file), ``crashed:`` (LibreOffice
  died) or ``failed:`` (anything else);
- the whole process group dies when stdin reaches EOF (the pool's process is gone, even
  if it was SIGKILLed) or when LibreOffice exits (after the fault for the call in flight
  had time to go out).
"""

from __future__ import annotations

import argparse
import hmac
import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any
from xmlrpc.server import SimpleXMLRPCRequestHandler, SimpleXMLRPCServer

_CONNECT_TIMEOUT_S = 60.0
_CONNECT_POLL_S = 0.05
_FAULT_GRACE_S = 2.0  # after LibreOffice dies: time for the in-flight fault to be sent


class _QuietHandler(SimpleXMLRPCRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass  # one line per request on stderr is noise for the pool's log


def _die_with_group(code: int) -> None:
    sys.stdout.flush()
    try:
        os.killpg(0, signal.SIGKILL)
    finally:
        os._exit(code)


def _watch_stdin() -> None:
    """EOF on stdin means the pool's process is gone: take LibreOffice down with us."""
    try:
        while sys.stdin.buffer.read(1024):
            pass
    except OSError:
        pass
    _die_with_group(0)


def _watch_office(proc: subprocess.Popen[bytes]) -> None:
    proc.wait()
    time.sleep(_FAULT_GRACE_S)
    _die_with_group(3)


def _connect(converter_class: Any, port: int, proc: subprocess.Popen[bytes]) -> Any:
    deadline = time.monotonic() + _CONNECT_TIMEOUT_S
    last: Exception | None = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"LibreOffice exited with {proc.returncode} before accepting connections")
        try:
            return converter_class(interface="127.0.0.1", port=str(port))
        except Exception as exc:  # noqa: BLE001 - uno raises its own NoConnectException
            last = exc
            time.sleep(_CONNECT_POLL_S)
    raise RuntimeError(f"LibreOffice did not accept a connection within {_CONNECT_TIMEOUT_S:g} s: {last}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--soffice", required=True)
    parser.add_argument("--profile", required=True, help="file:// URI of this process's own profile")
    parser.add_argument("--uno-port", type=int, required=True)
    parser.add_argument("--unoserver-path", default=None, help="directory that holds the unoserver package")
    args = parser.parse_args()
    token = os.environ.pop("ARTIFACTCHECK_POOL_TOKEN", "")
    if args.unoserver_path:
        sys.path.append(args.unoserver_path)  # after the system's own packages
    try:
        from unoserver.converter import UnoConverter
    except ImportError as exc:
        print(f"FAILED cannot import uno/unoserver under {sys.executable}: {exc}", flush=True)
        return 2

    accept = f"socket,host=127.0.0.1,port={args.uno_port},tcpNoDelay=1;urp;StarOffice.ComponentContext"
    proc = subprocess.Popen(
        [
            args.soffice, f"-env:UserInstallation={args.profile}", "--headless", "--invisible",
            "--norestore", "--nologo", "--nodefault", "--nolockcheck", "--nocrashreport",
            f"--accept={accept}",
        ],
        stdin=subprocess.DEVNULL,
    )
    threading.Thread(target=_watch_stdin, daemon=True).start()
    try:
        converter = _connect(UnoConverter, args.uno_port, proc)
    except RuntimeError as exc:
        print(f"FAILED {exc}", flush=True)
        _die_with_group(2)
    threading.Thread(target=_watch_office, args=(proc,), daemon=True).start()

    def convert(call_token: str, inpath: str, outpath: str, filtername: str, options: list[str]) -> bool:
        if not hmac.compare_digest(call_token.encode(), token.encode()):
            raise PermissionError("failed: bad token")
        try:
            # update_index=False: a cold ``soffice --convert-to`` does not refresh indexes
            # either, and the two paths must lay out the same pages.
            converter.convert(inpath=inpath, outpath=outpath, filtername=filtername,
                              filter_options=options, update_index=False)
        except Exception as exc:  # noqa: BLE001 - classified for the pool
            for _ in range(20):  # a dying LibreOffice takes a moment to be reaped
                if proc.poll() is not None:
                    raise RuntimeError(f"crashed: LibreOffice exited ({proc.returncode}): {exc}") from None
                time.sleep(0.05)
            if "Could not load document" in str(exc):
                raise RuntimeError(f"refused: {exc}") from None
            raise RuntimeError(f"failed: {type(exc).__name__}: {exc}") from None
        return True

    with SimpleXMLRPCServer(("127.0.0.1", 0), requestHandler=_QuietHandler, allow_none=True, logRequests=False) as server:
        server.register_function(convert, "convert")  # type: ignore[arg-type]
        print(f"READY {server.server_address[1]} {proc.pid}", flush=True)
        server.serve_forever()
    return 0


if __name__ == "__main__":
    sys.exit(main())
