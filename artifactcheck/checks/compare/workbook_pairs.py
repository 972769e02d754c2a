"""Which sheet of the artifact is compared with which sheet of the reference, and which
cells of a sheet a comparison looks at.

Sheets pair by name (exactly, then ignoring case); the reference sheets left over pair
with the artifact's leftovers by position, so a renamed sheet is reported once as a
renamed sheet (``sheet_names``) and its cells are still compared, instead of every
cell being "missing". Cells are found by position (``query.grid.cell_position``), once
per Document (the reference is cached across the steps of a rubric).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...model import Document, Node
from ..query.grid import cell_position
from ..query.ranges import CellRange, quote_sheet
from ..target import cached

Position = tuple[int, int]


def sheet_name(sheet: Node) -> str:
    return str(sheet.attrs.get("name") or sheet.id)


def attrs_of(node: Node) -> dict[str, Any]:
    """A node's attrs, typed loosely: the aspects read JSON the extractors wrote."""
    return node.attrs


def sheets_of(doc: Document) -> list[Node]:
    """The workbook's sheets in tab order (worksheets and chart sheets)."""
    return [n for n in doc.root.children if n.kind == "sheet"]


def cells_by_position(doc: Document, sheet: Node) -> dict[Position, Node]:
    """Every cell node of ``sheet`` by (row, col), built once per Document."""
    every = cached(doc, "compare.cells_by_position", _index_cells)
    return every.get(sheet.id, {})


def _index_cells(doc: Document) -> dict[str, dict[Position, Node]]:
    out: dict[str, dict[Position, Node]] = {}
    for sheet in sheets_of(doc):
        placed: dict[Position, Node] = {}
        for cell in sheet.descendants("cell"):
            pos = cell_position(cell)
            if pos is not None:
                placed[pos] = cell
        out[sheet.id] = placed
    return out


@dataclass
class SheetPair:
    """A reference sheet and the artifact sheet compared with it (None: no sheet left
    to pair with), and the ranges that limit cell aspects (None: every cell)."""

    ref: Node
    art: Node | None
    how: str
    ranges: list[CellRange] | None = None
    ref_cells: dict[Position, Node] = field(default_factory=dict)
    art_cells: dict[Position, Node] = field(default_factory=dict)
    #: the non-blank values in scope, once the values aspect has read them (else empty)
    ref_values: dict[Position, Any] = field(default_factory=dict)
    art_values: dict[Position, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The name locations use: the artifact's sheet (where a person looks), else the reference's."""
        return sheet_name(self.art) if self.art is not None else sheet_name(self.ref)

    def where(self, a1: str = "") -> str:
        """``Budget!B3`` (or the sheet alone)."""
        quoted = quote_sheet(self.name) or self.name
        return f"{quoted}!{a1}" if a1 else quoted

    def in_scope(self, row: int, col: int) -> bool:
        return self.ranges is None or any(r.contains(row, col) for r in self.ranges)


def pair_sheets(ref_sheets: list[Node], art_sheets: list[Node]) -> tuple[list[SheetPair], list[Node]]:
    """Pairs for every reference sheet (in the reference's order) and the artifact
    sheets no reference sheet took (extra sheets)."""
    taken: set[int] = set()
    pairs: dict[int, SheetPair] = {}
    by_name = {sheet_name(s): i for i, s in enumerate(art_sheets)}
    by_folded: dict[str, int] = {}
    for i, s in enumerate(art_sheets):
        by_folded.setdefault(sheet_name(s).casefold(), i)
    for k, ref in enumerate(ref_sheets):
        j = by_name.get(sheet_name(ref))
        if j is not None and j not in taken:
            taken.add(j)
            pairs[k] = SheetPair(ref, art_sheets[j], "same name")
    for k, ref in enumerate(ref_sheets):
        if k in pairs:
            continue
        j = by_folded.get(sheet_name(ref).casefold())
        if j is not None and j not in taken:
            taken.add(j)
            pairs[k] = SheetPair(ref, art_sheets[j], "same name ignoring case")
    left = [j for j in range(len(art_sheets)) if j not in taken]
    for k, ref in enumerate(ref_sheets):
        if k in pairs:
            continue
        if left:
            j = left.pop(0)
            taken.add(j)
            pairs[k] = SheetPair(ref, art_sheets[j], f"by position (reference sheet {k + 1}, artifact sheet {j + 1})")
        else:
            pairs[k] = SheetPair(ref, None, "no artifact sheet left")
    extra = [art_sheets[j] for j in range(len(art_sheets)) if j not in taken]
    return [pairs[k] for k in range(len(ref_sheets))], extra
