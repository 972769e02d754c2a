"""Rows the file leaves unsized are auto-fitted as Excel does on opening
(``xlsx/autofit.py``). LibreOffice 7.4 does not auto-fit .xlsx rows on load, so the
reference is Excel itself: files saved by Excel store the heights it auto-fitted
(``<row ht>`` without ``customHeight``). We strip those heights and compare what we
compute with what Excel stored."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font

from artifactcheck.extractors.xlsx.extract import extract_xlsx
from tests.conftest import corpus_file

_ROW = re.compile(rb"<row\b[^>]*>")


def _unsized_copy(src: Path, dst: Path) -> dict[tuple[str, int], float]:
    """Copy ``src`` with the ``ht`` of every non-custom row removed; return Excel's
    stored heights of those rows by (sheet part, row)."""
    stored: dict[tuple[str, int], float] = {}
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("xl/worksheets/sheet") and item.filename.endswith(".xml"):
                def strip(m: re.Match[bytes], part: str = item.filename) -> bytes:
                    tag = m.group(0)
                    if b'customHeight="1"' in tag or b'customHeight="true"' in tag or b" hidden=" in tag:
                        return tag
                    ht = re.search(rb' ht="([0-9.]+)"', tag)
                    r = re.search(rb' r="(\d+)"', tag)
                    if ht and r:
                        stored[(part, int(r.group(1)))] = float(ht.group(1))
                        return tag.replace(ht.group(0), b"")
                    return tag

                data = _ROW.sub(strip, data)
            zout.writestr(item, data)
    return stored


@pytest.mark.parametrize("name", ["poi_ConditionalFormattingSamples.xlsx", "poi_stress024.xlsx"])
def test_heights_equal_what_windows_excel_stored(name: str, tmp_path: Path) -> None:
    copy = tmp_path / name
    stored = _unsized_copy(corpus_file("xlsx", name), copy)
    doc = extract_xlsx(copy, recalculate=False)
    assert any(r.attrs.get("autofit") for r in doc.iter("row")), "no row needed auto-fit"
    for sheet in doc.iter("sheet"):
        part = str(sheet.source)
        for row in sheet.children:
            if row.kind == "row" and row.attrs.get("autofit"):
                assert row.attrs["height_pt"] == stored[(part, int(row.attrs["row"]))], row.id  # type: ignore[call-overload]


def test_line_counts_match_a_mac_excel_file(tmp_path: Path) -> None:
    """Mac Excel stores 14.4 pt per line of this workbook's font where Windows uses
    15 pt: compare line counts (height / one line's height)."""
    name = "poi_mv-calculator.xlsm"
    copy = tmp_path / "mv.xlsm"
    stored = _unsized_copy(corpus_file("xlsx", name), copy)
    doc = extract_xlsx(copy, recalculate=False)
    sheet = doc.get("User Guide")
    pairs = []
    for row in sheet.children:
        if row.kind == "row" and row.attrs.get("autofit"):
            excel = stored.get((str(sheet.source), int(row.attrs["row"])))  # type: ignore[call-overload]
            if excel is not None and excel > 20:  # multi-line rows
                pairs.append((round(excel / 14.4), round(float(row.attrs["height_pt"]) / 15.0)))  # type: ignore[arg-type]
    assert len(pairs) >= 20
    agree = sum(a == b for a, b in pairs)
    assert agree / len(pairs) >= 0.9, pairs


def test_openpyxl_wrapped_rows_get_room(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"] = "alpha beta gamma delta epsilon zeta eta theta"  # 3 lines in a 20-character column
    ws["A1"].alignment = Alignment(wrap_text=True)
    ws["A2"] = "big"
    ws["A2"].font = Font(name="Calibri", size=20)
    ws["A3"] = "fixed row, wrapped too long to fit"
    ws["A3"].alignment = Alignment(wrap_text=True)
    ws.row_dimensions[3].height = 15
    ws.column_dimensions["A"].width = 20
    path = tmp_path / "rows.xlsx"
    wb.save(path)
    doc = extract_xlsx(path)
    r1, r2, r3 = (doc.get(f"Sheet!{i}:{i}") for i in (1, 2, 3))
    assert (r1.attrs["height_pt"], r1.attrs.get("autofit")) == (45.0, True)
    assert r2.attrs["height_pt"] == 26.25  # one line of Calibri 20: 33 + 2 px
    assert "autofit" not in r3.attrs and r3.attrs["height_pt"] == 15.0
    a1, a3 = doc.get("Sheet!A1"), doc.get("Sheet!A3")
    assert a1.attrs["overflow"] == "fits" and "needs_row_autofit" not in a1.attrs
    assert a1.boxes[0].bottom - a1.boxes[0].top == 45.0
    assert doc.get("Sheet!A2").boxes[0].top == 45.0  # the rows below moved down
    assert a3.attrs["overflow"] == "clipped"  # a height set by the author is kept
