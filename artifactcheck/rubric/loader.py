"""Read a rubric file: parse with line numbers, expand ``include:`` fragments, substitute
``${name}`` parameters, then validate (unknown keys, the JSON Schema, the models, the
check registry). Every error is a RubricError naming the file and the line at fault.

Fragments and parameters (design/aggregation.md, "Reusable parts"):

- A fragment file holds ``steps:`` (a list of steps) and optional ``params:`` defaults.
- ``- include: fragments/logo.yaml`` may stand wherever a step may stand, with optional
  ``params:``. The fragment's placeholders resolve against, in increasing priority, the
  fragment's defaults, the including file's parameters, and the include's ``params``.
- ``${name}`` inside a string is replaced by the parameter's text; a string that is
  exactly ``${name}`` takes the parameter's value with its type (a count stays a number).
  ``$${`` writes a literal ``${``. An undefined parameter is an error.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..errors import RubricError
from .model import Include, Rubric, Step
from .validate import validate_rubric
from .yaml_lines import LocatedDict, LocatedList, load_located, locate

_PLACEHOLDER = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_FULL = re.compile(r"^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$")
_RUBRIC_KEYS = tuple(Rubric.model_fields)
_STEP_KEYS = tuple(Step.model_fields)
_INCLUDE_KEYS = tuple(Include.model_fields)
_FRAGMENT_KEYS = ("params", "steps")
MAX_INCLUDE_DEPTH = 16
_INCLUDE_ROOT: contextvars.ContextVar[Path | None] = contextvars.ContextVar("include_root", default=None)


@contextlib.contextmanager
def includes_confined_to(root: str | Path) -> Iterator[None]:
    """Inside the block (this thread/task), ``include:`` may only name files under
    ``root``: the HTTP service confines a rubric to the files uploaded with it, so a
    rubric cannot read server paths."""
    token = _INCLUDE_ROOT.set(Path(root).resolve())
    try:
        yield
    finally:
        _INCLUDE_ROOT.reset(token)


def rubric_root_of(path: str | Path, root: str | Path | None = None) -> Path:
    """The folder a rubric's includes and reference images must stay inside: ``root``
    when given, else the parent of the rubric's own folder (so a task folder may share
    ``../fragments`` with its siblings, as fixtures/tasks does)."""
    return Path(root).resolve() if root is not None else Path(path).resolve().parent.parent


def load_rubric(path: str | Path, *, params: dict[str, Any] | None = None, root: str | Path | None = None) -> Rubric:
    """Load and validate a rubric file (YAML or JSON). ``params`` override the file's
    ``params`` defaults. ``root`` confines includes (default: :func:`rubric_root_of`):
    a fragment that resolves outside it, through ``..``, an absolute path, a symlink or a
    ``${param}``, is refused before it is opened. Raises RubricError with the file and
    line of the first problem."""
    confine = rubric_root_of(path, root)
    if not Path(path).resolve().is_relative_to(confine):
        raise RubricError(f"the rubric is outside the rubric root {confine}", path=path)
    token = _ROOT.set(confine)
    try:
        return _load_rubric(path, params)
    finally:
        _ROOT.reset(token)


def rubric_files(path: str | Path, *, params: dict[str, Any] | None = None, root: str | Path | None = None) -> list[Path]:
    """The files loading ``path`` reads: the rubric itself, then every fragment it
    includes (resolved, each once, in the order they are read). What a batch sends to a
    worker that has no copy of the rubric's folder (design/batch.md). Raises RubricError
    like :func:`load_rubric`."""
    read: list[Path] = [Path(path).resolve()]
    token = _READ.set(read)
    try:
        load_rubric(path, params=params, root=root)
    finally:
        _READ.reset(token)
    return list(dict.fromkeys(read))


# Fragments read while rubric_files() loads a rubric (None otherwise).
_READ: contextvars.ContextVar[list[Path] | None] = contextvars.ContextVar("artifactcheck_rubric_read", default=None)

# The root of the rubric being loaded, for _expand_include (includes nest through several
# helpers; a context variable keeps their signatures about expansion, not security).
_ROOT: contextvars.ContextVar[Path | None] = contextvars.ContextVar("artifactcheck_rubric_root", default=None)


def _load_rubric(path: str | Path, params: dict[str, Any] | None) -> Rubric:
    raw = load_located(path)
    file = str(path)
    if not isinstance(raw, LocatedDict):
        raise RubricError("a rubric file must be a mapping with task and steps", path=file, line=getattr(raw, "line", None))
    _reject_unknown_keys(raw, _RUBRIC_KEYS, "rubric")
    scope: dict[str, Any] = {}
    declared = raw.get("params", {})
    if not isinstance(declared, dict):
        raise RubricError("params must be a mapping", path=file, line=raw.key_lines.get("params"))
    scope.update(declared)
    scope.update(params or {})
    expanded = LocatedDict()
    expanded.file, expanded.line, expanded.key_lines = raw.file, raw.line, dict(raw.key_lines)
    for key, value in raw.items():
        if key == "params":
            expanded[key] = dict(scope)
        elif key == "steps":
            expanded[key] = _expand_steps(value, scope, [Path(file).resolve()], raw, key)
        else:
            expanded[key] = _substitute(value, scope, raw, key)
    return build_rubric(expanded)


def build_rubric(expanded: Any) -> Rubric:
    """Validate an expanded (include-free, substituted) located structure into a Rubric."""
    file = getattr(expanded, "file", None)
    _check_step_keys(expanded.get("steps"))
    _validate_schema(expanded)
    try:
        built = Rubric.model_validate(_plain(expanded))
    except ValidationError as exc:
        err = exc.errors()[0]
        # drop pydantic's union/validator tags ("Step", "function-after[...]") from the path
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and (p in ("Step", "Include") or "[" in p)))
        where_file, line = locate(expanded, loc)
        message = str(err["msg"]).removeprefix("Value error, ")
        raise RubricError(f"{'.'.join(map(str, loc)) or 'rubric'}: {message}", path=where_file or file, line=line) from None
    index = _step_index(expanded.get("steps"), {})
    validate_rubric(built, locate=lambda step_id, where, occurrence: _locate_step(index, step_id, where, occurrence), path=file)
    return built


# -- expansion ------------------------------------------------------------------------


def _expand_steps(items: Any, scope: dict[str, Any], stack: list[Path], parent: Any, key: str | int) -> Any:
    if not isinstance(items, LocatedList):
        return _substitute(items, scope, parent, key)  # schema validation reports the type
    out = LocatedList()
    out.file, out.line, out.item_lines = items.file, items.line, []
    for i, item in enumerate(items):
        line = items.item_lines[i]
        if isinstance(item, LocatedDict) and "include" in item:
            _reject_unknown_keys(item, _INCLUDE_KEYS, "include")
            for step, step_line in _expand_include(item, scope, stack):
                out.append(step)
                out.item_lines.append(step_line)
            continue
        if isinstance(item, LocatedDict):
            step = LocatedDict()
            step.file, step.line, step.key_lines = item.file, item.line, dict(item.key_lines)
            for k, v in item.items():
                step[k] = _expand_steps(v, scope, stack, item, k) if k == "children" else _substitute(v, scope, item, k)
            out.append(step)
        else:
            out.append(item)
        out.item_lines.append(line)
    return out


def _expand_include(item: LocatedDict, scope: dict[str, Any], stack: list[Path]) -> list[tuple[Any, int]]:
    target = item["include"]
    if not isinstance(target, str):
        raise RubricError("include must be a file path", path=item.file, line=item.key_lines["include"])
    fragment_path = (Path(item.file).parent / _substitute(target, scope, item, "include")).resolve()
    root = _ROOT.get()
    if root is not None and not fragment_path.is_relative_to(root):
        # Refused before it is opened: no content, and no "exists or not" answer, from
        # files outside the root.
        raise RubricError(f"include {target!r} resolves outside the rubric root {root} "
                          "(pass --rubric-root to widen it)", path=item.file, line=item.key_lines["include"])
    service_root = _INCLUDE_ROOT.get()
    if service_root is not None and not fragment_path.is_relative_to(service_root):
        raise RubricError(f"include {target!r} is outside the files uploaded with the rubric", path=item.file, line=item.key_lines["include"])
    if fragment_path in stack:
        chain = " -> ".join(p.name for p in [*stack, fragment_path])
        raise RubricError(f"include cycle: {chain}", path=item.file, line=item.key_lines["include"])
    if len(stack) >= MAX_INCLUDE_DEPTH:
        raise RubricError(f"includes nested deeper than {MAX_INCLUDE_DEPTH}", path=item.file, line=item.line)
    if not fragment_path.is_file():
        raise RubricError(f"included file {target!r} not found (looked at {fragment_path})", path=item.file, line=item.key_lines["include"])
    fragment = load_located(fragment_path)
    if (read := _READ.get()) is not None:
        read.append(fragment_path)
    if not isinstance(fragment, LocatedDict) or "steps" not in fragment:
        raise RubricError("a fragment must be a mapping with steps (and optional params)", path=str(fragment_path), line=getattr(fragment, "line", None))
    _reject_unknown_keys(fragment, _FRAGMENT_KEYS, "fragment")
    given = item.get("params", {})
    if not isinstance(given, dict):
        raise RubricError("include params must be a mapping", path=item.file, line=item.key_lines.get("params"))
    inner: dict[str, Any] = dict(fragment.get("params") or {})
    inner.update(scope)
    inner.update(_substitute(given, scope, item, "params"))
    steps = _expand_steps(fragment["steps"], inner, [*stack, fragment_path], fragment, "steps")
    if not isinstance(steps, LocatedList):
        raise RubricError("a fragment's steps must be a list", path=str(fragment_path), line=fragment.key_lines["steps"])
    return list(zip(steps, steps.item_lines, strict=True))


def _substitute(value: Any, scope: dict[str, Any], parent: Any, key: str | int) -> Any:
    """Replace placeholders in ``value`` (recursively), keeping location data."""
    if isinstance(value, str):
        return _substitute_text(value, scope, *locate(parent, (key,)))
    if isinstance(value, LocatedDict):
        out = LocatedDict()
        out.file, out.line, out.key_lines = value.file, value.line, dict(value.key_lines)
        for k, v in value.items():
            out[k] = _substitute(v, scope, value, k)
        return out
    if isinstance(value, LocatedList):
        lst = LocatedList(_substitute(v, scope, value, i) for i, v in enumerate(value))
        lst.file, lst.line, lst.item_lines = value.file, value.line, list(value.item_lines)
        return lst
    if isinstance(value, dict):
        return {k: _substitute(v, scope, parent, key) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, scope, parent, key) for v in value]
    return value


def _substitute_text(text: str, scope: dict[str, Any], file: str | None, line: int | None) -> Any:
    full = _FULL.match(text)
    if full:
        return _lookup(full.group(1), scope, file, line)

    def replace(match: re.Match[str]) -> str:
        if match.group(0) == "$${":
            return "${"
        value = _lookup(match.group(1), scope, file, line)
        return value if isinstance(value, str) else json.dumps(value)

    return _PLACEHOLDER.sub(replace, text)


def _lookup(name: str, scope: dict[str, Any], file: str | None, line: int | None) -> Any:
    if name not in scope or scope[name] is None:
        known = ", ".join(sorted(k for k, v in scope.items() if v is not None)) or "none"
        raise RubricError(f"parameter ${{{name}}} is not defined (defined: {known})", path=file, line=line)
    return scope[name]


# -- validation helpers ---------------------------------------------------------------


def _reject_unknown_keys(mapping: LocatedDict, allowed: tuple[str, ...], what: str) -> None:
    for key in mapping:
        if key not in allowed:
            hint = difflib.get_close_matches(key, allowed, n=1)
            suggestion = f" (did you mean {hint[0]!r}?)" if hint else f" (allowed: {', '.join(allowed)})"
            raise RubricError(f"unknown key {key!r} in {what}{suggestion}", path=mapping.file, line=mapping.key_lines[key])


def _check_step_keys(steps: Any) -> None:
    if not isinstance(steps, list):
        return
    for step in steps:
        if isinstance(step, LocatedDict):
            _reject_unknown_keys(step, _STEP_KEYS, f"step {step.get('id', '?')!r}")
            _check_step_keys(step.get("children"))


def _validate_schema(expanded: Any) -> None:
    """Validate against the committed JSON Schema, the contract users see. A rubric that
    passed before (same expanded text, same schema) is not validated again
    (schema_verdicts.py): scoring many artifacts with one rubric pays jsonschema once."""
    from .schema_verdicts import known_valid, remember_valid, verdict_key

    plain = _plain(expanded)
    key = verdict_key(plain)
    if key is not None and known_valid(key):
        return

    import jsonschema

    from .schema import load_committed_schema

    schema = load_committed_schema()
    _validate_step_mappings(expanded.get("steps"), jsonschema.Draft202012Validator({"$ref": "#/$defs/Step", "$defs": schema["$defs"]}))
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(plain), key=lambda e: (len(e.absolute_path), list(map(str, e.absolute_path))))
    if not errors:
        if key is not None:
            remember_valid(key)
        return
    best = jsonschema.exceptions.best_match(errors)
    assert best is not None
    path = tuple(best.absolute_path)
    file, line = locate(expanded, path)
    where = ".".join(map(str, path)) or "rubric"
    raise RubricError(f"{where}: {best.message}", path=file or getattr(expanded, "file", None), line=line)


def _validate_step_mappings(steps: Any, validator: Any) -> None:
    """Validate each step on its own (children checked one by one, deepest first), so an
    error names the field at fault instead of "not valid under any of the schemas"."""
    import jsonschema

    if not isinstance(steps, LocatedList):
        return
    for index, item in enumerate(steps):
        if not isinstance(item, LocatedDict):
            raise RubricError(f"a step must be a mapping (id, description, check/params or children, ...), got a {type(item).__name__}", path=steps.file, line=steps.item_lines[index])
        children = item.get("children")
        _validate_step_mappings(children, validator)
        shallow = {k: ([] if k == "children" and isinstance(v, list) else v) for k, v in item.items()}
        best = jsonschema.exceptions.best_match(validator.iter_errors(_plain(shallow)))
        if best is not None:
            path = tuple(best.absolute_path)
            file, line = locate(item, path)
            where = f"step {item.get('id', '?')!r}" + (f" {'.'.join(map(str, path))}" if path else "")
            raise RubricError(f"{where}: {best.message}", path=file or item.file, line=line or item.line)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _step_index(steps: Any, index: dict[str, list[LocatedDict]]) -> dict[str, list[LocatedDict]]:
    """Step id -> every mapping with that id, in document order (duplicates included)."""
    if isinstance(steps, list):
        for step in steps:
            if isinstance(step, LocatedDict):
                index.setdefault(str(step.get("id")), []).append(step)
                _step_index(step.get("children"), index)
    return index


def _locate_step(index: dict[str, list[LocatedDict]], step_id: str, where: tuple[str | int, ...], occurrence: int) -> tuple[str | None, int | None]:
    """File and line of ``where`` (a path such as ``("params", "target", "selector")``)
    inside the step with this id: the deepest part of the path the file spells out."""
    found = index.get(step_id) or []
    if not found:
        return None, None
    step = found[min(occurrence, len(found) - 1)]
    file, line = locate(step, where)
    return file or step.file, line or step.line
