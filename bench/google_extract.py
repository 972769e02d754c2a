"""Google adapters vs Office extractors on the same content, side by side in one run.

    .venv/bin/python bench/google_extract.py [rows]

Builds a ``rows`` x 10 grid as an openpyxl workbook and as the spreadsheets.get response
Sheets would return for it, extracts both 3 times, and prints the median seconds and the
ratio (Google / Office). Also the deck pair of fixtures/google. Nothing is asserted.
"""

from __future__ import annotations

import io
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from artifactcheck import load
from artifactcheck.extractors.google.responses import extract_google_response

ROOT = Path(__file__).resolve().parents[1]


def grid(rows: int) -> tuple[Path, dict]:
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    ws.title = "Data"
    values = []
    for r in range(rows):
        row = []
        for c in range(10):
            v = r * 10 + c
            ws.cell(row=r + 1, column=c + 1, value=v)
            row.append({"userEnteredValue": {"numberValue": v}, "effectiveValue": {"numberValue": v}, "formattedValue": str(v),
                        "effectiveFormat": {"textFormat": {"fontFamily": "Calibri", "fontSize": 11}, "verticalAlignment": "BOTTOM"}})
        values.append({"values": row})
    path = Path(tempfile.mkdtemp()) / "grid.xlsx"
    buf = io.BytesIO()
    wb.save(buf)
    path.write_bytes(buf.getvalue())
    response = {"spreadsheetId": "bench", "sheets": [{"properties": {"title": "Data", "sheetId": 0, "gridProperties": {"rowCount": rows, "columnCount": 10}},
                                                       "data": [{"rowData": values}]}]}
    return path, response


def median_seconds(fn, repeat: int = 3) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    xlsx, response = grid(rows)
    office = median_seconds(lambda: load(xlsx))
    google = median_seconds(lambda: extract_google_response(response))
    print(f"sheets {rows}x10 cells: office {office:.3f}s  google {google:.3f}s  ratio {google / office:.2f}")
    deck = json.loads((ROOT / "fixtures/google/slides_parity.json").read_text())
    office = median_seconds(lambda: load(ROOT / "fixtures/google/slides_parity.pptx"), 5)
    google = median_seconds(lambda: extract_google_response(deck), 5)
    print(f"slides fixture: office {office:.4f}s  google {google:.4f}s  ratio {google / office:.2f}")


if __name__ == "__main__":
    main()
