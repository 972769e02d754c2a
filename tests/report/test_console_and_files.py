"""Reports people can read: the console table prints selectors and values literally and,
outside a terminal, in full; report files get the user's umask like any file they write."""

from __future__ import annotations

import io
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from artifactcheck.checks.examples import tiny_doc
from artifactcheck.cli import app
from artifactcheck.report.console import print_report
from artifactcheck.report.html import write_report_html
from artifactcheck.report.json_writer import current_umask, write_report_json
from artifactcheck.report.model import Report
from artifactcheck.rubric import check, rubric, score

SELECTOR = "footer run[field='PAGE']"
LONG = "the phrase " + " ".join(f"word{i}" for i in range(60)) + " ends here"


@pytest.fixture(scope="module")
def report() -> Report:
    built = rubric(
        "markup[bold]",
        [
            check("page_number", "exists", {"target": SELECTOR}),
            check("long", "text_contains", {"phrases": [LONG]}),
        ],
    )
    return score(tiny_doc(), built)


def printed(report: Report, *, terminal: bool, width: int = 80) -> str:
    out = io.StringIO()
    console = Console(file=out, width=width, force_terminal=terminal, color_system=None)
    print_report(report, console)
    return out.getvalue()


def unwrapped(text: str) -> str:
    """Table text with borders, padding and line breaks removed, for substring tests."""
    return re.sub(r"[\s│┃┏┓┗┛━─┡┩└┘┌┐╇╈╋┼╭╮╰╯|]+", "", text)


def test_brackets_print_as_written(report: Report) -> None:
    text = printed(report, terminal=True, width=200)
    assert "page_number" in text and "task markup[bold]" in text
    explanation = report.step("page_number").explanation
    assert SELECTOR in explanation  # the check names its selector...
    assert SELECTOR in text  # ...and the table shows it whole


def test_outside_a_terminal_explanations_are_not_cut(report: Report) -> None:
    text = printed(report, terminal=False, width=80)
    assert max(len(line) for line in text.splitlines()) <= 80
    full = report.step("long").explanation
    assert len(full) > 200
    assert unwrapped(full) in unwrapped(text)
    assert "…" not in text


def test_in_a_terminal_each_explanation_is_one_line(report: Report) -> None:
    text = printed(report, terminal=True, width=100)
    row = next(line for line in text.splitlines() if "long" in line and "fail" in line)
    assert row.rstrip().endswith("…│") or "…" in row
    assert unwrapped(report.step("long").explanation) not in unwrapped(text)


def test_the_score_command_prints_everything_to_a_pipe(tmp_path: Path) -> None:
    rubric_path = tmp_path / "r.yaml"
    rubric_path.write_text(f'task: t\nsteps:\n  - {{id: page, check: exists, params: {{target: "{SELECTOR}"}}}}\n', encoding="utf-8")
    artifact = tmp_path / "doc.json"
    artifact.write_text(tiny_doc().to_json(), encoding="utf-8")
    result = CliRunner().invoke(app, ["score", str(artifact), "-r", str(rubric_path)])
    assert result.exit_code == 1, result.output
    assert SELECTOR in unwrapped(result.output) or unwrapped(SELECTOR) in unwrapped(result.output)
    assert "[field=" in result.output


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    yield
    os.umask(old)


@pytest.mark.usefixtures("umask")
@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_report_files_follow_the_umask(report: Report, tmp_path: Path, mask: int, mode: int) -> None:
    os.umask(mask)
    assert current_umask() == mask
    json_path = write_report_json(report, tmp_path / "r.json")
    html_path = write_report_html(report, tmp_path / "r.html")
    for path in (json_path, html_path):
        assert stat.S_IMODE(path.stat().st_mode) == mode, (path, oct(path.stat().st_mode))
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    assert stat.S_IMODE(plain.stat().st_mode) == mode  # what any other file gets


@pytest.mark.usefixtures("umask")
def test_rewriting_a_report_keeps_its_mode(report: Report, tmp_path: Path) -> None:
    path = write_report_json(report, tmp_path / "r.json")
    path.chmod(0o640)
    write_report_json(report, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
