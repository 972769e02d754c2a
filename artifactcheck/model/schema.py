"""The tree's JSON Schema, generated from the models and committed next to them as
``document.schema.json``. ``python -m artifactcheck.model.schema`` rewrites it; a test
fails when the committed file is out of date."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..schema_file import model_json_schema, render_json_schema, write_schema_file
from .document import SCHEMA_VERSION, Document

SCHEMA_PATH = Path(__file__).with_name("document.schema.json")


def document_json_schema() -> dict[str, Any]:
    return model_json_schema(Document, name="document", version=SCHEMA_VERSION, mode="serialization")


def render_schema() -> str:
    return render_json_schema(document_json_schema())


def main() -> None:
    write_schema_file(SCHEMA_PATH, render_schema())


if __name__ == "__main__":
    main()
