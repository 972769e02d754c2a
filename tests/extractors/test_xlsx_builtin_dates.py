"""Excel's built-in date formats 14 and 22, how every date typed into Excel is stored
(and what openpyxl writes for "mm-dd-yy" and "m/d/yy h:mm"): both Excel and LibreOffice
show the locale's short date, 3/15/2023, not the code of the spec's table (03-15-23). The
truth is the rendered text."""

from __future__ import annotations

import datetime as dt
import zipfile
from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


def test_built_in_dates_read_as_drawn(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = dt.date(2023, 3, 15)
    ws["A1"].number_format = "mm-dd-yy"
    ws["A2"] = dt.datetime(2024, 3, 5, 14, 7)
    ws["A2"].number_format = "m/d/yy h:mm"
    ws.column_dimensions["A"].width = 20
    path = tmp_path / "dates.xlsx"
    wb.save(path)
    styles = zipfile.ZipFile(path).read("xl/styles.xml").decode()
    assert 'numFmtId="14"' in styles and 'numFmtId="22"' in styles  # built-ins, no code stored
    drawn = read_layout(render_pdf(path).pdf_path).text.split("\n")
    doc = load(path)
    cells = {c.id: c.text for c in doc.select("cell")}
    assert cells["Sheet!A1"] == "3/15/2023" and "3/15/2023" in drawn
    assert cells["Sheet!A2"] == "3/5/2024 14:07" and "3/5/2024 14:07" in drawn
    assert run_check("text_equals", doc, {"target": "cell[ref='A1']", "expected": "3/15/2023"}).status == "pass"
