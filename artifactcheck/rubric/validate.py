"""Rules a rubric must satisfy beyond its schema, checked the same way for files and for
rubrics built in code: unique ids, known checks with valid parameters (selectors compiled
and linted, ``model/selector_lint.py``), ``requires`` pointing at earlier steps, no
``critical`` where it means nothing, counting aggregations that can be met.

Every problem is a RubricError naming the file and line: the YAML/JSON line for files,
the line of the ``check(...)``/``group(...)`` call for rubrics built in code (the builders
record it). Unknown names come with the nearest known ones ("did you mean").
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..checks.param_problems import param_problem
from ..checks.registry import CheckSpec, find_check, unknown_check_message
from ..errors import RubricError
from .model import Rubric, Step

PathInStep = tuple[str | int, ...]
Locator = Callable[[str, PathInStep, int], tuple[str | None, int | None]]
"""(step id, path inside the step — ``()`` for the step itself, ``("params", "target",
"selector")`` for a parameter —, occurrence of the id) -> (file, 1-based line)."""


def validate_rubric(rubric: Rubric, *, locate: Locator | None = None, path: str | Path | None = None) -> None:
    """Raise RubricError (with file and line when ``locate`` can tell; for rubrics built in
    code, the builder calls') for the first problem found, in document order."""
    root = rubric.root()
    # Only the checks this rubric names (each imports its own module); an unknown name
    # is looked up among all of them by unknown_check_message, for the hint.
    specs = {name: spec for name in {s.check for s, _ in _walk(root) if s.is_leaf and s.check} if (spec := find_check(name))}
    locate = locate or code_locator(root)

    def fail(step_id: str, where: PathInStep, message: str, occurrence: int = 0) -> None:
        file, line = locate(step_id, where, occurrence)
        what = "rubric" if step_id == root.id else f"step {step_id!r}"
        raise RubricError(f"{what}: {message}", path=file or path, line=line)

    seen: dict[str, Step] = {}
    order: dict[str, int] = {}
    for position, (step, ancestors) in enumerate(_walk(root)):
        if step is not root:
            if step.id in seen or step.id == root.id:
                fail(step.id, ("id",), f"duplicate step id {step.id!r}", occurrence=1)
            seen[step.id] = step
            order[step.id] = position
            parent = ancestors[-1]
            if step.critical and parent.aggregation != "gate":
                fail(step.id, ("critical",), f"critical has no meaning under aggregation {parent.aggregation!r} of {parent.id!r}; use aggregation: gate")
        if step.is_leaf:
            assert step.check is not None
            problem = leaf_problem(step.check, step.params, specs)
            if problem is not None:
                fail(step.id, *problem)
        else:
            problem = aggregation_problem(step)
            if problem is not None:
                fail(step.id, *problem)
    for step, ancestors in _walk(root):
        for required in step.requires:
            if required not in seen:
                hint = difflib.get_close_matches(required, list(seen), n=1)
                fail(step.id, ("requires",), f"requires unknown step {required!r}" + (f"; did you mean {hint[0]!r}?" if hint else ""))
            target = seen[required]
            if required == step.id or any(a.id == required for a in ancestors) or any(s is target for s in step.iter()):
                fail(step.id, ("requires",), f"cannot require itself, an ancestor or a descendant ({required!r})")
            if order[required] > order[step.id]:
                fail(step.id, ("requires",), f"requires {required!r}, which comes later; required steps must come earlier")


def leaf_problem(check: str, params: dict[str, Any], specs: dict[str, CheckSpec] | None = None) -> tuple[PathInStep, str] | None:
    """(where in the step, what is wrong) for a leaf's check name and parameters, or None.

    Parameters are validated by the check's own model, so a selector is compiled and
    linted, a number is a number, and an unknown parameter is named with the nearest
    known one."""
    spec = specs.get(check) if specs is not None else find_check(check)
    if spec is None:
        return ("check",), unknown_check_message(check)
    try:
        spec.params.model_validate(params)
    except ValidationError as exc:
        loc, message = param_problem(check, spec.params, exc)
        return ("params", *loc), message
    return None


def aggregation_problem(step: Step) -> tuple[PathInStep, str] | None:
    """Counting aggregations (any, at_least) that cannot mean what they say, or None."""
    count = len(step.children)
    if step.aggregation == "at_least" and step.at_least is not None and step.at_least > count:
        return ("at_least",), f"at_least: {step.at_least} but it has only {count} children, so it could never pass"
    if step.aggregation in ("any", "at_least") and step.strategy == "sequential":
        return ("strategy",), (
            f"strategy sequential skips every child after the first that fails, so aggregation "
            f"{step.aggregation!r} could never pass by a later alternative; use strategy: parallel"
        )
    return None


def code_locator(root: Step) -> Locator:
    """Where each step of a rubric built in code was made (its builder call), by id."""
    origins: dict[str, list[tuple[str, int] | None]] = {}
    for step, _ in _walk(root):
        origins.setdefault(step.id, []).append(step.origin)

    def locate(step_id: str, where: PathInStep, occurrence: int) -> tuple[str | None, int | None]:
        found = origins.get(step_id) or [None]
        origin = found[min(occurrence, len(found) - 1)]
        return origin if origin is not None else (None, None)

    return locate


def _walk(root: Step) -> list[tuple[Step, list[Step]]]:
    out: list[tuple[Step, list[Step]]] = []
    stack: list[tuple[Step, list[Step]]] = [(root, [])]
    while stack:
        step, ancestors = stack.pop()
        out.append((step, ancestors))
        stack.extend((child, [*ancestors, step]) for child in reversed(step.steps))
    return out
