"""Every malformed file of the corpus gets a typed error naming the file, within a time
limit, leaving no temp files behind; the tolerable ones load. Runs in a child process with
its own TMPDIR so leftovers and hangs are visible."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from artifactcheck import errors
from tests.conftest import CORPUS, corpus_files

BAD = corpus_files("bad")
PER_FILE_SECONDS = 90

# File -> the error class it must raise. Files not listed may load or raise any typed error.
EXPECTED: dict[str, type[errors.ArtifactCheckError]] = {
    "openpyxl_null_file.xlsx": errors.CorruptArtifact,
    "poi_invalid.xlsx": errors.CorruptArtifact,
    "poi_truncated62886.docx": errors.CorruptArtifact,
    "tika_testWORD_truncated.docx": errors.CorruptArtifact,
    "poi_clusterfuzz-XSLF-5471515212382208.pptx": errors.CorruptArtifact,
    "poi_clusterfuzz-XSSF-5185049589579776.xlsx": errors.CorruptArtifact,
    "poi_clusterfuzz-XWPF-4959857092198400.docx": errors.CorruptArtifact,
    "poi_bug53475-password-is-pass.docx": errors.EncryptedArtifact,
    "poi_protected_agile.docx": errors.EncryptedArtifact,
    "poi_protected_passtika.xlsx": errors.EncryptedArtifact,
    "tika_testPPT_protected_passtika.pptx": errors.EncryptedArtifact,
    "poi_hello_world_wrong_ext.docm": errors.UnsupportedFormat,
    "mammoth_strict-format.docx": errors.UnsupportedFormat,
    "poi_SimpleStrict.xlsx": errors.UnsupportedFormat,
    "poi_poc-xmlbomb.xlsx": errors.CorruptArtifact,
    "poi_54764.xlsx": errors.CorruptArtifact,
}

CHILD = r"""
import json, sys, time, traceback
from pathlib import Path
import artifactcheck
from artifactcheck.errors import ArtifactCheckError
out = {}
for name in sys.argv[1:]:
    start = time.perf_counter()
    try:
        doc = artifactcheck.load(name)
        out[name] = {"ok": True, "nodes": len(doc), "seconds": time.perf_counter() - start}
    except ArtifactCheckError as exc:
        out[name] = {"ok": False, "typed": True, "classes": [c.__name__ for c in type(exc).__mro__],
                     "message": str(exc), "seconds": time.perf_counter() - start}
    except BaseException as exc:
        out[name] = {"ok": False, "typed": False, "message": "".join(traceback.format_exception(exc)),
                     "seconds": time.perf_counter() - start}
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict]:
    if not BAD:
        pytest.skip(f"corpus not found at {CORPUS}")
    tmp = tmp_path_factory.mktemp("bad-tmp")
    cache = tmp_path_factory.mktemp("bad-cache")
    env = {**os.environ, "TMPDIR": str(tmp), "ARTIFACTCHECK_CACHE_DIR": str(cache)}
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, *map(str, BAD)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )
    try:
        stdout, stderr = proc.communicate(timeout=PER_FILE_SECONDS * 4)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("loading the bad corpus hung")
    assert proc.returncode == 0, stderr.decode()[-3000:]
    result = {Path(k).name: v for k, v in json.loads(stdout.splitlines()[-1]).items()}
    result["__leftovers__"] = {"files": sorted(p.name for p in tmp.iterdir())}  # type: ignore[assignment]
    return result


@pytest.mark.parametrize("path", BAD, ids=[p.name for p in BAD])
def test_bad_file_gets_typed_error_or_loads(outcomes: dict[str, dict], path: Path) -> None:
    got = outcomes[path.name]
    assert got["seconds"] < PER_FILE_SECONDS, f"{path.name} took {got['seconds']:.1f}s"
    if not got["ok"]:
        assert got["typed"], f"{path.name} escaped as an untyped exception:\n{got['message']}"
        assert path.name in got["message"], f"the message must name the file: {got['message']}"
    expected = EXPECTED.get(path.name)
    if expected is not None:
        assert not got["ok"], f"{path.name} loaded but must raise {expected.__name__}"
        assert expected.__name__ in got["classes"], f"{path.name}: {got['message']}"


def test_no_temp_files_left_behind(outcomes: dict[str, dict]) -> None:
    assert outcomes["__leftovers__"]["files"] == []
