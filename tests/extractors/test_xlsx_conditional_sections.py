"""Number formats with conditions (``[Red][<0]0;0``): which section writes the minus
sign. An agent colours negatives red with a condition and no minus; the cell shows
"9004" in red, and "is B1 9004?" must read what is shown. The truth is the text
LibreOffice prints for each cell."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck import load, run_check
from tests.extractors.xlsx_look import format_cases_book, printed_by_label

pytestmark = pytest.mark.slow

CASES = [
    ("[Red][<0]0;0", -9004),
    ("[<=-25]0;0", -8004),
    ("[<-10]0;0", -7004),
    ("[=-5]0;0", -5),
    ("[<=0]0;0", -6004),
    ("[<5]0;0", -5004),
    ("[>=1000]0;0", -4004),
    ("[Red][<0]0.0", -77),
    ('[>100]0;[<-100]"neg "0;0', -555),
    ("[Red][<0]0;[Blue][>1000]0;0", -1404),  # [<0] before [>1000]: not "the negative section"
    ("[>1000]0;[<0]0;0", -1303),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return format_cases_book(tmp_path_factory.mktemp("sections") / "sections.xlsx", CASES)


def test_each_cell_shows_what_the_render_prints(book: Path) -> None:
    printed = printed_by_label(book)
    doc = load(book)
    for i in range(1, len(CASES) + 1):
        cell = doc.select_one(f"cell[ref='B{i}']")
        assert cell is not None
        assert cell.text == printed[f"case{i}"], (CASES[i - 1], cell.text, printed[f"case{i}"])
    shown = run_check("text_equals", doc, {"target": "cell[ref='B1']", "expected": "9004"})
    assert shown.status == "pass", shown.explanation
