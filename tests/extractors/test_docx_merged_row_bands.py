"""A bordered .docx table with a cell merged down its first column (python-docx
``a.merge(b)``): each row is boxed by the band between its drawn rules, as wide as the
table. Before, the first row took the merged cell's box (as tall as the table) and the
rows below it started right of the merged column, so "the rows are the same height"
failed on a table of three 13 pt rows. The truth is the page image: the horizontal rules
LibreOffice draws across the unmerged columns."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import docx
import numpy as np
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import page_image, render_pdf

pytestmark = pytest.mark.slow

DPI = 144


def _document(path: Path) -> Path:
    d = docx.Document()
    d.add_paragraph("Grouped rows")
    table = d.add_table(rows=3, cols=3, style="Table Grid")
    for r in range(3):
        for c in (1, 2):
            table.cell(r, c).text = f"r{r}c{c}"
    group = table.cell(0, 0).merge(table.cell(2, 0))
    group.text = "Group"
    d.save(str(path))
    return path


def test_rows_beside_a_vertical_merge_are_boxed_by_their_rules(tmp_path: Path) -> None:
    path = _document(tmp_path / "merged.docx")
    doc = load(path)
    table = doc.select_one("table")
    assert table.attrs["box_from"] == "borders" and table.box is not None
    merged = doc.select("table cell")[0]
    assert merged.attrs["row_span"] == 3 and merged.box is not None
    gray = np.asarray(page_image(render_pdf(path).pdf_path, 0, dpi=DPI).convert("L"))
    k = DPI / 72.0
    # pixel rows dark across the two unmerged columns: the 4 rules bounding the 3 rows
    x0, x1 = int((merged.box.x1 + 2) * k), int((table.box.x1 - 2) * k)
    across = (gray[:, x0:x1] < 200).sum(axis=1) >= (x1 - x0) - 2
    hits = np.flatnonzero(across)
    groups = np.split(hits, np.flatnonzero(np.diff(hits) > 1) + 1)
    rules = [float(g.mean() + 0.5) / k for g in groups]
    assert len(rules) == 4, rules
    rows = doc.select("table row")
    for row, (top, bottom) in zip(rows, pairwise(rules), strict=True):
        assert row.box is not None
        assert row.box.top == pytest.approx(top, abs=1.0) and row.box.bottom == pytest.approx(bottom, abs=1.0), (row.id, row.box, rules)
        assert row.box.x0 == pytest.approx(table.box.x0, abs=0.01) and row.box.x1 == pytest.approx(table.box.x1, abs=0.01)
    # the merged cell itself keeps the whole band
    assert merged.box.top == pytest.approx(rules[0], abs=1.0) and merged.box.bottom == pytest.approx(rules[-1], abs=1.0)
    same = run_check("same_size", doc, {"target": "table row", "dimension": "height", "tolerance_pt": 1})
    assert same.status == "pass", same.explanation
    stacked = run_check("stacked", doc, {"target": "table row"})
    assert stacked.status == "pass", stacked.explanation
