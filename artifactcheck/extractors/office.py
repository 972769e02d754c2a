"""One Office file to its tree: the package is inspected (safely, by content, never by
file name) and handed to the .docx, .xlsx or .pptx extractor. Used by ``load`` and by
snapshot bundles that carry an Office file downloaded from Drive."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import UnsupportedFormat
from ..model import Document
from .package.inspection import inspect_package


def extract_office(path: str | Path, **options: Any) -> Document:
    """The Document of a .docx/.xlsx/.pptx file; ``options`` go to its extractor.
    Raises the package inspection's typed errors for anything else."""
    path = Path(path)
    info = inspect_package(path)
    # Extractors are imported on demand: a .pptx run never pays for the .docx layout code.
    if info.format == "pptx":
        from .pptx import extract_pptx

        return extract_pptx(path, **options)
    if info.format == "xlsx":
        from .xlsx import extract_xlsx

        return extract_xlsx(path, **options)
    if info.format == "docx":
        from .docx import extract_docx

        return extract_docx(path, **options)
    raise UnsupportedFormat(f"no extractor for {info.format}", path=path)  # pragma: no cover
