"""The committed report JSON Schema is current and validates real reports."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema

from artifactcheck.report.schema import SCHEMA_PATH, render_schema
from artifactcheck.rubric import score


def test_the_committed_report_schema_is_current() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == render_schema(), (
        "report.schema.json is stale: run python -m artifactcheck.report.schema"
    )


def test_reports_validate_against_the_schema(letter_files: tuple[Path, Path], tmp_path: Path) -> None:
    artifact, rubric = letter_files
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    data = json.loads(score(artifact, rubric).to_json())
    jsonschema.validate(data, schema)
    broken = tmp_path / "broken.docx"
    broken.write_bytes(b"PK\x03\x04 broken")
    jsonschema.validate(json.loads(score(broken, rubric).to_json()), schema)
    data["verdict"] = "MAYBE"
    try:
        jsonschema.validate(data, schema)
    except jsonschema.ValidationError:
        return
    raise AssertionError("a verdict outside PASS/PARTIAL/FAIL must not validate")
