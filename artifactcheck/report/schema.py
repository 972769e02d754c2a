"""The report's JSON Schema, generated from the models and committed as
``report.schema.json`` so consumers can validate what ``artifactcheck score --json``
writes. ``python -m artifactcheck.report.schema`` rewrites it; a test fails when the
committed file is out of date."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..schema_file import model_json_schema, render_json_schema, write_schema_file
from .model import REPORT_VERSION, Report

SCHEMA_PATH = Path(__file__).with_name("report.schema.json")


def report_json_schema() -> dict[str, Any]:
    return model_json_schema(Report, name="report", version=REPORT_VERSION, mode="serialization")


def render_schema() -> str:
    return render_json_schema(report_json_schema())


def main() -> None:
    write_schema_file(SCHEMA_PATH, render_schema())


if __name__ == "__main__":
    main()
