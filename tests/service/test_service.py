"""``artifactcheck serve`` for real: the server runs as its own process on a free
127.0.0.1 port with a warm LibreOffice pool, and is called over HTTP (httpx, curl-like
multipart), through :class:`artifactcheck.client.Client` and through ``score --server``.

Two servers per run: ``open_server`` (loopback, no token, default-ish limits) for the
endpoints, their contracts, input errors, the client, a LibreOffice killed mid-request and
SIGTERM shutdown; ``tight_server`` (a token, 1 slot, no queue, a 2 s deadline, 1 MiB
uploads) for auth, 413, 503 and 504."""

from __future__ import annotations

import functools
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from artifactcheck.checks.catalog import catalog
from artifactcheck.cli import app
from artifactcheck.client import Client, ServiceError
from artifactcheck.errors import CorruptArtifact, RubricError
from artifactcheck.loading import load
from artifactcheck.model import Document
from artifactcheck.report.json_writer import strip_timings
from artifactcheck.rubric.scoring import score
from tests.conftest import FIXTURES

pytestmark = pytest.mark.slow

TASKS = FIXTURES / "tasks"
LESSON = TASKS / "lesson_plan"
DECK = TASKS / "slide_deck"
TOKEN = "test-token-0123456789abcdef"
# A loaded 2-core machine answers slowly; no test here is about speed.
get = functools.partial(httpx.get, timeout=120)
post = functools.partial(httpx.post, timeout=300)


@dataclass
class Server:
    url: str
    proc: subprocess.Popen[bytes]
    tmp: Path  # the server's TMPDIR: request dirs and the pool's work dir live here
    log: Path

    def office_binaries(self) -> list[int]:
        """LibreOffice instances of this server's pool (profiles under tmp): soffice.bin
        processes whose parent is not a soffice.bin (a forked helper is not an instance)."""
        parents: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    cmd = (entry / "cmdline").read_bytes()
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if b"soffice.bin" in cmd and str(self.tmp).encode() in cmd:
                    parents[int(entry.name)] = int(stat[stat.rfind(")") + 2 :].split()[1])
        return [pid for pid, parent in parents.items() if parent not in parents]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _start(tmp: Path, cache: Path, *args: str, env: dict[str, str] | None = None) -> Server:
    tmp.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    log = tmp.parent / f"{tmp.name}.log"
    environ = dict(os.environ, TMPDIR=str(tmp), ARTIFACTCHECK_CACHE_DIR=str(cache), **(env or {}))
    environ.pop("ARTIFACTCHECK_RENDERER", None)
    with open(log, "wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "artifactcheck.cli", "serve", "--port", str(port), *args],
                                stdout=out, stderr=out, env=environ)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"server exited {proc.returncode}: {log.read_text()[-2000:]}")
        try:
            if get(f"{url}/v1/health").status_code == 200:
                return Server(url, proc, tmp, log)
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("server did not come up")


def _stop(server: Server) -> None:
    if server.proc.poll() is None:
        server.proc.send_signal(signal.SIGTERM)
        try:
            server.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            server.proc.kill()


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One render cache for the servers and this process (so local comparisons hit it)."""
    path = tmp_path_factory.mktemp("service-cache")
    old = os.environ.get("ARTIFACTCHECK_CACHE_DIR")
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("ARTIFACTCHECK_CACHE_DIR", None)
    else:
        os.environ["ARTIFACTCHECK_CACHE_DIR"] = old


@pytest.fixture(scope="module")
def open_server(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Iterator[Server]:
    server = _start(tmp_path_factory.mktemp("open") / "tmp", cache, "--renderers", "1")
    yield server
    _stop(server)


@pytest.fixture(scope="module")
def tight_server(tmp_path_factory: pytest.TempPathFactory, cache: Path) -> Iterator[Server]:
    base = tmp_path_factory.mktemp("tight")
    (base / "token").write_text(TOKEN + "\n")
    server = _start(base / "tmp", cache, "--renderers", "1", "--token-file", str(base / "token"), "--max-concurrent", "1",
                    "--max-queue", "0", "--deadline", "2", "--max-upload-mb", "1",
                    env={"ARTIFACTCHECK_LIMITS": "input_file_bytes=4000"})
    yield server
    _stop(server)


@pytest.fixture(scope="module")
def long_docx(tmp_path_factory: pytest.TempPathFactory) -> Path:
    sys.path.insert(0, str(FIXTURES.parent / "bench"))
    from make_long_docx import make_long_docx

    # Far past the tight server's 2 s deadline even on a fast machine with a warm renderer
    # (150 pages were answered inside it on an idle 2-core machine).
    return make_long_docx(400, tmp_path_factory.mktemp("long") / "long.docx")


def _files(artifact: Path, rubric: Path, **extra: tuple[str, bytes]) -> list[tuple[str, tuple[str, bytes]]]:
    files = [("artifact", (artifact.name, artifact.read_bytes())), ("rubric", (rubric.name, rubric.read_bytes()))]
    return files + [(k, v) for k, v in extra.items()]


def _with_zip_comment(data: bytes, comment: bytes) -> bytes:
    """The same .docx with a zip comment: other bytes (another cache key), same document."""
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as archive:
        archive.comment = comment
    return buffer.getvalue()


def _error(response: httpx.Response) -> tuple[int, str]:
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"type", "message"}, body
    assert "Traceback" not in body["error"]["message"]
    return response.status_code, body["error"]["type"]


# -- endpoints and contracts ---------------------------------------------------------------
def test_health_and_checks(open_server: Server) -> None:
    health = get(f"{open_server.url}/v1/health").json()
    assert health["status"] == "ok" and health["version"]
    assert health["renderer"]["size"] == 1 and health["renderer"]["processes"] == 1
    checks = get(f"{open_server.url}/v1/checks")
    assert checks.json() == catalog()
    assert checks.text == CliRunner().invoke(app, ["checks", "--json"]).output  # byte for byte
    docs = get(f"{open_server.url}/openapi.json").json()
    assert {"/v1/health", "/v1/checks", "/v1/extract", "/v1/score", "/metrics"} <= set(docs["paths"])
    assert "Report" in json.dumps(docs["components"]) and get(f"{open_server.url}/docs").status_code == 200


def test_extract_is_the_librarys_tree(open_server: Server) -> None:
    src = LESSON / "pass.docx"
    response = post(f"{open_server.url}/v1/extract", files=[("artifact", (src.name, src.read_bytes()))])
    assert response.status_code == 200, response.text
    local = json.loads(load(src).to_json())
    remote = response.json()
    assert remote["artifact"].pop("path") == src.name  # the client's name, never a server path
    local["artifact"].pop("path")
    assert remote == local


def test_score_json_is_the_cli_contract_and_html_renders(open_server: Server, tmp_path: Path) -> None:
    response = post(f"{open_server.url}/v1/score", files=_files(LESSON / "pass.docx", LESSON / "rubric.yaml"))
    assert response.status_code == 200, response.text
    assert str(open_server.tmp) not in response.text
    cli_json = tmp_path / "cli.json"
    code = CliRunner().invoke(app, ["score", str(LESSON / "pass.docx"), "-r", str(LESSON / "rubric.yaml"), "--json", str(cli_json)]).exit_code
    assert code == 0
    remote, local = strip_timings(response.json()), strip_timings(json.loads(cli_json.read_text()))
    assert remote["artifact"].pop("path") == "pass.docx" and remote["rubric"].pop("path") == "rubric.yaml"
    local["artifact"].pop("path"), local["rubric"].pop("path")
    assert remote == local
    html = post(f"{open_server.url}/v1/score?format=html", files=_files(DECK / "pass.pptx", DECK / "rubric.yaml"))
    assert html.status_code == 200 and html.headers["content-type"].startswith("text/html")
    assert html.text.startswith("<!DOCTYPE html>") and "slide_deck" in html.text


def test_client_and_cli_server_option(open_server: Server, tmp_path: Path) -> None:
    letter = TASKS / "formal_letter"
    assets_zip = tmp_path / "assets.zip"
    with zipfile.ZipFile(assets_zip, "w") as zf:
        for image in (letter / "assets").iterdir():
            zf.write(image, f"nested/{image.name}")  # folders inside the zip are flattened
    zipped = post(f"{open_server.url}/v1/score", files=_files(letter / "pass.docx", letter / "rubric.yaml", assets=("assets.zip", assets_zip.read_bytes())))
    assert zipped.status_code == 200 and zipped.json()["verdict"] == "PASS", zipped.text
    with Client(open_server.url) as client:
        assert client.score(letter / "pass.docx", letter / "rubric.yaml").verdict == "PASS"  # assets/ beside the rubric go along
        report = client.score(DECK / "fail_title_low.pptx", DECK / "rubric.yaml")
        local = score(DECK / "fail_title_low.pptx", DECK / "rubric.yaml")
        assert (report.verdict, report.score, [s.status for s in report.steps]) == (local.verdict, local.score, [s.status for s in local.steps])
        doc = client.extract(TASKS / "paper_tracker" / "pass.xlsx")
        assert isinstance(doc, Document) and doc.root.kind == "document" and doc.pages
        with pytest.raises(RubricError):  # the library's own error type comes back
            client.score(DECK / "pass.pptx", DECK / "pass.pptx")
    out = tmp_path / "r.json"
    result = CliRunner().invoke(app, ["score", str(DECK / "pass.pptx"), "-r", str(DECK / "rubric.yaml"), "--server", open_server.url, "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["verdict"] == "PASS"
    result = CliRunner().invoke(app, ["extract", str(TASKS / "paper_tracker" / "pass.xlsx"), "--server", open_server.url, "--compact"])
    assert result.exit_code == 0 and json.loads(result.output.splitlines()[0])["root"]["kind"] == "document"


def test_input_faults_are_typed_422s(open_server: Server, tmp_path: Path) -> None:
    url = open_server.url
    broken = tmp_path / "broken.docx"
    broken.write_bytes((LESSON / "pass.docx").read_bytes()[:3000])
    assert _error(post(f"{url}/v1/extract", files=[("artifact", (broken.name, broken.read_bytes()))])) == (422, "CorruptArtifact")
    bad_rubric = tmp_path / "bad.yaml"
    bad_rubric.write_text("task: t\nsteps:\n  - id: a\n    check: no_such_check\n")
    assert _error(post(f"{url}/v1/score", files=_files(DECK / "pass.pptx", bad_rubric))) == (422, "RubricError")
    assert _error(post(f"{url}/v1/score", files=_files(DECK / "pass.pptx", DECK / "rubric.yaml"), data={"params": "{nope"})) == (422, "InvalidRequest")
    assert _error(post(f"{url}/v1/score", files=[("artifact", ("a.pptx", b"x"))])) == (422, "InvalidRequest")  # no rubric
    # a rubric over HTTP may include only files uploaded with it
    sneaky = tmp_path / "sneaky.yaml"
    sneaky.write_text(f"task: t\nsteps:\n  - include: {TASKS / 'fragments' / 'formatted_link.yaml'}\n")
    status, kind = _error(post(f"{url}/v1/score", files=_files(DECK / "pass.pptx", sneaky)))
    assert (status, kind) == (422, "RubricError")
    assert _error(get(f"{url}/v1/nothing")) == (404, "NotFound")
    with pytest.raises(CorruptArtifact):
        Client(url).extract(broken)


def test_killed_libreoffice_mid_request_still_answers_and_the_pool_recovers(open_server: Server, long_docx: Path) -> None:
    result: dict[str, httpx.Response] = {}

    def extract() -> None:
        result["r"] = post(f"{open_server.url}/v1/extract", files=[("artifact", (long_docx.name, long_docx.read_bytes()))])

    worker = threading.Thread(target=extract)
    worker.start()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and get(f"{open_server.url}/v1/health").json()["renderer"]["busy"] == 0:
        time.sleep(0.05)
    time.sleep(0.5)
    for pid in open_server.office_binaries():
        os.kill(pid, signal.SIGKILL)
    worker.join(timeout=300)
    response = result["r"]
    assert response.status_code == 200 or (response.status_code >= 500 and _error(response)), response.text
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and get(f"{open_server.url}/v1/health").json()["renderer"]["processes"] < 1:
        time.sleep(0.2)
    state = get(f"{open_server.url}/v1/health").json()["renderer"]
    assert state["processes"] == 1 and state["crashes"] >= 1
    assert len(open_server.office_binaries()) <= 1  # never above the pool size
    metrics = get(f"{open_server.url}/metrics").text
    assert 'artifactcheck_requests_total{endpoint="/v1/extract",status="200"}' in metrics
    assert "artifactcheck_renderer_crashes_total" in metrics and "artifactcheck_render_cache_lookups_total" in metrics


# -- auth and limits ---------------------------------------------------------------------------
def test_token_is_required_and_compared(tight_server: Server) -> None:
    url = tight_server.url
    assert get(f"{url}/v1/health").status_code == 200  # probes need no token
    assert _error(get(f"{url}/v1/checks")) == (401, "Unauthorized")
    assert _error(get(f"{url}/v1/checks", headers={"Authorization": "Bearer wrong"})) == (401, "Unauthorized")
    assert _error(get(f"{url}/metrics")) == (401, "Unauthorized")
    assert get(f"{url}/v1/checks", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200
    with pytest.raises(ServiceError) as raised:
        Client(url).checks()
    assert raised.value.status == 401
    assert Client(url, token=TOKEN).checks() == catalog()


def test_binding_off_loopback_needs_a_token() -> None:
    env = {k: v for k, v in os.environ.items() if k != "ARTIFACTCHECK_TOKEN"}
    done = subprocess.run([sys.executable, "-m", "artifactcheck.cli", "serve", "--host", "0.0.0.0", "--port", "1"],
                          capture_output=True, text=True, env=env, timeout=60, check=False)
    assert done.returncode == 2 and "needs a bearer token" in done.stderr


def test_upload_limit_busy_and_deadline(tight_server: Server, long_docx: Path) -> None:
    url, auth = tight_server.url, {"Authorization": f"Bearer {TOKEN}"}
    big = b"0" * (1024 * 1024 + 1)
    assert _error(post(f"{url}/v1/extract", files=[("artifact", ("big.docx", big))], headers=auth)) == (413, "UploadTooLarge")
    # an artifact over a loading budget (the server's ARTIFACTCHECK_LIMITS) is also a 413
    response = max((FIXTURES / "google").glob("*.json"), key=lambda p: p.stat().st_size)
    assert response.stat().st_size > 4000
    too_big = post(f"{url}/v1/extract", files=[("artifact", (response.name, response.read_bytes()))], headers=auth)
    assert _error(too_big) == (413, "ArtifactTooLarge")
    slow: dict[str, httpx.Response] = {}

    # Bytes no other test sent: the servers share one render cache, and a cached render of
    # long_docx (the kill test's) would answer inside the deadline.
    unseen = _with_zip_comment(long_docx.read_bytes(), b"deadline test")

    def extract_long() -> None:
        slow["r"] = post(f"{url}/v1/extract", files=[("artifact", (long_docx.name, unseen))], headers=auth)

    worker = threading.Thread(target=extract_long)
    worker.start()
    time.sleep(0.7)  # the long extraction holds the only slot
    busy = post(f"{url}/v1/extract", files=[("artifact", ("d.pptx", (DECK / "pass.pptx").read_bytes()))], headers=auth)
    assert _error(busy) == (503, "ServerBusy") and int(busy.headers["Retry-After"]) > 0
    worker.join(timeout=120)
    assert _error(slow["r"]) == (504, "DeadlinePassed")  # 400 pages do not render in 2 s


def test_sigterm_finishes_in_flight_work_and_leaves_nothing(open_server: Server) -> None:
    """Last test of the module: stops the open server."""
    url = open_server.url
    result: dict[str, httpx.Response] = {}

    def score_once() -> None:
        result["r"] = post(f"{url}/v1/score", files=_files(LESSON / "fail_flat_bullets.docx", LESSON / "rubric.yaml"))

    worker = threading.Thread(target=score_once)
    worker.start()
    # SIGTERM once the server holds the request (a fixed sleep raced a loaded machine:
    # the request had not arrived and the stopping server refused it)
    deadline = time.monotonic() + 60
    while worker.is_alive() and 'requests_in_flight{endpoint="/v1/score"} 1.0' not in httpx.get(f"{url}/metrics").text:
        assert time.monotonic() < deadline, "the score request never reached the server"
        time.sleep(0.05)
    open_server.proc.send_signal(signal.SIGTERM)
    worker.join(timeout=120)
    assert result["r"].status_code == 200, result["r"].text
    assert open_server.proc.wait(timeout=60) == 0
    assert "Application shutdown complete" in open_server.log.read_text()
    assert not open_server.office_binaries()
    leftovers = [p.name for p in open_server.tmp.iterdir() if p.name.startswith("artifactcheck-")]
    assert leftovers == []
