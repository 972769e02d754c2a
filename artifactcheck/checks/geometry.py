"""Geometry checks (mechanism ``geometric``): where nodes are on their pages and how they
sit relative to each other. Thin wrappers over the pure core in ``spatial.py`` (relations,
placement measures) and ``regions.py`` (named page regions).

Coordinates are page points, origin top-left, y down; page indexes are 0-based, and a
``page`` parameter also takes ``"first"``/``"last"`` or a negative index (-1 = last).
Without ``page`` a node is judged on the first page it is drawn on.

Every check returns its measurements as evidence: node ids, boxes as dicts in points, the
region in points, fractions, gaps and the thresholds they were compared with.

>>> from artifactcheck.model import ArtifactInfo, Box, Document, Node, Page
>>> logo = Node(id="s0/logo", kind="image", boxes=[Box(page=0, x0=20, top=15, x1=120, bottom=75)])
>>> doc = Document(artifact=ArtifactInfo(format="pptx", platform="office", sha256="0", size_bytes=0),
...     pages=[Page(index=0, kind="slide", width=720, height=540)],
...     root=Node(id="d", kind="document", children=[Node(id="s0", kind="slide", children=[logo])]))
>>> from artifactcheck.checks.registry import run_check
>>> run_check("in_region", doc, {"target": "image", "region": "upper-left", "page": 0}).status
'pass'
>>> run_check("in_region", doc, {"target": "image", "region": "bottom-right"}).status
'fail'
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import combinations, pairwise
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ..errors import ArtifactCheckError
from ..model import Box, Document, Node
from .layout import drawn_text_box, ensure_layout_for, extracted_without_layout, without_layout
from .regions import (
    DEFAULT_AREA_FRACTION,
    DEFAULT_CRITERION,
    Criterion,
    Region,
    describe_bounds,
    format_pt,
    parse_region,
)
from .registry import Resources, register_check
from .result import CheckResult
from .spatial import (
    RELATIONS,
    Bounds,
    Edge,
    Placement,
    Relation,
    center_gap,
    centre_offset,
    coverage,
    distance,
    edge_value,
    fraction_inside,
    gap,
    gaps_along,
    line_inside,
    overlap_area,
    overlap_depth,
    overlap_fraction,
    rect_covered_by,
    rect_fraction_inside,
    relate,
    relate_pages,
    shape_of,
    spread,
    union_of,
)
from .target import (
    FRAME_KINDS,
    NON_TEXT_KINDS,
    TargetSpec,
    cached,
    flow_of,
    is_empty,
    node_ref,
    paints_frame,
    runs_holding_match,
    select_targets,
)

if TYPE_CHECKING:
    from shapely.geometry.base import BaseGeometry

PageRef = int | Literal["first", "last"] | None
_NOISE_PT = 1e-6  # below any drawn distance; above the rounding of affine transforms
_RENDER_ROUNDING_PT = 0.06  # one twip (0.05 pt), LibreOffice's unit of placement, and float noise
Quantifier = Literal["all", "any"]


# -- evidence helpers (shared by image/match.py and ocr/located_text.py) ----------------------------------


def _r(value: float) -> float:
    return round(float(value), 2)


def box_dict(b: Box) -> dict[str, Any]:
    """A box as evidence: page, x0, top, x1, bottom (pt, 2 decimals), origin, polygon."""
    out: dict[str, Any] = {
        "page": b.page,
        "x0": _r(b.x0),
        "top": _r(b.top),
        "x1": _r(b.x1),
        "bottom": _r(b.bottom),
        "origin": b.origin,
    }
    if b.polygon is not None:
        out["polygon"] = [[_r(x), _r(y)] for x, y in b.polygon]
    return out


def bounds_dict(bounds: Bounds, page: int | None = None) -> dict[str, Any]:
    x0, top, x1, bottom = bounds
    out: dict[str, Any] = {"x0": _r(x0), "top": _r(top), "x1": _r(x1), "bottom": _r(bottom)}
    if page is not None:
        out = {"page": page, **out}
    return out


def resolve_page(doc: Document, ref: PageRef) -> tuple[int | None, str | None]:
    """``(index, None)`` for a page reference, or ``(None, reason)`` when the document has
    no such page (the artifact's fault: the check fails, it does not crash)."""
    if ref is None:
        return None, None
    count = len(doc.pages)
    if count == 0:
        return None, "the document has no pages"
    if ref in ("first", "last") or (isinstance(ref, int) and ref < 0):
        # Counted over the pages a reader is shown: a deck's hidden slides are not in the
        # slideshow nor in its render, and slide counts leave them out, so "the last
        # slide" of a deck whose appendix slide is hidden is the one before it.
        shown = [i for i, page in enumerate(doc.pages) if not page.hidden] or list(range(count))
        position = 0 if ref == "first" else -1 if ref == "last" else int(ref)
        if not -len(shown) <= position < len(shown):
            return None, f"page {ref!r} does not exist (the document shows {len(shown)} page(s))"
        return shown[position], None
    index = int(ref)
    if not 0 <= index < count:
        return None, f"page {ref!r} does not exist (the document has {count} page(s), 0-based)"
    return index, None


def page_size(doc: Document, index: int) -> tuple[float, float]:
    """(width, height) in points of page ``index`` (0-based)."""
    for p in doc.pages:
        if p.index == index:
            return p.width, p.height
    page = doc.pages[index]
    return page.width, page.height


STRAIGHT_LINES = frozenset({"line", "straightConnector1"})
"""Preset geometries drawn as one straight stroke from one end to the other."""


def line_ends(node: Node) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The two ends (pt) of a straight line or connector (``endpoints``), or None. Its
    box is only the rectangle the stroke runs across corner to corner: a diagonal
    connector does not touch a label sitting in that rectangle's empty corner (it
    "overlapped" it), and which corners it joins depends on its flips."""
    if node.attrs.get("shape_type") not in STRAIGHT_LINES or len(node.boxes) != 1:
        return None
    ends = node.attrs.get("endpoints")
    if not isinstance(ends, list) or len(ends) != 2:
        return None
    points: list[tuple[float, float]] = []
    for end in ends:
        if not isinstance(end, list) or len(end) != 2:
            return None
        x, y = end
        if not isinstance(x, (int, float)) or not isinstance(y, (int, float)):
            return None
        points.append((float(x), float(y)))
    return points[0], points[1]


def drawn_shape(node: Node, b: Box) -> BaseGeometry:
    """The geometry of one of ``node``'s boxes as drawn: the stroke of a straight line or
    connector (:func:`line_ends`), else the box (:func:`shape_of`)."""
    ends = line_ends(node) if b.origin == "native" else None
    if ends is None or b != node.boxes[0] or ends[0] == ends[1]:
        return shape_of(b)
    from shapely.geometry import LineString

    return LineString(ends)


@dataclass
class Placed:
    """A node's drawn geometry on one page: the union of its boxes there. The shapely
    shape is built only when a check needs more than the bounding box."""

    node: Node
    page: int
    boxes: list[Box]

    @cached_property
    def shape(self) -> BaseGeometry:
        return union_of(drawn_shape(self.node, b) for b in self.boxes)

    @cached_property
    def bounds(self) -> Bounds:
        # A rotated box's x0..bottom already bound its polygon (Box.around).
        return (
            min(b.x0 for b in self.boxes),
            min(b.top for b in self.boxes),
            max(b.x1 for b in self.boxes),
            max(b.bottom for b in self.boxes),
        )

    @property
    def rectangle(self) -> bool:
        """One axis-aligned box of positive area: plain arithmetic answers every question."""
        b = self.boxes[0]
        return len(self.boxes) == 1 and b.polygon is None and b.width > 0 and b.height > 0 and line_ends(self.node) is None

    def evidence(self) -> dict[str, Any]:
        return {**node_ref(self.node), "page": self.page, "boxes": [box_dict(b) for b in self.boxes]}


def select_placed(doc: Document, target: TargetSpec) -> list[Node]:
    """``select_targets``, then the drawn layout if a target's box depends on it (a slide
    deck's paragraphs and runs: design/pptx-geometry.md): every geometry check selects
    through here, so text is judged where it is drawn, and a check about pictures or
    shapes never starts a renderer."""
    nodes = select_targets(doc, target)
    ensure_layout_for(doc, nodes)
    if target.text is not None and target.selector is None:
        nodes = [at_matched_words(n, target) for n in nodes]
    return nodes


def at_matched_words(node: Node, target: TargetSpec) -> Node:
    """``node`` placed where the words ``{text: ...}`` named are drawn, when they are
    some of its runs, or the node also holds a picture: in "ACME Corp<tab><tab>Confidential"
    the word Confidential is at the right margin, not at the centre of the line, and
    "signed, the board" after an inline logo starts right of the logo. A copy of the node (its id, kind and
    place in the tree) with the boxes of those runs; the node itself when the match is
    all of its text, or is not in runs that have boxes."""
    runs = runs_holding_match(node, target)
    if not runs or any(not r.boxes for r in runs):
        return node
    every_run = len(runs) == sum(1 for r in node.descendants("run") if r.text.strip())
    if every_run and not any(d.kind in NON_TEXT_KINDS for d in node.descendants()):
        return node  # the words are all the node draws
    return node.model_copy(update={"boxes": [b for r in runs for b in r.boxes]})


def cut_off(node: Node) -> tuple[float, float, float, float]:
    """(left, top, right, bottom): points of each edge of a picture the render clips off
    (``cut_off_pt``); its box is the part drawn, its placement is the box grown by these."""
    cut = node.attrs.get("cut_off_pt")
    if not isinstance(cut, dict):
        return 0.0, 0.0, 0.0, 0.0

    def edge(name: str) -> float:
        value = cut.get(name, 0)
        return float(value) if isinstance(value, (int, float)) else 0.0

    return edge("left"), edge("top"), edge("right"), edge("bottom")


def place(node: Node, page: int | None) -> Placed | None:
    """The node's geometry on ``page`` (None: its first page); None when not drawn there
    (a shape the file marks hidden, or inside a hidden group, is drawn nowhere)."""
    if not node.boxes or _hidden_shape(node):
        return None
    on = node.pages[0] if page is None else page
    boxes = node.boxes_on(on)
    if not boxes:
        return None
    return Placed(node, on, boxes)


def shows_text(node: Node) -> bool:
    """A slide frame (shape, text box) holding text: what a reader sees of it is where
    its text is drawn, and its paint if it has any, not its (invisible) frame."""
    return node.kind in FRAME_KINDS and bool(node.text.strip())


def ensure_seen(doc: Document, nodes: Sequence[Node]) -> None:
    """Attach the drawn layout when one of ``nodes`` is a frame with text (so
    :func:`seen_boxes` knows where that text is drawn)."""
    ensure_layout_for(doc, [n for n in nodes if shows_text(n)], frames=True)


def judge_as_seen(doc: Document, nodes: Sequence[Node], evidence: dict[str, Any]) -> None:
    """:func:`ensure_seen`, and name in ``evidence`` the nodes judged by what they show
    rather than by their frame: ``judged_by_drawn_text`` (slide frames with text) and
    ``judged_by_visible_pixels`` (pictures with transparent margins)."""
    ensure_seen(doc, nodes)
    changed = [n for n in nodes if seen_boxes(doc, n) is not n.boxes]
    by_text = [n.id for n in changed if n.kind != "image"]
    by_pixels = [n.id for n in changed if n.kind == "image"]
    if by_text:
        evidence["judged_by_drawn_text"] = by_text
    if by_pixels:
        evidence["judged_by_visible_pixels"] = by_pixels


def seen_boxes(doc: Document, node: Node) -> list[Box]:
    """The boxes a reader sees of ``node``: for a slide frame with text whose drawn text
    is known, the drawn text's box, with the frame's box when the frame is painted (a
    fill or an outline); for a picture with transparent margins, the part of each box
    its visible pixels cover (:func:`visible_part`); otherwise the node's own boxes (the
    same list object). A title placeholder whose text sits in the middle of a tall frame
    is above a picture that overlaps only the frame's empty bottom, left-aligned text in
    a full-width frame is not centred, and two logos whose transparent padding overlaps
    do not overlap on the page."""
    if node.kind == "image":
        visible = [visible_part(doc, node, b) for b in node.boxes]
        return node.boxes if all(v is b for v, b in zip(visible, node.boxes, strict=True)) else visible
    text_box = drawn_text_box(node) if shows_text(node) else None
    if text_box is None:
        return node.boxes
    return [text_box, *node.boxes_on(text_box.page)] if paints_frame(node) else [text_box]


_VISIBLE_ALPHA = 8
"""Alpha (of 255) above which a pixel shows: anti-aliased fringes fade to 0."""


def visible_part(doc: Document, node: Node, b: Box) -> Box:
    """The part of picture box ``b`` that its visible pixels cover: a PNG logo saved on a
    transparent canvas is drawn only where its alpha is not 0. ``b`` itself for a picture
    without transparent margins, a turned one (``polygon``), one the render clips, or
    one whose pixels are not stored. Mirrored pictures mirror their margins."""
    if b.polygon is not None or node.attrs.get("cut_off_pt") or b.width <= 0 or b.height <= 0:
        return b
    sha = node.attrs.get("blob")
    blob = doc.blobs.get(sha) if isinstance(sha, str) else None
    if blob is None or blob.data is None:
        return b
    known: dict[str, tuple[float, float, float, float] | None] = cached(doc, "transparent_margins", lambda _: {})
    if blob.sha256 not in known:
        known[blob.sha256] = _transparent_margins(blob.data)
    margins = known[blob.sha256]
    if margins is None:
        return b
    left, top, right, bottom = margins
    if node.attrs.get("flip_h"):
        left, right = right, left
    if node.attrs.get("flip_v"):
        top, bottom = bottom, top
    return b.model_copy(update={
        "x0": b.x0 + left * b.width, "x1": b.x1 - right * b.width,
        "top": b.top + top * b.height, "bottom": b.bottom - bottom * b.height,
    })


def _transparent_margins(data: bytes) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) shares of a picture's width and height that are wholly
    transparent, or None when it has no such margin or cannot be decoded."""
    from PIL import Image, UnidentifiedImageError

    from ..model.blobs import check_image_budget

    try:
        with Image.open(io.BytesIO(data)) as img:
            check_image_budget(img.size)
            if img.mode not in ("RGBA", "LA", "PA") and "transparency" not in img.info:
                return None
            alpha = img.convert("RGBA").getchannel("A")
    except (OSError, ValueError, UnidentifiedImageError, Image.DecompressionBombError, ArtifactCheckError):
        return None
    width, height = alpha.size
    bbox = alpha.point(lambda a: 255 if a > _VISIBLE_ALPHA else 0).getbbox()
    if bbox is None or bbox == (0, 0, width, height):
        return None  # nothing shows (left to the frame), or no transparent margin
    x0, top, x1, bottom = bbox
    return (x0 / width, top / height, (width - x1) / width, (height - bottom) / height)


def place_seen(doc: Document, node: Node, page: int | None) -> Placed | None:
    """:func:`place` over :func:`seen_boxes` (call :func:`ensure_seen` first)."""
    boxes = seen_boxes(doc, node)
    if boxes is node.boxes:
        return place(node, page)
    if _hidden_shape(node):
        return None
    on = boxes[0].page if page is None else page
    here = [b for b in boxes if b.page == on]
    return Placed(node, on, here) if here else None


def _hidden_shape(node: Node) -> bool:
    """Marked hidden itself or by an enclosing group (``cNvPr hidden``: the selection
    pane's eye). A hidden slide's shapes are not: they keep the file's slide semantics."""
    if node.kind in ("slide", "page", "sheet", "row", "cell", "run", "paragraph"):
        return False  # hidden rows, runs and slides have their own rules (design/checks-geometry.md)
    return node.attrs.get("hidden") is True or any(a.kind == "group" and a.attrs.get("hidden") is True for a in node.ancestors())


def unplaced_reason(node: Node, page: int | None) -> str:
    if node.boxes and _hidden_shape(node):
        return "is hidden (marked so in the file: not drawn)"
    if not node.boxes:
        why = node.attrs.get("not_rendered_reason")
        if node.attrs.get("rendered") is False:
            return f"not rendered ({why})" if why else "not rendered"
        return "has no box (load the artifact with rendering to get layout boxes)"
    return f"is not drawn on page {page} (drawn on {node.pages})"


def result(
    check: str,
    *,
    passed: bool,
    explanation: str,
    evidence: dict[str, Any],
    score: float | None = None,
    mechanism: Literal["geometric", "tolerance"] = "geometric",
) -> CheckResult:
    """A decided result; ``score`` defaults to 1/0 from ``passed``.

    Built without re-validating ``evidence``: pydantic's JsonValue check walks every
    value and cost more than the geometry itself (bench/bench_checks.py). Evidence here is
    made of dicts, lists, str, int, float, bool and None by construction; status and score
    are consistent by construction too.
    """
    value = (1.0 if passed else 0.0) if score is None else max(0.0, min(1.0, float(score)))
    return CheckResult.model_construct(
        check=check,
        status="pass" if passed else "fail",
        mechanism=mechanism,
        score=value,
        explanation=explanation,
        evidence=evidence,
        params={},
        needs_trace=False,
        error=None,
    )


def not_located(node: Node) -> bool:
    """Drawn, but the extractor could not find where (a vector drawing, a picture the
    render re-encoded past recognition): not the artifact's fault, and not "outside"."""
    return not node.boxes and "not located" in str(node.attrs.get("not_rendered_reason", ""))


def no_geometry(check: str, nodes: Sequence[Node], page: int | None, evidence: dict[str, Any]) -> CheckResult | None:
    """``error`` when no target has any box at all: geometry cannot be judged (the tree
    was extracted without layout), which is not the artifact's fault; or when a target is
    drawn but was not located. None otherwise."""
    unseen = [n for n in nodes if not_located(n)]
    if unseen:
        return CheckResult(
            check=check,
            status="error",
            mechanism="geometric",
            explanation=f"{len(unseen)} target node(s) are drawn but were not located, e.g. {unseen[0].id} "
            f"({unseen[0].attrs.get('not_rendered_reason')}): where they are cannot be judged",
            evidence={**evidence, "not_located": [node_ref(n) for n in unseen[:20]]},
            error={"type": "NotLocated", "message": "target nodes are drawn but not located"},
        )
    if nodes and all(not n.boxes and n.attrs.get("rendered") is not False for n in nodes):
        return CheckResult(
            check=check,
            status="error",
            mechanism="geometric",
            explanation=f"none of the {len(nodes)} target node(s) has a box: the document was "
            "extracted without layout; load it with rendering to judge positions",
            evidence={**evidence, "nodes": [node_ref(n) for n in nodes[:20]]},
            error={"type": "NoGeometry", "message": "target nodes have no boxes"},
        )
    return None


def quantified(passes: int, total: int, quantifier: Quantifier) -> tuple[bool, float]:
    """(passed, score): ``all`` scores the share of passing targets, ``any`` 1 or 0."""
    if total == 0:
        return False, 0.0
    if quantifier == "any":
        return passes > 0, 1.0 if passes else 0.0
    return passes == total, passes / total


def _missing_page(check: str, doc: Document, missing: str, evidence: dict[str, Any]) -> CheckResult:
    """A page reference that names no page: the artifact's fault (``fail``), unless the
    document has no pages because it was extracted without layout (``error``)."""
    if extracted_without_layout(doc):
        return without_layout(check, "geometric", "a page reference")
    return result(check, passed=False, explanation=missing, evidence=evidence)


def _no_targets(check: str, target: Any, evidence: dict[str, Any]) -> CheckResult:
    return result(check, passed=False, explanation=f"no node matches {target.describe()}", evidence=evidence)


def _targets(
    check: str, doc: Document, page_ref: PageRef, target: TargetSpec, evidence: dict[str, Any]
) -> tuple[int | None, list[Node], CheckResult | None]:
    """(page, nodes, None) for a one-target check, or a result when it cannot proceed:
    no such page or no matching node (fail), or no target has a box at all (error).
    The page is checked before the selector runs."""
    page, missing = resolve_page(doc, page_ref)
    if missing:
        return page, [], _missing_page(check, doc, missing, evidence)
    nodes = select_placed(doc, target)
    if not nodes:
        return page, nodes, _no_targets(check, target, evidence)
    return page, nodes, no_geometry(check, nodes, page, evidence)


def _target_pair(
    check: str, doc: Document, page_ref: PageRef, a: TargetSpec, b: TargetSpec, evidence: dict[str, Any]
) -> tuple[int | None, list[Node], list[Node], CheckResult | None]:
    """(page, A nodes, B nodes, None) for a check relating A to B, or a result when it
    cannot proceed, as :func:`_targets` (the message names A or B)."""
    page, missing = resolve_page(doc, page_ref)
    if missing:
        return page, [], [], _missing_page(check, doc, missing, evidence)
    a_nodes, b_nodes = select_placed(doc, a), select_placed(doc, b)
    for label, t, found in (("A", a, a_nodes), ("B", b, b_nodes)):
        if not found:
            return page, a_nodes, b_nodes, result(check, passed=False, explanation=f"{label}: no node matches {t.describe()}", evidence=evidence)
    return page, a_nodes, b_nodes, no_geometry(check, a_nodes + b_nodes, page, evidence)


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class RegionBox(_Params):
    """An explicit region: points (``units="pt"``) or page fractions (``"fraction"``)."""

    x0: float
    top: float
    x1: float
    bottom: float
    units: Literal["pt", "fraction"] = "fraction"


def _region_on(region: str | RegionBox, width: float, height: float) -> tuple[float, float, float, float]:
    if isinstance(region, RegionBox):
        if region.units == "pt":
            return (region.x0, region.top, region.x1, region.bottom)
        return Region(region.x0, region.top, region.x1, region.bottom).on(width, height)
    return parse_region(region).region.on(width, height)


def _check_region(value: str | RegionBox) -> str | RegionBox:
    if isinstance(value, str):
        parse_region(value)  # raises ValueError -> "invalid parameters"
    elif value.units == "fraction":
        Region(value.x0, value.top, value.x1, value.bottom)
    elif value.x1 < value.x0 or value.bottom < value.top:
        raise ValueError("region box needs x0 <= x1 and top <= bottom")
    return value


# -- in_region -------------------------------------------------------------------------


REGION_HELP = "a name or fraction ('upper-left', 'top 20%', 'last page bottom third') or {x0, top, x1, bottom, units: 'fraction'|'pt'}"
PAGE_HELP = (
    "0-based page index (negative counts from the end) or 'first'/'last'; 'first', 'last' and "
    "negative indexes count shown pages only (a deck's hidden slides are skipped); default: "
    "each node's own first page"
)


class InRegionParams(_Params):
    target: TargetSpec = Field(description="the nodes to place (selector or target object)")
    region: str | RegionBox = Field(description=REGION_HELP)
    page: PageRef = Field(default=None, description=PAGE_HELP)
    criterion: Criterion | None = Field(
        default=None,
        description="center: the node's centre lies in the region (default); area: at least "
        "min_fraction of its area does; contained: all of it does. Default: center, or area "
        "when min_fraction is given",
    )
    min_fraction: float | None = Field(
        default=None, gt=0, le=1,
        description=f"criterion area: share of each node's area that must lie in the region (default {DEFAULT_AREA_FRACTION})",
    )
    tolerance_pt: float = Field(default=0.0, ge=0, description="grow the region by this many points on every side")
    quantifier: Quantifier = Field(default="all", description="all targets must pass, or any one")

    _region = field_validator("region")(_check_region)

    @property
    def resolved_criterion(self) -> Criterion:
        if self.criterion is not None:
            return self.criterion
        return "area" if self.min_fraction is not None else DEFAULT_CRITERION


@register_check(
    "in_region",
    mechanism="geometric",
    params=InRegionParams,
    example={"target": "slide:first-of-type image", "region": "upper-left", "page": 0},
)
def in_region(doc: Document, p: InRegionParams, resources: Resources) -> CheckResult:
    """Target nodes lie in a named or fractional page region ("upper-left", "top 20%").

    ``criterion`` says what "in" means. ``center`` (the default): the node's centre (of
    its bounding box; of its outline when rotated) lies in the region, edges included, so
    "the logo is in the upper-left corner" passes for a logo at the usual margin, whatever
    its size, and fails for a centred or right-aligned one (measured over real letters,
    decks and sheets: design/checks-geometry.md). ``area``: at least ``min_fraction``
    (default 0.5) of the node's area lies inside. ``contained``: all of it (``covered_by``;
    a node touching the region's edge is inside). Giving ``min_fraction`` alone selects
    ``area``. A named region is a cell of the page's 3x3 grid unless it says an amount
    ("top 20%"). A region text may name the page ("last page bottom third", "the bottom
    of the last page"); otherwise ``page`` does, or each node's own first page; with a
    page, the targets drawn on it are
    judged (those drawn only elsewhere are listed, not failed; when none is drawn there,
    each fails as "not drawn on page N"). The explanation states the criterion and
    the numbers: "centre at (156, 100) pt is inside upper-left = x<=204, y<=264".
    A picture with transparent margins is placed where its pixels show; a slide frame by
    its frame (name its words, ``{text: ...}``, to place them where they are drawn).
    """
    name = "in_region"
    criterion = p.resolved_criterion
    min_fraction = p.min_fraction if p.min_fraction is not None else DEFAULT_AREA_FRACTION
    page_ref: PageRef = p.page
    if isinstance(p.region, str):
        named = parse_region(p.region).page
        if named is not None:
            if p.page is not None and p.page != named:
                raise ValueError(f"region {p.region!r} names the {named} page but page={p.page!r}")
            page_ref = named
    page, missing = resolve_page(doc, page_ref)
    nodes = select_placed(doc, p.target)
    region_name = p.region if isinstance(p.region, str) else "the given box"
    evidence: dict[str, Any] = {
        "region": p.region if isinstance(p.region, str) else p.region.model_dump(),
        "criterion": criterion,
    }
    if missing:
        return _missing_page(name, doc, missing, evidence)
    if not nodes:
        return _no_targets(name, p.target, evidence)
    if (err := no_geometry(name, nodes, page, evidence)) is not None:
        return err
    if page is not None:
        # "the pictures on page 2 are at the top": the targets drawn elsewhere are not
        # asked about (a section's own header logo is not on the other sections' pages)
        here = [n for n in nodes if n.boxes_on(page)]
        if here and len(here) < len(nodes):
            evidence["not_on_page"] = [n.id for n in nodes if not n.boxes_on(page)][:20]
            nodes = here
    # Pictures are placed where their pixels show. Slide frames keep their frame here: a
    # region check over shapes never starts a renderer (tests/extractors/
    # test_pptx_layout.py), and "the title is in the top 20%" is asked of the placeholder;
    # {text: ...} targets are placed at their drawn words already.
    judge_as_seen(doc, [n for n in nodes if n.kind == "image"], evidence)
    rows: list[dict[str, Any]] = []
    passes = 0
    for node in nodes:
        placed = place_seen(doc, node, page) if node.kind == "image" else place(node, page)
        if placed is None:
            rows.append({**node_ref(node), "ok": False, "reason": unplaced_reason(node, page)})
            continue
        w, h = page_size(doc, placed.page)
        region_pt = _region_on(p.region, w, h)
        t = p.tolerance_pt
        grown = (region_pt[0] - t, region_pt[1] - t, region_pt[2] + t, region_pt[3] + t)
        if placed.rectangle:
            inside = rect_fraction_inside(placed.bounds, grown)
            covered = rect_covered_by(placed.bounds, grown)
            cx, cy = (placed.bounds[0] + placed.bounds[2]) / 2, (placed.bounds[1] + placed.bounds[3]) / 2
        else:
            inside = fraction_inside(placed.shape, _rect(*grown))
            covered = relate("covered_by", placed.shape, _rect(*region_pt), tolerance=t)
            centroid = placed.shape.centroid if placed.shape.area > 0 else placed.shape.envelope.centroid
            cx, cy = float(centroid.x), float(centroid.y)
        centre_in = grown[0] <= cx <= grown[2] and grown[1] <= cy <= grown[3]
        rest = _rest_of(doc, node, placed, p.region, t, asked_page=page is not None)
        if rest is not None:
            # a table or paragraph that breaks across pages is only partly on this one
            x0, top, x1, bottom = placed.bounds
            area_here = (x1 - x0) * (bottom - top) if placed.rectangle else float(placed.shape.area)
            total = area_here + rest.area
            inside = (inside * area_here + rest.inside_area) / total if total > 0 else inside
            covered = covered and rest.covered
        ok = centre_in if criterion == "center" else covered if criterion == "contained" else inside >= min_fraction
        passes += ok
        limits = describe_bounds(grown, w, h)
        if criterion == "center":
            why = f"centre at ({format_pt(cx)}, {format_pt(cy)}) pt is {'inside' if ok else 'outside'} {region_name} = {limits}"
        elif criterion == "area":
            why = f"{inside:.0%} of its area is inside {region_name} = {limits}; need >= {min_fraction:.0%}"
        else:
            x0, top, x1, bottom = placed.bounds
            why = (
                f"box x {format_pt(x0)}..{format_pt(x1)}, y {format_pt(top)}..{format_pt(bottom)} pt is "
                f"{'wholly' if ok else 'not wholly'} inside {region_name} = {limits} ({inside:.0%} of its area)"
            )
        if rest is not None:
            outside = 1 - rest.inside_area / rest.area if rest.area > 0 else 0.0
            why += (
                f"; it continues on page(s) {', '.join(str(q) for q in rest.pages)}"
                f" ({rest.area / total:.0%} of its area, {outside:.0%} of that outside {region_name})"
            )
        rows.append(
            {
                **placed.evidence(),
                **({"continues_on_pages": rest.pages, "area_elsewhere_pt2": _r(rest.area)} if rest is not None else {}),
                "region_pt": bounds_dict(region_pt, placed.page),
                "page_size_pt": [w, h],
                "centre_pt": [_r(cx), _r(cy)],
                "fraction_inside": round(inside, 4),
                "why": why,
                "ok": bool(ok),
            }
        )
    passed, score = quantified(passes, len(nodes), p.quantifier)
    evidence.update(nodes=rows, min_fraction=min_fraction, tolerance_pt=p.tolerance_pt, quantifier=p.quantifier)
    page_note = f" on page {rows[0]['page']}" if "page" in rows[0] else ""
    explanation = (
        f"{passes} of {len(nodes)} node(s) matching {p.target.describe()} are in region "
        f"{region_name!r}{page_note} by {criterion}; need {p.quantifier}"
    )
    shown = next((r for r in rows if not r["ok"]), rows[0]) if not passed else rows[0]
    detail = shown.get("why") or shown.get("reason")
    explanation += f"; {shown['id']}: {detail}"
    return result(name, passed=passed, score=score, explanation=explanation, evidence=evidence)


@dataclass
class _Rest:
    """The parts of a node drawn on pages other than the judged one."""

    pages: list[int]
    area: float
    inside_area: float
    covered: bool


REPEATED_KINDS = frozenset({"header", "footer"})
"""Containers whose content is drawn again on every page it shows on: each copy is whole."""


def _rest_of(
    doc: Document, node: Node, placed: Placed, region: str | RegionBox, tolerance: float, *, asked_page: bool
) -> _Rest | None:
    """What ``in_region`` must add for a node that continues on other pages (a table or
    paragraph broken across pages): None when it is drawn on one page only, or repeats
    (a header's logo, a table's repeated header row: each copy is whole). With a page
    asked for, the parts elsewhere are outside the region ("the table is on page 1" is
    false for a table that runs onto page 2); without one, the region is laid on each
    page the node is drawn on. Areas in pt^2 (bounding boxes of each page's part)."""
    if node.kind in REPEATED_KINDS or node.attrs.get("header") is True:
        return None
    if any(a.kind in REPEATED_KINDS or (a.kind == "row" and a.attrs.get("header") is True) for a in node.ancestors()):
        return None
    pages = sorted({b.page for b in node.boxes} - {placed.page})
    if not pages:
        return None
    area = inside_area = 0.0
    covered = not asked_page
    for q in pages:
        part = Placed(node, q, node.boxes_on(q))
        x0, top, x1, bottom = part.bounds
        a = max(0.0, x1 - x0) * max(0.0, bottom - top)
        area += a
        if asked_page:
            continue
        w, h = page_size(doc, q)
        r = _region_on(region, w, h)
        grown = (r[0] - tolerance, r[1] - tolerance, r[2] + tolerance, r[3] + tolerance)
        inside_area += a * rect_fraction_inside(part.bounds, grown)
        covered = covered and rect_covered_by(part.bounds, grown)
    return _Rest(pages, area, inside_area, covered)


def _rect(x0: float, top: float, x1: float, bottom: float) -> BaseGeometry:
    return shape_of(Box(page=0, x0=x0, top=top, x1=x1, bottom=bottom))


# -- spatial_relation ------------------------------------------------------------------


class RelationParams(_Params):
    a: TargetSpec = Field(description="shape A: the union of these nodes' boxes")
    b: TargetSpec = Field(description="shape B: the union of these nodes' boxes")
    relation: Relation = Field(description="covered_by (edges count as inside), covers, intersects, disjoint, overlaps (shared area), touches, equals")
    page: PageRef = Field(default=None, description="only this page; default: every page (pages never touch each other)")
    tolerance_pt: float = Field(default=0.0, ge=0, description="loosen the relation by this many points")


def _by_page(doc: Document, nodes: Sequence[Node], page: int | None) -> tuple[dict[int, BaseGeometry], list[dict[str, Any]]]:
    """The boxes of ``nodes`` a reader sees (:func:`seen_boxes`; on ``page``, or on
    every page) as one geometry per page, and the boxes as evidence."""
    per_page: dict[int, list[BaseGeometry]] = {}
    rows: list[dict[str, Any]] = []
    for node in nodes:
        seen = [] if _hidden_shape(node) else seen_boxes(doc, node)
        boxes = seen if page is None else [b for b in seen if b.page == page]
        for b in boxes:
            per_page.setdefault(b.page, []).append(drawn_shape(node, b))
        rows.append({**node_ref(node), "boxes": [box_dict(b) for b in boxes]})
    return {k: union_of(v) for k, v in sorted(per_page.items())}, rows


@register_check(
    "spatial_relation",
    mechanism="geometric",
    params=RelationParams,
    example={"a": "image", "b": "table", "relation": "disjoint"},
)
def spatial_relation(doc: Document, p: RelationParams, resources: Resources) -> CheckResult:
    """Targets A and B stand in one relation: covered_by, covers, intersects, disjoint, overlaps, touches, equals.

    A and B are the unions of the boxes of all their nodes; shapes on different pages never
    touch. ``covered_by`` holds for a box on the container's edge; ``overlaps`` needs a
    shared area (touching edges do not overlap). ``covers(a, b) == covered_by(b, a)``.
    A slide frame with text counts where its text is drawn (with its frame when painted),
    a picture with transparent margins where its pixels show, a straight line or
    connector as the stroke between its ends (not the rectangle it crosses).
    """
    name = "spatial_relation"
    evidence: dict[str, Any] = {"relation": p.relation, "tolerance_pt": p.tolerance_pt}
    page, a_nodes, b_nodes, early = _target_pair(name, doc, p.page, p.a, p.b, evidence)
    if early is not None:
        return early
    judge_as_seen(doc, a_nodes + b_nodes, evidence)
    a_pages, a_rows = _by_page(doc, a_nodes, page)
    b_pages, b_rows = _by_page(doc, b_nodes, page)
    if not a_pages or not b_pages:
        which = "A" if not a_pages else "B"
        return result(name, passed=False, explanation=f"{which} has no box on page {page}", evidence={**evidence, "a": a_rows, "b": b_rows})
    ok = relate_pages(p.relation, a_pages, b_pages, tolerance=p.tolerance_pt)
    common = sorted(set(a_pages) & set(b_pages))
    area = sum(overlap_area(a_pages[k], b_pages[k]) for k in common)
    gaps = [distance(a_pages[k], b_pages[k]) for k in common]
    a_area = sum(g.area for g in a_pages.values())
    inside = sum(a_pages[k].intersection(b_pages[k]).area for k in common if a_pages[k].intersects(b_pages[k]))
    evidence.update(
        a=a_rows,
        b=b_rows,
        pages_a=sorted(a_pages),
        pages_b=sorted(b_pages),
        overlap_area_pt2=_r(area),
        distance_pt=_r(min(gaps)) if gaps else None,
        fraction_of_a_inside_b=round(inside / a_area, 4) if a_area > 0 else None,
    )
    where = f"distance {min(gaps):.1f} pt" if gaps else f"no common page (A on {sorted(a_pages)}, B on {sorted(b_pages)})"
    explanation = (
        f"{p.a.describe()} {'is' if ok else 'is not'} {p.relation.replace('_', ' ')} {p.b.describe()} "
        f"(shared area {area:.1f} pt^2, {where}, tolerance {p.tolerance_pt:g} pt)"
    )
    return result(name, passed=ok, explanation=explanation, evidence=evidence)


# -- page_coverage ---------------------------------------------------------------------


class CoverageParams(_Params):
    target: TargetSpec
    page: PageRef = None
    min_fraction: float = Field(default=0.7, ge=0, le=1)
    max_fraction: float = Field(default=1.0, ge=0, le=1)


@register_check(
    "page_coverage",
    mechanism="geometric",
    params=CoverageParams,
    example={"target": "slide:nth-of-type(1) image", "page": 0, "min_fraction": 0.7},
)
def page_coverage(doc: Document, p: CoverageParams, resources: Resources) -> CheckResult:
    """The targets cover at least ``min_fraction`` of the page's area (union area on the page / page area).

    Overlapping targets are counted once and parts hanging off the page are ignored.
    Without ``page``, the page of the first target.
    """
    name = "page_coverage"
    evidence: dict[str, Any] = {"min_fraction": p.min_fraction, "max_fraction": p.max_fraction}
    page, nodes, early = _targets(name, doc, p.page, p.target, evidence)
    if early is not None:
        return early
    if page is None:
        page = next((n.pages[0] for n in nodes if n.boxes), 0)
    placed = [pl for n in nodes if (pl := place(n, page)) is not None]
    w, h = page_size(doc, page)
    frac = coverage([pl.shape for pl in placed], w, h) if placed else 0.0
    ok = p.min_fraction <= frac <= p.max_fraction
    evidence.update(
        page=page,
        page_size_pt=[w, h],
        coverage=round(frac, 4),
        nodes=[pl.evidence() for pl in placed],
        not_on_page=[node_ref(n) for n in nodes if place(n, page) is None],
    )
    bound = f">= {p.min_fraction:.0%}" + (f" and <= {p.max_fraction:.0%}" if p.max_fraction < 1 else "")
    explanation = f"{p.target.describe()} cover {frac:.1%} of page {page} ({w:g} x {h:g} pt); need {bound}"
    score = 1.0 if ok else (min(1.0, frac / p.min_fraction) if frac < p.min_fraction and p.min_fraction > 0 else 0.0)
    return result(name, passed=ok, score=score if not ok else 1.0, explanation=explanation, evidence=evidence)


# -- relative_position -----------------------------------------------------------------


class PlacementParams(_Params):
    a: TargetSpec
    b: TargetSpec
    relation: Placement
    mode: Literal["edges", "centers"] = Field(
        default="edges",
        description="edges: A lies wholly on that side of B; centers: A's centre is on that side of B's",
    )
    tolerance_pt: float = Field(default=0.0, ge=0, description="edges: allowed overlap; centers: ignored offset")
    page: PageRef = None


@register_check(
    "relative_position",
    mechanism="geometric",
    params=PlacementParams,
    example={"a": {"selector": "paragraph", "text": "Summary"}, "b": "image", "relation": "above"},
)
def relative_position(doc: Document, p: PlacementParams, resources: Resources) -> CheckResult:
    """A is left_of / right_of / above / below B (edges clear of each other, or centres ordered).

    ``mode="edges"``: A's facing edge is beyond B's, overlapping by at most ``tolerance_pt``.
    ``mode="centers"``: A's centre is on that side of B's centre by more than
    ``tolerance_pt``. A and B are the bounding boxes of all their nodes on one page; on
    different pages, ``above``/``below`` follow page order and ``left_of``/``right_of`` fail.
    A slide frame with text is placed where its text is drawn (with its frame when
    painted): a title whose words sit above a picture is above it even when the picture
    overlaps the empty bottom of its frame. A picture with transparent margins is placed
    where its pixels show.
    """
    name = "relative_position"
    evidence: dict[str, Any] = {"relation": p.relation, "mode": p.mode, "tolerance_pt": p.tolerance_pt}
    page, a_nodes, b_nodes, early = _target_pair(name, doc, p.page, p.a, p.b, evidence)
    if early is not None:
        return early
    judge_as_seen(doc, a_nodes + b_nodes, evidence)
    a_page = page if page is not None else min((n.pages[0] for n in a_nodes if n.boxes), default=None)
    b_page = page if page is not None else min((n.pages[0] for n in b_nodes if n.boxes), default=None)
    if a_page is None or b_page is None:
        return result(name, passed=False, explanation="A or B is not drawn", evidence=evidence)
    a_placed = [pl for n in a_nodes if (pl := place_seen(doc, n, a_page)) is not None]
    b_placed = [pl for n in b_nodes if (pl := place_seen(doc, n, b_page)) is not None]
    if not a_placed or not b_placed:
        return result(name, passed=False, explanation=f"A or B has no box on page {page}", evidence=evidence)
    a_bounds = union_of(pl.shape for pl in a_placed).bounds
    b_bounds = union_of(pl.shape for pl in b_placed).bounds
    evidence.update(a=bounds_dict(a_bounds, a_page), b=bounds_dict(b_bounds, b_page), a_nodes=[pl.evidence() for pl in a_placed], b_nodes=[pl.evidence() for pl in b_placed])
    if a_page != b_page:
        if p.relation in ("above", "below"):
            ok = (a_page < b_page) == (p.relation == "above")
            explanation = f"A is on page {a_page}, B on page {b_page}: A {'is' if ok else 'is not'} {p.relation} B by page order"
        else:
            ok = False
            explanation = f"A is on page {a_page}, B on page {b_page}: {p.relation} needs one page"
        return result(name, passed=ok, explanation=explanation, evidence=evidence)
    if p.mode == "edges":
        measured = gap(a_bounds, b_bounds, p.relation)
        ok = measured >= -p.tolerance_pt
        what = "gap between facing edges"
    else:
        measured = center_gap(a_bounds, b_bounds, p.relation)
        ok = measured > p.tolerance_pt
        what = "centre offset"
    evidence.update(measured_pt=_r(measured))
    explanation = (
        f"{p.a.describe()} {'is' if ok else 'is not'} {p.relation.replace('_', ' ')} {p.b.describe()}: "
        f"{what} {measured:.1f} pt (tolerance {p.tolerance_pt:g} pt)"
    )
    return result(name, passed=ok, explanation=explanation, evidence=evidence)


# -- multi-node arrangements -----------------------------------------------------------


class _GroupParams(_Params):
    target: TargetSpec
    page: PageRef = None
    min_count: int = Field(default=2, ge=1)


def _group(
    name: str, doc: Document, p: _GroupParams, *, same_page: bool, as_seen: bool = False
) -> tuple[list[Placed], CheckResult | None, dict[str, Any]]:
    """Place every target for a multi-node check; a CheckResult when it cannot proceed.
    ``as_seen``: slide frames with text are placed where their text is drawn, pictures
    with transparent margins where their pixels show (:func:`seen_boxes`): an
    arrangement is what the page shows."""
    evidence: dict[str, Any] = {"min_count": p.min_count}
    page, missing = resolve_page(doc, p.page)
    if missing:
        return [], _missing_page(name, doc, missing, evidence), evidence
    nodes = select_placed(doc, p.target)
    if (err := no_geometry(name, nodes, page, evidence)) is not None:
        return [], err, evidence
    def placer(n: Node, pg: int | None) -> Placed | None:
        return place_seen(doc, n, pg) if as_seen else place(n, pg)

    if as_seen:
        judge_as_seen(doc, nodes, evidence)
    placed = [pl for n in nodes if (pl := placer(n, page)) is not None]
    unplaced = [{**node_ref(n), "reason": unplaced_reason(n, page)} for n in nodes if placer(n, page) is None]
    if unplaced:
        evidence["not_placed"] = unplaced
    if same_page and placed and page is None:
        first = placed[0].page
        off = [pl for pl in placed if pl.page != first]
        if off:
            evidence["nodes"] = [pl.evidence() for pl in placed]
            return placed, result(name, passed=False, explanation=f"targets are on different pages ({sorted({pl.page for pl in placed})})", evidence=evidence), evidence
    if len(placed) < p.min_count:
        evidence["nodes"] = [pl.evidence() for pl in placed]
        return placed, result(
            name,
            passed=False,
            explanation=f"{len(placed)} placed node(s) match {p.target.describe()}; need at least {p.min_count}",
            evidence=evidence,
        ), evidence
    return placed, None, evidence


class AlignedParams(_GroupParams):
    edge: Edge = "left"
    tolerance_pt: float = Field(default=2.0, ge=0)


@register_check(
    "aligned",
    mechanism="geometric",
    params=AlignedParams,
    example={"target": "slide:nth-of-type(2) image", "edge": "top", "tolerance_pt": 2},
)
def aligned(doc: Document, p: AlignedParams, resources: Resources) -> CheckResult:
    """The targets share one edge or centre line (left, right, top, bottom, center_x, center_y) within a tolerance.

    The spread (max - min) of that coordinate must be <= ``tolerance_pt``. Targets may be
    on different pages (e.g. titles aligned across slides).
    """
    name = "aligned"
    placed, early, evidence = _group(name, doc, p, same_page=False)
    if early is not None:
        return early
    values = [edge_value(pl.bounds, p.edge) for pl in placed]
    s = spread(values)
    ok = s <= p.tolerance_pt
    evidence.update(
        edge=p.edge,
        tolerance_pt=p.tolerance_pt,
        spread_pt=_r(s),
        nodes=[{**pl.evidence(), p.edge: _r(v)} for pl, v in zip(placed, values)],
    )
    explanation = f"{len(placed)} node(s) {'are' if ok else 'are not'} aligned on {p.edge}: spread {s:.1f} pt (tolerance {p.tolerance_pt:g} pt)"
    return result(name, passed=ok, explanation=explanation, evidence=evidence)


class SameSizeParams(_GroupParams):
    dimension: Literal["width", "height", "both"] = Field(default="both", description="which side must match")
    tolerance_pt: float = Field(default=2.0, ge=0, description="largest minus smallest may be this many points")
    relative_tolerance: float = Field(
        default=0.0, ge=0, le=1, description="or this share of the largest, whichever is looser"
    )


def _displayed(pl: Placed) -> tuple[float, float]:
    """Width and height (pt) a node is drawn at, before rotation: the polygon's edge
    lengths for a rotated node, else its bounding box on the page."""
    b = pl.boxes[0]
    if len(pl.boxes) == 1 and b.polygon is not None and len(b.polygon) == 4:
        p0, p1, p2, _ = b.polygon
        return (math.dist(p0, p1), math.dist(p1, p2))
    x0, top, x1, bottom = pl.bounds
    return (x1 - x0, bottom - top)


@register_check(
    "same_size",
    mechanism="geometric",
    params=SameSizeParams,
    example={"target": "slide:last-of-type image", "dimension": "both", "tolerance_pt": 2},
)
def same_size(doc: Document, p: SameSizeParams, resources: Resources) -> CheckResult:
    """The targets are drawn the same size (width, height or both) within a tolerance.

    Sizes are the displayed sizes in points (a rotated node's own width and height, not
    its bounding box; a node split over pages: its part on the page judged). For each
    dimension checked, largest minus smallest must be <= ``tolerance_pt`` or <=
    ``relative_tolerance`` x the largest, whichever is looser. Targets may be on different
    pages ("every slide's logo is the same size").
    """
    name = "same_size"
    placed, early, evidence = _group(name, doc, p, same_page=False)
    if early is not None:
        return early
    sizes = [_displayed(pl) for pl in placed]
    dims = ["width", "height"] if p.dimension == "both" else [p.dimension]
    verdicts = []
    for dim in dims:
        values = [w if dim == "width" else h for w, h in sizes]
        allowed = max(p.tolerance_pt, p.relative_tolerance * max(values))
        s = spread(values)
        verdicts.append((dim, s, allowed, s <= allowed, min(values), max(values)))
    ok = all(v[3] for v in verdicts)
    evidence.update(
        dimension=p.dimension,
        tolerance_pt=p.tolerance_pt,
        relative_tolerance=p.relative_tolerance,
        spreads={d: {"spread_pt": _r(s), "allowed_pt": _r(a), "min_pt": _r(lo), "max_pt": _r(hi)} for d, s, a, _, lo, hi in verdicts},
        nodes=[{**pl.evidence(), "width_pt": _r(w), "height_pt": _r(h)} for pl, (w, h) in zip(placed, sizes, strict=True)],
    )
    parts = [f"{d} {lo:.1f}-{hi:.1f} pt (spread {s:.1f}, allowed {a:.1f})" for d, s, a, _, lo, hi in verdicts]
    explanation = f"{len(placed)} node(s) {'are' if ok else 'are not'} the same size: " + "; ".join(parts)
    return result(name, passed=ok, explanation=explanation, evidence=evidence)


class RowParams(_GroupParams):
    min_overlap: float = Field(default=0.5, ge=0, le=1, description="shared extent across the row/column axis, as a share of the smaller node")
    tolerance_pt: float = Field(default=0.0, ge=0, description="allowed overlap along the row/column")


def _arrangement(name: str, doc: Document, p: RowParams, axis: Literal["horizontal", "vertical"]) -> CheckResult:
    placed, early, evidence = _group(name, doc, p, same_page=True, as_seen=True)
    if early is not None:
        return early
    if axis == "horizontal":
        ordered = sorted(placed, key=lambda pl: (pl.bounds[0], pl.bounds[1]))
    else:
        ordered = sorted(placed, key=lambda pl: (pl.bounds[1], pl.bounds[0]))
    pairs: list[dict[str, Any]] = []
    failures: list[str] = []
    for first, second in pairwise(ordered):
        a, b = first.bounds, second.bounds
        if axis == "horizontal":
            cross = overlap_fraction(a[1], a[3], b[1], b[3])
            g = b[0] - a[2]
        else:
            cross = overlap_fraction(a[0], a[2], b[0], b[2])
            g = b[1] - a[3]
        ok_cross, ok_gap = cross >= p.min_overlap, g >= -p.tolerance_pt
        pairs.append({"first": first.node.id, "second": second.node.id, "cross_overlap": round(cross, 4), "gap_pt": _r(g), "ok": ok_cross and ok_gap})
        if not ok_cross:
            failures.append(f"{first.node.id} and {second.node.id} share only {cross:.0%} of their {'height' if axis == 'horizontal' else 'width'}")
        if not ok_gap:
            failures.append(f"{first.node.id} and {second.node.id} overlap by {-g:.1f} pt")
    ok = not failures
    evidence.update(
        order=[pl.node.id for pl in ordered],
        pairs=pairs,
        min_overlap=p.min_overlap,
        tolerance_pt=p.tolerance_pt,
        nodes=[pl.evidence() for pl in ordered],
    )
    word = "side by side in one row" if axis == "horizontal" else "stacked in one column"
    explanation = f"{len(placed)} node(s) {'are' if ok else 'are not'} {word}" + (f": {'; '.join(failures)}" if failures else f" (order: {', '.join(evidence['order'])})")
    good = sum(1 for pr in pairs if pr["ok"])
    return result(name, passed=ok, score=good / len(pairs) if pairs else 1.0, explanation=explanation, evidence=evidence)


@register_check(
    "side_by_side",
    mechanism="geometric",
    params=RowParams,
    example={"target": "slide:last-of-type image", "min_count": 2},
)
def side_by_side(doc: Document, p: RowParams, resources: Resources) -> CheckResult:
    """The targets sit side by side in one row: same page, overlapping vertically, left to right without overlapping.

    Each neighbour pair (ordered by left edge) must share ``min_overlap`` of the smaller
    height and overlap horizontally by at most ``tolerance_pt``. Slide frames with text
    are placed where their text is drawn, pictures with transparent margins where their
    pixels show.
    """
    return _arrangement("side_by_side", doc, p, "horizontal")


@register_check(
    "stacked",
    mechanism="geometric",
    params=RowParams,
    example={"target": "slide:first-of-type textbox", "min_count": 2},
)
def stacked(doc: Document, p: RowParams, resources: Resources) -> CheckResult:
    """The targets are stacked in one column: same page, overlapping horizontally, top to bottom without overlapping.

    Each neighbour pair (ordered by top edge) must share ``min_overlap`` of the smaller
    width and overlap vertically by at most ``tolerance_pt``. Slide frames with text are
    placed where their text is drawn, pictures with transparent margins where their
    pixels show.
    """
    return _arrangement("stacked", doc, p, "vertical")


class CenteredParams(_Params):
    target: TargetSpec
    page: PageRef = None
    axis: Literal["horizontal", "vertical", "both"] = "horizontal"
    tolerance_pt: float = Field(default=6.0, ge=0)
    quantifier: Quantifier = "all"


@register_check(
    "centered_on_page",
    mechanism="geometric",
    params=CenteredParams,
    example={"target": {"selector": "paragraph", "nth": 0}, "axis": "horizontal", "tolerance_pt": 6},
)
def centered_on_page(doc: Document, p: CenteredParams, resources: Resources) -> CheckResult:
    """Each target's box is centred on its page (horizontally, vertically or both) within a tolerance.

    Measures the offset (pt) from the page centre to the box centre. A slide frame with
    text is measured where its text is drawn (left-aligned text in a full-width title
    frame is not centred), a picture with transparent margins where its pixels show.
    """
    name = "centered_on_page"
    evidence: dict[str, Any] = {"axis": p.axis, "tolerance_pt": p.tolerance_pt}
    page, nodes, early = _targets(name, doc, p.page, p.target, evidence)
    if early is not None:
        return early
    judge_as_seen(doc, nodes, evidence)
    rows: list[dict[str, Any]] = []
    passes = 0
    for node in nodes:
        pl = place_seen(doc, node, page)
        if pl is None:
            rows.append({**node_ref(node), "ok": False, "reason": unplaced_reason(node, page)})
            continue
        w, h = page_size(doc, pl.page)
        dx, dy = centre_offset(pl.bounds, w, h)
        ok = (p.axis == "vertical" or abs(dx) <= p.tolerance_pt) and (p.axis == "horizontal" or abs(dy) <= p.tolerance_pt)
        passes += ok
        rows.append({**pl.evidence(), "offset_x_pt": _r(dx), "offset_y_pt": _r(dy), "ok": ok})
    passed, score = quantified(passes, len(nodes), p.quantifier)
    evidence["nodes"] = rows
    offsets = [
        max(abs(r["offset_x_pt"]) if p.axis != "vertical" else 0.0, abs(r["offset_y_pt"]) if p.axis != "horizontal" else 0.0)
        for r in rows
        if "offset_x_pt" in r
    ]
    axis_word = {"horizontal": "horizontally", "vertical": "vertically", "both": "both ways"}[p.axis]
    explanation = f"{passes} of {len(nodes)} node(s) centred {axis_word} on the page within {p.tolerance_pt:g} pt" + (
        f" (largest offset {max(offsets):.1f} pt)" if offsets else ""
    )
    return result(name, passed=passed, score=score, explanation=explanation, evidence=evidence)


class EvenParams(_GroupParams):
    min_count: int = Field(default=3, ge=2)
    axis: Literal["horizontal", "vertical"] = "horizontal"
    tolerance_pt: float = Field(default=3.0, ge=0)


@register_check(
    "evenly_spaced",
    mechanism="geometric",
    params=EvenParams,
    example={"target": "slide:nth-of-type(3) image", "axis": "horizontal", "tolerance_pt": 3},
)
def evenly_spaced(doc: Document, p: EvenParams, resources: Resources) -> CheckResult:
    """The gaps between consecutive targets (along one axis, same page) are equal within a tolerance.

    Gaps are measured between facing edges after sorting along the axis; their spread
    (max - min) must be <= ``tolerance_pt``.
    """
    name = "evenly_spaced"
    placed, early, evidence = _group(name, doc, p, same_page=True)
    if early is not None:
        return early
    gaps = gaps_along([pl.bounds for pl in placed], p.axis)
    s = spread(gaps)
    ok = s <= p.tolerance_pt
    evidence.update(axis=p.axis, gaps_pt=[_r(g) for g in gaps], spread_pt=_r(s), tolerance_pt=p.tolerance_pt, nodes=[pl.evidence() for pl in placed])
    explanation = f"gaps {', '.join(f'{g:.1f}' for g in gaps)} pt along {p.axis}: spread {s:.1f} pt (tolerance {p.tolerance_pt:g} pt)"
    return result(name, passed=ok, explanation=explanation, evidence=evidence)


class NoOverlapParams(_Params):
    target: TargetSpec
    page: PageRef = None
    tolerance_pt: float = Field(default=0.0, ge=0, description="forgive overlaps no deeper than this")


@register_check(
    "no_overlap",
    mechanism="geometric",
    params=NoOverlapParams,
    example={"target": "slide:nth-of-type(2) > *", "tolerance_pt": 1},
)
def no_overlap(doc: Document, p: NoOverlapParams, resources: Resources) -> CheckResult:
    """No two targets overlap each other (touching edges are fine; nested nodes are not compared).

    Pairs on the same page whose shared area is deeper than ``tolerance_pt`` are listed
    with their overlap area and depth. A single target trivially passes. Frames that
    draw nothing (an empty placeholder or text box without fill or outline: the render
    prints nothing there) overlap nothing a reader sees and are left out, by name; a
    slide frame with text is judged by where its text is drawn, with its paint when it
    has a fill or outline (``judged_by_drawn_text``); a picture with transparent margins
    by where its pixels show (``judged_by_visible_pixels``); a straight line or connector
    by its stroke, which overlaps a shape when it runs inside it deeper than
    ``tolerance_pt`` (ending on its edge is touching).
    """
    name = "no_overlap"
    evidence: dict[str, Any] = {"tolerance_pt": p.tolerance_pt}
    page, nodes, early = _targets(name, doc, p.page, p.target, evidence)
    if early is not None:
        return early
    unseen = [n for n in nodes if is_empty(n) and n.kind in FRAME_KINDS]
    if unseen:
        evidence["left_out_drawing_nothing"] = [n.id for n in unseen]
        left_out = {id(n) for n in unseen}
        nodes = [n for n in nodes if id(n) not in left_out]
    # What a frame with text shows is its text, and its paint if it has any: two text
    # boxes whose invisible frames overlap do not overlap on the page unless their text
    # does, and text spilling out of its box lies over whatever it is drawn across.
    judge_as_seen(doc, nodes, evidence)
    placed: list[Placed] = []
    for n in nodes:
        if seen_boxes(doc, n) is not n.boxes:
            if (pl := place_seen(doc, n, page)) is not None:
                placed.append(pl)
            continue
        pages = [page] if page is not None else n.pages
        placed.extend(pl for pg in pages if (pl := place(n, pg)) is not None)
    overlapping: list[dict[str, Any]] = []
    pairs = 0
    for x, y in combinations(placed, 2):
        if x.page != y.page or x.node.is_inside(y.node) or y.node.is_inside(x.node) or x.node is y.node:
            continue
        pairs += 1
        # a line shares no area with what it crosses: how far it runs inside it is its depth
        depth = overlap_depth(x.shape, y.shape) or max(line_inside(x.shape, y.shape), line_inside(y.shape, x.shape))
        if depth > p.tolerance_pt:
            overlapping.append({"a": x.node.id, "b": y.node.id, "page": x.page, "overlap_area_pt2": _r(overlap_area(x.shape, y.shape)), "depth_pt": _r(depth)})
    ok = not overlapping
    evidence.update(pairs_compared=pairs, overlapping=overlapping[:50], overlapping_count=len(overlapping))
    explanation = (
        f"none of {pairs} pair(s) of {p.target.describe()} overlap"
        if ok
        else f"{len(overlapping)} of {pairs} pair(s) overlap, e.g. {overlapping[0]['a']} and {overlapping[0]['b']} by {overlapping[0]['depth_pt']} pt"
    )
    score = 1.0 - len(overlapping) / pairs if pairs else 1.0
    return result(name, passed=ok, score=score, explanation=explanation, evidence=evidence)


class WithinPageParams(_Params):
    target: TargetSpec = Field(default="image, shape, textbox, table, chart, media", validate_default=True)
    tolerance_pt: float = Field(default=0.0, ge=0)
    within: Literal["page", "margins"] = Field(
        default="page",
        description="page: the page's edges; margins: the text area inside the page margins of the page's section "
        "(documents only; header and footer content is held to the page)",
    )


def text_area(doc: Document, page: int) -> tuple[float, float, float, float] | None:
    """The area inside the margins of the section page ``page`` shows (x0, top, x1,
    bottom in points), or None when the document states no margins (a deck, a sheet)."""
    sections = doc.root.attrs.get("sections")
    index = doc.pages[page].attrs.get("section", 0) if page < len(doc.pages) else 0
    if not isinstance(sections, list) or not isinstance(index, int) or not 0 <= index < len(sections):
        return None
    section = sections[index]
    margins = section.get("margins") if isinstance(section, dict) else None
    if not isinstance(margins, dict):
        return None
    edges = [margins.get(k) for k in ("left", "top", "right", "bottom")]
    left, top, right, bottom = (float(v) if isinstance(v, (int, float)) else 0.0 for v in edges)
    w, h = page_size(doc, page)
    return left, top, w - right, h - bottom


@register_check(
    "within_page",
    mechanism="geometric",
    params=WithinPageParams,
    example={"target": "image"},
)
def within_page(doc: Document, p: WithinPageParams, resources: Resources) -> CheckResult:
    """Every target lies within its page's bounds (nothing hangs off the slide or page).

    Each box must be ``covered_by`` its page rectangle grown by ``tolerance_pt``; the
    evidence gives how far each offending box sticks out on each side. A picture the
    render draws clipped (a .docx picture taller than the page's body, wider than its
    table cell, or hanging off the page) is measured as placed, and fails when clipped:
    part of it is not on the page.
    """
    name = "within_page"
    if extracted_without_layout(doc):
        return without_layout(name, "geometric", "where things lie on their pages")
    selected = select_placed(doc, p.target)
    nodes = [n for n in selected if n.boxes]
    # drawn but not located: whether it hangs off the page is unknown, and passing over
    # it would pass a page we cannot see whole
    unseen = no_geometry(name, [n for n in selected if not_located(n)], None, {"tolerance_pt": p.tolerance_pt})
    if unseen is not None:
        return unseen
    if p.within == "margins" and doc.pages and text_area(doc, 0) is None:
        return CheckResult(
            check=name, status="error", mechanism="geometric",
            explanation=f"within: margins needs a document with page margins; this {doc.artifact.format} states none",
            error={"type": "NoMargins", "message": "the artifact states no page margins"},
        )
    bounds_name = "page margins" if p.within == "margins" else "pages"
    outside: list[dict[str, Any]] = []
    checked = 0
    ensure_seen(doc, nodes)
    for node in nodes:
        cut = node.attrs.get("cut_off_pt")
        left, up, right, down = cut_off(node)
        # header and footer content lives in the margins: it is held to the page
        flow = flow_of(node)
        by_margins = p.within == "margins" and (flow is None or flow.kind not in REPEATED_KINDS)
        # A slide frame's text is held to the page too: an unwrapped line runs off the
        # slide from a frame that lies on it (drawn 261 pt past the right edge).
        drawn = drawn_text_box(node) if shows_text(node) else None
        for b in [*node.boxes, *([drawn] if drawn is not None else [])]:
            if b.page >= len(doc.pages):
                continue
            checked += 1
            w, h = page_size(doc, b.page)
            area = (text_area(doc, b.page) if by_margins else None) or (0.0, 0.0, w, h)
            # The box is the part drawn; a picture the render clips (to the page's edge,
            # its body, a table cell) is not whole on the page: its placement is measured.
            x0, top, x1, bottom = b.x0 - left, b.top - up, b.x1 + right, b.bottom + down
            # a rotated frame's corners carry float noise (x0 = -3.7e-14 for a box drawn
            # from x 0): a millionth of a point is not sticking out; a box read off a
            # render carries its twips (a full-page background is drawn from y -0.05)
            t = p.tolerance_pt + (_NOISE_PT if b.origin == "native" else _RENDER_ROUNDING_PT)
            beyond = {
                "left": _r(max(0, area[0] - x0)), "top": _r(max(0, area[1] - top)),
                "right": _r(max(0, x1 - area[2])), "bottom": _r(max(0, bottom - area[3])),
            }
            row: dict[str, Any] = {**node_ref(node), "box": box_dict(b), "page_size_pt": [w, h]}
            if b is drawn:
                row["drawn_text"] = True
            if by_margins:
                row["text_area_pt"] = [_r(v) for v in area]
            if cut:
                clipper = "its table cell" if any(a.kind == "cell" for a in node.ancestors()) else "the page"
                outside.append({**row, "cut_off_pt": cut, "clipped_by": clipper, "beyond_pt": beyond})
            elif not rect_covered_by((x0, top, x1, bottom), (area[0] - t, area[1] - t, area[2] + t, area[3] + t)):
                outside.append({**row, "beyond_pt": beyond})
    ok = not outside
    evidence: dict[str, Any] = {"boxes_checked": checked, "outside": outside[:50], "tolerance_pt": p.tolerance_pt, "within": p.within}
    explanation = (
        f"all {checked} box(es) of {p.target.describe()} lie within their {bounds_name}"
        if ok
        else f"{len(outside)} of {checked} box(es) stick out of their {bounds_name} or are cut off, e.g. {outside[0]['id']} "
        + (
            f"cut off by {outside[0]['cut_off_pt']} pt (the render clips it at {outside[0]['clipped_by']})"
            if "cut_off_pt" in outside[0]
            else f"by {outside[0]['beyond_pt']}"
        )
    )
    return result(name, passed=ok, score=1 - len(outside) / checked if checked else 1.0, explanation=explanation, evidence=evidence)


__all__ = [
    "RELATIONS",
    "Placed",
    "bounds_dict",
    "box_dict",
    "page_size",
    "place",
    "resolve_page",
    "result",
]
