"""What LibreOffice leaves outside its work directory, and how we keep it inside.

- Temp files (``lu<pid><rand>.tmp`` folders): soffice puts them in ``$TMPDIR``, so every
  soffice we start gets ``TMPDIR=<its work dir>/tmp``; the work dir is removed after the
  conversion, also when it was interrupted (SIGINT, a timeout, SIGTERM of a batch worker).
- The single-instance IPC socket ``/tmp/OSL_PIPE_<uid>_SingleOfficeIPC_<hash>``: its folder
  is fixed by LibreOffice (``/tmp``, else ``/var/tmp``; ``$TMPDIR`` is not read), and a
  killed soffice does not remove it (measured: neither after SIGKILL nor after SIGTERM
  mid-conversion). The hash is the MD5 of the ``UserInstallation`` URL in UTF-16LE, each
  byte written in hex without leading zeros (desktop/source/app/officeipcthread.cxx;
  checked against a real soffice 7.x socket name). Each of our soffice processes has its
  own profile URL, so the socket is ours alone and is removed once the group is dead.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

__all__ = ["ipc_socket_paths", "remove_ipc_socket", "soffice_environment"]

_SOCKET_DIRS = (Path("/tmp"), Path("/var/tmp"))


def soffice_environment(work: Path, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment for a soffice whose files must stay in ``work``: ``TMPDIR`` (and
    ``HOME`` when unset) point inside it."""
    env = dict(os.environ if base is None else base)
    tmp = work / "tmp"
    tmp.mkdir(parents=True, exist_ok=True)
    env["TMPDIR"] = str(tmp)
    env.setdefault("HOME", str(work))  # soffice writes dotfiles under $HOME if it has none
    return env


def ipc_socket_paths(user_installation_url: str) -> list[Path]:
    """Where soffice with ``-env:UserInstallation=<url>`` puts its IPC socket."""
    digest = hashlib.md5(user_installation_url.encode("utf-16-le"), usedforsecurity=False).digest()
    name = f"OSL_PIPE_{os.getuid()}_SingleOfficeIPC_{''.join(format(b, 'x') for b in digest)}"
    return [folder / name for folder in _SOCKET_DIRS]


def remove_ipc_socket(user_installation_url: str) -> None:
    """Remove the IPC socket of a soffice that is dead (call after its group is gone)."""
    for path in ipc_socket_paths(user_installation_url):
        try:
            if path.is_socket():
                path.unlink()
        except OSError:
            pass
