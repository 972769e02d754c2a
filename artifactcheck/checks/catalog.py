"""The list of registered checks as data: name, mechanism (and the parameters that change
it), default step type, one-line description,
parameters (type, default, required, description, from the pydantic JSON schema) and an
example. ``artifactcheck checks`` prints it; it is generated from the registry, so the
documentation cannot drift from the code.
"""

from __future__ import annotations

from typing import Any

from .registry import CheckSpec, all_checks


def _type_of(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A short human type for one JSON-schema property: ``int | null``, ``list[str]``,
    ``"all" | "any"``, ``Target``."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return "Target (selector string or object)" if name == "Target" else name
    if "enum" in schema:
        return " | ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            parts = []
            for sub in schema[key]:
                sub_type = _type_of(sub, defs)
                if sub_type not in parts:
                    parts.append(sub_type)
            return " | ".join(parts)
    t = schema.get("type")
    if t == "array":
        return f"list[{_type_of(schema.get('items', {}), defs)}]"
    names = {
        "string": "str",
        "integer": "int",
        "number": "float",
        "boolean": "bool",
        "null": "null",
        "object": "object",
    }
    if isinstance(t, list):
        return " | ".join(names.get(str(x), str(x)) for x in t)
    return names.get(str(t), "any") if t else "any"


def describe_params(spec: CheckSpec) -> list[dict[str, Any]]:
    """One entry per parameter: required ones first, then in declaration order."""
    schema = spec.params.model_json_schema()
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    out = []
    for name, prop in schema.get("properties", {}).items():
        entry: dict[str, Any] = {
            "name": name,
            "type": _type_of(prop, defs),
            "required": name in required,
        }
        field = spec.params.model_fields.get(name)
        if "default" in prop:
            entry["default"] = prop["default"]
        elif field is not None and not field.is_required():
            # default_factory values are absent from the JSON schema; show them too
            value = field.get_default(call_default_factory=True)
            entry["default"] = (
                value.model_dump(mode="json", exclude_defaults=True)
                if hasattr(value, "model_dump")
                else value
            )
        description = prop.get("description")
        if description is None and field is not None:
            description = field.description
        if description:
            entry["description"] = description
        out.append(entry)
    # required parameters first (stable: otherwise in declaration order), so the listing
    # starts with what a rubric must give
    return sorted(out, key=lambda e: not e["required"])


def catalog() -> list[dict[str, Any]]:
    """Every registered check as a JSON-ready dict, sorted by name.

    >>> entry = next(c for c in catalog() if c["name"] == "count")
    >>> entry["mechanism"], [p["name"] for p in entry["parameters"]]
    ('tree_query', ['target', 'exactly', 'at_least', 'at_most'])
    """
    return [
        {
            "name": spec.name,
            "mechanism": spec.mechanism,
            "mechanism_when": dict(spec.mechanism_when),
            "step_type": spec.step_type,
            "description": spec.summary,
            "parameters": describe_params(spec),
            "example": spec.example,
            "schema": spec.params.model_json_schema(),
        }
        for spec in all_checks()
    ]
