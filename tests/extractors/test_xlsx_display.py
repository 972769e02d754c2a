"""What a reader sees in a cell (colour, fill) versus what LibreOffice draws: workbooks
built the way agents build them (openpyxl: number formats, conditional formatting of
every kind, tables), rendered by LibreOffice, every cell with a word of its own compared
with the tree's displayed style. The tree's claims are judged by the render, not by the
tree (tests/extractors/xlsx_look.py)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.formatting.rule import CellIsRule, ColorScaleRule, FormulaRule, Rule
from openpyxl.styles import Font, PatternFill
from openpyxl.styles.differential import DifferentialStyle
from openpyxl.worksheet.table import Table, TableStyleInfo

from artifactcheck import run_check
from artifactcheck.extractors.xlsx.extract import extract_xlsx
from artifactcheck.model import Document, Node
from tests.extractors.xlsx_look import look, same_colour

pytestmark = pytest.mark.slow

RED, GREEN, BLUE, YELLOW = "FFFF0000", "FF00B050", "FF0070C0", "FFFFFF00"


def _fill(rgb: str) -> PatternFill:
    return PatternFill(bgColor=rgb, fill_type="solid")


def _rule(kind: str, rgb: str, **kw: object) -> Rule:
    return Rule(type=kind, dxf=DifferentialStyle(fill=_fill(rgb)), **kw)  # type: ignore[arg-type]


def build_rules_book(path: Path, today: dt.date) -> None:
    """One column per rule kind; every cell's text is unique in the workbook so the
    render can be searched for it (numbers of column k are k*100 + i)."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Rules"
    cf = ws.conditional_formatting

    def column(col: str, values: list[object]) -> str:
        for i, v in enumerate(values, start=2):
            ws[f"{col}{i}"] = v
        return f"{col}2:{col}{len(values) + 1}"

    # cellIs between constants, and against an anchored cell reference.
    cf.add(column("A", [101 + i for i in range(10)]), CellIsRule(operator="between", formula=["103", "106"], fill=_fill(RED)))
    ws["Z1"] = 205
    cf.add(column("B", [201 + i for i in range(10)]), CellIsRule(operator="greaterThan", formula=["$Z$1"], fill=_fill(GREEN)))
    # Expressions: AND over the row, MOD(ROW()), ISBLANK of a neighbour, a $-anchored column.
    cf.add(column("C", [301 + i for i in range(10)]), FormulaRule(formula=["AND($C2>303,$C2<308)"], fill=_fill(BLUE)))
    cf.add(column("D", [401 + i for i in range(10)]), FormulaRule(formula=["MOD(ROW(),2)=0"], fill=_fill(YELLOW)))
    column("F", ["x", None, "y", None, None, "z", None, None, "w", None])
    cf.add(column("E", [501 + i for i in range(10)]), FormulaRule(formula=["ISBLANK($F2)"], fill=_fill(RED)))
    # top 3; bottom 20 %.
    cf.add(column("G", [601 + i for i in range(10)]), _rule("top10", GREEN, rank=3))
    cf.add(column("H", [701 + i for i in range(10)]), _rule("top10", BLUE, rank=20, percent=True, bottom=True))
    # Averages: above; below or equal; above by one standard deviation.
    cf.add(column("I", [801 + i for i in range(10)]), _rule("aboveAverage", YELLOW))
    cf.add(column("J", [901 + i for i in range(9)]), _rule("aboveAverage", RED, aboveAverage=False, equalAverage=True))
    cf.add(column("K", [1001, 1002, 1003, 1004, 1005, 1006, 1007, 1090]), _rule("aboveAverage", GREEN, stdDev=1))
    # Duplicates and uniques.
    cf.add(column("L", ["dupA", "soloB", "dupA", "soloC"]), _rule("duplicateValues", BLUE))
    cf.add(column("M", ["twinD", "loneE", "twinD", "loneF"]), _rule("uniqueValues", YELLOW))
    # Text rules.
    cf.add(column("N", ["Shipped1", "Pending1", "reship1"]),
           _rule("containsText", RED, operator="containsText", text="ship", formula=['NOT(ISERROR(SEARCH("ship",N2)))']))
    cf.add(column("O", ["Shipped2", "Pending2"]),
           _rule("notContainsText", GREEN, operator="notContains", text="ship", formula=['ISERROR(SEARCH("ship",O2))']))
    cf.add(column("P", ["prefix3", "suffix3"]),
           _rule("beginsWith", BLUE, operator="beginsWith", text="pre", formula=['LEFT(P2,3)="pre"']))
    cf.add(column("Q", ["walking4", "walked4"]),
           _rule("endsWith", YELLOW, operator="endsWith", text="ing", formula=['RIGHT(Q2,3)="ing"']))
    cf.add(column("R", ["filled5", None, "also5"]), _rule("notContainsBlanks", RED, formula=["LEN(TRIM(R2))>0"]))
    cf.add(column("S", ["#N/A", "fine6"]), _rule("containsErrors", GREEN, formula=["ISERROR(S2)"]))
    # Dates: today, yesterday, last week, this month, a year ago.
    for i, (rule_period, rgb) in enumerate((("today", RED), ("yesterday", GREEN), ("lastWeek", BLUE),
                                            ("thisMonth", YELLOW))):
        col = "TUVW"[i]
        days = [today, today - dt.timedelta(days=1), today - dt.timedelta(days=7), today - dt.timedelta(days=400)]
        rng = column(col, days)
        for r in range(2, 6):
            ws[f"{col}{r}"].number_format = f'yyyy-mm-dd"{col}"'
        ws.column_dimensions[col].width = 16
        cf.add(rng, _rule("timePeriod", rgb, timePeriod=rule_period))
    # A colour scale (three stops).
    cf.add(column("X", [1101 + 10 * i for i in range(11)]),
           ColorScaleRule(start_type="min", start_color="FFF8696B", mid_type="percentile", mid_value=50,
                          mid_color="FFFFEB84", end_type="max", end_color="FF63BE7B"))
    # Priority and stopIfTrue: > 1205 red and stop; > 1202 green + bold (not for those red).
    rng = column("Y", [1201 + i for i in range(8)])
    cf.add(rng, CellIsRule(operator="greaterThan", formula=["1205"], fill=_fill(RED), stopIfTrue=True))
    cf.add(rng, CellIsRule(operator="greaterThan", formula=["1202"], fill=_fill(GREEN), font=Font(bold=True)))
    # A rule's font colour; a number format's colour over it.
    rng = column("AA", [1301, 1302, -1303])
    for r in range(2, 5):
        ws[f"AA{r}"].number_format = "0;[Red]-0"
    cf.add(rng, CellIsRule(operator="notEqual", formula=["0"], font=Font(color=BLUE)))
    # Number formats alone: the negative section, a condition, the text section.
    for r, (value, fmt) in enumerate(((1401, "[Blue]0"), (-1402, "0;[Red]-0"), (1403, "0;[Red]-0"),
                                      (-1404, "[Red][<0]0;[Blue][>1000]0;0"), (1405, "[Red][<0]0;[Blue][>1000]0;0"),
                                      ("text7", "0;0;0;[Green]@"), ("text8", "[Red]0")), start=2):
        ws[f"AB{r}"] = value
        ws[f"AB{r}"].number_format = fmt
    wb.save(path)


@pytest.fixture(scope="module")
def rules_book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    today = dt.date.today()
    path = tmp_path_factory.mktemp("display") / "rules.xlsx"
    build_rules_book(path, today)
    return path, extract_xlsx(path, today=today)


def _shown(doc: Document) -> dict[str, Node]:
    """Cells whose text is one word found once in the workbook."""
    counts: dict[str, int] = {}
    for c in doc.iter("cell"):
        counts[c.text] = counts.get(c.text, 0) + 1
    return {c.text: c for c in doc.iter("cell") if c.text and " " not in c.text and counts[c.text] == 1}


def test_every_cell_shows_the_rendered_fill_and_colour(rules_book: tuple[Path, Document]) -> None:
    path, doc = rules_book
    mismatches = []
    checked = 0
    for text, cell in _shown(doc).items():
        if cell.attrs["col"] == 26:  # Z1: the threshold cell
            continue
        drawn = look(path, text)
        assert cell.style is not None
        fill = cell.style.fill or "#ffffff"
        if not same_colour(fill, drawn.background, 6) or not same_colour(cell.style.color or "#000000", drawn.color, 60):
            mismatches.append((cell.id, text, fill, drawn.background, cell.style.color, drawn.color,
                               cell.attrs.get("style_sources")))
        checked += 1
    assert checked > 80
    for text in ("dupA", "twinD"):  # repeated texts: every occurrence looks the same
        cell = next(c for c in doc.iter("cell") if c.text == text)
        assert cell.style is not None and same_colour(cell.style.fill or "#ffffff", look(path, text).background, 6)
    assert mismatches == [], "\n".join(map(str, mismatches))


def test_rules_report_what_they_matched(rules_book: tuple[Path, Document]) -> None:
    _path, doc = rules_book
    rules = doc.get("Rules").attrs["conditional_formats"]
    assert isinstance(rules, list)
    assert all(r["evaluated"] for r in rules), [r for r in rules if not r["evaluated"]]
    by_range = {r["ranges"]: r for r in rules}
    assert by_range["A2:A11"]["matched_cells"] == 4  # 103..106
    assert by_range["G2:G11"]["matched_cells"] == 3
    assert by_range["H2:H11"]["matched_cells"] == 2
    assert by_range["T2:T5"]["evaluated_on"] == dt.date.today().isoformat()
    y6, y7 = doc.get("Rules!Y6"), doc.get("Rules!Y7")
    assert y6.style is not None and y6.style.bold and y6.style.fill == "#00b050"
    assert y7.style is not None and not y7.style.bold and y7.style.fill == "#ff0000"  # stopped
    # The number format's red beats the rule's blue font colour; the layer says so.
    aa4 = doc.get("Rules!AA4")
    assert aa4.style is not None and aa4.style.color == "#ff0000"
    assert aa4.attrs["style_sources"] == {"color": "number_format"}
    assert doc.get("Rules!AA2").attrs["style_sources"] == {"color": "conditional_format"}


def test_color_checks_read_the_displayed_style_or_the_direct_one(rules_book: tuple[Path, Document]) -> None:
    _path, doc = rules_book
    displayed = run_check("color_is", doc, {"target": "#Rules\\!A4", "property": "fill", "expected": "#ff0000"})
    assert displayed.status == "pass"
    assert displayed.evidence["nodes"][0]["style_source"] == "conditional_format"
    direct = run_check("color_is", doc, {"target": "#Rules\\!A4", "property": "fill", "expected": "#ff0000",
                                         "layer": "direct"})
    assert direct.status == "fail"
    fmt = run_check("format_is", doc, {"target": "#Rules\\!AB3", "color": "red"})
    assert fmt.status == "pass"
    assert run_check("format_is", doc, {"target": "#Rules\\!AB3", "color": "red", "layer": "direct"}).status == "fail"


def test_color_n_follows_excels_palette_not_libreoffices(tmp_path: Path) -> None:
    """``[Color10]`` is palette entry 17 (#008000) in Excel. LibreOffice 7.4 maps the
    index differently (it draws [Color10] almost white and [Color3] black): the tree
    follows Excel, and this test records the disagreement so a LibreOffice change shows."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for r, (v, fmt) in enumerate(((15, "[Color10]0"), (16, "[Color3]0")), start=1):
        ws.cell(r, 1, v).number_format = fmt
    path = tmp_path / "colorn.xlsx"
    wb.save(path)
    doc = extract_xlsx(path)
    assert [c.style.color for c in doc.iter("cell") if c.style] == ["#008000", "#ff0000"]
    assert not same_colour(look(path, "16").color, "#ff0000", 60)  # LibreOffice: black


def test_duplicates_ignore_case_as_excel_does(tmp_path: Path) -> None:
    """Excel's duplicate-values rule ignores case ("dupA" duplicates "DUPA"); LibreOffice
    7.4 compares case-sensitively. The tree follows Excel; the render's disagreement is
    recorded so a LibreOffice change shows."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    for r, v in enumerate(("dupA", "DUPA", "solo"), start=1):
        ws.cell(r, 1, v)
    ws.conditional_formatting.add("A1:A3", _rule("duplicateValues", BLUE))
    path = tmp_path / "dups.xlsx"
    wb.save(path)
    doc = extract_xlsx(path)
    assert [c.style.fill for c in doc.iter("cell") if c.style] == ["#0070c0", "#0070c0", None]
    assert look(path, "dupA").background == "#ffffff"  # LibreOffice: not a duplicate


def test_table_style_header_and_bands(tmp_path: Path) -> None:
    """Excel's table styles (LibreOffice 7.4 does not draw them: values from ECMA-376's
    preset definitions under the file's theme)."""
    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Score"])
    for i in range(4):
        ws.append([f"n{i}", i])
    ws["A3"].fill = PatternFill("solid", fgColor="FFFFFF00")  # a direct fill beats the band
    ws["B4"].font = Font(color="FFFF0000")  # a direct colour beats the table's
    table = Table(displayName="Scores", ref="A1:B5")
    table.tableStyleInfo = TableStyleInfo(name="TableStyleMedium2", showRowStripes=True)
    ws.add_table(table)
    path = tmp_path / "table.xlsx"
    wb.save(path)
    doc = extract_xlsx(path)
    styles = {c.attrs["ref"]: c.style for c in doc.iter("cell")}
    # openpyxl writes the Office 2007 theme: accent1 #4f81bd; the band is its 80 % tint.
    assert (styles["A1"].fill, styles["A1"].color, styles["A1"].bold) == ("#4f81bd", "#ffffff", True)  # type: ignore[union-attr]
    assert styles["A2"].fill == "#dce6f1" and styles["A4"].fill == "#dce6f1"  # type: ignore[union-attr]
    assert styles["A5"].fill is None  # second band: no fill in Medium 2
    assert styles["A3"].fill == "#ffff00"  # type: ignore[union-attr]
    assert styles["B4"].color == "#ff0000"  # type: ignore[union-attr]
    assert doc.get("Sheet!A1").attrs["style_sources"] == {"fill": "table_style", "color": "table_style",
                                                          "bold": "table_style"}
