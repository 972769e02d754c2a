"""The CLI over the Google adapters: `extract` reads responses, bundles and URLs;
`snapshot` says clearly when there are no credentials."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from artifactcheck.cli import app
from artifactcheck.snapshot import Capture, write_bundle
from tests.google.conftest import GOOGLE, LOGO_URL, fixture_json

runner = CliRunner()


def test_extract_recognises_the_api_from_the_json(tmp_path: Path) -> None:
    out = tmp_path / "tree.json"
    result = runner.invoke(app, ["extract", str(GOOGLE / "sheets_parity.json"), "-o", str(out)])
    assert result.exit_code == 0, result.output
    tree = json.loads(out.read_text())
    assert tree["artifact"]["format"] == "gsheet" and tree["root"]["children"][0]["id"] == "Data"


def test_extract_reads_a_bundle_offline_and_writes_its_images(tmp_path: Path, logo_png: bytes) -> None:
    cap = Capture(file_id="1FixtureFileId_abcdefghijklmnop", kind="presentation",
                  metadata={"name": "deck", "mimeType": "application/vnd.google-apps.presentation"},
                  response=fixture_json("slides_parity.json"), images={LOGO_URL: (logo_png, "image/png")},
                  captured_at="2024-01-01T00:00:00Z")
    bundle = write_bundle(cap, tmp_path / "deck.zip")
    result = runner.invoke(app, ["extract", str(bundle), "--compact", "--assets", str(tmp_path / "assets")])
    assert result.exit_code == 0, result.output
    assert '"format":"gslides"' in result.stdout and len(list((tmp_path / "assets").iterdir())) == 1


def test_snapshot_without_credentials_is_one_clear_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in ("ARTIFACTCHECK_GOOGLE_CREDENTIALS", "ARTIFACTCHECK_GOOGLE_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CLOUDSDK_CONFIG", str(tmp_path / "gcloud"))
    monkeypatch.setenv("NO_GCE_CHECK", "True")
    result = runner.invoke(app, ["snapshot", "https://docs.google.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWx/edit", "-o", str(tmp_path / "b.zip")])
    assert result.exit_code == 2
    assert "no Google credentials found" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "b.zip").exists()


def test_extract_of_unrelated_json_is_unsupported(tmp_path: Path) -> None:
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"hello": "world"}))
    result = runner.invoke(app, ["extract", str(other)])
    assert result.exit_code == 2 and "not a documents.get, spreadsheets.get or presentations.get response" in result.output


def test_a_tampered_bundle_is_refused(tmp_path: Path) -> None:
    import zipfile

    from artifactcheck import load
    from artifactcheck.errors import CorruptArtifact

    cap = Capture(file_id="1FixtureFileId_abcdefghijklmnop", kind="spreadsheet",
                  metadata={"mimeType": "application/vnd.google-apps.spreadsheet"},
                  response=fixture_json("sheets_parity.json"), captured_at="2024-01-01T00:00:00Z")
    good = write_bundle(cap, tmp_path / "good.zip")
    assert load(good).artifact.format == "gsheet"
    bad = tmp_path / "bad.zip"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "response.json":
                data = data.replace(b"Parity workbook", b"Edited workbook")
            dst.writestr(info.filename, data)
    with pytest.raises(CorruptArtifact, match="response.json does not match its manifest hash"):
        load(bad)
