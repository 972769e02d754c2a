"""Was the document extracted with layout? Checks about pages and positions cannot be
decided on a paginated document read without rendering (a .docx loaded with
``render=False``, a Google Doc without its Drive PDF): they end in ``error``
("extracted without layout"), never in a ``fail`` the artifact did not earn.

Slides and sheets carry their geometry in the file (native boxes), so they always have
layout; PDFs are laid out by definition.
"""

from __future__ import annotations

from ..model import Document
from .result import CheckResult, Mechanism
from .target import cached

PAGINATED = frozenset({"docx", "gdoc", "odt"})
"""Formats whose pages exist only once the text is laid out."""

NO_LAYOUT = "NoLayout"


def extracted_without_layout(doc: Document) -> bool:
    """A paginated document whose tree has no pages, or no box on any node (computed
    once per Document)."""
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
