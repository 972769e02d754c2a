"""The package type-checks under mypy --strict (pyproject [tool.mypy])."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import REPO


@pytest.mark.slow
def test_package_passes_mypy_strict() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "artifactcheck"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]


def test_package_passes_ruff() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "artifactcheck", "--output-format", "concise"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout[-5000:] + proc.stderr[-2000:]
