"""Extra checks registered only while a test runs (through the public ``register_check``),
for outcomes no built-in check produces on demand: a check that raises, a check that
needs a trace, a check whose score is a parameter."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel, ConfigDict

from artifactcheck.checks import registry
from artifactcheck.checks.registry import Resources, register_check
from artifactcheck.checks.result import CheckResult
from artifactcheck.model import Document

sys.path.insert(0, str(Path(__file__).parent))


class FixedParams(BaseModel):
    model_config = ConfigDict(extra="forbid")
    score: float = 1.0


class NoParams(BaseModel):
    model_config = ConfigDict(extra="forbid")


def _fixed(doc: Document, p: FixedParams, resources: Resources) -> CheckResult:
    """Returns the score it is given (pass at 1)."""
    return CheckResult(check="t_fixed", status="pass" if p.score >= 1 else "fail", mechanism="exact", score=p.score, explanation=f"fixed {p.score}")


def _raises(doc: Document, p: NoParams, resources: Resources) -> CheckResult:
    """Always raises, like a buggy check."""
    raise RuntimeError("boom in a check")


def _needs_trace(doc: Document, p: NoParams, resources: Resources) -> CheckResult:
    """Needs a browsing trace; skips without one."""
    if resources.trace is None:
        return CheckResult(check="t_trace", status="skipped", mechanism="trace", needs_trace=True, explanation="no trace given")
    ok = any("example.org" in u for u in resources.trace)
    return CheckResult(check="t_trace", status="pass" if ok else "fail", mechanism="trace", explanation="visited" if ok else "not visited")


TEST_CHECKS = {"t_fixed": (_fixed, FixedParams, "exact"), "t_raises": (_raises, NoParams, "exact"), "t_trace": (_needs_trace, NoParams, "trace")}


@pytest.fixture
def test_checks() -> Iterator[None]:
    registry._load_builtin_checks()
    for name, (function, params, mechanism) in TEST_CHECKS.items():
        if name not in registry._REGISTRY:
            register_check(name, mechanism=mechanism, params=params)(function)  # type: ignore[arg-type]
    yield
    for name in TEST_CHECKS:
        registry._REGISTRY.pop(name, None)
