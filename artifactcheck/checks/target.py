"""How a check names the nodes it is about: a CSS-like selector (``model/select.py``),
optionally narrowed by text or by hyperlink. One ``Target`` model is shared by the
query, text, formatting, colour and trace checks so a rubric spells targets one way.

A target given as a plain string is a selector: ``"paragraph[heading_level='1']"`` ==
``{"selector": "paragraph[heading_level='1']"}``.
"""

from __future__ import annotations

import re
import weakref
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator

from ..model import Document, Node, Style
from ..model.selector_lint import Selector, selector_names
from .normalize import normalize_text, normalize_url
from .result import CheckResult, Mechanism

TextMatch = Literal["contains", "equals", "startswith", "endswith", "regex", "fuzzy"]

# Where text lives when a target names text but no selector: paragraphs (documents,
# slides, table cells) and cells (spreadsheets). Only the deepest matches are kept.
DEFAULT_TEXT_SELECTOR = "paragraph, cell"


NON_TEXT_KINDS = frozenset({"image", "shape", "chart", "table", "group", "media", "textbox", "equation", "field", "ole"})
"""Kinds of child that make a paragraph (or cell) hold something although it has no text."""


def is_empty(node: Node) -> bool:
    """No visible text and no image, shape, chart, table or other non-text content: a
    paragraph holding only a picture is not empty, nor is a picture itself. A shape or
    text box counts as content when it paints something (a fill or an outline); an empty
    text frame or placeholder draws nothing (LibreOffice does not print a placeholder's
    prompt text)."""
    if node.text.strip():
        return False
    return not any(draws_something(d) for d in node.iter())


FRAME_KINDS = frozenset({"shape", "textbox"})
"""Kinds with a frame of their own that may hold text: a slide's shapes and text boxes."""


def paints_frame(node: Node) -> bool:
    """A shape or text box whose frame itself is painted (a fill or an outline): a
    reader sees its outline, not only its text."""
    return node.kind in FRAME_KINDS and draws_something(node)


def draws_something(node: Node) -> bool:
    """The node itself puts something on the page besides text: a picture, chart,
    table..., or a shape or text box with a fill or an outline."""
    if node.kind not in NON_TEXT_KINDS:
        return False
    if node.kind not in FRAME_KINDS:
        return True
    style = node.style
    if style is not None and style.fill:
        return True
    return bool(node.attrs.get("line_color") or node.attrs.get("fill_type") not in (None, "none") or _is_line(node))


def _is_line(node: Node) -> bool:
    """A line or connector (its preset geometry is a stroke, whatever its style says)."""
    shape = node.attrs.get("shape_type")
    return isinstance(shape, str) and (shape in ("line", "straightConnector1") or shape.startswith(("bentConnector", "curvedConnector")))


_COMPARISON = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(<=|>=|!=|==|=|<|>)\s*(-?\d+(?:\.\d+)?)\s*$")
BOX_MEASURES = ("width", "height", "x0", "x1", "top", "bottom")
"""Numbers a ``where`` comparison can read from a node's first box (points)."""


def node_number(node: Node, name: str) -> float | None:
    """The number ``name`` of a node for ``where``: a numeric style field (``size``), a
    numeric attr (``heading_level``, ``row``, ``width_px``...), or a measure of its first
    box in points (``width``, ``height``, ``x0``, ``x1``, ``top``, ``bottom``; a node
    without a box has none). Style and attrs come first, so an extractor's ``width``
    attr (if any) wins over the box."""
    value: Any = None
    if node.style is not None and hasattr(node.style, name):
        value = getattr(node.style, name)
    if value is None:
        value = node.attrs.get(name)
    if value is None and name in BOX_MEASURES and node.boxes:
        value = getattr(node.boxes[0], name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value)


def parse_comparison(text: str) -> tuple[str, str, float]:
    """``"size >= 12"`` -> ("size", ">=", 12.0). Raises ValueError for anything else."""
    m = _COMPARISON.match(text)
    if m is None:
        raise ValueError(f"cannot read comparison {text!r}: write 'name op number', e.g. 'size >= 12' or 'width > 100'")
    op = "==" if m.group(2) == "=" else m.group(2)
    return m.group(1), op, float(m.group(3))


def _compare(value: float, op: str, bound: float) -> bool:
    return {
        "<": value < bound,
        "<=": value <= bound,
        ">": value > bound,
        ">=": value >= bound,
        "==": abs(value - bound) <= 1e-9,
        "!=": abs(value - bound) > 1e-9,
    }[op]


class Target(BaseModel):
    """Which nodes a check looks at. A plain string is a selector. Fields, applied in this
    order:

    - ``selector``: CSS-like selector (``model/select.py``; default: paragraphs and cells
      when ``text`` or ``link`` is given, else every paragraph).
      ``{"selector": "paragraph[heading_level='3']"}``
    - ``exclude``: drop nodes that match, or lie inside a node that matches, this
      selector. "The last body paragraph": ``{"selector": "paragraph", "exclude":
      "header, footer", "skip_empty": true, "nth": -1}``
    - ``link``: keep the runs of hyperlinks whose URL contains this (normalised) URL; with
      ``text``, the link's whole anchor text must match (a link split over runs counts
      once). ``{"link": "example.org"}``
    - ``text`` and ``match`` (contains | equals | startswith | endswith | regex | fuzzy,
      compared after normalisation unless ``case_sensitive``; ``fuzzy_threshold`` for
      fuzzy): keep nodes whose text matches; a node is dropped when one of its descendants
      also matched, so "the paragraph that says X" is not also its table cell.
      ``{"text": "Total", "match": "startswith"}``
    - ``where``: numeric comparisons that must all hold, ``name op number`` with op one of
      < <= > >= == != (a style field such as ``size``, a numeric attr such as
      ``heading_level``, or the first box's ``width``/``height``/``x0``/``x1``/``top``/
      ``bottom`` in points). ``{"selector": "image", "where": ["width > 100"]}``,
      ``{"selector": "run", "where": ["size >= 12"]}``
    - ``skip_empty``: drop nodes with no text and no image, shape, chart or table.
    - ``nth``: keep only the n-th remaining match (0-based; -1 = the last). Text counts
      in document order (the body, then headers and footers); pictures (images, shapes,
      charts) as a reader meets them: page by page, a header's before the body's, so a
      letterhead logo in the header is ``{"selector": "image", "nth": 0}``.

    Cell ranges (``A1:G9``, a defined name, an Excel table) are the ``range`` parameter of
    the grid checks, not a Target field. ``artifactcheck checks target`` lists these fields.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    selector: Selector | None = Field(
        default=None, description="CSS-like selector (default: paragraphs, or paragraphs and cells with text/link)",
        examples=[{"selector": "paragraph[heading_level='3']"}],
    )
    exclude: Selector | None = Field(
        default=None, description="drop nodes matching, or inside a node matching, this selector",
        examples=[{"selector": "paragraph", "exclude": "header, footer", "skip_empty": True, "nth": -1}],
    )
    text: str | None = Field(
        default=None, description="keep nodes whose text matches this (see match); the deepest such node. Without a selector, formatting checks judge the runs holding the matched words",
        examples=[{"text": "Total", "match": "startswith"}],
    )
    match: TextMatch = Field(default="contains", description="how text is compared: contains, equals, startswith, endswith, regex, fuzzy", examples=[{"text": "^Q[1-4] 2024$", "match": "regex"}])
    case_sensitive: bool = Field(default=False, description="compare text case-sensitively", examples=[{"text": "NASA", "case_sensitive": True}])
    fuzzy_threshold: float = Field(default=90.0, ge=0, le=100, description="match fuzzy: rapidfuzz score a match needs", examples=[{"text": "Anual report", "match": "fuzzy", "fuzzy_threshold": 85}])
    link: str | None = Field(
        default=None, description="keep the runs of hyperlinks whose URL contains this (normalised)",
        examples=[{"link": "example.org/report", "text": "full report"}],
    )
    where: list[str] = Field(
        default_factory=list, description="numeric comparisons that must all hold (one string or a list): style fields, numeric attrs, or the first box's width/height/x0/x1/top/bottom (pt)",
        examples=[{"selector": "image", "where": ["width > 100"]}, {"selector": "run", "where": ["size >= 12"]}],
    )
    skip_empty: bool = Field(
        default=False, description="drop nodes with no text and no image, shape, chart or table",
        examples=[{"selector": "paragraph", "skip_empty": True, "nth": -1}],
    )
    nth: int | None = Field(default=None, description="keep only the n-th match (0-based; -1 = the last)", examples=[{"selector": "image", "nth": 0}])

    @field_validator("where", mode="before")
    @classmethod
    def _one_comparison(cls, value: object) -> object:
        # Authors write one condition as a string ("value < 0"); it means a list of one.
        return [value] if isinstance(value, str) else value

    @field_validator("where")
    @classmethod
    def _comparisons(cls, value: list[str]) -> list[str]:
        for text in value:
            parse_comparison(text)
        return value

    def describe(self) -> str:
        parts = [
            self.selector or (DEFAULT_TEXT_SELECTOR if self.text or self.link else "paragraph")
        ]
        if self.exclude is not None:
            parts.append(f"not in {self.exclude!r}")
        if self.link is not None:
            parts.append(f"link~{self.link!r}")
        if self.text is not None:
            parts.append(f"text {self.match} {self.text!r}")
        parts.extend(f"[{w}]" for w in self.where)
        if self.skip_empty:
            parts.append("non-empty")
        if self.nth is not None:
            parts.append(f"#{self.nth}")
        return " ".join(parts)


def _coerce_target(value: Any) -> Any:
    return {"selector": value} if isinstance(value, str) else value


TargetSpec = Annotated[Target, BeforeValidator(_coerce_target)]


def text_matches(actual: str, expected: str, target: Target) -> bool:
    """Does ``actual`` match ``expected`` under the target's rules?"""
    return _text_matches(
        actual, expected, target.match, target.case_sensitive, target.fuzzy_threshold
    )


@lru_cache(maxsize=65536)
def _text_matches(
    actual: str, expected: str, match: str, case_sensitive: bool, threshold: float
) -> bool:
    # cached: a rubric asks about the same paragraphs again and again
    if match == "regex":
        flags = 0 if case_sensitive else re.IGNORECASE
        return re.search(expected, actual, flags) is not None
    a = normalize_text(actual, case_sensitive=case_sensitive)
    e = normalize_text(expected, case_sensitive=case_sensitive)
    if match == "contains":
        return e in a
    if match == "equals":
        return a == e
    if match == "startswith":
        return a.startswith(e)
    if match == "endswith":
        return a.endswith(e)
    # fuzzy: the best-aligned substring of the node text (partial_ratio), so a short
    # phrase inside a long paragraph can match despite a typo. (rapidfuzz is imported
    # here: every targeted check imports this module, few ask for fuzzy matching.)
    from rapidfuzz import fuzz

    if len(a) >= len(e):
        return bool(fuzz.partial_ratio(e, a) >= threshold)
    return bool(fuzz.ratio(e, a) >= threshold)


def rewrite_parts(text: str, parts: Iterable[Node], rewrite: Callable[[Node], str]) -> str:
    """``text`` with the text of each of ``parts`` (in order, each found after the one
    before) replaced by ``rewrite(part)``; a part not found is left as it is."""
    out, at = [], 0
    for part in parts:
        if not part.text:
            continue
        found = text.find(part.text, at)
        if found < 0:
            continue
        out.append(text[at:found])
        out.append(rewrite(part))
        at = found + len(part.text)
    out.append(text[at:])
    return "".join(out)


def shown_text(node: Node, text: str | None = None) -> str:
    """``text`` (default ``node.text``) with the runs a document sets in capitals
    (``caps``) upper-cased, as the page shows them; the text itself when it has none."""
    text = node.text if text is None else text
    runs = [node] if node.kind == "run" else list(node.descendants("run"))
    if not any(r.attrs.get("caps") for r in runs):
        return text

    def capitals(run: Node) -> str:
        upper = run.text.upper()
        return upper if run.attrs.get("caps") and len(upper) == len(run.text) else run.text

    return rewrite_parts(text, runs, capitals)


UNPRINTED_KINDS = frozenset({"comment"})
"""Kinds a document holds but does not print: a reviewer's comments."""
_HOLDS_COMMENTS = frozenset({"document", "slide", "sheet"})


def printed_text(node: Node, text: str | None = None) -> str:
    """``text`` (default ``node.text``) without the text of comments under the node (the
    page does not print them: "the document never says 'internal'" must not fail on a
    reviewer's remark); the text itself when it holds none."""
    text = node.text if text is None else text
    if node.kind not in _HOLDS_COMMENTS:
        return text  # comments hang off the document or a slide, not inside the text
    for hidden in node.children:
        if hidden.kind in UNPRINTED_KINDS and hidden.text:
            at = text.rfind(hidden.text)
            if at >= 0:
                text = text[:at].rstrip("\n") + text[at + len(hidden.text) :]
    return text


def labelled_text(node: Node, text: str | None = None) -> str:
    """``text`` (default ``node.text``) with each list item's printed label (``1.``,
    ``a)``, ``•``: ``list_label``) before its paragraph, as the page shows it; the text
    itself when no paragraph under the node has a label."""
    text = node.text if text is None else text
    paras = [node] if node.kind == "paragraph" else list(node.descendants("paragraph"))
    labels = {id(p): label.strip() for p in paras if isinstance(label := p.attrs.get("list_label"), str) and label.strip()}
    if not labels:
        return text
    return rewrite_parts(text, paras, lambda p: f"{labels[id(p)]} {p.text}" if id(p) in labels else p.text)


_NOTE_REFS = ("footnote_ref", "endnote_ref")


def _runs(node: Node) -> list[Node]:
    return [node] if node.kind == "run" else list(node.descendants("run"))


def note_marks(node: Node) -> set[int]:
    """The runs of ``node`` that print a footnote or endnote number: the reference marks
    in the text (``footnote_ref``/``endnote_ref``) and the number each note starts with
    (the note's first run, when its text is the note's ``label``: ``w:footnoteRef``)."""
    marks = {id(r) for r in _runs(node) if any(k in r.attrs for k in _NOTE_REFS)}
    around = next((a for a in node.ancestors() if a.kind == "footnote"), None)
    notes = [node] if node.kind == "footnote" else [around] if around is not None else node.descendants("footnote")
    for note in notes:
        label = note.attrs.get("label")
        first = next((r for r in note.descendants("run") if r.text), None)
        if first is not None and isinstance(label, str) and label and first.text.strip() == label:
            marks.add(id(first))
    return marks


def unmarked(node: Node, text: str, marks: set[int], *, caps: bool) -> str:
    """``text`` (the node's typed text, maybe with list labels) without the runs in
    ``marks`` (its note numbers) and, when ``caps``, with runs set in capitals
    upper-cased, in one pass over the runs (each found in order after the one before, so
    a mark "1" is never taken for a "1" elsewhere in the text)."""

    def shown(run: Node) -> str:
        if id(run) in marks:
            return ""
        upper = run.text.upper()
        return upper if caps and run.attrs.get("caps") and len(upper) == len(run.text) else run.text

    return rewrite_parts(text, _runs(node), shown)


# The reasons extractors give for a part no page prints (not for one printed but not
# located, like a header holding only a watermark LibreOffice draws as outlines).
_NEVER_PRINTED = ("is not used", "no rendered page shows", "never referenced")


def never_printed(part: Node) -> bool:
    """``part`` (a header, footer or note) is on no page: the extractor says it is not
    used, no rendered page shows it, or nothing refers to it."""
    reason = part.attrs.get("not_rendered_reason")
    return part.attrs.get("rendered") is False and isinstance(reason, str) and any(r in reason for r in _NEVER_PRINTED)


def _never_shown_parts(doc: Document) -> set[int]:
    """The headers and footers no page shows (a first-page header without "different
    first page", one of a section no rendered page belongs to): the file holds them, a
    reader never sees them, so no check finds what they hold. A header printed on every
    page but not located (only a watermark) is still shown."""
    return {id(n) for n in doc.root.children if n.kind in ("header", "footer") and never_printed(n)}


def in_never_shown_part(doc: Document, node: Node) -> bool:
    """``node`` is (in) a header or footer no page shows (:func:`_never_shown_parts`)."""
    unshown = cached(doc, "never_shown_parts", _never_shown_parts)
    return bool(unshown) and id(flow_of(node)) in unshown


def select_targets(doc: Document, target: Target) -> list[Node]:
    """The nodes ``target`` names, in document order, leaving out what lies in a header
    or footer no page shows, and comments, deleted and hidden text unless the selector
    names them. A ``text``
    filter reads the node as printed (:func:`_printed_readings`). Raises SelectorError
    for a selector that does not parse
    (run_check reports it as ``status="error"``)."""
    if target.link is not None:
        nodes = _link_runs(doc, target)
    else:
        selector = target.selector or (DEFAULT_TEXT_SELECTOR if target.text else "paragraph")
        nodes = select_union(doc, selector)
        if target.text is not None:
            text = target.text
            shown = shown_text if target.case_sensitive else (lambda n: n.text)
            otherwise = cached(doc, "printed_otherwise", _printed_otherwise)
            nodes = [
                n for n in nodes
                if text_matches(shown(n), text, target)
                or (id(n) in otherwise and any(text_matches(r, text, target) for r in _printed_readings(n, target)))
            ]
            nodes = deepest(nodes)
    if cached(doc, "never_shown_parts", _never_shown_parts):
        nodes = [n for n in nodes if not in_never_shown_part(doc, n)]
    if not _names_comments(target):
        nodes = [n for n in nodes if not _in_comment(n)]
    if not _names_unprinted(target):
        nodes = [n for n in nodes if not unprinted(n)]
    if target.exclude is not None:
        excluded = {id(n) for n in select_union(doc, target.exclude)}
        nodes = [n for n in nodes if id(n) not in excluded and not any(id(a) in excluded for a in n.ancestors())]
    for text in target.where:
        name, op, bound = parse_comparison(text)
        nodes = [n for n in nodes if (v := node_number(n, name)) is not None and _compare(v, op, bound)]
    if target.skip_empty:
        nodes = [n for n in nodes if not is_empty(n)]
    if target.nth is not None:
        try:
            nodes = [in_reading_order(nodes)[target.nth]]
        except IndexError:
            nodes = []
    return nodes


def _printed_otherwise(doc: Document) -> set[int]:
    """Ids of the nodes whose printed text differs from their typed text by list labels
    or note marks: the paragraphs with a label, the runs with a mark, the notes, and
    everything around them (computed once per document: most nodes have neither)."""
    marked: set[int] = set()
    for node in doc.root.iter():
        if node.attrs.get("list_label") or node.kind == "footnote" or any(k in node.attrs for k in _NOTE_REFS):
            for n in (node, *node.ancestors()):
                if id(n) in marked:
                    break
                marked.add(id(n))
            marked.update(id(d) for d in node.iter())  # a note's runs: its label is their text
    return marked


def _printed_readings(node: Node, target: Target) -> Iterator[str]:
    """The texts beyond its own that a target's ``text`` may be found in, as the page
    prints a node of :func:`_printed_otherwise`: with the list labels the page prints
    ("2. Methods" on a numbered heading), and each reading without footnote marks
    ("Results" on a heading printed "Results¹"); in capitals where a run is set so, when
    case counts."""
    labelled = labelled_text(node)
    readings = [node.text] if labelled == node.text else [node.text, labelled]
    if len(readings) > 1:
        yield shown_text(node, labelled) if target.case_sensitive else labelled
    marks = note_marks(node)
    if marks:
        for text in readings:
            yield unmarked(node, text, marks, caps=target.case_sensitive)


def _names_comments(target: Target) -> bool:
    """The target asks for comments itself (``comment``, ``comment paragraph``)."""
    return _selector_names_word(target, ("comment",))


def _selector_names_word(target: Target, words: tuple[str, ...]) -> bool:
    """A node kind or attribute name in the target's selector contains one of ``words``.
    Names, not values: ``paragraph[text*='hidden']`` asks about paragraphs that say
    "hidden", which a reader sees only when printed. A selector cssselect cannot parse
    is read as a string, as before."""
    if target.selector is None:
        return False
    names = selector_names(target.selector)
    if names is None:
        return any(word in target.selector for word in words)
    return any(word in name for name in names for word in words)


# Why the .docx extractor marks text the page does not print (extractors/docx/body.py's
# TRACKED_DELETION and HIDDEN_TEXT, and extract.py's reason for a paragraph of nothing
# else): spelt out, not imported, so the checks layer loads no extractor at start-up.
_UNPRINTED_REASONS = frozenset({"tracked deletion", "hidden text (w:vanish)", "only tracked deletions or hidden text"})
_UNPRINTED_WORDS = ("hidden", "deleted", "rendered", "tracked")


def unprinted(node: Node) -> bool:
    """``node`` is text the page does not print: deleted (a tracked deletion) or hidden.
    "The document has 3 paragraphs" counts what a reader sees, not a hidden fourth."""
    return node.attrs.get("rendered") is False and node.attrs.get("not_rendered_reason") in _UNPRINTED_REASONS


def _names_unprinted(target: Target) -> bool:
    """The selector asks about hidden or deleted text itself (``run[hidden=true]``,
    ``run[deleted_text]``, ``paragraph[rendered=false]``): keep what it names."""
    return _selector_names_word(target, _UNPRINTED_WORDS)


def _in_comment(node: Node) -> bool:
    """``node`` is a comment or lies in one: the page does not print comments (as the
    text checks read a document without them), so "a paragraph says TODO" is not passed
    by a reviewer's comment saying it."""
    flow = flow_of(node)
    return flow is not None and flow.kind == "comment"


# Pictures are counted as a reader meets them on the pages; text is counted in its flow.
_PICTURE_KINDS = frozenset({"image", "shape", "chart", "group", "media"})
_ZONE = {"header": 0, "footer": 2, "footnote": 2, "note": 2, "comment": 2}


def in_reading_order(nodes: list[Node]) -> list[Node]:
    """``nodes`` in the order ``nth`` counts them. A document's header and footer come
    after its body in the tree, so "the first image" of a letter whose logo sits in the
    header was the signature further down: pictures are therefore ordered page by page,
    header before body before footer (document order within each). Text keeps document
    order, where "the first paragraph" is the body's first, and so does anything not yet
    placed on a page (no box), which cannot be ordered by where it is drawn."""
    if len(nodes) < 2 or any(n.kind not in _PICTURE_KINDS or not n.boxes for n in nodes):
        return nodes
    zones = [_zone(n) for n in nodes]
    if all(z == 1 for z in zones):
        return nodes
    keyed = sorted(
        range(len(nodes)), key=lambda i: (min(b.page for b in nodes[i].boxes), zones[i], i)
    )
    return [nodes[i] for i in keyed]


def flow_of(node: Node) -> Node | None:
    """The header, footer, footnote, speaker note or comment that holds ``node`` (or is
    it), or None for the body: the text flow a reader follows it in."""
    return next((a for a in (node, *node.ancestors()) if a.kind in _ZONE), None)


def _zone(node: Node) -> int:
    flow = flow_of(node)
    return 1 if flow is None else _ZONE[flow.kind]


def select_union(doc: Document, selector: str) -> list[Node]:
    """``doc.select`` for a selector group (``a, b``): each selector is run alone and the
    results merged in document order. libxml2's XPath union of two large node sets is
    quadratic (1.5 s for "paragraph, cell" on a 40,000-node document, 0.07 s this way).
    Results are cached per Document and selector (a Document does not change once
    loaded); callers get a fresh list."""
    parts = _selector_parts(selector)
    if len(parts) < 2:
        return doc.select(selector)  # also raises the model's SelectorError for bad syntax

    def merge(d: Document) -> list[Node]:
        seen: dict[int, Node] = {}
        for part in parts:
            for n in d.select(part):
                seen.setdefault(id(n), n)
        return sorted(seen.values(), key=lambda n: n.order)

    return list(cached(doc, "select:" + selector, merge))


@lru_cache(maxsize=1024)
def _selector_parts(selector: str) -> tuple[str, ...]:
    import cssselect

    try:
        return tuple(p.canonical() for p in cssselect.parse(selector))
    except cssselect.SelectorError:
        return (selector,)


def deepest(nodes: list[Node]) -> list[Node]:
    """Drop nodes that are ancestors of other nodes in the list (order kept)."""
    kept_ids = {id(n) for n in nodes}
    ancestors_of_kept: set[int] = set()
    for n in nodes:
        for a in n.ancestors():
            if id(a) in kept_ids:
                ancestors_of_kept.add(id(a))
    return [n for n in nodes if id(n) not in ancestors_of_kept]


@dataclass(frozen=True)
class LinkGroup:
    """One hyperlink as the reader sees it: consecutive runs of one paragraph (or other
    parent) that carry the same URL."""

    url: str
    runs: tuple[Node, ...]

    @property
    def text(self) -> str:
        # Runs of a printed line (PDF, OCR) are words: the spaces are between them.
        parent = self.runs[0].parent
        joiner = " " if parent is not None and parent.kind == "line" else ""
        return joiner.join(r.text for r in self.runs)


def hyperlink_groups(doc: Document) -> list[LinkGroup]:
    """Every hyperlink of the document, runs grouped, in document order (cached per
    Document)."""
    return cached(doc, "hyperlink_groups", _build_link_groups)


def _build_link_groups(doc: Document) -> list[LinkGroup]:
    groups: list[LinkGroup] = []
    current: list[Node] = []
    current_url: str | None = None
    current_parent: Node | None = None
    for node in doc.iter():
        url = node.attrs.get("hyperlink")
        if node.kind != "run":
            if node.kind not in ("paragraph",) and isinstance(url, str) and url:
                # a linked shape, image or cell: a group of one
                groups.append(LinkGroup(url, (node,)))
            continue
        if isinstance(url, str) and url and url == current_url and node.parent is current_parent:
            current.append(node)
            continue
        if current and current_url is not None:
            groups.append(LinkGroup(current_url, tuple(current)))
        if isinstance(url, str) and url:
            current, current_url, current_parent = [node], url, node.parent
        else:
            current, current_url, current_parent = [], None, None
    if current and current_url is not None:
        groups.append(LinkGroup(current_url, tuple(current)))
    groups.sort(key=lambda g: g.runs[0].order)
    return groups


def _link_runs(doc: Document, target: Target) -> list[Node]:
    want = normalize_url(target.link or "") if target.link else ""
    allowed: set[int] | None = None
    if target.selector:
        allowed = {id(n) for n in select_union(doc, target.selector)}
    out: list[Node] = []
    for group in hyperlink_groups(doc):
        if want and want not in normalize_url(group.url):
            continue
        if target.text is not None and not text_matches(group.text, target.text, target):
            continue
        runs = [r for r in group.runs if allowed is None or id(r) in allowed]
        out.extend(runs)
    return out


def no_match(check: str, target: Target, mechanism: Mechanism, **evidence: Any) -> CheckResult:
    """The ``fail`` of a check whose target selects nothing: the artifact lacks what the
    rubric names, which is the artifact's fault, not an evaluation error."""
    return CheckResult(
        check=check,
        status="fail",
        mechanism=mechanism,
        explanation=f"no node matches {target.describe()}",
        evidence=evidence,
    )


def node_ref(node: Node, *, text_chars: int = 60) -> dict[str, Any]:
    """A short JSON description of a node for evidence: id, kind, text excerpt."""
    text = node.text if len(node.text) <= text_chars else node.text[: text_chars - 3] + "..."
    return {"id": node.id, "kind": node.kind, "text": text}


T = TypeVar("T")
_CACHES: dict[int, tuple[weakref.ref[Document], dict[str, Any]]] = {}


def cached(doc: Document, key: str, build: Callable[[Document], T]) -> T:
    """A derived structure computed once per Document (the Document is not hashable, so
    entries are keyed by identity and dropped when the Document is collected)."""
    key_id = id(doc)
    entry = _CACHES.get(key_id)
    if entry is None or entry[0]() is not doc:
        store: dict[str, Any] = {}
        _CACHES[key_id] = (weakref.ref(doc, _forget(key_id)), store)
    else:
        store = entry[1]
    if key not in store:
        store[key] = build(doc)
    value: T = store[key]
    return value


# -- the nodes a style property is read from ------------------------------------------------

TEXT_PROPERTIES = frozenset(
    {"bold", "italic", "underline", "strike", "font", "size", "color", "highlight", "baseline"}
)
"""Style fields that belong to characters: read on runs."""


StyleLayer = Literal["displayed", "direct"]
"""Which style a formatting check reads: ``displayed`` (default) is what a reader sees -
for a spreadsheet cell its own format with the table style, conditional formatting and
the number format's colour laid over it; ``direct`` is the node's own format alone."""


def layer_style(node: Node, layer: StyleLayer = "displayed") -> Style | None:
    """The node's style in ``layer``. Nodes record the direct values of the properties
    another layer changed in ``attrs["direct_style"]``; without it, both layers agree."""
    style = node.style
    if layer == "direct" and style is not None:
        direct = node.attrs.get("direct_style")
        if isinstance(direct, dict) and direct:
            return style.model_copy(update=direct)
    return style


def style_units(node: Node, prop: str, target: Target | None = None) -> list[Node]:
    """The nodes whose effective style decides ``prop`` for ``node``.

    Character properties (bold, font, colour, highlight, ...): the node itself when it is
    a run, else its runs with visible text (whitespace-only runs are skipped: a space
    after a link is not part of the link's look); a node without runs (a spreadsheet
    cell, a text-less shape) answers for itself. Paragraph properties (align, list):
    the paragraph itself, a run's paragraph, or the paragraphs inside a cell or shape.
    Fill and vertical alignment: the node itself. With the ``target`` that selected
    ``node`` by its text alone, character properties are read on the runs that hold the
    matched text: "is the word Total bold?" is about "Total", not the rest of its line
    (``{selector: paragraph, text: Total}`` still judges the whole paragraph).
    """
    if prop in TEXT_PROPERTIES:
        if node.kind == "run":
            return [node]
        runs = [r for r in node.descendants("run") if r.text.strip()]
        if target is not None and target.text is not None and runs:
            matched = runs_holding_match(node, target)
            if matched:
                return matched
        return runs or [node]
    if prop in ("align", "list", "list_format", "list_level"):
        if node.kind == "paragraph":
            return [node]
        if node.kind == "run":
            para = next((a for a in node.ancestors() if a.kind == "paragraph"), None)
            return [para] if para is not None else [node]
        paras = [p for p in node.descendants("paragraph") if p.text.strip()]
        return paras or [node]
    return [node]


def runs_holding_match(node: Node, target: Target) -> list[Node] | None:
    """The runs (with visible text) of ``node`` that hold the text a target without a
    selector matched (``{text: "Total"}`` names those words), or None: a selector was
    given, or the match has no place in the runs' text (fuzzy or equals matching, text
    rewritten by normalisation, runs that do not spell the node's text)."""
    if target.text is None or target.selector is not None:
        return None  # {selector: paragraph, text: ...} names the paragraph that holds it
    runs = list(node.descendants("run"))
    if "".join(r.text for r in runs) != node.text:
        return None
    flags = 0 if target.case_sensitive else re.IGNORECASE
    if target.match == "regex":
        pattern = target.text
    elif target.match in ("contains", "startswith", "endswith"):
        words = target.text.split()
        if not words:
            return None
        pattern = r"\s+".join(re.escape(w) for w in words)
        pattern = {"startswith": rf"^\s*{pattern}", "endswith": rf"{pattern}\s*$"}.get(target.match, pattern)
    else:
        return None
    try:
        spans = [m.span() for m in re.finditer(pattern, node.text, flags) if m.end() > m.start()]
    except re.error:
        return None
    out: list[Node] = []
    start = 0
    for run in runs:
        end = start + len(run.text)
        if run.text.strip() and any(a < end and b > start for a, b in spans):
            out.append(run)
        start = end
    return out or None


def _forget(key_id: int) -> Callable[[weakref.ref[Document]], None]:
    def drop(ref: weakref.ref[Document]) -> None:
        entry = _CACHES.get(key_id)
        if entry is not None and entry[0] is ref:  # not a newer Document at the same address
            del _CACHES[key_id]

    return drop


EVIDENCE_ROWS = 200
"""At most this many per-node rows go into a result's evidence; failures are kept first."""


def cap_rows(rows: list[dict[str, Any]], *, limit: int = EVIDENCE_ROWS) -> list[dict[str, Any]]:
    """Per-node evidence rows trimmed to ``limit``: failing rows first (they explain the
    verdict), then passing ones, each group in document order. A row fails when its
    ``ok`` is false or its ``failed`` list is not empty. A check over 14,000 paragraphs
    must not write 14,000 rows into every report; the result's explanation and counts
    still cover every row.

    >>> len(cap_rows([{"ok": i % 2 == 0} for i in range(1000)], limit=10))
    10
    """
    if len(rows) <= limit:
        return rows
    failing = [i for i, r in enumerate(rows) if r.get("ok") is False or r.get("failed")]
    keep = set(failing[:limit])
    for i in range(len(rows)):
        if len(keep) >= limit:
            break
        keep.add(i)
    return [rows[i] for i in sorted(keep, key=lambda i: (i not in failing[:limit], i))]
