"""Rules a rubric must satisfy beyond its schema, checked the same way for files and for
rubrics built in code: unique ids, known checks with valid parameters, a step type on
every leaf, ``requires`` pointing at earlier steps, no ``critical`` where it means nothing.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from pathlib import Path

from pydantic import ValidationError

from ..errors import RubricError
from .model import Rubric, Step

Locator = Callable[[str, str | None, int], tuple[str | None, int | None]]
"""(step id, key or None, occurrence index) -> (file, 1-based line)."""


def validate_rubric(rubric: Rubric, *, locate: Locator | None = None, path: str | Path | None = None) -> None:
    """Raise RubricError (with file and line when ``locate`` can tell) for the first
    problem found, in document order."""
    from ..checks.registry import all_checks

    specs = {spec.name: spec for spec in all_checks()}

    def fail(step_id: str, key: str | None, message: str, occurrence: int = 0) -> None:
        file, line = locate(step_id, key, occurrence) if locate else (None, None)
        raise RubricError(f"step {step_id!r}: {message}", path=file or path, line=line)

    root = rubric.root()
    seen: dict[str, Step] = {}
    order: dict[str, int] = {}
    for position, (step, ancestors) in enumerate(_walk(root)):
        if step is root:
            continue
        if step.id in seen or step.id == root.id:
            fail(step.id, "id", f"duplicate step id {step.id!r}", occurrence=1)
        seen[step.id] = step
        order[step.id] = position
        parent = ancestors[-1]
        if step.critical and parent.aggregation != "gate":
            fail(step.id, "critical", f"critical has no meaning under aggregation {parent.aggregation!r} of {parent.id!r}; use aggregation: gate")
        if step.is_leaf:
            assert step.check is not None
            spec = specs.get(step.check)
            if spec is None:
                hint = difflib.get_close_matches(step.check, list(specs), n=1)
                suggestion = f"; did you mean {hint[0]!r}?" if hint else f"; known checks: {', '.join(sorted(specs)) or 'none'}"
                fail(step.id, "check", f"unknown check {step.check!r}{suggestion}")
            else:
                try:
                    spec.params.model_validate(step.params)
                except ValidationError as exc:
                    err = exc.errors()[0]
                    where = ".".join(map(str, err["loc"])) or "params"
                    fail(step.id, "params", f"invalid params for check {step.check!r}: {where}: {err['msg']}")
            if step.step_type is None and not any(a.step_type for a in ancestors):
                fail(step.id, None, "a leaf needs a step_type (on itself or an ancestor)")
    for step, ancestors in _walk(root):
        for required in step.requires:
            if required not in seen:
                fail(step.id, "requires", f"requires unknown step {required!r}")
            target = seen[required]
            if required == step.id or any(a.id == required for a in ancestors) or any(s is target for s in step.iter()):
                fail(step.id, "requires", f"cannot require itself, an ancestor or a descendant ({required!r})")
            if order[required] > order[step.id]:
                fail(step.id, "requires", f"requires {required!r}, which comes later; required steps must come earlier")


def _walk(root: Step) -> list[tuple[Step, list[Step]]]:
    out: list[tuple[Step, list[Step]]] = []
    stack: list[tuple[Step, list[Step]]] = [(root, [])]
    while stack:
        step, ancestors = stack.pop()
        out.append((step, ancestors))
        stack.extend((child, [*ancestors, step]) for child in reversed(step.steps))
    return out
