"""Number formats that lay digits into a template ("000-00-0000", "(###) ###-####") or
show a fraction ("# ?/?"). An agent formats an SSN, a phone number or a measurement
with openpyxl; "is the phone number shown as (555) 123-4567?" must read what is shown.
The tree showed 123456789 and 2.75. The truth is the text LibreOffice prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck import load, run_check
from tests.extractors.xlsx_look import format_cases_book, printed_by_label

pytestmark = pytest.mark.slow

CASES = [
    ("000-00-0000", 123456789),
    ("(###) ###-####", 5551234567),
    ("(###) ###-####", 1234567),
    ("00000-0000", 123450001),
    ("00000-0000", 1234),
    ("000-00-0000", -123456789),
    ("000-00-0000", 0),
    ("# ##0", 1234567),
    ("# ?/?", 2.75),
    ("# ?/?", 0.75),
    ("# ?/?", 3.0),
    ("# ?/?", -2.75),
    ("# ??/??", 1.234),
    ("# ?/8", 0.5),
    ("?/?", 2.125),
    ("# ?/4", 2.7),
    ("# ?/?", 0.001),
    ("0 ?/?", 5.5),
    ("# ???/???", 12.34),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return format_cases_book(tmp_path_factory.mktemp("templates") / "templates.xlsx", CASES, width=24)


def test_each_cell_shows_what_the_render_prints(book: Path) -> None:
    printed = printed_by_label(book)
    doc = load(book)
    for i in range(1, len(CASES) + 1):
        cell = doc.select_one(f"cell[ref='B{i}']")
        assert cell is not None
        assert cell.text.strip() == printed[f"case{i}"], (CASES[i - 1], cell.text, printed[f"case{i}"])
    phone = run_check("text_equals", doc, {"target": "cell[ref='B2']", "expected": "(555) 123-4567"})
    assert phone.status == "pass", phone.explanation
    measure = run_check("text_equals", doc, {"target": "cell[ref='B9']", "expected": "2 3/4"})
    assert measure.status == "pass", measure.explanation
