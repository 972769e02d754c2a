"""Budgets for untrusted input: how much one artifact, rubric or trace may make us read,
allocate or compute before we refuse it with a typed error.

Each budget has a default (design/safe-loading.md says why that number: measured on the
corpus, with headroom), and can be raised three ways, innermost first:

- in code: ``with use_limits(image_pixels=200_000_000): load(path)``;
- on the command line: ``artifactcheck --limit image_pixels=2e8 extract FILE``;
- in the environment: ``ARTIFACTCHECK_LIMITS="image_pixels=2e8,tree_nodes=1e6"``
  (what the CLI option sets, so batch workers and soffice children inherit it).

A budget is checked *before* the allocation it guards (a declared size, a counted
element, a grid's declared row count), and exceeding it raises
:class:`~artifactcheck.errors.ArtifactTooLarge` naming what was too large, the limit,
and the option that raises it.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace
from functools import lru_cache
from typing import Any

from .errors import ArtifactCheckError

ENV_VAR = "ARTIFACTCHECK_LIMITS"


@dataclass(frozen=True)
class Limits:
    """The budgets (see design/safe-loading.md for each number's reason)."""

    #: Bytes read from one input file that is parsed whole: a rubric, a trace, a JSON
    #: artifact (Google response, saved tree, cassette). Largest real response: ~30 MB.
    input_file_bytes: int = 256 * 1024 * 1024
    #: Nesting depth of JSON and YAML values (Google responses nest ~25 deep).
    nesting_depth: int = 200
    #: Pixels of one embedded image decoded to hash it (JPEGs are decoded reduced first).
    image_pixels: int = 50_000_000
    #: XML elements in one part of an Office package (largest real part: 370k).
    xml_part_elements: int = 1_000_000
    #: XML elements parsed in one Office package, all parts together (largest real: 451k).
    xml_document_elements: int = 3_000_000
    #: Nodes in one document tree (largest real Office file: 41k; 100k-cell sheet: 110k).
    tree_nodes: int = 200_000
    #: Cells of one Google Sheets grid (rowCount x columnCount): Sheets' own cap.
    grid_cells: int = 10_000_000
    #: Values in one rubric after YAML aliases are expanded (a 559-byte alias bomb: 387M).
    yaml_nodes: int = 100_000
    #: Seconds the model judge may spend on one check, all votes and retries included.
    judge_seconds: float = 300.0
    #: Bytes of one batch row's files sent to a Dask worker with --ship-artifacts
    #: (artifact, trace, rubric and includes, reference images), all held in memory.
    shipped_row_bytes: int = 256 * 1024 * 1024

    def describe(self, name: str) -> str:
        """How to raise one budget, for error messages."""
        return f"raise it with --limit {name}=N or {ENV_VAR}={name}=N"


_NAMES = {f.name: f.type for f in fields(Limits)}
_CURRENT: ContextVar[Limits | None] = ContextVar("artifactcheck_limits", default=None)


def parse_overrides(text: str) -> dict[str, Any]:
    """``"name=value,name=value"`` (or a list joined by commas) -> typed overrides.
    Values may be written ``2e8`` or ``200_000_000``; they must be finite and positive."""
    out: dict[str, Any] = {}
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        name, sep, raw = item.partition("=")
        name = name.strip()
        if not sep or name not in _NAMES:
            known = ", ".join(sorted(_NAMES))
            raise ArtifactCheckError(f"unknown budget {item!r} (budgets: {known})")
        try:
            value = float(raw.strip().replace("_", ""))
        except ValueError:
            raise ArtifactCheckError(f"budget {name} wants a number, got {raw.strip()!r}") from None
        if not math.isfinite(value) or value <= 0:
            raise ArtifactCheckError(f"budget {name} must be a finite positive number, got {raw.strip()!r}")
        out[name] = value if _NAMES[name] in ("float", float) else int(value)
    return out


def _from_environment() -> Limits:
    return _limits_from_text(os.environ.get(ENV_VAR, ""))


@lru_cache(maxsize=8)
def _limits_from_text(text: str) -> Limits:
    # Parsed once per distinct value: budgets are read on hot paths (every image, part).
    return replace(Limits(), **parse_overrides(text)) if text.strip() else Limits()


def current_limits() -> Limits:
    """The budgets in force: the innermost ``use_limits``, else the environment."""
    limits = _CURRENT.get()
    return limits if limits is not None else _from_environment()


@contextmanager
def use_limits(limits: Limits | None = None, **overrides: Any) -> Iterator[Limits]:
    """Run a block under other budgets: ``limits`` (default: the ones in force) with
    ``overrides`` applied. Unknown names are a TypeError, as for any keyword."""
    chosen = replace(limits if limits is not None else current_limits(), **overrides)
    token = _CURRENT.set(chosen)
    try:
        yield chosen
    finally:
        _CURRENT.reset(token)


__all__ = ["ENV_VAR", "Limits", "current_limits", "parse_overrides", "use_limits"]
