"""The public pytest helpers in artifactcheck.testing."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck.rubric import score
from artifactcheck.testing import assert_matches_expected, assert_scores, report_summary


def test_assert_scores_accepts_matching_expectations(letter_files: tuple[Path, Path]) -> None:
    artifact, rubric = letter_files
    report = assert_scores(artifact, rubric, {"verdict": "FAIL", "logo": "pass", "title_low": 0.0, "photo": "error", "evaluator_errors": 1})
    assert_scores(report, expected=0.0)
    assert_scores(report, expected="FAIL")


def test_assert_scores_lists_every_mismatch_with_explanations(letter_files: tuple[Path, Path]) -> None:
    artifact, rubric = letter_files
    with pytest.raises(AssertionError) as info:
        assert_scores(artifact, rubric, {"verdict": "PASS", "title_low": "pass", "photo": "decided", "nope": "pass"})
    message = str(info.value)
    assert "verdict: expected 'PASS', got 'FAIL'" in message
    assert "title_low: expected pass, got fail/decided" in message and "bottom third" in message
    assert "photo: expected decided, got error/error" in message
    assert "nope: no such step" in message


def test_expected_reports_compare_and_regenerate(letter_files: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    artifact, rubric = letter_files
    report = score(artifact, rubric)
    expected = tmp_path / "expected.json"
    with pytest.raises(AssertionError, match="no expected report"):
        assert_matches_expected(report, expected)
    monkeypatch.setenv("ARTIFACTCHECK_REGEN_GOLDEN", "1")
    assert_matches_expected(report, expected)
    monkeypatch.delenv("ARTIFACTCHECK_REGEN_GOLDEN")
    assert_matches_expected(report, expected)
    expected.write_text(expected.read_text().replace('"status": "pass"', '"status": "fail"', 1))
    with pytest.raises(AssertionError, match="step logo: expected"):
        assert_matches_expected(report, expected)
    assert "seconds" not in str(report_summary(report))
