"""Google Sheets follow the .xlsx conventions for what a reader sees: the style is the
API's ``effectiveFormat`` (conditional formatting applied) with the number format's
colour over it, ``style_sources``/``direct_style`` say which layer changed what, and
formula cells say where their value came from."""

from __future__ import annotations

from typing import Any

from artifactcheck import load, run_check
from artifactcheck.extractors.google.sheets import extract_gsheet
from tests.conftest import FIXTURES

WHITE = {"red": 1, "green": 1, "blue": 1}
RED_FILL = {"red": 0.95686275, "green": 0.78039217, "blue": 0.7647059}


def _cell(value: float, *, pattern: str | None = None, cf_fill: dict[str, float] | None = None,
          formula: str | None = None) -> dict[str, Any]:
    """A cell as ``spreadsheets.get(includeGridData=true)`` returns it."""
    user: dict[str, Any] = {}
    eff: dict[str, Any] = {"backgroundColor": cf_fill or WHITE,
                           "backgroundColorStyle": {"rgbColor": cf_fill or WHITE},
                           "textFormat": {"fontFamily": "Arial", "fontSize": 10, "bold": False,
                                          "foregroundColor": {}, "foregroundColorStyle": {"rgbColor": {}}},
                           "verticalAlignment": "BOTTOM", "wrapStrategy": "OVERFLOW_CELL"}
    if pattern:
        user["numberFormat"] = eff["numberFormat"] = {"type": "NUMBER", "pattern": pattern}
    out: dict[str, Any] = {"effectiveValue": {"numberValue": value}, "effectiveFormat": eff,
                           "formattedValue": f"{value:g}" if value >= 0 else f"-{-value:g}",
                           "userEnteredValue": {"formulaValue": formula} if formula else {"numberValue": value}}
    if user:
        out["userEnteredFormat"] = user
    return out


def _response() -> dict[str, Any]:
    rows = [
        {"values": [_cell(500, cf_fill=RED_FILL)]},  # a rule "greater than 300" painted it
        {"values": [_cell(-12, pattern="0;[Red]-0")]},
        {"values": [_cell(7, pattern="0;[Red]-0", formula="=3+4")]},
    ]
    return {
        "spreadsheetId": "sheet-display",
        "properties": {"title": "Display", "locale": "en_US",
                       "defaultFormat": {"backgroundColor": WHITE, "backgroundColorStyle": {"rgbColor": WHITE},
                                         "textFormat": {"fontFamily": "Arial", "fontSize": 10}}},
        "sheets": [{
            "properties": {"sheetId": 0, "title": "Data", "gridProperties": {"rowCount": 3, "columnCount": 1}},
            "conditionalFormats": [{"ranges": [{"sheetId": 0, "startRowIndex": 0, "endRowIndex": 3,
                                                "startColumnIndex": 0, "endColumnIndex": 1}],
                                    "booleanRule": {"condition": {"type": "NUMBER_GREATER",
                                                                  "values": [{"userEnteredValue": "300"}]},
                                                    "format": {"backgroundColor": RED_FILL}}}],
            "data": [{"startRow": 0, "startColumn": 0, "rowData": rows}],
        }],
    }


def test_effective_format_and_number_format_colour_are_layers() -> None:
    doc = extract_gsheet(_response())
    a1, a2, a3 = doc.get("Data!A1"), doc.get("Data!A2"), doc.get("Data!A3")
    assert a1.style is not None and a1.style.fill == "#f4c7c3"
    assert a1.attrs["style_sources"] == {"fill": "conditional_format"} and a1.attrs["direct_style"] == {"fill": None}
    assert a2.style is not None and a2.style.color == "#ff0000"
    assert a2.attrs["style_sources"] == {"color": "number_format"}
    assert a3.style is not None and a3.style.color == "#000000" and "style_sources" not in a3.attrs
    assert a3.attrs["value_source"] == "cached" and "value_source" not in a1.attrs
    assert run_check("color_is", doc, {"target": "#Data\\!A1", "property": "fill", "expected": "#f4c7c3"}).status == "pass"
    assert run_check("color_is", doc, {"target": "#Data\\!A1", "property": "fill", "expected": "#f4c7c3",
                                       "layer": "direct"}).status == "fail"


def test_parity_fixture_agrees_with_its_xlsx_twin() -> None:
    g = load(FIXTURES / "google" / "sheets_parity.json")
    x = load(FIXTURES / "google" / "sheets_parity.xlsx")
    xcells = {c.id: c for c in x.iter("cell")}
    compared = 0
    for cell in g.iter("cell"):
        twin = xcells.get(cell.id)
        if twin is None or cell.style is None or twin.style is None:
            continue
        assert (cell.style.fill, cell.style.color, cell.attrs.get("style_sources")) == (
            twin.style.fill, twin.style.color, twin.attrs.get("style_sources")), cell.id
        compared += 1
    assert compared >= 12
