"""What real users send to the CLI, the service and the batch runner, and the typed answer
each gets (the hardening sweep, 2026-12): no traceback, no hang, no 500 for the input's
fault, and a SIGTERM that ends the service's LibreOffice children in its grace.

Servers are started by the tests themselves (a real process on a free 127.0.0.1 port,
helpers of test_service.py) and stopped at the end; traffic is a few requests each."""

from __future__ import annotations

import functools
import io
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from artifactcheck.batch.manifest import read_manifest
from artifactcheck.cli import app
from artifactcheck.errors import ArtifactCheckError
from artifactcheck.input_files import read_input_bytes
from tests.conftest import FIXTURES

from .test_service import Server, _start, _stop

DECK = FIXTURES / "tasks" / "slide_deck"
SLIDES_RUBRIC = b"task: t\nsteps:\n  - id: one\n    step_type: structural\n    check: structure\n    params: {unit: slides, at_least: 1}\n"
PAGES_RUBRIC = b"task: t\nsteps:\n  - id: one\n    step_type: structural\n    check: structure\n    params: {unit: pages, at_least: 1}\n"
post = functools.partial(httpx.post, timeout=120)
runner = CliRunner()


def _error(response: httpx.Response) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error"}, body
    return response.status_code, body["error"]["type"]


def _deck_files(**extra: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes]]]:
    files = [("artifact", ("pass.pptx", (DECK / "pass.pptx").read_bytes())), ("rubric", ("rubric.yaml", SLIDES_RUBRIC))]
    return files + list(extra.items())


def _zip_with_flag(*, method: int | None = None, encrypted: bool = False) -> bytes:
    """A one-member zip whose headers claim an unknown compression method or encryption."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("logo.png", b"x" * 1000)
    data = bytearray(buffer.getvalue())
    local, central = data.find(b"PK\x03\x04"), data.find(b"PK\x01\x02")
    if method is not None:
        data[local + 8 : local + 10] = data[central + 10 : central + 12] = method.to_bytes(2, "little")
    if encrypted:
        data[local + 6] |= 1
        data[central + 8] |= 1
    return bytes(data)


# -- the service ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    base = tmp_path_factory.mktemp("sweep")
    started = _start(base / "tmp", base / "cache", "--renderers", "0", "--upload-idle-timeout", "2")
    yield started
    _stop(started)


@pytest.mark.slow
def test_params_are_strict_json(server: Server) -> None:
    """json.loads let 100,000 nested brackets out as a RecursionError (500), and NaN in."""
    for params in ("[" * 100_000, '{"a":' * 5000 + "1" + "}" * 5000, '{"x": NaN}', '{"x": 1e999}'):
        assert _error(post(f"{server.url}/v1/score", files=_deck_files(), data={"params": params})) == (422, "InvalidRequest")


@pytest.mark.slow
@pytest.mark.parametrize("archive", [_zip_with_flag(method=99), _zip_with_flag(encrypted=True)], ids=["method99", "encrypted"])
def test_an_assets_zip_that_cannot_be_unpacked_is_the_requests_fault(server: Server, archive: bytes) -> None:
    response = post(f"{server.url}/v1/score", files=_deck_files(assets=("assets.zip", archive)))
    assert _error(response) == (422, "InvalidRequest")
    assert "logo.png" in response.json()["error"]["message"]


@pytest.mark.slow
def test_a_field_sent_twice_is_refused(server: Server) -> None:
    """FastAPI kept one of two ``artifact`` parts silently: the report scored a file the
    client may not have meant."""
    files = _deck_files() + [("artifact", ("other.pptx", (DECK / "fail_title_low.pptx").read_bytes()))]
    response = post(f"{server.url}/v1/score", files=files)
    assert _error(response) == (422, "InvalidRequest") and "artifact" in response.json()["error"]["message"]


@pytest.mark.slow
def test_a_stalled_upload_gets_408_instead_of_holding_its_request(server: Server) -> None:
    port = int(server.url.rsplit(":", 1)[1])
    head = (b"POST /v1/score HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=B\r\n"
            b"Content-Length: 100000\r\n\r\n--B\r\nContent-Disposition: form-data; name=\"artifact\"; filename=\"a.pptx\"\r\n\r\n")
    started = time.monotonic()
    with socket.create_connection(("127.0.0.1", port), timeout=30) as conn:
        conn.sendall(head + b"x" * 1000)  # then nothing more
        answer = b""
        while chunk := conn.recv(4096):  # the answer says Connection: close: read to the end
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b'"RequestTimeout"' in answer
    assert time.monotonic() - started < 25


@pytest.mark.slow
def test_sigterm_past_the_grace_answers_503_and_kills_cold_libreoffice(tmp_path: Path) -> None:
    """A cold soffice kept a stopping server alive until its render ended (26 s for this
    document with a 3 s grace), and the request got uvicorn's text/plain 500."""
    sys.path.insert(0, str(FIXTURES.parent / "bench"))
    from make_long_docx import make_long_docx

    long_docx = make_long_docx(1500, tmp_path / "long.docx")
    stopping = _start(tmp_path / "tmp", tmp_path / "cache", "--renderers", "0", "--shutdown-grace", "2")
    result: dict[str, httpx.Response] = {}

    def score_long() -> None:
        result["r"] = post(f"{stopping.url}/v1/score",
                           files=[("artifact", ("long.docx", long_docx.read_bytes())), ("rubric", ("r.yaml", PAGES_RUBRIC))])

    worker = threading.Thread(target=score_long)
    try:
        worker.start()
        deadline = time.monotonic() + 90
        while not stopping.office_binaries():
            assert time.monotonic() < deadline, "LibreOffice never started"
            time.sleep(0.1)
        stopping.proc.send_signal(signal.SIGTERM)
        sent = time.monotonic()
        assert stopping.proc.wait(timeout=60) == 0
        took = time.monotonic() - sent
        worker.join(timeout=30)
    finally:
        _stop(stopping)
    assert _error(result["r"]) == (503, "ShuttingDown") and int(result["r"].headers["Retry-After"]) > 0
    assert took < 15, f"the server took {took:.1f} s to stop with a 2 s grace"
    assert not stopping.office_binaries()


# -- the CLI ----------------------------------------------------------------------------------
def test_a_folder_given_as_a_file_is_named(tmp_path: Path) -> None:
    """os.fdopen of a directory said "3: Is a directory" (the descriptor, not the file)."""
    with pytest.raises(ArtifactCheckError, match=rf"{tmp_path}: the rubric file is not a regular file"):
        read_input_bytes(tmp_path, what="rubric file", error=ArtifactCheckError)
    result = runner.invoke(app, ["score", str(DECK / "pass.pptx"), "--rubric", str(tmp_path)])
    assert result.exit_code == 2 and str(tmp_path) in result.output and " 3: " not in result.output


def test_an_artifact_that_is_not_a_regular_file_is_a_usage_error(tmp_path: Path) -> None:
    """A folder was scored as the agent's failure ("no such file", exit 1)."""
    for command in (["score", str(tmp_path), "--rubric", str(DECK / "rubric.yaml")], ["extract", str(tmp_path)]):
        result = runner.invoke(app, command)
        assert result.exit_code == 2 and "is not a regular file" in result.output, result.output


def test_a_folder_artifact_is_named_in_the_library_and_batch_not_missing(tmp_path: Path) -> None:
    """load() of a folder said "no such file"; a batch row whose artifact is a folder was
    scored as the agent's failure (every step "fail"). It is the caller's mistake: load
    raises UsageError naming the folder, and the row's steps are errors, not failures."""
    import json

    from artifactcheck import load
    from artifactcheck.errors import UsageError

    folder = tmp_path / "deck.pptx"
    folder.mkdir()
    with pytest.raises(UsageError, match=rf"{folder}: is a folder, not an artifact file"):
        load(folder)
    manifest = tmp_path / "m.csv"
    manifest.write_text(f"artifact,rubric\n{folder},{DECK / 'rubric.yaml'}\n{tmp_path / 'missing.pptx'},{DECK / 'rubric.yaml'}\n")
    result = runner.invoke(app, ["batch", str(manifest), "--out", str(tmp_path / "out")])
    assert result.exit_code in (0, 1), result.output
    reports = sorted((tmp_path / "out" / "reports").rglob("*.json"))
    loaded = [json.loads(p.read_text()) for p in reports]
    by_artifact = {Path(r["artifact"]["path"]).name: r for r in loaded if isinstance(r, dict) and r.get("artifact")}
    assert len(by_artifact) == 2, [p.name for p in reports]
    as_folder = by_artifact["deck.pptx"]
    assert as_folder["counts"]["failed"] == 0 and as_folder["counts"]["error"] == len(as_folder["steps"])
    assert "is a folder" in as_folder["artifact_error"]
    missing = by_artifact["missing.pptx"]  # no file at all: the agent produced nothing, a failure
    assert missing["counts"]["failed"] == len(missing["steps"]) and missing["artifact_error"] == "file not found"


def test_assets_folder_and_jobs_are_checked_before_work(tmp_path: Path) -> None:
    result = runner.invoke(app, ["score", str(DECK / "pass.pptx"), "--rubric", str(DECK / "rubric.yaml"),
                                 "--assets", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "--assets" in result.output and "does not exist" in result.output
    done = subprocess.run([sys.executable, "-m", "artifactcheck.cli", "batch", str(tmp_path / "m.csv"), "-j", "0"],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "--jobs" in done.stderr


# -- the batch manifest -----------------------------------------------------------------------
ROW = f"{DECK / 'pass.pptx'},{DECK / 'rubric.yaml'}"


@pytest.mark.parametrize(("content", "message"), [
    (f"artifact,rubric\n{DECK / 'pa'},ss.pptx,{DECK / 'rubric.yaml'}\n", r"line 2: 3 fields, but the header has 2"),
    ("artifact,rubric\n" + "a" * 200_000 + ",r.yaml\n", r"line 2: not valid CSV: field larger"),
    (f'artifact,rubric\n"{DECK / "pass.pptx"},r.yaml\n', r"line 2: not valid CSV"),
    ("artifact,rubric\n", r"no rows"),
    ("", r"no rows"),
    (f"artifact;rubric\n{ROW}\n", r"semicolons"),
    ("artifact,rubric\ncaf\xe9.pptx,r.yaml\n".encode("latin-1"), r"line 2: the manifest is not UTF-8"),
    (f"artifact,rubric\n{ROW}\n".encode("utf-16"), r"UTF-16"),
    (f"artifact,rubric\n{ROW}\x00\n", r"line 2: rubric holds a NUL"),
], ids=["unquoted-comma", "huge-field", "open-quote", "header-only", "empty", "semicolons", "latin-1", "utf-16", "nul"])
def test_a_bad_csv_manifest_is_refused_naming_the_line(tmp_path: Path, content: str | bytes, message: str) -> None:
    path = tmp_path / "m.csv"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    with pytest.raises(ArtifactCheckError, match=message):
        read_manifest(path)


@pytest.mark.parametrize(("line", "message"), [
    ('{"artifact": ' + "[" * 100_000, r"manifest line 1 nests deeper"),
    (f'{{"artifact": "{DECK / "pass.pptx"}", "rubric": "{DECK / "rubric.yaml"}", "run": NaN}}', r"NaN is not a JSON number"),
    (f'{{"artifact": ["{DECK / "pass.pptx"}"], "rubric": "{DECK / "rubric.yaml"}"}}', r"line 1: artifact must be a string, got list"),
], ids=["deep", "nan", "list"])
def test_a_bad_jsonl_manifest_is_refused(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "m.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(ArtifactCheckError, match=message):
        read_manifest(path)
