"""A bordered .docx table's cells, rows and table boxed where their borders are drawn.

Layout boxes of containers are unions of their text (design/docx-tree.md), so a table
of three 144 pt columns holding short words was 308 pt wide and off-centre, and its cells
were as wide as their words: "is the table centred?" and "are the cells the same size?"
were judged on text, not on the table a reader sees. LibreOffice draws cell borders as
thin path objects (``PdfLayout.rules``). A cell whose text is enclosed by a drawn rule on
each side - the nearest one left, right, above and below its text - is boxed by those
rules' centre lines (where Word puts cell edges), its row and table by the union.

All or nothing per table and page: every boxed cell of the table on that page must be
enclosed, and no two cells by the same rectangle (the cells of a borderless table nested
in a bordered cell would all find the outer cell's borders). Otherwise the table keeps
its text boxes there; ``box_from`` says which a table got. Empty cells have no text to
start from and stay unboxed.
"""

from __future__ import annotations

from collections import defaultdict

from ...model import Box, Node
from ...model.geometry import union_all
from ..render.layout import PdfRule

_TOLERANCE_PT = 1.0


class PageRules:
    """One page's rules split into horizontal and vertical ones (centre lines)."""

    def __init__(self, rules: list[PdfRule]) -> None:
        # (centre, from, to): y and x-span for horizontals, x and y-span for verticals
        self.horizontal: list[tuple[float, float, float]] = []
        self.vertical: list[tuple[float, float, float]] = []
        for r in rules:
            if r.horizontal:
                self.horizontal.append(((r.top + r.bottom) / 2, r.x0, r.x1))
            else:
                self.vertical.append(((r.x0 + r.x1) / 2, r.top, r.bottom))

    def enclosure(self, text: Box) -> Box | None:
        """The rectangle of the nearest rules around ``text`` on all four sides, or None."""
        t = _TOLERANCE_PT
        across = [v for v in self.vertical if v[1] <= text.top + t and v[2] >= text.bottom - t]
        left = max((v[0] for v in across if v[0] <= text.x0 + t / 2), default=None)
        right = min((v[0] for v in across if v[0] >= text.x1 - t / 2), default=None)
        along = [h for h in self.horizontal if h[1] <= text.x0 + t and h[2] >= text.x1 - t]
        top = max((h[0] for h in along if h[0] <= text.top + t / 2), default=None)
        bottom = min((h[0] for h in along if h[0] >= text.bottom - t / 2), default=None)
        if left is None or right is None or top is None or bottom is None or right <= left or bottom <= top:
            return None
        return Box(page=text.page, x0=left, top=top, x1=right, bottom=bottom, origin="layout")


def box_table_by_borders(table: Node, rules: dict[int, PageRules]) -> None:
    """Re-box ``table`` (cells, rows, table) by its drawn borders on the pages where they
    enclose every cell; elsewhere the table's text boxes stay. ``box_from`` says which."""
    rows = [r for r in table.children if r.kind == "row"]
    cells = [c for r in rows for c in r.children if c.kind == "cell"]
    found: dict[int, dict[str, Box]] = defaultdict(dict)  # page -> cell id -> enclosure
    refused: set[int] = set()
    for cell in cells:
        for box in cell.boxes:
            page_rules = rules.get(box.page)
            enclosed = page_rules.enclosure(box) if page_rules is not None else None
            if enclosed is None:
                refused.add(box.page)
            else:
                found[box.page][cell.id] = enclosed
    accepted = {p for p, by_cell in found.items() if p not in refused and _distinct(list(by_cell.values()))}
    pages = {b.page for c in cells for b in c.boxes}
    if not accepted:
        table.attrs["box_from"] = "text"
        return
    for cell in cells:
        cell.boxes = [found[b.page][cell.id] if b.page in accepted else b for b in cell.boxes]
    for row in rows:
        row.boxes = union_all([b for c in row.children if c.kind == "cell" for b in c.boxes]) or row.boxes
    table.boxes = union_all([b for r in rows for b in r.boxes]) or table.boxes
    table.attrs["box_from"] = "borders" if accepted == pages else "borders_on_some_pages"


def _distinct(boxes: list[Box]) -> bool:
    """No two rectangles overlap by more than the tolerance both ways."""
    t = _TOLERANCE_PT
    ordered = sorted(boxes, key=lambda b: (b.top, b.x0))
    for i, a in enumerate(ordered):
        for b in ordered[i + 1 :]:
            if b.top >= a.bottom - t:
                break
            if min(a.x1, b.x1) - max(a.x0, b.x0) > t and min(a.bottom, b.bottom) - max(a.top, b.top) > t:
                return False
    return True
