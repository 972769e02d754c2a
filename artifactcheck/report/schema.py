"""The report's JSON Schema, generated from the models and committed as
``report.schema.json`` so consumers can validate what ``artifactcheck score --json``
writes. ``python -m artifactcheck.report.schema`` rewrites it; a test fails when the
committed file is out of date."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .model import REPORT_VERSION, Report

SCHEMA_PATH = Path(__file__).with_name("report.schema.json")


def report_json_schema() -> dict[str, Any]:
    schema = Report.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://artifactcheck.invalid/schema/report-{REPORT_VERSION}.json"
    return schema


def render_schema() -> str:
    return json.dumps(report_json_schema(), indent=2, sort_keys=True) + "\n"


def main() -> None:
    SCHEMA_PATH.write_text(render_schema(), encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA_PATH}\n")


if __name__ == "__main__":
    main()
