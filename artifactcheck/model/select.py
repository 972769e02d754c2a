"""Selectors over the tree: CSS syntax, parsed by ``cssselect``; defined as the XPath it
translates to, run by lxml over a mirror of the tree.

Why CSS: check authors know it, and cssselect (the parser behind parsel/Scrapy) is a
well-kept grammar we do not have to write. The meaning of a selector is that of a light
lxml tree mirroring the nodes: one element per node, tag = kind, attributes = the node's
``id``, ``text``, effective style fields, scalar ``attrs`` and ``pages``. Building that
mirror costs ~57 us a node, so the selectors rubrics write (kinds, attributes,
``:not()``, ``:nth-*``, ``:contains()``, descendant and child combinators) are evaluated
by ``select_python.py`` straight over the nodes with the same results, and the mirror is
built only for the rest (sibling combinators, ``:has()``, ``:is()``...;
design/tree.md, "Selectors").

Syntax, with examples:

=====================================  ==============================================
``paragraph``                          every paragraph
``slide image``                        images anywhere inside a slide
``slide > shape``                      shapes directly on a slide (not in groups)
``slide:nth-of-type(2) image``         images on the second slide (1-based, CSS rules)
``paragraph[heading_level="3"]``       Heading 3 paragraphs
``run[bold=true][italic=true]``        bold italic runs (booleans are ``true``/``false``)
``run[italic]``                        italic runs: a boolean attribute alone means true
``run:not([italic])``                  runs that are not italic (false or unset)
``run[hyperlink]``                     runs that carry a hyperlink
``run[hyperlink*="example.org"]``      ... whose URL contains example.org
``cell[text^="Total"]``                cells whose text starts with "Total"
``paragraph:contains("Summary")``      paragraphs whose text contains "Summary"
``image[pages~="0"]``                  images drawn on page 0 (``pages`` is a word list)
``sheet[name="Data"] cell[row="1"]``   header-row cells of sheet "Data"
``paragraph:not([list_level])``        paragraphs that are not list items
``table row:first-child cell``         cells of every table's first row
=====================================  ==============================================

A boolean attribute written alone (``[italic]``) means "is true", as an author reads it:
CSS would match any element that has the attribute, so ``run[italic]`` matched upright
runs whose ``italic`` is ``false``. Other attributes alone still mean "is present".

Numbers are written the shortest way (``12``, not ``12.0``; ``10.5``). Colours are
``#rrggbb`` lower-case: ``run[color="#008b8b"]``. Attribute names with characters CSS
cannot spell are left out of the mirror.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Generic, Literal, TypeVar

from cssselect import GenericTranslator, parse
from cssselect import SelectorError as _CssSelectorError
from lxml import etree

from ..errors import SelectorError
from .select_python import Structure, TreeNode, plan, select_positions
from .select_values import BOOLS_NAME, INDEX_NAME, MIRROR_NAMES, XML_BAD, fmt
from .select_values import NAME as _NAME
from .style import STYLE_FIELDS, Style

__all__ = ["MIRROR_NAMES", "Engine", "SelectableNode", "SelectionIndex", "compile_selector", "fast_path_covers", "select_nodes"]


# What the selector engine reads of a node (``model/node.py``'s Node has it all): one
# protocol for both engines, so the engine sits below the node class that offers select().
SelectableNode = TreeNode


N = TypeVar("N", bound=SelectableNode)

_XML_BAD = XML_BAD
_BOOLS = BOOLS_NAME
_fmt = fmt


class _Translator(GenericTranslator):
    """cssselect's translator, except that a boolean attribute alone means true."""

    def xpath_attrib_exists(self, xpath: Any, name: str, value: str | None) -> Any:
        if name.startswith("@") and _NAME.match(name[1:]):
            word = self.xpath_literal(f" {name[1:]} ")
            xpath.add_condition(f"{name} and not({name} = 'false' and contains(@{_BOOLS}, {word}))")
            return xpath
        return super().xpath_attrib_exists(xpath, name, value)


_TRANSLATOR = _Translator()


def _style_attributes(style: Style, cache: dict[int, dict[str, str]]) -> dict[str, str]:
    """The mirror attributes of a style, computed once per Style object: extractors share
    one frozen Style between the many nodes that look alike. Boolean fields are also
    listed under ``_b``."""
    found = cache.get(id(style))
    if found is None:
        found = {}
        bools = []
        for name in STYLE_FIELDS:
            value = getattr(style, name)
            v = _fmt(value)
            if v is not None:
                found[name] = v
                if isinstance(value, bool):
                    bools.append(name)
        if bools:
            found[_BOOLS] = " " + " ".join(bools) + " "
        cache[id(style)] = found
    return found


def _mirror_element(node: SelectableNode, index: int, style_cache: dict[int, dict[str, str]]) -> etree._Element:
    el = etree.Element(node.kind)
    el.set(INDEX_NAME, str(index))
    el.set("id", _XML_BAD.sub("", node.id))
    el.set("text", _XML_BAD.sub("", node.text))
    if node.boxes:
        el.set("pages", " ".join(str(p) for p in node.pages))
    bools = ""
    if node.style is not None:
        for name, shown in _style_attributes(node.style, style_cache).items():
            if name == _BOOLS:
                bools = shown
            else:
                el.set(name, shown)
    for name, value in node.attrs.items():
        v = _fmt(value)
        if v is not None and _NAME.match(name) and name not in (INDEX_NAME, _BOOLS) and name not in MIRROR_NAMES:
            el.set(name, v)
            if isinstance(value, bool):
                bools = (bools or " ") + name + " "
    if bools:
        el.set(_BOOLS, bools)
    if not node.children and node.text:
        el.text = _XML_BAD.sub("", node.text)  # so :contains() sees leaf text
    return el


class _Mirror(Generic[N]):
    def __init__(self, root: N) -> None:
        self.nodes: list[N] = []
        self.elements: dict[int, etree._Element] = {}
        stack: list[tuple[N, etree._Element | None]] = [(root, None)]
        self.root: etree._Element | None = None
        style_cache: dict[int, dict[str, str]] = {}
        while stack:
            node, parent_el = stack.pop()
            el = _mirror_element(node, len(self.nodes), style_cache)
            self.elements[id(node)] = el
            self.nodes.append(node)
            if parent_el is None:
                self.root = el
            else:
                parent_el.append(el)
            stack.extend((c, el) for c in reversed(node.children))


@lru_cache(maxsize=512)
def _compile(selector: str) -> tuple[etree.XPath, ...]:
    """One XPath per comma-separated group. Groups are evaluated apart and merged by
    document order in Python: libxml2's own union re-sorts node sets by document order
    with pairwise comparisons, which took ~1 s for "paragraph, cell" on a 14k-node tree."""
    try:
        groups = parse(selector)
        return tuple(
            etree.XPath(_TRANSLATOR.selector_to_xpath(group, prefix="descendant-or-self::"))
            for group in groups
        )
    except _CssSelectorError as exc:
        raise SelectorError(f"cannot parse selector {selector!r}: {exc}") from None
    except etree.XPathSyntaxError as exc:  # pragma: no cover - cssselect emits valid XPath
        raise SelectorError(f"cannot compile selector {selector!r}: {exc}") from None


def compile_selector(selector: str) -> None:
    """Raise SelectorError when ``selector`` does not parse (compiled once, cached)."""
    _compile(selector)


Engine = Literal["auto", "python", "lxml"]
"""How :func:`select_nodes` evaluates: ``auto`` takes the Python fast path when it covers
the selector (``select_python.py``), else lxml; ``python`` and ``lxml`` force one (for
tests and benchmarks; ``python`` raises ValueError when it does not cover the selector)."""


class SelectionIndex(Generic[N]):
    """What selector queries of one whole tree keep between calls: the fast path's
    Structure (one pass, ~1 us a node) and, only when a selector needs lxml, the mirror
    (~57 us a node). Both are built on first use and kept until :meth:`invalidate` (a
    Document owns one; extractors that change pages or attributes after linking
    invalidate it)."""

    def __init__(self, root: N) -> None:
        self.root = root
        self._mirror: _Mirror[N] | None = None
        self._structure: Structure[N] | None = None

    def invalidate(self) -> None:
        self._mirror = None
        self._structure = None

    def mirror(self) -> _Mirror[N]:
        if self._mirror is None:
            self._mirror = _Mirror(self.root)
        return self._mirror

    def structure(self) -> Structure[N]:
        if self._structure is None:
            self._structure = Structure(self.root)
        return self._structure

    @property
    def mirror_built(self) -> bool:
        """True once a query needed the lxml mirror of this tree."""
        return self._mirror is not None


def fast_path_covers(selector: str) -> bool:
    """True when the Python fast path evaluates ``selector`` (SelectorError when it
    does not parse)."""
    _compile(selector)
    return plan(selector) is not None


def select_nodes(scope: N, selector: str, index: SelectionIndex[N] | None = None, engine: Engine = "auto") -> list[N]:
    """Nodes in ``scope``'s subtree (scope included) that match ``selector``, in
    document order. ``index`` is the scope's tree's cached state (built here when
    absent); without one, the subtree of ``scope`` is indexed for this call, with
    ``scope`` as its root (no parent, no siblings)."""
    xpaths = _compile(selector)  # parse errors are the same SelectorError on both paths
    chains = plan(selector) if engine != "lxml" else None
    if chains is None and engine == "python":
        raise ValueError(f"the Python selector path does not cover {selector!r}")
    if chains is not None:
        tree = index.structure() if index is not None else Structure(scope)
        position = tree.position(scope)
        if position is not None:
            return select_positions(tree, position, chains)
    mirror = index.mirror() if index is not None else _Mirror(scope)
    el = mirror.elements[id(scope)]
    if len(xpaths) == 1:
        return [mirror.nodes[int(e.get(INDEX_NAME))] for e in xpaths[0](el)]
    found: set[int] = set()
    for xpath in xpaths:
        found.update(int(e.get(INDEX_NAME)) for e in xpath(el))
    return [mirror.nodes[i] for i in sorted(found)]
