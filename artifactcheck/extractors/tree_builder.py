"""Helpers every extractor uses to assemble a tree: fast node constructors and subtree text.

Ids are paths (``s2/sp5/p0/r1``, ``Sheet1!B3``): stable across runs of the same file, and
readable in evidence. ``fill_container_text`` gives every container the plain text of its
subtree so extractors only set text on leaves.

``make_node``/``make_box`` build exactly what ``Model.model_construct(**all_fields)``
builds - every slot of the slotted Node/Box set, navigation included - without pydantic's
per-call generic work (validation, defaults lookup), which dominated the extraction of
100k-cell sheets and a third of a deck's. Values must already be valid: the extractor
produces them (boxes with ``x0 <= x1`` and ``top <= bottom``, JSON-able attrs). A test
compares both constructions
(tests/extractors/test_xlsx_units.py).
"""

from __future__ import annotations

from typing import Any

from ..model import Box, Node, Style
from ..model.budget import count_node
from ..model.geometry import BoxOrigin, unchecked_box

# How a container's children are joined into its text.
_JOINERS: dict[str, str] = {"paragraph": "", "row": "\t"}
_DEFAULT_JOINER = "\n"


def fill_container_text(root: Node) -> None:
    """Set ``text`` of every node that has children and no text of its own, bottom-up."""
    post_order: list[Node] = []
    stack = [root]
    while stack:
        node = stack.pop()
        post_order.append(node)
        stack.extend(node.children)
    for node in reversed(post_order):
        if node.children and not node.text:
            joiner = _JOINERS.get(node.kind, _DEFAULT_JOINER)
            parts = [c.text for c in node.children]
            if joiner == _DEFAULT_JOINER:
                parts = [p for p in parts if p]
            node.text = joiner.join(parts)


def set_leaf_text(leaf: Node, text: str) -> None:
    """Change a leaf's text after the tree is built, and the text of each ancestor that
    was its children's joined text (:func:`fill_container_text`); an ancestor whose text
    the extractor set otherwise keeps it, and so do the ones above it."""
    child, old = leaf, leaf.text
    _set(leaf, "text", text)
    node = leaf.parent
    while node is not None:
        joiner = _JOINERS.get(node.kind, _DEFAULT_JOINER)
        before = [old if c is child else c.text for c in node.children]
        after = [c.text for c in node.children]
        if joiner == _DEFAULT_JOINER:
            before, after = [p for p in before if p], [p for p in after if p]
        if node.text != joiner.join(before):
            return
        child, old = node, node.text
        _set(node, "text", joiner.join(after))
        node = node.parent


_new = object.__new__
_set = object.__setattr__


def make_box(page: int, x0: float, top: float, x1: float, bottom: float, origin: BoxOrigin = "native") -> Box:
    """A box without pydantic's per-call validation (points; ``native`` by default, the
    sheet canvas; ``layout`` for extents read from a rendered PDF); the caller guarantees
    finite values, x0 <= x1 and top <= bottom."""
    return unchecked_box(page, x0, top, x1, bottom, origin)


# attrs key sequence -> a class whose instances' __dict__ has exactly those keys (see
# compact_attrs). Bounded: a workbook with more shapes than this keeps plain dicts past it.
_ATTR_SHAPES: dict[tuple[str, ...], type] = {}
_MAX_ATTR_SHAPES = 512


def compact_attrs(attrs: dict[str, Any]) -> dict[str, Any]:
    """The same mapping (equal, same order, a real ``dict``) in less memory, when many
    dicts share one key sequence (a sheet's cells: 9-12 keys each, a handful of sequences).

    CPython stores the keys of an instance ``__dict__`` once per class (a key-sharing
    dict: only the values are per instance), so the values are copied onto a fresh
    instance of a class made for this key sequence and its ``__dict__`` is returned: ~140
    bytes a dict less at 9 keys. The dict stays a plain dict to everyone; adding a key
    later just makes it an ordinary dict again. Other interpreters get an equal copy.
    """
    shape = tuple(attrs)
    cls = _ATTR_SHAPES.get(shape)
    if cls is None:
        if len(_ATTR_SHAPES) >= _MAX_ATTR_SHAPES:
            return attrs
        cls = _ATTR_SHAPES[shape] = type("AttrShape", (), {"__module__": __name__})
    holder = cls()
    for key, value in attrs.items():
        _set(holder, key, value)
    out: dict[str, Any] = holder.__dict__
    return out


def make_node(
    id: str,
    kind: str,
    *,
    text: str = "",
    style: Style | None = None,
    attrs: dict[str, Any] | None = None,
    boxes: list[Box] | None = None,
    source: str | None = None,
    children: list[Node] | None = None,
) -> Node:
    n = _new(Node)
    # Slot by slot, as validation would set them (model/node.py).
    _set(n, "id", id)
    _set(n, "kind", kind)
    _set(n, "text", text)
    _set(n, "style", style)
    _set(n, "attrs", {} if attrs is None else attrs)
    _set(n, "boxes", [] if boxes is None else boxes)
    _set(n, "source", source)
    _set(n, "children", [] if children is None else children)
    _set(n, "_parent", None)  # navigation slots (model/node.py), as Node.__post_init__ sets them
    _set(n, "_document", None)
    _set(n, "_order", -1)
    count_node()  # what Node.__post_init__ does for nodes built through pydantic
    return n
