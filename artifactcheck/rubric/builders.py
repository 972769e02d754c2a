"""Rubrics built in code: :func:`check` (a leaf), :func:`group` (an inner step) and
:func:`rubric` (the whole tree, validated like a file). They build the same models the
YAML/JSON loader builds, so a rubric written either way scores alike.

Mistakes are caught where they are written: ``check()`` refuses an unknown check, an
unknown or mistyped parameter and a bad selector at once, and every builder records the
file and line of its call, so a RubricError (here or from ``rubric()``'s validation of the
whole tree) names the line of your code that is wrong, with a "did you mean".
"""

from __future__ import annotations

import sys
from typing import Any

from pydantic import ValidationError

from ..checks.result import StepType
from ..errors import RubricError
from .model import Aggregation, Rubric, Step, Strategy
from .validate import aggregation_problem, leaf_problem, validate_rubric


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
    """A leaf step for rubrics built in code. ``step_type`` may be left out: the leaf
    then takes its group's, else the check's default.

    >>> check("logo", "count", {"target": "image", "at_least": 1}).is_leaf
    True
    >>> check("logo", "count", {"target": "imge", "at_least": 1})
    Traceback (most recent call last):
    ...
    artifactcheck.errors.RubricError: <doctest ...>: line 1: step 'logo': parameter 'target.selector' of check 'count': unknown node kind 'imge' in selector 'imge'; did you mean 'image'?
    """
    origin = _caller()
    step = _build(origin, id=id, check=check, params=dict(params or {}), description=description,
                  step_type=step_type, critical=critical, weight=weight, requires=list(requires or []))
    problem = leaf_problem(check, step.params)
    if problem is not None:
        raise RubricError(f"step {id!r}: {problem[1]}", path=origin[0], line=origin[1])
    return step


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
    aggregation: Aggregation | None = None,
    at_least: int | None = None,
) -> Step:
    """An inner step aggregating ``children`` (see design/aggregation.md): ``aggregation``
    gate (default) | points | all | any, or ``at_least=k``.

    >>> red = group("negatives_red", [
    ...     check("by_font", "format_is", {"target": "cell[value^='-']", "color": "red"}),
    ...     check("by_format", "exists", {"target": "cell[number_format*='[Red]']"}),
    ... ], aggregation="any")
    >>> red.aggregation, [c.id for c in red.steps]
    ('any', ['by_font', 'by_format'])
    """
    origin = _caller()
    fields: dict[str, Any] = {"aggregation": aggregation} if aggregation is not None else {}
    step = _build(origin, id=id, children=list(children), description=description, step_type=step_type,
                  critical=critical, weight=weight, requires=list(requires or []), strategy=strategy,
                  at_least=at_least, **fields)
    problem = aggregation_problem(step)
    if problem is not None:
        raise RubricError(f"step {id!r}: {problem[1]}", path=origin[0], line=origin[1])
    return step


def rubric(
    task: str,
    steps: list[Step],
    *,
    description: str = "",
    strategy: Strategy = "parallel",
    aggregation: Aggregation | None = None,
    at_least: int | None = None,
) -> Rubric:
    """A whole rubric built in code; validated like a file (see ``validate_rubric``),
    with errors located at the builder call of the step at fault."""
    origin = _caller()
    fields: dict[str, Any] = {"aggregation": aggregation} if aggregation is not None else {}
    try:
        built = Rubric(task=task, steps=list(steps), description=description, strategy=strategy, at_least=at_least, **fields)
    except ValidationError as exc:
        raise RubricError(_first_message(exc), path=origin[0], line=origin[1]) from None
    validate_rubric(built, path=origin[0])
    return built


def _build(origin: tuple[str, int], **fields: Any) -> Step:
    try:
        step = Step(**fields)
    except ValidationError as exc:
        raise RubricError(_first_message(exc), path=origin[0], line=origin[1]) from None
    step._origin = origin
    return step


def _first_message(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"] if not (isinstance(p, str) and "[" in p))
    message = str(err["msg"]).removeprefix("Value error, ")
    return f"{where}: {message}" if where else message


def _caller() -> tuple[str, int]:
    """File and line of the code that called the builder (two frames up)."""
    frame = sys._getframe(2)
    return frame.f_code.co_filename, frame.f_lineno
