""".pptx: slides, shapes, placeholders inherited from layouts and masters, tables, charts,
pictures and text with effective styles, boxes from the file's own geometry.
Entry point: :func:`extract_pptx`."""

from .extract import extract_pptx

__all__ = ["extract_pptx"]
