"""``load``: pick the extractor by the artifact's content and build its Document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import ArtifactCheckError, CorruptArtifact, UnsupportedFormat
from .extractors.office import extract_office
from .extractors.package.sniff import sniff
from .extractors.package.xml import element_budget
from .input_files import read_json_file
from .model import Document
from .model.budget import node_budget

# Names that promise a binary format: plain text under one of them is refused with a
# clear error instead of being read as a one-column CSV.
_BINARY_SUFFIXES = {
    ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm", ".doc", ".xls", ".ppt",
    ".pdf", ".odt", ".ods", ".odp", ".zip",
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp",
}  # fmt: skip


def load(source: str | Path, **options: Any) -> Document:
    """Read an artifact into a Document.

    ``source`` is a path to a .docx/.xlsx/.pptx file, a PDF, a CSV/TSV file, an
    OpenDocument file (.odt/.ods/.odp, read through LibreOffice's OOXML conversion), an
    image (.png/.jpg/.gif/.bmp/.tiff/.webp) — the format told by content, not by the
    file name — a saved Google API response (.json), a snapshot bundle (.zip from
    ``artifactcheck snapshot``), or a Google Docs/Sheets/Slides/Drive URL or file id
    (fetched live; ``credentials=`` a key/token path, else the default chain, see
    ``extractors/google/access.py``). Options are passed to the
    extractor (for .docx: ``render=True`` to attach layout boxes; for images and PDFs:
    ``ocr=True`` to add the words tesseract reads as nodes).

    Raises an :class:`~artifactcheck.errors.ArtifactCheckError` subclass naming the file
    and the problem when the artifact cannot be read; ``ArtifactTooLarge`` when it
    exceeds a budget of :mod:`artifactcheck.limits` (nodes, XML elements, grid cells...).
    """
    try:
        with node_budget(source), element_budget():
            return _load(source, **options)
    except ArtifactCheckError as exc:
        named = exc.naming(source)
        if named is exc:
            raise
        raise named from None


def _load(source: str | Path, **options: Any) -> Document:
    if isinstance(source, str) and not Path(source).exists():
        from .extractors.google.access import looks_like_google_ref

        if looks_like_google_ref(source) or "credentials" in options or "client" in options:
            from .snapshot import load_google  # a Google URL or file id: fetch it

            return load_google(source, **options)
    path = Path(source)
    kind = sniff(path) if path.is_file() else "empty"
    if kind == "zip":
        from .snapshot import is_bundle, load_bundle

        if is_bundle(path):  # a Google snapshot bundle: offline, no credentials
            return load_bundle(path, **options)
    elif kind == "pdf":
        from .extractors.pdf import extract_pdf

        return extract_pdf(path, **options)
    elif kind in ("png", "jpeg", "gif", "bmp", "tiff", "webp"):
        from .extractors.image import extract_image

        return extract_image(path, **options)
    elif kind == "json":
        return _load_json(path, **options)
    elif kind == "text":
        if path.suffix.lower() in _BINARY_SUFFIXES:
            raise UnsupportedFormat(
                f"named {path.suffix} but holds no {path.suffix} container (its bytes look like plain text)",
                path=path,
            )
        from .extractors.csv import extract_csv

        return extract_csv(path, **options)
    return extract_office(path, **options)


def _load_json(path: Path, **options: Any) -> Document:
    data = read_json_file(path, what="JSON artifact (not an Office file)", error=UnsupportedFormat)
    if isinstance(data, dict) and data.get("schema_version") and "root" in data:
        return _saved_tree(data, path)
    from .extractors.google.responses import extract_google_response

    return extract_google_response(data, path=path, **options)


def _saved_tree(data: dict[str, Any], path: Path) -> Document:
    """A tree saved by ``artifactcheck extract``; a malformed one names its first fault
    (its location and pydantic's message, never the offending value)."""
    try:
        return Document.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(map(str, first["loc"])) or "document"
        raise CorruptArtifact(
            f"not a valid saved document tree: {exc.error_count()} error(s); first at {where}: {first['msg']}",
            path=path,
        ) from None
