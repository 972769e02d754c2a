"""Extractors: the only code that knows OOXML, PDF or Google API shapes. Each source turns
into a :class:`~artifactcheck.model.Document` in its own subpackage:

- ``docx/``, ``pptx/``, ``xlsx/``: Office files, read from their XML parts;
- ``google/``: Google Docs, Sheets and Slides API responses (fetched, saved or bundled);
- ``pdf/``: PDF files (pages, lines, words, images, links); ``csv/``: CSV/TSV as one sheet;
  ``odf/``: .odt/.ods/.odp through their OOXML twin; ``image/``: image files as one page;
- ``ocr/``: tesseract with word boxes, and OCR words as tree nodes;
- ``drawingml/``: what .pptx, .xlsx and .docx share (theme colours, charts);
- ``fonts/``: text widths from real font metrics (cell overflow, text fit);
- ``package/``: the safe OOXML package reader every Office extractor opens files with, and
  what any file is by its first bytes (``sniff.py``);
- ``render/``: LibreOffice -> PDF -> layout, page images, text alignment, render cache.

``office.py`` picks the Office extractor by content; ``tree_builder.py`` fills container
text once a tree is built. See design/architecture.md.
"""
