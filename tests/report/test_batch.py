"""Batch scoring: manifest parsing, worker processes, resuming, tables on disk."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from artifactcheck.batch.run import read_manifest, run_batch
from artifactcheck.errors import ArtifactCheckError


@pytest.fixture
def manifest(letter_files: tuple[Path, Path], tmp_path: Path) -> Path:
    artifact, rubric = letter_files
    good = tmp_path / "good.yaml"
    good.write_text(rubric.read_text().split("  - id: title_low")[0].replace("task: letter", "task: logo_only"), encoding="utf-8")
    path = tmp_path / "runs.jsonl"
    rows = [
        {"artifact": artifact.name, "rubric": rubric.name},
        {"artifact": artifact.name, "rubric": rubric.name},
        {"artifact": artifact.name, "rubric": good.name, "run": "a"},
        {"artifact": artifact.name, "rubric": good.name, "run": "b"},
        {"artifact": "missing.docx", "rubric": good.name, "task": "nothing_produced"},
        {"artifact": artifact.name, "rubric": "absent.yaml", "task": "bad_rubric"},
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_manifest_defaults_task_and_run(manifest: Path) -> None:
    rows = read_manifest(manifest)
    assert [(r.task, r.run) for r in rows] == [
        ("letter", "0"), ("letter", "1"), ("logo_only", "a"), ("logo_only", "b"), ("nothing_produced", "0"), ("bad_rubric", "0"),
    ]
    assert rows[0].artifact == str(manifest.parent / "letter.json")


def test_manifest_errors_name_the_line(tmp_path: Path) -> None:
    path = tmp_path / "m.csv"
    path.write_text("artifact,rubric,task,colour\na.docx,r.yaml,t,red\n", encoding="utf-8")
    with pytest.raises(ArtifactCheckError, match="line 2: unknown column"):
        read_manifest(path)
    path.write_text("artifact,rubric,task,run\na.docx,r.yaml,t,1\nb.docx,r.yaml,t,1\n", encoding="utf-8")
    with pytest.raises(ArtifactCheckError, match="line 3: task 't' run '1' appears twice"):
        read_manifest(path)


def test_batch_scores_in_processes_writes_tables_and_resumes(manifest: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    outcomes = run_batch(manifest, out, jobs=2, progress=False)
    assert [o.state for o in outcomes] == ["scored"] * 5 + ["error"]
    assert "absent.yaml" in outcomes[-1].message
    summary = json.loads((out / "summary.json").read_text())
    overall = summary["tables"]["overall"][0]
    assert (overall["runs"], overall["tasks"], overall["success_rate"]) == (5, 3, 0.4)
    assert summary["rows_not_scored"] == 1
    pak = {row["k"]: row for row in summary["tables"]["pass_at_k"]}
    assert pak[1]["pass_at_k"] == pytest.approx((0 + 1 + 0) / 3) and pak[2] == {"k": 2, "tasks": 2, "pass_at_k": 0.5}
    with (out / "runs.csv").open() as handle:
        runs = list(csv.DictReader(handle))
    assert [r["verdict"] for r in runs] == ["FAIL", "FAIL", "PASS", "PASS", "FAIL", ""]
    for name in ("overall", "pass_at_k", "by_mechanism", "by_step_type", "by_format", "attribution"):
        assert (out / f"{name}.csv").read_text().count("\n") >= 2
    assert "## Failure attribution" in (out / "summary.md").read_text()

    # resume: nothing is scored again; a lost report (an interrupted run) is redone
    report = out / "reports" / "letter" / "run-1.json"
    before = (out / "reports" / "letter" / "run-0.json").stat().st_mtime_ns
    report.unlink()
    (report.parent / ".run-1.json.12345.tmp").write_text("{half a report", encoding="utf-8")
    again = run_batch(manifest, out, jobs=1, progress=False)
    assert [o.state for o in again] == ["resumed", "scored", "resumed", "resumed", "resumed", "error"]
    assert (out / "reports" / "letter" / "run-0.json").stat().st_mtime_ns == before
    # a changed artifact is scored again
    artifact = manifest.parent / "letter.json"
    artifact.write_text(artifact.read_text().replace('"Quarterly letter"', '"Quarterly letter!"'), encoding="utf-8")
    third = run_batch(manifest, out, jobs=1, progress=False)
    assert [o.state for o in third][:4] == ["scored"] * 4
    # --html writes a report page per row next to its JSON
    run_batch(manifest, out, jobs=1, html=True, force=True, progress=False)
    assert "<svg" in (out / "reports" / "letter" / "run-0.html").read_text(encoding="utf-8")
    # a corrupt report is not "complete"
    (out / "reports" / "logo_only" / "run-a.json").write_text("{", encoding="utf-8")
    assert run_batch(manifest, out, jobs=1, progress=False)[2].state == "scored"
    shutil.rmtree(out)


def test_the_batch_command_exit_codes(manifest: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from artifactcheck.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["batch", str(manifest), "-o", str(tmp_path / "o"), "-j", "1"])
    assert result.exit_code == 2 and "bad_rubric run 0) not scored" in result.output
    good = tmp_path / "good.csv"
    good.write_text("artifact,rubric,run\nletter.json,good.yaml,0\nletter.json,good.yaml,1\n", encoding="utf-8")
    result = runner.invoke(app, ["batch", str(good), "-o", str(tmp_path / "o2"), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "2 scored" in result.output and (tmp_path / "o2" / "summary.md").is_file()
