"""Every way to misuse the command line ends in one stderr line and exit 2, before any
work is done, and nothing is created where the user did not ask for it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from artifactcheck.cli import app
from tests.conftest import FIXTURES

DECK = FIXTURES / "pptx" / "deck.pptx"
RUBRIC = FIXTURES / "tasks" / "slide_deck" / "rubric.yaml"
runner = CliRunner()


def _one_error_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("artifactcheck: error:")]
    assert len(errors) == 1 and "Traceback" not in output, output
    return errors[0]


@pytest.mark.parametrize("args", [
    ["extract", str(DECK), "-o", "{dir}"],
    ["extract", str(DECK), "--assets", "{file}"],
    ["score", str(DECK), "-r", str(RUBRIC), "--html", "{dir}"],
    ["score", str(DECK), "-r", str(RUBRIC), "--json", "{dir}/missing/r.json"],
    ["render", str(DECK), "--out", "{file}"],
    ["score", str(DECK), "-r", str(RUBRIC), "--trace", "/dev/zero"],
    ["score", str(DECK), "-r", str(RUBRIC), "--trace", "{fifo}"],
    ["score", str(DECK), "-r", "/dev/zero"],
    ["score", str(DECK), "-r", str(RUBRIC), "-p", "x=[1"],
    ["batch", "{file}", "-o", "{file}"],
])
def test_unusable_arguments_are_one_line_and_exit_2(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "dir").mkdir()
    (tmp_path / "file").write_text("x")
    os.mkfifo(tmp_path / "fifo")
    before = sorted(p.name for p in tmp_path.rglob("*"))
    values = {"dir": str(tmp_path / "dir"), "file": str(tmp_path / "file"), "fifo": str(tmp_path / "fifo")}
    result = runner.invoke(app, [a.format(**values) for a in args])
    assert result.exit_code == 2, result.output
    _one_error_line(result.output)
    assert sorted(p.name for p in tmp_path.rglob("*")) == before, "nothing may be created"


def test_limits_are_checked_by_name() -> None:
    result = runner.invoke(app, ["--limit", "pixels=3", "extract", str(DECK)])
    assert result.exit_code == 2 and "unknown budget 'pixels=3' (budgets: grid_cells" in result.output


def test_the_console_script_prints_usage_errors_on_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "artifactcheck.cli", "score", str(DECK)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "artifactcheck: usage error: Missing option '--rubric' / '-r'. (see 'artifactcheck score --help')"
    ]


def test_a_limit_given_on_the_command_line_reaches_the_loader(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "artifactcheck.cli", "--limit", "tree_nodes=5", "extract", str(DECK)],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2
    assert "deck.pptx: the document tree needs more than 5 nodes (raise it with --limit tree_nodes=N" in result.stderr
