"""Running a rubric: outcomes, requires, sequential skipping, evaluator errors kept apart
from artifact failures, determinism, and rubrics built in code."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from rubric_docs import letter_doc

from artifactcheck.report import strip_timings
from artifactcheck.rubric import check, group, load_rubric, rubric, score

pytestmark = pytest.mark.usefixtures("test_checks")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "r.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def leaf(id: str, value: float, extra: str = "") -> str:
    return f"  - {{id: {id}, step_type: content, check: t_fixed, params: {{score: {value}}}{extra}}}\n"


def test_scores_and_counts_follow_the_rules(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n" + leaf("a", 1, ", critical: true") + leaf("b", 0.5, ", weight: 3") + leaf("c", 1))
    report = score(letter_doc(), path)
    assert report.score == pytest.approx(0.625)
    assert (report.verdict, report.success, report.requirements_met, report.requirements_total) == ("PARTIAL", False, 2, 3)
    assert report.counts.model_dump() == {"decided": 3, "passed": 2, "failed": 1, "needs_trace": 0, "error": 0, "skipped": 0}
    assert report.tree.points == (3.5, 5.0)  # all children, critical included


def test_a_broken_check_is_an_error_step_and_the_run_goes_on(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n" + leaf("a", 1) + "  - {id: b, step_type: content, check: t_raises}\n" + leaf("c", 1))
    report = score(letter_doc(), path)
    b = report.step("b")
    assert (b.status, b.outcome, b.score) == ("error", "error", None)
    assert b.error is not None and "boom in a check" in str(b.error["message"])
    assert report.step("c").status == "pass"
    assert report.evaluator_errors == 1 and report.counts.failed == 0
    assert report.score == pytest.approx(2 / 3)  # no credit for what was not shown, counted apart
    assert report.complete is False


def test_a_critical_error_zeroes_the_parent_but_is_not_a_failure(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n  - {id: b, step_type: content, critical: true, check: t_raises}\n" + leaf("c", 1))
    report = score(letter_doc(), path)
    assert report.score == 0.0 and report.verdict == "FAIL"
    assert report.counts.failed == 0 and report.evaluator_errors == 1
    assert report.tree.outcome == "error" and report.tree.status == "error"


def test_a_decided_critical_failure_decides_the_parent_despite_errors(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n" + leaf("a", 0, ", critical: true") + "  - {id: b, step_type: content, check: t_raises}\n")
    report = score(letter_doc(), path)
    assert report.tree.outcome == "decided" and report.tree.status == "fail"


def test_requires_skips_with_the_reason(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n" + leaf("a", 0) + leaf("b", 1, ", requires: [a]") + leaf("c", 1))
    report = score(letter_doc(), path)
    b = report.step("b")
    assert (b.status, b.outcome, b.score) == ("skipped", "skipped", None)
    assert "requires 'a' to pass" in b.explanation
    assert report.score == pytest.approx(1 / 3)
    passed = score(letter_doc(), write(tmp_path, "task: t\nsteps:\n" + leaf("a", 1) + leaf("b", 1, ", requires: [a]")))
    assert passed.step("b").status == "pass"


def test_sequential_skips_everything_after_the_first_partial_child(tmp_path: Path) -> None:
    text = "task: t\nstrategy: sequential\nsteps:\n" + leaf("a", 1) + leaf("b", 0.5) + leaf("c", 1) + leaf("d", 1)
    report = score(letter_doc(), write(tmp_path, text))
    assert [s.status for s in report.steps] == ["pass", "fail", "skipped", "skipped"]
    assert "sequential: earlier step 'b'" in report.step("c").explanation
    assert report.score == pytest.approx(1.5 / 4)
    assert report.counts.skipped == 2


def test_sequential_skip_reaches_into_groups(tmp_path: Path) -> None:
    text = """
    task: t
    strategy: sequential
    steps:
      - {id: a, step_type: content, check: t_fixed, params: {score: 0}}
      - id: g
        step_type: content
        children:
          - {id: g1, check: t_fixed}
    """
    report = score(letter_doc(), write(tmp_path, text))
    assert report.step("g1").status == "skipped"
    assert report.tree.children[1].status == "skipped"


def test_all_and_points_aggregation_in_a_run(tmp_path: Path) -> None:
    text = "task: t\naggregation: all\nsteps:\n" + leaf("a", 1) + leaf("b", 0.9)
    assert score(letter_doc(), write(tmp_path, text)).score == 0.0
    text = "task: t\naggregation: points\nsteps:\n" + leaf("a", 1, ", weight: 2") + leaf("b", 0.5, ", weight: 2")
    assert score(letter_doc(), write(tmp_path, text)).score == pytest.approx(0.75)


def test_needs_trace_is_its_own_outcome(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n  - {id: v, step_type: web_visit, check: t_trace}\n" + leaf("a", 1))
    report = score(letter_doc(), path)
    assert report.step("v").outcome == "needs_trace" and report.counts.needs_trace == 1
    assert report.counts.failed == 0 and report.trace is None
    trace = tmp_path / "trace.jsonl"
    trace.write_text('{"url": "https://example.org/a"}\n{"url": "https://other.net"}\n', encoding="utf-8")
    with_trace = score(letter_doc(), path, trace=trace)
    assert with_trace.step("v").status == "pass" and with_trace.success
    assert with_trace.trace == {"entries": 2}


def test_same_input_gives_byte_identical_reports_apart_from_timings(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n" + leaf("a", 1, ", critical: true") + leaf("b", 0.5) + "  - {id: c, step_type: spatial, check: in_region, params: {target: image, region: upper-left}}\n")
    texts = [json.dumps(strip_timings(json.loads(score(letter_doc(), path).to_json())), indent=2) for _ in range(2)]
    assert texts[0] == texts[1]
    first, second = score(letter_doc(), path).to_json(), score(letter_doc(), path).to_json()
    same_shape = [line for line in first.splitlines() if '"seconds"' not in line] == [line for line in second.splitlines() if '"seconds"' not in line]
    assert same_shape


FILE_RUBRIC = """
task: letter
description: a letter with a logo
steps:
  - id: logo
    step_type: spatial
    critical: true
    check: in_region
    params: {target: "document > image:first-child", region: upper-left}
  - id: body
    step_type: content
    aggregation: points
    children:
      - {id: fixed_a, check: t_fixed, weight: 2}
      - {id: fixed_b, check: t_fixed, params: {score: 0.25}, weight: 2}
"""


def test_a_rubric_built_in_code_equals_the_file_and_scores_the_same(tmp_path: Path) -> None:
    built = rubric(
        "letter",
        [
            check("logo", "in_region", {"target": "document > image:first-child", "region": "upper-left"}, step_type="spatial", critical=True),
            group(
                "body",
                [check("fixed_a", "t_fixed", weight=2), check("fixed_b", "t_fixed", {"score": 0.25}, weight=2)],
                step_type="content",
                aggregation="points",
            ),
        ],
        description="a letter with a logo",
    )
    path = write(tmp_path, FILE_RUBRIC)
    assert built == load_rubric(path)
    from_code = strip_timings(json.loads(score(letter_doc(), built).to_json()))
    from_file = strip_timings(json.loads(score(letter_doc(), path).to_json()))
    from_file["rubric"]["path"] = None
    assert from_code == from_file
    assert from_code["score"] == pytest.approx(0.625)


def test_a_code_rubric_is_validated_like_a_file() -> None:
    from artifactcheck.errors import RubricError

    with pytest.raises(RubricError, match="unknown check 'no_such_check'"):
        rubric("t", [check("a", "no_such_check", step_type="content")])


def test_an_unreadable_artifact_fails_every_step_decided(tmp_path: Path) -> None:
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 this is not a real zip")
    report = score(broken, write(tmp_path, "task: t\nsteps:\n" + leaf("a", 1) + leaf("b", 1)))
    assert report.verdict == "FAIL" and report.artifact_error
    assert {s.status for s in report.steps} == {"fail"} and report.counts.decided == 2
    assert report.artifact.sha256 is not None and report.artifact.path == str(broken)


def test_located_boxes_come_from_the_nodes_the_evidence_names(tmp_path: Path) -> None:
    path = write(tmp_path, "task: t\nsteps:\n  - {id: title, step_type: structural, check: exists, params: {target: paragraph}}\n")
    report = score(letter_doc(), path)
    located = report.step("title").located
    assert {"id": "body/p1", "page": 0, "x0": 72.0, "top": 110.0, "x1": 540.0, "bottom": 140.0} in located
    assert all(set(entry) <= {"id", "page", "x0", "top", "x1", "bottom", "ok"} for entry in located)


def test_a_rubric_as_plain_data_scores_like_the_file(tmp_path: Path) -> None:
    import yaml

    from artifactcheck.errors import RubricError

    path = write(tmp_path, FILE_RUBRIC)
    data = yaml.safe_load(path.read_text())
    from_dict = strip_timings(json.loads(score(letter_doc(), data).to_json()))
    from_file = strip_timings(json.loads(score(letter_doc(), path).to_json()))
    from_file["rubric"]["path"] = None
    assert from_dict == from_file
    data["steps"][0]["wieght"] = 1
    with pytest.raises(RubricError, match="wieght"):
        score(letter_doc(), data)


def test_a_group_failed_by_a_decided_step_stays_decided_despite_the_skips_it_causes(tmp_path: Path) -> None:
    text = """
    task: t
    steps:
      - id: seq
        step_type: content
        strategy: sequential
        children:
          - {id: a, check: t_fixed, params: {score: 0}}
          - {id: b, check: t_fixed}
      - id: req
        step_type: content
        children:
          - {id: c, check: t_raises}
          - {id: d, check: t_fixed, requires: [c]}
    """
    report = score(letter_doc(), write(tmp_path, text))
    seq, req = report.tree.children
    assert (seq.status, seq.outcome) == ("fail", "decided")  # b skipped because a failed, decided
    assert report.step("b").outcome == "skipped"
    assert (req.status, req.outcome) == ("error", "error")  # d skipped because c broke: not decided
