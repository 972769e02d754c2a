"""Committed JSON Schema files generated from pydantic models: the document tree, the
rubric and the report each publish one (``document.schema.json``, ``rubric.schema.json``,
``report.schema.json``), written the same way so the three stay comparable: draft 2020-12,
an ``$id`` naming the kind and version, keys sorted, two-space indent, final newline.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def model_json_schema(model: type[BaseModel], *, name: str, version: str, mode: JsonSchemaMode) -> dict[str, Any]:
    """``model``'s schema with ``$schema`` and ``$id`` (``.../schema/<name>-<version>.json``)."""
    schema = model.model_json_schema(mode=mode)
    schema["$schema"] = DIALECT
    schema["$id"] = f"https://artifactcheck.invalid/schema/{name}-{version}.json"
    return schema


def render_json_schema(schema: dict[str, Any]) -> str:
    """The committed text: stable across runs, so a test can compare it byte for byte."""
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def write_schema_file(path: Path, text: str) -> None:
    """Rewrite a committed schema file (the modules' ``main``) and say which."""
    path.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {path}\n")
