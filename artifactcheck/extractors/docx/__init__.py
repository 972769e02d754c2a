""".docx: the Word body walked from its XML (styles, numbering, sections, drawings) into
the tree, with boxes from a LibreOffice render aligned to the text (``layout.py``).
Entry point: :func:`extract_docx`."""

from .extract import extract_docx

__all__ = ["extract_docx"]
