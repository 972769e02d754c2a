"""Selectors checked before they run: a selector in a rubric is compiled when the rubric
is loaded (or built in code), and a name that can match nothing is an error with the
nearest names, not a check that silently finds no node.

``Document.select`` itself stays permissive (an unknown kind simply matches nothing);
the stricter reading applies where a person wrote the selector down: rubric parameters,
through the :data:`Selector` type of the check parameter models.

What is refused, beside syntax errors: a node kind that does not exist (``imge``), an
attribute name no node carries (``heading_levle``), an attribute of another kind
(``run[heading_level]``: headings are paragraphs), a value a numeric attribute cannot
hold (``cell[col='C']``: columns are numbers, C is 3), and class selectors (``.title``:
nodes have no classes). Names are those of ``model/attributes.py`` and the style fields.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import lru_cache
from typing import Annotated, Any

from cssselect import parse
from cssselect.parser import Attrib, Class, Element
from pydantic import AfterValidator

from ..errors import SelectorError
from .attributes import ATTRIBUTES, PAGES
from .node import NODE_KINDS
from .select import MIRROR_NAMES, compile_selector
from .style import STYLE_FIELDS

_EVERYWHERE = frozenset(MIRROR_NAMES) | frozenset(STYLE_FIELDS)
_BY_KIND: dict[str, frozenset[str]] = {
    kind: frozenset(a.name for a in attrs) for kind, attrs in ATTRIBUTES.items() if kind != PAGES
}
_ANY_KIND = frozenset().union(*_BY_KIND.values())
_NUMERIC = frozenset({"integer", "number"})


def _types_of(name: str, kind: str | None) -> frozenset[str]:
    """The JSON types ``name`` has on ``kind`` (on any kind when None)."""
    kinds = [kind] if kind is not None else [k for k in ATTRIBUTES if k != PAGES]
    return frozenset(t for k in kinds for a in ATTRIBUTES.get(k, ()) if a.name == name for t in a.types)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def selector_problem(selector: str) -> str | None:
    """Why ``selector`` cannot be what its author meant, or None when it is fine."""
    try:
        compile_selector(selector)
    except SelectorError as exc:
        return str(exc)
    try:
        groups = parse(selector)
    except Exception:  # noqa: BLE001 - syntax our compiler accepts beyond cssselect's: not linted
        return None
    parts = [part for group in groups for part in _parts(group.parsed_tree)]
    parts.sort(key=lambda part: not isinstance(part, Element))  # a wrong kind explains most
    for part in parts:
        problem = _part_problem(part, selector)
        if problem is not None:
            return problem
    return None


@lru_cache(maxsize=1024)
def selector_names(selector: str) -> frozenset[str] | None:
    """The node kinds and attribute names ``selector`` tests, not the values it compares
    them with: ``paragraph[text*='hidden']`` names ``paragraph`` and ``text``, never
    ``hidden``. None when cssselect cannot parse it (syntax our compiler accepts beyond
    cssselect's)."""
    try:
        groups = parse(selector)
    except Exception:  # noqa: BLE001 - not cssselect's syntax: the caller decides
        return None
    names: set[str] = set()
    for group in groups:
        for part in _parts(group.parsed_tree):
            if isinstance(part, Element) and part.element not in (None, "*"):
                names.add(str(part.element))
            elif isinstance(part, Attrib):
                names.add(str(part.attrib))
    return frozenset(names)


def validated_selector(selector: str) -> str:
    """``selector`` unchanged, or ValueError naming the problem (for pydantic fields)."""
    problem = selector_problem(selector)
    if problem is not None:
        raise ValueError(problem)
    return selector


Selector = Annotated[str, AfterValidator(validated_selector)]
"""A selector string in a check's parameters: compiled and linted when the parameters
are validated, so a rubric with a bad selector fails to load, at the selector's line."""


def _parts(tree: Any) -> Iterator[Any]:
    """Every parsed element of a cssselect tree (elements, attributes, pseudo-classes...)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if node is None:
            continue
        yield node
        for name in ("selector", "subselector", "parsed_tree"):
            child = getattr(node, name, None)
            if child is not None and not isinstance(child, str):
                stack.append(child)
        stack.extend(getattr(node, "selector_list", None) or [])


def _kind_of(part: Any) -> str | None:
    """The node kind an attribute test applies to (``run`` in ``run[bold]``), if named."""
    inner = part.selector
    while not isinstance(inner, Element) and hasattr(inner, "selector"):
        inner = inner.selector
    return inner.element if isinstance(inner, Element) and inner.element not in (None, "*") else None


# Words authors write for things that are not node kinds of their own, and the selector
# that finds them (a spelling hint would send "title" to "table", "heading" to "header").
_MEANT = {
    "title": "shape[placeholder_type='title'] on a slide ('ctrTitle' on a title slide), "
    "paragraph[style_name='Title'] in a document",
    "subtitle": "shape[placeholder_type='subTitle'] on a slide, paragraph[style_name='Subtitle'] in a document",
    "heading": "paragraph[heading_level] (one level: paragraph[heading_level='1'])",
    "link": "run[hyperlink], or a target {link: 'example.org'}",
    "hyperlink": "run[hyperlink], or a target {link: 'example.org'}",
    "picture": "image",
    "img": "image",
    "photo": "image",
    "bullet": "paragraph[list_level]",
    "list": "paragraph[list_level]",
    "li": "paragraph[list_level]",
    "text": "paragraph or run (or a target {text: '...'})",
}


def _part_problem(part: Any, selector: str) -> str | None:
    if isinstance(part, Element) and part.element not in (None, "*") and part.element not in NODE_KINDS:
        word = str(part.element)
        if word.lower() in _MEANT:
            return f"{word!r} is not a node kind (selector {selector!r}); use {_MEANT[word.lower()]}"
        return f"unknown node kind {part.element!r} in selector {selector!r}{_hint(word, NODE_KINDS)}"
    if isinstance(part, Class):
        return (
            f"class selector '.{part.class_name}' in {selector!r} matches nothing: nodes have no "
            f"classes; test an attribute instead, e.g. [style_name='{part.class_name}']"
        )
    if isinstance(part, Attrib):
        name = part.attrib
        if name in _EVERYWHERE:
            return None
        if name not in _ANY_KIND:
            known = sorted(_EVERYWHERE | _ANY_KIND)
            return (
                f"no node has an attribute {name!r} (selector {selector!r}){_hint(name, known)} "
                "(`artifactcheck attrs` lists them)"
            )
        kind = _kind_of(part)
        if kind is not None and name not in _BY_KIND.get(kind, frozenset()):
            owners = ", ".join(sorted(k for k, names in _BY_KIND.items() if name in names))
            return (
                f"{kind} nodes have no attribute {name!r} (selector {selector!r}); it is an attribute of "
                f"{owners} (`artifactcheck attrs {kind}` lists what {kind} nodes carry)"
            )
        return _value_problem(part, kind, selector)
    return None


def _value_problem(part: Attrib, kind: str | None, selector: str) -> str | None:
    """A value no node can hold: ``cell[col='C']`` compares a number with a letter and
    matches nothing, which a check would report as a plain fail."""
    if part.operator != "=" or part.value is None:
        return None
    value = str(part.value.value)
    types = _types_of(part.attrib, kind)
    if not types or not types <= _NUMERIC or _is_number(value):
        return None
    problem = f"[{part.attrib}={value!r}] in {selector!r} matches nothing: {part.attrib} is a number"
    if part.attrib == "col" and value.isascii() and value.isalpha() and len(value) <= 3:
        return f"{problem} (sheet columns count from 1: write [col='{_column_number(value)}'] for column {value.upper()})"
    return problem


def _column_number(letters: str) -> int:
    """A1 column letters as their 1-based number (C is 3, AA is 27)."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - ord("A") + 1
    return n


def _hint(name: str, choices: Any) -> str:
    near = difflib.get_close_matches(name, list(choices), n=2, cutoff=0.6)
    return f"; did you mean {' or '.join(map(repr, near))}?" if near else ""
