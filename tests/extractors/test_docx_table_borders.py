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


# Built-in styles agents pick with python-docx: side borders or not, fills or not, a
# 4.5 pt rule under Light Grid's header.
BUILT_IN_STYLES = [
    "Light Grid Accent 1",
    "Light List Accent 1",
    "Light Shading Accent 1",
    "Medium Shading 1 Accent 1",
    "Medium List 1 Accent 1",
    "Colorful Grid Accent 1",
]


@pytest.mark.parametrize("style", BUILT_IN_STYLES)
def test_a_table_in_a_built_in_style_is_as_wide_as_it_is_drawn(tmp_path: Path, style: str) -> None:
    """A centred 3 x 3 table of short words: the tree's table spans what the page draws
    (its rules and fills), so "is the table centred?" is judged on the table a reader
    sees. Before, six of these styles gave the table its words' width, 61 pt off centre."""
    d = docx.Document()
    d.add_paragraph(style)
    table = d.add_table(rows=3, cols=3)
    table.style = style
    table.alignment = WD_TABLE_ALIGNMENT.CENTER
    for r in range(3):
        table.cell(r, 0).text, table.cell(r, 1).text, table.cell(r, 2).text = f"Item name {r}", f"{r * 10}", "ok"
    path = tmp_path / "styled.docx"
    d.save(str(path))
    doc = load(path)
    node = doc.select_one("table")
    box = node.box
    assert box is not None and box.page == 0
    gray = np.asarray(page_image(render_pdf(path).pdf_path, 0, dpi=DPI).convert("L"))
    k = DPI / 72.0
    band = gray[int((box.top + 1) * k) : int((box.bottom - 1) * k)]
    painted = np.flatnonzero((band < 245).any(axis=0))  # any ink or fill in the table's band
    drawn_x0, drawn_x1 = painted[0] / k, (painted[-1] + 1) / k
    assert abs(box.x0 - drawn_x0) < 1.5 and abs(box.x1 - drawn_x1) < 1.5, (node.attrs["box_from"], box, drawn_x0, drawn_x1)
    assert all(abs(r.box.x0 - box.x0) < 0.01 and abs(r.box.x1 - box.x1) < 0.01 for r in node.children if r.box)
    verdict = run_check("centered_on_page", doc, {"target": "table"})
    assert verdict.status == "pass", verdict.explanation
