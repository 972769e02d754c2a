"""The task report: what ``artifactcheck score`` writes as JSON and what the HTML view,
the batch tables and users' scripts read. The top level is a contract, versioned by
``report_version``; see design/reports.md.

Scores are in [0, 1]. ``outcome`` says whether a step was judged (``decided``) or why not
(``needs_trace``, ``error``, ``skipped``); an undecided step earns no credit but is never
counted as an artifact failure.
"""

from __future__ import annotations

import json
import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from ..checks.result import Mechanism, Status

REPORT_VERSION = "1.0"

Outcome = Literal["decided", "needs_trace", "error", "skipped"]
OUTCOMES: tuple[str, ...] = Outcome.__args__  # type: ignore[attr-defined]
Verdict = Literal["PASS", "PARTIAL", "FAIL"]


class ArtifactRef(BaseModel):
    """The scored artifact: its path as given (or an id), content hash and kind."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    path: str | None
    sha256: str | None
    platform: Literal["office", "google"] | None
    format: str | None
    size_bytes: int | None = None


class PageRef(BaseModel):
    """A page/slide/sheet canvas in points (origin top-left), for drawing evidence."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    index: int
    kind: str
    width: float
    height: float
    name: str | None = None


class ToolVersion(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    name: str
    version: str


class ScoredNode(BaseModel):
    """One node of the scored rubric tree. ``score`` is the value its parent aggregated
    (0 for an undecided leaf); ``check_score`` is the check's own score (None when it
    could not judge). ``points`` is (earned, possible) over the children of an inner node."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str
    description: str
    step_type: str | None
    check: str | None = None
    mechanism: Mechanism | None = None
    aggregation: str | None = None
    strategy: str | None = None
    critical: bool
    weight: float
    requires: list[str] = Field(default_factory=list)
    status: Status
    outcome: Outcome
    score: float
    check_score: float | None = None
    points: tuple[float, float] | None = None
    explanation: str
    children: list[ScoredNode] = Field(default_factory=list)


class StepReport(BaseModel):
    """One evaluation step (a rubric leaf), flat, in rubric order."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str
    description: str
    step_type: str | None
    check: str
    mechanism: Mechanism
    outcome: Outcome
    status: Status
    score: float | None
    weight: float
    critical: bool
    path: list[str]
    explanation: str
    evidence: dict[str, JsonValue] = Field(default_factory=dict)
    located: list[dict[str, JsonValue]] = Field(
        default_factory=list,
        description="Boxes (points, page top-left origin) of the tree nodes the evidence names, "
        "with the evidence's ok flag when it has one; what the HTML view draws.",
    )
    params: dict[str, JsonValue] = Field(default_factory=dict)
    error: dict[str, JsonValue] | None = None
    seconds: float


class OutcomeCounts(BaseModel):
    """Steps by outcome; ``passed + failed == decided``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    decided: int = 0
    passed: int = 0
    failed: int = 0
    needs_trace: int = 0
    error: int = 0
    skipped: int = 0


class RubricRef(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    path: str | None
    sha256: str | None
    schema_version: str
    params: dict[str, JsonValue] = Field(default_factory=dict)


class Report(BaseModel):
    """The report of one artifact against one rubric."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    report_version: str = REPORT_VERSION
    task: str
    artifact: ArtifactRef
    score: float
    success: bool
    verdict: Verdict
    requirements_met: int
    requirements_total: int
    complete: bool = Field(description="True when every step was decided (no error, skip or missing trace).")
    counts: OutcomeCounts
    evaluator_errors: int
    artifact_error: str | None = None
    steps: list[StepReport]
    tree: ScoredNode
    pages: list[PageRef] = Field(default_factory=list)
    rubric: RubricRef
    trace: dict[str, JsonValue] | None = None
    tools: list[ToolVersion] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    seconds: float = 0.0

    def step(self, step_id: str) -> StepReport:
        for step in self.steps:
            if step.id == step_id:
                return step
        raise KeyError(f"no step {step_id!r} in the report of {self.task!r}")

    def to_json(self) -> str:
        """The report as JSON text: keys in the model's field order, floats in Python's
        shortest round-trip form, non-ASCII kept readable, one trailing newline; the same
        bytes for the same input (timings aside). A report is always valid JSON: a
        non-finite number (an ``inf`` distance in a check's evidence) is written as the
        string ``"Infinity"``, ``"-Infinity"`` or ``"NaN"``, which pydantic reads back as
        the float it was."""
        return json.dumps(_finite(self.model_dump(mode="json")), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by its JSON-safe string."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value
