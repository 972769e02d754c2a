"""The real adapter code (GoogleClient -> API -> tree, snapshot -> bundle -> load) driven
by googleapiclient's own HttpMockSequence serving recorded-shaped responses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifactcheck import GoogleAPIError, load
from artifactcheck.extractors.google.access import GoogleClient, load_credentials, parse_google_ref
from artifactcheck.snapshot import (
    capture,
    export_pdf_path,
    is_bundle,
    load_bundle,
    snapshot,
    write_bundle,
)
from tests.conftest import CORPUS
from tests.google.conftest import (
    drive_meta,
    error,
    fixture_json,
    mock_http,
    no_sleep,
    ok,
)

SLIDES_MIME = "application/vnd.google-apps.presentation"
SHEETS_MIME = "application/vnd.google-apps.spreadsheet"
DOCS_MIME = "application/vnd.google-apps.document"
FILE_ID = "1FixtureFileId_abcdefghijklmnop"


@pytest.mark.parametrize("text, kind", [
    (f"https://docs.google.com/document/d/{FILE_ID}/edit#heading=h.1", "document"),
    (f"https://docs.google.com/spreadsheets/d/{FILE_ID}/edit?gid=0", "spreadsheet"),
    (f"https://docs.google.com/presentation/u/1/d/{FILE_ID}/", "presentation"),
    (f"https://drive.google.com/file/d/{FILE_ID}/view", None),
    (f"https://drive.google.com/open?id={FILE_ID}", None),
    (FILE_ID, None),
])
def test_file_references_from_urls_and_ids(text: str, kind: str | None) -> None:
    ref = parse_google_ref(text)
    assert (ref.file_id, ref.kind) == (FILE_ID, kind)


def test_not_a_reference_is_a_clear_error() -> None:
    with pytest.raises(GoogleAPIError, match="neither a Google"):
        parse_google_ref("report final.docx")


def _slides_sequence(logo: bytes) -> list:
    return [drive_meta(FILE_ID, SLIDES_MIME), ok(fixture_json("slides_features.json")),
            ok(logo, content_type="image/png"), ok(logo, content_type="image/png"),
            ok(b"%PDF-1.4 not needed for slides", content_type="application/pdf")]


def test_online_slides_load_fetches_images_through_the_api_transport(logo_png: bytes) -> None:
    client = GoogleClient(http=mock_http(*_slides_sequence(logo_png)), sleep=no_sleep)
    doc = load(f"https://docs.google.com/presentation/d/{FILE_ID}/edit", client=client)
    assert doc.artifact.format == "gslides" and doc.artifact.path == f"https://docs.google.com/presentation/d/{FILE_ID}"
    chart = doc.select_one("chart")
    assert chart is not None and chart.attrs["blob"] in doc.blobs
    assert doc.blobs[chart.attrs["blob"]].width_px == 128
    assert not [w for w in doc.warnings if "no bytes" in w]


def test_snapshot_bundle_loads_offline_with_identical_results(tmp_path: Path, logo_png: bytes) -> None:
    client = GoogleClient(http=mock_http(*_slides_sequence(logo_png)), sleep=no_sleep)
    online = load(FILE_ID, client=GoogleClient(http=mock_http(*_slides_sequence(logo_png)), sleep=no_sleep))
    bundle = snapshot(FILE_ID, tmp_path / "deck.zip", client=client)
    assert is_bundle(bundle)
    offline = load(bundle)  # no credentials, no network
    assert offline.to_json() == online.to_json()
    assert set(offline.blobs) == set(online.blobs) and all(b.data for b in offline.blobs.values())
    pdf = export_pdf_path(offline)  # the Drive export, for page images / OCR
    assert pdf is not None and pdf.read_bytes().startswith(b"%PDF")


def test_sheets_cassette_responses_drive_the_client(tmp_path: Path) -> None:
    cassette = CORPUS / "google/sheets/cassettes/gspread_WorksheetTest.test_get_notes.json"
    if not cassette.is_file():
        pytest.skip("cassette not in the corpus")
    recorded = json.loads(cassette.read_text(encoding="utf-8"))["interactions"]
    # serve the recorded Sheets get response (as recorded: status, headers, body) to our client
    sheet = next(i["response"] for i in recorded if "/v4/spreadsheets/" in i["request"]["uri"] and i["request"]["method"] == "GET")
    headers = {k.lower(): v[0] for k, v in sheet["headers"].items()}
    headers["status"] = str(sheet["status"]["code"])
    client = GoogleClient(http=mock_http(drive_meta(FILE_ID, SHEETS_MIME), (headers, sheet["body"]["string"]),
                                         ok(b"%PDF-1.4", content_type="application/pdf")), sleep=no_sleep)
    doc = load(FILE_ID, client=client)
    assert doc.artifact.format == "gsheet" and doc.select_one("sheet") is not None


@pytest.mark.slow
def test_docs_online_with_pdf_export_gets_layout_boxes(tmp_path: Path, logo_png: bytes, docs_pdf: bytes) -> None:
    client = GoogleClient(http=mock_http(drive_meta(FILE_ID, DOCS_MIME), ok(fixture_json("docs_tabs.json")),
                                         ok(logo_png, content_type="image/png"), ok(docs_pdf, content_type="application/pdf")),
                          sleep=no_sleep)
    cap = capture(FILE_ID, client=client)
    bundle = write_bundle(cap, tmp_path / "doc.zip")
    doc = load_bundle(bundle)
    title = doc.select_one("paragraph[heading_level='0']")
    heading = doc.select_one("paragraph[heading_level='3']")
    assert title is not None and title.box is not None and title.box.origin == "layout"
    assert heading is not None and heading.box is not None and heading.box.top > title.box.top
    assert doc.pages and doc.pages[0].kind == "page"
    assert doc.root.attrs["layout_text_coverage"] == 1.0
    see, site = doc.get("tab0/p6/r0"), doc.get("tab0/p6/r1")
    assert see.box is not None and site.box is not None and site.box.x0 > see.box.x1 - 1
    assert site.box.top == pytest.approx(see.box.top, abs=1)  # same line
    cell = doc.get("tab0/t0/r1/c1")
    assert cell.box is not None and cell.box.top > doc.get("tab0/t0/r0/c1").box.top  # type: ignore[union-attr]
    header = doc.get("tab0/s0/header-default")
    assert header.box is not None and header.box.top < title.box.top


@pytest.fixture(scope="module")
def docs_pdf(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """Stands in for Drive's PDF export: the fixture document's body rendered once by
    LibreOffice (same paragraphs, same order)."""
    pytest.importorskip("docx")
    from docx import Document as Docx

    from artifactcheck.extractors.render import render_pdf

    tmp = tmp_path_factory.mktemp("gdoc")
    d = Docx()
    for text in ["Company header", "Report title", "Modules", "Module A", "Do this", "Step one", "Sub step",
                 "Name Score", "Ada 10", "See the site1", "A footnote.", "Appendix text", "Kept added"]:
        d.add_paragraph(text)
    path = tmp / "export.docx"
    d.save(str(path))
    try:
        return render_pdf(path).pdf_path.read_bytes()
    except Exception as exc:  # noqa: BLE001 - no LibreOffice: skip, do not fail
        pytest.skip(f"LibreOffice unavailable: {exc}")


def test_403_not_shared_is_a_clear_error() -> None:
    client = GoogleClient(http=mock_http(error(403, "The caller does not have permission", "forbidden")), sleep=no_sleep)
    with pytest.raises(GoogleAPIError, match=r"HTTP 403: access denied: share the file"):
        load(FILE_ID, client=client)


def test_404_wrong_id_or_deleted_is_a_clear_error() -> None:
    client = GoogleClient(http=mock_http(error(404, "File not found: x.", "notFound")), sleep=no_sleep)
    with pytest.raises(GoogleAPIError, match=r"HTTP 404: no such file: the id is wrong, the file was deleted"):
        load(f"https://docs.google.com/document/d/{FILE_ID}/edit", client=client)


def test_429_then_200_is_retried(logo_png: bytes) -> None:
    slept: list[float] = []
    seq = [error(429, "Quota exceeded", "rateLimitExceeded"), *_slides_sequence(logo_png)]
    client = GoogleClient(http=mock_http(*seq), sleep=slept.append)
    doc = load(FILE_ID, client=client)
    assert doc.artifact.format == "gslides" and len(slept) == 1


def test_persistent_503_gives_up_after_num_retries() -> None:
    client = GoogleClient(http=mock_http(*[error(503, "backend error", "backendError")] * 3), num_retries=2, sleep=no_sleep)
    with pytest.raises(GoogleAPIError, match=r"HTTP 503: Google server error after 2 retries"):
        load(FILE_ID, client=client)


def test_a_drive_file_that_is_not_a_workspace_file_is_refused() -> None:
    client = GoogleClient(http=mock_http(drive_meta(FILE_ID, "application/pdf")), sleep=no_sleep)
    with pytest.raises(GoogleAPIError, match="not a Google Doc, Sheet or Slides deck"):
        load(FILE_ID, client=client)


def test_missing_credentials_say_where_they_were_looked_for(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for var in ("ARTIFACTCHECK_GOOGLE_CREDENTIALS", "ARTIFACTCHECK_GOOGLE_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("CLOUDSDK_CONFIG", str(tmp_path / "gcloud"))
    monkeypatch.setenv("NO_GCE_CHECK", "True")
    with pytest.raises(GoogleAPIError, match="no Google credentials found"):
        load_credentials()


def test_explicit_credentials_file_of_the_wrong_type_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "key.json"
    bad.write_text(json.dumps({"type": "external_account_x"}))
    with pytest.raises(GoogleAPIError, match="neither a service-account key nor an authorized-user token"):
        load_credentials(bad)
    with pytest.raises(GoogleAPIError, match="does not exist"):
        load_credentials(tmp_path / "missing.json")


def test_explicit_authorized_user_token_is_used(tmp_path: Path) -> None:
    token = tmp_path / "token.json"
    token.write_text(json.dumps({"type": "authorized_user", "client_id": "c", "client_secret": "s", "refresh_token": "r"}))
    creds = load_credentials(token)
    assert creds.refresh_token == "r"


def _batch_response(parts: list[tuple[str, int, dict]]) -> tuple[dict[str, str], str]:
    """A multipart/mixed batch response as Google sends it (one HTTP response per part)."""
    chunks = []
    for request_id, status, body in parts:
        reason = {200: "OK", 404: "Not Found", 429: "Too Many Requests"}[status]
        chunks.append(
            "--batch_x\r\nContent-Type: application/http\r\n"
            f"Content-ID: <response-abc + {request_id}>\r\n\r\n"
            f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n"
            f"{json.dumps(body)}\r\n"
        )
    return ({"status": "200", "content-type": "multipart/mixed; boundary=batch_x"}, "".join(chunks) + "--batch_x--\r\n")


def test_drive_metadata_of_many_files_is_batched_and_transient_failures_retried() -> None:
    other = "2OtherFixtureId_abcdefghijklmnop"
    meta = {"id": FILE_ID, "name": "deck", "mimeType": SLIDES_MIME}
    seq = [
        _batch_response([(FILE_ID, 200, meta), (other, 429, {"error": {"code": 429, "message": "slow down"}})]),
        drive_meta(other, SHEETS_MIME, name="book"),  # the 429 part, fetched again alone
    ]
    client = GoogleClient(http=mock_http(*seq), sleep=no_sleep)
    got = client.metadata_many([FILE_ID, other, FILE_ID])
    assert got[FILE_ID]["name"] == "deck" and got[other]["name"] == "book"


def test_a_permanent_failure_inside_a_batch_names_the_file() -> None:
    seq = [_batch_response([(FILE_ID, 404, {"error": {"code": 404, "message": "File not found"}})])]
    client = GoogleClient(http=mock_http(*seq), sleep=no_sleep)
    with pytest.raises(GoogleAPIError, match=rf"file {FILE_ID} failed with HTTP 404"):
        client.metadata_many([FILE_ID])


def test_snapshot_many_writes_one_bundle_per_file(tmp_path: Path, logo_png: bytes) -> None:
    from artifactcheck.snapshot import snapshot_many

    meta = {"id": FILE_ID, "name": "deck", "mimeType": SLIDES_MIME}
    seq = [_batch_response([(FILE_ID, 200, meta)]), *_slides_sequence(logo_png)[1:]]
    client = GoogleClient(http=mock_http(*seq), sleep=no_sleep)
    paths = snapshot_many([f"https://docs.google.com/presentation/d/{FILE_ID}/edit"], tmp_path, client=client)
    assert [p.name for p in paths] == [f"{FILE_ID}.zip"] and load(paths[0]).artifact.format == "gslides"


@pytest.mark.slow
def test_a_pdf_export_saved_beside_the_response_gives_layout_boxes(tmp_path: Path, docs_pdf: bytes) -> None:
    (tmp_path / "doc.json").write_text(json.dumps(fixture_json("docs_tabs.json")))
    without = load(tmp_path / "doc.json")
    assert not without.pages and any("no geometry" in w for w in without.warnings)
    (tmp_path / "doc.pdf").write_bytes(docs_pdf)
    doc = load(tmp_path / "doc.json")
    assert doc.pages and doc.get("tab0/p1").box is not None
    assert doc.root.attrs["layout_text_coverage"] == 1.0
