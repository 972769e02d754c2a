"""The rubric file's JSON Schema, generated from the models and committed next to them as
``rubric.schema.json``. ``python -m artifactcheck.rubric.schema`` rewrites it; a test
fails when the committed file is out of date. The loader validates every (expanded)
rubric file against the committed file, so the published schema is the one enforced."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..schema_file import model_json_schema, render_json_schema, write_schema_file
from .model import RUBRIC_SCHEMA_VERSION, Rubric

SCHEMA_PATH = Path(__file__).with_name("rubric.schema.json")


def rubric_json_schema() -> dict[str, Any]:
    return model_json_schema(Rubric, name="rubric", version=RUBRIC_SCHEMA_VERSION, mode="validation")


def render_schema() -> str:
    return render_json_schema(rubric_json_schema())


@lru_cache(maxsize=1)
def load_committed_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def main() -> None:
    write_schema_file(SCHEMA_PATH, render_schema())


if __name__ == "__main__":
    main()
