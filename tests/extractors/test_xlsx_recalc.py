"""Formulas without cached values (what openpyxl writes) get the value a reader sees:
the tree's text must equal the text LibreOffice draws in its render, each cell says where
its value came from, and a value nobody could compute makes value checks ``error``."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook

from artifactcheck import run_check
from artifactcheck.extractors.render.cache import render_cache_stats
from artifactcheck.extractors.xlsx.extract import extract_xlsx
from artifactcheck.model import Document
from tests.extractors.xlsx_look import rendered_words

pytestmark = pytest.mark.slow

# What agents write (openpyxl, no cached results): each label in A, its formula in B.
FORMULAS = [
    ("total", "=SUM(Data!C2:C21)"), ("average", "=AVERAGE(Data!C2:C21)"), ("biggest", "=MAX(Data!C2:C21)"),
    ("countA", '=COUNTIF(Data!B2:B21,"A")'), ("sumB", '=SUMIF(Data!B2:B21,"B",Data!C2:C21)'),
    ("rounded", "=ROUND(AVERAGE(Data!C2:C21),1)"), ("verdict", '=IF(SUM(Data!C2:C21)>100,"big","small")'),
    ("lookup", '=VLOOKUP("item5",Data!A2:C21,3,FALSE)'), ("indexed", '=INDEX(Data!C2:C21,MATCH("item9",Data!A2:A21,0))'),
    ("label", '=CONCATENATE("Total: ",TEXT(B2,"#,##0.00"))'), ("joined", '="n="&COUNTA(Data!A2:A21)'),
    ("shout", "=UPPER(Data!A2)"), ("median", "=MEDIAN(Data!C2:C21)"), ("safe", '=IFERROR(1/0,"n/a")'),
    ("ratio", "=B2/B3"), ("when", "=DATE(2024,5,17)"), ("year", "=YEAR(B17)"),
]


def build(path: Path) -> None:
    wb = Workbook()
    data = wb.active
    assert data is not None
    data.title = "Data"
    data.append(["Item", "Group", "Price"])
    for i in range(1, 21):
        data.append([f"item{i}", "ABC"[i % 3], round(1.5 * i, 2)])
    summary = wb.create_sheet("Summary")
    summary.append(["what", "value"])
    for label, formula in FORMULAS:
        summary.append([label, formula])
    summary["B17"].number_format = "yyyy-mm-dd"
    summary.column_dimensions["B"].width = 20
    summary["D1"] = "=XLOOKUP(1,A:A,B:B)"  # Excel 2021 name without _xlfn.: #NAME? in Excel, unknown to LibreOffice 7.4
    wb.save(path)


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    path = tmp_path_factory.mktemp("recalc") / "formulas.xlsx"
    build(path)
    return path, extract_xlsx(path)


def test_values_are_what_libreoffice_shows(book: tuple[Path, Document]) -> None:
    path, doc = book
    drawn = set(rendered_words(path))
    cells = doc.select("sheet[name='Summary'] cell[col='2']")
    assert len(cells) == len(FORMULAS) + 1
    for cell in cells[1:]:
        assert cell.attrs["value_source"] == "recalculated", cell.id
        assert cell.attrs["cached_value_missing"] is True
        assert cell.text, cell.id
        assert all(word in drawn for word in cell.text.split()), (cell.id, cell.text)
    by_label = {c.parent.children[0].text: c for c in cells[1:] if c.parent is not None}  # type: ignore[union-attr]
    assert by_label["total"].attrs["value"] == 315
    assert by_label["verdict"].text == "big"
    assert by_label["label"].text == "Total: 315.00"
    assert by_label["when"].text == "2024-05-17" and by_label["when"].attrs["data_type"] == "date"
    assert by_label["safe"].text == "n/a"


def test_value_checks_see_recalculated_values(book: tuple[Path, Document]) -> None:
    _path, doc = book
    assert run_check("number_equals", doc, {"target": "#Summary\\!B2", "expected": 315}).status == "pass"
    assert run_check("number_equals", doc, {"target": "#Summary\\!B2", "expected": 316}).status == "fail"
    assert run_check("text_equals", doc, {"target": "#Summary\\!B8", "expected": "big"}).status == "pass"


def test_a_value_nobody_computed_is_an_error_not_a_failure(book: tuple[Path, Document]) -> None:
    _path, doc = book
    d1 = doc.get("Summary!D1")
    assert d1.attrs["value_unknown"] is True and "value_source" not in d1.attrs
    assert "#NAME?" in str(d1.attrs["value_unknown_reason"])
    result = run_check("number_equals", doc, {"target": "#Summary\\!D1", "expected": 3})
    assert result.status == "error" and result.score is None
    assert result.error is not None and result.error["cells"] == ["Summary!D1"]
    # A phrase found elsewhere still passes; "absent" cannot be claimed.
    assert run_check("text_contains", doc, {"phrases": ["item1"]}).status == "pass"
    assert run_check("text_excludes", doc, {"phrases": ["lorem"]}).status == "error"


def test_cached_values_are_kept_and_conversion_is_cached(book: tuple[Path, Document], tmp_path: Path) -> None:
    path, _doc = book
    before = render_cache_stats()
    again = extract_xlsx(path)
    after = render_cache_stats()
    assert after["misses"] == before["misses"] and after["hits"] == before["hits"] + 1
    assert again.get("Summary!B2").attrs["value"] == 315
    # A workbook whose formulas carry results is read as saved: no conversion at all.
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"] = 2
    plain = tmp_path / "plain.xlsx"
    wb.save(plain)
    count = render_cache_stats()
    doc = extract_xlsx(plain)
    assert render_cache_stats() == count
    assert "value_source" not in doc.get("Sheet!A1").attrs  # constants have no formula to source


def test_without_recalculation_values_are_unknown(book: tuple[Path, Document]) -> None:
    path, _doc = book
    doc = extract_xlsx(path, recalculate=False)
    b2 = doc.get("Summary!B2")
    assert b2.attrs["value_unknown"] is True and b2.text == ""
    assert "recalculate=False" in str(b2.attrs["value_unknown_reason"])
    assert run_check("number_equals", doc, {"target": "#Summary\\!B2", "expected": 315}).status == "error"


def test_missing_libreoffice_is_a_warning_and_unknown_values(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "f.xlsx"
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws["A1"], ws["A2"] = 4, f"=A1*2+{dt.date.today().toordinal()}"  # content of its own: never cached
    wb.save(path)
    monkeypatch.setenv("ARTIFACTCHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ARTIFACTCHECK_SOFFICE", str(tmp_path / "no-soffice"))
    doc = extract_xlsx(path)
    assert doc.get("Sheet!A2").attrs["value_unknown"] is True
    assert any("not recalculated" in w for w in doc.warnings)
