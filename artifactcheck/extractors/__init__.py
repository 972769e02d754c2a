"""Extractors: the only code that knows OOXML, PDF or Google API shapes. Each source turns
into a :class:`~artifactcheck.model.Document` in its own subpackage:

- ``docx/``, ``pptx/``, ``xlsx/``: Office files, read from their XML parts;
- ``google/``: Google Docs, Sheets and Slides API responses (fetched, saved or bundled);
- ``drawingml/``: what .pptx, .xlsx and .docx share (theme colours, charts);
- ``fonts/``: text widths from real font metrics (cell overflow, text fit);
- ``package/``: the safe OOXML package reader every Office extractor opens files with;
- ``render/``: LibreOffice -> PDF -> layout, page images, text alignment, render cache.

``office.py`` picks the Office extractor by content; ``tree_builder.py`` fills container
text once a tree is built. See design/architecture.md.
"""
