"""``CellIndex``: one sheet's ``{(row, col): cell node}``, held as a dict per row.

The extractor's later passes (validations, conditional formats, table styles, displayed
styles) find cells by position. A plain dict keyed by ``(row, col)`` tuples costs ~110
bytes a cell (a 64-byte tuple plus its dict entry): 11 MiB of a 100k-cell sheet, alive at
the extraction's peak beside the whole tree (design/xlsx-geometry.md). A dict of rows whose
values are dicts keyed by column (small ints, shared by CPython) costs ~40 bytes a cell.

It answers the dict operations those passes use, with the same results; iteration is row
by row in the order rows were first filled, columns in insertion order within a row (a
plain dict's order differs only for a cell added to an earlier row later: the orphan
comment cells, which no pass's result depends on the order of).
"""

from __future__ import annotations

from collections.abc import Iterator

from ...model import Node

Position = tuple[int, int]


class CellIndex:
    __slots__ = ("_len", "_rows")

    def __init__(self) -> None:
        self._rows: dict[int, dict[int, Node]] = {}
        self._len = 0

    def __setitem__(self, pos: Position, node: Node) -> None:
        r, c = pos
        row = self._rows.get(r)
        if row is None:
            row = self._rows[r] = {}
        if c not in row:
            self._len += 1
        row[c] = node

    def __getitem__(self, pos: Position) -> Node:
        row = self._rows.get(pos[0])
        if row is None or pos[1] not in row:
            raise KeyError(pos)
        return row[pos[1]]

    def get(self, pos: Position, default: Node | None = None) -> Node | None:
        row = self._rows.get(pos[0])
        return default if row is None else row.get(pos[1], default)

    def __contains__(self, pos: object) -> bool:
        if not isinstance(pos, tuple) or len(pos) != 2:
            return False
        row = self._rows.get(pos[0])
        return row is not None and pos[1] in row

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    def __iter__(self) -> Iterator[Position]:
        for r, row in self._rows.items():
            for c in row:
                yield (r, c)

    def items(self) -> Iterator[tuple[Position, Node]]:
        for r, row in self._rows.items():
            for c, node in row.items():
                yield (r, c), node

    def rows(self) -> Iterator[int]:
        """The row numbers that hold a cell."""
        return iter(self._rows)

    def columns(self) -> Iterator[int]:
        """The column number of every cell (once per cell)."""
        for row in self._rows.values():
            yield from row
