"""PDF files (an agent's export, a scan): pages, paragraphs, lines and words with boxes,
images with boxes and hashes, links, read with the same pypdfium2 layout reader the
.docx alignment uses (``render/layout.py``). Entry point: :func:`extract_pdf`.
See design/pdf.md."""

from .extract import extract_pdf

__all__ = ["extract_pdf"]
