"""Page images: a PDF page (or every page of an Office file) as a PIL image.

Pixel <-> point mapping: at ``dpi`` the image is ``round(width_pt * dpi / 72)`` pixels
wide; a point ``(x, y)`` in our page space (top-left origin, y down) is pixel
``(x * dpi / 72, y * dpi / 72)`` — no flip, no offset, because page space is already
top-left. :func:`pt_to_px` / :func:`px_to_pt` do exactly that.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from ...errors import RenderError
from .cache import render_pdf
from .pdfium_lock import PDFIUM_LOCK
from .renderer import Renderer

__all__ = ["page_image", "page_images", "pt_to_px", "px_to_pt"]


def pt_to_px(value: float, dpi: int) -> float:
    """Points -> pixels at ``dpi`` (same factor on both axes)."""
    return value * dpi / 72.0


def px_to_pt(value: float, dpi: int) -> float:
    """Pixels at ``dpi`` -> points."""
    return value * 72.0 / dpi


def page_image(pdf_path: Path, page: int, *, dpi: int = 150) -> Image.Image:
    """Render page ``page`` (0-based) of ``pdf_path`` at ``dpi`` as an RGB image."""
    with PDFIUM_LOCK:  # pdfium is not thread-safe (pdfium_lock.py)
        try:
            doc = pdfium.PdfDocument(str(pdf_path))
        except (OSError, pdfium.PdfiumError) as exc:
            raise RenderError(f"cannot read PDF: {exc}", path=pdf_path) from None
        try:
            if not 0 <= page < len(doc):
                raise RenderError(f"page {page} out of range (0..{len(doc) - 1})", path=pdf_path)
            return _render(doc, page, dpi)
        finally:
            doc.close()


def _render(doc: pdfium.PdfDocument, page: int, dpi: int) -> Image.Image:
    pg = doc[page]
    try:
        bitmap = pg.render(scale=dpi / 72.0, may_draw_forms=True)
        try:
            image: Image.Image = bitmap.to_pil().convert("RGB")
            return image
        finally:
            bitmap.close()
    finally:
        pg.close()


def page_images(
    path: Path, dpi: int = 150, *, renderer: Renderer | None = None, timeout: float = 120
) -> Iterator[Image.Image]:
    """Every page of a PDF or an Office file (rendered through the cache) as images.

    A generator, so a 200-page document never holds 200 bitmaps at once.
    """
    path = Path(path)
    with open(path, "rb") as fh:
        is_pdf = fh.read(5) == b"%PDF-"
    pdf = path if is_pdf else render_pdf(path, renderer=renderer, timeout=timeout).pdf_path
    with PDFIUM_LOCK:  # held per page, never across a yield (pdfium_lock.py)
        try:
            doc = pdfium.PdfDocument(str(pdf))
        except (OSError, pdfium.PdfiumError) as exc:
            raise RenderError(f"cannot read PDF: {exc}", path=pdf) from None
        count = len(doc)
    try:
        for index in range(count):
            with PDFIUM_LOCK:
                image = _render(doc, index, dpi)
            yield image
    finally:
        with PDFIUM_LOCK:
            doc.close()
