"""``CheckResult``: what every check returns. A check never raises because the artifact is
wrong; an exception inside a check becomes ``status="error"`` with the exception as data,
and "could not evaluate" is never coerced to a score of 0 silently."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, model_validator

Status = Literal["pass", "fail", "error", "skipped"]
Mechanism = Literal["exact", "tolerance", "model_judgment", "geometric", "tree_query", "trace"]
MECHANISMS: tuple[str, ...] = Mechanism.__args__  # type: ignore[attr-defined]

StepType = Literal[
    "structural",
    "information_retrieval",
    "formatting",
    "content",
    "spatial",
    "web_visit",
    "visual",
]
"""What a rubric step is about (the KNOWS step taxonomy). A rubric leaf may state it; else
it inherits its group's, else its check's default (``checks/step_types.py``)."""
STEP_TYPES: tuple[str, ...] = StepType.__args__  # type: ignore[attr-defined]


class CheckResult(BaseModel):
    """The verdict of one check.

    ``score`` is in [0, 1]; it is None when the check could not judge (status ``error``
    or ``skipped``). ``evidence`` holds what a person needs to agree or disagree: node
    ids, boxes, measured values, thresholds, distances. ``needs_trace`` marks a skip
    caused by a missing browsing trace, reported as its own outcome.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    check: str
    status: Status
    mechanism: Mechanism
    score: float | None = None
    explanation: str = ""
    evidence: dict[str, JsonValue] = Field(default_factory=dict)
    params: dict[str, JsonValue] = Field(default_factory=dict)
    needs_trace: bool = False
    error: dict[str, JsonValue] | None = None

    @model_validator(mode="after")
    def _consistent(self) -> CheckResult:
        if self.status in ("pass", "fail"):
            if self.score is None:
                self.score = 1.0 if self.status == "pass" else 0.0
            if not 0.0 <= self.score <= 1.0:
                raise ValueError(f"score must be in [0, 1], got {self.score}")
        elif self.score is not None:
            raise ValueError(f"a {self.status} result has no score, got {self.score}")
        return self

    @property
    def passed(self) -> bool:
        return self.status == "pass"


class ArtifactLacks(Exception):
    """Raised deep inside a check when the artifact lacks what the step names (a range on
    a sheet the workbook does not have, after the agent renamed it): the artifact's
    fault, so :func:`~artifactcheck.checks.registry.run_check` makes it a decided
    ``fail`` with this message, not an ``error``. Anything else a check raises stays an
    ``error`` (the evaluator broke)."""

