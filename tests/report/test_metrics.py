"""Batch metrics: pass@k against brute-force enumeration, and the tables over real reports."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artifactcheck.report.metrics import (
    attribution_table,
    by_format_table,
    by_mechanism_table,
    markdown_table,
    overall_table,
    pass_at_k,
    pass_at_k_table,
)
from artifactcheck.rubric import score


@given(st.integers(1, 7).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))))
def test_pass_at_k_is_the_share_of_k_subsets_with_a_success(nck: tuple[int, int, int]) -> None:
    n, c, k = nck
    outcomes = [True] * c + [False] * (n - c)
    subsets = list(itertools.combinations(range(n), k))
    expected = sum(any(outcomes[i] for i in s) for s in subsets) / len(subsets)
    assert pass_at_k(n, c, k) == pytest.approx(expected)


def test_pass_at_k_refuses_k_above_n() -> None:
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_tables_over_real_reports(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    artifact, rubric = letter_files
    partial = score(artifact, rubric)
    good_rubric = tmp_path / "good.yaml"
    good_rubric.write_text(rubric.read_text().split("  - id: title_low")[0], encoding="utf-8")
    full = score(artifact, good_rubric)
    assert full.success and not partial.success
    reports = [partial, full, partial]
    tasks = ["a", "a", "b"]
    overall = overall_table(reports, tasks)[0]
    assert overall["runs"] == 3 and overall["tasks"] == 2
    assert overall["success_rate"] == pytest.approx(1 / 3)
    assert overall["runs_with_evaluator_errors"] == 2
    pak = pass_at_k_table(reports, tasks)
    assert pak[0] == {"k": 1, "tasks": 2, "pass_at_k": pytest.approx((0.5 + 0.0) / 2)}
    assert pak[1] == {"k": 2, "tasks": 1, "pass_at_k": 1.0}
    mech = by_mechanism_table(reports)
    assert mech[0]["mechanism"] == "geometric" and mech[0]["steps"] == 7
    assert mech[0]["error"] == 2 and mech[0]["failed"] == 2 and mech[0]["passed"] == 3
    assert mech[0]["pass_rate"] == pytest.approx(3 / 5)
    assert by_format_table(reports)[0]["format"] == "docx"
    attribution = {row["cause"]: row for row in attribution_table(reports)}
    assert attribution["decided"]["steps"] == 2 and attribution["error"]["steps"] == 2
    assert attribution["decided"]["runs"] == 2  # both partial runs failed a decided step
    assert "| geometric | 7 |" in markdown_table(mech)
