"""What does a reader mean by "the row is highlighted"? Measure the per-row rule of
``rows_grouped_at_top`` (``cells: all | majority | any``) against the LibreOffice render
(issue 11; numbers in design/checks-tables.md).

One openpyxl workbook, one sheet per way an agent highlights rows (header Title / Authors
/ Year / Status / Notes, eight data rows, rows 2-4 marked): every cell of the table row,
the texted cells only, every cell plus cells beyond the table, the first cell only, all
but one column, two of five columns, a row style (``row_dimensions[r].fill``), and a
conditional format (``$D2="Read"``). A helper column (G, numbers) sits beyond an empty
column on every sheet.

Truth: the workbook is rendered to PDF by LibreOffice and rasterised; a row is
highlighted when at least half of the table's width in that row's band is coloured
(not white, not glyph ink), which is what a reader sees. Each rule's marked rows are then
compared with the truth, row by row.

Run: ``.venv/bin/python bench/highlighted_rows.py`` (about 20 s: one LibreOffice render).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import artifactcheck
from artifactcheck.checks.registry import run_check
from artifactcheck.extractors.render import page_image, read_layout, render_pdf

HEADER = ["Title", "Authors", "Year", "Status", "Notes"]
ROWS = [
    ["Attention Is All You Need", "Vaswani", 2017, "Read", "seminal"],
    ["BERT", "Devlin", 2019, "Read", ""],
    ["GPT-3", "Brown", 2020, "Read", "few-shot"],
    ["T5", "Raffel", 2020, "To read", ""],
    ["ResNet", "He", 2016, "To read", "vision"],
    ["Adam", "Kingma", 2015, "To read", ""],
    ["Dropout", "Srivastava", 2014, "To read", "regularise"],
    ["LayerNorm", "Ba", 2016, "To read", ""],
]
MARKED = {2, 3, 4}  # sheet rows an agent was asked to highlight
YELLOW = "FFF2CC"
DPI = 100


def build(path: Path) -> list[str]:
    from openpyxl import Workbook
    from openpyxl.formatting.rule import FormulaRule
    from openpyxl.styles import PatternFill

    fill = PatternFill("solid", fgColor=YELLOW)
    ways = {
        "every table cell": lambda ws, r: [setattr(ws.cell(r, c), "fill", fill) for c in range(1, 6)],
        "texted cells only": lambda ws, r: [setattr(ws.cell(r, c), "fill", fill) for c in range(1, 6) if ws.cell(r, c).value not in (None, "")],
        "cells beyond the table too": lambda ws, r: [setattr(ws.cell(r, c), "fill", fill) for c in range(1, 11)],
        "first cell only": lambda ws, r: setattr(ws.cell(r, 1), "fill", fill),
        "all but the Status column": lambda ws, r: [setattr(ws.cell(r, c), "fill", fill) for c in (1, 2, 3, 5)],
        "two of five columns": lambda ws, r: [setattr(ws.cell(r, c), "fill", fill) for c in (1, 2)],
        "row style": lambda ws, r: setattr(ws.row_dimensions[r], "fill", fill),
    }
    wb = Workbook()
    names = []
    for k, (name, mark) in enumerate([*ways.items(), ("conditional format", None)]):
        ws = wb.active if k == 0 else wb.create_sheet()
        ws.title = f"W{k}"
        names.append(name)
        ws.append(HEADER)
        for i, row in enumerate(ROWS):
            ws.append(row)
            ws.cell(i + 2, 7, value=i * 10 + 1)  # helper column G beyond the empty column F
        ws.cell(1, 7, value=99)
        for r in range(2, 10):
            if r in MARKED and mark is not None:
                mark(ws, r)
        if mark is None:
            for r in range(2, 10):
                ws.cell(r, 4).value = "Read" if r in MARKED else "To read"
            ws.conditional_formatting.add("A2:E9", FormulaRule(formula=['$D2="Read"'], fill=fill))
        ws.column_dimensions["A"].width = 28
    wb.save(str(path))
    return names


def truth(path: Path, sheets: int) -> list[dict[int, float]]:
    """Per sheet: {row: coloured share of the table's width in that row's band}."""
    pdf = render_pdf(path).pdf_path
    layout = read_layout(pdf)
    words = layout.words
    out: list[dict[int, float]] = []
    for page in range(sheets):
        on = [w for w in words if w.page == page]
        img = np.asarray(page_image(pdf, page, dpi=DPI).convert("RGB"), dtype=np.int16)
        scale = DPI / 72
        title = next(w for w in on if w.text == "Title")
        notes = next(w for w in on if w.text == "Notes")
        x0, x1 = int(title.x0 * scale), int((notes.x1 + 30) * scale)
        shares: dict[int, float] = {}
        for r, row in enumerate(ROWS, start=2):
            first = str(row[0]).split()[0]
            w = next(w for w in on if w.text == first and w.top > title.bottom)
            y = int(((w.top + w.bottom) / 2) * scale)
            band = img[y - 2 : y + 3, x0:x1]
            r_, g_, b_ = band[..., 0], band[..., 1], band[..., 2]
            # yellow-ish fill: clearly less blue than red/green, and not dark glyph ink
            coloured = (r_ - b_ > 25) & (g_ - b_ > 15) & (r_ > 150)
            shares[r] = float(coloured.any(axis=0).mean())
        out.append(shares)
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "rows.xlsx"
        names = build(path)
        seen = truth(path, len(names))
        doc = artifactcheck.load(path)
        wrong = dict.fromkeys(("all", "majority", "any"), 0)
        total = 0
        print(f"{'way of highlighting':30} {'rendered share (rows 2-9)':42} {'truth':>9}  all  majority  any")
        for k, name in enumerate(names):
            shares = seen[k]
            true_rows = sorted(r for r, s in shares.items() if s >= 0.5)
            cells = []
            for rule in ("all", "majority", "any"):
                res = run_check("rows_grouped_at_top", doc, {"scope": f"sheet[name='W{k}']", "property": "filled", "cells": rule})
                got = res.evidence.get("marked_rows", [])
                assert isinstance(got, list)
                errors = len(set(got) ^ set(true_rows))
                wrong[rule] += errors
                cells.append(f"{errors:>3}")
            total += len(shares)
            shown = " ".join(f"{shares[r]:.2f}" for r in sorted(shares))
            print(f"{name:30} {shown:42} {true_rows!s:>9}  {cells[0]}  {cells[1]:>8}  {cells[2]}")
        print(f"rows judged wrongly of {total}: " + ", ".join(f"{rule} {n}" for rule, n in wrong.items()))


if __name__ == "__main__":
    main()
