"""The batch manifest: CSV with a header row, or JSONL, one (artifact, rubric, trace)
row per line, resolved to :class:`BatchRow` (see ``run.py`` for the columns and the
output folder each row's report goes to)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ArtifactCheckError

__all__ = ["BatchRow", "read_manifest"]

_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class BatchRow:
    """One manifest row with resolved paths; ``line`` is its 1-based manifest line."""

    artifact: str
    rubric: str
    trace: str | None
    task: str
    run: str
    line: int
    assets: str | None = None
    rubric_root: str | None = None

    def report_path(self, out: Path) -> Path:
        return out / "reports" / _safe(self.task) / f"run-{_safe(self.run)}.json"

    def report_key(self) -> tuple[str, str]:
        """What decides the report file, as a case-insensitive file system sees it."""
        return _safe(self.task).casefold(), _safe(self.run).casefold()

    def inputs_path(self, out: Path) -> Path:
        """Fingerprint of the inputs a report was made from (for resuming)."""
        return self.report_path(out).with_suffix(".inputs.json")


_MAX_NAME = 80  # characters of a task/run name kept in a file name (ext4: 255 bytes)


def _safe(name: str) -> str:
    """A file-name-safe form of a task or run name: never a path (no separators, no
    leading dots), never empty, never too long (long names keep a prefix and a hash of
    the whole). Not injective by itself: read_manifest refuses rows that collide."""
    safe = _SAFE.sub("_", name).strip("._") or "_"
    if len(safe) > _MAX_NAME:
        safe = f"{safe[:_MAX_NAME - 17]}-{hashlib.sha256(name.encode()).hexdigest()[:16]}"
    return safe


def read_manifest(path: str | Path, *, rubric_root: str | Path | None = None) -> list[BatchRow]:
    """Parse a CSV or JSONL manifest. Raises ArtifactCheckError naming the line at fault.
    ``rubric_root`` confines every row's rubric includes and reference images (default:
    per row, the parent of the rubric's folder)."""
    from ..input_files import read_input_bytes
    from ..rubric.loader import load_rubric

    manifest = Path(path)
    data = read_input_bytes(manifest, what="manifest", error=ArtifactCheckError, too_large=ArtifactCheckError)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ArtifactCheckError(f"cannot read manifest: {exc}", path=manifest) from None
    root = str(Path(rubric_root).resolve()) if rubric_root is not None else None
    raw: list[tuple[int, dict[str, Any]]] = []
    if manifest.suffix.lower() in (".jsonl", ".ndjson") or text.lstrip().startswith("{"):
        for number, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    item = json.loads(line)
                except ValueError as exc:
                    raise ArtifactCheckError(f"line {number}: not JSON: {exc}", path=manifest) from None
                if not isinstance(item, dict):
                    raise ArtifactCheckError(f"line {number}: each line must be a JSON object", path=manifest)
                raw.append((number, item))
    else:
        reader = csv.DictReader(io.StringIO(text))
        for record in reader:
            raw.append((reader.line_num, {k.strip(): (v or "").strip() for k, v in record.items() if k}))
    base = manifest.parent
    rows: list[BatchRow] = []
    seen: set[tuple[str, str]] = set()
    report_files: dict[tuple[str, str], tuple[int, str, str]] = {}
    counters: dict[str, int] = {}
    tasks_of_rubric: dict[str, str] = {}
    allowed = {"artifact", "rubric", "trace", "task", "run", "assets"}
    for number, item in raw:
        unknown = set(item) - allowed
        if unknown:
            raise ArtifactCheckError(f"line {number}: unknown column(s) {sorted(unknown)}; allowed: {sorted(allowed)}", path=manifest)
        if not item.get("artifact") or not item.get("rubric"):
            raise ArtifactCheckError(f"line {number}: artifact and rubric are required", path=manifest)
        rubric = str(base / str(item["rubric"]))
        task = str(item.get("task") or "")
        if not task:
            if rubric not in tasks_of_rubric:
                tasks_of_rubric[rubric] = load_rubric(rubric, root=root).task
            task = tasks_of_rubric[rubric]
        run = str(item.get("run")) if item.get("run") not in (None, "") else str(counters.get(task, 0))
        counters[task] = counters.get(task, 0) + 1
        if (task, run) in seen:
            raise ArtifactCheckError(f"line {number}: task {task!r} run {run!r} appears twice", path=manifest)
        seen.add((task, run))
        trace = str(base / str(item["trace"])) if item.get("trace") else None
        assets = str(base / str(item["assets"])) if item.get("assets") else None
        row = BatchRow(_artifact_location(base, str(item["artifact"])), rubric, trace, task, run, number, assets, root)
        other = report_files.setdefault(row.report_key(), (number, task, run))
        if other[0] != number:
            raise ArtifactCheckError(
                f"line {number}: task {task!r} run {run!r} would be written to the same report file as line "
                f"{other[0]} (task {other[1]!r} run {other[2]!r}): reports/{_safe(task)}/run-{_safe(run)}.json; "
                "rename one of them", path=manifest)
        rows.append(row)
    return rows


def _artifact_location(base: Path, value: str) -> str:
    """A path relative to the manifest, or a Google URL/id kept as written."""
    if (base / value).exists() or "://" not in value and not _google(value):
        return str(base / value)
    return value


def _google(value: str) -> bool:
    from ..extractors.google.access import looks_like_google_ref

    return looks_like_google_ref(value)
