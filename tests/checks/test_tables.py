"""Grid checks on sheets built the way agents build them (openpyxl): the header is found
inside the table (a helper column beyond it does not hide it), every grid check takes a
range (A1 text, Sheet!A1, a defined name, an Excel table), and "the row is highlighted"
means what the LibreOffice render shows."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
from openpyxl import Workbook
from openpyxl.styles import PatternFill
from openpyxl.workbook.defined_name import DefinedName
from openpyxl.worksheet.table import Table

import artifactcheck
from artifactcheck import Document, run_check
from artifactcheck.checks.query.ranges import parse_a1_range, resolve_range

YELLOW = PatternFill("solid", fgColor="FFF2CC")
PAPERS = [
    ["Attention Is All You Need", "Vaswani", 2017, "Read"],
    ["BERT", "Devlin", 2019, "Read"],
    ["GPT-3", "Brown", 2020, "To read"],
    ["T5", "Raffel", 2020, "To read"],
    ["ResNet", "He", 2016, "To read"],
]


def tracker(path: Path, *, highlight: dict[int, tuple[int, ...]]) -> Path:
    """Header A1:D1, papers in rows 2-6, a helper column F (numbers, header cell 1 too)
    beyond the empty column E; ``highlight`` maps a sheet row to the columns filled."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Papers"
    ws.append(["Title", "Authors", "Year", "Status"])
    ws["F1"] = 1
    for i, row in enumerate(PAPERS, start=2):
        ws.append(row)
        ws.cell(i, 6, value=i * 3)
    for r, cols in highlight.items():
        for c in cols:
            ws.cell(r, c).fill = YELLOW
    ws.column_dimensions["A"].width = 20  # the title column: wide, but under half the table
    wb.defined_names["PaperList"] = DefinedName("PaperList", attr_text="Papers!$A$1:$D$6")
    ws.add_table(Table(displayName="Reading", ref="A1:D6"))
    other = wb.create_sheet("Notes")
    other.append(["Topic", "Count"])
    other.append(["nlp", 3])
    wb.save(str(path))
    return path


@pytest.fixture(scope="module")
def grouped(tmp_path_factory: pytest.TempPathFactory) -> Document:
    # rows 2 and 3 highlighted across the table
    path = tracker(tmp_path_factory.mktemp("t") / "grouped.xlsx", highlight={2: (1, 2, 3, 4), 3: (1, 2, 3, 4)})
    return artifactcheck.load(path)


def test_helper_column_beyond_the_table_does_not_hide_the_header(tmp_path: Path) -> None:
    """The sheet's Excel table is dropped here, so the header is found by the block of
    adjacent columns; F1 = 1 used to disqualify row 1 (a number among the labels)."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Title", "Authors", "Year", "Status"])
    ws["F1"] = 1
    for i, row in enumerate(PAPERS, start=2):
        ws.append(row)
        ws.cell(i, 6, value=i * 3)
        if i in (2, 3):
            for c in range(1, 5):
                ws.cell(i, c).fill = YELLOW
    wb.save(str(tmp_path / "helper.xlsx"))
    doc = artifactcheck.load(tmp_path / "helper.xlsx")
    r = run_check("rows_grouped_at_top", doc, {"property": "filled"})
    assert r.status == "pass", r.explanation
    assert r.evidence["header_row"] == 1 and r.evidence["marked_rows"] == [2, 3]
    assert "header row 1 ['Title', 'Authors', 'Year', 'Status'] of Sheet!A1:D6" in r.explanation
    assert "column(s) F beyond an empty column left out" in r.explanation
    header = run_check("header_row", doc, {"row": 1, "headers": ["Title", "Status"]})
    assert header.status == "pass", header.explanation


def test_adjacent_helper_value_still_allows_the_header(tmp_path: Path) -> None:
    """A number right beside the header (no empty column between): three quarters of the
    row are labels, so it is still the header, and the explanation says why."""
    wb = Workbook()
    ws = wb.active
    ws.append(["Title", "Authors", "Year", "Status", 7])
    for row in PAPERS:
        ws.append([*row, 1])
    wb.save(str(tmp_path / "adjacent.xlsx"))
    doc = artifactcheck.load(tmp_path / "adjacent.xlsx")
    r = run_check("columns_match", doc, {"headers": ["Title", "Year"]})
    assert r.status == "pass" and r.evidence["header_row"] == 1
    assert "4 of its 5 filled cells are labels" in r.explanation


@pytest.mark.parametrize(
    "text",
    ["A1:D6", "Papers!A1:D6", "'Papers'!$A$1:$D$6", "PaperList", "paperlist", "Reading", "A:D"],
)
def test_every_form_of_range(grouped: Document, text: str) -> None:
    r = run_check("rows_grouped_at_top", grouped, {"range": text, "property": "filled"})
    assert r.status == "pass", r.explanation
    assert r.evidence["cells"].startswith("Papers!A1:D6")
    header = run_check("header_row", grouped, {"range": text, "row": 1})
    assert header.status == "pass", header.explanation
    cols = run_check("columns_match", grouped, {"range": text, "headers": ["Title", "Authors", "Year", "Status"], "in_order": True})
    assert cols.status == "pass", cols.explanation


def test_range_resolution_says_how_it_read_the_text(grouped: Document) -> None:
    assert resolve_range(grouped, "Reading").how == "Excel table 'Reading' = Papers!A1:D6"
    assert resolve_range(grouped, "PaperList").how == "defined name 'PaperList' = Papers!A1:D6"
    assert grouped.root.attrs["named_ranges"] == {"PaperList": "Papers!A1:D6"}
    assert parse_a1_range("B2") == (None, (2, 2, 2, 2))
    bad = run_check("rows_grouped_at_top", grouped, {"range": "PaperLsit"})
    assert bad.status == "error" and "did you mean 'paperlist'" in bad.explanation
    # a sheet the workbook lacks (the agent renamed or never made it) is the artifact's
    # fault: a decided fail that lists the sheets there are, so a typo is still visible
    gone = run_check("header_row", grouped, {"range": "Summary!A1:B2"})
    assert gone.status == "fail" and "names sheet 'Summary'" in gone.explanation and "Papers" in gone.explanation
    assert run_check("range_equals", grouped, {"range": "Summary!A1", "expected": [["x"]]}).status == "fail"
    assert run_check("cells_compare", grouped, {"range": "Summary!B2:B3", "op": ">=", "value": 0}).status == "fail"
    # a range on another sheet than the first
    notes = run_check("header_row", grouped, {"range": "Notes!A1:B2", "headers": ["Topic", "Count"]})
    assert notes.status == "pass", notes.explanation


def test_range_narrows_the_rows_checked(grouped: Document) -> None:
    """A range that starts below the highlighted rows: no marked row in it."""
    r = run_check("rows_grouped_at_top", grouped, {"range": "A4:D6", "property": "filled", "header_row": 4})
    assert r.status == "fail" and r.evidence["marked_rows"] == []


@pytest.fixture(scope="module")
def partly_filled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, dict[int, float]]:
    """Row 2: every cell; row 3: all but Status; row 4: the (wide) title cell only; row
    5: title and authors. Truth: the share of the table's width LibreOffice paints."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice not installed")
    from artifactcheck.extractors.render import page_image, read_layout, render_pdf

    path = tracker(tmp_path_factory.mktemp("p") / "partly.xlsx", highlight={2: (1, 2, 3, 4), 3: (1, 2, 3), 4: (1,), 5: (1, 2)})
    pdf = render_pdf(path).pdf_path
    words = [w for w in read_layout(pdf).words if w.page == 0]
    img = np.asarray(page_image(pdf, 0, dpi=100).convert("RGB"), dtype=np.int16)
    k = 100 / 72
    title = next(w for w in words if w.text == "Title")
    status = next(w for w in words if w.text == "Status")
    x0, x1 = int(title.x0 * k), int((status.x1 + 20) * k)
    shares = {}
    for r, row in enumerate(PAPERS, start=2):
        w = next(w for w in words if w.text == str(row[0]).split()[0] and w.top > title.bottom)
        y = int((w.top + w.bottom) / 2 * k)
        band = img[y - 2 : y + 3, x0:x1]
        yellow = (band[..., 0] - band[..., 2] > 25) & (band[..., 1] - band[..., 2] > 15) & (band[..., 0] > 150)
        shares[r] = float(yellow.any(axis=0).mean())
    return artifactcheck.load(path), shares


@pytest.mark.slow
def test_a_highlighted_row_is_what_the_render_shows(partly_filled: tuple[Document, dict[int, float]]) -> None:
    doc, shares = partly_filled
    seen = sorted(r for r, s in shares.items() if s >= 0.5)
    assert seen == [2, 3, 5], shares  # the wide title alone is less than half the row
    r = run_check("rows_grouped_at_top", doc, {"range": "Reading", "property": "filled"})
    assert r.evidence["marked_rows"] == seen and r.evidence["row_rule"] == "majority"
    assert r.status == "fail" and "row 4 lacks it while rows [5] below have it" in r.explanation
    # the other rules disagree with the render: all misses rows 3 and 5, any adds row 4
    every = run_check("rows_grouped_at_top", doc, {"range": "Reading", "property": "filled", "cells": "all"})
    assert every.evidence["marked_rows"] == [2]
    some = run_check("rows_grouped_at_top", doc, {"range": "Reading", "property": "filled", "cells": "any"})
    assert some.evidence["marked_rows"] == [2, 3, 4, 5]


# -- sets of values -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def contacts(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """A contact list as an agent writes it: a title row, the header, emails (one repeated
    with other case), countries, amounts written with and without thousands separators,
    and a helper column beyond an empty one."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Contacts"
    ws.append(["Customer contacts"])
    ws.append(["Name", "Email", "Country", "Spend"])
    rows = [
        ("Ada", "ada@example.org", "UK", "1,000"),
        ("Grace", "grace@example.org", "USA", 250),
        ("Alan", "ALAN@example.org", "UK", 1000),
        ("Edsger", "edsger@example.org", "Netherlands", 75),
        ("Alan T.", "alan@example.org", "uk", 30),
    ]
    for i, row in enumerate(rows, start=3):
        ws.append(list(row))
        ws.cell(i, 6, value=i)
    path = tmp_path_factory.mktemp("sets") / "contacts.xlsx"
    wb.save(str(path))
    return artifactcheck.load(path)


def test_values_unique(contacts: Document) -> None:
    emails = run_check("values_unique", contacts, {"column": "Email"})
    assert emails.status == "fail", emails.explanation
    assert emails.evidence["repeated"][0]["count"] == 2 and "'ALAN@example.org' x2" in emails.explanation
    assert "header row 2" in emails.explanation  # the title row is not the header
    assert run_check("values_unique", contacts, {"column": "Email", "case_sensitive": True}).status == "pass"
    assert run_check("values_unique", contacts, {"column": "Name"}).status == "pass"
    # numbers by value: "1,000" and 1000 are the same amount
    assert run_check("values_unique", contacts, {"range": "D3:D7"}).status == "fail"


def test_values_unique_on_a_field_of_each_line_like_check_no_duplicates(tmp_path: Path) -> None:
    import docx

    def records(name: str, lines: list[str]) -> Document:
        d = docx.Document()
        for line in lines:
            d.add_paragraph(line)
        d.save(str(tmp_path / name))
        return artifactcheck.load(tmp_path / name)

    unique = records("unique.docx", ["Ann Lee,1042,Sales", "Bo Chan,1043,Sales", "Cy Diaz, 1044 ,Ops", "", "a note"])
    step = {"target": "paragraph", "field": 2}
    ok = run_check("values_unique", unique, step)
    assert (ok.status, ok.evidence["values"], ok.evidence["without_field"]) == ("pass", 3, 1), ok.explanation
    assert "field 2 (split at ',')" in ok.explanation
    assert run_check("values_unique", unique, {"target": "paragraph"}).status == "pass"
    # the same id on two lines whose other fields differ: the whole lines are unique, the ids are not
    dup = records("dup.docx", ["Ann Lee,1042,Sales", "Bo Chan,1043,Sales", "Cy Diaz,1042,Ops"])
    assert run_check("values_unique", dup, {"target": "paragraph"}).status == "pass"
    bad = run_check("values_unique", dup, step)
    assert bad.status == "fail" and bad.evidence["repeated"][0]["value"] == "1042"
    assert run_check("values_unique", dup, {"target": "paragraph", "field": 1, "separator": " "}).status == "pass"


def test_values_match_and_distinct_count(contacts: Document) -> None:
    countries = {"column": "Country"}
    assert run_check("values_match", contacts, {**countries, "expected": ["UK", "USA", "Netherlands"]}).status == "pass"
    partial = run_check("values_match", contacts, {**countries, "expected": ["UK", "USA", "Germany"]})
    assert partial.status == "fail" and partial.evidence["missing"] == ["Germany"]
    assert [u["value"] for u in partial.evidence["unexpected"]] == ["Netherlands"]
    assert run_check("values_match", contacts, {**countries, "expected": ["UK", "USA"], "mode": "all_present"}).status == "pass"
    assert run_check("values_match", contacts, {**countries, "expected": ["UK", "USA"], "mode": "only"}).status == "fail"
    assert run_check("distinct_count", contacts, {**countries, "exactly": 3}).status == "pass"
    assert run_check("distinct_count", contacts, {**countries, "case_sensitive": True, "exactly": 4}).status == "pass"
    no_column = run_check("distinct_count", contacts, {"column": "Region", "at_least": 1})
    assert no_column.status == "fail" and "no column like 'Region'" in no_column.explanation
    bad = run_check("distinct_count", contacts, {"column": "Country"})
    assert bad.status == "error"  # no bound given


def test_sets_over_list_items(tmp_path: Path) -> None:
    """A python-docx bullet list: every required ingredient is listed."""
    import docx

    word = docx.Document()
    word.add_paragraph("Ingredients")
    for item in ("Flour", "Sugar", "Eggs", "sugar"):
        word.add_paragraph(item, style="List Bullet")
    word.save(str(tmp_path / "recipe.docx"))
    doc = artifactcheck.load(tmp_path / "recipe.docx")
    items = {"target": "paragraph[list_level]"}
    assert run_check("values_match", doc, {**items, "expected": ["flour", "eggs"], "mode": "all_present"}).status == "pass"
    assert run_check("values_match", doc, {**items, "expected": ["flour", "eggs", "sugar"]}).status == "pass"
    assert run_check("values_unique", doc, items).status == "fail"
    assert run_check("distinct_count", doc, {**items, "exactly": 3}).status == "pass"
