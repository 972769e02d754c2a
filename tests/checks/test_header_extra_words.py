"""Column headers matched by name: the sheet's header may carry extra words ("Score
(%)" for "score"), the expected name may not. A sheet headed Name | Dept | Score | Grade
has no "Max score" and no "Department name" column; they matched "Score" and "Name"
because either side's words being a subset of the other's scored 100."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Dept", "Score (%)", "Grade"])
    for i, (dept, score) in enumerate((("Ops", 71), ("Sales", 88), ("IT", 95)), 1):
        ws.append([f"Person {i}", dept, score, "B"])
    path = tmp_path_factory.mktemp("headers") / "scores.xlsx"
    wb.save(str(path))
    return path


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        (["Name", "Score", "Grade"], "pass"),  # "Score (%)" has an extra word: still Score
        (["Scor", "Grade"], "pass"),  # a typo is close
        (["Max score"], "fail"),
        (["Department name"], "fail"),
        (["Final Grade"], "fail"),
    ],
)
def test_expected_header_words_must_all_be_there(sheet: Path, headers: list[str], status: str) -> None:
    verdict = run_check("columns_match", load(sheet, recalculate=False), {"headers": headers})
    assert verdict.status == status, (headers, verdict.explanation)
