"""Row heights Excel computes when it opens a file: a row whose height the file does not
state (``<row>`` without ``ht``, what openpyxl and xlsxwriter write unless told) is
auto-fitted to its tallest cell, so wrapped text and large fonts get room.

One line of a font takes ``ceil(ascent + descent) + 2`` pixels at 96 dpi: Calibri 11 ->
18 + 2 = 20 px = 15 pt and Arial 10 -> 15 + 2 = 17 px = 12.75 pt, Excel's default row
heights; wrapped text takes that per line (2 lines of Calibri 11: 30 pt), lines counted
by the same greedy word wrap the overflow rules use (``overflow.wrap_lines``) in the
column width less Excel's 5 px of padding. A row is never shorter than the sheet's
default height. Merged cells do not size rows (Excel ignores them), nor do rotated
texts; a font without a metric-compatible file installed is not measured (its cells
keep ``needs_row_autofit``): the estimate would be a guess.

LibreOffice 7.4 does not auto-fit rows of .xlsx files on load (its render keeps 15 pt
rows and draws wrapped text over its neighbours), so these heights follow Excel; see
design/xlsx-display.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from ..fonts.metrics import line_height_pt, resolve_font
from .overflow import PADDING_PT, wrap_lines

PX_PER_PT = 96 / 72


def line_unit_pt(family: str | None, size: float, *, bold: bool) -> float:
    """Height Excel gives one line of text in this font (points, whole pixels)."""
    px = math.ceil(line_height_pt(family, size, bold=bold) * PX_PER_PT - 1e-6) + 2
    return px / PX_PER_PT


def measurable(family: str | None, *, bold: bool, italic: bool) -> bool:
    """True when the font (or a metric-compatible twin) is installed."""
    return not resolve_font(family, bold=bold, italic=italic).substituted


def needed_height(text: str, *, family: str | None, size: float, bold: bool, wrap: bool, width_pt: float,
                  width_of: Callable[[str], float]) -> float:
    """Height (points) a cell's text needs in a row auto-fitted by Excel."""
    lines = 1
    if wrap:
        lines = wrap_lines(text, width_of, width_pt - PADDING_PT)
    elif "\n" in text:
        lines = 1  # without wrap, Excel shows one line
    return lines * line_unit_pt(family, size, bold=bold)
