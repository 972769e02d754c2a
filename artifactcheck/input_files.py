"""Reading untrusted input files whole: bounded, regular files only, JSON without traps.

Every file we parse in one piece (a rubric, a trace, a JSON artifact, a snapshot bundle's
manifest) is read here, so that ``--rubric /dev/zero`` is refused by its size instead of
filling memory, a FIFO is refused instead of blocking forever, and a JSON document that
nests 20,000 deep, or holds ``NaN``/``Infinity``/``1e999``, is a typed error instead of a
``RecursionError`` or an ``OverflowError`` deep inside an extractor.
"""

from __future__ import annotations

import json
import math
import os
import stat
from pathlib import Path
from typing import Any

from .errors import ArtifactCheckError, ArtifactTooLarge
from .limits import current_limits


def read_input_bytes(
    path: str | Path,
    *,
    what: str,
    error: type[ArtifactCheckError],
    too_large: type[ArtifactCheckError] = ArtifactTooLarge,
    limit: int | None = None,
) -> bytes:
    """The bytes of ``path``, a regular file of at most ``limit`` bytes (default: the
    ``input_file_bytes`` budget). ``error`` is raised (naming ``what`` and the file) for a
    missing file, a directory, a device or a pipe; ``too_large`` above the limit. The size
    is checked before reading, and the read stops one byte past the limit (a file that
    grows while we read cannot make us read more)."""
    p = Path(path)
    budget = limit if limit is not None else current_limits().input_file_bytes
    try:
        # O_NONBLOCK: a FIFO swapped in after a check cannot block the open; fstat then
        # tells what was really opened.
        fd = os.open(p, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise error(f"cannot read the {what}: {exc.strerror or exc}", path=p) from None
    # fstat before fdopen: fdopen of a directory raises IsADirectoryError naming the
    # descriptor ("3: Is a directory"), not the file.
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise error(f"the {what} is not a regular file (a directory, device or pipe)", path=p)
    with os.fdopen(fd, "rb") as fh:
        if st.st_size > budget:
            raise too_large(f"the {what} is {st.st_size} bytes (limit {budget} bytes; "
                            f"{current_limits().describe('input_file_bytes')})", path=p)
        os.set_blocking(fd, True)
        data = fh.read(budget + 1)
    if len(data) > budget:
        raise too_large(f"the {what} grew past {budget} bytes while being read", path=p)
    return data


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text} is out of range (not a finite double)")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """True when ``value`` nests deeper than ``limit`` (lists and dicts; iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, (dict, list)))
    return False


def parse_json(
    data: bytes | str,
    *,
    what: str,
    error: type[ArtifactCheckError],
    path: str | Path | None = None,
) -> Any:
    """Parse JSON strictly: finite numbers only (``NaN``, ``Infinity`` and ``1e999`` are
    errors, as in RFC 8259), nesting at most the ``nesting_depth`` budget. Any failure is
    ``error`` naming ``what`` (and ``path``); the message never quotes the input."""
    limit = current_limits().nesting_depth
    try:
        value = json.loads(data, parse_float=_finite_float, parse_constant=_no_constant)
    except RecursionError:
        raise error(f"the {what} nests deeper than {limit} levels", path=path) from None
    except UnicodeDecodeError as exc:
        raise error(f"the {what} is not UTF-8 text: {exc.reason} at byte {exc.start}", path=path) from None
    except json.JSONDecodeError as exc:
        raise error(f"the {what} is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
                    path=path) from None
    except ValueError as exc:  # our number hooks; int() of a 5000-digit number
        raise error(f"the {what} is not valid JSON: {exc}", path=path) from None
    if json_depth_exceeds(value, limit):
        raise error(f"the {what} nests deeper than {limit} levels "
                    f"({current_limits().describe('nesting_depth')})", path=path)
    return value


def read_json_file(
    path: str | Path,
    *,
    what: str,
    error: type[ArtifactCheckError],
    too_large: type[ArtifactCheckError] = ArtifactTooLarge,
) -> Any:
    """:func:`read_input_bytes` then :func:`parse_json`."""
    data = read_input_bytes(path, what=what, error=error, too_large=too_large)
    return parse_json(data, what=what, error=error, path=path)


__all__ = ["json_depth_exceeds", "parse_json", "read_input_bytes", "read_json_file"]
