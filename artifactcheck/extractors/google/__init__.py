"""Google Docs, Sheets and Slides: API access (``access.py``), telling which API made a
JSON response (``responses.py``), and one extractor per API; Docs boxes come from Drive's
PDF export. Entry point: :func:`extract_google_response`."""

from .responses import extract_google_response

__all__ = ["extract_google_response"]
