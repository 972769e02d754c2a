"""A cell font without a name: openpyxl writes ``<font><b val="1"/></font>`` for
``Font(bold=True)``, the way agents bold a header. LibreOffice draws such a font as
Cambria 11 pt (its metric twin Caladea), whatever the workbook's default font; the tree
must say so ("is the header bold Calibri?" is answered by what is drawn). Read off the
fonts of the render's characters."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Font

from artifactcheck import load, run_check
from artifactcheck.extractors.fonts.metrics import resolve_font
from artifactcheck.extractors.render import read_layout, render_pdf


@pytest.mark.slow
@pytest.mark.parametrize("default_font", [None, "Arial"])
def test_a_nameless_font_is_the_face_the_render_draws(tmp_path: Path, default_font: str | None) -> None:
    wb = openpyxl.Workbook()
    if default_font:
        wb._fonts[0] = Font(name=default_font, size=10)  # the workbook's default font
    ws = wb.active
    assert ws is not None
    ws["A1"] = "Region"
    ws["A1"].font = Font(bold=True)
    ws["A2"] = "North"
    path = tmp_path / "nameless.xlsx"
    wb.save(path)

    layout = read_layout(render_pdf(path).pdf_path, images=False)
    drawn = {w.text: layout.chars[w.start] for w in layout.words}
    header = drawn["Region"]
    assert header.font.startswith("Caladea") and "bold" in header.font.lower() and round(header.size) == 11

    doc = load(path)
    cell = doc.get("Sheet!A1")
    assert cell is not None and cell.style is not None
    assert (cell.style.font, cell.style.size, cell.style.bold) == ("Cambria", 11.0, True)
    assert resolve_font(cell.style.font).family.startswith("Caladea")  # the face that is drawn
    assert run_check("format_is", doc, {"target": "cell[ref='A1']", "font": "Calibri"}).status == "fail"
    assert run_check("format_is", doc, {"target": "cell[ref='A1']", "font": "Cambria", "bold": True}).status == "pass"
    body = doc.get("Sheet!A2")
    assert body is not None and body.style is not None and body.style.font == (default_font or "Calibri")
