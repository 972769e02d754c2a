"""The image codecs we read: Pillow's format name -> (our artifact format, MIME type)."""

from __future__ import annotations

__all__ = ["IMAGE_FORMATS", "IMAGE_MIME"]

IMAGE_MIME: dict[str, tuple[str, str]] = {
    "PNG": ("png", "image/png"),
    "JPEG": ("jpeg", "image/jpeg"),
    "MPO": ("jpeg", "image/jpeg"),  # a JPEG with extra frames (phone cameras)
    "GIF": ("gif", "image/gif"),
    "BMP": ("bmp", "image/bmp"),
    "TIFF": ("tiff", "image/tiff"),
    "WEBP": ("webp", "image/webp"),
}
IMAGE_FORMATS: frozenset[str] = frozenset(fmt for fmt, _ in IMAGE_MIME.values())
