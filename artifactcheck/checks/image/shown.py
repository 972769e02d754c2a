"""How much of a picture its page shows: a picture the file holds but places wholly off
the slide (python-pptx ``add_picture(left=prs.slide_width + ...)``) or marks hidden is
drawn on no page; LibreOffice's PDF has no image there at all. A check that says "this
image is in the deck" must not count it, and must say why.

Boxes are page points, origin top-left; a box's placement is its drawn part grown by
``cut_off_pt`` (the edges a render clips). Pure arithmetic over the tree: no render.
See design/checks-geometry.md, "Images"."""

from __future__ import annotations

from dataclasses import dataclass

from ...model import Document, Node
from ..geometry import cut_off, page_size, place, unplaced_reason
from ..spatial import rect_fraction_inside


@dataclass(frozen=True)
class Shown:
    """``share``: the fraction (0..1) of the picture's placed area inside its pages;
    ``beyond_pt``: how far it sticks out of its first page on each side (0 when inside);
    ``reason``: why no page shows it (None when some of it is shown); ``paper``: "slide"
    or "page", for explanations."""

    share: float
    beyond_pt: dict[str, float]
    reason: str | None = None
    paper: str = "page"


def shown_on_page(doc: Document, node: Node) -> Shown | None:
    """How much of ``node`` its pages show, or None when that is unknown (no box: not
    laid out, or drawn but not located). A box on its page's edge counts as inside."""
    boxes = [b for b in node.boxes if b.page < len(doc.pages)]
    if not boxes:
        return None
    paper = "slide" if any(a.kind == "slide" for a in node.ancestors()) else "page"
    if place(node, None) is None:  # boxes, but marked hidden (itself or its group)
        return Shown(0.0, {}, f"{node.id} {unplaced_reason(node, None)}", paper)
    left, up, right, down = cut_off(node)
    total = inside = 0.0
    beyond: dict[str, float] = {}
    for b in boxes:
        w, h = page_size(doc, b.page)
        placed = (b.x0 - left, b.top - up, b.x1 + right, b.bottom + down)
        area = (placed[2] - placed[0]) * (placed[3] - placed[1])
        total += area
        inside += area * rect_fraction_inside(placed, (0.0, 0.0, w, h))
        if not beyond:
            beyond = {
                "left": round(max(0.0, -placed[0]), 2), "top": round(max(0.0, -placed[1]), 2),
                "right": round(max(0.0, placed[2] - w), 2), "bottom": round(max(0.0, placed[3] - h), 2),
            }
    share = inside / total if total > 0 else 1.0
    if share > 0:
        return Shown(share, beyond, None, paper)
    b = boxes[0]
    w, h = page_size(doc, b.page)
    return Shown(
        0.0, beyond,
        f"{node.id} is placed outside its {paper} (box x {b.x0:g}..{b.x1:g}, y {b.top:g}..{b.bottom:g} pt; "
        f"the {paper} is {w:g} x {h:g} pt): no {paper} shows it",
        paper,
    )
