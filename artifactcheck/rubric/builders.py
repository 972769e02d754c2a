"""Rubrics built in code: :func:`check` (a leaf), :func:`group` (an inner step) and
:func:`rubric` (the whole tree, validated like a file). They build the same models the
YAML/JSON loader builds, so a rubric written either way scores alike."""

from __future__ import annotations

from typing import Any

from .model import Aggregation, Rubric, Step, StepType, Strategy
from .validate import validate_rubric


def check(
    id: str,
    check: str,
    params: dict[str, Any] | None = None,
    *,
    description: str = "",
    step_type: StepType | None = None,
    critical: bool = False,
    weight: float = 1.0,
    requires: list[str] | None = None,
) -> Step:
    """A leaf step for rubrics built in code.

    >>> check("logo", "image_count", {"min": 1}, step_type="structural").is_leaf
    True
    """
    return Step(
        id=id,
        check=check,
        params=dict(params or {}),
        description=description,
        step_type=step_type,
        critical=critical,
        weight=weight,
        requires=list(requires or []),
    )


def group(
    id: str,
    children: list[Step],
    *,
    description: str = "",
    step_type: StepType | None = None,
    critical: bool = False,
    weight: float = 1.0,
    requires: list[str] | None = None,
    strategy: Strategy = "parallel",
    aggregation: Aggregation = "gate",
) -> Step:
    """An inner step aggregating ``children`` (see design/aggregation.md)."""
    return Step(
        id=id,
        children=list(children),
        description=description,
        step_type=step_type,
        critical=critical,
        weight=weight,
        requires=list(requires or []),
        strategy=strategy,
        aggregation=aggregation,
    )


def rubric(
    task: str,
    steps: list[Step],
    *,
    description: str = "",
    strategy: Strategy = "parallel",
    aggregation: Aggregation = "gate",
) -> Rubric:
    """A whole rubric built in code; validated like a file (see ``validate_rubric``)."""
    built = Rubric(task=task, steps=list(steps), description=description, strategy=strategy, aggregation=aggregation)
    validate_rubric(built)
    return built
