"""Where artifactcheck keeps what it caches on disk (renders, the LibreOffice profile
template and version, rubrics that passed the schema): ``$ARTIFACTCHECK_CACHE_DIR``, else
the user cache directory."""

from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """artifactcheck's cache root: ``$ARTIFACTCHECK_CACHE_DIR`` or the user cache dir."""
    override = os.environ.get("ARTIFACTCHECK_CACHE_DIR")
    if override:
        return Path(override)
    import platformdirs  # only when no override: keeps the import off the common path

    return Path(platformdirs.user_cache_dir("artifactcheck"))
