"""``range_equals``: a block of cells equals values written in the rubric (a 2-D list), or
the cells of a small CSV file named like a reference — a gold comparison without a gold
workbook.

The block starts at the range's top-left cell and is as large as the expected values
(rows x the longest row). A range that states both corners must have that size; a
single cell (``B2``) or an open range (``B:D``) takes the size of the expected values.
Blank handling: an expected ``null`` or ``""`` — and the missing tail of a shorter row —
means the cell must be empty (no value, or only whitespace); ``skip_blank_expected``
makes such cells accept anything instead.

Values written in the rubric compare like a person reads them: a number against the
cell's number (a percentage cell holds its fraction: ``0.25`` matches ``25%``), text
against the cell's text — or against what a number, date or boolean cell displays or its
ISO date (``"2024-01-05"`` matches a date shown as ``1/5/2024``; ``"25%"`` matches the
cell showing 25%). Cells of a CSV file compare typed as Excel reads CSV.

An expected cell written as a list holds alternatives: the cell agrees with any one
(``[["Vienna", ["Brno", "Prague"]]]``; OSWorld's ``compare_conference_city_in_order``
accepts several spellings of a city). ``text_match: contains`` lets expected text agree
with a cell whose text contains it (the same normalisation: whitespace, case).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from ...model import Document, Node
from ..query.ranges import OPEN, CellRange, quote_sheet, range_container, resolve_range
from ..registry import Resources, register_check
from ..result import CheckResult
from .cell_values import (
    BLANK,
    CellValue,
    ValueOptions,
    cell_value,
    literal_value,
    normalize_cell_text,
    values_agree,
)
from .diff import Comparison, comparison_result
from .reference import load_reference_document
from .workbook_cells import a1
from .workbook_pairs import cells_by_position, sheet_name, sheets_of


class RangeEqualsParams(ValueOptions):
    """Parameters of ``range_equals``."""

    range: str = Field(
        description="where the block is: its top-left cell (B2), a full range (Budget!B2:D9) that must match the "
        "expected size, a defined name or an Excel table name; without a sheet, the first sheet with cells"
    )
    expected: list[list[Any]] | None = Field(
        default=None,
        description="the expected values, row by row (numbers, text, true/false; null or '' = empty cell); a cell "
        "written as a list holds alternatives, any one of which agrees ([\"Brno\", \"Prague\"])",
    )
    text_match: Literal["equal", "contains"] = Field(
        default="equal",
        description="expected text agrees with a cell whose text equals it (equal) or contains it (contains: "
        "'Vienna' agrees with 'Vienna, Austria'), after the whitespace and case options",
    )
    expected_file: str | None = Field(
        default=None,
        description="or: a CSV file (or any workbook: its first sheet from A1) holding the expected values, "
        "named like a reference file",
    )
    skip_blank_expected: bool = Field(
        default=False, description="an expected empty cell accepts any value (default: it must be empty)"
    )
    max_shown: int = Field(default=20, ge=0, le=1000, description="differences listed in the evidence; the rest are counted")
    partial_credit: bool = Field(default=False, description="score = share of cells that agree (default: 1 or 0)")

    @model_validator(mode="after")
    def _one_source(self) -> RangeEqualsParams:
        if (self.expected is None) == (self.expected_file is None):
            raise ValueError("give the expected values inline (expected) or in a file (expected_file), not both")
        if self.expected is not None and not any(self.expected):
            raise ValueError("expected holds no rows")
        if self.expected is not None and any(isinstance(v, list) and not v for row in self.expected for v in row):
            raise ValueError("an expected cell written as a list of alternatives holds none")
        return self


def _expected_from_file(name: str, resources: Resources) -> list[list[CellValue]]:
    ref = load_reference_document(name, resources)
    sheets = [s for s in sheets_of(ref) if cells_by_position(ref, s)]
    if not sheets:
        raise ValueError(f"expected_file {name!r} holds no cells")
    cells = cells_by_position(ref, sheets[0])
    rows = max(r for r, _ in cells)
    cols = max(c for _, c in cells)
    return [[cell_value(cells.get((r, c))) for c in range(1, cols + 1)] for r in range(1, rows + 1)]


def _block(target: CellRange, rows: int, cols: int, text: str) -> CellRange:
    single = target.r0 == target.r1 and target.c0 == target.c1
    open_ended = target.r1 >= OPEN or target.c1 >= OPEN
    if not single and not open_ended:
        have = (target.r1 - target.r0 + 1, target.c1 - target.c0 + 1)
        if have != (rows, cols):
            raise ValueError(
                f"range {text!r} is {have[0]}x{have[1]} cells but the expected values are {rows}x{cols}; "
                "give the top-left cell alone to take the size of the expected values"
            )
    return CellRange(target.sheet, target.r0, target.c0, target.r0 + rows - 1, target.c0 + cols - 1, target.how)


@register_check(
    "range_equals",
    mechanism="exact",
    params=RangeEqualsParams,
    example={"range": "Budget!A1", "expected": [["Item", "Amount"], ["Rent", 1200], ["Food", 350.5]], "precision": 2},
    mechanism_when={"precision": "tolerance", "abs_tol": "tolerance", "rel_tol": "tolerance"},
)
def range_equals(doc: Document, p: RangeEqualsParams, resources: Resources) -> CheckResult:
    """A block of cells equals a 2-D list of values given in the rubric, or the cells of a CSV file.

    Each cell that differs is located (``Budget!B3``) with both values; an expected
    empty cell must be empty unless ``skip_blank_expected``. A formula nobody could
    compute makes the check ``error`` when no other cell already differs.

    >>> from artifactcheck import run_check
    >>> from artifactcheck.checks.examples import tiny_doc
    >>> run_check("range_equals", tiny_doc(), {"range": "A1", "expected": [["Item"]]}).status
    'fail'
    """
    alternatives: dict[tuple[int, int], list[CellValue]] = {}
    if p.expected is not None:
        literal = True
        width = max(len(row) for row in p.expected)
        expected = [[literal_value(v[0] if isinstance(v, list) else v) for v in row] + [BLANK] * (width - len(row))
                    for row in p.expected]
        alternatives = {(i, j): [literal_value(a) for a in v] for i, row in enumerate(p.expected)
                        for j, v in enumerate(row) if isinstance(v, list)}
        source = "the expected values"
    else:
        assert p.expected_file is not None
        literal = False
        expected = _expected_from_file(p.expected_file, resources)
        width = max(len(row) for row in expected)
        source = f"expected_file {p.expected_file!r}"
    target = resolve_range(doc, p.range)
    candidates = [s for s in sheets_of(doc) if cells_by_position(doc, s)] or [
        n for n in doc.root.descendants("table")
    ]
    container = range_container(doc, target, candidates)
    block = _block(target, len(expected), width, p.range)
    cells = cells_by_position(doc, container) if container.kind == "sheet" else _table_cells(container)
    quoted = quote_sheet(sheet_name(container)) or sheet_name(container)
    out = Comparison()
    unknown: list[str] = []
    for i, row in enumerate(expected):
        for j, want in enumerate(row):
            pos = (block.r0 + i, block.c0 + j)
            if want.kind == "blank" and p.skip_blank_expected:
                continue
            got = cell_value(cells.get(pos))
            where = f"{quoted}!{a1(pos)}"
            if got.kind == "unknown" or want.kind == "unknown":
                unknown.append(where)
                continue
            wants = alternatives.get((i, j), [want])
            same, note = _agrees(wants, got, p, literal=literal)
            shown_want = [w.describe() for w in wants] if len(wants) > 1 else want.describe()
            out.check("values", where, shown_want, got.shown if got.kind == "text" else got.describe(),
                      equal=same, note=note)
    label = f"{source} at {quoted}!{block.a1().split('!')[-1]}"
    result = comparison_result("range_equals", out, p, mechanism="exact", reference_label=label,
                               evidence={"range": f"{quoted}!{block.a1().split('!')[-1]}", "how": block.how})
    if unknown:
        result.evidence["unknown_values"] = list[Any](unknown[:20])
        if result.status == "pass":
            result = result.model_copy(update={
                "status": "error", "score": None,
                "explanation": f"cannot judge: {len(unknown)} cell(s) hold formulas whose value could not be "
                f"computed (e.g. {unknown[0]}); every other cell matches",
            })
    return result


def _agrees(wants: list[CellValue], got: CellValue, p: RangeEqualsParams, *, literal: bool) -> tuple[bool, str]:
    """Whether ``got`` agrees with any expected alternative; the first one's note if none."""
    notes: list[str] = []
    for want in wants:
        same, note = values_agree(want, got, p, literal=literal)
        if not same and p.text_match == "contains" and want.kind == "text" and got.kind != "blank":
            needle = normalize_cell_text(want.typed, p)
            same = needle in normalize_cell_text(got.shown, p) or needle in normalize_cell_text(got.typed, p)
        if same:
            return True, ""
        notes.append(note)
    if len(wants) > 1:
        return False, "none of the alternatives"
    return False, notes[0]


def _table_cells(table: Node) -> dict[tuple[int, int], Node]:
    """A document or slide table's cells by 1-based (row, col), column A = its first."""
    out: dict[tuple[int, int], Node] = {}
    rows = [r for r in table.children if r.kind == "row"]
    for i, row in enumerate(rows):
        for j, cell in enumerate(c for c in row.children if c.kind == "cell"):
            out[(i + 1, j + 1)] = cell
    return out
