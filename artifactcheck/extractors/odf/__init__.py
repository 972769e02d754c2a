"""OpenDocument files (.odt, .ods, .odp), read through the .docx/.xlsx/.pptx twin that
LibreOffice converts them to (cached like renders). Entry point: :func:`extract_odf`;
:func:`odf_mimetype`/:func:`odf_format` tell an OpenDocument package by its ``mimetype``. See design/odf.md."""

from ..package.opendocument import odf_format, odf_mimetype
from .extract import extract_odf

__all__ = ["extract_odf", "odf_format", "odf_mimetype"]
