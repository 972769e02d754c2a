"""Rich text in a cell, the way agents bold one word with openpyxl
(``TextBlock(InlineFont(b=True), "word")`` writes only ``<b/>``). LibreOffice draws a run
with properties as a whole font of its own: no name is Cambria (Caladea), no size 11 pt,
no colour black, whatever the cell's font; a run without properties keeps the cell's.
The truth is each word's font, size and ink in the render."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.cell.rich_text import CellRichText, TextBlock
from openpyxl.cell.text import InlineFont
from openpyxl.styles import Font

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.model import Box
from tests.extractors.rendered_look import ink, same_color

pytestmark = pytest.mark.slow

WORDS = ("Plainstart", "Boldword", "Redword", "Fullword")


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    cell = ws.cell(1, 1)
    cell.font = Font(name="Arial", size=14, color="0070C0")
    cell.value = CellRichText(
        "Plainstart ",
        TextBlock(InlineFont(b=True), "Boldword"),
        " ",
        TextBlock(InlineFont(color="FF0000"), "Redword"),
        " ",
        TextBlock(InlineFont(rFont="Arial", sz=14, b=True, color="0070C0"), "Fullword"),
    )
    ws.column_dimensions["A"].width = 80
    path = tmp_path_factory.mktemp("rich") / "rich.xlsx"
    wb.save(str(path))
    return path


def _drawn(pdf: Path) -> dict[str, tuple[str, float, str]]:
    layout = read_layout(pdf)
    text = "".join(c.char for c in layout.chars)
    out = {}
    for word in WORDS:
        chars = layout.chars[text.index(word) : text.index(word) + len(word)]
        box = Box(page=chars[0].page, x0=min(c.x0 for c in chars), top=min(c.top for c in chars),
                  x1=max(c.x1 for c in chars), bottom=max(c.bottom for c in chars))
        out[word] = (chars[0].font, chars[0].size, ink(pdf, box))
    return out


def test_each_run_has_the_font_drawn(book: Path) -> None:
    drawn = _drawn(render_pdf(book).pdf_path)
    family = {"Caladea": "Cambria", "LiberationSans": "Arial"}
    doc = load(book)
    for word in WORDS:
        run = next(r for r in doc.select("run") if r.text.strip() == word)
        font, size, colour = drawn[word]
        assert run.style is not None
        assert family[font.split("-")[0]] == run.style.font, (word, font, run.style.font)
        assert abs(size - (run.style.size or 0)) < 0.1, (word, size, run.style.size)
        assert run.style.color is not None and same_color(colour, run.style.color, tolerance=8), (word, colour, run.style.color)
    bold = run_check("format_is", doc, {"target": {"selector": "run", "text": "Boldword"}, "bold": True, "font": "Cambria", "size": 11})
    assert bold.status == "pass", bold.explanation
    blue = run_check("color_is", doc, {"target": {"selector": "run", "text": "Boldword"}, "expected": "#0070c0"})
    assert blue.status == "fail", blue.explanation  # drawn black, not the cell's blue
