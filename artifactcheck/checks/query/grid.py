"""A sheet or a table seen as a grid of cells, and header-row detection.

Spreadsheet cells are placed by their 1-based ``attrs["row"]``/``attrs["col"]`` (or, when
an extractor gives only an A1 reference, by ``attrs["ref"]``, the part after ``!`` in the
id, or ``source``). Table cells are placed by position in their row (merged cells are
not expanded: a row with a merged cell has fewer cells).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ...model import Document, Node
from ..normalize import parse_date, parse_number
from ..target import Target, cached, select_targets, select_union
from .ranges import CellRange, column_letter, parse_a1_range, range_container, resolve_range

_A1 = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")


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
    how: str = ""
    """How this grid's extent was chosen (the range the author gave, an Excel table, the
    block of adjacent columns), for explanations; empty for a whole sheet or table."""

    @property
    def name(self) -> str:
        return str(self.source.attrs.get("name") or self.source.id)

    def row_texts(self, i: int) -> list[str]:
        return [c.text.strip() if c is not None else "" for c in self.cells[i]]

    def is_blank(self, i: int) -> bool:
        return not any(self.row_texts(i))

    def is_hidden(self, i: int) -> bool:
        """Every cell of row ``i`` is hidden (a hidden row, or hidden columns all along):
        a reader sees none of it."""
        cells = [c for c in self.cells[i] if c is not None]
        return bool(cells) and all(c.attrs.get("hidden") is True for c in cells)

    def extent(self) -> str:
        """The A1 text of the rows and columns the grid spans (``A1:D8``)."""
        if not self.cells:
            return "(empty)"
        return f"{self.col_label(0)}{self.row_numbers[0]}:{self.col_label(len(self.col_numbers) - 1)}{self.row_numbers[-1]}"

    def describe(self) -> str:
        """``Data!A1:D8`` and, when it is not the whole sheet, why that extent."""
        where = f"{self.name}!{self.extent()}"
        return f"{where} ({self.how})" if self.how else where

    def col_label(self, j: int) -> str:
        return (
            column_letter(self.col_numbers[j])
            if self.source.kind == "sheet"
            else str(self.col_numbers[j])
        )


def build_grid(container: Node, cell_range: CellRange | None = None) -> Grid:
    """The grid of a ``sheet`` or ``table`` node, restricted to ``cell_range`` if given."""
    if container.kind == "table":
        grid = _table_grid(container)
        return grid if cell_range is None else _restrict(grid, cell_range)
    placed: dict[tuple[int, int], Node] = {}
    for cell in container.descendants("cell"):
        if not cell.text.strip() and cell.style is None:
            continue
        pos = cell_position(cell)
        if pos is not None and (cell_range is None or cell_range.contains(*pos)):
            placed[pos] = cell
    how = cell_range.how if cell_range is not None else ""
    if not placed:
        return Grid(container, [], [], [], [], how=how)
    # Only rows and columns that hold a cell: a stray value in XFD1048576 must not make a
    # 16k x 1M matrix. Blank rows and columns carry no information for these checks.
    rows = sorted({r for r, _ in placed})
    cols = sorted({c for _, c in placed})
    max_rows = max(1, MAX_GRID_CELLS // len(cols))
    truncated = len(rows) > max_rows
    rows = rows[:max_rows]
    matrix = [[placed.get((r, c)) for c in cols] for r in rows]
    row_index = {r.attrs.get("row"): r for r in container.descendants("row")}
    return Grid(container, matrix, rows, cols, [row_index.get(r) for r in rows], truncated, how)


def _restrict(grid: Grid, cell_range: CellRange) -> Grid:
    keep_rows = [i for i, r in enumerate(grid.row_numbers) if cell_range.r0 <= r <= cell_range.r1]
    keep_cols = [j for j, c in enumerate(grid.col_numbers) if cell_range.c0 <= c <= cell_range.c1]
    return Grid(
        grid.source,
        [[grid.cells[i][j] for j in keep_cols] for i in keep_rows],
        [grid.row_numbers[i] for i in keep_rows],
        [grid.col_numbers[j] for j in keep_cols],
        [grid.row_nodes[i] for i in keep_rows] if grid.row_nodes else [],
        grid.truncated,
        cell_range.how,
    )


def _table_grid(container: Node) -> Grid:
    row_nodes = [r for r in container.children if r.kind == "row"]
    width = max((len([c for c in r.children if c.kind == "cell"]) for r in row_nodes), default=0)
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


def _containers(doc: Document, scope: Target | None) -> list[Node]:
    """Every sheet and table, or those the scope names (or holds)."""
    if scope is None:
        return select_union(doc, "sheet, table")
    found = [n for n in select_targets(doc, scope) if n.kind in ("sheet", "table")]
    if not found:  # a scope inside a sheet or table: use the enclosing containers
        seen: dict[int, Node] = {}
        for n in select_targets(doc, scope):
            holder = next((a for a in n.ancestors() if a.kind in ("sheet", "table")), None)
            if holder is not None:
                seen.setdefault(id(holder), holder)
        found = list(seen.values())
    return found


def grids(
    doc: Document,
    scope: Target | None = None,
    cell_range: str | None = None,
    *,
    table_only: bool = False,
) -> list[Grid]:
    """Grids of every non-empty sheet and table, or of every sheet and table the scope
    names (or holds).

    ``cell_range`` (A1 text, ``Sheet!A1:G9``, a defined name or an Excel table name,
    ``ranges.resolve_range``) restricts the grid to that rectangle on the sheet it names
    (else the first sheet or table in scope): one grid. ``table_only`` (the checks that
    look for a header) otherwise narrows each sheet to its table: the sheet's only Excel
    table, or the block of adjacent columns holding most text (a helper column beyond an
    empty column is not part of the table). Raises ValueError for a range that names
    nothing.
    """
    if cell_range is not None:
        resolved = resolve_range(doc, cell_range)
        candidates = [n for n in _containers(doc, scope) if scope is not None or build_grid(n).cells]
        return [build_grid(range_container(doc, resolved, candidates), resolved)]
    if scope is None:
        # without a scope, empty sheets (a blank "Sheet2") and hidden sheets (a reader never
        # sees them; LibreOffice does not print them) are not what a rubric means
        whole = cached(
            doc, "grids", lambda d: _shown([g for g in (build_grid(n) for n in _containers(d, None)) if g.cells])
        )
    else:
        whole = [build_grid(n) for n in _containers(doc, scope)]
    return [table_of(g) for g in whole] if table_only else list(whole)


def _hidden_sheet(node: Node) -> bool:
    """``node`` is a hidden sheet (``state`` hidden or veryHidden) or lies on one."""
    sheet = node if node.kind == "sheet" else next((a for a in node.ancestors() if a.kind == "sheet"), None)
    return sheet is not None and sheet.attrs.get("state", "visible") != "visible"


def _shown(found: list[Grid]) -> list[Grid]:
    """The grids not on hidden sheets; all of them when every one is hidden."""
    shown = [g for g in found if not _hidden_sheet(g.source)]
    return shown or found


def table_of(grid: Grid) -> Grid:
    """The part of a sheet's grid that is its table (see :func:`grids`); tables and
    sheets with one block of columns are returned as they are."""
    if grid.source.kind != "sheet" or not grid.cells:
        return grid
    tables = grid.source.attrs.get("tables")
    if isinstance(tables, list) and len(tables) == 1 and isinstance(tables[0], dict):
        ref = tables[0].get("ref")
        parsed = parse_a1_range(ref) if isinstance(ref, str) else None
        if parsed is not None:
            r0, c0, r1, c1 = parsed[1]
            name = tables[0].get("name") or tables[0].get("display_name")
            return _restrict(grid, CellRange(None, r0, c0, r1, c1, f"the sheet's Excel table {name!r}"))
    return _without_side_blocks(_column_block(grid))


def _column_block(grid: Grid) -> Grid:
    """The block of adjacent columns holding most text (see :func:`grids`)."""
    blocks: list[list[int]] = []
    for j, col in enumerate(grid.col_numbers):
        if blocks and col == grid.col_numbers[blocks[-1][-1]] + 1:
            blocks[-1].append(j)
        else:
            blocks.append([j])
    if len(blocks) < 2:
        return grid

    def texts(block: list[int]) -> int:
        return sum(1 for row in grid.cells for j in block if (c := row[j]) is not None and c.text.strip())

    best = max(blocks, key=texts)
    left_out = [
        f"{grid.col_label(b[0])}" + (f":{grid.col_label(b[-1])}" if len(b) > 1 else "")
        for b in blocks
        if b is not best and texts(b)
    ]
    if not left_out:
        return grid
    first, last = grid.col_numbers[best[0]], grid.col_numbers[best[-1]]
    how = (
        f"the block of adjacent columns holding most text; column(s) {', '.join(left_out)} "
        "beyond an empty column left out"
    )
    return _restrict(grid, CellRange(None, 1, first, 10**9, last, how))


_SIDE_BLOCK_ROWS = 3  # a title with a KPI line or two, a source note: no more rows than this


def _without_side_blocks(grid: Grid) -> Grid:
    """The table without the small blocks a blank row sets apart above or below it: a
    title and KPI lines over the table, a "Source: ..." note under it. Up to
    ``_SIDE_BLOCK_ROWS`` rows, at most half as wide as the table, one at each edge: a
    blank row inside the data (a spacer between groups) keeps both sides. They took
    over header detection ("header row 1 is ['Sales Dashboard']") and were counted as
    values."""
    blocks: list[list[int]] = []
    prev: int | None = None
    for i, row in enumerate(grid.row_numbers):
        if grid.is_blank(i):
            prev = None
            continue
        if blocks and prev is not None and row == prev + 1:
            blocks[-1].append(i)
        else:
            blocks.append([i])
        prev = row
    if len(blocks) < 2:
        return grid

    def width(block: list[int]) -> int:  # the most cells with text in one of its rows
        return max(sum(1 for t in grid.row_texts(i) if t) for i in block)

    def aside(block: list[int], table: list[int], *, below: bool = False) -> bool:
        # a title or note: short, and no wider than half the table's rows (data rows after
        # a spacer fill the table's columns); below the table, also a block of summary
        # lines of any length ("Average", "Highest", "Lowest", "Count" beside formulas)
        short = len(block) <= _SIDE_BLOCK_ROWS or (below and all(_aggregates(grid, i) for i in block))
        return short and len(table) > len(block) and 2 * width(block) <= width(table)

    # one block at each edge at most: the title block, the notes block
    first = 1 if aside(blocks[0], blocks[1]) else 0
    last = len(blocks) - 1
    if last - 1 >= first and aside(blocks[last], blocks[last - 1], below=True):
        last -= 1
    if first == 0 and last == len(blocks) - 1:
        return grid
    r0, r1 = grid.row_numbers[blocks[first][0]], grid.row_numbers[blocks[last][-1]]
    dropped = [f"{grid.row_numbers[b[0]]}" + (f"-{grid.row_numbers[b[-1]]}" if len(b) > 1 else "") for b in blocks[:first] + blocks[last + 1 :]]
    how = ((grid.how + "; ") if grid.how else "") + f"row(s) {', '.join(dropped)} set apart by a blank row left out"
    c0, c1 = grid.col_numbers[0], grid.col_numbers[-1]
    return _restrict(grid, CellRange(None, r0, c0, r1, c1, how))


_AGGREGATE = re.compile(r"\b(?:SUM|SUBTOTAL|AGGREGATE|AVERAGE|MEDIAN|MODE|MAX|MIN|COUNT|COUNTA|COUNTIFS?|SUMIFS?|"
                        r"AVERAGEIFS?|STDEV(?:\.[SP])?|VAR(?:\.[SP])?|LARGE|SMALL)\(", re.IGNORECASE)


def _aggregates(grid: Grid, i: int) -> bool:
    """Row ``i`` holds a formula aggregating a range (SUM, AVERAGE, MAX, COUNTIF...): a
    summary line, not a data row."""
    return any(c is not None and _AGGREGATE.search(str(c.attrs.get("formula") or "")) for c in grid.cells[i])


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
    """The header row of a grid, and why.

    First choice: the first non-blank row whose filled cells are all labels (no numbers
    or dates) and that is followed by a row with data in some column, or that is bold
    above a non-bold row. A single-row grid of labels counts as a header. A title row (one
    label above a row with more labels) is skipped. Failing that, the first row whose
    filled cells are at least three quarters labels (two or more) above data: a stray
    number beside the header (a helper value, a count) does not hide it. Scans at most
    ``max_scan`` non-blank rows.
    """
    filled = [i for i in range(len(grid.cells)) if not grid.is_blank(i)]
    strict = _scan(grid, filled[:max_scan], filled, lambda labels, texts: not any(is_data_text(t) for t in labels))
    if strict.index is not None:
        return strict

    def mostly_labels(labels: list[str], texts: list[str]) -> bool:
        words = [t for t in labels if not is_data_text(t)]
        return len(words) >= 2 and len(words) >= 0.75 * len(labels)

    tolerant = _scan(grid, filled[:max_scan], filled, mostly_labels)
    if tolerant.index is not None:
        i = tolerant.index
        labels = [t for t in grid.row_texts(i) if t]
        words = sum(1 for t in labels if not is_data_text(t))
        return HeaderGuess(i, f"{tolerant.reason}; {words} of its {len(labels)} filled cells are labels")
    if (
        filled
        and all(_bold(c) for c in grid.cells[filled[0]] if c is not None and c.text.strip())
        and len(filled) > 1
    ):
        return HeaderGuess(filled[0], "first row is bold")
    first = _all_text_header(grid, filled)
    if first is not None:
        return first
    return HeaderGuess(None, "no row of labels above data rows")


_RECUR_SCAN = 200  # rows below an all-text header looked at for a repeat of its labels


def _all_text_header(grid: Grid, filled: list[int]) -> HeaderGuess | None:
    """The first row of a table of text only (a contact list: names, e-mails, cities),
    plain like its rows, when it names at least two columns and none of its labels comes
    back in its own column below (a header is not one of its column's values)."""
    if len(filled) < 2:
        return None
    top = grid.row_texts(filled[0])
    named = [j for j, t in enumerate(top) if t]
    if len(named) < 2:
        return None
    below = [grid.row_texts(i) for i in filled[1:_RECUR_SCAN]]
    for j in named:
        label = top[j].strip().lower()
        if any(j < len(row) and row[j].strip().lower() == label for row in below):
            return None
    return HeaderGuess(filled[0], "first row of a table of text: its labels do not recur in their columns")


def _scan(grid: Grid, rows: list[int], filled: list[int], is_label_row: Callable[[list[str], list[str]], bool]) -> HeaderGuess:
    for i in rows:
        k = filled.index(i)
        texts = grid.row_texts(i)
        labels = [t for t in texts if t]
        if not labels or not is_label_row(labels, texts):
            continue
        nxt = filled[k + 1] if k + 1 < len(filled) else None
        if nxt is None:
            # one row of labels is a header; the last of many rows of text is not (an
            # all-text table - names, e-mails, cities - reached its end without data)
            return HeaderGuess(i, "the only row of labels") if len(filled) == 1 else HeaderGuess(None, "")
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
    return HeaderGuess(None, "")


def describe_header(grid: Grid, guess: HeaderGuess) -> str:
    """``header row 1 of Data!A1:D8 (labels above data ...)``, for explanations."""
    if guess.index is None:
        return f"no header row in {grid.describe()} ({guess.reason})"
    row = grid.row_numbers[guess.index]
    labels = [t for t in grid.row_texts(guess.index) if t]
    shown = ", ".join(repr(t[:20]) for t in labels[:6]) + (", ..." if len(labels) > 6 else "")
    return f"header row {row} [{shown}] of {grid.describe()}: {guess.reason}"


def row_is_bold(grid: Grid, i: int) -> bool:
    cells = [c for c in grid.cells[i] if c is not None and c.text.strip()]
    return bool(cells) and all(_bold(c) for c in cells)
