"""``render_pdf``: an Office file -> a PDF, through a content-addressed on-disk cache.

Key = sha256 of the file bytes + renderer name, version and options + target, so scoring
the same artifact twice renders once, and a LibreOffice upgrade never serves a stale PDF.
The same cache holds other conversions (``convert_cached``: a workbook LibreOffice
recalculated and saved back as .xlsx), each under its own target.
Location: ``$ARTIFACTCHECK_CACHE_DIR`` if set, else ``platformdirs.user_cache_dir`` /
``render``. Each entry is a directory ``<key>/`` holding ``document.pdf`` and
``entry.json`` (size and sha256 of the PDF). It is written in a temporary directory and
renamed into place in one step, so parallel processes never see half an entry; when two
race, the first rename wins and the loser uses the winner's entry. An entry whose PDF no
longer matches its recorded size/hash, or does not parse, is moved aside and rebuilt.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import tempfile
import threading
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from ...caches import cache_root
from ...digest import file_digest
from ...errors import RenderError
from .pdf_check import pdf_page_count
from .renderer import Renderer
from .selection import default_renderer

__all__ = ["RenderedPDF", "cache_dir", "cache_key", "cache_root", "convert_cached", "render_cache_stats", "render_pdf"]

# Bump when the entry format changes, or when what a render holds changes without the
# version changing: "2" since setup installs LibreOffice Math (renders made before drew
# every equation as blank space).
_CACHE_LAYOUT = "2"
_stats_lock = threading.Lock()
_stats = {"hits": 0, "misses": 0}


@dataclass
class _KeyLock:
    lock: threading.Lock = field(default_factory=threading.Lock)
    users: int = 0


_in_flight: dict[str, _KeyLock] = {}


def render_cache_stats() -> dict[str, int]:
    """Lookups in this process since it started: ``hits`` (a valid entry served) and
    ``misses`` (a conversion ran). Read by the service's /metrics."""
    with _stats_lock:
        return dict(_stats)


def _count(key: str) -> None:
    with _stats_lock:
        _stats[key] += 1


@dataclass(frozen=True)
class RenderedPDF:
    """A rendered PDF. ``pdf_path`` lives in the cache directory: do not modify it."""

    pdf_path: Path
    renderer_name: str
    renderer_version: str
    cached: bool


def cache_dir() -> Path:
    """The render cache (entries are created on demand)."""
    return cache_root() / "render"


def _sha256_file(path: Path) -> str:
    return file_digest(path).sha256


def cache_key(path: Path, renderer: Renderer, *, target: str = "pdf", source_sha256: str | None = None) -> str:
    """The entry name for ``path`` rendered by ``renderer`` (hex sha256)."""
    parts = [
        _CACHE_LAYOUT,
        source_sha256 or _sha256_file(path),
        renderer.name,
        renderer.version,
        renderer.options,
        target,
    ]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


def _valid_entry(entry: Path, name: str = "document.pdf") -> bool:
    out = entry / name
    try:
        meta = json.loads((entry / "entry.json").read_text())
        if out.stat().st_size != meta["size"]:
            return False
        if _sha256_file(out) != meta["sha256"]:
            return False
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if name.endswith(".pdf"):
        return pdf_page_count(out) > 0
    return zipfile.is_zipfile(out)


def _discard(entry: Path) -> None:
    """Move a bad entry aside atomically (so no reader sees it half-deleted), then delete."""
    trash = entry.with_name(f".trash-{entry.name}-{uuid.uuid4().hex}")
    try:
        os.rename(entry, trash)
    except OSError:
        return  # someone else already moved or replaced it
    shutil.rmtree(trash, ignore_errors=True)


@contextlib.contextmanager
def _one_conversion_per_key(key: str) -> Iterator[None]:
    """Callers in this process that render the same bytes at the same time (a batch
    rendering ahead while it scores, two identical uploads to the service) wait for the
    first conversion and then hit its cache entry instead of converting twice."""
    with _stats_lock:
        holder = _in_flight.setdefault(key, _KeyLock())
        holder.users += 1
    try:
        with holder.lock:
            yield
    finally:
        with _stats_lock:
            holder.users -= 1
            if holder.users == 0:
                _in_flight.pop(key, None)


def render_pdf(
    path: Path,
    *,
    renderer: Renderer | None = None,
    timeout: float = 120,
    use_cache: bool = True,
) -> RenderedPDF:
    """Render ``path`` to PDF, reusing a cached rendering of the same bytes when possible.

    ``use_cache=False`` skips the lookup and always renders; the fresh PDF still replaces
    the cache entry (the returned path must live somewhere we own). Raises
    :class:`~artifactcheck.errors.RenderError` / ``RenderTimeout`` from the renderer.
    """
    engine: Renderer = renderer if renderer is not None else default_renderer()
    pdf, cached = convert_cached(path, target="pdf", renderer=engine, timeout=timeout, use_cache=use_cache)
    return RenderedPDF(pdf, engine.name, engine.version, cached)


def convert_cached(
    path: Path,
    *,
    target: str,
    renderer: Renderer | None = None,
    timeout: float = 120,
    use_cache: bool = True,
) -> tuple[Path, bool]:
    """Convert ``path`` to ``target`` (``"pdf"``, or ``"xlsx"`` for a workbook LibreOffice
    recalculated and saved back) through the cache: ``(<entry>/document.<target>, served
    from the cache)``. Every hit is checked (size, sha256, and that a PDF has pages or a
    package is a zip) and a bad entry rebuilt. Raises ``RenderError``/``RenderTimeout``."""
    path = Path(path)
    if not path.is_file():
        raise RenderError("input file does not exist", path=path)
    engine: Renderer = renderer if renderer is not None else default_renderer()
    root = cache_dir()
    source_sha = _sha256_file(path)
    key = cache_key(path, engine, target=target, source_sha256=source_sha)
    entry = root / key[:2] / key
    with _one_conversion_per_key(key):
        return _lookup_or_convert(path, engine, entry, key, source_sha, target=target, timeout=timeout,
                                  use_cache=use_cache)


def _lookup_or_convert(
    path: Path, engine: Renderer, entry: Path, key: str, source_sha: str, *, target: str, timeout: float,
    use_cache: bool,
) -> tuple[Path, bool]:
    name = f"document.{target}"
    if use_cache and entry.is_dir():
        if _valid_entry(entry, name):
            _count("hits")
            return entry / name, True
        _discard(entry)

    _count("misses")
    entry.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".tmp-{key[:8]}-", dir=entry.parent))
    try:
        produced = engine.convert(path, staging / "convert", target=target, timeout=timeout)
        os.replace(produced, staging / name)
        shutil.rmtree(staging / "convert", ignore_errors=True)
        meta = {
            "size": (staging / name).stat().st_size,
            "sha256": _sha256_file(staging / name),
            "source_sha256": source_sha,
            "renderer": engine.name,
            "version": engine.version,
            "options": engine.options,
        }
        (staging / "entry.json").write_text(json.dumps(meta))
        if not use_cache and entry.is_dir():
            _discard(entry)
        try:
            os.rename(staging, entry)
        except OSError:
            # Another process won the race: use its entry if it is sound, else replace it.
            if not _valid_entry(entry, name):
                _discard(entry)
                os.rename(staging, entry)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return entry / name, False
