"""``compare_document``: the artifact against a gold document, aspect by aspect, every
difference located (``paragraph 12 ("Revenue grew by…")``, ``table 1 row 2 cell 3``,
``image 2 ('logo')``). See design/compare.md, "Documents".

The reference is any document :func:`artifactcheck.load` reads (.docx, .odt, PDF, a saved
Google Docs response), loaded without rendering: nothing compared here needs a layout.
Paragraphs are the body's (not those of tables, headers, footers, notes, comments or text
boxes), paired by :mod:`.sequence_alignment` so one inserted paragraph is one
difference; every other paragraph aspect (structure, formatting, paragraph properties)
is compared on those pairs.
"""

from __future__ import annotations

import bisect
from typing import Any, Literal

from pydantic import Field, model_validator

from ...errors import RubricError
from ...model import Document, Node
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import labelled_text, shown_text
from .diff import Comparison, comparison_result
from .document_flows import compare_other_text
from .picture_identity import ImageMatch, nodes_show_same_picture
from .reference import load_reference_document
from .run_formatting import DEFAULT_RUN_PROPERTIES, RunProperty, compare_run_formatting
from .sequence_alignment import Pair, align
from .text_options import (
    TextCompareParams,
    difference_note,
    is_blank,
    normalize_text,
    pairing_similarity,
    snippet,
    texts_agree,
)
from .text_tables import compare_table_cells

DocumentAspect = Literal["text", "structure", "tables", "images", "other_text", "runs", "paragraphs", "page_setup"]
DEFAULT_ASPECTS: tuple[DocumentAspect, ...] = ("text", "structure", "tables", "images", "other_text")

ParagraphProperty = Literal[
    "alignment", "space_before", "space_after", "line_spacing", "indent_left", "indent_right", "indent_first_line",
    "tab_stops", "style_name",
]
DEFAULT_PARAGRAPH_PROPERTIES: tuple[ParagraphProperty, ...] = (
    "alignment", "space_before", "space_after", "line_spacing", "indent_left", "indent_right", "indent_first_line",
    "tab_stops",
)

NOT_BODY = frozenset({"cell", "header", "footer", "footnote", "comment", "note", "textbox"})
"""Containers whose paragraphs are not body paragraphs (tables are compared cell by cell)."""
WITHOUT_STRUCTURE = frozenset({"pdf", "image"})
"""Formats whose trees carry no heading levels or list items: structure is not compared."""
DOCUMENT_FORMATS = frozenset({"docx", "odt", "gdoc", "epub", "pdf", "png", "jpeg", "gif", "bmp", "tiff", "webp"})
"""What a gold document may be (an image: a scanned page, read by OCR when loaded so)."""
PAGE_SETUP_KEYS = ("page_width", "page_height", "orientation")
MARGINS = ("top", "bottom", "left", "right")


class CompareDocumentParams(TextCompareParams):
    """Parameters of ``compare_document``."""

    aspects: list[DocumentAspect] = Field(
        default=list(DEFAULT_ASPECTS),
        min_length=1,
        description="what is compared: text (body paragraphs), structure (heading level and list item of paired "
        "paragraphs), tables (dimensions, cell text), images (same pictures, same order), other_text (the text "
        "of headers, footers, footnotes and text boxes, which every page shows but the body does not hold), runs (character "
        "formatting on aligned text), paragraphs (paragraph properties), page_setup (page size, orientation, "
        "margins per section)",
    )
    join_paragraphs: bool = Field(
        default=False,
        description="text: compare the whole body text as one string, paragraph breaks counting as spaces "
        "(OSWorld's default: a paragraph split in two still agrees); differences are located by word",
    )
    trailing_paragraphs: Literal["differ", "ignore"] = Field(
        default="differ",
        description="text: artifact paragraphs after the last one paired with the reference (the artifact goes on "
        "past the gold's end) are differences (differ) or left out (ignore: the artifact must begin with the gold's "
        "paragraphs, OSWorld's compare_init_lines); a reference paragraph missing from the artifact still differs",
    )
    after_paragraph: str | None = Field(
        default=None,
        description="compare only the body paragraphs after the first one whose text is this (e.g. 'References'; "
        "compared as text is: whitespace, and case with ignore_case), on both sides: text, structure, runs and "
        "paragraph properties; the reference lacking it is an error, the artifact lacking it a difference",
    )
    score_floor: float | None = Field(
        default=None,
        ge=0,
        lt=1,
        description="with partial_credit: a share of agreeing items at or below this scores 0, a share above it "
        "scores (share - floor) / (1 - floor) (OSWorld's compare_references rescales above 0.5); none: the share",
    )
    select: str | None = Field(
        default=None,
        description="selector of the reference paragraphs whose structure, runs and paragraph properties are "
        "compared (e.g. 'paragraph[heading_level]'); text is compared over the whole body (after_paragraph "
        "narrows every paragraph aspect)",
    )
    run_properties: list[RunProperty] = Field(
        default=list(DEFAULT_RUN_PROPERTIES), min_length=1, description="runs: the character properties compared"
    )
    paragraph_properties: list[ParagraphProperty] = Field(
        default=list(DEFAULT_PARAGRAPH_PROPERTIES), min_length=1, description="paragraphs: the properties compared"
    )
    tolerance_pt: float = Field(
        default=0.5, ge=0, description="paragraphs and page_setup: spacing, indents, tab stops and margins within this many points agree"
    )
    image_position: Literal["order", "paragraph"] = Field(
        default="order",
        description="images: pictures pair in document order (order), or must also sit by the paired paragraph "
        "(paragraph: in it, or after it for a picture-only paragraph; a picture moved to another paragraph "
        "differs, OSWorld's compare_contains_image)",
    )
    image_match: ImageMatch = Field(
        default="identity",
        description="images: identity (the same picture resized or recompressed counts, a look-alike does not) or "
        "pixels (identical decoded pixels)",
    )

    @model_validator(mode="after")
    def _floor_needs_partial_credit(self) -> CompareDocumentParams:
        if self.score_floor is not None and not self.partial_credit:
            raise ValueError("score_floor rescales the partial_credit score: set partial_credit: true")
        return self


# -- what is compared -------------------------------------------------------------------


def body_paragraphs(doc: Document) -> list[Node]:
    """The body's paragraphs in document order (see NOT_BODY)."""
    return [n for n in doc.root.descendants("paragraph") if not any(a.kind in NOT_BODY for a in n.ancestors())]


def _where(number: int, text: str, *, artifact: bool = False) -> str:
    prefix = "artifact paragraph" if artifact else "paragraph"
    return f'{prefix} {number} ("{snippet(text)}")' if text.strip() else f"{prefix} {number} (empty)"


class _Side:
    """One document's body paragraphs as compared: node, 1-based number among all body
    paragraphs, normalised key."""

    def __init__(self, doc: Document, p: CompareDocumentParams, *, with_labels: bool = False) -> None:
        paragraphs = body_paragraphs(doc)
        self.number_of = {n.id: k + 1 for k, n in enumerate(paragraphs)}
        """1-based number among all body paragraphs, by node id (blank ones too)."""
        kept = [(k + 1, n) for k, n in enumerate(paragraphs) if not (p.ignore_blank and is_blank(n.text))]
        self.scope_found = True
        if p.after_paragraph is not None:
            marker = normalize_text(p.after_paragraph, p)
            at = next((k for k, (_, n) in enumerate(kept) if normalize_text(n.text, p) == marker), None)
            self.scope_found = at is not None
            kept = kept[at + 1:] if at is not None else []
        self.numbers = [k for k, _ in kept]
        self.nodes = [n for _, n in kept]
        # Compared as printed, list labels included, when both formats record them: "1. Mix
        # the flour" typed by hand and an automatically numbered "Mix the flour" are the
        # same line on the page (an EPUB's lists carry no labels: compared without). Runs
        # set in capitals (w:caps) are compared in capitals, as the page shows them.
        self.keys = [normalize_text(shown_text(n, labelled_text(n) if with_labels else n.text), p) for n in self.nodes]


def _records_list_labels(doc: Document) -> bool:
    """The document's format prints list labels we read (.docx, Google Docs), or not."""
    return doc.artifact.format in ("docx", "gdoc", "odt")


def pair_paragraphs(ref: _Side, art: _Side, p: CompareDocumentParams) -> list[Pair]:
    moved_at = p.fuzzy if p.fuzzy is not None else 1.0
    return align(ref.keys, art.keys, similarity=pairing_similarity, min_moved=moved_at)


def _last_paired(pairs: list[Pair]) -> int:
    """The artifact index of the last paragraph paired with a reference one (-1: none)."""
    return max((q.artifact for q in pairs if q.artifact is not None and q.reference is not None), default=-1)


def compare_text(cmp: Comparison, ref: _Side, art: _Side, pairs: list[Pair], p: CompareDocumentParams) -> None:
    last = _last_paired(pairs)
    for pair in pairs:
        if pair.reference is None:
            assert pair.artifact is not None
            j = pair.artifact
            if p.trailing_paragraphs == "ignore" and j > last:
                continue
            cmp.extra("text", _where(art.numbers[j], art.nodes[j].text, artifact=True), art.keys[j])
            continue
        i = pair.reference
        where = _where(ref.numbers[i], ref.nodes[i].text)
        if pair.artifact is None:
            cmp.missing("text", where, ref.keys[i])
            continue
        j = pair.artifact
        same, similarity = texts_agree(ref.keys[i], art.keys[j], p)
        cmp.check("text", where, ref.keys[i], art.keys[j], equal=same, note=difference_note(ref.keys[i], art.keys[j], similarity))
        if pair.moved and not p.ignore_order:
            cmp.check(
                "order", where, f"paragraph {ref.numbers[i]}", f"paragraph {art.numbers[j]}", equal=False,
                note="the paragraph is elsewhere in the artifact",
            )


def compare_joined_text(cmp: Comparison, ref: _Side, art: _Side, p: CompareDocumentParams) -> None:
    """The whole text as one string; one difference per differing stretch of words."""
    import difflib

    def words(side: _Side) -> tuple[list[str], list[int]]:
        out, owner = [], []
        for k, key in enumerate(side.keys):
            for w in key.split():
                out.append(w)
                owner.append(k)
        return out, owner

    ref_words, ref_owner = words(ref)
    art_words, _ = words(art)
    if p.fuzzy is not None and texts_agree(" ".join(ref_words), " ".join(art_words), p)[0]:
        cmp.check("text", "the whole text", " ".join(ref_words)[:200], " ".join(art_words)[:200], equal=True)
        return
    opcodes = difflib.SequenceMatcher(None, ref_words, art_words, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            cmp.compared["text"] += i2 - i1
            continue
        if tag == "insert" and i1 == len(ref_words) and p.trailing_paragraphs == "ignore":
            continue  # words after the reference's last word: the artifact goes on past the gold
        at = ref_owner[min(i1, len(ref_owner) - 1)] if ref_owner else 0
        where = _where(ref.numbers[at], ref.nodes[at].text) if ref.nodes else "the whole text"
        cmp.check("text", where, " ".join(ref_words[i1:i2]) or None, " ".join(art_words[j1:j2]) or None, equal=False,
                  note={"replace": "words differ", "delete": "words missing", "insert": "words added"}[tag])


def _structure(node: Node) -> str:
    level = node.attrs.get("heading_level")
    if isinstance(level, int):
        return "title" if level == 0 else f"heading {level}"
    list_level = node.attrs.get("list_level")
    if isinstance(list_level, int):
        kind = "numbered" if node.attrs.get("list_ordered") else "bulleted"
        return f"{kind} list item, level {list_level + 1}"
    return "body text"


def _paragraph_value(node: Node, prop: ParagraphProperty) -> Any:
    if prop == "alignment":
        align_ = node.style.align if node.style is not None else None
        return align_ or "left"
    if prop == "line_spacing":
        value = node.attrs.get("line_spacing")
        rule = node.attrs.get("line_spacing_rule") or "multiple"
        if not isinstance(value, (int, float)):
            return None
        return f"{value:g}x" if rule == "multiple" else f"{rule} {value:g} pt"
    if prop == "tab_stops":
        return node.attrs.get("tab_stops") or []
    value = node.attrs.get(prop)
    if prop.startswith(("space_", "indent_")) and value is None:
        return 0.0
    return value


def _values_agree(prop: str, a: Any, b: Any, tolerance: float) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return abs(float(a) - float(b)) <= tolerance
    if prop == "tab_stops" and isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(
            x.get("align") == y.get("align") and abs(float(x.get("position", 0)) - float(y.get("position", 0))) <= tolerance
            for x, y in zip(a, b, strict=True)
        )
    return bool(a == b)


def _selected(doc: Document, selector: str | None) -> set[str] | None:
    return None if selector is None else {n.id for n in doc.select(selector)}


def compare_paired_paragraphs(
    cmp: Comparison, ref: _Side, art: _Side, pairs: list[Pair], p: CompareDocumentParams, chosen: set[str] | None,
    *, structure: bool,
) -> None:
    """Structure, run formatting and paragraph properties of every paired paragraph."""
    for pair in pairs:
        if pair.reference is None or pair.artifact is None:
            continue
        a, b = ref.nodes[pair.reference], art.nodes[pair.artifact]
        if chosen is not None and a.id not in chosen:
            continue
        where = _where(ref.numbers[pair.reference], a.text)
        if structure:
            cmp.check("structure", where, _structure(a), _structure(b))
        if "runs" in p.aspects:
            compare_run_formatting(cmp, a, b, p.run_properties, where, color_tolerance=p.color_tolerance)
        if "paragraphs" in p.aspects:
            for prop in p.paragraph_properties:
                x, y = _paragraph_value(a, prop), _paragraph_value(b, prop)
                cmp.check(prop, where, x, y, equal=_values_agree(prop, x, y, p.tolerance_pt))


def compare_tables(cmp: Comparison, ref: Document, art: Document, p: CompareDocumentParams) -> None:
    ref_tables = [t for t in ref.root.descendants("table") if not t.attrs.get("nested")]
    art_tables = [t for t in art.root.descendants("table") if not t.attrs.get("nested")]
    for k, (a, b) in enumerate(zip(ref_tables, art_tables, strict=False)):
        compare_table_cells(cmp, a, b, f"table {k + 1}", p)
    for k in range(len(art_tables), len(ref_tables)):
        cmp.missing("tables", f"table {k + 1}", snippet(ref_tables[k].text) or "(empty table)")
    for k in range(len(ref_tables), len(art_tables)):
        cmp.extra("tables", f"artifact table {k + 1}", snippet(art_tables[k].text) or "(empty table)")


def _image_label(node: Node, number: int, *, artifact: bool = False) -> str:
    name = node.attrs.get("name")
    prefix = "artifact image" if artifact else "image"
    return f"{prefix} {number} ({name!r})" if isinstance(name, str) and name else f"{prefix} {number}"


def _anchor(image: Node, side: _Side) -> int | None:
    """Where a body picture sits: the index (into ``side.nodes``) of its paragraph, or of
    the last compared paragraph before it (a picture-only paragraph is blank, so not
    compared); -1 before the first; None outside the body (a table, a header)."""
    if any(a.kind in NOT_BODY for a in image.ancestors()):
        return None
    holder = next((a for a in image.ancestors() if a.kind == "paragraph"), None)
    number = side.number_of.get(holder.id) if holder is not None else None
    if number is None:
        return None
    return bisect.bisect_right(side.numbers, number) - 1


def _anchor_label(k: int | None, side: _Side, *, artifact: bool) -> str:
    if k is None:
        return "outside the body"
    if k < 0:
        return "before the first paragraph"
    return "in or after " + _where(side.numbers[k], side.nodes[k].text, artifact=artifact)


def compare_image_positions(
    cmp: Comparison, ref: _Side, art: _Side, pairs: list[Pair], image_pairs: list[tuple[Node, Node, str]],
) -> None:
    """Each paired picture sits by the artifact paragraph paired with the reference
    picture's paragraph."""
    partner = {q.reference: q.artifact for q in pairs if q.reference is not None and q.artifact is not None}
    partner[-1] = -1
    for a, b, where in image_pairs:
        i, j = _anchor(a, ref), _anchor(b, art)
        if i is None and j is None:
            continue
        expected = partner.get(i) if i is not None else None
        cmp.check("image_position", where, _anchor_label(i, ref, artifact=False), _anchor_label(j, art, artifact=True),
                  equal=i is not None and j is not None and expected == j,
                  note="" if expected == j else "the picture is by another paragraph")


IMAGE_SIZE_TOLERANCE_PT = 1.0
IMAGE_SIZE_TOLERANCE_SHARE = 0.01
"""A picture's printed width and height agree within 1 pt or 1 % (EMU and pixel rounding
of the same size by two editors), whichever is larger."""


def _shown_sizes(a: Node, b: Node) -> tuple[str, str] | None:
    """The two pictures' printed sizes (``72 x 72 pt``) when they differ, else None (also
    when either side does not record its size)."""
    dims = [(n.attrs.get("width"), n.attrs.get("height")) for n in (a, b)]
    values = [v for pair in dims for v in pair]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return None
    (wa, ha), (wb, hb) = ((float(w), float(h)) for w, h in dims)  # type: ignore[arg-type]

    def agree(x: float, y: float) -> bool:
        return abs(x - y) <= max(IMAGE_SIZE_TOLERANCE_PT, IMAGE_SIZE_TOLERANCE_SHARE * abs(x))

    if agree(wa, wb) and agree(ha, hb):
        return None
    return f"{wa:g} x {ha:g} pt", f"{wb:g} x {hb:g} pt"


def compare_images(
    cmp: Comparison, ref: Document, art: Document, p: CompareDocumentParams, sides: tuple[_Side, _Side, list[Pair]],
) -> None:
    """Pictures in document order; pairs found by identical bytes first, the rest in order."""
    ref_images, art_images = list(ref.root.descendants("image")), list(art.root.descendants("image"))
    ref_keys = [str(n.attrs.get("blob") or "") for n in ref_images]
    art_keys = [str(n.attrs.get("blob") or "") for n in art_images]
    pairs = align(ref_keys, art_keys, similarity=lambda x, y: 1.0 if x == y else 0.6)
    paired: list[tuple[Node, Node, str]] = []
    for pair in pairs:
        if pair.reference is None:
            assert pair.artifact is not None
            node = art_images[pair.artifact]
            cmp.extra("images", _image_label(node, pair.artifact + 1, artifact=True), node.attrs.get("blob"))
            continue
        a = ref_images[pair.reference]
        where = _image_label(a, pair.reference + 1)
        if pair.artifact is None:
            cmp.missing("images", where, a.attrs.get("blob"))
            continue
        b = art_images[pair.artifact]
        paired.append((a, b, where))
        same, how = nodes_show_same_picture(ref, a, art, b, p.image_match)
        sizes = _shown_sizes(a, b)
        if same and sizes is not None:  # the same picture, printed at another size: one item still
            cmp.check("images", where, sizes[0], sizes[1], equal=False, note=f"{how}, shown at another size")
        else:
            cmp.check("images", where, a.attrs.get("blob"), b.attrs.get("blob"), equal=same, note=how)
        if pair.moved and not p.ignore_order:
            cmp.check("order", where, f"image {pair.reference + 1}", f"image {pair.artifact + 1}", equal=False)
    if p.image_position == "paragraph":
        compare_image_positions(cmp, sides[0], sides[1], sides[2], paired)


def compare_page_setup(cmp: Comparison, ref: Document, art: Document, p: CompareDocumentParams, skipped: dict[str, str]) -> None:
    ref_sections, art_sections = ref.root.attrs.get("sections"), art.root.attrs.get("sections")
    if not isinstance(ref_sections, list) or not isinstance(art_sections, list):
        side = "reference" if not isinstance(ref_sections, list) else "artifact"
        skipped["page_setup"] = f"the {side}'s tree has no page setup (sections)"
        return
    cmp.check("page_setup", "sections", len(ref_sections), len(art_sections))
    for k, (a, b) in enumerate(zip(ref_sections, art_sections, strict=False)):
        if not isinstance(a, dict) or not isinstance(b, dict):
            continue
        for key in PAGE_SETUP_KEYS:
            cmp.check("page_setup", f"section {k + 1} {key.replace('_', ' ')}", a.get(key), b.get(key),
                      equal=_values_agree(key, a.get(key), b.get(key), p.tolerance_pt))
        ma, mb = a.get("margins"), b.get("margins")
        if isinstance(ma, dict) and isinstance(mb, dict):
            for side_name in MARGINS:
                cmp.check("page_setup", f"section {k + 1} {side_name} margin", ma.get(side_name), mb.get(side_name),
                          equal=_values_agree("margin", ma.get(side_name), mb.get(side_name), p.tolerance_pt))


# -- the check ---------------------------------------------------------------------------


@register_check(
    "compare_document",
    mechanism="exact",
    params=CompareDocumentParams,
    mechanism_when={"fuzzy": "tolerance"},
    example={"reference": "gold.docx", "aspects": ["text", "tables"], "ignore_case": True},
)
def compare_document(doc: Document, p: CompareDocumentParams, resources: Resources) -> CheckResult:
    """The document matches a gold document (.docx, .odt, PDF, Google Docs): paragraph text, structure, tables and images by default; character and paragraph formatting and page setup on request.

    Default aspects are what a reader calls "the same document": the body text paragraph
    by paragraph (whitespace runs, blank paragraphs and Unicode forms do not count; case
    and order do), headings and list items where they are, every table cell, and the same
    pictures in the same order (a recompressed copy counts). Formatting (``runs``,
    ``paragraphs``) and ``page_setup`` are opt-in: the same words in the house font are
    usually still "the same file", and a task that asks for formatting says which.
    Paragraphs are paired by sequence alignment (one inserted paragraph is one
    difference); a paragraph found elsewhere is an ``order`` difference unless
    ``ignore_order``. ``fuzzy`` lets paired texts agree above a similarity (rapidfuzz
    ratio). The score is 0/1, or with ``partial_credit`` the share of compared items that
    agree. A reference that cannot be found or read is an error, never a fail.
    """
    reference = load_reference_document(p.reference, resources, render=False)
    if reference.artifact.format not in DOCUMENT_FORMATS:
        raise RubricError(
            f"compare_document: the reference {p.reference!r} is a {reference.artifact.format} file, not a document "
            f"(compare_deck compares decks; compare_workbook workbooks)"
        )
    cmp = Comparison()
    skipped: dict[str, str] = {}
    with_labels = _records_list_labels(reference) and _records_list_labels(doc)
    ref, art = _Side(reference, p, with_labels=with_labels), _Side(doc, p, with_labels=with_labels)
    if not ref.scope_found:
        raise RubricError(
            f"compare_document: the reference {p.reference!r} has no body paragraph {p.after_paragraph!r} "
            f"(after_paragraph) to compare after"
        )
    if not art.scope_found:
        cmp.missing("text", f"the paragraph {p.after_paragraph!r}", p.after_paragraph,
                    note="the artifact has no such paragraph: nothing after it to compare")
    pairs = pair_paragraphs(ref, art, p)
    if "text" in p.aspects:
        if p.join_paragraphs:
            compare_joined_text(cmp, ref, art, p)
        else:
            compare_text(cmp, ref, art, pairs, p)
    structure = "structure" in p.aspects
    if structure and {reference.artifact.format, doc.artifact.format} & WITHOUT_STRUCTURE:
        skipped["structure"] = "a PDF or image tree has no heading levels or list items"
        structure = False
    if structure or "runs" in p.aspects or "paragraphs" in p.aspects:
        chosen = _selected(reference, p.select)
        compare_paired_paragraphs(cmp, ref, art, pairs, p, chosen, structure=structure)
    if "tables" in p.aspects:
        compare_tables(cmp, reference, doc, p)
    if "images" in p.aspects:
        compare_images(cmp, reference, doc, p, (ref, art, pairs))
    if "other_text" in p.aspects and p.after_paragraph is not None and "aspects" not in p.model_fields_set:
        # "only what follows 'References'" names a part of the body: the default's headers
        # and footers are not that part (an explicit aspects list still compares them)
        skipped["other_text"] = "after_paragraph compares a part of the body only"
    elif "other_text" in p.aspects:
        compare_other_text(cmp, reference, doc, p)
    if "page_setup" in p.aspects:
        compare_page_setup(cmp, reference, doc, p, skipped)
    evidence: dict[str, Any] = {
        "paragraphs": {"reference": len(ref.nodes), "artifact": len(art.nodes)},
        "reference_format": reference.artifact.format,
    }
    if skipped:
        evidence["not_compared"] = skipped
    return comparison_result(
        "compare_document", cmp, p, mechanism="tolerance" if p.fuzzy is not None else "exact",
        reference_label=p.reference, evidence=evidence, score_floor=p.score_floor,
    )
