"""EPUB e-books (a zip of XHTML chapters): read into the document tree a .docx gives,
without a render (design/epub.md)."""

from .extract import extract_epub
from .package import looks_like_epub

__all__ = ["extract_epub", "looks_like_epub"]
