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
from math import isfinite

import numpy as np
import numpy.typing as npt

from ...model import Box, Node
from ...model.geometry import unchecked_box, union_all
from ..render.layout import PdfArea, PdfRule

_TOLERANCE_PT = 1.0
# How far above and below a table's text its own paint reaches: cell padding, a header
# row's fill, the rule above the first row.
_PAINT_REACH_PT = 12.0

_GRID_SLACK_PT = 6.0  # a painted frame this much (or 10%) off the table's grid width is not its own
Rect = tuple[float, float, float, float]  # x0, top, x1, bottom


class PageRules:
    """One page's rules split into horizontal and vertical ones (centre lines), and its
    filled areas."""

    def __init__(self, rules: list[PdfRule], areas: list[PdfArea] | None = None) -> None:
        # (centre, from, to): y and x-span for horizontals, x and y-span for verticals
        self.horizontal: list[tuple[float, float, float]] = []
        self.vertical: list[tuple[float, float, float]] = []
        # what a table's paint covers: horizontal rules as their centre line, ends taken
        # in by half their thickness (the line cap), and filled areas
        self.paint: list[Rect] = [(a.x0, a.top, a.x1, a.bottom) for a in areas or []]
        for r in rules:
            if r.horizontal:
                centre, half = (r.top + r.bottom) / 2, (r.bottom - r.top) / 2
                self.horizontal.append((centre, r.x0, r.x1))
                self.paint.append((r.x0 + half, centre, r.x1 - half, centre))
            else:
                self.vertical.append(((r.x0 + r.x1) / 2, r.top, r.bottom))

    def painted_frame(self, text: Box) -> Box | None:
        """The extent of the rules and fills drawn across a table's text (``text``: the
        table's text box on this page), or None when they do not span the text: a table
        in a style without side borders (Light Shading: rules above, under the header and
        below) or drawn by its fills (Colorful Grid) is as wide as its paint."""
        reach = _PAINT_REACH_PT
        # wholly inside the text's band: a shape or a picture frame that ends just above
        # the table is not the table's paint
        parts = [
            p
            for p in self.paint
            if p[1] >= text.top - reach and p[3] <= text.bottom + reach and p[2] > text.x0 and p[0] < text.x1
        ]
        if not parts:
            return None
        x0, x1 = min(p[0] for p in parts), max(p[2] for p in parts)
        if x0 > text.x0 + _TOLERANCE_PT or x1 < text.x1 - _TOLERANCE_PT:
            return None
        top, bottom = min(text.top, *(p[1] for p in parts)), max(text.bottom, *(p[3] for p in parts))
        return Box(page=text.page, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")

    def enclosure(self, text: Box) -> Box | None:
        """The rectangle of the nearest rules around ``text`` on all four sides, or None.

        One loop per direction, not a filtered list and four ``max``/``min`` over it:
        every cell of a dense table asks (~9k calls on a 180-page file, ~18 rules a side
        per page). The tests and comparisons are the ones ``max``/``min`` make (a later
        value replaces only when strictly greater/smaller), so the same rule wins."""
        t = _TOLERANCE_PT
        left, right = _nearest_pair(self.vertical, text.top + t, text.bottom - t, text.x0 + t / 2, text.x1 - t / 2)
        if left is None or right is None:
            return None
        top, bottom = _nearest_pair(self.horizontal, text.x0 + t, text.x1 - t, text.top + t / 2, text.bottom - t / 2)
        if top is None or bottom is None or right <= left or bottom <= top:
            return None
        return _rule_box(text.page, left, top, right, bottom)


    def enclosures(self, texts: list[Box]) -> list[Box | None]:
        """``[self.enclosure(t) for t in texts]``, the rule tests made for all of them at
        once (a rule by text matrix per direction): a dense table's cells on one page ask
        together. The same float tests and the same extremes as :meth:`enclosure` (a
        max/min of centres is the same whichever rule holds it), so the same boxes."""
        if not texts:
            return []
        if not self.vertical or not self.horizontal:
            return [None] * len(texts)
        t = _TOLERANCE_PT
        x0 = np.array([b.x0 for b in texts])
        top = np.array([b.top for b in texts])
        x1 = np.array([b.x1 for b in texts])
        bottom = np.array([b.bottom for b in texts])
        lefts, rights = _nearest_pairs(self.vertical, top + t, bottom - t, x0 + t / 2, x1 - t / 2)
        tops, bottoms = _nearest_pairs(self.horizontal, x0 + t, x1 - t, top + t / 2, bottom - t / 2)
        out: list[Box | None] = []
        for text, left, right, up, down in zip(texts, lefts, rights, tops, bottoms, strict=True):
            if left is None or right is None or up is None or down is None or right <= left or down <= up:
                out.append(None)
            else:
                out.append(_rule_box(text.page, left, up, right, down))
        return out


def _nearest_pairs(
    rules: list[tuple[float, float, float]],
    start_by: npt.NDArray[np.float64],
    end_from: npt.NDArray[np.float64],
    low_by: npt.NDArray[np.float64],
    high_from: npt.NDArray[np.float64],
) -> tuple[list[float | None], list[float | None]]:
    """:func:`_nearest_pair` for many bands at once (one per element of the arrays). The
    first of equal extremes wins, as in the loop (``argmax``/``argmin`` give the first):
    the same rule, so even a signed zero is the same."""
    centres = np.array([r[0] for r in rules])
    start = np.array([r[1] for r in rules])[None, :]
    end = np.array([r[2] for r in rules])[None, :]
    spans: npt.NDArray[np.bool_] = (start <= start_by[:, None]) & (end >= end_from[:, None])
    below: npt.NDArray[np.bool_] = spans & (centres[None, :] <= low_by[:, None])
    above: npt.NDArray[np.bool_] = spans & (centres[None, :] >= high_from[:, None])
    low = centres[np.where(below, centres[None, :], -np.inf).argmax(axis=1)].tolist()
    high = centres[np.where(above, centres[None, :], np.inf).argmin(axis=1)].tolist()
    has_low: list[bool] = np.logical_or.reduce(below, axis=1).tolist()  # .any(axis=1), typed
    has_high: list[bool] = np.logical_or.reduce(above, axis=1).tolist()
    return (
        [v if found else None for v, found in zip(low, has_low, strict=True)],
        [v if found else None for v, found in zip(high, has_high, strict=True)],
    )


def _nearest_pair(
    rules: list[tuple[float, float, float]], start_by: float, end_from: float, low_by: float, high_from: float
) -> tuple[float | None, float | None]:
    """Among the rules spanning the band (starting at or before ``start_by``, ending at
    or after ``end_from``): the greatest centre <= ``low_by`` and the smallest centre >=
    ``high_from`` (None where there is none)."""
    low: float | None = None
    high: float | None = None
    for centre, start, end in rules:
        if start <= start_by and end >= end_from:
            if centre <= low_by and (low is None or centre > low):
                low = centre
            if centre >= high_from and (high is None or centre < high):
                high = centre
    return low, high


def _rule_box(page: int, x0: float, top: float, x1: float, bottom: float) -> Box:
    """A cell box between rule centres, without pydantic's validation: the caller checked
    x0 < x1 and top < bottom, ``page`` is a validated Box's, and the centres are float
    means of PDF coordinates, so the Box is the one ``Box(...)`` would build. A
    non-finite centre (never seen) still goes through ``Box``, which refuses it as before."""
    if isfinite(x0) and isfinite(top) and isfinite(x1) and isfinite(bottom):
        return unchecked_box(page, x0, top, x1, bottom, "layout")
    return Box(page=page, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")


def box_table_by_borders(table: Node, rules: dict[int, PageRules]) -> None:
    """Re-box ``table`` (cells, rows, table) by its drawn borders on the pages where they
    enclose every cell; elsewhere the table's text boxes stay. ``box_from`` says which."""
    rows = [r for r in table.children if r.kind == "row"]
    cells = [c for r in rows for c in r.children if c.kind == "cell"]
    found: dict[int, dict[str, Box]] = defaultdict(dict)  # page -> cell id -> enclosure
    refused: set[int] = set()
    pairs = [(cell, box) for cell in cells for box in cell.boxes]
    # Each page's cell boxes asked at once (PageRules.enclosures), then taken in order.
    on_page: dict[int, list[int]] = {}
    for k, (_, box) in enumerate(pairs):
        on_page.setdefault(box.page, []).append(k)
    enclosures: list[Box | None] = [None] * len(pairs)
    for page, ks in on_page.items():
        page_rules = rules.get(page)
        if page_rules is not None:
            for k, enclosed in zip(ks, page_rules.enclosures([pairs[k][1] for k in ks]), strict=True):
                enclosures[k] = enclosed
    for (cell, box), enclosed in zip(pairs, enclosures, strict=True):
        if enclosed is None:
            refused.add(box.page)
        else:
            found[box.page][cell.id] = enclosed
    accepted = {p for p, by_cell in found.items() if p not in refused and _distinct(list(by_cell.values()))}
    pages = {b.page for c in cells for b in c.boxes}
    if not accepted:
        _frame_by_paint(table, rows, rules)
        return
    for cell in cells:
        cell.boxes = [found[b.page][cell.id] if b.page in accepted else b for b in cell.boxes]
    spanning = [c for c in cells if _row_span(c) > 1]
    for row in rows:
        row.boxes = _row_boxes(row, spanning) or row.boxes
    _box_empty_cells(rows, cells, accepted)
    table.boxes = union_all([b for r in rows for b in r.boxes]) or table.boxes
    table.attrs["box_from"] = "borders" if accepted == pages else "borders_on_some_pages"


def _box_empty_cells(rows: list[Node], cells: list[Node], accepted: set[int]) -> None:
    """An empty cell has no text to box, but its borders are drawn: on a page boxed by
    borders it is its row's band between its grid columns' drawn edges (taken from the
    cells that start or end on those edges, or from the neighbouring columns'), so "the
    empty cells are as wide as the others" or "the signature cell is in the lower right"
    can be judged; it was boxless, and a check on it an error. Cells whose edges no boxed
    cell shares stay unboxed."""
    lefts: dict[tuple[int, int], float] = {}  # (page, grid column) -> drawn left edge
    rights: dict[tuple[int, int], float] = {}  # (page, last grid column) -> drawn right edge
    for cell in cells:
        col, span = cell.attrs.get("col"), cell.attrs.get("col_span", 1)
        if not isinstance(col, int) or not isinstance(span, int):
            continue
        for b in cell.boxes:
            if b.page in accepted:
                lefts.setdefault((b.page, col), b.x0)
                rights.setdefault((b.page, col + span - 1), b.x1)
    for row in rows:
        for cell in row.children:
            col, span = cell.attrs.get("col"), cell.attrs.get("col_span", 1)
            if cell.kind != "cell" or cell.boxes or cell.text.strip() or not isinstance(col, int) or not isinstance(span, int):
                continue
            boxes = []
            for band in row.boxes:
                # a column's left edge is the previous column's right edge, and the other way round
                x0 = lefts.get((band.page, col), rights.get((band.page, col - 1)))
                x1 = rights.get((band.page, col + span - 1), lefts.get((band.page, col + span)))
                if band.page in accepted and x0 is not None and x1 is not None and x0 < x1:
                    boxes.append(band.model_copy(update={"x0": x0, "x1": x1}))
            if boxes:
                cell.boxes = boxes
                cell.attrs.pop("rendered", None)
                cell.attrs.pop("not_rendered_reason", None)


def _row_span(cell: Node) -> int:
    span = cell.attrs.get("row_span")
    return span if isinstance(span, int) else 1


def _row_boxes(row: Node, spanning: list[Node]) -> list[Box]:
    """A row's band per page: the height of its own one-row cells (a cell merged down
    through the next rows is the origin row's child, and its box would make that row as
    tall as the merge), the width of its cells and of the merged cells from above that
    cover the band (their column is part of the row a reader sees)."""
    own = [c for c in row.children if c.kind == "cell"]
    out: list[Box] = []
    for page in sorted({b.page for c in own for b in c.boxes}):
        boxes = [b for c in own for b in c.boxes if b.page == page]
        single = [b for c in own if _row_span(c) == 1 for b in c.boxes if b.page == page]
        if not single:
            out.extend(union_all(boxes))
            continue
        top, bottom = min(b.top for b in single), max(b.bottom for b in single)
        t = _TOLERANCE_PT
        covering = [b for c in spanning for b in c.boxes if b.page == page and b.top <= top + t and b.bottom >= bottom - t]
        span = boxes + covering
        out.append(single[0].model_copy(update={"x0": min(b.x0 for b in span), "top": top, "x1": max(b.x1 for b in span), "bottom": bottom}))
    return out


def _frame_by_paint(table: Node, rows: list[Node], rules: dict[int, PageRules]) -> None:
    """Box a table whose borders do not enclose its cells by the rules and fills drawn
    across it, on every page or not at all; its rows get the frame's width, its cells keep
    their text boxes (no drawn edge between them). A nested table stays with its text:
    the paint around it is its outer cell's."""
    table.attrs["box_from"] = "text"
    if any(a.kind == "cell" for a in table.ancestors()):
        return
    widths = table.attrs.get("column_widths")
    grid = sum(w for w in widths if isinstance(w, (int, float))) if isinstance(widths, list) else None
    frames: list[Box] = []
    for box in table.boxes:
        page_rules = rules.get(box.page)
        frame = page_rules.painted_frame(box) if page_rules is not None else None
        # the paint of something else in the band (a neighbouring table, a shape) gives
        # a frame as wide as that: the table's own grid says how wide it is drawn
        if frame is not None and grid and abs((frame.x1 - frame.x0) - grid) > max(_GRID_SLACK_PT, 0.1 * grid):
            frame = None
        if frame is None:
            return
        frames.append(frame)
    by_page = {f.page: f for f in frames}
    for row in rows:
        row.boxes = [
            b.model_copy(update={"x0": by_page[b.page].x0, "x1": by_page[b.page].x1}) if b.page in by_page else b
            for b in row.boxes
        ]
    table.boxes = frames
    table.attrs["box_from"] = "paint"


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
