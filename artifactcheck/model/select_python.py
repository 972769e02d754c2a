"""The selector fast path: the selectors rubrics write, evaluated in Python over the Node
tree itself, without the lxml mirror.

Why: the mirror (``select.py``) costs ~57 us a node to build, on the first query of every
Document — 1.9 s for a 32,689-node workbook, as much as extracting it, for a check that
reads one kind of node. What this module needs instead is one pass over the tree that
records each node's pre-order position, parent and place among its siblings, and lists
positions by kind (~1 us a node); a selector then visits the candidates of its last
compound's kind only and reads the attributes it names from the nodes themselves.

Covered (everything else goes to lxml unchanged, see :func:`plan`): type and universal
selectors; ``#id`` and ``.class``; attribute selectors with every operator (no ``i``
flag, no namespace); ``:not()`` of a compound; ``:first-child``, ``:last-child``,
``:only-child``, their ``-of-type`` forms, ``:nth-child()``, ``:nth-last-child()``,
``:nth-of-type()``, ``:nth-last-of-type()``; ``:contains()``, ``:empty``, ``:root`` and
the pseudo-classes that never match (``:hover``...); descendant and child combinators;
comma groups. Each is the XPath cssselect writes for it, restated over nodes (the
conditions are quoted from ``cssselect/xpath.py`` where they are not obvious), and
tests/model/test_select_fast_path.py compares the two engines on real trees.

Selectors are parsed and translated by cssselect first in every case (``select.py``), so
a selector that does not parse raises the same SelectorError on both paths.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from cssselect import GenericTranslator, parse
from cssselect.parser import (
    Attrib,
    Class,
    CombinedSelector,
    Element,
    Function,
    Hash,
    Negation,
    Pseudo,
    parse_series,
)

from .select_values import BOOLS_NAME, INDEX_NAME, MIRROR_NAMES, NAME, clean, fmt
from .style import STYLE_FIELDS

if TYPE_CHECKING:
    from .style import Style


class TreeNode(Protocol):
    """What the fast path reads of a node (``model/node.py``'s Node has it all)."""

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def text(self) -> str: ...
    @property
    def style(self) -> Style | None: ...
    @property
    def attrs(self) -> dict[str, Any]: ...
    @property
    def pages(self) -> list[int]: ...
    @property
    def boxes(self) -> Sequence[object]: ...
    @property
    def children(self) -> Sequence[Any]: ...


N = TypeVar("N", bound=TreeNode)

_STYLE_FIELDS = frozenset(STYLE_FIELDS)
_XML_SPACE = re.compile("[ \t\r\n]+")  # XPath normalize-space() splits on XML whitespace only
_NON_WHITESPACE = re.compile(r"^[^ \t\r\n\f]+$")  # cssselect's test for a ~= value


class Structure(Generic[N]):
    """One pre-order pass over a tree: positions, parents, sibling places, kinds.

    Position 0 is the root the structure was built from. ``end[p]`` is one past the last
    position of ``p``'s subtree, so a subtree is the contiguous range ``[p, end[p])``.
    The root has no parent (-1) and no siblings, like the root element of the mirror.
    Values are read from the nodes when a selector asks, so attribute and box changes
    are seen at once; a change to the tree's shape needs a new Structure (the Document's
    SelectionIndex is invalidated with the mirror).
    """

    def __init__(self, root: N) -> None:
        nodes: list[N] = []
        parents: list[int] = []
        siblings: list[int] = []
        # Three parallel stacks rather than one of tuples: tuples are tracked by the
        # garbage collector, and 40k of them alive at once set off a full collection of
        # the whole Document's objects (~0.5 s on a 40k-node tree) in the middle of a query.
        todo: list[N] = [root]
        todo_parent: list[int] = [-1]
        todo_index: list[int] = [0]
        pop, pop_parent, pop_index = todo.pop, todo_parent.pop, todo_index.pop
        push, push_parent, push_index = todo.extend, todo_parent.extend, todo_index.extend
        add_node, add_parent, add_sibling = nodes.append, parents.append, siblings.append
        while todo:
            node = pop()
            position = len(nodes)
            add_node(node)
            add_parent(pop_parent())
            add_sibling(pop_index())
            children = node.children
            if children:
                count = len(children)
                push(reversed(children))
                push_parent(repeat(position, count))
                push_index(range(count - 1, -1, -1))
        by_kind: dict[str, list[int]] = {}
        for position, node in enumerate(nodes):
            found = by_kind.get(node.kind)
            if found is None:
                by_kind[node.kind] = [position]
            else:
                found.append(position)
        size = [1] * len(nodes)  # subtree sizes, children before parents (lists index fastest)
        for p in range(len(nodes) - 1, 0, -1):
            size[parents[p]] += size[p]
        self.nodes = nodes
        self.parent = array("q", parents)  # kept compact: 8 bytes a node
        self.sibling = array("q", siblings)
        self.end = array("q", [p + s for p, s in enumerate(size)])
        self.by_kind = by_kind
        self._positions: dict[int, int] | None = None
        self._type_before: array[int] | None = None
        self._type_after: array[int] | None = None

    def position(self, node: N) -> int | None:
        """Pre-order position of ``node``, None when it is not in this tree. Uses the
        Document's own order when it agrees (no map to build), else a map built once."""
        if self.nodes[0] is node:
            return 0
        order = getattr(node, "_order", -1)
        if isinstance(order, int) and 0 <= order < len(self.nodes) and self.nodes[order] is node:
            return order
        if self._positions is None:
            self._positions = {id(n): p for p, n in enumerate(self.nodes)}
        return self._positions.get(id(node))

    def sibling_count(self, position: int) -> int:
        up = self.parent[position]
        return 1 if up < 0 else len(self.nodes[up].children)

    def type_places(self) -> tuple[array[int], array[int]]:
        """Per position: how many siblings of the same kind come before it, and after it
        (built on the first ``-of-type`` query, one pass)."""
        if self._type_before is None or self._type_after is None:
            before = array("q", [0]) * len(self.nodes)
            after = array("q", [0]) * len(self.nodes)
            end = self.end
            for up, node in enumerate(self.nodes):
                children = node.children
                if len(children) < 2:
                    continue
                same_kind: dict[str, list[int]] = {}
                p = up + 1  # the first child follows its parent in pre-order; the next, its subtree
                for child in children:
                    same_kind.setdefault(child.kind, []).append(p)
                    p = end[p]
                for places in same_kind.values():
                    last = len(places) - 1
                    for i, q in enumerate(places):
                        before[q] = i
                        after[q] = last - i
            self._type_before, self._type_after = before, after
        return self._type_before, self._type_after

    def string_value(self, position: int) -> str:
        """XPath's string value of the mirror element: the text of the leaves below it,
        concatenated (only childless nodes carry element text in the mirror)."""
        nodes = self.nodes
        node = nodes[position]
        if not node.children:
            return clean(node.text)
        return "".join(clean(nodes[q].text) for q in range(position, self.end[position]) if not nodes[q].children)


Reader = Callable[[TreeNode], "str | None"]


def mirror_value(node: TreeNode, name: str) -> str | None:
    """The value of attribute ``name`` on ``node``'s mirror element, None when absent."""
    return value_reader(name)(node)


@lru_cache(maxsize=256)
def value_reader(name: str) -> Reader:
    """How to read attribute ``name`` of a node's mirror element (None when absent), with
    the mirror's precedence: the node's attrs (which cannot replace id, text or pages)
    over its style fields over id/text/pages. Made once per name, for the kinds of
    names there are: most are a kind's attrs, read with one dict look-up."""
    if not NAME.match(name):
        return lambda node: None
    base: Reader | None = {
        "id": lambda node: clean(node.id),
        "text": lambda node: clean(node.text),
        "pages": lambda node: " ".join(str(p) for p in node.pages) if node.boxes else None,
    }.get(name)
    in_style = name in _STYLE_FIELDS
    in_attrs = name not in MIRROR_NAMES
    if in_attrs and not in_style:

        def from_attrs(node: TreeNode) -> str | None:
            raw = node.attrs.get(name)
            return None if raw is None else fmt(raw)

        return from_attrs

    def read(node: TreeNode) -> str | None:
        if in_attrs:
            raw = node.attrs.get(name)
            if raw is not None:
                shown = fmt(raw)
                if shown is not None:
                    return shown
        if in_style:
            style = node.style
            if style is not None:
                shown = fmt(getattr(style, name))
                if shown is not None:
                    return shown
        return base(node) if base is not None else None

    return read


def is_boolean(node: TreeNode, name: str) -> bool:
    """True when the mirror lists ``name`` among the element's booleans (``_b``)."""
    style = node.style
    if style is not None and name in _STYLE_FIELDS and isinstance(getattr(style, name), bool):
        return True
    return NAME.match(name) is not None and name not in MIRROR_NAMES and isinstance(node.attrs.get(name), bool)


Test = Callable[[Structure[Any], int], bool]


@dataclass(frozen=True)
class Compound:
    """One compound selector: an element name (None for ``*``) and conditions."""

    kind: str | None
    tests: tuple[Test, ...]

    def matches(self, tree: Structure[Any], position: int) -> bool:
        if self.kind is not None and tree.nodes[position].kind != self.kind:
            return False
        return all(test(tree, position) for test in self.tests)

    def filter(self, tree: Structure[Any], candidates: list[int]) -> list[int]:
        """The candidates (already of this compound's kind) that pass every test."""
        for test in self.tests:
            candidates = [p for p in candidates if test(tree, p)]
        return candidates


@dataclass(frozen=True)
class Chain:
    """Compounds left to right and the combinators between them (``" "`` or ``">"``)."""

    compounds: tuple[Compound, ...]
    combinators: tuple[str, ...]

    def positions(self, tree: Structure[Any], scope: int) -> list[int]:
        """Matching positions in ``scope``'s subtree, ascending.

        Left to right, one compound at a time: the matches of the first compound inside
        ``scope`` (cssselect's ``descendant-or-self::`` prefix: ancestors of ``scope`` are
        never considered), then, for each further compound, the nodes of its kind inside
        the subtrees of the previous matches (descendant combinator) or whose parent is
        one (child combinator). Each step visits only nodes of the compound's kind, so
        ``table row:first-child cell`` on a workbook without tables costs nothing."""
        if any(c.kind is not None and c.kind not in tree.by_kind for c in self.compounds):
            return []
        matched = self.compounds[0].filter(tree, _of_kind(tree, self.compounds[0].kind, [(scope, tree.end[scope])]))
        for combinator, compound in zip(self.combinators, self.compounds[1:], strict=True):
            if not matched:
                return []
            ranges = _outer_subtrees(tree, matched)
            candidates = _of_kind(tree, compound.kind, ranges)
            if combinator == ">":
                parents = set(matched)
                parent = tree.parent
                candidates = [p for p in candidates if parent[p] in parents]
            matched = compound.filter(tree, candidates)
        return matched


def _outer_subtrees(tree: Structure[Any], positions: list[int]) -> list[tuple[int, int]]:
    """The proper-descendant ranges ``(p + 1, end[p])`` of ascending ``positions``,
    without the ranges nested inside an earlier one (pre-order: a subtree is contiguous)."""
    end = tree.end
    ranges: list[tuple[int, int]] = []
    reach = -1
    for p in positions:
        if p < reach:
            continue  # inside the previous range
        reach = end[p]
        if reach > p + 1:
            ranges.append((p + 1, reach))
    return ranges


def _of_kind(tree: Structure[Any], kind: str | None, ranges: list[tuple[int, int]]) -> list[int]:
    """Positions of ``kind`` (any kind for None) inside disjoint ascending ranges."""
    if kind is None:
        return [p for lo, hi in ranges for p in range(lo, hi)]
    of_kind = tree.by_kind.get(kind, [])
    found: list[int] = []
    for lo, hi in ranges:
        found += of_kind[bisect_left(of_kind, lo) : bisect_left(of_kind, hi)]
    return found


class Unsupported(Exception):
    """A selector construct the fast path does not evaluate (lxml does)."""


@lru_cache(maxsize=512)
def plan(selector: str) -> tuple[Chain, ...] | None:
    """The fast-path plan of a selector (one Chain per comma group), or None when any
    group uses something only the lxml path evaluates. ``selector`` must already have
    been compiled by ``select._compile`` (so it parses)."""
    try:
        return tuple(_chain(group.parsed_tree) for group in parse(selector) if _no_pseudo_element(group))
    except Unsupported:
        return None


def _no_pseudo_element(group: Any) -> bool:
    if group.pseudo_element is not None:
        raise Unsupported("pseudo-element")
    return True


def _chain(tree: Any) -> Chain:
    compounds: list[Compound] = []
    combinators: list[str] = []
    while isinstance(tree, CombinedSelector):
        if tree.combinator not in (" ", ">"):
            raise Unsupported(f"combinator {tree.combinator!r}")
        compounds.append(_compound(tree.subselector))
        combinators.append(tree.combinator)
        tree = tree.selector
    compounds.append(_compound(tree))
    return Chain(tuple(reversed(compounds)), tuple(reversed(combinators)))


def _compound(tree: Any) -> Compound:
    """A compound from cssselect's nested form (``Pseudo(Attrib(Element))``...)."""
    tests: list[Test] = []
    while not isinstance(tree, Element):
        if isinstance(tree, CombinedSelector):
            raise Unsupported("combinator inside a compound (:not(a b))")
        tests.append(_test(tree))
        tree = tree.selector
    if tree.namespace is not None:
        raise Unsupported("namespace")
    tests.reverse()
    return Compound(tree.element or None, tuple(tests))


def _test(part: Any) -> Test:
    if isinstance(part, Attrib):
        return _attribute_test(part)
    if isinstance(part, Hash):
        return _value_test("id", "=", part.id)
    if isinstance(part, Class):
        return _value_test("class", "~=", part.class_name)
    if isinstance(part, Negation):
        sub = _compound(part.subselector)
        return lambda tree, p: not sub.matches(tree, p)
    if isinstance(part, Pseudo):
        return _pseudo_test(part.ident)
    if isinstance(part, Function):
        return _function_test(part)
    raise Unsupported(type(part).__name__)


def _attribute_test(attrib: Attrib) -> Test:
    if attrib.namespace is not None or attrib.flag is not None:
        raise Unsupported("attribute namespace or flag")
    name = attrib.attrib
    if name in (INDEX_NAME, BOOLS_NAME):
        raise Unsupported("internal mirror attribute")
    if attrib.operator == "exists":
        if not NAME.match(name):
            return lambda tree, p: False  # the mirror never carries such a name
        # select._Translator: a boolean attribute alone means "is true".
        read = value_reader(name)
        if name not in _STYLE_FIELDS and name not in MIRROR_NAMES:

            def attr_exists(tree: Structure[Any], p: int) -> bool:
                raw = tree.nodes[p].attrs.get(name)
                # fmt() leaves out only None, lists and dicts; false is a boolean's "no"
                return raw is not None and raw is not False and not isinstance(raw, (list, dict))

            return attr_exists

        def exists(tree: Structure[Any], p: int) -> bool:
            node = tree.nodes[p]
            value = read(node)
            return value is not None and not (value == "false" and is_boolean(node, name))

        return exists
    value = attrib.value.value if attrib.value is not None else None
    if not isinstance(value, str):
        raise Unsupported("attribute value")
    return _value_test(name, attrib.operator, value)


def _value_test(name: str, operator: str, value: str) -> Test:
    """cssselect's attribute operators, as the XPath it writes evaluates them."""
    compare: Callable[[str | None], bool]
    if operator == "=":
        compare = lambda s: s == value
    elif operator == "!=":
        # "not(@n) or @n != 'v'"; with an empty value, "@n != ''"
        compare = (lambda s: s is None or s != value) if value else (lambda s: s is not None and s != "")
    elif operator == "~=":
        # "contains(concat(' ', normalize-space(@n), ' '), ' v ')"; 0 for a blank value
        if not (value and _NON_WHITESPACE.match(value)):
            return lambda tree, p: False
        compare = lambda s: s is not None and value in _XML_SPACE.split(s)
    elif operator == "|=":
        compare = lambda s: s is not None and (s == value or s.startswith(value + "-"))
    elif operator == "^=":
        compare = lambda s: bool(value) and s is not None and s.startswith(value)
    elif operator == "$=":
        compare = lambda s: bool(value) and s is not None and s.endswith(value)
    elif operator == "*=":
        compare = lambda s: bool(value) and s is not None and value in s
    else:
        raise Unsupported(f"attribute operator {operator!r}")
    read = value_reader(name)
    return lambda tree, p: compare(read(tree.nodes[p]))


_NEVER = frozenset(
    ident
    for ident in ("link", "visited", "hover", "active", "focus", "target", "enabled", "disabled", "checked")
    if getattr(GenericTranslator, f"xpath_{ident}_pseudo", None) is GenericTranslator.pseudo_never_matches
)


def _pseudo_test(ident: str) -> Test:
    # -of-type counts siblings of the node's own kind: the compound's kind test ran first.
    if ident in _NEVER:
        return lambda tree, p: False
    if ident == "first-child":
        return lambda tree, p: tree.sibling[p] == 0
    if ident == "last-child":
        return lambda tree, p: tree.sibling[p] == tree.sibling_count(p) - 1
    if ident == "only-child":
        return lambda tree, p: tree.sibling_count(p) == 1
    if ident == "first-of-type":
        return lambda tree, p: tree.type_places()[0][p] == 0
    if ident == "last-of-type":
        return lambda tree, p: tree.type_places()[1][p] == 0
    if ident == "only-of-type":
        return lambda tree, p: tree.type_places()[0][p] == 0 and tree.type_places()[1][p] == 0
    if ident == "empty":
        # "not(*) and not(string-length())"
        return lambda tree, p: not tree.nodes[p].children and not clean(tree.nodes[p].text)
    if ident == "root":
        return lambda tree, p: tree.parent[p] < 0
    raise Unsupported(f":{ident}")


def _function_test(function: Function) -> Test:
    name = function.name
    if name == "contains":
        text = function.arguments[0].value
        if not isinstance(text, str):
            raise Unsupported(":contains() argument")
        return lambda tree, p: text in tree.string_value(p)
    if name not in ("nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type"):
        raise Unsupported(f":{name}()")
    a, b = parse_series(function.arguments)
    fits = _series(a, b)
    if name == "nth-child":
        return lambda tree, p: fits(tree.sibling[p])
    if name == "nth-last-child":
        return lambda tree, p: fits(tree.sibling_count(p) - 1 - tree.sibling[p])
    if name == "nth-of-type":
        return lambda tree, p: fits(tree.type_places()[0][p])
    return lambda tree, p: fits(tree.type_places()[1][p])


def _series(a: int, b: int) -> Callable[[int], bool]:
    """Whether ``count`` siblings before (or after) fit ``an+b``: some n >= 0 has
    ``a*n + b - 1 == count`` (cssselect's xpath_nth_child_function, solved for n)."""

    def fits(count: int) -> bool:
        gap = count - (b - 1)
        if a == 0:
            return gap == 0
        return gap % a == 0 and gap // a >= 0

    return fits


def select_positions(tree: Structure[N], scope: int, chains: tuple[Chain, ...]) -> list[N]:
    """Nodes of ``scope``'s subtree matching any chain, in document order, once each."""
    if len(chains) == 1:
        return [tree.nodes[p] for p in chains[0].positions(tree, scope)]
    found: set[int] = set()
    for chain in chains:
        found.update(chain.positions(tree, scope))
    return [tree.nodes[p] for p in sorted(found)]
