"""Rubrics already found valid against the committed schema, remembered on disk so that
scoring many artifacts with one rubric validates it once.

Importing jsonschema costs ~0.07 s of CPU and validating ~0.02 s, at every ``score`` of
every artifact (design/startup.md). A rubric that passed is remembered as an empty file
under the cache root, named by the sha256 of the committed schema's text and of the
expanded rubric as canonical JSON; the next load of the same rubric (same text after
parameters and includes) against the same schema skips jsonschema. Only passes are kept:
a rubric that fails is validated every time, so its error is jsonschema's, as before.
The pydantic models and ``validate_rubric`` run on every load either way.

A value JSON cannot tell apart from another (a non-string key, a date, any non-JSON
type) gives no key: such a rubric is always validated.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
from pathlib import Path
from typing import Any

from ..caches import cache_root
from .schema import SCHEMA_PATH


def verdict_key(plain: Any) -> str | None:
    """The name a pass of ``plain`` (the expanded rubric as plain data) is kept under, or
    None when its JSON form could stand for another value."""
    if not _json_exact(plain):
        return None
    text = json.dumps(plain, sort_keys=True, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    digest = hashlib.sha256(_schema_text().encode())
    digest.update(b"\0")
    digest.update(text.encode())
    return digest.hexdigest()


def known_valid(key: str) -> bool:
    return _verdict_path(key).is_file()


def remember_valid(key: str) -> None:
    """Keep the pass (an unwritable cache only costs the next load a validation)."""
    from ..report.json_writer import write_text_atomic

    with contextlib.suppress(OSError):
        write_text_atomic(_verdict_path(key), "")


def _verdict_path(key: str) -> Path:
    return cache_root() / "rubric-valid" / key


@functools.cache
def _schema_text() -> str:
    return SCHEMA_PATH.read_text(encoding="utf-8")


def _json_exact(value: Any) -> bool:
    """True when JSON round-trips ``value`` to itself, type for type (bool and int and
    float stay apart in JSON text; NaN and infinities have no JSON form)."""
    if value is None or isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_json_exact(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _json_exact(v) for k, v in value.items())
    return False
