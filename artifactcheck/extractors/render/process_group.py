"""Process groups of external programs (LibreOffice): kill a whole group, tell whether any
member is left, and add up its memory. Linux ``/proc`` only; elsewhere the queries answer
"nothing left" / 0 and killing still uses ``os.killpg``.

Every external program we start runs in its own session (``start_new_session=True``), so
its process group holds it and everything it forks (``oosplash`` -> ``soffice.bin``; the
warm pool's server -> soffice), and one ``killpg`` ends them all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

__all__ = ["group_alive", "group_members", "group_rss_bytes", "kill_group", "paths_in_cmdlines"]

_PROC = Path("/proc")


def kill_group(proc: subprocess.Popen[bytes], *, settle_s: float = 5.0) -> None:
    """SIGKILL the process group led by ``proc`` and wait until its members are gone."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not ignorable
        pass
    # Members of the group that are not our children are reparented to init; wait briefly
    # until /proc shows none left so callers can rely on "nothing survives".
    deadline = time.monotonic() + settle_s
    while time.monotonic() < deadline and group_alive(proc.pid):
        time.sleep(0.02)


class ProcStat(NamedTuple):
    """A live process as ``/proc/PID/stat`` gives it."""

    pid: int
    ppid: int
    pgrp: int


def live_processes() -> Iterator[ProcStat]:
    """Every live (non-zombie) process, read from ``/proc`` (none when not Linux)."""
    if not _PROC.is_dir():  # pragma: no cover - not Linux
        return
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # Fields after the ")" that ends comm: state ppid pgrp ...
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 2 and fields[0] != "Z":
            yield ProcStat(int(entry.name), int(fields[1]), int(fields[2]))


def group_members(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is ``pgid``."""
    return [p.pid for p in live_processes() if p.pgrp == pgid]


def group_alive(pgid: int) -> bool:
    return bool(group_members(pgid))


def group_rss_bytes(pgid: int) -> int:
    """Resident memory of the group's live members, in bytes (``/proc/PID/statm``)."""
    page = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
    total = 0
    for pid in group_members(pgid):
        try:
            total += int((_PROC / str(pid) / "statm").read_text().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return total


def paths_in_cmdlines(paths: list[str]) -> set[str]:
    """Those of ``paths`` that appear in a live process's command line."""
    found: set[str] = set()
    if not _PROC.is_dir():  # pragma: no cover - not Linux: assume all in use
        return set(paths)
    for entry in _PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        found.update(p for p in paths if p in cmdline)
    return found
