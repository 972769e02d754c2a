"""sha256 of a file, streamed in 1 MiB blocks: the identity of an artifact in trees,
render-cache keys, reports and batch fingerprints. One function so that every place
names the same bytes the same way."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NamedTuple

_BLOCK = 1 << 20


class FileDigest(NamedTuple):
    sha256: str
    size_bytes: int


def file_digest(path: str | Path) -> FileDigest:
    """Hex sha256 and size of the file's bytes, read in blocks (never whole)."""
    h = hashlib.sha256()
    size = 0
    with Path(path).open("rb") as fh:
        for block in iter(lambda: fh.read(_BLOCK), b""):
            h.update(block)
            size += len(block)
    return FileDigest(h.hexdigest(), size)
