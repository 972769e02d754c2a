"""Batch rows never share a report file, and a row that breaks says so (outcome and
runs.csv) and is redone on the next run."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from artifactcheck.batch.manifest import _safe
from artifactcheck.batch.run import read_manifest, run_batch
from artifactcheck.errors import ArtifactCheckError
from tests.conftest import FIXTURES

TASK = FIXTURES / "tasks" / "slide_deck"


def _manifest(tmp_path: Path, rows: list[tuple[str, str]]) -> Path:
    path = tmp_path / "m.csv"
    lines = ["artifact,rubric,task,run"] + [f"{TASK / 'pass.pptx'},{TASK / 'rubric.yaml'},{task},{run}" for task, run in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("first", "second"), [
    (("deck a", "0"), ("deck_a", "0")),
    (("deck a", "0"), ("deck/a", "0")),
    (("deck", "1 0"), ("deck", "1_0")),
    (("Deck", "0"), ("deck", "0")),  # one file on case-insensitive disks
    (("..", "0"), ("_", "0")),
])
def test_rows_that_would_share_a_report_file_are_refused(tmp_path: Path, first: tuple[str, str], second: tuple[str, str]) -> None:
    with pytest.raises(ArtifactCheckError, match=r"line 3: .* same report file as line 2"):
        read_manifest(_manifest(tmp_path, [first, second]))


def test_names_never_leave_the_reports_folder(tmp_path: Path) -> None:
    for name in ("../../etc", "/abs/x", "..", ".", "a" * 400, "\x00", "é/ü"):
        safe = _safe(name)
        assert "/" not in safe and not safe.startswith(".") and 0 < len(safe) <= 80
    assert _safe("a" * 400) != _safe("a" * 401)
    rows = read_manifest(_manifest(tmp_path, [("../../x", "../0"), ("a" * 300, "0")]))
    for row in rows:
        assert row.report_path(tmp_path / "out").resolve().is_relative_to((tmp_path / "out" / "reports").resolve())


def test_a_row_whose_html_report_breaks_says_so_and_is_redone(tmp_path: Path) -> None:
    manifest = _manifest(tmp_path, [("deck", "0")])
    out = tmp_path / "out"
    (out / "reports" / "deck" / "run-0.html").mkdir(parents=True)  # the HTML report cannot be written
    (outcome,) = run_batch(manifest, out, jobs=1, html=True, progress=False)
    assert outcome.state == "error" and outcome.message.startswith("writing the HTML report: ")
    with (out / "runs.csv").open() as fh:
        (record,) = list(csv.DictReader(fh))
    assert record["state"] == "error" and "writing the HTML report" in record["message"]
    (out / "reports" / "deck" / "run-0.html").rmdir()
    (again,) = run_batch(manifest, out, jobs=1, html=True, progress=False)
    assert again.state == "scored" and (out / "reports" / "deck" / "run-0.html").is_file()
