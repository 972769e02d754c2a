"""Alternatives in rubrics: ``aggregation: any`` and ``at_least: k``, from YAML and from
code, with their outcomes; and the two examples of design/rubric-format.md scored against
workbooks written with openpyxl, the way agents write them."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import openpyxl
import pytest
from openpyxl.formatting.rule import CellIsRule
from openpyxl.styles import Font, PatternFill
from rubric_docs import letter_doc

from artifactcheck import load
from artifactcheck.errors import RubricError
from artifactcheck.rubric import check, group, load_rubric, rubric, score

REPO = Path(__file__).resolve().parents[2]


def write(tmp_path: Path, text: str, name: str = "r.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def alternatives(rule: str, *scores: float | str) -> str:
    """A rubric whose one group holds leaves of fixed scores ('raise' = a broken check)."""
    leaves = "".join(
        f"      - {{id: c{i}, check: t_raises}}\n" if s == "raise" else f"      - {{id: c{i}, check: t_fixed, params: {{score: {s}}}}}\n"
        for i, s in enumerate(scores)
    )
    return f"task: t\nsteps:\n  - id: g\n    {rule}\n    children:\n{leaves}"


@pytest.mark.usefixtures("test_checks")
@pytest.mark.parametrize(
    ("rule", "scores", "status", "outcome", "explanation"),
    [
        ("aggregation: any", (0, 1, 0.5), "pass", "decided", "any: 1/3 children at full score (1 needed)"),
        ("aggregation: any", (0, 0.9), "fail", "decided", "any: 0/2"),
        ("aggregation: any", ("raise", 1), "pass", "decided", "any: 1/2"),  # a broken alternative does not matter
        ("aggregation: any", ("raise", 0), "error", "error", "any: 0/2"),  # the broken one might have passed
        ("at_least: 2", (1, 0, 1), "pass", "decided", "at_least 2: 2/3 children at full score (2 needed)"),
        ("at_least: 2", (1, 0, 0.5), "fail", "decided", "at_least 2: 1/3"),
        ("at_least: 2", (1, 0, "raise"), "error", "error", "at_least 2: 1/3"),
        ("at_least: 2", (0, 0, "raise"), "fail", "decided", "at_least 2: 0/3"),  # even a pass could not reach 2
    ],
)
def test_any_and_at_least_scores_and_outcomes(
    tmp_path: Path, rule: str, scores: tuple[float | str, ...], status: str, outcome: str, explanation: str
) -> None:
    report = score(letter_doc(), write(tmp_path, alternatives(rule, *scores)))
    g = report.tree.children[0]
    assert (g.status, g.outcome, g.score) == (status, outcome, 1.0 if status == "pass" else 0.0)
    assert g.explanation.startswith(explanation), g.explanation
    assert g.aggregation == ("any" if "any" in rule else "at_least")


@pytest.mark.usefixtures("test_checks")
def test_at_least_alone_implies_the_aggregation_and_round_trips(tmp_path: Path) -> None:
    loaded = load_rubric(write(tmp_path, alternatives("at_least: 2", 1, 1, 0)))
    g = loaded.steps[0]
    assert (g.aggregation, g.at_least) == ("at_least", 2)  # type: ignore[union-attr]
    assert type(loaded).model_validate_json(loaded.model_dump_json()) == loaded


@pytest.mark.usefixtures("test_checks")
@pytest.mark.parametrize(
    ("rule", "line", "words"),
    [
        ("at_least: 4", 4, "at_least: 4 but it has only 3 children"),
        ("aggregation: at_least", 3, "aggregation at_least needs at_least: k"),
        ("aggregation: all\n    at_least: 2", 3, "at_least: 2 contradicts aggregation 'all'"),
        ("aggregation: any\n    strategy: sequential", 5, "strategy sequential skips every child after the first"),
        ("at_least: 0", 4, "at_least: 0 is less than the minimum of 1"),
    ],
)
def test_counting_rules_that_cannot_be_met_are_load_errors(tmp_path: Path, rule: str, line: int, words: str) -> None:
    with pytest.raises(RubricError) as info:
        load_rubric(write(tmp_path, alternatives(rule, 1, 0, 1)))
    assert words in str(info.value) and info.value.line == line, str(info.value)


@pytest.mark.usefixtures("test_checks")
def test_critical_is_refused_under_any(tmp_path: Path) -> None:
    text = alternatives("aggregation: any", 1, 0).replace("{id: c1,", "{id: c1, critical: true,")
    with pytest.raises(RubricError, match="critical has no meaning under aggregation 'any'") as info:
        load_rubric(write(tmp_path, text))
    assert info.value.line == 7  # the line of c1


@pytest.mark.usefixtures("test_checks")
def test_the_builders_say_the_same(tmp_path: Path) -> None:
    built = rubric("t", [group("g", [check("c0", "t_fixed", {"score": 1}), check("c1", "t_fixed", {"score": 0}), check("c2", "t_fixed", {"score": 1})], at_least=2)])
    assert built == load_rubric(write(tmp_path, alternatives("at_least: 2", 1, 0, 1)))
    with pytest.raises(RubricError, match="only 2 children") as info:
        group("g", [check("a", "t_fixed"), check("b", "t_fixed")], at_least=3)
    assert info.value.path == __file__ and info.value.line is not None


# -- the examples of design/rubric-format.md -------------------------------------------
def doc_examples() -> dict[str, str]:
    """The complete rubrics (``task: ...`` YAML blocks) of design/rubric-format.md, by task."""
    text = (REPO / "design" / "rubric-format.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(task: .*?)```", text, flags=re.DOTALL)
    return {re.match(r"task: (\S+)", b).group(1): b for b in blocks}  # type: ignore[union-attr]


AMOUNTS = [120, -35, 80, -12]


def budget(tmp_path: Path, how: str) -> Path:
    """A one-column budget with negative amounts, made red (or not) the way ``how`` says."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Budget"
    ws["A1"] = "Amount"
    for row, value in enumerate(AMOUNTS, start=2):
        cell = ws.cell(row=row, column=1, value=value)
        if how == "font" and value < 0:
            cell.font = Font(color="FF0000")
        if how == "number_format":
            cell.number_format = "0;[Red]-0"
    if how == "conditional_format":  # Excel's "Light Red Fill with Dark Red Text" preset
        ws.conditional_formatting.add(
            "A2:A5",
            CellIsRule(operator="lessThan", formula=["0"], font=Font(color="9C0006"), fill=PatternFill(bgColor="FFC7CE", fill_type="solid")),
        )
    path = tmp_path / f"budget_{how}.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize(("how", "verdict"), [("font", "PASS"), ("number_format", "PASS"), ("conditional_format", "PASS"), ("black", "FAIL")])
def test_example_negative_numbers_are_red_any_way(tmp_path: Path, how: str, verdict: str) -> None:
    rubric_path = write(tmp_path, doc_examples()["budget_negatives_red"])
    report = score(load(budget(tmp_path, how)), rubric_path)
    assert report.verdict == verdict, [(s.id, s.status, s.explanation) for s in report.steps]
    assert report.complete


def header_sheet(tmp_path: Path, fill: str) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for col, header in enumerate(["Paper", "Year", "Status"], start=1):
        cell = ws.cell(row=1, column=col, value=header)
        cell.fill = PatternFill(fill_type="solid", fgColor=fill.lstrip("#").upper())
        ws.cell(row=2, column=col, value="x")
    path = tmp_path / f"header_{fill.lstrip('#')}.xlsx"
    wb.save(path)
    return path


@pytest.mark.parametrize(
    ("fill", "verdict"),
    [("#d9d9d9", "PASS"), ("#efefef", "PASS"), ("#f2f2f2", "PASS"), ("#999999", "FAIL"), ("#ffffff", "FAIL"), ("#fff2cc", "FAIL")],
)
def test_example_light_grey_is_any_of_these_swatches(tmp_path: Path, fill: str, verdict: str) -> None:
    rubric_path = write(tmp_path, doc_examples()["header_light_grey"])
    report = score(load(header_sheet(tmp_path, fill)), rubric_path)
    assert report.verdict == verdict, [(s.id, s.status, s.explanation) for s in report.steps]
    passed = [s.id for s in report.steps if s.status == "pass"]
    assert (len(passed) >= 1) == (verdict == "PASS")
