"""What a file is, by its first bytes (never by its name): the container families
``load`` dispatches on. Signatures are the formats' own magic numbers:

- ``zip`` (OOXML, OpenDocument, snapshot bundles: told apart by their members),
  ``cfb`` (legacy Office, encrypted OOXML);
- ``pdf``: ``%PDF-`` within the first 1024 bytes (PDF 32000-1, 7.5.2; readers accept
  leading junk there, and so do we);
- images: PNG, JPEG, GIF, BMP, TIFF (both byte orders, and BigTIFF), WebP;
- ``json``: text whose first non-blank character is ``{`` or ``[``;
- ``text``: anything else that decodes as text (CSV/TSV candidates; the CSV reader
  decides the encoding and refuses what is not text);
- ``empty``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

__all__ = ["IMAGE_SIGNATURES", "Sniffed", "sniff"]

Sniffed = Literal[
    "zip", "cfb", "pdf", "png", "jpeg", "gif", "bmp", "tiff", "webp", "json", "text", "empty"
]  # fmt: skip

IMAGE_SIGNATURES: tuple[tuple[bytes, Sniffed], ...] = (
    (b"\x89PNG\r\n\x1a\n", "png"),
    (b"\xff\xd8\xff", "jpeg"),
    (b"GIF87a", "gif"),
    (b"GIF89a", "gif"),
    (b"II*\x00", "tiff"),
    (b"MM\x00*", "tiff"),
    (b"II+\x00", "tiff"),  # BigTIFF
    (b"MM\x00+", "tiff"),
)
_HEAD_BYTES = 1024


def sniff(path: Path) -> Sniffed:
    """The family of ``path``'s bytes (see the module docstring)."""
    with path.open("rb") as fh:
        head = fh.read(_HEAD_BYTES)
    if not head:
        return "empty"
    if head.startswith(b"PK"):
        return "zip"
    if head.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return "cfb"
    for magic, kind in IMAGE_SIGNATURES:
        if head.startswith(magic):
            return kind
    if head.startswith(b"RIFF") and head[8:12] == b"WEBP":
        return "webp"
    # BMP: "BM", then the file size and a header size the format defines (12..124 bytes).
    if head.startswith(b"BM") and len(head) >= 18 and int.from_bytes(head[14:18], "little") in (12, 40, 52, 56, 64, 108, 124):
        return "bmp"
    if b"%PDF-" in head:
        return "pdf"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")  # a UTF-8 BOM and blanks
    if stripped.startswith((b"{", b"[")):
        return "json"
    return "text"
