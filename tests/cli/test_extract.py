"""`artifactcheck extract` and `load`: the format is told by content; errors are one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import artifactcheck
from artifactcheck.errors import CorruptArtifact, UnsupportedFormat
from tests.conftest import FIXTURES

DECK = FIXTURES / "pptx" / "deck.pptx"
BOOK = FIXTURES / "xlsx" / "geometry.xlsx"
LETTER = FIXTURES / "docx" / "layout_pages.docx"


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "artifactcheck.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(("real", "fmt"), [(DECK, "pptx"), (BOOK, "xlsx"), (LETTER, "docx")])
def test_format_is_told_by_content_not_name(tmp_path: Path, real: Path, fmt: str) -> None:
    wrong = {"pptx": ".xlsx", "xlsx": ".docx", "docx": ".pptx"}[fmt]
    renamed = tmp_path / f"renamed{wrong}"
    shutil.copy(real, renamed)
    doc = artifactcheck.load(renamed, **({"render": False} if fmt == "docx" else {}))
    assert doc.artifact.format == fmt


def test_extract_prints_the_tree_and_writes_assets(tmp_path: Path) -> None:
    out = tmp_path / "tree.json"
    assets = tmp_path / "assets"
    proc = run_cli("extract", str(DECK), "-o", str(out), "--assets", str(assets))
    assert proc.returncode == 0, proc.stderr
    doc = artifactcheck.Document.from_json(out.read_text(encoding="utf-8"))
    assert doc.artifact.format == "pptx"
    written = sorted(p.name.split(".")[0] for p in assets.iterdir())
    assert written and set(written) <= set(doc.blobs)
    for name in written:
        assert doc.blobs[name].size_bytes == next(assets.glob(f"{name}.*")).stat().st_size


def test_extract_to_stdout_is_json() -> None:
    proc = run_cli("extract", str(BOOK), "--compact")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["artifact"]["format"] == "xlsx"


@pytest.mark.parametrize(
    ("content", "needle"),
    [(b"", "empty"), (b"%PDF-1.7\n", "the PDF is truncated"), (b"PK\x03\x04broken", "zip")],
)
def test_extract_errors_are_one_line_naming_the_file(tmp_path: Path, content: bytes, needle: str) -> None:
    bad = tmp_path / "agent-output.docx"
    bad.write_bytes(content)
    proc = run_cli("extract", str(bad))
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("artifactcheck: error: ") and str(bad) in lines[0] and needle in lines[0]
    assert "Traceback" not in proc.stderr


def test_missing_file_is_typed(tmp_path: Path) -> None:
    with pytest.raises(CorruptArtifact, match="no such file"):
        artifactcheck.load(tmp_path / "nope.pptx")


def test_other_zip_is_unsupported(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "not-office.xlsx"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>')
    with pytest.raises(UnsupportedFormat, match="no Word, Excel or PowerPoint main part"):
        artifactcheck.load(path)
