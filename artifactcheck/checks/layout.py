"""Was the document extracted with layout? Checks about pages and positions cannot be
decided on a paginated document read without rendering (a .docx loaded with
``render=False``, a Google Doc without its Drive PDF): they end in ``error``
("extracted without layout"), never in a ``fail`` the artifact did not earn.

Slides and sheets carry their geometry in the file (native boxes), so they always have
layout; PDFs are laid out by definition. Where a slide's *text* is drawn, though, comes
from a render the Document attaches on demand (``Document.ensure_layout``: a .pptx through
LibreOffice, a Google Slides deck from its Drive PDF): :func:`ensure_layout_for` asks for
it when a check is about to judge the geometry of text (design/pptx-geometry.md).
"""

from __future__ import annotations

from ..model import Box, Document, Node
from .result import CheckResult, Mechanism
from .target import cached

PAGINATED = frozenset({"docx", "gdoc", "odt"})
"""Formats whose pages exist only once the text is laid out."""

NO_LAYOUT = "NoLayout"


def extracted_without_layout(doc: Document) -> bool:
    """A document read without any layout (``ArtifactInfo.layout == "none"``: an EPUB, a
    settings file), or a paginated one whose tree has no pages, or no box on any node
    (computed once per Document)."""
    if doc.artifact.layout == "none":
        return True
    if doc.artifact.format not in PAGINATED:
        return False
    return cached(doc, "extracted_without_layout", lambda d: not d.pages or not any(n.boxes for n in d.iter()))


def without_layout(check: str, mechanism: Mechanism, needs: str) -> CheckResult:
    """The ``error`` a check returns when ``needs`` (pages, positions, sizes) requires a
    layout the document was extracted without."""
    return CheckResult(
        check=check,
        status="error",
        mechanism=mechanism,
        explanation=f"the document was extracted without layout, so {needs} cannot be judged; "
        "load it with rendering (artifactcheck.load(path, render=True))",
        error={"type": NO_LAYOUT, "message": "extracted without layout"},
    )


LAYOUT_TEXT_KINDS = frozenset({"paragraph", "run"})
"""Kinds whose box is where their text is drawn once a deferred layout is attached (a
slide deck's paragraphs and runs carry their frame's box until then)."""


def wants_layout(node: Node, *, frames: bool = False) -> bool:
    """Would ``node``'s geometry change with the drawn layout? Paragraphs and runs do;
    a table (or its rows and cells) with text, which can grow rows past their stated
    height; a frame resized to fit its text (``spAutoFit``, every python-pptx text
    box); with ``frames``, also a shape or cell whose drawn text is judged against it
    (text fitting)."""
    kind = node.kind
    if kind in LAYOUT_TEXT_KINDS:
        return True
    if kind in ("table", "row", "cell"):
        table = node if kind == "table" else next((a for a in node.ancestors() if a.kind == "table"), None)
        # A row's stated height is a minimum: LibreOffice grows rows whose text needs more
        # (python-pptx writes every row's height), so any table with text is drawn taller.
        if table is not None and (table.attrs.get("rows_without_height") or table.text.strip()):
            return True
    if kind in ("shape", "textbox") and node.attrs.get("autofit") == "shape" and node.text.strip():
        return True  # LibreOffice draws the frame sized to its text (render/slides.py grown_frame)
    return frames and bool(node.text.strip()) and kind in ("shape", "textbox", "cell")


def ensure_layout_for(doc: Document, nodes: list[Node], *, frames: bool = False) -> None:
    """Attach the document's deferred layout (a slide deck's LibreOffice render) when
    one of ``nodes`` :func:`wants_layout`. Does nothing for documents whose layout is
    attached or absent, so a check over pictures never starts a renderer. Raises what
    the render raised: the check then reports ``error`` (the evaluator broke)."""
    if (doc.layout_pending or doc.layout_error is not None) and any(wants_layout(n, frames=frames) for n in nodes):
        doc.ensure_layout()  # raises again when the render failed: never judged on frames


def drawn_text_box(node: Node) -> Box | None:
    """Where a slide frame's text is drawn (``drawn_text_box``, once the layout is
    attached), on the frame's page; None without one."""
    drawn = node.attrs.get("drawn_text_box")
    frame = node.box
    if not isinstance(drawn, dict) or frame is None:
        return None
    try:
        x0, top, x1, bottom = (float(drawn[k]) for k in ("x0", "top", "x1", "bottom"))  # type: ignore[arg-type]
    except (KeyError, TypeError, ValueError):
        return None
    return Box(page=frame.page, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")
