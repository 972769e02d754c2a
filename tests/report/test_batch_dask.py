"""Batches on Dask distributed: a real LocalCluster (2 worker processes on 127.0.0.1)
gives the local engine's reports and tables; a worker killed mid-row (SIGKILL of its
pid) has its row retried on the other worker, never lost nor counted twice; a killed or
interrupted coordinator is resumed by the other engine; nothing is left behind."""

from __future__ import annotations

import contextlib
import csv
import json
import multiprocessing.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from artifactcheck.batch.manifest import read_manifest
from artifactcheck.batch.row_scoring import RowOutcome, evaluate_row
from artifactcheck.batch.run import run_batch
from artifactcheck.batch.shipping import RubricFiles, pack_row, unpacked
from tests.conftest import FIXTURES

distributed = pytest.importorskip("distributed")

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")]

TASKS = FIXTURES / "tasks"
# Mixed formats, each a few seconds at most with the render cache warm: .docx with a
# trace and an include, .xlsx, .pptx, PDF with OCR, CSV, .odt, image with OCR.
ROWS = [("reference_list", "pass", "docx"), ("formal_letter", "fail_logo_right", "docx"), ("paper_tracker", "pass", "xlsx"),
        ("slide_deck", "fail_title_low", "pptx"), ("report_pdf", "pass", "pdf"), ("contacts_csv", "fail_wrong_date", "csv"),
        ("meeting_odt", "pass", "odt"), ("photo_edit", "fail_brighter", "png")]
TABLES = ("runs.csv", "summary.json", "summary.md", "overall.csv", "pass_at_k.csv", "by_mechanism.csv", "by_step_type.csv",
          "by_format.csv", "attribution.csv")


def write_manifest(path: Path, rows: list[tuple[str, str, str]], *, copies: int = 1) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["task", "run", "artifact", "rubric", "trace"])
        for copy in range(copies):
            for task, variant, ext in rows:
                trace = TASKS / task / "trace.jsonl"
                run = f"{variant}-{copy}" if copies > 1 else variant
                writer.writerow([task, run, TASKS / task / f"{variant}.{ext}", TASKS / task / "rubric.yaml",
                                 trace if trace.is_file() else ""])
    return path


def _timeless(value: Any) -> Any:
    """A report without its timings: every ``*seconds`` field, and the OCR engine's
    per-process call counter (it counts the calls this worker made before the row)."""
    if isinstance(value, dict):
        return {k: _timeless(v) for k, v in value.items() if not k.endswith("seconds")}
    if isinstance(value, list):
        return [_timeless(v) for v in value]
    return value


def reports(out: Path) -> dict[str, Any]:
    found = sorted(p for p in (out / "reports").rglob("run-*.json") if not p.name.endswith(".inputs.json"))
    return {str(p.relative_to(out)): _timeless(json.loads(p.read_text(encoding="utf-8"))) for p in found}


def assert_same_results(a: Path, b: Path, *, tables: bool = True) -> None:
    assert reports(a) == reports(b)
    assert sorted(p.name for p in (a / "reports").rglob("*.inputs.json")) == sorted(p.name for p in (b / "reports").rglob("*.inputs.json"))
    for p in (a / "reports").rglob("*.inputs.json"):
        assert p.read_bytes() == (b / p.relative_to(a)).read_bytes()
    if tables:
        for name in TABLES:
            assert (a / name).read_bytes() == (b / name).read_bytes(), name


def processes_with_env(marker: str) -> list[int]:
    """Live processes whose environment holds ``marker``, but for this test process and
    its multiprocessing resource tracker (started for the spawned workers of a
    LocalCluster made here, it lives as long as this process does, by design)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker.encode() in (entry / "environ").read_bytes() and not _our_resource_tracker(entry):
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def _our_resource_tracker(entry: Path) -> bool:
    parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
    command = (entry / "cmdline").read_bytes()
    return parent == os.getpid() and (b"multiprocessing.resource_tracker" in command or b"multiprocessing.forkserver" in command)


@pytest.fixture
def scratch(monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A TMPDIR of our own (short: AF_UNIX paths), and a marker in the environment of
    every process this test starts, so leftovers of either kind can be asserted."""
    # This process's multiprocessing folder (the local engine's forkserver socket) is made
    # once per process and lives with it: keep it out of the folder removed below.
    multiprocessing.util.get_temp_dir()
    folder = Path(tempfile.mkdtemp(prefix="ac-dask-", dir="/tmp"))
    marker = f"ac-dask-{os.getpid()}-{time.monotonic_ns()}"
    monkeypatch.setenv("TMPDIR", str(folder))
    monkeypatch.setenv("AC_TEST_MARKER", marker)
    monkeypatch.delenv("ARTIFACTCHECK_RENDER_POOL", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", None)  # gettempdir() reads TMPDIR again
    yield folder
    monkeypatch.undo()
    tempfile.tempdir = None
    deadline = time.monotonic() + 30
    while processes_with_env(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    left = {pid: _command(pid) for pid in processes_with_env(marker)}
    shutil.rmtree(folder, ignore_errors=True)
    assert left == {}, "processes outlived the test"


def _command(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "(gone)"


def test_local_cluster_gives_the_local_engines_results_and_resumes_it(tmp_path: Path, scratch: Path) -> None:
    manifest = write_manifest(tmp_path / "m.csv", ROWS)
    local = run_batch(manifest, tmp_path / "local", jobs=2, progress=False)
    assert [o.state for o in local] == ["scored"] * len(ROWS), [o.message for o in local]
    with _cluster(tmp_path / "cluster") as (cluster, _):
        address = cluster.scheduler_address  # tcp://127.0.0.1:PORT, as a running `dask scheduler`
        dask = run_batch(manifest, tmp_path / "dask", scheduler=address, progress=False)
        assert [o.state for o in dask] == ["scored"] * len(ROWS), [o.message for o in dask]
        assert all(o.attempts == 1 for o in dask)
        assert_same_results(tmp_path / "local", tmp_path / "dask")

        # files sent as bytes: the same reports, naming the coordinator's paths
        shipped = run_batch(manifest, tmp_path / "shipped", scheduler=address, ship_artifacts=True, progress=False)
        assert [o.state for o in shipped] == ["scored"] * len(ROWS), [o.message for o in shipped]
        assert_same_results(tmp_path / "local", tmp_path / "shipped")
        assert "artifactcheck-shipped-" not in "".join(p.read_text() for p in (tmp_path / "shipped").rglob("*.*"))

        # a batch the local engine left half done is finished by Dask
        _forget(tmp_path / "local", ROWS[::3])
        again = run_batch(manifest, tmp_path / "local", scheduler=address, progress=False)
        assert [o.state for o in again] == ["scored" if i % 3 == 0 else "resumed" for i in range(len(ROWS))]
        assert_same_results(tmp_path / "local", tmp_path / "dask", tables=False)
    # ... and the other way round
    _forget(tmp_path / "dask", ROWS[1::3])
    again = run_batch(manifest, tmp_path / "dask", jobs=2, progress=False)
    assert [o.state for o in again] == ["scored" if i % 3 == 1 else "resumed" for i in range(len(ROWS))]
    assert_same_results(tmp_path / "dask", tmp_path / "shipped", tables=False)
    assert _leftovers(scratch) == [], "the clusters' folders must be gone"


def _forget(out: Path, rows: list[tuple[str, str, str]]) -> None:
    """What an interrupted run leaves: these rows never got their fingerprint file."""
    for task, run, _ in rows:
        (out / "reports" / task / f"run-{run}.inputs.json").unlink()


def _leftovers(scratch: Path) -> list[str]:
    return sorted(p.name for p in scratch.iterdir())


@contextlib.contextmanager
def _cluster(folder: Path) -> Iterator[tuple[Any, Any]]:
    """A real LocalCluster: 2 worker processes (one thread each) on 127.0.0.1, free
    ports, no dashboard, every folder of Dask's in ``folder``."""
    import dask

    with dask.config.set({"temporary-directory": str(folder)}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", scheduler_port=0,
                                     dashboard_address=None, local_directory=str(folder), silence_logs=50) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        yield cluster, client


def test_shipped_files_are_all_a_worker_needs(tmp_path: Path) -> None:
    """Packed on the coordinator, then the originals are gone: the copies score the same
    (an include from ../fragments, a trace, reference images in assets/)."""
    tasks = tmp_path / "tasks"
    for name in ("reference_list", "formal_letter", "fragments"):
        shutil.copytree(TASKS / name, tasks / name)
    manifest = tmp_path / "m.csv"
    manifest.write_text("task,run,artifact,rubric,trace\n"
                        "reference_list,pass,tasks/reference_list/pass.docx,tasks/reference_list/rubric.yaml,tasks/reference_list/trace.jsonl\n"
                        "formal_letter,pass,tasks/formal_letter/pass.docx,tasks/formal_letter/rubric.yaml,\n", encoding="utf-8")
    rows = read_manifest(manifest)
    here = [evaluate_row(row, html=False) for row in rows]
    packed = [pack_row(row, RubricFiles()) for row in rows]
    assert str((tasks / "fragments" / "formatted_link.yaml").resolve()) in packed[0].files
    assert str((tasks / "formal_letter" / "assets" / "signature.png").resolve()) in packed[1].files
    shutil.rmtree(tasks)
    for original, shipped in zip(here, packed, strict=True):
        with unpacked(shipped, tmp_path / "worker") as (copy, prefix):
            assert not Path(shipped.row.artifact).exists() and Path(copy.artifact).is_file()
            there = evaluate_row(copy, html=False, named_as=shipped.row, hide_prefix=prefix)
        assert there.state == "scored", there.message
        assert _timeless(json.loads(there.report_json or "")) == _timeless(json.loads(original.report_json or ""))
        assert there.fingerprint == original.fingerprint
    assert list((tmp_path / "worker").iterdir()) == []


def _just_started(dask_worker: object) -> bool:
    """On a worker: is a row executing that began 0.05-0.5 s ago? A cold row takes a
    second or more, so one killed then is mid-row; a row near its end could finish (and
    report) between this answer and the kill, under a loaded suite, and nothing would be
    retried."""
    now = time.time()
    started = [ts.start_time for ts in dask_worker.state.executing if ts.start_time]  # type: ignore[attr-defined]
    return any(0.05 <= now - t <= 0.5 for t in started)


def test_a_worker_killed_mid_row_has_the_row_retried_elsewhere(tmp_path: Path, scratch: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    slow = [r for r in ROWS if r[2] in ("pdf", "png", "docx")]  # OCR and layout: a second or more each
    # ...when nothing is cached: with the suite's warm render and OCR caches a row took
    # ~0.1 s and the kill could land between rows (no row retried). The workers inherit
    # this environment when the cluster starts them.
    monkeypatch.setenv("ARTIFACTCHECK_CACHE_DIR", str(tmp_path / "cold-cache"))
    manifest = write_manifest(tmp_path / "m.csv", slow, copies=2)
    rows = read_manifest(manifest)
    with _cluster(tmp_path / "cluster") as (cluster, client):
        pids = client.run(os.getpid)
        outcomes: list[RowOutcome] = []
        batch = threading.Thread(target=lambda: outcomes.extend(
            run_batch(manifest, tmp_path / "out", scheduler=cluster.scheduler_address, progress=False)))
        batch.start()
        killed = None
        deadline = time.monotonic() + 90
        while killed is None and time.monotonic() < deadline and batch.is_alive():
            busy = client.run(_just_started)
            for address, executing in busy.items():
                if executing and (tmp_path / "out" / "reports").exists():  # mid-row, after the first report
                    os.kill(pids[address], signal.SIGKILL)
                    killed = address
                    break
            time.sleep(0.05)
        batch.join(timeout=180)
        assert killed is not None and not batch.is_alive()
        every = sorted(pids.values()) + sorted(client.run(os.getpid).values())
    lines = [o.row.line for o in outcomes]
    assert len(outcomes) == len(rows) and len(set(lines)) == len(rows), "every row once"
    assert [o.state for o in outcomes] == ["scored"] * len(rows), [o.message for o in outcomes]
    assert sum(o.attempts > 1 for o in outcomes) == 1 and max(o.attempts for o in outcomes) == 2
    with open(tmp_path / "out" / "runs.csv", encoding="utf-8") as fh:
        assert len(list(csv.DictReader(fh))) == len(rows)
    assert len([p for p in (tmp_path / "out" / "reports").rglob("*.json") if not p.name.endswith(".inputs.json")]) == len(rows)
    assert not list((tmp_path / "out").rglob("*.tmp"))
    time.sleep(0.5)
    assert [pid for pid in every if Path(f"/proc/{pid}").exists()] == [], "worker processes outlived the cluster"
    ours = [p for p in (tmp_path / "cluster").rglob("artifactcheck*") if p.name != "artifactcheck"]
    assert ours == [] and _leftovers(scratch) == [], "work folders (LibreOffice, shipped files) left behind"


def _cli(manifest: Path, out: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "artifactcheck.cli", "batch", str(manifest), "-o", str(out), *extra]


def _started(out: Path, process: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and process.poll() is None and not list(out.glob("reports/*/run-*.inputs.json")):
        time.sleep(0.1)


def test_a_killed_coordinator_is_resumed_by_the_other_engine(tmp_path: Path, scratch: Path) -> None:
    rows = ROWS[:6]
    manifest = write_manifest(tmp_path / "m.csv", rows)
    out = tmp_path / "out"
    env = dict(os.environ)
    # Dask coordinator killed outright: its LocalCluster's workers end with it
    process = subprocess.Popen(_cli(manifest, out, "--scheduler", "local:2"), env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True)
    _started(out, process)
    process.kill()
    process.communicate(timeout=60)
    deadline = time.monotonic() + 30
    while processes_with_env(env["AC_TEST_MARKER"]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with_env(env["AC_TEST_MARKER"]) == [], "the cluster outlived its coordinator"
    done = len(list(out.glob("reports/*/run-*.inputs.json")))
    assert not list(out.rglob("*.tmp"))
    local = subprocess.run(_cli(manifest, out, "-j", "2"), env=env, check=False, capture_output=True, text=True, timeout=300)
    assert local.returncode == 0 and f"{done} already done" in local.stderr, local.stderr

    # local coordinator interrupted (Ctrl-C), finished by Dask (which also removes the
    # folder the killed coordinator's LocalCluster left)
    shutil.rmtree(out)
    process = subprocess.Popen(_cli(manifest, out, "-j", "2"), env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    _started(out, process)
    process.send_signal(signal.SIGINT)
    process.communicate(timeout=120)
    done = len(list(out.glob("reports/*/run-*.inputs.json")))
    dask = subprocess.run(_cli(manifest, out, "--scheduler", "local:2"), env=env, check=False, capture_output=True, text=True, timeout=300)
    assert dask.returncode == 0 and f"{done} already done" in dask.stderr and "0 not scored" in dask.stderr, dask.stderr
    assert len(list(out.glob("reports/*/run-*.inputs.json"))) == len(rows)
    assert _leftovers(scratch) == []


def test_an_unreachable_scheduler_is_one_line_naming_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    manifest = write_manifest(tmp_path / "m.csv", ROWS[:1])
    env = {**os.environ, "ARTIFACTCHECK_SCHEDULER_TIMEOUT": "2"}
    result = subprocess.run(_cli(manifest, tmp_path / "out", "--scheduler", f"tcp://127.0.0.1:{port}"), check=False, env=env,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith(f"artifactcheck: error: cannot reach the Dask scheduler at tcp://127.0.0.1:{port} within 2 s")
    assert not (tmp_path / "out").exists(), "nothing is written before the scheduler answers"


def test_without_distributed_the_cli_says_how_to_install_it(tmp_path: Path) -> None:
    manifest = write_manifest(tmp_path / "m.csv", ROWS[:1])
    code = ("import sys; sys.modules['distributed'] = None; from artifactcheck.cli import main; "
            f"sys.argv = ['artifactcheck', 'batch', {str(manifest)!r}, '--scheduler', 'local:2']; main()")
    result = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert "Dask distributed (needed by batch --scheduler) is not available" in result.stderr
    assert "pip install 'artifactcheck[cluster]'" in result.stderr


def test_a_row_over_the_shipping_budget_is_refused_with_its_size(tmp_path: Path) -> None:
    from artifactcheck.errors import ArtifactTooLarge
    from artifactcheck.limits import use_limits

    (row,) = read_manifest(write_manifest(tmp_path / "m.csv", ROWS[1:2]))
    with use_limits(shipped_row_bytes=1000), pytest.raises(ArtifactTooLarge, match=r"over what --ship-artifacts sends .*shipped_row_bytes"):
        pack_row(row, RubricFiles())
    assert pack_row(row, RubricFiles()).size > 1000


def test_ship_artifacts_needs_a_scheduler(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from artifactcheck.cli import app

    manifest = write_manifest(tmp_path / "m.csv", ROWS[:1])
    result = CliRunner().invoke(app, ["batch", str(manifest), "--ship-artifacts"])
    assert result.exit_code == 2 and "--ship-artifacts sends files to Dask workers; it needs --scheduler" in result.output


def test_the_cli_does_not_import_dask_until_a_batch_asks_for_it() -> None:
    code = "import sys, artifactcheck.cli; print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))"
    result = subprocess.run([sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr
