"""``Node``: one element of the normalized tree, the same vocabulary for all six sources.

Kinds (see design/tree.md for what each source maps to which kind):

- containers: ``document``, ``page``, ``slide``, ``sheet``, ``header``, ``footer``,
  ``note`` (speaker notes), ``footnote``, ``comment``, ``group``, ``textbox``
- text: ``paragraph`` (attrs: ``style_name``, ``heading_level``, ``list_level``,
  ``list_ordered``), ``line`` (a printed text line: PDF text layers and OCR, which know
  lines but not the paragraphs of a source file), ``run`` (a span with one effective
  style; attrs: ``hyperlink``; in PDF and OCR trees, one word)
- tables: ``table``, ``row``, ``cell``
- drawn things: ``image``, ``shape``, ``chart``, ``media``
- ``setting``: one value of an application settings file (LibreOffice's
  ``registrymodifications.xcu``; attrs: ``path``)

Every attribute of every kind is declared in ``model/attributes.py`` (``artifactcheck attrs
KIND``, design/attributes.md).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, NoReturn, Protocol

from pydantic import ConfigDict, Field, JsonValue
from pydantic.dataclasses import dataclass

from .budget import count_node
from .geometry import Box
from .model_spelling import ModelSpelling
from .select import SelectionIndex, select_nodes
from .style import Style

NodeKind = Literal[
    "document",
    "page",
    "slide",
    "sheet",
    "header",
    "footer",
    "note",
    "footnote",
    "comment",
    "group",
    "textbox",
    "paragraph",
    "line",
    "run",
    "table",
    "row",
    "cell",
    "image",
    "shape",
    "chart",
    "media",
    "setting",
]
NODE_KINDS: tuple[str, ...] = NodeKind.__args__  # type: ignore[attr-defined]
_set = object.__setattr__
_new = object.__new__


class _Linked:
    """Where a node sits: its parent, its Document and its pre-order position. Slots of a
    base class, not fields: never serialised, never compared, never validated; the
    Document writes them when it links the tree (``Document._link``)."""

    __slots__ = ("__weakref__", "_document", "_order", "_parent")  # __weakref__: nodes stay weak-referable
    if TYPE_CHECKING:
        _parent: Node | None
        _document: TreeOwner | None
        _order: int


@dataclass(slots=True, config=ConfigDict(extra="forbid"))
class Node(_Linked, ModelSpelling):
    """A tree node. ``text`` is the plain text of the whole subtree; ``boxes`` holds one
    box per page the node is drawn on (empty when the node is not rendered, in which case
    ``attrs["rendered"]`` is ``False`` and says why in ``attrs["not_rendered_reason"]``);
    ``source`` points back into the file (XML part and shape id, API objectId, A1 cell).
    """

    # A slotted pydantic dataclass, not a BaseModel: the same validation, JSON and JSON
    # schema, but no instance dict, fields-set, extras or private attributes per node -
    # ~130 bytes instead of 192, on every node of every tree (a 100k-cell sheet holds 110k;
    # design/xlsx-geometry.md). ModelSpelling and model_copy keep the BaseModel spelling.
    # Every way a Node is born sets the navigation slots: __post_init__ (validation),
    # model_construct, tree_builder.make_node; copies and pickles carry them.

    id: str
    kind: NodeKind
    text: str = ""
    style: Style | None = None
    attrs: dict[str, JsonValue] = Field(
        default_factory=dict,
        description="Kind-specific attributes. Every name with its type, unit, meaning and an example, "
        "kind by kind: design/attributes.md, or `artifactcheck attrs KIND` (declared in "
        "artifactcheck/model/attributes.py).",
    )
    boxes: list[Box] = Field(default_factory=list)
    source: str | None = None
    children: list[Node] = Field(default_factory=list)

    def __post_init__(self) -> None:
        _set(self, "_parent", None)
        _set(self, "_document", None)
        _set(self, "_order", -1)
        count_node()  # the tree_nodes budget, while a document loads (model/budget.py)

    def _navigation(self) -> dict[str, Any]:
        return {"_parent": self._parent, "_document": self._document, "_order": self._order}

    def _set_navigation(self, nav: dict[str, Any] | None) -> None:
        nav = nav or {}
        _set(self, "_parent", nav.get("_parent"))
        _set(self, "_document", nav.get("_document"))
        _set(self, "_order", nav.get("_order", -1))

    # -- copies and pickles: fields and navigation ---------------------------------------
    def __copy__(self) -> Node:
        new = _new(Node)
        for name in NODE_FIELDS:
            _set(new, name, getattr(self, name))
        new._set_navigation(self._navigation())
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Node:
        memo = {} if memo is None else memo
        new = _new(Node)
        memo[id(self)] = new
        for name in NODE_FIELDS:
            _set(new, name, copy.deepcopy(getattr(self, name), memo))
        new._set_navigation(copy.deepcopy(self._navigation(), memo))
        return new

    def __getstate__(self) -> tuple[tuple[Any, ...], dict[str, Any]]:
        return tuple(getattr(self, name) for name in NODE_FIELDS), self._navigation()

    def __setstate__(self, state: tuple[tuple[Any, ...], dict[str, Any]]) -> None:
        values, nav = state
        for name, value in zip(NODE_FIELDS, values, strict=True):
            _set(self, name, value)
        self._set_navigation(nav)

    # -- the BaseModel spelling ----------------------------------------------------------
    def model_copy(self, *, update: dict[str, Any] | None = None, deep: bool = False) -> Node:
        """A copy (shallow unless ``deep``) with ``update`` applied, unvalidated - as
        ``BaseModel.model_copy``; the copy keeps the navigation state."""
        new = copy.deepcopy(self) if deep else self.__copy__()
        for name, value in (update or {}).items():
            if name not in _NODE_FIELD_SET:
                raise ValueError(f"Node has no field {name!r}")
            _set(new, name, value)
        return new

    def __repr__(self) -> str:
        text = self.text if len(self.text) <= 40 else self.text[:37] + "..."
        return f"<Node {self.kind} {self.id!r} {text!r}>"

    __str__ = __repr__

    # -- navigation -----------------------------------------------------------------
    @property
    def parent(self) -> Node | None:
        return self._parent

    @property
    def document(self) -> TreeOwner | None:
        """The Document this node belongs to (``None`` before it joins one)."""
        return self._document

    @property
    def order(self) -> int:
        """Position in document order (pre-order), -1 before the node joins a Document."""
        if self._order < 0 and self._document is not None:
            self._document.number_nodes()  # positions are written on first read
        return self._order

    def ancestors(self) -> Iterator[Node]:
        """Parent, grandparent, ... up to the root."""
        node = self._parent
        while node is not None:
            yield node
            node = node._parent

    def iter(self) -> Iterator[Node]:
        """This node and every descendant, in document (pre-)order. Iterative: deep
        trees do not hit the recursion limit."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))

    def descendants(self, kind: str | None = None) -> Iterator[Node]:
        it = self.iter()
        next(it)
        return (n for n in it if kind is None or n.kind == kind)

    def select(self, selector: str) -> list[Node]:
        """Nodes in this subtree (self included) matching a CSS-like selector.
        See :mod:`artifactcheck.model.select` for the syntax."""
        owner = self._document
        return select_nodes(self, selector, owner.selection if owner is not None else None)

    def select_one(self, selector: str) -> Node | None:
        found = self.select(selector)
        return found[0] if found else None

    def is_inside(self, other: Node) -> bool:
        """True when ``other`` is a proper ancestor of this node."""
        return any(a is other for a in self.ancestors())

    # -- geometry -------------------------------------------------------------------
    @property
    def pages(self) -> list[int]:
        """0-based pages this node is drawn on, ascending."""
        return sorted({b.page for b in self.boxes})

    def boxes_on(self, page: int) -> list[Box]:
        return [b for b in self.boxes if b.page == page]

    @property
    def box(self) -> Box | None:
        """The first box (the node's box on its first page), or None when unrendered."""
        return self.boxes[0] if self.boxes else None

    def attr(self, name: str, default: Any = None) -> Any:
        return self.attrs.get(name, default)


NODE_FIELDS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Node))
"""Node's fields, in declaration (and JSON) order."""
_NODE_FIELD_SET = frozenset(NODE_FIELDS)


class _NoChildren(list["Node"]):
    """The one empty, read-only children list that leaf nodes of large trees share.

    An empty list is 56 bytes; a 100k-cell sheet's cells would hold 5.3 MiB of them
    (design/xlsx-geometry.md). It is a ``list`` to everyone that reads it (equal to ``[]``,
    serialised as ``[]``); changing it in place raises instead of changing every leaf at
    once - give the node a list of its own (``node.children = [child]``)."""

    __slots__ = ()

    def _refuse(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError("this node's children is the shared empty list NO_CHILDREN: assign node.children = [...]")

    append = extend = insert = remove = clear = sort = reverse = _refuse
    pop = __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __copy__(self) -> _NoChildren:
        return self

    def __deepcopy__(self, memo: object) -> _NoChildren:
        return self

    def __reduce__(self) -> str:
        return "NO_CHILDREN"  # pickles to the module's one instance


NO_CHILDREN: list[Node] = _NoChildren()
"""The shared empty children list (``tree_builder.make_node(children=NO_CHILDREN)``)."""


class TreeOwner(Protocol):
    """What a node knows of the Document that holds it (``model/document.py``): its root
    and the selector index of the whole tree. A protocol, so nodes sit below documents."""

    @property
    def root(self) -> Node: ...

    @property
    def selection(self) -> SelectionIndex[Node]: ...

    def number_nodes(self) -> None: ...
