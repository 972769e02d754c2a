""".xlsx: sheets as grids of cells (streamed), styles, number formats, conditional
formats, drawings and charts, with boxes in grid coordinates and text visibility.
Entry point: :func:`extract_xlsx`."""

from .extract import extract_xlsx

__all__ = ["extract_xlsx"]
