"""An OpenDocument file (.odt, .ods, .odp: LibreOffice's default formats) read through its
Office Open XML twin: LibreOffice converts it (``--convert-to docx/xlsx/pptx``, the
"Save as Word/Excel/PowerPoint" filters) through the render cache — one conversion per
file content, renderer and version — and the .docx/.xlsx/.pptx extractor reads the twin.

Why a conversion rather than a fourth reader: the tree's promises (effective styles,
numbering, placeholder inheritance, grid geometry, layout boxes) are kept by the OOXML
extractors and their tests; LibreOffice is the reference implementation of ODF and its
OOXML export is what every user of it gets from "Save as". What the conversion cannot
carry (ODF-only features) is what a user saving as .docx would lose as well; see
design/odf.md for what was measured.

``ArtifactInfo`` names the OpenDocument file (format ``odt``/``ods``/``odp``, its sha256,
size and path) with ``extracted_as`` = the twin's format; ``tools`` records the
LibreOffice that converted it. Node ids, sources and attributes are the twin's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ...digest import file_digest
from ...errors import ArtifactCheckError, CorruptArtifact, UnsupportedFormat
from ...model import ArtifactInfo, Document, ToolInfo
from ..package.opendocument import ODF_TWINS, check_odf, odf_format, odf_mimetype
from ..render.cache import convert_cached
from ..render.selection import default_renderer

__all__ = ["extract_odf"]


def extract_odf(path: str | Path, *, timeout: float = 120, **options: Any) -> Document:
    """Read an .odt/.ods/.odp file (see the module docstring); ``options`` go to the twin's
    extractor (``render=True`` for .odt layout boxes, as for .docx).

    Raises ``UnsupportedFormat`` (not a text, spreadsheet or presentation package),
    ``EncryptedArtifact``, ``CorruptArtifact`` (LibreOffice cannot convert it) or the
    renderer's ``MissingDependency``/``RenderTimeout``.
    """
    p = Path(path)
    fmt = odf_format(p)
    if fmt is None:
        kind = (odf_mimetype(p) or "not OpenDocument").rsplit(".", 1)[-1]
        raise UnsupportedFormat(
            f"an OpenDocument {kind} file: only text (.odt), spreadsheet (.ods) and presentation (.odp) are read",
            path=p,
        )
    check_odf(p)
    twin = ODF_TWINS[fmt]
    engine = default_renderer()
    try:
        twin_path, _ = convert_cached(p, target=twin, renderer=engine, timeout=timeout)
    except ArtifactCheckError as exc:
        if type(exc).__name__ in ("MissingDependency", "RenderTimeout"):
            raise
        reason = str(exc).removeprefix(f"{exc.path}: ")
        raise CorruptArtifact(f"LibreOffice could not convert the {fmt} to {twin}: {reason}", path=p) from None
    doc = _extract_twin(twin_path, twin, timeout=timeout, **options)
    digest = file_digest(p)
    doc.artifact = ArtifactInfo(
        format=fmt,
        platform="office",
        sha256=digest.sha256,
        size_bytes=digest.size_bytes,
        path=str(p),
        producer=doc.artifact.producer,
        extracted_as=twin,
    )
    doc.tools.insert(0, ToolInfo(name=f"{engine.name} ({fmt} to {twin})", version=engine.version))
    return doc


def _extract_twin(path: Path, twin: str, **options: Any) -> Document:
    if twin == "docx":
        from ..docx import extract_docx

        return extract_docx(path, **options)
    if twin == "xlsx":
        from ..xlsx import extract_xlsx

        return extract_xlsx(path, **options)
    from ..pptx import extract_pptx

    return extract_pptx(path, **options)
