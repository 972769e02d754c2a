"""``Document``: the normalized tree of one artifact, its pages and its image store."""

from __future__ import annotations

import hashlib
import itertools
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, PrivateAttr

from .blobs import Blob
from .node import Node
from .select import SelectionIndex

SCHEMA_VERSION = "1.0"
_SEEN = -2  # Node._order while Document._link walks the tree: visited in this walk
# One lock for every Document's deferred layout: attaching one is rare (a render each),
# and a module-level lock keeps Documents picklable.
_LAYOUT_LOCK = threading.RLock()

# MIME type -> file extension for ``write_assets`` (a fixed table: a blob's MIME type
# comes from the artifact and must never shape a path).
_ASSET_EXTENSIONS = {
    "image/png": "png", "image/jpeg": "jpg", "image/jpg": "jpg", "image/gif": "gif", "image/bmp": "bmp",
    "image/tiff": "tiff", "image/webp": "webp", "image/svg+xml": "svg", "image/x-emf": "emf",
    "image/emf": "emf", "image/x-wmf": "wmf", "image/wmf": "wmf", "image/x-icon": "ico",
}
ArtifactFormat = Literal[
    "docx", "xlsx", "pptx", "gdoc", "gsheet", "gslides",
    "pdf", "csv", "odt", "ods", "odp", "epub", "xcu",
    "png", "jpeg", "gif", "bmp", "tiff", "webp",
]  # fmt: skip
"""What the artifact file is, told by content: Office Open XML, Google API responses,
PDF, CSV/TSV (``csv``), OpenDocument (read through its OOXML twin, ``extracted_as``),
EPUB e-books (``epub``, read without a render: ``ArtifactInfo.layout``), LibreOffice's
settings (``xcu``: ``registrymodifications.xcu``) and standalone images (named by their codec)."""
PageKind = Literal["page", "slide", "sheet"]


class Page(BaseModel):
    """A printed page, a slide, or a sheet's canvas (grid coordinates in points, from the
    top-left of cell A1). ``width``/``height`` in points; for a sheet, the extent of the
    used range plus its drawings."""

    model_config = ConfigDict(extra="forbid")

    index: int
    kind: PageKind
    width: float
    height: float
    name: str | None = None
    hidden: bool = False
    attrs: dict[str, JsonValue] = Field(
        default_factory=dict,
        description="Page attributes (slide layout, Word section...): the `pages` table of "
        "design/attributes.md, or `artifactcheck attrs pages`.",
    )


class ArtifactInfo(BaseModel):
    """Where the tree came from. ``format``, ``sha256``, ``size_bytes`` and ``path`` are
    the artifact's own (an .odt's, not its converted twin's); ``extracted_as`` names the
    format the tree was actually read from when it differs (an OpenDocument file is
    converted by LibreOffice to .docx/.xlsx/.pptx and read by that extractor)."""

    model_config = ConfigDict(extra="forbid")

    format: ArtifactFormat
    platform: Literal["office", "google"]
    sha256: str
    size_bytes: int
    path: str | None = None
    producer: str | None = None
    extracted_as: Literal["docx", "xlsx", "pptx"] | None = None
    layout: Literal["none"] | None = Field(
        default=None,
        description="'none' when the format is read without any layout (EPUB: reflowable, nothing renders it; a "
        "settings file): the document has no pages and no node has a box, so page and position checks end in error",
    )


class ToolInfo(BaseModel):
    """A tool that shaped the tree (extractor library, renderer), with its version."""

    model_config = ConfigDict(extra="forbid")

    name: str
    version: str


class Document(BaseModel):
    """The tree. ``root`` is the ``document`` node; ``pages`` lists pages/slides/sheets;
    ``blobs`` maps sha256 to stored images; ``warnings`` lists what extraction could not
    do (an unreadable chart, an undecodable image) so that nothing partial passes as whole.

    Units are points, origin top-left of each page, y down (design/coordinates.md).
    """

    model_config = ConfigDict(extra="forbid")

    schema_version: str = SCHEMA_VERSION
    artifact: ArtifactInfo
    pages: list[Page]
    root: Node
    blobs: dict[str, Blob] = Field(default_factory=dict)
    tools: list[ToolInfo] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)

    _by_id: dict[str, Node] | None = PrivateAttr(default=None)  # built on first get()
    _numbered: bool = PrivateAttr(default=False)  # Node.order written (number_nodes)
    _nodes: list[Node] = PrivateAttr(default_factory=list)
    _selection: SelectionIndex[Node] | None = PrivateAttr(default=None)  # built lazily
    _layout_hook: Callable[[Document], None] | None = PrivateAttr(default=None)
    _layout_error: BaseException | None = PrivateAttr(default=None)

    def model_post_init(self, context: Any, /) -> None:
        self._link()

    def _link(self) -> None:
        """Give every node its parent and document; check that ids are unique.

        Pre-order positions (``Node.order``) and the id index (``get``) are built on first
        use (``number_nodes``, ``_index``): most scorings read neither, and on a 100k-cell
        sheet they are 3 MiB of position ints and a 3.7 MiB dict held for the tree's life
        (design/xlsx-geometry.md). The duplicate check sorts the ids instead of indexing
        them: a list of pointers, freed before the call returns."""
        self._selection = None
        self._by_id = None
        self._numbered = False
        # Navigation slots (model/node.py) written with object.__setattr__: pydantic's
        # __setattr__ costs ~1 us a call, a third of loading a 100k-cell sheet
        # (bench/bench_extract_xlsx.py). The walk is Node.iter's pre-order, inlined, and
        # works on locals: a private attribute read (self._nodes) is a __getattr__ call.
        put = object.__setattr__
        root = self.root
        put(root, "_parent", None)
        nodes: list[Node] = []
        stack = [root]
        pop, push, add = stack.pop, stack.extend, nodes.append
        while stack:
            node = pop()
            if node._order == _SEEN:  # one node twice (or a cycle, which would walk forever)
                raise ValueError(f"duplicate node id {node.id!r}")
            put(node, "_document", self)
            put(node, "_order", _SEEN)
            add(node)
            children = node.children
            if children:
                for child in children:
                    put(child, "_parent", node)
                push(reversed(children))
        for node in nodes:
            put(node, "_order", -1)  # numbered on demand (number_nodes)
        ids = sorted([n.id for n in nodes])
        for a, b in itertools.pairwise(ids):
            if a == b:
                raise ValueError(f"duplicate node id {a!r}")
        del ids
        self._nodes = nodes

    def number_nodes(self) -> None:
        """Write every node's pre-order position (``Node.order`` calls this on first read)."""
        if self._numbered:  # a node cut from the tree after linking keeps order -1
            return
        put = object.__setattr__
        for i, node in enumerate(self._nodes):
            put(node, "_order", i)
        self._numbered = True  # after the loop: a thread reading meanwhile numbers too (same values)

    def _index(self) -> dict[str, Node]:
        by_id = self._by_id
        if by_id is None:  # two threads may both build it: equal dicts, the last one kept
            by_id = self._by_id = {n.id: n for n in self._nodes}
        return by_id

    def __repr__(self) -> str:
        """One line, whatever the size of the tree (pydantic's default printed every node:
        megabytes for a large sheet in a traceback or a notebook).

        >>> from artifactcheck.checks.examples import tiny_doc
        >>> tiny_doc()
        <Document docx: 1 page, 39 nodes, 0 images>
        """
        a = self.artifact
        where = f" {a.path!r}" if a.path else ""
        kinds = {"page": "page", "slide": "slide", "sheet": "sheet"}
        kind = kinds.get(self.pages[0].kind, "page") if self.pages else "page"
        pages = f"{len(self.pages)} {kind}{'' if len(self.pages) == 1 else 's'}"
        images = sum(1 for n in self._nodes if n.kind == "image")
        warned = f", {len(self.warnings)} warning{'' if len(self.warnings) == 1 else 's'}" if self.warnings else ""
        return f"<Document {a.format}{where}: {pages}, {len(self._nodes)} nodes, {images} image{'' if images == 1 else 's'}{warned}>"

    __str__ = __repr__

    @property
    def selection(self) -> SelectionIndex[Node]:
        """The selector index of the whole tree (an lxml mirror, built on first use)."""
        if self._selection is None:
            self._selection = SelectionIndex(self.root)
        return self._selection

    # -- deferred layout --------------------------------------------------------------
    def defer_layout(self, attach: Callable[[Document], None]) -> None:
        """Register how this Document gets its rendered layout, to run on the first
        :meth:`ensure_layout`. Slide-deck extractors use it: a render costs a LibreOffice
        start (or reading a PDF export), and most checks never need one. ``attach``
        changes the tree in place (boxes, attributes, warnings)."""
        self._layout_hook = attach
        self._layout_error = None

    @property
    def layout_pending(self) -> bool:
        """True while a deferred layout has not been attached (nor failed)."""
        return self._layout_hook is not None

    @property
    def layout_error(self) -> BaseException | None:
        """What the deferred layout raised, when it failed (it is not retried)."""
        return self._layout_error

    def ensure_layout(self) -> bool:
        """Attach the deferred layout now, if there is one (once). Returns True when this
        call attached it, False when there was nothing to do. Checks that judge where
        text is drawn call it before reading boxes; users may call it before reading
        ``paragraph``/``run`` boxes of a slide deck themselves.

        Raises what the layout raised (``RenderError``, ``RenderTimeout``,
        ``MissingDependency`` ...), and raises it again on every later call: a render
        that failed is not retried, and its tree keeps the boxes it had."""
        with _LAYOUT_LOCK:
            if self._layout_error is not None:
                raise self._layout_error
            hook = self._layout_hook
            if hook is None:
                return False
            try:
                hook(self)
            except BaseException as exc:
                self._layout_error = exc
                self._layout_hook = None
                self._selection = None
                raise
            self._layout_hook = None
            self._link()  # boxes, attributes (and maybe nodes) changed: re-index, selector mirror lazily
            return True

    # -- navigation -------------------------------------------------------------------
    def iter(self, kind: str | None = None) -> Iterator[Node]:
        """Every node in document order, optionally only one kind."""
        return (n for n in self._nodes if kind is None or n.kind == kind)

    def __iter__(self) -> Iterator[Node]:  # type: ignore[override]
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    def get(self, node_id: str) -> Node:
        """The node with this id; KeyError names the id when there is none."""
        try:
            return self._index()[node_id]
        except KeyError:
            raise KeyError(f"no node with id {node_id!r}") from None

    def select(self, selector: str) -> list[Node]:
        """Nodes matching a selector, in document order. See ``model/select.py``.

        >>> doc.select("paragraph[heading_level='1']")          # doctest: +SKIP
        >>> doc.select("slide:nth-of-type(2) image")            # doctest: +SKIP
        >>> doc.select("run[bold=true][hyperlink]")             # doctest: +SKIP
        """
        return self.root.select(selector)

    def select_one(self, selector: str) -> Node | None:
        return self.root.select_one(selector)

    def nodes_on_page(self, page: int, kind: str | None = None) -> list[Node]:
        """Nodes with a box on ``page`` (0-based), in document order."""
        return [
            n
            for n in self._nodes
            if (kind is None or n.kind == kind) and any(b.page == page for b in n.boxes)
        ]

    def page(self, index: int) -> Page:
        """Page by 0-based index; negative indexes count from the end (-1: last page)."""
        return self.pages[index]

    @property
    def text(self) -> str:
        return self.root.text

    def blob(self, sha256: str) -> Blob:
        try:
            return self.blobs[sha256]
        except KeyError:
            raise KeyError(f"no blob {sha256!r} in this document") from None

    def images(self) -> list[Node]:
        return list(self.iter("image"))

    # -- serialisation ----------------------------------------------------------------
    def to_json(self, *, indent: int | None = 2) -> str:
        return self.model_dump_json(indent=indent, exclude_none=False)

    @classmethod
    def from_json(cls, data: str | bytes) -> Document:
        return cls.model_validate_json(data)

    def write_assets(self, directory: str | Path) -> list[Path]:
        """Write every blob that has bytes to ``directory/<sha256>.<ext>``.

        The name is the sha256 of the bytes written (computed here, not the blob's key,
        which a saved tree may set to anything) and the extension comes from a fixed
        table of MIME types (else ``bin``), so every file lands inside ``directory`` and
        different bytes never share a name."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        written = []
        for _key, blob in sorted(self.blobs.items()):
            if blob.data is None:
                continue
            sha = hashlib.sha256(blob.data).hexdigest()
            path = out / f"{sha}.{_ASSET_EXTENSIONS.get(blob.mime.lower(), 'bin')}"
            path.write_bytes(blob.data)
            written.append(path)
        return written
