"""Checks registered by name, each with a pydantic parameter model, so a rubric can name
a check as data, parameters are validated (an unknown option is an error, never ignored),
and ``artifactcheck checks`` lists every check from this registry.

A check function takes ``(doc, params, resources)`` and returns a CheckResult. The
runner, not the check, turns an exception into ``status="error"``.
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from ..model import Document
from .result import CheckResult, Mechanism


@dataclass
class Resources:
    """What a check may need beside the Document: reference images, a browsing trace, a
    judge, an OCR engine, the rendered page images. Missing resources make the check
    ``skipped`` (or ``needs_trace``), never ``fail``."""

    assets_dir: str | None = None
    trace: list[str] | None = None
    judge: Any = None
    extras: dict[str, Any] = field(default_factory=dict)


CheckFunction = Callable[[Document, Any, Resources], CheckResult]


@dataclass(frozen=True)
class CheckSpec:
    name: str
    mechanism: Mechanism
    params: type[BaseModel]
    function: CheckFunction
    summary: str
    example: dict[str, Any] | None = None


_REGISTRY: dict[str, CheckSpec] = {}


def register_check(
    name: str,
    *,
    mechanism: Mechanism,
    params: type[BaseModel],
    example: dict[str, Any] | None = None,
) -> Callable[[CheckFunction], CheckFunction]:
    """Decorator: register ``function`` under ``name``. The summary is the first line of
    its docstring. ``params`` should forbid extra keys (``extra="forbid"``)."""

    def decorate(function: CheckFunction) -> CheckFunction:
        if name in _REGISTRY:
            raise ValueError(f"check {name!r} is registered twice")
        summary = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
        _REGISTRY[name] = CheckSpec(name, mechanism, params, function, summary, example)
        return function

    return decorate


def get_check(name: str) -> CheckSpec:
    _load_builtin_checks()
    try:
        return _REGISTRY[name]
    except KeyError:
        raise KeyError(f"unknown check {name!r}; known: {', '.join(sorted(_REGISTRY))}") from None


def all_checks() -> list[CheckSpec]:
    _load_builtin_checks()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def run_check(
    name: str,
    doc: Document,
    params: dict[str, Any] | None = None,
    resources: Resources | None = None,
) -> CheckResult:
    """Validate parameters and run one check. Never raises: a bad parameter or an
    exception inside the check is returned as ``status="error"`` with the details."""
    raw = dict(params or {})
    try:
        spec = get_check(name)
    except KeyError as exc:
        return _error(name, "exact", raw, exc, "unknown check")
    try:
        parsed = spec.params.model_validate(raw)
    except ValidationError as exc:
        return _error(name, spec.mechanism, raw, exc, "invalid parameters")
    started = time.perf_counter()
    try:
        result = spec.function(doc, parsed, resources or Resources())
    except Exception as exc:  # noqa: BLE001 - the evaluator broke; report it as data
        return _error(name, spec.mechanism, raw, exc, "the check raised")
    result.params = parsed.model_dump(mode="json")
    result.evidence.setdefault("seconds", round(time.perf_counter() - started, 6))
    return result


def _error(name: str, mechanism: Any, params: dict[str, Any], exc: BaseException, what: str) -> CheckResult:
    return CheckResult(
        check=name,
        status="error",
        mechanism=mechanism,
        explanation=f"{what}: {type(exc).__name__}: {exc}",
        params={k: v for k, v in params.items() if isinstance(v, (str, int, float, bool, type(None)))},
        error={
            "type": type(exc).__name__,
            "message": str(exc),
            "traceback": "".join(traceback.format_exception(exc)[-3:]),
        },
    )


_BUILTINS_LOADED = False


def _load_builtin_checks() -> None:
    """Import the modules whose decorators fill the registry (once: listing the package
    directory on every ``run_check`` cost ~2 ms a call)."""
    global _BUILTINS_LOADED
    if _BUILTINS_LOADED:
        return
    import importlib
    import pkgutil

    from .. import checks as package

    # Checks live in flat modules and in family subpackages (query/, text/, image/, ocr/).
    for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}."):
        leaf = info.name.rsplit(".", 1)[-1]
        if leaf not in {"registry", "result"} and not leaf.startswith("_"):
            importlib.import_module(info.name)
    _BUILTINS_LOADED = True
