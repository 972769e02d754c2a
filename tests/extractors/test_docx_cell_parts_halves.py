"""``cell_parts`` is now the combination of a row half and a column half (so a table
walker reads the row's half once per row): every look, position and band size gives the
parts the one-piece form gave."""

from __future__ import annotations

import itertools

from artifactcheck.extractors.docx.table_styles import PART_ORDER, TableLook, cell_parts


def _reference_parts(
    look: TableLook, row: int, rows: int, cell: int, cells: int, header_row: bool, row_band: int, col_band: int
) -> tuple[str, ...]:
    """cell_parts as it was written before the split (one piece)."""
    row_part = None
    if row == 0:
        row_part = "firstRow" if look.first_row else None
    elif row == rows - 1:
        row_part = "lastRow" if look.last_row else None
    elif header_row:
        row_part = "firstRow"
    col_part = None
    if cell == 0:
        col_part = "firstCol" if look.first_col else None
    elif cell == cells - 1:
        col_part = "lastCol" if look.last_col else None
    parts: set[str] = set()
    if row_part is not None:
        parts.add(row_part)
    elif look.row_bands:
        band = (row - (1 if look.first_row else 0)) // max(1, row_band)
        parts.add("band1Horz" if band % 2 == 0 else "band2Horz")
    if col_part is not None:
        parts.add(col_part)
    elif look.col_bands:
        band = (cell - (1 if look.first_col else 0)) // max(1, col_band)
        parts.add("band1Vert" if band % 2 == 0 else "band2Vert")
    corner = {
        ("firstRow", "firstCol"): "nwCell",
        ("firstRow", "lastCol"): "neCell",
        ("lastRow", "firstCol"): "swCell",
        ("lastRow", "lastCol"): "seCell",
    }.get((row_part or "", col_part or ""))
    if corner is not None:
        parts.add(corner)
    return tuple(p for p in PART_ORDER if p in parts)


def test_the_halves_give_the_one_piece_parts() -> None:
    checked = 0
    for flags in itertools.product((False, True), repeat=6):
        look = TableLook(*flags)
        for rows, cells, header_row, row_band, col_band in itertools.product((1, 2, 5), (1, 2, 4), (False, True), (1, 2), (0, 1, 3)):
            for row, cell in itertools.product(range(rows), range(cells)):
                got = cell_parts(
                    look, row=row, rows=rows, cell=cell, cells=cells, header_row=header_row,
                    row_band_size=row_band, col_band_size=col_band,
                )
                assert got == _reference_parts(look, row, rows, cell, cells, header_row, row_band, col_band)
                checked += 1
    assert checked > 10_000
