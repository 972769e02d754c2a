"""A snapshot bundle is untrusted: nothing in its manifest may choose where the loader
writes. The Office bytes of a bundle go to a fixed name inside the loader's own temp dir,
whatever ``file_id`` says (``../../x`` and absolute ids once escaped it)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from openpyxl import Workbook

from artifactcheck import load
from artifactcheck.snapshot import Capture, write_bundle

XLSX_MIME = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _xlsx_bytes(tmp_path: Path) -> bytes:
    wb = Workbook()
    wb.active["A1"] = "hello"  # type: ignore[index]
    path = tmp_path / "book.xlsx"
    wb.save(path)
    return path.read_bytes()


@pytest.mark.parametrize("file_id", ["../../../escaped", "ABSOLUTE", "..", "a/../../b"])
def test_bundle_file_id_never_becomes_a_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             file_id: str) -> None:
    nested = tmp_path / "scratch" / "a" / "b"
    nested.mkdir(parents=True)
    if file_id == "ABSOLUTE":
        file_id = str(tmp_path / "absolute_target")
    monkeypatch.setattr(tempfile, "tempdir", str(nested))
    cap = Capture(file_id=file_id, kind="office", metadata={"mimeType": XLSX_MIME},
                  office_bytes=_xlsx_bytes(tmp_path), captured_at="2024-01-01T00:00:00Z")
    bundle = write_bundle(cap, tmp_path / "bundle.zip")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))

    doc = load(bundle)

    assert "hello" in doc.root.text
    after = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    assert after == before, "the loader wrote (or left) files outside its temp dir"
