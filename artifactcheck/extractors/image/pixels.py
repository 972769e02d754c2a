"""The pixels of an image-file document's page: decoded from its blob (within the
``image_pixels`` budget), for OCR. Small images are upscaled for tesseract, which reads
text best at ~30 px x-height; the OCR word boxes are mapped back through the page size,
so the scale never leaks into page points."""

from __future__ import annotations

from typing import Any

from ...model import Document
from ...model.blobs import decode_image
from .formats import IMAGE_FORMATS

__all__ = ["MIN_OCR_HEIGHT_PX", "image_page_pixels", "ocr_ready"]

MIN_OCR_HEIGHT_PX = 600


def ocr_ready(data: bytes) -> Any:
    """Image bytes decoded to RGB, upscaled to at least ``MIN_OCR_HEIGHT_PX`` tall."""
    from PIL import Image

    image = decode_image(data, mode="RGB", what="image for OCR")
    scale = MIN_OCR_HEIGHT_PX / max(1, image.height)
    if scale > 1:
        image = image.resize((round(image.width * scale), round(image.height * scale)), Image.Resampling.LANCZOS)
    return image


def image_page_pixels(doc: Document, page: int) -> Any | None:
    """The page image of a standalone-image Document (its picture, ready for OCR), or
    None when ``doc`` is not one or its bytes are not at hand."""
    if doc.artifact.format not in IMAGE_FORMATS or page != 0:
        return None
    node = doc.select_one("page > image")
    sha = node.attrs.get("blob") if node is not None else None
    blob = doc.blobs.get(sha) if isinstance(sha, str) else None
    if blob is None or blob.data is None:
        return None
    return ocr_ready(blob.data)
