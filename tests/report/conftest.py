"""Report tests reuse the in-memory letter Document of tests/rubric (saved as a tree
JSON file when a test needs an artifact on disk)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "rubric"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

RUBRIC = """\
task: letter
steps:
  - id: logo
    description: the logo is in the upper-left corner
    step_type: spatial
    critical: true
    check: in_region
    params: {target: "document > image:first-child", region: upper-left}
  - id: title_low
    description: the title is in the bottom third (it is not)
    step_type: spatial
    check: in_region
    params: {target: paragraph, region: bottom third}
  - id: photo
    description: the photo is placed (it has no box)
    step_type: spatial
    check: in_region
    params: {target: "image[name]", region: upper-left}
"""


@pytest.fixture
def letter_files(tmp_path: Path) -> tuple[Path, Path]:
    """(artifact tree JSON, rubric YAML) in tmp_path."""
    from rubric_docs import letter_doc

    artifact = tmp_path / "letter.json"
    artifact.write_text(letter_doc().to_json(), encoding="utf-8")
    rubric = tmp_path / "letter.yaml"
    rubric.write_text(RUBRIC, encoding="utf-8")
    return artifact, rubric
