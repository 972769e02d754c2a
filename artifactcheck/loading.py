"""``load``: pick the extractor by the artifact's content and build its Document."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import UnsupportedFormat
from .extractors.office import extract_office
from .extractors.package.inspection import CFB_MAGIC, ZIP_MAGIC, read_head
from .model import Document


def load(source: str | Path, **options: Any) -> Document:
    """Read an artifact into a Document.

    ``source`` is a path to a .docx/.xlsx/.pptx file (format told by content, not by the
    file name), a saved Google API response (.json), a snapshot bundle (.zip from
    ``artifactcheck snapshot``), or a Google Docs/Sheets/Slides/Drive URL or file id
    (fetched live; ``credentials=`` a key/token path, else the default chain, see
    ``extractors/google/access.py``). Options are passed to the
    extractor (for .docx: ``render=True`` to attach layout boxes).

    Raises an :class:`~artifactcheck.errors.ArtifactCheckError` subclass naming the file
    and the problem when the artifact cannot be read.
    """
    if isinstance(source, str) and not Path(source).exists():
        from .extractors.google.access import looks_like_google_ref

        if looks_like_google_ref(source) or "credentials" in options or "client" in options:
            from .snapshot import load_google  # a Google URL or file id: fetch it

            return load_google(source, **options)
    path = Path(source)
    head = read_head(path) if path.is_file() else b""
    if head.startswith(ZIP_MAGIC):
        from .snapshot import is_bundle, load_bundle

        if is_bundle(path):  # a Google snapshot bundle: offline, no credentials
            return load_bundle(path, **options)
    if path.is_file() and not head.startswith(ZIP_MAGIC) and not head.startswith(CFB_MAGIC):
        stripped = head.lstrip()
        if stripped.startswith((b"{", b"[")) or (not stripped and path.stat().st_size > 0):
            return _load_json(path, **options)
    return extract_office(path, **options)


def _load_json(path: Path, **options: Any) -> Document:
    try:
        data = json.loads(path.read_bytes())
    except (ValueError, UnicodeDecodeError) as exc:
        raise UnsupportedFormat(f"not an Office file and not valid JSON: {exc}", path=path) from None
    if isinstance(data, dict) and data.get("schema_version") and "root" in data:
        return Document.model_validate(data)
    from .extractors.google.responses import extract_google_response

    return extract_google_response(data, path=path, **options)
