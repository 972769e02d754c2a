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
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, JsonValue

from .budget import count_node
from .geometry import Box
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


class Node(BaseModel):
    """A tree node. ``text`` is the plain text of the whole subtree; ``boxes`` holds one
    box per page the node is drawn on (empty when the node is not rendered, in which case
    ``attrs["rendered"]`` is ``False`` and says why in ``attrs["not_rendered_reason"]``);
    ``source`` points back into the file (XML part and shape id, API objectId, A1 cell).
    """

    model_config = ConfigDict(extra="forbid")

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

    # Navigation state lives in slots, not in pydantic private attributes: those are a
    # dict per node (~200 bytes; 22 MiB of a 100k-cell sheet's tree, design/xlsx-geometry.md).
    # Every way a Node is born sets them (model_post_init for validation and
    # model_construct, tree_builder.make_node), copies and pickles carry them; the Document
    # writes them when it links the tree. Not fields: never serialised, not compared.
    __slots__ = ("__weakref__", "_document", "_order", "_parent")  # __weakref__: Nodes stay weak-referable, as before
    if TYPE_CHECKING:
        _parent: Node | None
        _document: TreeOwner | None
        _order: int

    def model_post_init(self, context: Any, /) -> None:
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

    # Copies and pickles keep the navigation state, as they kept pydantic's private
    # attributes (pickles carry it in the same '__pydantic_private__' entry as before).
    def __copy__(self) -> Node:
        new = super().__copy__()
        new._set_navigation(self._navigation())
        return new

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> Node:
        memo = {} if memo is None else memo
        new = super().__deepcopy__(memo)
        new._set_navigation(copy.deepcopy(self._navigation(), memo))
        return new

    def __getstate__(self) -> dict[Any, Any]:
        state = super().__getstate__()
        state["__pydantic_private__"] = self._navigation()
        return state

    def __setstate__(self, state: dict[Any, Any]) -> None:
        nav = state.get("__pydantic_private__")
        super().__setstate__({**state, "__pydantic_private__": None})
        self._set_navigation(nav)

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


class TreeOwner(Protocol):
    """What a node knows of the Document that holds it (``model/document.py``): its root
    and the selector index of the whole tree. A protocol, so nodes sit below documents."""

    @property
    def root(self) -> Node: ...

    @property
    def selection(self) -> SelectionIndex[Node]: ...
