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


COMMON_DESCRIPTIONS: dict[str, str] = {
    "target": "the nodes to check: a selector string, or a Target object (selector, exclude, text, "
    "match, link, where, skip_empty, nth; see 'artifactcheck checks target')",
    "scope": "where to look: a selector string or a Target object (default: the whole document)",
    "quantifier": "all: every target must pass (score = share passing); any: one passing target is enough",
    "page": "0-based page index (negative counts from the end) or 'first'/'last'; default: each node's own first page",
    "tolerance_pt": "allowed slack in points",
    "min_count": "at least this many targets are needed (fewer is a failure)",
    "exactly": "the count must be exactly this",
    "at_least": "the count must be at least this",
    "at_most": "the count must be at most this",
    "expected": "the expected value",
    "property": "which colour: color (text), highlight, or fill (cell or shape background)",
    "case_sensitive": "compare letter case too",
    "collapse_whitespace": "treat runs of spaces, tabs and line breaks as one space",
    "keep_scheme": "http and https differ",
    "keep_www": "www. is significant",
    "keep_fragment": "the #fragment is significant",
    "keep_tracking": "tracking parameters (utm_*, fbclid...) are significant",
    "url": "the URL to look for (normalised before comparing)",
    "phrases": "the phrases to look for",
    "mode": "all: every phrase/URL; any: one is enough",
    "whole_words": "a phrase must match whole words",
    "pattern": "a Python regular expression",
    "ignore_case": "match regardless of letter case",
    "full_match": "the whole text must match (else: found anywhere in it)",
    "abs_tol": "absolute tolerance",
    "scorer": "the rapidfuzz scorer",
    "in_order": "in the order given",
    "min_children": "at least this many sub-items",
    "match": "how text is compared",
    "max_images": "attach at most this many images",
    "color_tolerance": "CIEDE2000 distance a colour may be from the expected one",
    "vocabulary": "which palette names colours: google, office, css, word, or all",
    "tolerance": "allowed difference (see the check's description for its unit)",
    "hash": "which 64-bit perceptual hash",
    "a": "shape A: a selector string or a Target object",
    "b": "shape B: a selector string or a Target object",
    "relation": "the relation A must have to B",
    "anchor": "the node the text must be near",
    "region": "a name or fraction ('upper-left', 'top 20%', 'last page bottom third') or {x0, top, x1, bottom, units: 'fraction'|'pt'}",
    "axis": "horizontal, vertical or both",
    "edge": "the edge or centre line the targets share",
    "min_fraction": "the lower bound, as a share (0..1)",
    "max_fraction": "the upper bound, as a share (0..1)",
}
"""Descriptions of parameters many checks share, used where a check's own field has none
(a check's own description always wins)."""


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
        if description is None:
            description = COMMON_DESCRIPTIONS.get(name)
        if description:
            entry["description"] = description
        options = _options_of(prop, defs)
        if options:
            entry["options"] = options
        out.append(entry)
    # required parameters first (stable: otherwise in declaration order), so the listing
    # starts with what a rubric must give
    return sorted(out, key=lambda e: not e["required"])


def _options_of(prop: dict[str, Any], defs: dict[str, Any]) -> list[dict[str, Any]]:
    """The fields of an option model a parameter accepts (``values: {precision: 2}``),
    listed under it; a Target is described once, by :func:`target_fields`."""
    refs = [s.get("$ref", "") for s in prop.get("anyOf", [prop])]
    names = [r.rsplit("/", 1)[-1] for r in refs if r.startswith("#/$defs/")]
    out: list[dict[str, Any]] = []
    for name in names:
        model = defs.get(name, {})
        if name == "Target" or not isinstance(model.get("properties"), dict):
            continue
        for option, sub in model["properties"].items():
            item: dict[str, Any] = {"name": option, "type": _type_of(sub, defs)}
            if "default" in sub:
                item["default"] = sub["default"]
            if sub.get("description"):
                item["description"] = sub["description"]
            out.append(item)
    return out


def target_fields() -> list[dict[str, Any]]:
    """The fields of a Target object (the ``target``/``scope`` parameters of most checks):
    name, type, default, description and an example each."""
    from .target import Target

    schema = Target.model_json_schema()
    out = []
    for name, field in Target.model_fields.items():
        prop = schema.get("properties", {}).get(name, {})
        default = field.get_default(call_default_factory=True)
        out.append(
            {
                "name": name,
                "type": _type_of(prop, schema.get("$defs", {})),
                "default": default,
                "description": field.description or "",
                "examples": list(field.examples or []),
            }
        )
    return out


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
