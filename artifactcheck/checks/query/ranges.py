"""Cell ranges as an author names them: ``A1:G9``, ``Sheet1!A1:G9``, ``'My sheet'!B:D``,
a defined name (``Papers``, ``Sheet1!Papers``) or an Excel table name (``SalesTable``).

Resolution order: an Excel table of that name (``sheet.attrs["tables"]``), a defined /
named range (``document.attrs["named_ranges"]``, recorded by the .xlsx and Google Sheets
extractors), then A1 text. Names compare case-insensitively, as Excel does. Row and column
numbers are 1-based; whole columns (``B:D``) and whole rows (``2:9``) are open-ended.
A docx/pptx table is addressed with the same A1 text (column A = its first column).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from ...model import Document, Node
from ..result import ArtifactLacks

OPEN = 10**9
"""The end of a whole row or column."""

def column_letter(col: int) -> str:
    """1 -> A, 27 -> AA."""
    out = ""
    while col > 0:
        col, rem = divmod(col - 1, 26)
        out = chr(65 + rem) + out
    return out


_CELL = re.compile(r"^\$?([A-Za-z]{1,3})?\$?(\d+)?$")


@dataclass(frozen=True)
class CellRange:
    """A rectangle of cells, inclusive and 1-based, on ``sheet`` (None: the sheet or
    table in scope). ``how`` says how the author's text was read."""

    sheet: str | None
    r0: int
    c0: int
    r1: int
    c1: int
    how: str

    def contains(self, row: int, col: int) -> bool:
        return self.r0 <= row <= self.r1 and self.c0 <= col <= self.c1

    def a1(self) -> str:
        if self.c0 == 1 and self.c1 >= OPEN:  # whole rows: 2:9
            text = f"{self.r0}:{self.r1 if self.r1 < OPEN else ''}"
        elif self.r0 == 1 and self.r1 >= OPEN:  # whole columns: B:D, C:C
            text = f"{column_letter(self.c0)}:{column_letter(self.c1) if self.c1 < OPEN else ''}"
        else:
            start = f"{column_letter(self.c0)}{self.r0}"
            end = f"{column_letter(self.c1) if self.c1 < OPEN else ''}{self.r1 if self.r1 < OPEN else ''}"
            text = f"{start}:{end}" if start != end else start
        return f"{quote_sheet(self.sheet)}!{text}" if self.sheet else text


def quote_sheet(name: str | None) -> str:
    if not name:
        return ""
    return name if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.]*", name) else "'" + name.replace("'", "''") + "'"


def _column_number(letters: str) -> int:
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n


def parse_a1_range(text: str) -> tuple[str | None, tuple[int, int, int, int]] | None:
    """``"Sheet1!A1:G9"`` -> ("Sheet1", (1, 1, 9, 7)); None when it is not A1 text.

    >>> parse_a1_range("'My sheet'!B:D")
    ('My sheet', (1, 2, 1000000000, 4))
    >>> parse_a1_range("2:9"), parse_a1_range("Papers")
    ((None, (2, 1, 9, 1000000000)), None)
    """
    sheet: str | None = None
    ref = text.strip()
    if "!" in ref:
        sheet_part, ref = ref.rsplit("!", 1)
        sheet_part = sheet_part.strip()
        if sheet_part.startswith("'") and sheet_part.endswith("'") and len(sheet_part) >= 2:
            sheet_part = sheet_part[1:-1].replace("''", "'")
        sheet = sheet_part or None
    ends = ref.split(":")
    if len(ends) > 2 or not all(ends):
        return None
    parsed = []
    for end in ends:
        m = _CELL.match(end.strip())
        if m is None or (m.group(1) is None and m.group(2) is None):
            return None
        parsed.append((m.group(1), m.group(2)))
    (ca, ra), (cb, rb) = parsed[0], parsed[-1]
    if (ca is None) != (cb is None) or (ra is None) != (rb is None):
        return None  # "A1:C" mixes a cell and a column
    if len(ends) == 1 and (ca is None or ra is None):
        return None  # a bare "A" or "7" is not a range
    c0 = _column_number(ca) if ca else 1
    c1 = _column_number(cb) if cb else OPEN
    r0 = int(ra) if ra else 1
    r1 = int(rb) if rb else OPEN
    if r0 < 1 or c0 < 1:
        return None
    return sheet, (min(r0, r1), min(c0, c1), max(r0, r1), max(c0, c1))


def _tables(doc: Document) -> dict[str, tuple[str, str]]:
    """Excel table name (lower case) -> (sheet name, ref)."""
    out: dict[str, tuple[str, str]] = {}
    for sheet in doc.root.children:
        tables = sheet.attrs.get("tables")
        if sheet.kind != "sheet" or not isinstance(tables, list):
            continue
        sheet_name = str(sheet.attrs.get("name") or sheet.id)
        for t in tables:
            if not isinstance(t, dict) or not isinstance(ref := t.get("ref"), str):
                continue
            for key in ("name", "display_name"):
                name = t.get(key)
                if isinstance(name, str):
                    out.setdefault(name.lower(), (sheet_name, ref))
    return out


def resolve_range(doc: Document, text: str) -> CellRange:
    """Read a range as the author wrote it (see the module docstring). Raises ValueError
    naming the text, with the close names the workbook does have."""
    key = text.strip()
    tables = _tables(doc)
    if key.lower() in tables:
        sheet, ref = tables[key.lower()]
        in_table = parse_a1_range(ref)
        if in_table is not None:
            r0, c0, r1, c1 = in_table[1]
            return CellRange(sheet, r0, c0, r1, c1, f"Excel table {key!r} = {quote_sheet(sheet)}!{ref}")
    names_raw = doc.root.attrs.get("named_ranges")
    names = {str(k).lower(): str(v) for k, v in names_raw.items()} if isinstance(names_raw, dict) else {}
    if key.lower() in names:
        named = parse_a1_range(names[key.lower()])
        if named is not None:
            on, (r0, c0, r1, c1) = named
            return CellRange(on, r0, c0, r1, c1, f"defined name {key!r} = {names[key.lower()]}")
    parsed = parse_a1_range(key)
    if parsed is not None:
        on, (r0, c0, r1, c1) = parsed
        return CellRange(on, r0, c0, r1, c1, f"range {key}")
    known = sorted({*tables, *names})
    close = difflib.get_close_matches(key.lower(), known, n=3)
    hint = f"; did you mean {', '.join(repr(c) for c in close)}?" if close else (
        f"; the workbook names {', '.join(repr(k) for k in known[:10])}" if known else ""
    )
    raise ValueError(f"cannot read range {text!r}: not A1 text (A1:G9, Sheet1!A1:G9), a defined name or an Excel table{hint}")


def range_container(doc: Document, cell_range: CellRange, candidates: list[Node]) -> Node:
    """The sheet (or table) a range lies on: the sheet it names, else the first candidate
    (the scope's sheets and tables, or every non-empty one). Raises ArtifactLacks (a
    ``fail``) when the named sheet does not exist, ValueError when there is no sheet."""
    if cell_range.sheet is not None:
        for sheet in doc.root.children:
            if sheet.kind == "sheet" and str(sheet.attrs.get("name") or sheet.id).lower() == cell_range.sheet.lower():
                return sheet
        sheets = [str(s.attrs.get("name") or s.id) for s in doc.root.children if s.kind == "sheet"]
        # The workbook has sheets but not this one (renamed, deleted): the agent's fault.
        raise ArtifactLacks(f"range {cell_range.a1()!r} names sheet {cell_range.sheet!r}; the sheets are {sheets}")
    if not candidates:
        raise ValueError(f"range {cell_range.a1()!r}: no sheet or table to apply it to")
    return candidates[0]
