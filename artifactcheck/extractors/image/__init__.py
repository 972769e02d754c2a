"""Standalone image files (.png, .jpg, .gif, .bmp, .tiff, .webp): a one-page document
whose page is the image, OCR words on demand (``ocr=True``), and the page's pixels for
the OCR checks (``pixels.py``). Entry point: :func:`extract_image`. See design/images.md."""

from .extract import extract_image
from .pixels import image_page_pixels

__all__ = ["extract_image", "image_page_pixels"]
