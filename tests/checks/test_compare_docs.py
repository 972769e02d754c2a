"""The rubric in design/compare.md ("Workbooks") is valid and scores the gold_workbook
task fixture as the page says: the passing workbook passes every step, a failing variant
fails the step about what it gets wrong."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from artifactcheck.rubric import score

REPO = Path(__file__).resolve().parents[2]
TASK = REPO / "fixtures" / "tasks" / "gold_workbook"


def workbook_rubric() -> str:
    page = (REPO / "design" / "compare.md").read_text(encoding="utf-8")
    section = page[page.index("## Workbooks"):]
    match = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert match is not None, "no yaml block under ## Workbooks"
    return match.group(1)


@pytest.mark.parametrize(
    ("artifact", "failing"),
    [
        ("pass.xlsx", set()),
        ("fail_total_typed.xlsx", {"total_is_a_formula"}),
        ("fail_no_fill.xlsx", {"header_fill"}),
        ("fail_sheet_renamed.xlsx", {"same_sheets"}),
    ],
)
def test_the_documented_rubric_scores_the_fixture(artifact: str, failing: set[str], tmp_path: Path) -> None:
    rubric = tmp_path / "rubric.yaml"
    rubric.write_text(workbook_rubric(), encoding="utf-8")
    report = score(TASK / artifact, rubric, assets=TASK / "assets")
    assert {s.id for s in report.steps if s.status == "fail"} == failing, [(s.id, s.explanation) for s in report.steps]
    assert not [s for s in report.steps if s.outcome == "error"]
