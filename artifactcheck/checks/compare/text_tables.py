"""Tables of text (document and slide tables) compared cell by cell with the reference's.

A table is its rows of cells as the tree holds them (a merged cell is one cell, in the
row it starts in). Dimensions are one item. Tables with as many rows compare every cell
position both have; tables with a row more or less first pair their rows by content
(:mod:`.sequence_alignment`, as paragraphs are paired), so a row deleted in the middle is
one ``row N`` difference naming that row, not a difference at every cell below it (and
costs as much as deleting the last row). Cells beyond the common columns are covered by
the dimensions difference, not listed one by one. Text is compared as drawn (runs set in
capitals in capitals), normalised as the comparison's text options say.
"""

from __future__ import annotations

from ...model import Node
from ..target import shown_text
from .diff import Comparison
from .sequence_alignment import align
from .text_options import (
    TextCompareParams,
    difference_note,
    normalize_text,
    pairing_similarity,
    snippet,
    texts_agree,
)


def table_grid(table: Node) -> list[list[Node]]:
    """Rows of cells, in order (rows of nested tables are not this table's)."""
    return [[c for c in row.children if c.kind == "cell"] for row in table.children if row.kind == "row"]


def _row_texts(rows: list[list[Node]], p: TextCompareParams) -> list[list[str]]:
    return [[normalize_text(shown_text(cell), p) for cell in row] for row in rows]


def compare_table_cells(comparison: Comparison, reference: Node, artifact: Node, location: str, p: TextCompareParams) -> None:
    """Dimensions and cell text of one table pair, located ``{location} row R cell C`` (1-based)."""
    ref_rows, art_rows = table_grid(reference), table_grid(artifact)
    ref_dims = (len(ref_rows), max((len(r) for r in ref_rows), default=0))
    art_dims = (len(art_rows), max((len(r) for r in art_rows), default=0))
    comparison.check(
        "tables", location, f"{ref_dims[0]} rows x {ref_dims[1]} columns", f"{art_dims[0]} rows x {art_dims[1]} columns",
        equal=ref_dims == art_dims,
    )
    ref_text, art_text = _row_texts(ref_rows, p), _row_texts(art_rows, p)
    if len(ref_rows) == len(art_rows):  # the same rows: cell by position (an edited row stays that row)
        for r in range(len(ref_rows)):
            _compare_row(comparison, ref_text[r], art_text[r], f"{location} row {r + 1}", p)
        return
    keys = [" | ".join(row) for row in ref_text], [" | ".join(row) for row in art_text]
    for pair in align(*keys, similarity=pairing_similarity, min_moved=p.fuzzy if p.fuzzy is not None else 1.0):
        if pair.reference is None:
            assert pair.artifact is not None
            comparison.extra("tables", f"{location} artifact row {pair.artifact + 1}", snippet(keys[1][pair.artifact]) or "(empty row)")
        elif pair.artifact is None:
            comparison.missing("tables", f"{location} row {pair.reference + 1}", snippet(keys[0][pair.reference]) or "(empty row)")
        else:
            where = f"{location} row {pair.reference + 1}"
            _compare_row(comparison, ref_text[pair.reference], art_text[pair.artifact], where, p)
            if pair.moved and not p.ignore_order:
                comparison.check("tables", where, f"row {pair.reference + 1}", f"row {pair.artifact + 1}", equal=False,
                                 note="the row is elsewhere in the artifact")


def _compare_row(comparison: Comparison, expected_row: list[str], actual_row: list[str], where: str, p: TextCompareParams) -> None:
    for c, (expected, actual) in enumerate(zip(expected_row, actual_row, strict=False)):
        same, similarity = texts_agree(expected, actual, p)
        note = difference_note(expected, actual, similarity) or (f"similarity {similarity:.2f}" if not same else "")
        comparison.check("tables", f"{where} cell {c + 1}", expected, actual, equal=same, note=note)
