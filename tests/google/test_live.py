"""Live tests against Google's servers. They run only when credentials and test file ids
are in the environment, and skip otherwise (CI without secrets skips them):

- ``ARTIFACTCHECK_GOOGLE_CREDENTIALS``: a service-account key or authorized-user token
  JSON with read access to the test files (application default credentials also work
  when ``ARTIFACTCHECK_LIVE=1`` is set instead);
- ``ARTIFACTCHECK_TEST_DOC_ID``, ``ARTIFACTCHECK_TEST_SHEET_ID``,
  ``ARTIFACTCHECK_TEST_SLIDES_ID``: a Google Doc, Sheet and Slides deck shared with it;
- ``ARTIFACTCHECK_TEST_UNSHARED_ID`` (optional): a file the account cannot read.

    ARTIFACTCHECK_GOOGLE_CREDENTIALS=sa.json ARTIFACTCHECK_TEST_DOC_ID=... \\
        .venv/bin/pytest tests/google/test_live.py -m live
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from artifactcheck import GoogleAPIError, load
from artifactcheck.snapshot import capture, document_from_capture, load_bundle, write_bundle

pytestmark = pytest.mark.live

HAVE_CREDENTIALS = bool(os.environ.get("ARTIFACTCHECK_GOOGLE_CREDENTIALS") or os.environ.get("ARTIFACTCHECK_LIVE") == "1")
IDS = {
    "document": os.environ.get("ARTIFACTCHECK_TEST_DOC_ID"),
    "spreadsheet": os.environ.get("ARTIFACTCHECK_TEST_SHEET_ID"),
    "presentation": os.environ.get("ARTIFACTCHECK_TEST_SLIDES_ID"),
}
FORMATS = {"document": "gdoc", "spreadsheet": "gsheet", "presentation": "gslides"}


def _file_id(kind: str) -> str:
    if not HAVE_CREDENTIALS:
        pytest.skip("set ARTIFACTCHECK_GOOGLE_CREDENTIALS (or ARTIFACTCHECK_LIVE=1 with ADC) to run live tests")
    file_id = IDS[kind]
    if not file_id:
        pytest.skip(f"no test {kind} id in the environment")
    return file_id


@pytest.mark.parametrize("kind", list(IDS))
def test_live_file_loads_and_its_bundle_gives_the_same_tree(kind: str, tmp_path: Path) -> None:
    file_id = _file_id(kind)
    cap = capture(file_id)
    online = document_from_capture(cap)
    assert online.artifact.format == FORMATS[kind] and len(online) > 1
    assert not [w for w in online.warnings if "no bytes" in w], online.warnings
    if kind == "document":
        assert online.pages and any(n.boxes for n in online.iter("run"))
    if kind == "presentation":
        assert all(s.boxes for s in online.iter("slide"))
    bundle = write_bundle(cap, tmp_path / f"{kind}.zip")
    assert load_bundle(bundle).to_json() == online.to_json()


def test_live_wrong_id_is_a_404() -> None:
    _file_id("document")
    with pytest.raises(GoogleAPIError, match="HTTP 404"):
        load("1ThisIdDoesNotExist_artifactcheck_0000000000")


def test_live_unshared_file_is_refused() -> None:
    if not HAVE_CREDENTIALS or not os.environ.get("ARTIFACTCHECK_TEST_UNSHARED_ID"):
        pytest.skip("no ARTIFACTCHECK_TEST_UNSHARED_ID in the environment")
    with pytest.raises(GoogleAPIError, match=r"HTTP (403|404)"):
        load(str(os.environ["ARTIFACTCHECK_TEST_UNSHARED_ID"]))
