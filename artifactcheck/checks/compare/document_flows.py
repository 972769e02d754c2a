"""The text a document prints outside its body paragraphs and tables: headers and
footers, footnotes and endnotes, text boxes (the ``other_text`` aspect of
``compare_document``). A reader sees a header on every page; "the same document" with
another company name in it is not the same, though OSWorld's ``doc.paragraphs`` never
reads it.

Each flow is one item, located as a reader finds it: ``section 1 header (default)``,
``footnote 2``, ``text box 1``. Headers and footers pair by section and type (default,
first page, even pages); notes and text boxes by order. Flows no page shows (a
first-page header with "different first page" off) are left out, and a flow blank on
both sides is not an item. Text is compared as printed (runs in capitals in capitals)
with the comparison's text options.
"""

from __future__ import annotations

from ...model import Document, Node
from ..target import shown_text
from .diff import Comparison
from .text_options import TextCompareParams, difference_note, normalize_text, texts_agree

MARGIN_KINDS = ("header", "footer")
NOTE_KINDS = ("footnote", "endnote")
BOX_HOLDERS = frozenset({"textbox", "header", "footer", "footnote"})
"""A text box inside these is part of their text, not a flow of its own."""


def _shown(node: Node) -> bool:
    return node.attrs.get("rendered") is not False


def _margin_labels(node: Node) -> list[str]:
    """One label per section that shows the header or footer: a section linked to the one
    before (python-docx's ``add_section``) shows its predecessor's, which the tree lists in
    ``sections`` — so a header inherited by section 2 and one restated there are the same."""
    sections = node.attrs.get("sections")
    numbers = [s for s in sections if isinstance(s, int)] if isinstance(sections, list) else []
    if not numbers:
        section = node.attrs.get("section", 0)
        numbers = [section if isinstance(section, int) else 0]
    kind = node.attrs.get("type") or "default"
    return [f"section {n + 1} {node.kind} ({kind})" for n in numbers]


def _note_kind(node: Node) -> str:
    kind = node.attrs.get("note_type")
    return kind if isinstance(kind, str) and kind in NOTE_KINDS else node.kind


def other_flows(doc: Document) -> dict[str, Node]:
    """Located flows of ``doc`` in document order: headers and footers, notes, text boxes."""
    out: dict[str, Node] = {}
    for node in doc.root.children:
        if node.kind in MARGIN_KINDS and _shown(node):
            for label in _margin_labels(node):
                out.setdefault(label, node)
    counts: dict[str, int] = {}
    for node in doc.root.descendants():
        if node.kind == "footnote":  # endnotes too: note_type says which
            kind = _note_kind(node)
        elif node.kind == "textbox" and _shown(node) and not any(a.kind in BOX_HOLDERS for a in node.ancestors()):
            kind = "text box"
        else:
            continue
        counts[kind] = counts.get(kind, 0) + 1
        out[f"{kind} {counts[kind]}"] = node
    return out


def compare_other_text(cmp: Comparison, reference: Document, artifact: Document, p: TextCompareParams) -> None:
    """One ``other_text`` item per flow either side prints with text."""
    ref, art = other_flows(reference), other_flows(artifact)
    for where in [*ref, *(k for k in art if k not in ref)]:
        expected = normalize_text(shown_text(ref[where]), p) if where in ref else ""
        actual = normalize_text(shown_text(art[where]), p) if where in art else ""
        if not expected and not actual:
            continue
        if not actual:
            cmp.missing("other_text", where, expected)
        elif not expected:
            cmp.extra("other_text", where, actual)
        else:
            same, similarity = texts_agree(expected, actual, p)
            cmp.check("other_text", where, expected, actual, equal=same, note=difference_note(expected, actual, similarity))
