"""Checks registered by name, each with a pydantic parameter model, so a rubric can name
a check as data, parameters are validated (an unknown option is an error, never ignored),
and ``artifactcheck checks`` lists every check from this registry.

A check function takes ``(doc, params, resources)`` and returns a CheckResult. The
runner, not the check, turns an exception into ``status="error"``.
"""

from __future__ import annotations

import difflib
import functools
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, JsonValue, TypeAdapter, ValidationError

from ..errors import RubricError
from ..model import Document
from .param_problems import param_problem
from .result import ArtifactLacks, CheckResult, Mechanism, StepType
from .step_types import default_step_type


@dataclass
class Resources:
    """What a check may need beside the Document: reference images, a browsing trace, a
    judge, an OCR engine, the rendered page images. Missing resources make the check
    ``skipped`` (or ``needs_trace``), never ``fail``."""

    assets_dir: str | None = None
    trace: list[str] | None = None
    #: Where reference files named by a rubric may be: a reference must resolve inside
    #: ``assets_dir`` or ``rubric_root`` when either is set (design/safe-loading.md).
    rubric_root: str | None = None
    judge: Any = None
    extras: dict[str, Any] = field(default_factory=dict)


CheckFunction = Callable[[Document, Any, Resources], CheckResult]


@dataclass(frozen=True)
class CheckSpec:
    """A registered check. ``mechanism`` is what decides it; ``mechanism_when`` names
    parameters that, when given (not None), make another mechanism decide it (fuzzy text
    matching is ``tolerance``, not ``exact``). Results carry :meth:`mechanism_for` their
    parameters, stamped by :func:`run_check`, so reports and batch tables group a check
    under the mechanism ``artifactcheck checks`` lists."""

    name: str
    mechanism: Mechanism
    params: type[BaseModel]
    function: CheckFunction
    summary: str
    example: dict[str, Any] | None = None
    mechanism_when: tuple[tuple[str, Mechanism], ...] = ()

    def mechanism_for(self, params: BaseModel | dict[str, Any] | None) -> Mechanism:
        """The mechanism that decides this check with these parameters. A dotted name
        (``values.abs_tol``) reads an option inside an option model (or mapping); a
        level that is not a model or mapping (``values: true``) gives None."""
        for name, mechanism in self.mechanism_when:
            value: Any = params
            for part in name.split("."):
                value = value.get(part) if isinstance(value, dict) else getattr(value, part, None)
                if value is None:
                    break
            if value is not None:
                return mechanism
        return self.mechanism

    @property
    def step_type(self) -> StepType:
        """The step type a rubric leaf running this check takes when none is stated."""
        return default_step_type(self.name, self.mechanism, self.function.__module__)


_REGISTRY: dict[str, CheckSpec] = {}


def register_check(
    name: str,
    *,
    mechanism: Mechanism,
    params: type[BaseModel],
    example: dict[str, Any] | None = None,
    mechanism_when: dict[str, Mechanism] | None = None,
) -> Callable[[CheckFunction], CheckFunction]:
    """Decorator: register ``function`` under ``name``. The summary is the first line of
    its docstring. ``params`` should forbid extra keys (``extra="forbid"``).
    ``mechanism_when`` maps a parameter (or a dotted path to an option inside one,
    ``values.abs_tol``) to the mechanism that decides the check when it is given (see
    :class:`CheckSpec`)."""

    def decorate(function: CheckFunction) -> CheckFunction:
        if name in _REGISTRY:
            raise ValueError(f"check {name!r} is registered twice")
        summary = (function.__doc__ or "").strip().splitlines()[0] if function.__doc__ else ""
        when = tuple((mechanism_when or {}).items())
        unknown = [p for p, _ in when if p.split(".")[0] not in params.model_fields]
        if unknown:
            raise ValueError(f"check {name!r}: mechanism_when names unknown parameters {unknown}")
        _REGISTRY[name] = CheckSpec(name, mechanism, params, function, summary, example, when)
        return function

    return decorate


def get_check(name: str) -> CheckSpec:
    """The registered check; KeyError with the nearest names when there is none."""
    spec = find_check(name)
    if spec is None:
        raise KeyError(unknown_check_message(name))
    return spec


def find_check(name: str) -> CheckSpec | None:
    """The registered check, or None. A built-in check is found by importing its own
    module (``_index.py``); any other name imports every check module first, so a check
    the index does not know yet is still found."""
    spec = _REGISTRY.get(name)
    if spec is not None:
        return spec
    if not _BUILTINS_LOADED:
        from ._index import CHECK_MODULES

        module = CHECK_MODULES.get(name)
        if module is not None:
            import importlib

            importlib.import_module(module)
        if name not in _REGISTRY:
            _load_builtin_checks()
    return _REGISTRY.get(name)


def unknown_check_message(name: str) -> str:
    """``unknown check 'imge_matches'; did you mean 'image_matches'?``"""
    _load_builtin_checks()
    hint = difflib.get_close_matches(name, list(_REGISTRY), n=2, cutoff=0.6)
    if hint:
        return f"unknown check {name!r}; did you mean {' or '.join(map(repr, hint))}?"
    return f"unknown check {name!r}; `artifactcheck checks` lists them all"


def all_checks() -> list[CheckSpec]:
    _load_builtin_checks()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]


def run_check(
    name: str,
    doc: Document,
    params: dict[str, Any] | None = None,
    resources: Resources | None = None,
) -> CheckResult:
    """Validate parameters and run one check.

    A check name that is not registered is a mistake in the calling code, not a verdict:
    it raises :class:`~artifactcheck.errors.RubricError` with the nearest names. Everything
    else is returned, never raised: a bad parameter or an exception inside the check is
    ``status="error"`` with the details — except :class:`~.result.ArtifactLacks` (the
    artifact lacks what the step names), a decided ``fail``. The result carries the mechanism the check is
    listed under (:meth:`CheckSpec.mechanism_for` these parameters).
    """
    raw = dict(params or {})
    spec = find_check(name)
    if spec is None:
        raise RubricError(unknown_check_message(name))
    try:
        parsed = spec.params.model_validate(raw)
    except ValidationError as exc:
        result = _error(name, spec.mechanism_for(raw), raw, exc, "invalid parameters")
        result.explanation = f"invalid parameters: {param_problem(name, spec.params, exc)[1]}"
        return result
    mechanism = spec.mechanism_for(parsed)
    started = time.perf_counter()
    try:
        result = spec.function(doc, parsed, resources or Resources())
    except ArtifactLacks as lack:
        result = CheckResult(
            check=name, status="fail", mechanism=mechanism, explanation=str(lack), evidence={"artifact_lacks": str(lack)}
        )
    except Exception as exc:  # noqa: BLE001 - the evaluator broke; report it as data
        return _error(name, mechanism, raw, exc, "the check raised")
    try:
        # A check may write its evidence after construction (no validation then); a value
        # that is not JSON (a tuple, a numpy scalar) would otherwise surface later, when the
        # report is built, and stop the whole scoring instead of this one step.
        result.evidence = _evidence_adapter().validate_python(result.evidence)
    except ValidationError as exc:
        return _error(name, mechanism, raw, exc, "the check's evidence is not JSON")
    result.mechanism = mechanism
    result.params = parsed.model_dump(mode="json")
    result.evidence.setdefault("seconds", round(time.perf_counter() - started, 6))
    return result


@functools.cache
def _evidence_adapter() -> TypeAdapter[dict[str, JsonValue]]:
    return TypeAdapter(dict[str, JsonValue])  # built on first use: not at import


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
    directory on every ``run_check`` cost ~2 ms a call). Listing every check needs this;
    finding one does not (:func:`find_check`)."""
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
