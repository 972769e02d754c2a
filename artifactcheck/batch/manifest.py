"""The batch manifest: CSV with a header row, or JSONL, one (artifact, rubric, trace)
row per line, resolved to :class:`BatchRow` (see ``run.py`` for the columns and the
output folder each row's report goes to)."""

from __future__ import annotations

import csv
import hashlib
import io
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
    text = _decode(data, manifest)
    root = str(Path(rubric_root).resolve()) if rubric_root is not None else None
    if manifest.suffix.lower() in (".jsonl", ".ndjson") or text.lstrip().startswith("{"):
        raw = _jsonl_rows(text, manifest)
    else:
        raw = _csv_rows(text, manifest)
    if not raw:
        # an empty manifest is a mistake (a wrong file, a header only), not a batch of 0
        raise ArtifactCheckError("the manifest has no rows (a header and one row per artifact are needed)", path=manifest)
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


def _decode(data: bytes, manifest: Path) -> str:
    """UTF-8 text (a BOM allowed); a UTF-16 export or a legacy code page is named, with
    the line of the first bad byte, instead of a codec message with a byte offset."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise ArtifactCheckError("the manifest is UTF-16 text; save it as UTF-8 (CSV UTF-8)", path=manifest)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ArtifactCheckError(f"line {line}: the manifest is not UTF-8 text (byte 0x{data[exc.start]:02x}); "
                                 "save it as UTF-8", path=manifest) from None


def _jsonl_rows(text: str, manifest: Path) -> list[tuple[int, dict[str, Any]]]:
    from ..input_files import parse_json

    raw: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:  # strict: bounded nesting (a 100,000-deep line was a RecursionError), no NaN
            item = parse_json(line, what=f"manifest line {number}", error=ArtifactCheckError)
        except ArtifactCheckError as exc:
            raise ArtifactCheckError(exc.message, path=manifest) from None
        if not isinstance(item, dict):
            raise ArtifactCheckError(f"line {number}: each line must be a JSON object", path=manifest)
        for key, value in item.items():
            if isinstance(value, bool) or (value is not None and not isinstance(value, (str, int))):
                raise ArtifactCheckError(f"line {number}: {key} must be a string, got {type(value).__name__}", path=manifest)
        raw.append((number, {k: _no_nul(str(v), k, number, manifest) if v is not None else None for k, v in item.items()}))
    return raw


def _csv_rows(text: str, manifest: Path) -> list[tuple[int, dict[str, Any]]]:
    """CSV rows; strict quoting, and a row with more fields than the header is refused
    (an unquoted comma in a path shifted every later column: the rubric became the
    artifact's second half and the real rubric was dropped without a word)."""
    raw: list[tuple[int, dict[str, Any]]] = []
    reader = csv.DictReader(io.StringIO(text), strict=True)
    try:
        header = reader.fieldnames or []
        if len(header) == 1 and ";" in header[0]:
            raise ArtifactCheckError(f"the header {header[0]!r} is one column: separate the columns with commas, "
                                     "not semicolons", path=manifest)
        for record in reader:
            number = reader.line_num
            if None in record:
                raise ArtifactCheckError(f"line {number}: {len(header) + len(record[None])} fields, but the header has "
                                         f"{len(header)}; quote a value that holds a comma", path=manifest)
            raw.append((number, {k.strip(): _no_nul((v or "").strip(), k, number, manifest) for k, v in record.items() if k}))
    except csv.Error as exc:  # unterminated quote, a field over csv's size limit
        raise ArtifactCheckError(f"line {reader.line_num + 1}: not valid CSV: {exc}", path=manifest) from None
    return raw


def _no_nul(value: str, key: str, number: int, manifest: Path) -> str:
    if "\x00" in value:
        raise ArtifactCheckError(f"line {number}: {key.strip()} holds a NUL character", path=manifest)
    return value


def _artifact_location(base: Path, value: str) -> str:
    """A path relative to the manifest, or a Google URL/id kept as written."""
    if (base / value).exists() or "://" not in value and not _google(value):
        return str(base / value)
    return value


def _google(value: str) -> bool:
    from ..extractors.google.access import looks_like_google_ref

    return looks_like_google_ref(value)
