"""Write a Report as JSON, byte-for-byte the same for the same input (timings aside).

Keys keep the model's field order (the documented contract order), floats use Python's
shortest round-trip form, non-ASCII text stays readable (UTF-8), and the file ends with
one newline. Timings are the only varying values: ``seconds`` on the report and on each
step (``strip_timings`` zeroes them, for comparisons)."""

from __future__ import annotations

import json
import os
import stat
import tempfile
import threading
from pathlib import Path
from typing import Any

from .model import Report


def report_to_json(report: Report) -> str:
    """The report as JSON text (:meth:`Report.to_json`)."""
    return report.to_json()


def write_report_json(report: Report, path: str | Path) -> Path:
    """Write atomically (temporary file + rename): a report file that exists is whole,
    which is what batch resumption relies on."""
    return write_text_atomic(Path(path), report_to_json(report))


def write_text_atomic(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary file and a rename. The file
    gets the permissions a plain ``open(path, "w")`` would give it: an existing file keeps
    its mode, a new one gets 0o666 minus the user's umask (``mkstemp`` alone makes every
    report 0o600, unreadable by the team and the web server that shares them)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _mode_for(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


_UMASK_LOCK = threading.Lock()


def _mode_for(path: Path) -> int:
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        return 0o666 & ~current_umask()


def current_umask() -> int:
    """The process umask, read without changing it where Linux tells (``/proc``); else
    set and restored at once, under a lock."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    with _UMASK_LOCK:
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def read_report(path: str | Path) -> Report:
    return Report.model_validate_json(Path(path).read_bytes())


def strip_timings(data: dict[str, Any]) -> dict[str, Any]:
    """A copy of a report dict with every timing set to 0."""
    out: dict[str, Any] = json.loads(json.dumps(data))
    out["seconds"] = 0.0
    for step in out.get("steps", []):
        step["seconds"] = 0.0
    return out
