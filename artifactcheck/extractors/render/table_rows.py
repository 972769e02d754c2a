"""Slide table rows sized from the render: a row stored as ``h="0"`` has no other size,
and a row whose text no longer fits is drawn taller than the file says.

Each row ends where the next row's first drawn line says it does: that line sits a fixed
distance below its row's top, measured on the first row (whose top is the table's). For
the last row (and rows whose next row has no top-anchored text in the same size) the
row is as tall as the file says or as its tallest cell's text plus the cell's top and
bottom insets, whichever is more; a cell's text is ``n`` lines at the pitch LibreOffice
put between them (measured in the cell; for a one-line cell, the pitch per point of font
size measured elsewhere in the table, else the line's band). Reading the render beats a
formula: LibreOffice drew the same python-pptx table's ``h="0"`` row 61.6 pt tall, or
72.1 pt when a text box preceded the table on the slide, with its text in the same
place (tests/extractors/test_pptx_layout.py compares every row with the rendered pixels).
A boundary within 0.5 pt of the file's height keeps the file's value.

Runs after :func:`~artifactcheck.extractors.render.slides.attach_slide_text` (it reads the
paragraphs' ``line_boxes``). Rows, cells and the table then get ``layout`` boxes laid
out again from the table's top (rows also ``height_pt``); the file's frame stays in
``attrs["frame_box"]``; a cell's ``text_overflows`` is judged again against its new box.
Rotated tables (polygons) are left alone. Points, top-left origin.
"""

from __future__ import annotations

from itertools import pairwise

from ...model import Box, Document, Node
from .slides import box_attr, text_outside

DEFAULT_TOP_BOTTOM_INSET_PT = 3.6  # a:tcPr marT/marB default, 45720 EMU
_CHANGED_PT = 0.5


def fit_table_rows(doc: Document) -> int:
    """Re-lay out every table whose rows grew; returns how many tables changed."""
    changed = 0
    for table in doc.iter("table"):
        if _fit(table):
            changed += 1
    return changed


def _lines(cell: Node) -> list[tuple[float, float, float]]:
    """(top, bottom, font size) of every drawn line of the cell's text, top to bottom."""
    out: list[tuple[float, float, float]] = []
    for para in cell.children:
        if para.kind != "paragraph" or not para.boxes or para.boxes[0].origin != "layout":
            continue
        sizes = [r.style.size for r in para.children if r.kind == "run" and r.style is not None and r.style.size]
        size = max(sizes) if sizes else 0.0
        lines = para.attrs.get("line_boxes")
        for line in lines if isinstance(lines, list) else []:
            if isinstance(line, dict):
                out.append((float(line["top"]), float(line["bottom"]), size))  # type: ignore[arg-type]
    return sorted(out)


def _pitch_per_pt(cells: list[Node]) -> float | None:
    """Line pitch / font size in the table's multi-line cells (None without any)."""
    ratios = []
    for cell in cells:
        lines = _lines(cell)
        if len(lines) >= 2 and lines[0][2] > 0:
            ratios.append((lines[-1][0] - lines[0][0]) / (len(lines) - 1) / lines[0][2])
    return sorted(ratios)[len(ratios) // 2] if ratios else None


def _text_height(cell: Node, pitch_per_pt: float | None) -> float | None:
    lines = _lines(cell)
    if not lines:
        return None
    if len(lines) >= 2:
        return (lines[-1][0] - lines[0][0]) / (len(lines) - 1) * len(lines)
    top, bottom, size = lines[0]
    return pitch_per_pt * size if pitch_per_pt is not None and size > 0 else bottom - top


def _insets(cell: Node) -> tuple[float, float]:
    got = cell.attrs.get("insets_pt")
    if isinstance(got, list) and len(got) == 4 and all(isinstance(v, (int, float)) for v in got):
        return float(got[1]), float(got[3])  # type: ignore[arg-type]
    return DEFAULT_TOP_BOTTOM_INSET_PT, DEFAULT_TOP_BOTTOM_INSET_PT


def _first_line(row: Node) -> tuple[float, float, float] | None:
    """(top of the first drawn line, the cell's top inset, font size) of the row's
    top-anchored cells that start in it, the highest; None without one."""
    best: tuple[float, float, float] | None = None
    for cell in row.children:
        if cell.kind != "cell" or cell.attrs.get("merged_into"):
            continue
        if cell.style is not None and cell.style.valign not in (None, "top"):
            continue
        lines = _lines(cell)
        if lines and (best is None or lines[0][0] < best[0]):
            best = (lines[0][0], _insets(cell)[0], lines[0][2])
    return best


def _fit(table: Node) -> bool:
    rows = [r for r in table.children if r.kind == "row"]
    if not rows or any(not r.boxes or r.boxes[0].polygon is not None for r in rows):
        return False
    heights = [r.boxes[0].height for r in rows]
    needed = list(heights)
    pitch = _pitch_per_pt([c for r in rows for c in r.children if c.kind == "cell"])
    for i, row in enumerate(rows):
        for cell in row.children:
            if cell.kind != "cell" or cell.attrs.get("merged_into") or int(cell.attrs.get("row_span", 1) or 1) > 1:  # type: ignore[arg-type]
                continue
            text = _text_height(cell, pitch)
            if text is None:
                continue
            top, bottom = _insets(cell)
            needed[i] = max(needed[i], text + top + bottom)
    # Where a row ends is best read from the render: the next row's first line is drawn
    # a fixed distance below the row's top (measured on the first row, whose top is the
    # table's). LibreOffice sometimes makes a row taller than its text needs (10.5 pt
    # more for the same table when a text box precedes it on the slide), which no
    # formula of the file's values reproduces; the last row has no next row to read.
    table_top = rows[0].boxes[0].top
    first = _first_line(rows[0])
    band = first[0] - first[1] - table_top if first is not None else None
    tops = [table_top]
    for i in range(len(rows)):
        top = tops[-1]
        bottom = top + needed[i]
        nxt = _first_line(rows[i + 1]) if i + 1 < len(rows) and band is not None else None
        if nxt is not None and band is not None and first is not None and abs(nxt[2] - first[2]) < 0.5:
            measured = nxt[0] - nxt[1] - band
            if measured > top:
                bottom = measured
        if abs(bottom - (top + heights[i])) <= _CHANGED_PT:
            bottom = top + heights[i]  # the file's height, as drawn
        tops.append(bottom)
    grown = [b - t for t, b in pairwise(tops)]
    if all(abs(g - h) <= _CHANGED_PT for g, h in zip(grown, heights, strict=True)):
        return False
    page = rows[0].boxes[0].page
    for i, row in enumerate(rows):
        old = row.boxes[0]
        row.boxes = [Box(page=page, x0=old.x0, top=tops[i], x1=old.x1, bottom=tops[i + 1], origin="layout")]
        row.attrs["height_pt"] = round(tops[i + 1] - tops[i], 2)
        for cell in row.children:
            if cell.kind != "cell" or not cell.boxes:
                continue
            span = max(1, int(cell.attrs.get("row_span", 1) or 1))  # type: ignore[arg-type]
            b = cell.boxes[0]
            cell.boxes = [Box(page=page, x0=b.x0, top=tops[i], x1=b.x1, bottom=tops[min(i + span, len(rows))], origin="layout")]
            drawn = cell.attrs.get("drawn_text_box")
            if isinstance(drawn, dict) and "text_overflows" in cell.attrs:
                # judged against the file's row height before; the row is drawn this tall
                cell.attrs["text_overflows"] = text_outside(cell.boxes[0], Box.model_validate({"page": page, **drawn}))
    if table.boxes:
        frame = table.boxes[0]
        table.attrs["frame_box"] = box_attr(frame)
        x0 = min(r.boxes[0].x0 for r in rows)
        x1 = max(r.boxes[0].x1 for r in rows)
        table.boxes = [Box(page=page, x0=x0, top=tops[0], x1=x1, bottom=tops[-1], origin="layout")]
    return True
