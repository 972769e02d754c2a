"""``compare_deck``: the artifact deck against a gold deck, slide by slide and shape by
shape, every difference located (``slide 3 shape 'Title 1'``). See design/compare.md,
"Decks".

The reference is any deck :func:`artifactcheck.load` reads (.pptx, .odp, a saved Google
Slides response), loaded without layout: shapes keep the frames the file states, which is
what geometry compares. Slides are paired by sequence alignment over their text (a
missing slide is one difference, a slide that moved one ``order`` difference); shapes on
paired slides are matched by placeholder, then by name, then by text, then by position.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, Literal

from pydantic import Field

from ...errors import RubricError
from ...model import Box, Document, Node
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import shown_text
from .diff import Comparison, comparison_result
from .picture_identity import ImageMatch, nodes_show_same_picture
from .reference import load_reference_document
from .run_formatting import RunProperty, compare_run_formatting
from .sequence_alignment import align, ratio
from .text_options import (
    TextCompareParams,
    difference_note,
    is_blank,
    normalize_text,
    snippet,
    texts_agree,
)
from .text_tables import compare_table_cells, table_grid

DeckAspect = Literal[
    "slides", "shapes", "text", "tables", "charts", "images",
    "geometry", "formatting", "notes", "background", "transitions",
]
DEFAULT_ASPECTS: tuple[DeckAspect, ...] = ("slides", "shapes", "text", "tables", "charts", "images")
FormattingProperty = RunProperty | Literal["alignment", "level", "bullet"]
PARAGRAPH_FORMATTING = ("alignment", "level", "bullet")
DEFAULT_FORMATTING: tuple[FormattingProperty, ...] = ("font", "size", "bold", "italic", "underline", "color", "alignment", "level", "bullet")

SHAPE_KINDS = frozenset({"shape", "textbox", "image", "table", "chart", "media"})
FAMILY = {"shape": "shape", "textbox": "shape", "image": "image", "table": "table", "chart": "chart", "media": "media"}
"""A text box and an auto shape with text are one family: editors and sources disagree on
which one a frame is (Google Slides' TEXT_BOX vs a pptx ``sp`` with a text frame)."""
TITLE_TYPES = {"ctrTitle": "title", "title": "title", "subTitle": "body", "body": "body", "obj": "body"}
"""Placeholder roles that stand for each other when a deck is rebuilt on another layout."""
DECK_FORMATS = frozenset({"pptx", "odp", "gslides"})
EXACT_GEOMETRY_PT = 0.05
"""Geometry without ``tolerance_pt``: equal up to EMU rounding (1 pt = 12700 EMU)."""


class CompareDeckParams(TextCompareParams):
    """Parameters of ``compare_deck``."""

    aspects: list[DeckAspect] = Field(
        default=list(DEFAULT_ASPECTS),
        min_length=1,
        description="what is compared: slides (count and order), shapes (every shape has its counterpart, same "
        "preset), text (per shape), tables (dimensions, cell text), charts (type, title, series), images (same "
        "pictures), geometry (position and size), formatting (text formatting on aligned text), notes (speaker "
        "notes), background (type, colour, picture), transitions (effect, speed, advance)",
    )
    select: str | None = Field(
        default=None,
        description="selector of the reference shapes compared (e.g. '[placeholder_type=\"title\"]' for titles); "
        "the artifact's extra shapes are then not reported; slides are still paired over all their shapes",
    )
    tolerance_pt: float | None = Field(
        default=None,
        ge=0,
        description="geometry: positions and sizes within this many points agree (mechanism tolerance); none: "
        "equal up to EMU rounding",
    )
    formatting_properties: list[FormattingProperty] = Field(
        default=list(DEFAULT_FORMATTING),
        min_length=1,
        description="formatting: run properties (font, size, bold, italic, underline, strike, color, highlight, "
        "baseline) and paragraph properties (alignment, level, bullet: the bullet character or numbering scheme) compared",
    )
    image_match: ImageMatch = Field(
        default="identity",
        description="images and picture backgrounds: identity (resized or recompressed copies count, look-alikes "
        "do not) or pixels (identical decoded pixels)",
    )


# -- what a deck is made of ---------------------------------------------------------------


def slide_shapes(slide: Node, *, ignore_blank: bool = True) -> list[Node]:
    """The shapes an author put on the slide: group members in place of their group,
    without speaker notes, without shapes drawn from the layout or master, without empty
    placeholders (shown only in the editor), without hidden shapes (never drawn) and,
    with ``ignore_blank``, without shapes that draw nothing (see :func:`draws_nothing`)."""
    out: list[Node] = []
    stack = list(reversed(slide.children))
    while stack:
        node = stack.pop()
        if node.kind == "note" or node.attrs.get("hidden") is True:
            continue
        if node.kind == "group":
            stack.extend(reversed(node.children))
            continue
        if node.kind not in SHAPE_KINDS or node.attrs.get("inherited_from"):
            continue
        if node.attrs.get("placeholder_type") and FAMILY[node.kind] == "shape" and is_blank(node.text):
            continue
        if ignore_blank and draws_nothing(node):
            continue
        out.append(node)
    return out


def draws_nothing(node: Node) -> bool:
    """A text box or auto shape with no text, no fill and no outline: nothing on the
    slide shows it (the empty text box python-pptx's ``add_textbox`` leaves when the
    agent never fills it), so it is no more content than a blank paragraph."""
    if FAMILY.get(node.kind) != "shape" or not is_blank(node.text) or node.attrs.get("connector"):
        return False  # a connector is its line, whatever colour we could resolve for it
    return node.attrs.get("fill_type") in (None, "none") and node.attrs.get("line_color") is None


def _slide_text(shapes: list[Node], p: CompareDeckParams) -> str:
    return " | ".join(normalize_text(shown_text(s), p) for s in shapes if s.kind != "table" and not is_blank(s.text))


def _slide_key(slide: Node, shapes: list[Node], p: CompareDeckParams) -> str:
    """What pairs slides: the layout and the kinds of shapes on it, then its text
    (``layout/kinds`` + KEY_SEPARATOR + text)."""
    kinds = ",".join(sorted(FAMILY[s.kind] for s in shapes))
    return f"{slide.attrs.get('layout') or ''}/{kinds}{KEY_SEPARATOR}{_slide_text(shapes, p)}"


KEY_SEPARATOR = "\x00"
STRUCTURE_WEIGHT = 0.5
"""Share of a slide pair's similarity that comes from its layout and shape kinds (the rest
from its text): a slide whose only title was retyped still pairs with its original."""


def slide_similarity(a: str, b: str) -> float:
    sa, _, ta = a.partition(KEY_SEPARATOR)
    sb, _, tb = b.partition(KEY_SEPARATOR)
    return STRUCTURE_WEIGHT * ratio(sa, sb) + (1 - STRUCTURE_WEIGHT) * ratio(ta, tb)


def shape_label(node: Node, slide: str) -> str:
    name = node.attrs.get("name")
    return f"{slide} shape {name!r}" if isinstance(name, str) and name else f"{slide} {node.kind} {node.id}"


def _laid_out(doc: Document) -> bool:
    """The deck's boxes are (or will be, once asked) where LibreOffice draws them."""
    return doc.layout_pending or any(b.origin == "layout" for n in doc.root.iter() for b in n.boxes)


def _box(node: Node) -> Box | None:
    return node.boxes[0] if node.boxes else None


def _center_distance(a: Node, b: Node) -> float:
    ba, bb = _box(a), _box(b)
    if ba is None or bb is None:
        return math.inf
    (ax, ay), (bx, by) = ba.center, bb.center
    return math.hypot(ax - bx, ay - by)


def _placeholder(node: Node) -> tuple[str, str] | None:
    kind = node.attrs.get("placeholder_type")
    if not isinstance(kind, str):
        return None
    idx = node.attrs.get("placeholder_idx", node.attrs.get("placeholder_index"))
    return TITLE_TYPES.get(kind, kind), "" if TITLE_TYPES.get(kind) == "title" else str(idx or "")


def _content_key(node: Node, p: CompareDeckParams) -> str | None:
    """What a shape shows, when it identifies the shape: its text, or a picture's bytes."""
    text = normalize_text(node.text, p)
    if text:
        return text
    blob = node.attrs.get("blob")
    return f"picture {blob}" if FAMILY[node.kind] == "image" and isinstance(blob, str) else None


def _same_place(a: Node, b: Node) -> bool:
    """The two shapes sit in the same place: top-left corners within SAME_PLACE_PT (the
    size may differ: a text box that grows with its retyped text, a picture resized in
    place)."""
    ba, bb = _box(a), _box(b)
    if ba is None or bb is None:
        return False
    return max(abs(ba.x0 - bb.x0), abs(ba.top - bb.top)) <= SAME_PLACE_PT


SAME_PLACE_PT = 1.0
"""Top-left corners this close are one place (EMU and layout rounding)."""


def match_shapes(refs: list[Node], arts: list[Node], p: CompareDeckParams) -> tuple[list[tuple[Node, Node, str]], list[Node], list[Node]]:
    """Matched (reference, artifact, by) triples, unmatched reference and artifact shapes.
    Passes, each over what is left, always within one family: same placeholder role (and
    index); same content (text, or a picture's bytes) in the same place; the same place
    (retyped or replaced there); same content elsewhere (moved); same name, when it is
    unique on both slides; nearest centre. Among several candidates a pass takes the
    nearest. Place and content come before names because python-pptx names shapes by
    creation order ("TextBox 3"): an agent that adds the same shapes in another order
    (another z-order, the same slide) swaps their names. Place comes before content
    elsewhere so that two labels swapped in place are two text differences, not a pass."""
    pairs: list[tuple[Node, Node, str]] = []
    left_refs, left_arts = list(refs), list(arts)

    def take(by: str, agree: Callable[[Node, Node], bool]) -> None:
        for a in list(left_refs):
            candidates = [b for b in left_arts if FAMILY[a.kind] == FAMILY[b.kind] and agree(a, b)]
            if candidates:
                b = min(candidates, key=lambda c: _center_distance(a, c))
                pairs.append((a, b, by))
                left_refs.remove(a)
                left_arts.remove(b)

    def keyed(key: Callable[[Node], Any]) -> Callable[[Node, Node], bool]:
        def agree(a: Node, b: Node) -> bool:
            ka = key(a)
            return ka is not None and key(b) == ka
        return agree

    take("placeholder", keyed(_placeholder))
    names_ref = [n.attrs.get("name") for n in refs]
    names_art = [n.attrs.get("name") for n in arts]

    def unique_name(n: Node) -> Any:
        name = n.attrs.get("name")
        return name if name and names_ref.count(name) <= 1 and names_art.count(name) <= 1 else None

    same_content = keyed(lambda n: _content_key(n, p))
    take("content", lambda a, b: same_content(a, b) and _same_place(a, b))
    take("place", _same_place)  # retyped or replaced in place: two labels swapped stay swapped
    take("moved content", same_content)
    take("name", keyed(unique_name))
    take("position", lambda a, b: True)
    return pairs, left_refs, left_arts


# -- aspects -----------------------------------------------------------------------------


def _content_aspect(node: Node, aspects: list[DeckAspect]) -> str | None:
    """Where an unmatched shape is reported: ``shapes`` when asked, else its content's aspect."""
    if "shapes" in aspects:
        return "shapes"
    family = FAMILY[node.kind]
    for aspect, wanted in (("tables", family == "table"), ("charts", family == "chart"), ("images", family == "image"),
                           ("text", family == "shape" and not is_blank(node.text))):
        if wanted and aspect in aspects:
            return aspect
    return None


def _geometry(box: Box | None) -> dict[str, float] | None:
    if box is None:
        return None
    return {"left": round(box.x0, 2), "top": round(box.top, 2), "width": round(box.width, 2), "height": round(box.height, 2)}


def compare_geometry(cmp: Comparison, a: Node, b: Node, where: str, p: CompareDeckParams) -> None:
    ga, gb = _geometry(_box(a)), _geometry(_box(b))
    tolerance = p.tolerance_pt if p.tolerance_pt is not None else EXACT_GEOMETRY_PT
    if ga is None or gb is None:
        cmp.check("geometry", where, ga, gb, equal=ga == gb)
        return
    off = {k: round(gb[k] - ga[k], 2) for k in ga if abs(gb[k] - ga[k]) > tolerance}
    note = ", ".join(f"{k} {v:+g} pt" for k, v in off.items())
    cmp.check("geometry", where, ga, gb, equal=not off, note=note + (f" (tolerance {tolerance:g} pt)" if off else ""))


def _paragraphs(shape: Node) -> list[Node]:
    return [n for n in shape.descendants("paragraph") if not is_blank(n.text)]


def compare_formatting(cmp: Comparison, a: Node, b: Node, where: str, p: CompareDeckParams) -> None:
    pa, pb = _paragraphs(a), _paragraphs(b)
    run_props = [x for x in p.formatting_properties if x not in PARAGRAPH_FORMATTING]
    for pair in align([normalize_text(n.text, p) for n in pa], [normalize_text(n.text, p) for n in pb]):
        if pair.reference is None or pair.artifact is None:
            _unpaired_bullet(cmp, pa, pb, pair.reference, pair.artifact, where, p)
            continue
        x, y = pa[pair.reference], pb[pair.artifact]
        at = f'{where} paragraph {pair.reference + 1} ("{snippet(x.text, words=4)}")'
        if "alignment" in p.formatting_properties:
            cmp.check("alignment", at, (x.style.align if x.style else None) or "left", (y.style.align if y.style else None) or "left")
        if "level" in p.formatting_properties:
            cmp.check("level", at, x.attrs.get("level", 0), y.attrs.get("level", 0))
        if "bullet" in p.formatting_properties:
            cmp.check("bullet", at, x.attrs.get("bullet"), y.attrs.get("bullet"))
        if run_props:
            compare_run_formatting(cmp, x, y, run_props, at, color_tolerance=p.color_tolerance)  # type: ignore[arg-type]


def _unpaired_bullet(
    cmp: Comparison, pa: list[Node], pb: list[Node], i: int | None, j: int | None, where: str, p: CompareDeckParams,
) -> None:
    """A bulleted paragraph one side has as a paragraph of its own and the other does not
    (its text joined to another paragraph by a line break, or split off): the bullet shown
    before it is there on one side only. Its words are the text aspect's business."""
    if "bullet" not in p.formatting_properties:
        return
    if i is not None and pa[i].attrs.get("bullet"):
        at = f'{where} paragraph {i + 1} ("{snippet(pa[i].text, words=4)}")'
        cmp.check("bullet", at, pa[i].attrs.get("bullet"), None, equal=False,
                  note="not a paragraph of its own in the artifact (joined to another by a line break?): no bullet of its own")
    elif j is not None and pb[j].attrs.get("bullet"):
        at = f'{where} artifact paragraph {j + 1} ("{snippet(pb[j].text, words=4)}")'
        cmp.check("bullet", at, None, pb[j].attrs.get("bullet"), equal=False,
                  note="a bulleted paragraph of its own only in the artifact")


def compare_chart(cmp: Comparison, a: Node, b: Node, where: str) -> None:
    cmp.check("charts", f"{where} type", a.attrs.get("chart_type"), b.attrs.get("chart_type"))
    cmp.check("charts", f"{where} title", a.attrs.get("title"), b.attrs.get("title"))
    sa, sb = a.attrs.get("series"), b.attrs.get("series")
    sa = sa if isinstance(sa, list) else []
    sb = sb if isinstance(sb, list) else []
    cmp.check("charts", f"{where} series count", len(sa), len(sb))
    for k, (x, y) in enumerate(zip(sa, sb, strict=False)):
        if not isinstance(x, dict) or not isinstance(y, dict):
            continue
        name = x.get("name") or f"#{k + 1}"
        for key in ("name", "values", "categories"):
            a_data, b_data = x.get(key), y.get(key)
            same = _same_data(a_data, b_data)
            note = "" if same else _points_note(a_data, b_data, x.get("categories"))
            cmp.check("charts", f"{where} series {name!r} {key}", a_data, b_data, equal=same, note=note)


CHART_REL_TOL = 1e-9
"""Chart numbers this close (relative) are one number: the last digits of a value an
agent computed (15.000000000000002 for 15) draw the same bar, as compare_workbook's values."""


def _points_note(a: Any, b: Any, categories: Any) -> str:
    """Which points differ (``point 2 ('2023'): 15 -> 16``), when both are lists as long."""
    if not isinstance(a, list) or not isinstance(b, list) or len(a) != len(b):
        return f"{len(a)} points, got {len(b)}" if isinstance(a, list) and isinstance(b, list) else ""
    labels = categories if isinstance(categories, list) and len(categories) == len(a) else None
    parts = [
        f"point {k + 1}" + (f" ({labels[k]!r})" if labels else "") + f": {x!r} -> {y!r}"
        for k, (x, y) in enumerate(zip(a, b, strict=True)) if not _same_data(x, y)
    ]
    return "; ".join(parts[:5]) + (f" (+{len(parts) - 5} more)" if len(parts) > 5 else "")


def _same_data(a: Any, b: Any) -> bool:
    """Series data agree: equal, numbers within CHART_REL_TOL, lists item by item."""
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_data(x, y) for x, y in zip(a, b, strict=True))
    numbers = (int, float)
    if isinstance(a, numbers) and isinstance(b, numbers) and not isinstance(a, bool) and not isinstance(b, bool):
        return math.isclose(float(a), float(b), rel_tol=CHART_REL_TOL, abs_tol=1e-12)
    return bool(a == b)


def compare_shape_pair(cmp: Comparison, ref: Document, art: Document, a: Node, b: Node, where: str, p: CompareDeckParams) -> None:
    family = FAMILY[a.kind]
    if "shapes" in p.aspects and family == "shape":
        cmp.check("shapes", where, a.attrs.get("shape_type") or "rect", b.attrs.get("shape_type") or "rect", note="preset geometry")
    if "text" in p.aspects and family == "shape" and not (is_blank(a.text) and is_blank(b.text)):
        # as drawn: runs set in capitals (cap="all") compare in capitals
        expected, actual = normalize_text(shown_text(a), p), normalize_text(shown_text(b), p)
        same, similarity = texts_agree(expected, actual, p)
        cmp.check("text", where, expected, actual, equal=same, note=difference_note(expected, actual, similarity))
    if "geometry" in p.aspects:
        compare_geometry(cmp, a, b, where, p)
    if "formatting" in p.aspects and family in ("shape",):
        compare_formatting(cmp, a, b, where, p)
    if "tables" in p.aspects and family == "table":
        compare_table_cells(cmp, a, b, where, p)
    if "formatting" in p.aspects and family == "table":  # OSWorld compares table runs' formatting too
        for r, (row_a, row_b) in enumerate(zip(table_grid(a), table_grid(b), strict=False)):
            for c, (cell_a, cell_b) in enumerate(zip(row_a, row_b, strict=False)):
                compare_formatting(cmp, cell_a, cell_b, f"{where} row {r + 1} cell {c + 1}", p)
    if "charts" in p.aspects and family == "chart":
        compare_chart(cmp, a, b, where)
    if "images" in p.aspects and family in ("image", "media"):
        same, how = nodes_show_same_picture(ref, a, art, b, p.image_match)
        cmp.check("images", where, a.attrs.get("blob"), b.attrs.get("blob"), equal=same, note=how)


def _notes(slide: Node, p: CompareDeckParams) -> str:
    return " ".join(normalize_text(n.text, p) for n in slide.children if n.kind == "note")


def compare_slide_facts(cmp: Comparison, ref: Document, art: Document, a: Node, b: Node, where: str, p: CompareDeckParams) -> None:
    if "notes" in p.aspects:
        expected, actual = _notes(a, p), _notes(b, p)
        same, similarity = texts_agree(expected, actual, p)
        cmp.check("notes", f"{where} notes", expected, actual, equal=same, note=f"similarity {similarity:.2f}" if similarity < 1 else "")
    if "background" in p.aspects:
        kind = (a.attrs.get("background_type"), b.attrs.get("background_type"))
        cmp.check("background", f"{where} background type", kind[0], kind[1])
        if kind[0] == kind[1] == "picture":
            same, how = nodes_show_same_picture(ref, a, art, b, p.image_match, key="background_blob")
            cmp.check("background", f"{where} background picture", a.attrs.get("background_blob"), b.attrs.get("background_blob"), equal=same, note=how)
        elif kind[0] == kind[1]:
            cmp.check("background", f"{where} background colour", a.attrs.get("background_color"), b.attrs.get("background_color"))
    if "transitions" in p.aspects:
        effects = ((a.attrs.get("transition") or "none"), (b.attrs.get("transition") or "none"))
        for key in ("transition", "transition_speed", "transition_duration_ms", "advance_on_click", "advance_after_ms"):
            if key in ("transition_speed", "transition_duration_ms") and effects == ("none", "none"):
                continue  # the speed of no effect is seen by nobody (LibreOffice writes spd="slow" on every slide)
            x, y = a.attrs.get(key), b.attrs.get(key)
            if key == "transition":
                x, y = x or "none", y or "none"
            if key == "advance_on_click":
                x, y = x is not False, y is not False
            cmp.check("transitions", f"{where} {key.replace('_', ' ')}", x, y)


def _unmatched(cmp: Comparison, shapes: list[Node], where: str, p: CompareDeckParams, *, extra: bool) -> None:
    """Shapes without a counterpart, each under the aspect that reports it (or none)."""
    for shape in shapes:
        aspect = _content_aspect(shape, p.aspects)
        if aspect is None:
            continue
        if extra:
            cmp.extra(aspect, shape_label(shape, where), snippet(shape.text) or shape.kind)
        else:
            cmp.missing(aspect, shape_label(shape, where), snippet(shape.text) or shape.kind)


def _shown_slides(doc: Document) -> tuple[list[int], list[Node]]:
    """The slides the slide show shows and LibreOffice prints, with their 1-based numbers
    among all slides: a hidden slide (``show="0"``) is no more the deck's content than a
    hidden shape is the slide's."""
    numbers, slides = [], []
    for k, slide in enumerate(doc.root.descendants("slide")):
        if slide.attrs.get("hidden") is not True:
            numbers.append(k + 1)
            slides.append(slide)
    return numbers, slides


def _missing_slide_note(slide: Node, art: Document, p: CompareDeckParams) -> str:
    """Why a reference slide has no counterpart: it is there, hidden, or it is missing."""
    key = _slide_key(slide, slide_shapes(slide, ignore_blank=p.ignore_blank), p)
    for k, other in enumerate(art.root.descendants("slide")):
        if other.attrs.get("hidden") is True and _slide_key(other, slide_shapes(other, ignore_blank=p.ignore_blank), p) == key:
            return f"hidden in the artifact (its slide {k + 1}: not shown in the slide show, not printed)"
    return "missing in the artifact"


def compare_slides(cmp: Comparison, ref: Document, art: Document, p: CompareDeckParams) -> dict[str, Any]:
    ref_numbers, ref_slides = _shown_slides(ref)
    art_numbers, art_slides = _shown_slides(art)
    ref_shapes = [slide_shapes(s, ignore_blank=p.ignore_blank) for s in ref_slides]
    art_shapes = [slide_shapes(s, ignore_blank=p.ignore_blank) for s in art_slides]
    pairs = align(
        [_slide_key(s, shapes, p) for s, shapes in zip(ref_slides, ref_shapes, strict=True)],
        [_slide_key(s, shapes, p) for s, shapes in zip(art_slides, art_shapes, strict=True)],
        similarity=slide_similarity,
        min_moved=1.0,
    )
    matched_by: dict[str, int] = {}
    chosen = None if p.select is None else {n.id for n in ref.select(p.select)}
    for pair in pairs:
        if pair.reference is None:
            assert pair.artifact is not None
            where = f"artifact slide {art_numbers[pair.artifact]}"
            if "slides" in p.aspects:
                cmp.extra("slides", where, snippet(_slide_text(art_shapes[pair.artifact], p)))
            elif chosen is None:  # the slide's content is still content the reference does not have
                _unmatched(cmp, art_shapes[pair.artifact], where, p, extra=True)
            continue
        where = f"slide {ref_numbers[pair.reference]}"
        if pair.artifact is None:
            if "slides" in p.aspects:
                cmp.missing("slides", where, snippet(_slide_text(ref_shapes[pair.reference], p)),
                            note=_missing_slide_note(ref_slides[pair.reference], art, p))
            else:
                _unmatched(cmp, [x for x in ref_shapes[pair.reference] if chosen is None or x.id in chosen], where, p, extra=False)
            continue
        if "slides" in p.aspects:
            cmp.check("slides", where, ref_numbers[pair.reference], art_numbers[pair.artifact],
                      equal=not pair.moved or p.ignore_order, note="the slide is elsewhere in the artifact" if pair.moved else "")
        a, b = ref_slides[pair.reference], art_slides[pair.artifact]
        matched, left_refs, left_arts = match_shapes(ref_shapes[pair.reference], art_shapes[pair.artifact], p)
        for x, y, by in matched:
            matched_by[by] = matched_by.get(by, 0) + 1
            if chosen is None or x.id in chosen:
                compare_shape_pair(cmp, ref, art, x, y, shape_label(x, where), p)
        _unmatched(cmp, [x for x in left_refs if chosen is None or x.id in chosen], where, p, extra=False)
        if chosen is None:
            _unmatched(cmp, left_arts, f"artifact slide {art_numbers[pair.artifact]}", p, extra=True)
        compare_slide_facts(cmp, ref, art, a, b, where, p)
    out: dict[str, Any] = {"slides": {"reference": len(ref_slides), "artifact": len(art_slides)}, "shapes_matched_by": matched_by}
    hidden = {side: n for side, doc, shown in (("reference", ref, ref_slides), ("artifact", art, art_slides))
              if (n := sum(1 for _ in doc.root.descendants("slide")) - len(shown))}
    if hidden:
        out["hidden_slides_left_out"] = hidden
    return out


@register_check(
    "compare_deck",
    mechanism="exact",
    params=CompareDeckParams,
    mechanism_when={"fuzzy": "tolerance", "tolerance_pt": "tolerance"},
    example={"reference": "gold.pptx", "aspects": ["slides", "text", "geometry", "notes"], "tolerance_pt": 5},
)
def compare_deck(doc: Document, p: CompareDeckParams, resources: Resources) -> CheckResult:
    """The deck matches a gold deck (.pptx, .odp, Google Slides): slides, shapes, text, tables, charts and pictures by default; geometry, formatting, notes, backgrounds and transitions on request.

    Default aspects are what the audience sees as the content: the slides in order, each
    shape with its counterpart, its text (whitespace runs and Unicode forms do not
    count), tables cell by cell, charts (type, title, series names and values) and the
    same pictures (a recompressed copy counts). Geometry (with ``tolerance_pt``), text
    formatting, speaker notes, backgrounds and transitions are opt-in: OSWorld's
    ``compare_pptx_files`` turns nearly all of them on and fails decks a person calls
    identical; a task that cares says which. Slides are paired by sequence alignment
    over their text, shapes by placeholder, unique name, text, then nearest centre. A
    reference that cannot be found or read is an error, never a fail.
    """
    reference = load_reference_document(p.reference, resources, render=False)
    if reference.artifact.format not in DECK_FORMATS:
        raise RubricError(
            f"compare_deck: the reference {p.reference!r} is a {reference.artifact.format} file, not a deck "
            f"(compare_document compares documents; compare_workbook workbooks)"
        )
    if "geometry" in p.aspects and reference.artifact.format == "pptx" and _laid_out(doc):
        # Both sides measured alike: a text box that resizes to its text is drawn
        # elsewhere than the file states, so a drawn box against a stated one differs
        # even between a deck and itself.
        doc.ensure_layout()
        reference = load_reference_document(p.reference, resources, render="lazy")
        reference.ensure_layout()
    cmp = Comparison()
    evidence = compare_slides(cmp, reference, doc, p)
    evidence["reference_format"] = reference.artifact.format
    tolerant = p.fuzzy is not None or p.tolerance_pt is not None
    return comparison_result(
        "compare_deck", cmp, p, mechanism="tolerance" if tolerant else "exact", reference_label=p.reference, evidence=evidence,
    )
