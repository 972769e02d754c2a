"""Application settings files read as documents: LibreOffice's user registry
(``registrymodifications.xcu``), one ``setting`` node per value (design/settings.md)."""

from .xcu import extract_xcu, looks_like_xcu

__all__ = ["extract_xcu", "looks_like_xcu"]
