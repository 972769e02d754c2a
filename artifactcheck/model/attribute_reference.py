"""The attribute reference as people read it: ``design/attributes.md`` (Markdown, one table
per kind) and the text ``artifactcheck attrs [KIND|NAME]`` prints, both rendered from the
declarations in ``model/attributes.py``.

``python -m artifactcheck.model.attribute_reference`` rewrites design/attributes.md (in a
source checkout); a test fails when the committed file differs from :func:`render_markdown`.
"""

from __future__ import annotations

import difflib
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import JsonValue

from .attributes import ATTRIBUTES, KIND_NOTES, PAGES, Attribute
from .style import STYLE_FIELDS

MARKDOWN_PATH = Path(__file__).resolve().parents[2] / "design" / "attributes.md"

_UNIVERSAL = (
    "Every node also has `id`, `kind`, `text` (the plain text of its subtree), `style` "
    f"({', '.join(f'`{f}`' for f in STYLE_FIELDS)}) and `boxes`. Selectors test `id`, `text`, "
    "`pages` (the 0-based pages it is drawn on, a word list), every style field, and every "
    "attribute below whose type is a string, number or boolean: numbers are written the "
    'shortest way (`[size="12"]`, `[size="10.5"]`), booleans as `true`/`false`. Lists and '
    "objects are read by checks, not selectors."
)


_GENERATED = (
    "<!-- Generated from artifactcheck/model/attributes.py by "
    "`python -m artifactcheck.model.attribute_reference`: edit the declarations, not this file. -->"
)
_INTRO = (
    "What each node kind carries in `attrs`, with the formats whose extractor emits it. "
    "The same reference prints with `artifactcheck attrs KIND` (or `artifactcheck attrs "
    "NAME` for one attribute across kinds). `tests/model/test_attributes.py` fails when an "
    "extractor emits an attribute not declared here."
)
_CONVENTIONS = (
    "Conventions: lengths in points (1/72 in), page space with the origin at the top-left "
    "and y down; angles in degrees clockwise; colours `#rrggbb` lower-case; sheet rows and "
    "columns are 1-based (A1 is row 1, column 1), table rows and columns in documents and "
    'slides are 0-based. An absent attribute means "not stated" or "not applicable". '
    "Sources: `docx`, `xlsx`, `pptx` (Office files), `gdoc`, `gsheet`, `gslides` (Google API responses)."
)


def kinds() -> list[str]:
    """Kinds with declared attributes, node kinds first, ``pages`` last."""
    return [k for k in ATTRIBUTES if k != PAGES] + [PAGES]


def selector_example(kind: str, attr: Attribute) -> str | None:
    """``cell[number_format="0.00%"]`` for a selectable attribute, else None."""
    if not attr.selectable or kind == PAGES or attr.example is None:
        return None
    value = attr.example
    if isinstance(value, bool):
        shown = "true" if value else "false"
    elif isinstance(value, float) and value == int(value) and abs(value) < 1e15:
        shown = str(int(value))
    else:
        shown = str(value)
    return f'{kind}[{attr.name}="{shown}"]'


def _example(kind: str, attr: Attribute) -> str:
    return selector_example(kind, attr) or json.dumps(attr.example, ensure_ascii=False)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown() -> str:
    """The whole of design/attributes.md."""
    out = [
        "# Node attributes, kind by kind",
        "",
        _GENERATED,
        "",
        _INTRO,
        "",
        _CONVENTIONS,
        "",
        _UNIVERSAL,
        "",
        "Kinds: " + " · ".join(f"[{k}](#{k})" for k in kinds()),
        "",
    ]
    for kind in kinds():
        out += [f"## {kind}", ""]
        if kind in KIND_NOTES:
            out += [KIND_NOTES[kind], ""]
        out += ["| attribute | type | unit | sources | meaning | example |", "| --- | --- | --- | --- | --- | --- |"]
        for attr in sorted(ATTRIBUTES[kind], key=lambda a: a.name):
            out.append(
                f"| `{attr.name}` | {attr.type.replace('|', ' or ')} | {attr.unit or ''} | "
                f"{', '.join(attr.sources)} | {_cell(attr.meaning)} | `{_cell(_example(kind, attr))}` |"
            )
        out.append("")
    return "\n".join(out)


def describe(query: str | None) -> str:
    """The text ``artifactcheck attrs`` prints: every kind and its attribute names (no
    query), one kind in full (a kind), or one attribute across kinds (a name). Raises
    LookupError with the nearest names when the query is neither."""
    if query is None:
        lines = [f"{kind} ({len(ATTRIBUTES[kind])}): {', '.join(sorted(a.name for a in ATTRIBUTES[kind]))}" for kind in kinds()]
        lines += ["", _UNIVERSAL, "", "Details: artifactcheck attrs KIND, or artifactcheck attrs NAME."]
        return "\n".join(lines)
    if query in ATTRIBUTES:
        header = [query] + ([KIND_NOTES[query]] if query in KIND_NOTES else [])
        return "\n".join(header + [""] + [_describe_one(query, a) for a in sorted(ATTRIBUTES[query], key=lambda a: a.name)])
    kind, _, name = query.rpartition(".")
    found = [
        (k, a)
        for k in kinds()
        for a in ATTRIBUTES[k]
        if a.name == name and (not kind or k == kind)
    ]
    if found:
        return "\n".join(_describe_one(k, a) for k, a in found)
    names = sorted({a.name for attrs in ATTRIBUTES.values() for a in attrs} | set(ATTRIBUTES))
    near = difflib.get_close_matches(name or query, names, n=3, cutoff=0.6)
    hint = f"; did you mean {' or '.join(near)}?" if near else "; run `artifactcheck attrs` for the list"
    raise LookupError(f"no node kind or attribute named {query!r}{hint}")


def _describe_one(kind: str, attr: Attribute) -> str:
    unit = f", {attr.unit}" if attr.unit else ""
    return (
        f"{kind}.{attr.name}: {attr.type.replace('|', ' or ')}{unit}  [{', '.join(attr.sources)}]\n"
        f"    {attr.meaning}\n"
        f"    e.g. {_example(kind, attr)}\n"
    )


def as_json() -> dict[str, list[dict[str, Any]]]:
    """The reference as data: kind -> list of ``{name, type, unit, sources, meaning, example, selectable}``."""
    out: dict[str, list[dict[str, Any]]] = {}
    for kind in kinds():
        rows: list[dict[str, Any]] = []
        for a in sorted(ATTRIBUTES[kind], key=lambda a: a.name):
            example: JsonValue = a.example
            rows.append(
                {"name": a.name, "type": a.type, "unit": a.unit, "sources": list(a.sources),
                 "meaning": a.meaning, "example": example, "selectable": a.selectable and kind != PAGES}
            )
        out[kind] = rows
    return out


def main() -> None:
    MARKDOWN_PATH.write_text(render_markdown(), encoding="utf-8")
    sys.stdout.write(f"wrote {MARKDOWN_PATH}\n")


if __name__ == "__main__":
    main()
