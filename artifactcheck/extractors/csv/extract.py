"""A CSV/TSV file as a one-sheet workbook, read the way Excel opens it: the encoding
detected and the dialect sniffed (``read.py``), each field typed as Excel types it
(``values.py``), then written as an .xlsx (openpyxl, in a temporary directory) and read by
the .xlsx extractor — so the sheet has exactly the .xlsx conventions (``row``/``cell``
nodes with ``Sheet!A1`` ids, grid boxes at Excel's default column width and row height,
number formats, displayed text, clipped-text detection) and every grid check works.

``ArtifactInfo`` keeps the CSV's own format, digest and path, with
``extracted_as="xlsx"``; the sheet is named after the file (as Excel names it, 31
characters at most). ``Page.attrs["csv"]`` records the encoding, delimiter and quote
character that were used; a cell that shows other text than the field (a number,
a date, a boolean Excel re-spells) keeps the text as written in ``attrs["csv_text"]`` (``00501`` → 501).
Fields starting with ``=`` stay text: formulas are not evaluated here.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

from ...digest import file_digest
from ...errors import ArtifactTooLarge, CorruptArtifact
from ...input_files import read_input_bytes
from ...limits import current_limits
from ...model import ArtifactInfo, Document
from ..xlsx import extract_xlsx
from .read import decode_text, parse_rows, sniff_dialect
from .values import excel_value

__all__ = ["MAX_COLUMNS", "MAX_ROWS", "extract_csv", "sheet_name_for"]

MAX_ROWS = 1_048_576  # Excel's grid
MAX_COLUMNS = 16_384
_BAD_SHEET_CHARS = re.compile(r"[\[\]:*?/\\]")


def sheet_name_for(path: Path) -> str:
    """The sheet name Excel gives a CSV it opens: the file name without extension,
    characters a sheet name cannot hold replaced, 31 characters at most."""
    name = _BAD_SHEET_CHARS.sub("_", path.stem).strip("'")[:31]
    return name or "Sheet1"


def extract_csv(path: str | Path, *, day_first: bool = False, **options: Any) -> Document:
    """Read a CSV/TSV file into a one-sheet Document (see the module docstring).

    ``day_first=True`` reads ``d/m/yyyy`` dates (a European Excel) instead of ``m/d/yyyy``.
    Other options are accepted for API symmetry and ignored. Raises ``UnsupportedFormat``
    (binary data, undecodable text), ``CorruptArtifact`` (empty) or ``ArtifactTooLarge``
    (more cells than the ``tree_nodes`` budget, or beyond Excel's grid).
    """
    from openpyxl import Workbook
    from openpyxl.cell import WriteOnlyCell

    p = Path(path)
    data = read_input_bytes(p, what="CSV file", error=CorruptArtifact)
    decoded = decode_text(data, path=p)
    if not decoded.text.strip():
        raise CorruptArtifact("the CSV file has no data (empty or blank)", path=p)
    delimiter, quotechar = sniff_dialect(decoded.text)
    rows = parse_rows(decoded.text, delimiter, quotechar, path=p)
    _check_size(rows, p)
    sheet = sheet_name_for(p)
    wb = Workbook(write_only=True)
    ws = wb.create_sheet(sheet)
    raw_texts: dict[tuple[int, int], str] = {}
    for r, row in enumerate(rows, start=1):
        out: list[Any] = []
        for c, field in enumerate(row, start=1):
            typed = excel_value(field, day_first=day_first)
            if typed is None:
                out.append(None)
                continue
            value, number_format = typed
            cell = WriteOnlyCell(ws, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # "=SUM(...)" stays text: we do not evaluate formulas
            else:
                raw_texts[r, c] = field
            cell.number_format = number_format
            out.append(cell)
        ws.append(out)
    with tempfile.TemporaryDirectory(prefix="artifactcheck-csv-") as tmp:
        xlsx = Path(tmp) / "converted.xlsx"
        wb.save(xlsx)
        doc = extract_xlsx(xlsx)
    digest = file_digest(p)
    doc.artifact = ArtifactInfo(
        format="csv",
        platform="office",
        sha256=digest.sha256,
        size_bytes=digest.size_bytes,
        path=str(p),
        extracted_as="xlsx",
    )
    doc.pages[0].attrs["csv"] = {
        "encoding": decoded.encoding,
        "encoding_source": decoded.encoding_source,
        "delimiter": delimiter or None,
        "quotechar": quotechar,
        "rows": len(rows),
        "day_first": day_first,
    }
    _keep_raw_texts(doc, sheet, raw_texts)
    return doc


def _check_size(rows: list[list[str]], p: Path) -> None:
    if len(rows) > MAX_ROWS:
        raise ArtifactTooLarge(f"{len(rows)} rows: more than Excel's {MAX_ROWS}", path=p)
    widest = max((len(r) for r in rows), default=0)
    if widest > MAX_COLUMNS:
        raise ArtifactTooLarge(f"{widest} columns: more than Excel's {MAX_COLUMNS}", path=p)
    cells = sum(len(r) for r in rows)
    budget = current_limits().tree_nodes
    if cells > budget:
        raise ArtifactTooLarge(
            f"{cells} fields: more cells than the tree_nodes budget ({budget}; {current_limits().describe('tree_nodes')})",
            path=p,
        )


def _keep_raw_texts(doc: Document, sheet: str, raw_texts: dict[tuple[int, int], str]) -> None:
    from openpyxl.utils import get_column_letter

    if not raw_texts:
        return
    cells = {n.id: n for n in doc.iter("cell")}
    for (r, c), text in raw_texts.items():
        node = cells.get(f"{sheet}!{get_column_letter(c)}{r}")
        if node is not None and node.text != text:  # shown differently from how it was written
            node.attrs["csv_text"] = text
