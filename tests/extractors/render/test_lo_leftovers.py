"""A LibreOffice conversion that dies leaves nothing behind: its temp files are inside
the per-conversion work dir (TMPDIR points there) and the IPC socket it leaves in /tmp
is removed (extractors/render/lo_leftovers.py)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import docx
import pytest

from artifactcheck.extractors.render import LibreOfficeRenderer
from artifactcheck.extractors.render.lo_leftovers import ipc_socket_paths
from artifactcheck.extractors.render.process_group import paths_in_cmdlines


def _wait_for(predicate, seconds: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc").is_dir(), reason="needs /proc")
def test_a_killed_conversion_leaves_no_temp_files_and_no_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env_tmp = tmp_path / "env-tmp"
    env_tmp.mkdir()
    monkeypatch.setenv("TMPDIR", str(env_tmp))  # where soffice would put lu*.tmp unless told otherwise
    document = docx.Document()
    for i in range(4000):
        document.add_paragraph(f"Paragraph {i} " + "words " * 30)
    src = tmp_path / "long.docx"
    document.save(str(src))
    work_root = tmp_path / "work"
    work_root.mkdir()
    renderer = LibreOfficeRenderer(tmp_root=work_root)
    failure: list[BaseException] = []

    def convert() -> None:
        try:
            renderer.convert(src, tmp_path / "out", timeout=300)
        except BaseException as exc:  # noqa: BLE001 - the test looks at it
            failure.append(exc)

    thread = threading.Thread(target=convert)
    thread.start()
    assert _wait_for(lambda: any(work_root.glob("artifactcheck-lo-*")), 60)
    work = next(work_root.glob("artifactcheck-lo-*"))
    sockets = ipc_socket_paths((work / "profile").as_uri())
    assert _wait_for(lambda: any(s.exists() for s in sockets), 120), "soffice never opened its IPC socket"
    for entry in Path("/proc").iterdir():  # kill soffice.bin itself, as an OOM killer would
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"soffice.bin" in cmdline and str(work).encode() in cmdline:
                os.kill(int(entry.name), signal.SIGKILL)
    thread.join(120)
    assert failure, "the conversion of a killed soffice must fail"
    assert not any(s.exists() for s in sockets), "the IPC socket of the dead soffice is left in /tmp"
    assert list(work_root.iterdir()) == [], "the work dir must be removed"
    assert list(env_tmp.iterdir()) == [], "soffice wrote temp files outside its work dir"
    assert paths_in_cmdlines([str(work)]) == set()
