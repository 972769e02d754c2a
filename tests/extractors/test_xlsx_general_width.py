"""A General-format number too wide for its column is drawn shorter, not as ``###``:
fewer decimals (``0.123456789`` -> ``0.123457``), then scientific (``1234567890`` ->
``1.23E+09``), ``###`` only when not even that fits. The cell's ``text`` must be what is
drawn. Workbooks are written as agents write them (openpyxl, default column widths);
what is true is the text LibreOffice draws, read from the PDF of its render."""

from __future__ import annotations

import random
from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.extractors.xlsx.number_format import general_in_width

FIXED = [
    1234567, 12345678, 123456789, 1234567890, 123456789012, 0.1234567, 0.123456789,
    3.14159265358979, 99999999.5, -1234567, -12345678, -0.000123456789, 0.000123456789,
    1e-10, 123456.7891, 7654321.123, -2.5e-7, 6.02214076e23, 1.5, 42, -99999.99999,
    0.00009999, 1e15, 123456789.123,
]  # fmt: skip


def _values() -> list[float]:
    rng = random.Random(7)
    drawn = [round(rng.uniform(-1, 1) * 10 ** rng.randint(-6, 12), rng.randint(0, 9)) for _ in range(30)]
    return [*FIXED, *drawn]


@pytest.mark.slow
def test_a_general_number_has_the_text_libreoffice_draws_in_its_column(tmp_path: Path) -> None:
    values = _values()
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row, value in enumerate(values, 1):
        ws.cell(row, 1, value)
    path = tmp_path / "general.xlsx"
    wb.save(path)

    words = read_layout(render_pdf(path).pdf_path, images=False).words
    lines: dict[tuple[int, int], list[str]] = {}
    for word in words:
        lines.setdefault((word.page, round(word.top)), []).append(word.text)
    drawn = [texts for _, texts in sorted(lines.items())]
    assert len(drawn) == len(values) and all(len(t) == 1 for t in drawn)

    doc = load(path)
    ours = []
    for row in range(1, len(values) + 1):
        cell = doc.get(f"Sheet!A{row}")
        assert cell is not None
        ours.append("###" if cell.attrs.get("overflow") == "hashes" else cell.text)
    assert ours == [t[0] for t in drawn]

    # What a benchmark author writes: "the cell shows 1.23E+09", "no cell shows ###".
    row = values.index(1234567890) + 1
    assert run_check("text_equals", doc, {"target": f"cell[ref='A{row}']", "expected": "1.23E+09"}).status == "pass"
    cell = doc.get(f"Sheet!A{row}")
    assert cell is not None and cell.attrs["rounded_from"] == "1234567890" and cell.attrs["value"] == 1234567890
    assert run_check("text_fits", doc, {"target": f"cell[ref='A{row}']"}).status == "pass"


def test_general_in_width_shortens_then_gives_up() -> None:
    digit = 5.575  # Carlito 11 pt: every digit; the point, minus and E are narrower

    def width_of(text: str) -> float:
        return sum({".": 2.777, "-": 3.368, "E": 5.371, "+": 5.479}.get(c, digit) for c in text)

    room = 47.0  # a default 64 px column less the margins
    assert general_in_width(0.123456789, room, width_of) == "0.123457"
    assert general_in_width(-0.000123456789, room, width_of) == "-0.000123"  # sign and point give room back
    assert general_in_width(99999999.5, room, width_of) == "1E+08"
    assert general_in_width(1e-10, 25.0, width_of) == "1E-10"
    assert general_in_width(0.000123456789, 25.0, width_of) == "0"  # fixed notation rounds to 0 there
    assert general_in_width(1234567, 25.0, width_of) is None  # even 1E+06 is too wide: ###
