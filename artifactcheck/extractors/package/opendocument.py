"""OpenDocument packages (what LibreOffice saves by default) told by content: the
``mimetype`` member every ODF zip stores first (ODF 1.2 Part 3, 3.3), and encryption
read from ``META-INF/manifest.xml`` (``manifest:encryption-data``), with the same zip
limits as OOXML packages (``inspection.py``)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Literal

from ...errors import CorruptArtifact, EncryptedArtifact
from .inspection import check_zip_limits

__all__ = ["ODF_TWINS", "OdfFormat", "check_odf", "odf_format", "odf_mimetype"]

OdfFormat = Literal["odt", "ods", "odp"]
_MIMETYPES: dict[str, OdfFormat] = {
    "application/vnd.oasis.opendocument.text": "odt",
    "application/vnd.oasis.opendocument.text-template": "odt",
    "application/vnd.oasis.opendocument.spreadsheet": "ods",
    "application/vnd.oasis.opendocument.spreadsheet-template": "ods",
    "application/vnd.oasis.opendocument.presentation": "odp",
    "application/vnd.oasis.opendocument.presentation-template": "odp",
}
ODF_TWINS: dict[OdfFormat, Literal["docx", "xlsx", "pptx"]] = {"odt": "docx", "ods": "xlsx", "odp": "pptx"}
"""The Office Open XML format LibreOffice converts each OpenDocument format to."""


def odf_format(path: Path) -> OdfFormat | None:
    """``odt``/``ods``/``odp`` when ``path`` is an OpenDocument text, spreadsheet or
    presentation package; None for any other file (including other ODF kinds)."""
    mimetype = odf_mimetype(path)
    return _MIMETYPES.get(mimetype) if mimetype else None


def odf_mimetype(path: Path) -> str | None:
    """The ``mimetype`` an OpenDocument package declares (any ODF kind: text, drawing,
    formula...), or None when ``path`` is not one."""
    try:
        with zipfile.ZipFile(path) as zf:
            if "mimetype" not in zf.namelist():
                return None
            info = zf.getinfo("mimetype")
            if info.file_size > 256:
                return None
            mimetype = zf.read(info).decode("ascii", "replace").strip()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return None
    return mimetype if mimetype.startswith("application/vnd.oasis.opendocument.") else None


def check_odf(path: Path) -> None:
    """Refuse, typed, what LibreOffice should not be handed: zip bombs (the OOXML limits),
    password-protected documents, packages without their content part."""
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            check_zip_limits(infos, path=path)
            names = {i.filename for i in infos}
            if "content.xml" not in names:
                raise CorruptArtifact("the OpenDocument package has no content.xml", path=path)
            manifest = zf.read("META-INF/manifest.xml") if "META-INF/manifest.xml" in names else b""
    except zipfile.BadZipFile as exc:
        raise CorruptArtifact(f"broken or truncated zip container: {exc}", path=path) from None
    except (OSError, ValueError, EOFError, NotImplementedError) as exc:
        raise CorruptArtifact(f"cannot read the OpenDocument package: {exc}", path=path) from None
    if b"encryption-data" in manifest:
        raise EncryptedArtifact(
            "the OpenDocument file is password-protected; save it without a password first", path=path
        )
