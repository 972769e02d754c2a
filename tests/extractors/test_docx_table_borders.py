"""A bordered .docx table is boxed where its borders are drawn, not where its words are.
Built as agents build it (python-docx, "Table Grid", centred, three 1.5 in columns of
short words); what is true is read off the rendered page: the dark vertical and
horizontal lines of the page image, not our tree."""

from __future__ import annotations

from pathlib import Path

import docx
import numpy as np
import pytest
from docx.enum.table import WD_TABLE_ALIGNMENT
from docx.shared import Inches

from artifactcheck import load, run_check
from artifactcheck.extractors.render import page_image, render_pdf

pytestmark = pytest.mark.slow

DPI = 144


def _document(path: Path) -> Path:
    d = docx.Document()
    d.add_paragraph("Quarterly figures")
    table = d.add_table(rows=2, cols=3, style="Table Grid")
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    for r in range(2):
        for c in range(3):
            table.cell(r, c).text = f"r{r}c{c}"
    for column in table.columns:
        for cell in column.cells:
            cell.width = Inches(1.5)
    d.add_paragraph("A borderless table below keeps the boxes of its text.")
    plain = d.add_table(rows=1, cols=2)
    plain.cell(0, 0).text = "left words"
    plain.cell(0, 1).text = "right words"
    d.save(str(path))
    return path


def _lines(dark: np.ndarray, axis: int, min_run: int) -> list[float]:
    """Positions (points) of pixel rows/columns holding a dark run of ``min_run`` pixels."""
    counts = dark.sum(axis=axis)
    hits = np.flatnonzero(counts >= min_run)
    groups = np.split(hits, np.flatnonzero(np.diff(hits) > 1) + 1) if hits.size else []
    return [float(g.mean() + 0.5) * 72.0 / DPI for g in groups]


def test_bordered_table_boxes_are_its_drawn_borders(tmp_path: Path) -> None:
    path = _document(tmp_path / "tables.docx")
    gray = np.asarray(page_image(render_pdf(path).pdf_path, 0, dpi=DPI).convert("L"))
    dark = gray < 200  # a 0.5 pt border is two grey (127) pixels at this resolution
    doc = load(path)
    bordered, plain = doc.select("table")
    assert bordered.attrs["box_from"] == "borders" and plain.attrs["box_from"] == "text"
    table = bordered.box
    assert table is not None
    # the drawn lines inside the table's band: 4 verticals, 3 horizontals
    top, bottom = int(table.top * DPI / 72) + 2, int(table.bottom * DPI / 72) - 2
    band = dark[top:bottom]
    verticals = _lines(band, axis=0, min_run=bottom - top - 2)
    horizontals = _lines(dark[:, int(table.x0 * DPI / 72) + 2 : int(table.x1 * DPI / 72) - 2], axis=1, min_run=int((table.x1 - table.x0) * DPI / 72) - 8)
    assert len(verticals) == 4 and len(horizontals) == 3, (verticals, horizontals)
    cells = [c for r in bordered.children for c in r.children]
    edges_x = sorted({round(c.box.x0, 1) for c in cells if c.box} | {round(c.box.x1, 1) for c in cells if c.box})
    edges_y = sorted({round(c.box.top, 1) for c in cells if c.box} | {round(c.box.bottom, 1) for c in cells if c.box})
    assert edges_x == pytest.approx(verticals, abs=1.0)
    assert edges_y == pytest.approx(horizontals, abs=1.0)
    # what a benchmark author asks of it
    assert run_check("centered_on_page", doc, {"target": "table:first-of-type", "axis": "horizontal", "tolerance_pt": 3}).status == "pass"
    assert run_check("same_size", doc, {"target": "table:first-of-type cell", "tolerance_pt": 1}).status == "pass"
    # the borderless table's cells are still their text
    for cell in (c for r in plain.children for c in r.children):
        (run,) = cell.descendants("run")
        assert cell.box is not None and run.box is not None and cell.box.x1 == pytest.approx(run.box.x1, abs=0.5)
