"""``--ship-artifacts``: a row's files travel to the Dask worker as bytes, for clusters
whose workers cannot read the coordinator's disk.

What travels (design/batch.md, "Shipping files"): the artifact (every file under it when
it is a folder), the trace, the rubric and each fragment it includes (read by the loader
itself, :func:`~artifactcheck.rubric.loader.rubric_files`), the assets folder (the row's
``assets``, else ``assets/`` beside the rubric), and any other file the rubric's
parameters name inside the assets folder or the rubric root (a reference image kept
next to the rubric). At most ``shipped_row_bytes`` per row (limits.py); a row over it is
refused with its size, the batch goes on.

On the worker, the files are written under a fresh temporary folder *at their original
absolute paths* (``<tmp>/work/runs/a.docx``), so relative includes and reference paths
resolve as on the coordinator; ``row_scoring.evaluate_row`` then removes that prefix
from the report, which therefore names the coordinator's paths.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import ArtifactTooLarge
from ..limits import current_limits
from .manifest import BatchRow, _google

__all__ = ["RubricFiles", "ShippedRow", "pack_row", "unpacked"]


@dataclass(frozen=True)
class ShippedRow:
    """A row and the bytes of every file it needs, keyed by the file's resolved absolute
    path on the coordinator."""

    row: BatchRow
    """As the coordinator's manifest names it (what the report names)."""
    resolved: BatchRow
    """The same row with every path resolved on the coordinator (symlinks too): the
    keys of ``files`` and what the copies are named after on the worker."""
    files: dict[str, bytes]

    @property
    def size(self) -> int:
        return sum(len(data) for data in self.files.values())


class RubricFiles:
    """The files each rubric needs (with their bytes), found once per (rubric, root,
    assets) in a batch: thousands of rows share a handful of rubrics."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, str | None, str | None], dict[str, bytes]] = {}

    def of(self, row: BatchRow, budget: int) -> dict[str, bytes]:
        key = (row.rubric, row.rubric_root, row.assets)
        if key not in self._known:
            self._known[key] = _read_all(_rubric_paths(row), budget, row)
        return self._known[key]


def pack_row(row: BatchRow, rubrics: RubricFiles) -> ShippedRow:
    """The row with its files' bytes. Raises ArtifactTooLarge (naming the size and the
    budget) when they exceed ``shipped_row_bytes``; RubricError for a rubric that cannot
    be loaded (the row is then not scored, as on a shared file system)."""
    budget = current_limits().shipped_row_bytes
    files = dict(rubrics.of(row, budget))
    own: list[Path] = []
    artifact = Path(row.artifact)
    if artifact.is_dir():
        own.extend(p for p in sorted(artifact.rglob("*")) if p.is_file())
    elif artifact.is_file():
        own.append(artifact)
    if row.trace and Path(row.trace).is_file():
        own.append(Path(row.trace))
    files.update(_read_all(own, budget - sum(len(v) for v in files.values()), row))
    return ShippedRow(row, _resolved(row), files)


def _resolved(row: BatchRow) -> BatchRow:
    def full(path: str | None) -> str | None:
        return str(Path(path).resolve()) if path else None

    local = not _google(row.artifact)
    return replace(row, artifact=str(Path(row.artifact).resolve()) if local else row.artifact, rubric=str(Path(row.rubric).resolve()),
                   trace=full(row.trace), assets=full(row.assets), rubric_root=full(row.rubric_root))


def _rubric_paths(row: BatchRow) -> list[Path]:
    from ..rubric.loader import load_rubric, rubric_files, rubric_root_of

    paths = rubric_files(row.rubric, root=row.rubric_root)
    assets = Path(row.assets) if row.assets else Path(row.rubric).parent / "assets"
    if assets.is_dir():
        paths.extend(p for p in sorted(assets.rglob("*")) if p.is_file())
    allowed = [assets.resolve(), rubric_root_of(row.rubric, row.rubric_root)]
    for value in _strings(load_rubric(row.rubric, root=row.rubric_root).model_dump()):
        for candidate in (Path(value), assets / value):
            with contextlib.suppress(OSError, ValueError):
                if len(value) < 1024 and candidate.is_file() and any(candidate.resolve().is_relative_to(a) for a in allowed):
                    paths.append(candidate)
                    break
    return paths


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _read_all(paths: list[Path], budget: int, row: BatchRow) -> dict[str, bytes]:
    """Each file once, by resolved path; sizes are added up before anything is read."""
    unique = list(dict.fromkeys(p.resolve() for p in paths))
    total = sum(p.stat().st_size for p in unique)
    if total > budget:
        raise ArtifactTooLarge(
            f"row {row.line}: its files ({total / 2**20:.1f} MiB: artifact, trace, rubric, assets) are over what "
            f"--ship-artifacts sends ({current_limits().shipped_row_bytes / 2**20:.0f} MiB a row); "
            f"{current_limits().describe('shipped_row_bytes')}, or use a shared file system", path=row.artifact)
    return {str(p): p.read_bytes() for p in unique}


@contextlib.contextmanager
def unpacked(shipped: ShippedRow, scratch: Path) -> Iterator[tuple[BatchRow, str]]:
    """On the worker: write the files under a new folder in ``scratch``; yields the row
    naming the copies and the folder's path (the prefix to hide); removes it after."""
    scratch.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="artifactcheck-shipped-", dir=scratch)).resolve()
    try:
        for name, data in shipped.files.items():
            original = Path(name)
            if not original.is_absolute() or ".." in original.parts:
                raise ValueError(f"shipped file name {name!r} is not a plain absolute path")
            target = Path(str(root) + name)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        row, mirror = shipped.resolved, str(root)
        yield replace(
            row,
            artifact=row.artifact if _google(row.artifact) else mirror + row.artifact,
            rubric=mirror + row.rubric,
            trace=mirror + row.trace if row.trace else None,
            assets=mirror + row.assets if row.assets else None,
            rubric_root=mirror + row.rubric_root if row.rubric_root else None,
        ), mirror
    finally:
        shutil.rmtree(root, ignore_errors=True)
