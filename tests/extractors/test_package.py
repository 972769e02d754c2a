"""Package inspection is remembered per unchanged file and re-done when the file changes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from artifactcheck.extractors.package import inspection as package
from tests.conftest import FIXTURES


def test_inspection_is_reused_for_an_unchanged_file_and_redone_after_a_change(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Path] = []
    real = package._inspect
    monkeypatch.setattr(package, "_inspect", lambda p: calls.append(p) or real(p))
    target = tmp_path / "artifact"
    shutil.copy(FIXTURES / "pptx" / "deck.pptx", target)
    assert package.inspect_package(target).format == "pptx"
    assert package.inspect_package(str(target)).format == "pptx"
    assert len(calls) == 1
    shutil.copy(FIXTURES / "xlsx" / "geometry.xlsx", target)
    assert package.inspect_package(target).format == "xlsx"
    assert len(calls) == 2
