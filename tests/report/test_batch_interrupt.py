"""Ctrl-C during a batch: the command stops its workers, leaves no half reports, exits
130, and the next run resumes after the rows that finished."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

TASKS = Path(__file__).resolve().parents[2] / "fixtures" / "tasks"


def processes_with_env(marker: str) -> list[int]:
    """Pids of live processes whose environment holds ``marker`` (our own children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_interrupted_batch_resumes(tmp_path: Path) -> None:
    manifest = tmp_path / "m.csv"
    rows = ["artifact,rubric,task,run"]
    for task, variant in [("lesson_plan", "pass"), ("lesson_plan", "fail_flat_bullets"), ("lesson_plan", "fail_images_stacked"),
                          ("recipe_ocr", "fail_wrong_time")]:
        rows.append(f"{TASKS / task / variant}.docx,{TASKS / task / 'rubric.yaml'},{task},{variant}")
    manifest.write_text("\n".join(rows) + "\n", encoding="utf-8")
    marker = f"ac-interrupt-{os.getpid()}-{time.monotonic_ns()}"
    env = {**os.environ, "ARTIFACTCHECK_CACHE_DIR": str(tmp_path / "cache"), "AC_TEST_MARKER": marker}
    out = tmp_path / "out"
    command = [sys.executable, "-m", "artifactcheck.cli", "batch", str(manifest), "-o", str(out), "-j", "2"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None and not list(out.glob("reports/*/run-*.inputs.json")):
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=120)
    done = len(list(out.glob("reports/*/run-*.inputs.json")))
    assert process.returncode in (130, 0), output
    if process.returncode == 130:
        assert "rerun the same command to resume" in output
    assert not list(out.rglob("*.tmp")), "no half-written report may remain"
    time.sleep(1)
    assert processes_with_env(marker) == [], "workers must not outlive the interrupted batch"
    again = subprocess.run(command, check=False, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"{done} already done" in again.stderr and "0 not scored" in again.stderr


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_workers_end_when_the_batch_process_is_killed(tmp_path: Path) -> None:
    """SIGKILL gives the batch process no chance to stop its pool: the workers notice
    their coordinator is gone, unwind (their LibreOffice is killed, its work dir and
    socket removed), and exit; the forkserver and resource tracker follow; nothing is
    left in TMPDIR."""
    manifest = tmp_path / "m.csv"
    rows = ["artifact,rubric,task,run"]
    for variant in ("pass", "fail_flat_bullets", "fail_images_stacked", "pass"):
        rows.append(f"{TASKS / 'lesson_plan' / variant}.docx,{TASKS / 'lesson_plan' / 'rubric.yaml'},lesson_plan,{len(rows)}")
    manifest.write_text("\n".join(rows) + "\n", encoding="utf-8")
    marker = f"ac-kill-{os.getpid()}-{time.monotonic_ns()}"
    # Short: the forkserver's socket lives in TMPDIR and AF_UNIX paths stop at 108 bytes.
    scratch = Path(tempfile.mkdtemp(prefix="ac-kill-", dir="/tmp"))
    try:
        _kill_batch_and_check(tmp_path, manifest, marker, scratch)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _kill_batch_and_check(tmp_path: Path, manifest: Path, marker: str, scratch: Path) -> None:
    from artifactcheck.extractors.render.lo_leftovers import ipc_socket_paths

    env = {**os.environ, "ARTIFACTCHECK_CACHE_DIR": str(tmp_path / "cache"), "AC_TEST_MARKER": marker, "TMPDIR": str(scratch)}
    command = [sys.executable, "-m", "artifactcheck.cli", "batch", str(manifest), "-o", str(tmp_path / "out"), "-j", "2",
               "--renderer", "cold"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seen: set[Path] = set()
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and process.poll() is None and not seen:
        seen.update(scratch.glob("artifactcheck-lo-*"))
        time.sleep(0.1)
    assert seen, f"no conversion started: {process.communicate(timeout=60)[0] if process.poll() is not None else ''}"
    time.sleep(1.0)  # let soffice open its socket
    seen.update(scratch.glob("artifactcheck-lo-*"))
    process.kill()
    process.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and processes_with_env(marker):
        time.sleep(0.5)
    assert processes_with_env(marker) == [], "workers (or LibreOffice) outlived the killed batch"
    assert sorted(p.name for p in scratch.iterdir()) == [], "temp files left behind"
    sockets = [s for work in seen for s in ipc_socket_paths((work / "profile").as_uri())]
    assert not any(s.exists() for s in sockets), "LibreOffice's IPC socket left in /tmp"
