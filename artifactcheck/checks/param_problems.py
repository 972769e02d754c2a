"""What is wrong with a check's parameters, in the words of the person who wrote them:
``check 'text_contains' has no parameter 'text'; it takes phrases, ...`` rather than
pydantic's report. One wording for rubric files, rubrics built in code and
:func:`~artifactcheck.checks.registry.run_check`."""

from __future__ import annotations

import difflib
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

ParamPath = tuple[str | int, ...]


def param_problem(check: str, model: type[BaseModel], exc: ValidationError) -> tuple[ParamPath, str]:
    """(where in the parameters, what is wrong) for the first of ``exc``'s errors."""
    # an unknown name explains a "missing" one better than the other way round
    errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")
    err = errors[0]
    loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and "[" in p))
    dotted = ".".join(map(str, loc)) or "params"
    if err["type"] == "extra_forbidden":
        allowed = _fields_at(model, loc[:-1])
        near = difflib.get_close_matches(str(loc[-1]), allowed, n=1, cutoff=0.5)
        hint = f"; did you mean {near[0]!r}?" if near else f"; it takes {', '.join(allowed)}"
        return loc, f"check {check!r} has no parameter {dotted!r}{hint}"
    if err["type"] == "missing":
        return loc, f"check {check!r} needs parameter {dotted!r}"
    message = str(err["msg"]).removeprefix("Value error, ")
    shown = repr(err.get("input"))
    got = f" (got {shown[:60]})" if err["type"] != "value_error" and len(shown) < 200 else ""
    if not loc:  # a rule over several parameters (a model validator), no one name to blame
        return loc, f"check {check!r}: {message}"
    return loc, f"parameter {dotted!r} of check {check!r}: {message}{got}"


def _fields_at(model: type[BaseModel], loc: ParamPath) -> list[str]:
    """Parameter names of the (nested) model at ``loc`` inside ``model``, for hints."""
    current: type[BaseModel] | None = model
    for part in loc:
        if current is None or not isinstance(part, str):
            continue  # list indexes keep the item model
        field = current.model_fields.get(part)
        current = _model_in(field.annotation) if field is not None else None
    return list(current.model_fields) if current is not None else []


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The pydantic model inside an annotation (``Target | None``, ``list[Target]``,
    ``Annotated[Target, ...]``), if any."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (typing.Union, types.UnionType, list, typing.Annotated) or typing.get_args(annotation):
        for arg in typing.get_args(annotation):
            found = _model_in(arg)
            if found is not None:
                return found
    return None
