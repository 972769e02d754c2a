""""The numbers are right-aligned" of a sheet nobody aligned: openpyxl leaves every cell
at General, which draws numbers right, text left and logicals centred. The truth is
LibreOffice's render: in the column of numbers the drawn right ends agree and the left
ends do not; the header above them starts at the column's left. ``format_is`` read the
stated ``general`` and failed every number cell."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest
from openpyxl.styles import Alignment

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Item", "Qty", "Code"])
    for i, qty in enumerate([25, 125, 4500, 86], start=1):
        ws.append([f"Item {i}", qty, f"{i:04d}"])  # a code stored as text is text
    ws["A6"], ws["B6"] = "Total", "=SUM(B2:B5)"
    ws["A7"], ws["B7"] = "Note", 5
    ws["B7"].alignment = Alignment(horizontal="left")  # stated: drawn left
    path = tmp_path_factory.mktemp("general") / "general.xlsx"
    wb.save(path)
    return path


def test_numbers_left_at_general_are_drawn_right_and_judged_so(book: Path) -> None:
    words = {w.text: w for w in read_layout(render_pdf(book).pdf_path).words}
    numbers = [words[t] for t in ("25", "125", "4500", "86", "4736")]
    assert max(w.x1 for w in numbers) - min(w.x1 for w in numbers) < 0.5  # right ends agree
    assert max(w.x0 for w in numbers) - min(w.x0 for w in numbers) > 5  # left ends do not
    assert words["Qty"].x0 < min(w.x0 for w in numbers) - 5  # the header is drawn left
    doc = load(book)
    numbers_right = run_check("format_is", doc, {"target": "cell[col='2'][data_type='number']", "align": "right"})
    # B7 is stated left: the one number cell that is not drawn right
    assert numbers_right.status == "fail" and numbers_right.score == pytest.approx(5 / 6), numbers_right.explanation
    assert "B7" in numbers_right.explanation
    column = run_check("format_is", doc, {"target": "cell[col='2'][row!='1'][row!='7']", "align": "right"})
    assert column.status == "pass", column.explanation
    assert run_check("format_is", doc, {"target": "cell[col='2'][row='1']", "align": "left"}).status == "pass"
    codes = run_check("format_is", doc, {"target": "cell[col='3'][row!='1']", "align": "right"})
    assert codes.status == "fail" and codes.score == 0.0, codes.explanation  # text, drawn left
    # asking for the stated value itself still reads it
    assert run_check("format_is", doc, {"target": "cell[col='2'][row='2']", "align": "general"}).status == "pass"
    assert run_check("format_is", doc, {"target": "cell[col='2'][row='2']", "align": "general", "layer": "direct"}).status == "pass"
