"""CSV/TSV files: one sheet, typed as Excel types a CSV it opens (``values.py``), with the
encoding detected and the dialect sniffed (``read.py``), built through the .xlsx
extractor so grid checks work unchanged (``extract.py``). Entry point:
:func:`extract_csv`. See design/csv.md."""

from .extract import extract_csv

__all__ = ["extract_csv"]
