"""Golden-file snapshots: extraction output compared with a reviewed JSON file.

Regenerate with ``ARTIFACTCHECK_REGEN_GOLDEN=1 pytest ...`` and review the diff; the
suite fails in CI while the flag is set (tests/test_golden_flag.py), so a regenerated
snapshot can never pass unreviewed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN = os.environ.get("ARTIFACTCHECK_REGEN_GOLDEN") == "1"


def _round(value: Any, digits: int) -> Any:
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, list):
        return [_round(v, digits) for v in value]
    if isinstance(value, dict):
        return {k: _round(v, digits) for k, v in value.items()}
    return value


def assert_matches_golden(name: str, data: Any, *, digits: int = 2) -> None:
    """Compare ``data`` (JSON-able) with ``tests/golden/<name>.json`` after rounding
    floats to ``digits`` places; with the regenerate flag, write the file instead."""
    path = GOLDEN_DIR / f"{name}.json"
    actual = _round(json.loads(json.dumps(data)), digits)
    if REGEN:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(actual, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
        return
    if not path.exists():
        raise AssertionError(f"no golden file {path}; run with ARTIFACTCHECK_REGEN_GOLDEN=1 and review it")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert actual == expected, f"{name}: extraction differs from {path} (regenerate and review the diff)"
