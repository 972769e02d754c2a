"""A numbered item's text is boxed where it is drawn, not on its label. An agent writes a
numbered list with python-docx ("List Number"), and some items read like labels: "1",
"2.", "1.1". LibreOffice prints "1.<tab>1": the label is printed text that no run owns.
Left out of the alignment, the label's characters were the first match of the item's
text, and the item was boxed 18 pt left of where it is drawn, on its label. The truth
is the render: where the item's own characters are drawn, after the label."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import load
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import layout_of

pytestmark = pytest.mark.slow

_ITEMS = ["1", "2.", "1.1", "Step two"]


@pytest.fixture(scope="module")
def numbered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_paragraph("Steps to follow, numbered below.")
    for text in _ITEMS:
        d.add_paragraph(text, style="List Number")
    d.add_paragraph("A closing paragraph.")
    path = tmp_path_factory.mktemp("labels") / "numbered.docx"
    d.save(str(path))
    return path


def _drawn_item(pdf: Path, label: str, text: str) -> tuple[float, float]:
    """(x0, x1) of ``text`` where the render draws it after ``label`` on one line."""
    layout = layout_of(pdf)
    lines = layout.text.split("\n")
    start = 0
    for line in lines:
        if line.startswith(label) and line[len(label) :].strip() == text:
            at = start + line.index(text, len(label))
            return float(layout.columns.x0[at]), float(layout.columns.x1[at + len(text) - 1])
        start += len(line) + 1
    raise AssertionError(f"{label} {text!r} not drawn: {lines}")


@pytest.mark.parametrize("n", range(len(_ITEMS)))
def test_an_item_that_reads_like_a_label_is_boxed_on_its_own_text(numbered: Path, n: int) -> None:
    pdf = render_pdf(numbered).pdf_path
    text = _ITEMS[n]
    x0, x1 = _drawn_item(pdf, f"{n + 1}.", text)
    doc = load(numbered)
    item = next(p for p in doc.iter("paragraph") if p.text == text)
    assert item.attrs["list_label"] == f"{n + 1}."
    (box,) = item.boxes
    assert abs(box.x0 - x0) < 0.5 and abs(box.x1 - x1) < 0.5, (box, x0, x1)
    assert doc.root.attrs["layout_text_coverage"] == 1.0
