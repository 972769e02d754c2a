"""Text in columns an agent sized (``column_dimensions[...].width = len + 2``, the usual
loop) and in wrapped rows it gave a height. LibreOffice draws an explicit width as that
many of its digit widths (Calibri 11: 5.55 pt, ~6% wider than Excel's whole pixels) and
wrapped lines 11.1 pt apart (Carlito's hhea metrics, not GDI's 13.4): labels the tree
called cut off are drawn whole. The truth is the render: a label is whole when it ends
before its neighbour's text, and a wrapped cell's lines are measured where they are
drawn."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Alignment, Font
from openpyxl.utils import get_column_letter

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow

# (label, column width, bold): lengths around the width either rule gives
LABELS = [
    ("Christopher Wellington", 20, False),
    ("Customer Satisfaction", 19, False),
    ("Annual Salary (USD)", 21, True),
    ("Quarterly", 8, False),
    ("Department Name", 16, True),
    ("Total Revenue", 12, False),
    ("Performance review notes", 15, False),
    ("Regional Manager", 12, True),
]
TEXT_MARGIN_PT = 0.99
INDENTED = ["Product", "Salaries", "Marketing", "Tax", "Rent"]
COMMENT = "Great product overall, the delivery was late but support handled it"
LONGER = COMMENT + " clearly and kindly"  # a fourth line: below the row's bottom


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    for i, (label, width, bold) in enumerate(LABELS):
        col = 2 * i + 1
        ws.column_dimensions[get_column_letter(col)].width = width
        ws.cell(1, col, label).font = Font(bold=bold)
        ws.cell(1, col + 1, "x")
    ws.column_dimensions["A"].width = 20
    cell = ws.cell(3, 1, COMMENT)
    cell.alignment = Alignment(wrap_text=True, vertical="top")
    ws.row_dimensions[3].height = 36
    ws.cell(4, 1, "below")
    for row, label in enumerate(INDENTED, start=6):  # a P&L's sub-items, two levels in
        ws.cell(row, 17, label).alignment = Alignment(horizontal="left", indent=2)
        ws.cell(row, 18, "x")
        ws.cell(row, 20, label)  # the same label, not indented: default-width columns both
        ws.cell(row, 21, "x")
    ws.cell(3, 3, LONGER).alignment = Alignment(wrap_text=True, vertical="top")
    ws.column_dimensions["C"].width = 20
    path = tmp_path_factory.mktemp("widths") / "widths.xlsx"
    wb.save(path)
    return path


def _whole_in_render(path: Path, labels: list[str]) -> dict[str, bool]:
    """Label -> drawn whole: all its characters, the last one ending before the
    neighbour's cell, which starts one text margin before its "x". (The print spreads
    the columns over pages; each line of each page is read.)"""
    chars = read_layout(render_pdf(path).pdf_path).chars
    lines: dict[tuple[int, int], list] = {}
    for c in chars:
        if c.char.strip():
            lines.setdefault((c.page, round(c.bottom)), []).append(c)
    out: dict[str, bool] = {}
    for label in labels:
        packed = label.replace(" ", "")
        out[label] = False
        for _key, line in sorted(lines.items()):  # the first occurrence: the leftmost
            line.sort(key=lambda c: c.x0)
            text = "".join(c.char for c in line)
            at = text.find(packed[:3])  # where it starts: a cut label is not all there
            if at < 0:
                continue
            if text[at : at + len(packed)] != packed or at + len(packed) >= len(line):
                break
            last, neighbour = line[at + len(packed) - 1], line[at + len(packed)]
            # the neighbour's cell starts one text margin before its "x" (the print's
            # first column starts at the 54 pt page margin and its text at 54.99)
            out[label] = neighbour.char == "x" and last.x1 <= neighbour.x0 - TEXT_MARGIN_PT + 0.1
            break
    return out


def test_labels_in_sized_columns_fit_as_drawn(book: Path) -> None:
    whole = _whole_in_render(book, [label for label, _w, _b in LABELS])
    assert 3 <= sum(whole.values()) < len(whole), whole  # both kinds are here
    doc = load(book)
    for label, drawn_whole in whole.items():
        verdict = run_check("text_fits", doc, {"target": {"selector": "cell", "text": label, "match": "equals"}})
        assert verdict.status == ("pass" if drawn_whole else "fail"), (label, verdict.explanation)


def test_wrapped_lines_are_as_tall_as_drawn(book: Path) -> None:
    layout = read_layout(render_pdf(book).pdf_path)
    words = [w for w in layout.words if w.page == 0]
    below = next(w for w in words if w.text == "below")
    doc = load(book)
    for text, col_x1 in ((COMMENT, 160.0), (LONGER, None)):
        cell = next(c for c in doc.select("cell") if c.text == text)
        x0 = cell.boxes[0].x0 - doc.select("cell")[0].boxes[0].x0 + 54.0  # the print's left margin
        drawn = [w for w in words if w.text in set(text.split()) and x0 - 1 <= w.x0 < x0 + 115 and w.top > 90]
        tops = sorted({round(w.top, 1) for w in drawn})
        pitch = (tops[-1] - tops[0]) / (len(tops) - 1)
        assert cell.attrs["lines"] == len(tops), (text, cell.attrs, tops)
        assert abs(cell.attrs["text_height_pt"] / cell.attrs["lines"] - pitch) < 0.3, (cell.attrs, pitch)
        # the row holds its lines when the last is drawn above the next row's text
        held = max(w.bottom for w in drawn) <= below.top
        verdict = run_check("text_fits", doc, {"target": {"selector": "cell", "text": text, "match": "equals"}})
        assert verdict.status == ("pass" if held else "fail"), (text, held, verdict.explanation)
        assert held == (col_x1 is not None)  # the case is the one meant


def test_indented_labels_fit_as_drawn(book: Path) -> None:
    """An indent level moves the text 7.5 pt in: "Marketing" fits a default column, and
    no longer fits it two levels in."""
    whole = _whole_in_render(book, INDENTED)
    assert 1 <= sum(whole.values()) < len(whole), whole
    doc = load(book)
    for label, drawn_whole in whole.items():
        cells = [c for c in doc.select("cell") if c.text == label]
        indented = next(c for c in cells if c.attrs["col"] == 17)
        plain = next(c for c in cells if c.attrs["col"] == 20)
        verdict = run_check("text_fits", doc, {"target": f"cell[ref='{indented.attrs['ref']}']"})
        assert verdict.status == ("pass" if drawn_whole else "fail"), (label, verdict.explanation)
        assert plain.attrs["overflow"] == "fits", plain.attrs  # the indent is what cuts it
