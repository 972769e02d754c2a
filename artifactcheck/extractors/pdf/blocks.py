"""Lines into paragraphs: pdfium reads a page's text as lines in content order; a
paragraph is a run of consecutive lines that a reader sees as one block.

Two consecutive lines on the same page belong to one paragraph when all hold:

- the gap between them (next top minus previous bottom) is at most ``MAX_GAP_EM`` times
  the previous line's height: single to 1.5 line spacing stays together, the space before
  a heading or after a paragraph (LibreOffice and Word put 6-12 pt there) splits;
- their font sizes are within ``SIZE_RATIO`` of each other (a heading over body text
  splits even when it sits close);
- they overlap horizontally (a line of another column or a table cell beside it splits),
  and the next line is not above the previous one (content order going back up the page
  starts a new block).

Measured on LibreOffice exports of python-docx documents (tests/extractors/test_pdf.py):
body lines at single spacing are 1.5-2 pt apart with 12.65 pt lines; paragraphs with the
default 10 pt after are 10-12 pt apart. A heuristic, stated here so a check author knows
what "paragraph" means for a PDF; lines (``line`` nodes) are what the PDF says.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["LineLike", "group_lines"]

MAX_GAP_EM = 0.5
SIZE_RATIO = 1.25


class LineLike(Protocol):
    @property
    def page(self) -> int: ...
    @property
    def x0(self) -> float: ...
    @property
    def top(self) -> float: ...
    @property
    def x1(self) -> float: ...
    @property
    def bottom(self) -> float: ...


def group_lines(lines: Sequence[LineLike], sizes: Sequence[float]) -> list[list[int]]:
    """Indexes of ``lines`` grouped into paragraphs, in order. ``sizes[i]`` is the font
    size (pt) of line ``i`` (its largest; 0 when unknown, which never splits).

    >>> from types import SimpleNamespace as L
    >>> body = [L(page=0, x0=90, top=100 + 14 * i, x1=500, bottom=112 + 14 * i) for i in range(3)]
    >>> after = L(page=0, x0=90, top=160, x1=300, bottom=172)
    >>> group_lines([*body, after], [11, 11, 11, 11])
    [[0, 1, 2], [3]]
    """
    groups: list[list[int]] = []
    for i, line in enumerate(lines):
        if groups:
            j = groups[-1][-1]
            if _continues(lines[j], line, sizes[j], sizes[i]):
                groups[-1].append(i)
                continue
        groups.append([i])
    return groups


def _continues(prev: LineLike, line: LineLike, prev_size: float, size: float) -> bool:
    if line.page != prev.page:
        return False
    height = max(prev.bottom - prev.top, 1e-6)
    gap = line.top - prev.bottom
    if gap > MAX_GAP_EM * height or line.top < prev.top:
        return False
    if prev_size > 0 and size > 0 and max(prev_size, size) / min(prev_size, size) > SIZE_RATIO:
        return False
    return min(prev.x1, line.x1) > max(prev.x0, line.x0)
