"""Slide table rows sized from the render: a row is as tall as the file says (``a:tr@h``,
Slides' ``rowHeight``) or as its tallest cell's drawn text plus the cell's top and bottom
insets, whichever is more. That is how LibreOffice and PowerPoint grow a row whose text
no longer fits, and the only size a row stored as ``h="0"`` has.

A cell's text is as tall as its drawn lines: ``n`` lines at the pitch LibreOffice put
between them (measured in the cell; for a one-line cell, the pitch per point of font
size measured elsewhere in the table, else the line's band). The band of a line (ascent
+ line gap + descent of the font) is not its pitch: in a python-pptx table 18 pt text
has 22 pt bands 18.15 pt apart, and three such lines make a 61.6 pt row with the 7.2 pt
of default insets (tests/extractors/test_pptx_layout.py compares rows with the render).

Runs after :func:`~artifactcheck.extractors.render.slides.attach_slide_text` (it reads the
paragraphs' ``line_boxes``). Rows, cells and the table then get ``layout`` boxes laid
out again from the table's top; the file's frame stays in ``attrs["frame_box"]``. Rotated
tables (polygons) are left alone. Points, top-left origin.
"""

from __future__ import annotations

from ...model import Box, Document, Node
from .slides import box_attr

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


def _fit(table: Node) -> bool:
    rows = [r for r in table.children if r.kind == "row"]
    if not rows or any(not r.boxes or r.boxes[0].polygon is not None for r in rows):
        return False
    heights = [r.boxes[0].height for r in rows]
    grown = list(heights)
    pitch = _pitch_per_pt([c for r in rows for c in r.children if c.kind == "cell"])
    for i, row in enumerate(rows):
        for cell in row.children:
            if cell.kind != "cell" or cell.attrs.get("merged_into") or int(cell.attrs.get("row_span", 1) or 1) > 1:  # type: ignore[arg-type]
                continue
            text = _text_height(cell, pitch)
            if text is None:
                continue
            top, bottom = _insets(cell)
            grown[i] = max(grown[i], text + top + bottom)
    if all(abs(g - h) <= _CHANGED_PT for g, h in zip(grown, heights, strict=True)):
        return False
    tops = [rows[0].boxes[0].top]
    for g in grown:
        tops.append(tops[-1] + g)
    page = rows[0].boxes[0].page
    for i, row in enumerate(rows):
        old = row.boxes[0]
        row.boxes = [Box(page=page, x0=old.x0, top=tops[i], x1=old.x1, bottom=tops[i + 1], origin="layout")]
        row.attrs["height_pt"] = round(grown[i], 2)
        for cell in row.children:
            if cell.kind != "cell" or not cell.boxes:
                continue
            span = max(1, int(cell.attrs.get("row_span", 1) or 1))  # type: ignore[arg-type]
            b = cell.boxes[0]
            cell.boxes = [Box(page=page, x0=b.x0, top=tops[i], x1=b.x1, bottom=tops[min(i + span, len(rows))], origin="layout")]
    if table.boxes:
        frame = table.boxes[0]
        table.attrs["frame_box"] = box_attr(frame)
        x0 = min(r.boxes[0].x0 for r in rows)
        x1 = max(r.boxes[0].x1 for r in rows)
        table.boxes = [Box(page=page, x0=x0, top=tops[0], x1=x1, bottom=tops[-1], origin="layout")]
    return True
