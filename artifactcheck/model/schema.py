"""The tree's JSON Schema, generated from the models and committed next to them as
``document.schema.json``. ``python -m artifactcheck.model.schema`` rewrites it; a test
fails when the committed file is out of date."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from .document import SCHEMA_VERSION, Document

SCHEMA_PATH = Path(__file__).with_name("document.schema.json")


def document_json_schema() -> dict[str, Any]:
    schema = Document.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://artifactcheck.invalid/schema/document-{SCHEMA_VERSION}.json"
    return schema


def render_schema() -> str:
    return json.dumps(document_json_schema(), indent=2, sort_keys=True) + "\n"


def main() -> None:
    SCHEMA_PATH.write_text(render_schema(), encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA_PATH}\n")


if __name__ == "__main__":
    main()
