"""Is a PDF whole? Used to judge a conversion and to detect corrupt cache entries."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium

from .pdfium_lock import PDFIUM_LOCK

__all__ = ["pdf_page_count"]


def pdf_page_count(pdf: Path) -> int:
    """Number of pages, or -1 when the file is not a complete, readable PDF.

    pdfium repairs many damaged files silently, so a truncated file (no ``%%EOF`` near the
    end, which every writer we use emits) is rejected before pdfium sees it.
    """
    try:
        size = pdf.stat().st_size
        with open(pdf, "rb") as fh:
            if fh.read(5) != b"%PDF-":
                return -1
            fh.seek(max(0, size - 1024))
            if b"%%EOF" not in fh.read():
                return -1
    except OSError:
        return -1
    with PDFIUM_LOCK:  # pdfium is not thread-safe (pdfium_lock.py)
        try:
            doc = pdfium.PdfDocument(str(pdf))
        except (OSError, pdfium.PdfiumError):
            return -1
        try:
            return len(doc)
        finally:
            doc.close()
