"""Sheet features a selector can reach: autofilter and sort state, sparklines, column
styles, pivot tables, threaded comments with their authors. Workbooks built the way
agents build them (openpyxl, xlsxwriter); pivots and threaded comments come from Excel
files in the corpus (no Python writer makes them)."""

from __future__ import annotations

from pathlib import Path

import pytest
import xlsxwriter
from openpyxl import Workbook
from openpyxl.styles import Font, PatternFill

from artifactcheck.extractors.xlsx.extract import extract_xlsx
from tests.conftest import corpus_file


def test_autofilter_sort_and_column_styles(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Score", "Team"])
    for name, score, team in sorted([("ann", 7, "x"), ("bob", 9, "y"), ("cy", 3, "x")], key=lambda t: -t[1]):
        ws.append([name, score, team])
    ws.auto_filter.ref = "A1:C4"
    ws.auto_filter.add_filter_column(2, ["x", "y"])
    ws.auto_filter.add_sort_condition("B2:B4", descending=True)
    ws.column_dimensions["D"].fill = PatternFill("solid", fgColor="FFFFFF00")
    ws.column_dimensions["D"].font = Font(bold=True)
    path = tmp_path / "sorted.xlsx"
    wb.save(path)
    doc = extract_xlsx(path)
    sheet = doc.get("Sheet")
    assert [n.id for n in doc.select("sheet[sorted_by='B'][sort_descending=true]")] == ["Sheet"]
    assert sheet.attrs["autofilter"] == "A1:C4"
    state = sheet.attrs["autofilter_state"]
    assert isinstance(state, dict) and state["columns"] == [{"column": "C", "values": ["x", "y"]}]
    assert sheet.attrs["sort_state"] == {"ref": "A1:C4", "conditions": [{"ref": "B2:B4", "column": "B", "descending": True}]}
    # Font(bold=True) has no name: LibreOffice draws it in Cambria (test_xlsx_nameless_font.py)
    assert sheet.attrs["column_styles"] == [{"min": 4, "max": 4, "style": {"font": "Cambria", "bold": True, "fill": "#ffff00"}}]


@pytest.mark.slow
def test_sparklines_are_cells_with_their_chart(tmp_path: Path) -> None:
    path = tmp_path / "spark.xlsx"
    book = xlsxwriter.Workbook(str(path))
    ws = book.add_worksheet("Trend")
    for r, row in enumerate(([3, 5, 2, 8, 6], [1, 1, 2, 3, 5])):
        ws.write_row(r, 0, row)
        ws.add_sparkline(f"F{r + 1}", {"range": f"Trend!A{r + 1}:E{r + 1}", "type": "line" if r else "column",
                                       "series_color": "#C00000"})
    ws.write("G1", "after")
    book.close()
    doc = extract_xlsx(path)
    f1, f2 = doc.get("Trend!F1"), doc.get("Trend!F2")
    assert f1.attrs["sparkline"] == {"source": "Trend!A1:E1", "type": "column", "color": "#c00000"}
    assert f2.attrs["sparkline"]["type"] == "line"  # type: ignore[index]
    assert len(doc.get("Trend").attrs["sparklines"]) == 2  # type: ignore[arg-type]
    assert f1.text == "" and f1.attrs["data_type"] == "number"  # an empty cell, emitted for its sparkline
    # LibreOffice draws it: dark red bars in the column left of "after" (G1), row 1.
    assert _reddish_pixels_left_of(path, "after", width_pt=f1.boxes[0].x1 - f1.boxes[0].x0) > 20


def _reddish_pixels_left_of(path: Path, word: str, *, width_pt: float) -> int:
    from tests.extractors.xlsx_look import DPI, _image, _render

    layout, pdf = _render(str(path))
    w = next(w for w in layout.words if w.text == word)
    img = _image(str(pdf), w.page)
    s = DPI / 72.0
    count = 0
    for y in range(int(w.top * s), int(w.bottom * s)):
        for x in range(int((w.x0 - width_pt) * s), int((w.x0 - 2) * s)):
            r, g, b = img.getpixel((x, y))  # type: ignore[misc]
            count += r > 120 and g < 90 and b < 90
    return count


def test_pivot_table_node() -> None:
    doc = extract_xlsx(corpus_file("xlsx", "poi_DataTableCities.xlsx"))
    pivots = doc.select("table[pivot=true]")
    assert [p.id for p in pivots] == ["PivotTable!pivot1"]
    p = pivots[0]
    assert p.attrs["location"] == "B5:E18" and p.attrs["source"] == "BigCity"
    assert p.attrs["source_range"] == "Table!C2:F15"  # the table named BigCity
    assert p.attrs["row_fields"] == ["City"] and p.attrs["column_fields"] == ["Values"]
    assert [d["field"] for d in p.attrs["data_fields"]] == ["Latitude", "Longitude", "Population"]  # type: ignore[index,union-attr]
    cells = [c for c in doc.get("PivotTable").descendants("cell") if p.boxes[0].x0 <= c.boxes[0].x0 < p.boxes[0].x1
             and p.boxes[0].top <= c.boxes[0].top < p.boxes[0].bottom]
    assert any(c.text.startswith("Shanghai") for c in cells)  # the pivot's saved cells lie inside its box


def test_threaded_comments_with_authors_and_replies() -> None:
    doc = extract_xlsx(corpus_file("xlsx", "docling_xlsx_comments.xlsx"))
    thread = doc.get("Sheet1!F7/comment")
    assert (thread.text, thread.attrs["author"], thread.attrs["threaded"]) == (
        "Minimum number of saltwater ducks", "Jane Smith (JS)", True)
    assert thread.attrs["replies"] == 1
    reply = doc.get("Sheet1!F7/comment/reply1")
    assert (reply.text, reply.attrs["author"]) == ("I never thought it would be so low", "Marcus Sterling (MS)")
    assert doc.get("Sheet1!F7").attrs["comment"] == "Minimum number of saltwater ducks"
    assert [c.attrs["author"] for c in doc.select("comment[threaded=true]")] == [
        "Jane Smith (JS)", "Marcus Sterling (MS)", "Jane Smith (JS)"]
    assert doc.get("Sheet1!A1/comment").attrs == {"author": "John Reviewer"}  # a plain note stays a note
