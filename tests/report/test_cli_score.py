"""``artifactcheck score``: the table, the files it writes, the exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from artifactcheck.cli import app

runner = CliRunner()


def test_pass_exits_0_and_writes_json_and_html(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    artifact, rubric = letter_files
    good = tmp_path / "good.yaml"
    good.write_text(rubric.read_text().split("  - id: title_low")[0], encoding="utf-8")
    result = runner.invoke(app, ["score", str(artifact), "--rubric", str(good), "--json", str(tmp_path / "r.json"), "--html", str(tmp_path / "r.html")])
    assert result.exit_code == 0, result.output
    assert "PASS" in result.output and "logo" in result.output and "geometric" in result.output
    data = json.loads((tmp_path / "r.json").read_text())
    assert list(data)[:9] == ["report_version", "task", "artifact", "score", "success", "verdict", "requirements_met", "requirements_total", "complete"]
    assert (tmp_path / "r.html").read_text().startswith("<!DOCTYPE html>")


def test_fail_without_errors_exits_1(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    artifact, rubric = letter_files
    no_photo = tmp_path / "no_photo.yaml"
    no_photo.write_text(rubric.read_text().split("  - id: photo")[0], encoding="utf-8")
    result = runner.invoke(app, ["score", str(artifact), "-r", str(no_photo)])
    assert result.exit_code == 1, result.output
    assert "FAIL" in result.output and "title_low" in result.output  # the critical logo passed, the only other step failed


def test_evaluator_errors_exit_2(letter_files: tuple[Path, Path]) -> None:
    artifact, rubric = letter_files
    result = runner.invoke(app, ["score", str(artifact), "-r", str(rubric)])
    assert result.exit_code == 2, result.output
    assert "evaluator errors 1" in result.output


def test_a_bad_rubric_exits_2_with_file_and_line(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    artifact, rubric = letter_files
    bad = tmp_path / "bad.yaml"
    bad.write_text(rubric.read_text().replace("critical: true", "critcal: true"), encoding="utf-8")
    result = runner.invoke(app, ["score", str(artifact), "-r", str(bad)])
    assert result.exit_code == 2
    assert f"{bad}: line 6: unknown key 'critcal'" in result.output


def test_params_from_the_command_line(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    artifact, rubric = letter_files
    templated = tmp_path / "t.yaml"
    templated.write_text(rubric.read_text().split("  - id: title_low")[0].replace("region: upper-left", 'region: "${corner}"'), encoding="utf-8")
    assert runner.invoke(app, ["score", str(artifact), "-r", str(templated), "-p", "corner=upper-left"]).exit_code == 0
    assert runner.invoke(app, ["score", str(artifact), "-r", str(templated), "-p", "corner=lower-right"]).exit_code == 1
    missing = runner.invoke(app, ["score", str(artifact), "-r", str(templated)])
    assert missing.exit_code == 2 and "${corner} is not defined" in missing.output
