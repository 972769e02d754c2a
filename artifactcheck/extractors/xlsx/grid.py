"""A sheet's grid geometry: column widths and row heights in points, and the cumulative
offsets that turn a cell address or a drawing anchor into a position.

Canvas: points, origin at the top-left corner of cell A1, y down. Rows and columns are
1-based here. Only the entries that differ from the defaults are stored (sorted), with
prefix sums of their differences, so the left edge of column C or the top of row R is a
``bisect`` plus one addition: never a loop over a million declared rows.

Width conversion (ECMA-376 Part 1, 18.3.1.13, and what Excel does; design/xlsx-geometry.md):
a ``<col width>`` is in characters of the default font's maximum digit width (MDW, whole
pixels at 96 dpi), padding included; pixels = trunc((256 * width + trunc(128 / MDW)) / 256
* MDW); points = pixels * 0.75. Without ``<col>`` the default width is ``defaultColWidth``
(same formula) or, without it, baseColWidth (8) * MDW + 5 px rounded up to a multiple of
8 px (Calibri 11: 8 * 7 + 5 = 61 -> 64 px = 48 pt = "8.43").
"""

from __future__ import annotations

import math
from bisect import bisect_left
from dataclasses import dataclass, field

from ...model.units import emu_to_pt

MAX_COLS = 16_384
MAX_ROWS = 1_048_576
PX_TO_PT = 0.75  # 96 dpi pixels to points


def col_width_chars_to_px(width: float, mdw: int) -> int:
    """Excel column width (characters, padding included) to whole pixels."""
    return int(((256 * width + int(128 / mdw)) / 256) * mdw)


def default_col_width_px(*, base_col_width: int, mdw: int) -> int:
    """The width of columns without ``<col>`` when ``defaultColWidth`` is absent."""
    px = base_col_width * mdw + 5
    return int(math.ceil(px / 8) * 8)


@dataclass
class _Axis:
    """Sizes along one axis: a default plus sorted intervals ``[lo, hi]`` (1-based,
    inclusive) whose size differs. ``cum[i]`` is the summed difference (size - default)
    over intervals ``0..i``."""

    default: float
    lo: list[int] = field(default_factory=list)
    hi: list[int] = field(default_factory=list)
    size: list[float] = field(default_factory=list)
    cum: list[float] = field(default_factory=list)

    def add(self, lo: int, hi: int, size: float) -> None:
        # Callers add intervals in ascending order (the XML's order); overlaps from
        # sloppy producers are trimmed so the prefix sums stay valid.
        if self.hi and lo <= self.hi[-1]:
            lo = self.hi[-1] + 1
            if lo > hi:
                return
        delta = (size - self.default) * (hi - lo + 1)
        self.cum.append((self.cum[-1] if self.cum else 0.0) + delta)
        self.lo.append(lo)
        self.hi.append(hi)
        self.size.append(size)

    def start(self, index: int) -> float:
        """Offset of the leading edge of ``index`` (1-based): sum of sizes before it."""
        i = bisect_left(self.hi, index)  # intervals 0..i-1 end before index
        extra = self.cum[i - 1] if i > 0 else 0.0
        if i < len(self.lo) and self.lo[i] < index:  # index inside interval i
            extra += (self.size[i] - self.default) * (index - self.lo[i])
        return (index - 1) * self.default + extra

    def size_of(self, index: int) -> float:
        i = bisect_left(self.hi, index)
        if i < len(self.lo) and self.lo[i] <= index:
            return self.size[i]
        return self.default


@dataclass
class SheetGrid:
    """Column widths and row heights of one sheet, in points. Hidden rows/columns have
    size 0 here (their set size is kept in ``hidden_*`` for the attrs)."""

    default_col_width: float
    default_row_height: float
    mdw: int
    # the width of columns without <col> as LibreOffice draws them, when it differs
    default_fit_width: float | None = None
    cols: _Axis = field(init=False)
    # the columns text is judged against: as LibreOffice draws them (``fit_left``)
    fit_cols: _Axis = field(init=False)
    rows: _Axis = field(init=False)
    col_entries: list[list[float | int | bool]] = field(default_factory=list)
    row_entries: list[list[float | int | bool]] = field(default_factory=list)
    custom_rows: set[int] = field(default_factory=set)  # rows whose height is fixed (customHeight)
    stored_rows: set[int] = field(default_factory=set)  # rows whose height the file states (<row ht>)
    autofit_rows: set[int] = field(default_factory=set)  # rows sized by auto-fit (no stored height)

    def __post_init__(self) -> None:
        self.cols = _Axis(self.default_col_width)
        self.rows = _Axis(self.default_row_height)
        fit_default = self.default_fit_width
        self.fit_cols = _Axis(fit_default if fit_default is not None else self.default_col_width)

    def add_cols(
        self, lo: int, hi: int, width_pt: float, *, hidden: bool, fit_width_pt: float | None = None
    ) -> None:
        """Columns ``lo..hi``: ``width_pt`` by Excel's whole-pixel rule (the canvas and
        every box); ``fit_width_pt``, the width LibreOffice draws (None: the same)."""
        lo, hi = max(1, lo), min(MAX_COLS, hi)
        if lo > hi:
            return
        if hidden or width_pt != self.default_col_width:
            self.col_entries.append([lo, hi, round(width_pt, 4), hidden])
        size = 0.0 if hidden else width_pt
        if size != self.default_col_width:
            self.cols.add(lo, hi, size)
        fit = 0.0 if hidden else (fit_width_pt if fit_width_pt is not None else width_pt)
        if fit != self.fit_cols.default:
            self.fit_cols.add(lo, hi, fit)

    def add_row(self, row: int, height_pt: float, *, hidden: bool, custom: bool) -> None:
        if hidden or custom or height_pt != self.default_row_height:
            self.row_entries.append([row, round(height_pt, 4), hidden, custom])
        if custom:
            self.custom_rows.add(row)
        size = 0.0 if hidden else height_pt
        if size != self.default_row_height:
            self.rows.add(row, row, size)

    def set_auto_heights(self, heights: dict[int, float]) -> None:
        """Give rows without a stored height the height auto-fit computed (taller than
        the default); the row axis is rebuilt in row order."""
        if not heights:
            return
        entries = [e for e in self.row_entries if int(e[0]) not in heights]
        entries += [[r, round(h, 4), False, False] for r, h in heights.items()]
        entries.sort(key=lambda e: int(e[0]))
        self.row_entries = entries
        self.autofit_rows.update(heights)
        self.rows = _Axis(self.default_row_height)
        for row, height, hidden, _custom in entries:
            size = 0.0 if hidden else float(height)
            if size != self.default_row_height:
                self.rows.add(int(row), int(row), size)

    # -- positions (points from the top-left of A1) -----------------------------------
    def col_left(self, col: int) -> float:
        return self.cols.start(col)

    def fit_left(self, col: int) -> float:
        """The left edge of ``col`` with columns as wide as LibreOffice draws them: an
        explicit ``<col width>`` there is ~6% wider than Excel's whole pixels, and text
        that fits the drawn column must not be called cut off (design/xlsx-geometry.md)."""
        return self.fit_cols.start(col)

    def row_top(self, row: int) -> float:
        return self.rows.start(row)

    def col_width(self, col: int) -> float:
        return self.cols.size_of(col)

    def row_height(self, row: int) -> float:
        return self.rows.size_of(row)

    def range_rect(self, r0: int, c0: int, r1: int, c1: int) -> tuple[float, float, float, float]:
        """(x0, top, x1, bottom) covering rows r0..r1 and columns c0..c1 (inclusive)."""
        return (self.col_left(c0), self.row_top(r0), self.col_left(c1 + 1), self.row_top(r1 + 1))

    def anchor_point(self, col0: int, col_off_emu: float, row0: int, row_off_emu: float) -> tuple[float, float]:
        """A drawing anchor marker (0-based col/row, offsets in EMU) as (x, y) in points.
        Offsets are not clamped to the cell: producers write offsets past the cell edge
        and Excel honours them."""
        return (
            self.col_left(col0 + 1) + emu_to_pt(col_off_emu),
            self.row_top(row0 + 1) + emu_to_pt(row_off_emu),
        )
