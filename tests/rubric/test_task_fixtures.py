"""The task fixtures (fixtures/tasks/*) as regression tests: every artifact is scored
against its task's rubric and compared with its reviewed expected report (scores,
verdicts, per-step outcomes; not timings). Passing artifacts must PASS, each failing
variant must fail a decided step, and no fixture may have an evaluator error.

Regenerate with ARTIFACTCHECK_REGEN_GOLDEN=1 and review the diff. The .docx fixtures are
rendered by LibreOffice (once per file; cached by content) and recipe_ocr runs tesseract.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifactcheck.report import strip_timings
from artifactcheck.rubric import load_rubric, score
from artifactcheck.testing import assert_matches_expected

TASKS = Path(__file__).resolve().parents[2] / "fixtures" / "tasks"
SUFFIXES = (".docx", ".pptx", ".xlsx", ".pdf", ".csv", ".odt", ".png")
SLOW = (".docx", ".odt", ".pdf", ".png")  # LibreOffice renders or converts, or tesseract reads


def variants() -> list[pytest.param]:  # type: ignore[valid-type]
    found = []
    for folder in sorted(p for p in TASKS.iterdir() if (p / "rubric.yaml").is_file()):
        for artifact in sorted(p for p in folder.iterdir() if p.suffix in SUFFIXES):
            marks = [pytest.mark.slow] if artifact.suffix in SLOW else []
            found.append(pytest.param(folder.name, artifact.name, marks=marks, id=f"{folder.name}/{artifact.stem}"))
    return found


def test_there_are_six_tasks_each_with_a_pass_and_failing_variants() -> None:
    tasks = {}
    for folder in TASKS.iterdir():
        if (folder / "rubric.yaml").is_file():
            tasks[folder.name] = sorted(p.stem for p in folder.iterdir() if p.suffix in SUFFIXES)
    assert len(tasks) >= 6
    for name, stems in tasks.items():
        assert "pass" in stems and any(s.startswith("fail_") for s in stems), name
        load_rubric(TASKS / name / "rubric.yaml")  # every rubric is valid against today's checks


@pytest.mark.parametrize(("task", "artifact"), variants())
def test_fixture_scores_as_expected(task: str, artifact: str) -> None:
    folder = TASKS / task
    trace = folder / "trace.jsonl"
    report = score(folder / artifact, folder / "rubric.yaml", assets=folder / "assets", trace=trace if trace.is_file() else None)
    undecided = [(s.id, s.outcome, s.explanation) for s in report.steps if s.outcome in ("error", "needs_trace")]
    assert not undecided, undecided  # skips by requires/sequential are expected; errors are not
    if artifact.startswith("pass"):
        assert report.verdict == "PASS", [(s.id, s.explanation) for s in report.steps if s.status != "pass"]
    else:
        assert report.verdict != "PASS" and report.counts.failed >= 1
    assert_matches_expected(report, folder / "expected" / f"{Path(artifact).stem}.json")


@pytest.mark.slow
def test_without_its_trace_a_web_visit_step_needs_a_trace_and_is_not_failed() -> None:
    folder = TASKS / "reference_list"
    report = score(folder / "pass.docx", folder / "rubric.yaml")
    step = report.step("sources_visited")
    assert (step.status, step.outcome, step.score) == ("skipped", "needs_trace", None)
    assert report.counts.needs_trace == 1 and report.counts.failed == 0
    assert report.verdict == "PARTIAL" and not report.complete


def test_a_real_file_scores_byte_identically_apart_from_timings() -> None:
    folder = TASKS / "slide_deck"
    runs = [score(folder / "fail_credit_top_right.pptx", folder / "rubric.yaml").to_json() for _ in range(2)]
    first, second = (json.dumps(strip_timings(json.loads(text)), indent=2) for text in runs)
    assert first == second
