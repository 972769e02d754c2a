"""A workbook xlsxwriter wrote: every formula's cached value is a placeholder 0 and the
workbook asks for a full calculation on load (``calcPr fullCalcOnLoad="1"``), which Excel
makes when it opens the file. LibreOffice headless trusts the cached zeros, so its render
is not the truth here; the formulas' own arithmetic is."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
import xlsxwriter

from artifactcheck import load, run_check

pytestmark = pytest.mark.slow


def test_placeholder_values_are_recalculated(tmp_path: Path) -> None:
    path = tmp_path / "xlsxwriter.xlsx"
    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("Orders")
    money = wb.add_format({"num_format": "$#,##0.00"})
    ws.write_row(0, 0, ["Item", "Qty", "Price", "Total", "Flag"])
    for row, (item, qty, price) in enumerate([("Book", 3, 23.0), ("Pen", 10, 1.5), ("Bag", 1, 45.0)], start=1):
        ws.write_row(row, 0, [item, qty, price])
        ws.write_formula(row, 3, f"=B{row + 1}*C{row + 1}", money)
        ws.write_formula(row, 4, f'=IF(D{row + 1}>20,"Over","Under")')
    ws.write_formula(4, 3, "=SUM(D2:D4)", money)
    wb.close()
    sheet = zipfile.ZipFile(path).read("xl/worksheets/sheet1.xml").decode()
    assert re.search(r"<f>B2\*C2</f><v>0</v>", sheet)  # the placeholder xlsxwriter writes
    doc = load(path)
    cells = {c.id.split("!")[1]: c for c in doc.select("cell")}
    assert [cells[f"D{r}"].text for r in (2, 3, 4, 5)] == ["$69.00", "$15.00", "$45.00", "$129.00"]
    assert [cells[f"E{r}"].text for r in (2, 3, 4)] == ["Over", "Under", "Over"]
    assert cells["D5"].attrs["value_source"] == "recalculated"
    assert run_check("number_equals", doc, {"target": "cell[ref='D5']", "expected": 129}).status == "pass"
