"""The rubric file's JSON Schema, generated from the models and committed next to them as
``rubric.schema.json``. ``python -m artifactcheck.rubric.schema`` rewrites it; a test
fails when the committed file is out of date. The loader validates every (expanded)
rubric file against the committed file, so the published schema is the one enforced."""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

from .model import RUBRIC_SCHEMA_VERSION, Rubric

SCHEMA_PATH = Path(__file__).with_name("rubric.schema.json")


def rubric_json_schema() -> dict[str, Any]:
    schema = Rubric.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = f"https://artifactcheck.invalid/schema/rubric-{RUBRIC_SCHEMA_VERSION}.json"
    return schema


def render_schema() -> str:
    return json.dumps(rubric_json_schema(), indent=2, sort_keys=True) + "\n"


@lru_cache(maxsize=1)
def load_committed_schema() -> dict[str, Any]:
    return json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def main() -> None:
    SCHEMA_PATH.write_text(render_schema(), encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA_PATH}\n")


if __name__ == "__main__":
    main()
