"""The header of a table of text only. A contact list (names, e-mails, cities) has no
numbers under its labels, and the detector took its *last* row for the header ("the only
row of labels"), so every column check read the wrong table. The first row is the header
when its labels do not come back in their own columns."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check


@pytest.fixture(scope="module")
def contacts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.append(["Name", "Email", "City"])
    for row in [("Ann Lee", "ann@example.org", "Oslo"), ("Bo Chen", "bo@example.org", "Lima"), ("Cy Diaz", "cy@example.org", "Oslo")]:
        ws.append(list(row))
    path = tmp_path_factory.mktemp("contacts") / "contacts.xlsx"
    wb.save(path)
    return path


def test_the_first_row_of_a_text_table_is_its_header(contacts: Path) -> None:
    doc = load(contacts, render=False)
    header = run_check("header_row", doc, {"scope": "sheet", "headers": ["Name", "Email", "City"]})
    assert header.status == "pass", header.explanation
    cities = run_check("values_match", doc, {"scope": "sheet", "column": "City", "expected": ["Oslo", "Lima"]})
    assert cities.status == "pass", cities.explanation
    unique = run_check("values_unique", doc, {"scope": "sheet", "column": "Email"})
    assert unique.status == "pass", unique.explanation


def test_a_repeated_label_is_data_not_a_header(tmp_path: Path) -> None:
    """Rows of the same words ("Yes"/"No" answers) have no header to find."""
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in [("Yes", "No"), ("No", "Yes"), ("Yes", "No")]:
        ws.append(list(row))
    wb.save(tmp_path / "answers.xlsx")
    verdict = run_check("values_match", load(tmp_path / "answers.xlsx", render=False), {"scope": "sheet", "column": "Yes", "expected": ["No", "Yes"]})
    assert verdict.status == "fail" and "no header row" in verdict.explanation, verdict.explanation
