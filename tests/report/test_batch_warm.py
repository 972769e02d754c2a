"""``batch`` starts a warm LibreOffice pool when rows need rendering: in-process with
``--jobs 1`` (rendering ahead), shared with worker processes with ``--jobs 2``; the
reports are the ones a cold batch writes."""

from __future__ import annotations

import csv
import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from artifactcheck.batch.rendering import files_to_render
from artifactcheck.batch.run import run_batch
from artifactcheck.report.json_writer import strip_timings
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow

TASKS = FIXTURES / "tasks"
ROWS = [("lesson_plan", "fail_flat_bullets"), ("formal_letter", "pass")]


@pytest.fixture
def manifest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("ARTIFACTCHECK_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ARTIFACTCHECK_RENDERER", raising=False)
    monkeypatch.delenv("ARTIFACTCHECK_RENDER_POOL", raising=False)
    path = tmp_path / "manifest.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["task", "run", "artifact", "rubric"])
        for task, run in ROWS:
            writer.writerow([task, run, str(TASKS / task / f"{run}.docx"), str(TASKS / task / "rubric.yaml")])
    yield path


def _reports(out: Path) -> dict[str, object]:
    reports = sorted(p for p in (out / "reports").rglob("run-*.json") if not p.name.endswith(".inputs.json"))
    return {str(p.relative_to(out)): strip_timings(json.loads(p.read_text())) for p in reports}


def test_jobs_1_renders_ahead_through_a_pool_and_matches_cold(manifest: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    artifacts = [str(TASKS / t / f"{r}.docx") for t, r in ROWS]
    assert len(files_to_render(artifacts)) == 2
    with caplog.at_level(logging.INFO, logger="artifactcheck.batch.rendering"):
        outcomes = run_batch(manifest, tmp_path / "warm", jobs=1, progress=False)
    assert [o.state for o in outcomes] == ["scored"] * 2
    assert "warm LibreOffice pool of 2 for 2 file(s) to render (rendering ahead)" in caplog.text
    assert files_to_render(artifacts) == []  # everything is in the cache now
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(tmp_path / "cold-cache")  # restored by monkeypatch
    run_batch(manifest, tmp_path / "cold", jobs=1, progress=False, renderer="cold")
    assert _reports(tmp_path / "warm") == _reports(tmp_path / "cold")


def test_jobs_2_workers_share_the_coordinators_pool(manifest: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="artifactcheck.batch.rendering"):
        outcomes = run_batch(manifest, tmp_path / "out", jobs=2, progress=False, renderer="warm")
    assert [o.state for o in outcomes] == ["scored"] * 2, [o.message for o in outcomes]
    assert "shared with 2 workers" in caplog.text
    verdicts = {name: r["verdict"] for name, r in _reports(tmp_path / "out").items()}  # type: ignore[index]
    assert sorted(verdicts.values()) == ["PARTIAL", "PASS"]  # as in fixtures/tasks/*/expected
