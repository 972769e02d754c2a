"""Tables of text (document and slide tables) compared cell by cell with the reference's.

A table is its rows of cells as the tree holds them (a merged cell is one cell, in the
row it starts in). Dimensions are one item; then every cell position both tables have is
one item, its text normalised as the comparison's text options say. Cells beyond the
common area are covered by the dimensions difference, not listed one by one.
"""

from __future__ import annotations

from ...model import Node
from .diff import Comparison
from .text_options import TextCompareParams, normalize_text, texts_agree


def table_grid(table: Node) -> list[list[Node]]:
    """Rows of cells, in order (rows of nested tables are not this table's)."""
    return [[c for c in row.children if c.kind == "cell"] for row in table.children if row.kind == "row"]


def compare_table_cells(comparison: Comparison, reference: Node, artifact: Node, location: str, p: TextCompareParams) -> None:
    """Dimensions and cell text of one table pair, located ``{location} row R cell C`` (1-based)."""
    ref_rows, art_rows = table_grid(reference), table_grid(artifact)
    ref_dims = (len(ref_rows), max((len(r) for r in ref_rows), default=0))
    art_dims = (len(art_rows), max((len(r) for r in art_rows), default=0))
    comparison.check(
        "tables", location, f"{ref_dims[0]} rows x {ref_dims[1]} columns", f"{art_dims[0]} rows x {art_dims[1]} columns",
        equal=ref_dims == art_dims,
    )
    for r, (ref_row, art_row) in enumerate(zip(ref_rows, art_rows, strict=False)):
        for c, (ref_cell, art_cell) in enumerate(zip(ref_row, art_row, strict=False)):
            expected, actual = normalize_text(ref_cell.text, p), normalize_text(art_cell.text, p)
            same, similarity = texts_agree(expected, actual, p)
            note = f"similarity {similarity:.2f}" if not same or similarity < 1 else ""
            comparison.check("tables", f"{location} row {r + 1} cell {c + 1}", expected, actual, equal=same, note=note)
