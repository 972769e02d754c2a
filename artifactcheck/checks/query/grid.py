"""A sheet or a table seen as a grid of cells, and header-row detection.

Spreadsheet cells are placed by their 1-based ``attrs["row"]``/``attrs["col"]`` (or, when
an extractor gives only an A1 reference, by ``attrs["ref"]``, the part after ``!`` in the
id, or ``source``). Table cells are placed by position in their row (merged cells are
not expanded: a row with a merged cell has fewer cells).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ...model import Document, Node
from ..normalize import parse_date, parse_number
from ..target import Target, cached, select_targets, select_union

_A1 = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")


def column_letter(col: int) -> str:
    """1 -> A, 27 -> AA."""
    out = ""
    while col > 0:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


def parse_a1(ref: str) -> tuple[int, int] | None:
    """``"B3"`` -> (row 3, col 2); None when not an A1 reference.

    >>> parse_a1("AA10"), parse_a1("Sheet1")
    ((10, 27), None)
    """
    m = _A1.match(ref.strip())
    if m is None:
        return None
    col = 0
    for ch in m.group(1).upper():
        col = col * 26 + ord(ch) - 64
    return int(m.group(2)), col


def cell_position(cell: Node) -> tuple[int, int] | None:
    """(row, col), 1-based, of a spreadsheet cell, or None when the extractor gave none."""
    r, c = cell.attrs.get("row"), cell.attrs.get("col", cell.attrs.get("column"))
    if isinstance(r, int) and isinstance(c, int):
        return r, c
    for ref in (
        cell.attrs.get("ref"),
        cell.id.rsplit("!", 1)[-1],
        (cell.source or "").rsplit("!", 1)[-1],
    ):
        if isinstance(ref, str):
            pos = parse_a1(ref)
            if pos is not None:
                return pos
    return None


MAX_GRID_CELLS = 2_000_000
"""A sheet grid keeps at most this many slots; rows past it are dropped (``truncated``)."""


@dataclass
class Grid:
    """Cells of one sheet or table in a matrix over the rows and columns that hold a
    cell (a sheet's blank rows and columns are left out). ``cells[i][j]`` is None for a
    gap. ``row_numbers[i]`` is the sheet's 1-based row number (table: 1-based row
    index), ``col_numbers[j]`` likewise for columns."""

    source: Node
    cells: list[list[Node | None]]
    row_numbers: list[int]
    col_numbers: list[int]
    row_nodes: list[Node | None] = field(default_factory=list)
    truncated: bool = False

    @property
    def name(self) -> str:
        return str(self.source.attrs.get("name") or self.source.id)

    def row_texts(self, i: int) -> list[str]:
        return [c.text.strip() if c is not None else "" for c in self.cells[i]]

    def is_blank(self, i: int) -> bool:
        return not any(self.row_texts(i))

    def col_label(self, j: int) -> str:
        return (
            column_letter(self.col_numbers[j])
            if self.source.kind == "sheet"
            else str(self.col_numbers[j])
        )


def build_grid(container: Node) -> Grid:
    """The grid of a ``sheet`` or ``table`` node."""
    if container.kind == "table":
        row_nodes = [r for r in container.children if r.kind == "row"]
        width = max(
            (len([c for c in r.children if c.kind == "cell"]) for r in row_nodes), default=0
        )
        cells: list[list[Node | None]] = []
        for r in row_nodes:
            row = [c for c in r.children if c.kind == "cell"]
            cells.append(row + [None] * (width - len(row)))
        return Grid(
            container,
            cells,
            list(range(1, len(row_nodes) + 1)),
            list(range(1, width + 1)),
            list(row_nodes),
        )
    placed: dict[tuple[int, int], Node] = {}
    for cell in container.descendants("cell"):
        if not cell.text.strip() and cell.style is None:
            continue
        pos = cell_position(cell)
        if pos is not None:
            placed[pos] = cell
    if not placed:
        return Grid(container, [], [], [], [])
    # Only rows and columns that hold a cell: a stray value in XFD1048576 must not make a
    # 16k x 1M matrix. Blank rows and columns carry no information for these checks.
    rows = sorted({r for r, _ in placed})
    cols = sorted({c for _, c in placed})
    max_rows = max(1, MAX_GRID_CELLS // len(cols))
    truncated = len(rows) > max_rows
    rows = rows[:max_rows]
    matrix = [[placed.get((r, c)) for c in cols] for r in rows]
    row_index = {r.attrs.get("row"): r for r in container.descendants("row")}
    return Grid(container, matrix, rows, cols, [row_index.get(r) for r in rows], truncated)


def grids(doc: Document, scope: Target | None = None) -> list[Grid]:
    """Grids of every non-empty sheet and table, or of every sheet and table the scope
    names (or holds); cached per Document when no scope is given."""
    if scope is None:
        # without a scope, empty sheets (a blank "Sheet2") are not what a rubric means
        return cached(
            doc,
            "grids",
            lambda d: [
                g for g in (build_grid(n) for n in select_union(d, "sheet, table")) if g.cells
            ],
        )
    found = [n for n in select_targets(doc, scope) if n.kind in ("sheet", "table")]
    if not found:  # a scope inside a sheet or table: use the enclosing containers
        seen: dict[int, Node] = {}
        for n in select_targets(doc, scope):
            holder = next((a for a in n.ancestors() if a.kind in ("sheet", "table")), None)
            if holder is not None:
                seen.setdefault(id(holder), holder)
        found = list(seen.values())
    return [build_grid(n) for n in found]


def is_data_text(text: str) -> bool:
    """A number, percentage, currency amount or date: a data cell, not a label."""
    t = text.strip()
    return bool(t) and (parse_number(t) is not None or parse_date(t) is not None)


def _bold(cell: Node | None) -> bool:
    if cell is None:
        return False
    units = [r for r in cell.descendants("run") if r.text.strip()] or [cell]
    return all(u.style is not None and bool(u.style.bold) for u in units)


@dataclass(frozen=True)
class HeaderGuess:
    """Where the header row is (index into ``Grid.cells``) and why."""

    index: int | None
    reason: str


def detect_header_row(grid: Grid, *, max_scan: int = 10) -> HeaderGuess:
    """The first non-blank row whose filled cells are all labels (no numbers or dates)
    and that is followed by a row with data in some column, or that is bold above a
    non-bold row. A single-row grid of labels counts as a header.

    Scans at most ``max_scan`` non-blank rows: a title row above the header is skipped
    because it fails the "followed by data" test only if the header itself follows it.
    """
    filled = [i for i in range(len(grid.cells)) if not grid.is_blank(i)]
    for k, i in enumerate(filled[:max_scan]):
        texts = grid.row_texts(i)
        labels = [t for t in texts if t]
        if not labels or any(is_data_text(t) for t in labels):
            continue
        nxt = filled[k + 1] if k + 1 < len(filled) else None
        if nxt is None:
            return HeaderGuess(i, "the only row of labels")
        below = grid.row_texts(nxt)
        if any(is_data_text(t) for t in below):
            # a title row (one label above a multi-label row) is not the header
            if len(labels) == 1 and sum(1 for t in texts if t) < sum(1 for t in below if t) - 1:
                continue
            return HeaderGuess(
                i, f"labels above data (row {grid.row_numbers[nxt]} has numbers or dates)"
            )
        header_bold = any(_bold(c) for c in grid.cells[i] if c is not None and c.text.strip())
        below_bold = any(_bold(c) for c in grid.cells[nxt] if c is not None and c.text.strip())
        if header_bold and not below_bold and len(labels) > 1:
            return HeaderGuess(i, "bold labels above non-bold rows")
    if (
        filled
        and all(_bold(c) for c in grid.cells[filled[0]] if c is not None and c.text.strip())
        and len(filled) > 1
    ):
        return HeaderGuess(filled[0], "first row is bold")
    return HeaderGuess(None, "no row of labels above data rows")


def row_is_bold(grid: Grid, i: int) -> bool:
    cells = [c for c in grid.cells[i] if c is not None and c.text.strip()]
    return bool(cells) and all(_bold(c) for c in cells)
