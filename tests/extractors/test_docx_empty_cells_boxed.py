"""Empty cells of a bordered .docx table are boxed by their drawn borders. A python-docx
"Table Grid" table with a blank cell (a form's signature cell, a gap in a schedule) drew
that cell's four borders, but the cell had no box ("empty cell: boxes come from rendered
content"): "the empty cells are as wide as the others" was an error. The truth is the
render: vertical rules are drawn at the empty cell's left and right edges."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf


@pytest.fixture(scope="module")
def form(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """2 x 3, Table Grid: row 0 "Name", (blank), "Date"; row 1 "Signature" over two
    merged columns, then (blank)."""
    d = docx.Document()
    table = d.add_table(rows=2, cols=3)
    table.style = "Table Grid"
    table.cell(0, 0).text = "Name"
    table.cell(0, 2).text = "Date"
    table.cell(1, 0).merge(table.cell(1, 1)).text = "Signature"
    path = tmp_path_factory.mktemp("form") / "form.docx"
    d.save(str(path))
    return path


def test_the_blank_cells_are_boxed_between_their_borders(form: Path) -> None:
    doc = load(form)
    blanks = [c for c in doc.select("cell") if not c.text.strip()]
    assert len(blanks) == 2 and all(c.boxes for c in blanks), [c.attrs for c in blanks]
    assert all("not_rendered_reason" not in c.attrs for c in blanks)
    same = run_check("same_size", doc, {"target": "table row:first-child cell", "dimension": "width"})
    assert same.status == "pass", same.explanation


@pytest.mark.slow
def test_the_render_draws_rules_at_the_blank_cells_edges(form: Path) -> None:
    doc = load(form)
    rules = read_layout(render_pdf(form).pdf_path, rules=True).rules
    verticals = [r for r in rules if not r.horizontal]
    for cell in (c for c in doc.select("cell") if not c.text.strip()):
        b = cell.box
        for x in (b.x0, b.x1):  # a vertical rule on each edge, spanning the cell's band
            assert any(abs((r.x0 + r.x1) / 2 - x) < 1.0 and r.top <= b.top + 1 and r.bottom >= b.bottom - 1 for r in verticals), (
                cell.id, x, [(round(r.x0, 1), round(r.top, 1), round(r.bottom, 1)) for r in verticals]
            )
