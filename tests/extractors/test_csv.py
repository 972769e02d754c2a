"""CSV/TSV files: typed as a spreadsheet application reads them — every cell of a mixed
file compared with LibreOffice's own CSV import (en-US, "detect special numbers", the
Excel-like reading) — encodings and dialects detected, binary junk refused, and the sheet
usable by the grid checks like an .xlsx sheet."""

from __future__ import annotations

import datetime as dt
import os
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

import artifactcheck
from artifactcheck import errors
from artifactcheck.checks.registry import run_check
from artifactcheck.extractors.csv.values import excel_value

MIXED = (
    "id,name,amount,share,date,iso,flag,zip,big,sci,paren,price,time,note\n"
    '1,Alice,"1,234.50",12.5%,1/15/2024,2024-01-15,TRUE,00501,1234567890123456789,1.5e3,(42),$9.99,14:30,hello\n'
    "2,Bob,-7,0.5%,13/01/2024,2024-13-01,false,02134,12345678901234,2E-2,-(3),10 EUR,2:30 PM,  padded  \n"
    '3,Carol Ann,+3.25,100%,12/31/99,2023-06-30 08:15,True,0,007,1e-3,(1.5),"$1,000",23:59:59,=SUM(A1:A2)\n'
)


def _normal(value: Any) -> Any:
    """openpyxl's value of a LibreOffice-written cell, in our attrs' JSON spelling."""
    if isinstance(value, dt.datetime):
        return value.date().isoformat() if value.time() == dt.time() else value.isoformat()
    if isinstance(value, dt.time):
        return value.isoformat()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def libreoffice_reading(csv_path: Path, tmp: Path) -> dict[str, Any]:
    """LibreOffice's CSV import of ``csv_path`` (comma, '"', UTF-8, en-US, detect special
    numbers), saved as .xlsx and read back: ``{A1: value}``."""
    import openpyxl

    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        pytest.skip("LibreOffice is not installed")
    out = tmp / "lo"
    cmd = [soffice, f"-env:UserInstallation={(tmp / 'profile').as_uri()}", "--headless", "--norestore",
           "--infilter=CSV:44,34,76,1,,1033,false,true", "--convert-to", "xlsx", "--outdir", str(out), str(csv_path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        proc.wait(timeout=180)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    ws = openpyxl.load_workbook(out / f"{csv_path.stem}.xlsx").active
    assert ws is not None
    return {c.coordinate: _normal(c.value) for row in ws.iter_rows() for c in row if c.value is not None}


@pytest.mark.slow
def test_every_cell_is_typed_as_libreoffice_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "mixed.csv"
    path.write_text(MIXED, encoding="utf-8")
    doc = artifactcheck.load(path)
    ours = {n.id.split("!")[1]: n.attrs["value"] for n in doc.iter("cell")}
    theirs = libreoffice_reading(path, tmp_path)
    assert ours == theirs
    assert ours["H2"] == 501 and ours["K4"] == -1.5 and ours["N4"] == "=SUM(A1:A2)"  # a formula stays text


def test_cells_follow_the_xlsx_conventions(tmp_path: Path) -> None:
    path = tmp_path / "Sales Q1.csv"
    path.write_text(MIXED, encoding="utf-8")
    doc = artifactcheck.load(path)
    assert doc.artifact.format == "csv" and doc.artifact.extracted_as == "xlsx" and doc.artifact.path == str(path)
    (sheet,) = doc.pages
    assert sheet.kind == "sheet" and sheet.name == "Sales Q1"
    assert sheet.attrs["csv"] == {"encoding": "utf-8", "encoding_source": "utf-8", "delimiter": ",", "quotechar": '"', "rows": 4, "day_first": False}
    zip_cell = doc.get("Sales Q1!H2")
    assert (zip_cell.attrs["value"], zip_cell.text, zip_cell.attrs["csv_text"]) == (501, "501", "00501")  # leading zeros dropped
    assert zip_cell.attrs["row"] == 2 and zip_cell.attrs["col"] == 8
    amount = doc.get("Sales Q1!C2")
    assert amount.text == "1,234.50" and "csv_text" not in amount.attrs
    b1, c1 = doc.get("Sales Q1!B1").box, doc.get("Sales Q1!C1").box
    assert b1 is not None and c1 is not None and b1.x1 == c1.x0 and b1.width == 48.0  # Excel's default column: 64 px
    assert run_check("header_row", doc, {"row": 1, "headers": ["id", "name", "amount"]}).status == "pass"
    assert run_check("number_equals", doc, {"target": "cell[ref='C2']", "expected": 1234.5}).status == "pass"
    assert run_check("number_equals", doc, {"target": "cell[ref='C2']", "expected": 1234}).status == "fail"


def test_day_first_reads_european_dates() -> None:
    assert excel_value("13/01/2024") == ("13/01/2024", "General")  # no month 13: text
    assert excel_value("13/01/2024", day_first=True) == (dt.datetime(2024, 1, 13), "d/m/yyyy")


@pytest.mark.parametrize(
    ("content", "encoding", "delimiter", "name"),
    [
        ("Name;Price\nCafé;1,5\nThé;2,25\n".encode("cp1252"), "not utf-8", ";", "prices.csv"),
        ("\ufeffName,Price\nCafé,1.5\n".encode(), "utf-8", ",", "bom.csv"),
        ("Name\tCity, State\nAl\tBoston, MA\nBo\tAustin, TX\n".encode("utf-16"), "utf-16", "\t", "export.txt"),
        (b"Name|Score\nAl|3\nBo|4\n", "utf-8", "|", "pipes.dat"),
    ],
)
def test_encoding_and_dialect_are_detected(tmp_path: Path, content: bytes, encoding: str, delimiter: str, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    doc = artifactcheck.load(path)
    info = doc.pages[0].attrs["csv"]
    assert info["delimiter"] == delimiter  # type: ignore[index]
    if encoding == "not utf-8":  # a legacy single-byte code page; which one is a guess the text decides
        assert info["encoding"] != "utf-8" and info["encoding_source"] == "detected"  # type: ignore[index]
    else:
        assert info["encoding"] == encoding  # type: ignore[index]
    first = doc.get(f"{doc.pages[0].name}!A2")
    assert first.text in ("Café", "Al")


def test_one_column_text_is_one_column(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text("Alice\nBob Smith\nCarol\n")
    doc = artifactcheck.load(path)
    assert [n.text for n in doc.iter("cell")] == ["Alice", "Bob Smith", "Carol"]
    assert doc.pages[0].attrs["csv"]["delimiter"] is None  # type: ignore[index]


def test_every_attribute_is_declared(tmp_path: Path) -> None:
    from tests.model.test_attributes import undeclared

    path = tmp_path / "mixed.csv"
    path.write_text(MIXED, encoding="utf-8")
    assert undeclared(artifactcheck.load(path), "mixed.csv") == []


def test_binary_junk_and_empty_files_are_typed_errors(tmp_path: Path) -> None:
    junk = tmp_path / "data.csv"
    junk.write_bytes(bytes(range(1, 32)) * 200)
    with pytest.raises(errors.UnsupportedFormat, match="data.csv.*binary"):
        artifactcheck.load(junk)
    nul = tmp_path / "nul.csv"
    nul.write_bytes(b"a,b\n1,\x002\n")
    with pytest.raises(errors.UnsupportedFormat, match="NUL"):
        artifactcheck.load(nul)
    blank = tmp_path / "blank.csv"
    blank.write_text("  \n\n")
    with pytest.raises(errors.CorruptArtifact, match="no data"):
        artifactcheck.load(blank)
    text_named_docx = tmp_path / "report.docx"
    text_named_docx.write_text("just some text\n")
    with pytest.raises(errors.UnsupportedFormat, match="named .docx"):
        artifactcheck.load(text_named_docx)
