"""compare_workbook: an agent's workbook against the author's gold workbook, both written
with openpyxl the way agents write them (formulas without cached values, so LibreOffice
recalculates both sides), one variant per thing an agent gets wrong."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook, load_workbook
from openpyxl.chart import BarChart, LineChart, Reference
from openpyxl.styles import Border, Font, PatternFill, Side
from openpyxl.worksheet.datavalidation import DataValidation

from artifactcheck import load, run_check
from artifactcheck.checks.compare.cell_values import ValueOptions, numbers_agree
from artifactcheck.checks.registry import Resources, get_check
from artifactcheck.checks.result import CheckResult
from tests.conftest import corpus_file

ROWS = [("Rent", 1200), ("Food", 350.5), ("Travel", 99.999), ("Books", 42)]
YELLOW = PatternFill("solid", start_color="FFFF00", end_color="FFFF00")


def budget(path: Path, edit: Callable[[Workbook], None] | None = None) -> Path:
    """The gold budget: a header (bold, yellow), four items, a SUM total, frozen header,
    a merged title, a list validation, widths, a column chart, a second sheet."""
    wb = Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws.append(["Item", "Amount", "Kind"])
    for cell in ws[1]:
        cell.font = Font(bold=True)
        cell.fill = YELLOW
    for name, amount in ROWS:
        ws.append([name, amount, "fixed" if amount > 100 else "variable"])
    ws["A6"] = "Total"
    ws["B6"] = "=SUM(B2:B5)"
    ws["B6"].border = Border(top=Side(style="thin"))
    ws.freeze_panes = "A2"
    ws.merge_cells("E1:F1")
    ws["E1"] = "Q1 budget"
    ws.column_dimensions["A"].width = 18
    dv = DataValidation(type="list", formula1='"fixed,variable"')
    ws.add_data_validation(dv)
    dv.add("C2:C5")
    chart = BarChart()
    chart.title = "Spending"
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=5), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=5))
    ws.add_chart(chart, "H2")
    notes = wb.create_sheet("Notes")
    notes["A1"] = "Prices include VAT"
    if edit is not None:
        edit(wb)
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("compare_workbook")
    (base / "assets").mkdir()
    budget(base / "assets" / "gold.xlsx")
    return base


SHARED_EDITS: dict[str, Callable[[Workbook], None]] = {
    "changed": lambda wb: wb["Budget"].__setitem__("B3", 305.5),
    "inserted": lambda wb: wb["Budget"].insert_rows(3),
}
"""Variants several tests use, whichever test builds them first (tests may run in any order)."""


def variant(folder: Path, name: str, edit: Callable[[Workbook], None] | None = None) -> Path:
    path = folder / f"{name}.xlsx"
    if not path.exists():
        budget(path, edit if edit is not None else SHARED_EDITS.get(name))
    return path


def compare(artifact: Path, folder: Path, **params: Any) -> CheckResult:
    res = Resources(assets_dir=str(folder / "assets"), rubric_root=str(folder))
    return run_check("compare_workbook", load(artifact), {"reference": "gold.xlsx", **params}, res)


def locations(result: CheckResult, aspect: str | None = None) -> list[str]:
    return [d["location"] for d in result.evidence["differences"] if aspect is None or d["aspect"] == aspect]


EVERY_ASPECT: dict[str, Any] = {
    "formulas": {"match": "text"}, "number_formats": True, "styles": True, "merges": True, "freeze": True,
    "zoom": True, "filters": True, "data_validations": True, "conditional_formats": True, "charts": True,
    "pivot_tables": True, "sparklines": True, "dimensions": True, "hidden": True,
}


def test_the_gold_file_matches_itself_in_every_aspect(folder: Path) -> None:
    copy = folder / "copy.xlsx"
    shutil.copy(folder / "assets" / "gold.xlsx", copy)
    r = compare(copy, folder, **EVERY_ASPECT)
    assert r.status == "pass" and r.score == 1.0, r.explanation
    aspects = r.evidence["aspects"]
    for name in ("values", "sheet_names", "formulas", "style.fill", "merges", "freeze", "data_validations",
                 "charts", "dimensions", "hidden"):
        assert aspects[name]["compared"] > 0, name
    assert r.mechanism == "tolerance"  # dimensions are compared within tolerance_pt


def test_a_rebuilt_identical_workbook_passes_with_the_defaults(folder: Path) -> None:
    r = compare(variant(folder, "same", None), folder)
    assert r.status == "pass" and r.mechanism == "exact", r.explanation
    assert set(r.evidence["aspects"]) == {"sheet_names", "values"}
    # 6 rows x 3 columns (C6 is empty on both sides: not compared) + the merged title + the note
    assert r.evidence["aspects"]["values"]["compared"] == 19


def test_one_changed_value_is_located_with_both_values(folder: Path) -> None:
    r = compare(variant(folder, "changed"), folder)
    assert r.status == "fail" and r.score == 0.0
    diffs = {d["location"]: d for d in r.evidence["differences"]}
    assert set(diffs) == {"Budget!B3", "Budget!B6"}  # the total follows the changed amount
    assert (diffs["Budget!B3"]["expected"], diffs["Budget!B3"]["actual"]) == (350.5, 305.5)
    assert diffs["Budget!B6"]["expected"] == pytest.approx(1692.499) and "Budget!B3" in r.explanation


def test_partial_credit_is_the_share_of_agreeing_items(folder: Path) -> None:
    r = compare(variant(folder, "changed"), folder, partial_credit=True)
    assert r.status == "fail" and r.score == pytest.approx(1 - 2 / r.evidence["compared"])


def test_precision_and_tolerances_have_inclusive_boundaries(folder: Path) -> None:
    art = variant(folder, "rounded", lambda wb: wb["Budget"].__setitem__("B4", 100))
    assert compare(art, folder).status == "fail"  # 99.999 vs 100, exactly
    at_2 = compare(art, folder, values={"precision": 2})  # 99.999 rounds to 100.00
    assert at_2.status == "pass" and at_2.mechanism == "tolerance", at_2.explanation
    assert compare(art, folder, values={"precision": 3}).status == "fail"
    assert compare(art, folder, values={"abs_tol": 0.001}).status == "pass"  # |100 - 99.999| = 0.001
    assert compare(art, folder, values={"abs_tol": 0.0009}).status == "fail"
    assert compare(art, folder, values={"rel_tol": 1.001e-5}).status == "pass"  # 0.001 <= 1.001e-5 * 99.999
    assert compare(art, folder, values={"rel_tol": 1e-5}).status == "fail"  # relative to the reference's 99.999
    options = ValueOptions(precision=2)
    assert numbers_agree(3.145, 3.15, options) and numbers_agree(2.675, 2.68, options)  # half away from zero
    assert numbers_agree(0.1 + 0.2, 0.3, ValueOptions())


def test_a_formula_replaced_by_its_value_fails_only_when_formulas_are_compared(folder: Path) -> None:
    art = variant(folder, "typed_total", lambda wb: wb["Budget"].__setitem__("B6", 1692.499))
    assert compare(art, folder).status == "pass"  # the same values
    r = compare(art, folder, formulas=True)
    assert r.status == "fail" and locations(r) == ["Budget!B6"]
    d = r.evidence["differences"][0]
    assert d["expected"] == "=SUM(B2:B5)" and d["actual"] == pytest.approx(1692.499)
    assert "a value where the reference has a formula" in d["note"]


def test_formula_text_ignores_case_spaces_and_dollars_unless_asked(folder: Path) -> None:
    art = variant(folder, "other_formula", lambda wb: wb["Budget"].__setitem__("B6", "=sum( $B$2:$B$5 )"))
    assert compare(art, folder, formulas={"match": "text"}).status == "pass"
    assert compare(art, folder, formulas={"match": "text", "absolute_refs": True}).status == "fail"
    other = variant(folder, "added_formula", lambda wb: wb["Budget"].__setitem__("B6", "=B2+B3+B4+B5"))
    assert compare(other, folder, formulas=True).status == "pass"  # present: any formula giving the value
    assert locations(compare(other, folder, formulas={"match": "text"})) == ["Budget!B6"]


def test_a_changed_fill_is_a_style_difference_at_its_cell(folder: Path) -> None:
    def green(wb: Workbook) -> None:
        wb["Budget"]["B1"].fill = PatternFill("solid", start_color="00FF00", end_color="00FF00")

    art = variant(folder, "green", green)
    assert compare(art, folder).status == "pass"  # styles are opt-in
    r = compare(art, folder, styles={"properties": ["fill"]})
    assert r.status == "fail" and locations(r) == ["Budget!B1"]
    assert (r.evidence["differences"][0]["expected"], r.evidence["differences"][0]["actual"]) == ("#ffff00", "#00ff00")
    r = compare(art, folder, styles=True)  # every default property: only the fill differs
    assert [d["aspect"] for d in r.evidence["differences"]] == ["style.fill"]


def test_bold_and_borders_are_compared(folder: Path) -> None:
    def plain(wb: Workbook) -> None:
        wb["Budget"]["A1"].font = Font(bold=False)
        wb["Budget"]["B6"].border = Border()

    r = compare(variant(folder, "plain", plain), folder, styles={"properties": ["bold", "borders"]})
    assert {(d["aspect"], d["location"]) for d in r.evidence["differences"]} == {
        ("style.bold", "Budget!A1"), ("style.borders", "Budget!B6")}


def test_a_renamed_sheet_is_one_difference_and_its_cells_are_still_compared(folder: Path) -> None:
    def rename(wb: Workbook) -> None:
        wb["Notes"].title = "Remarks"
        wb["Remarks"]["A1"] = "Prices exclude VAT"

    r = compare(variant(folder, "renamed", rename), folder)
    assert [(d["aspect"], d["location"], d["actual"]) for d in r.evidence["differences"]] == [
        ("sheet_names", "sheet 2", "Remarks"), ("values", "Remarks!A1", "Prices exclude VAT")]
    assert r.evidence["sheets"][1] == {"reference": "Notes", "artifact": "Remarks", "paired": "by position "
                                       "(reference sheet 2, artifact sheet 2)"}


def test_an_extra_sheet_and_a_swapped_order(folder: Path) -> None:
    art = variant(folder, "extra_sheet", lambda wb: wb.create_sheet("Scratch"))
    r = compare(art, folder)
    assert r.status == "fail" and [(d["location"], d["actual"], d["note"]) for d in r.evidence["differences"]] == [
        ("sheet 3", "Scratch", "not in the reference")]
    assert compare(art, folder, sheet_names={"allow_extra": True}).status == "pass"
    assert r.evidence["extra_sheets"] == ["Scratch"]
    swapped = variant(folder, "swapped", lambda wb: wb.move_sheet("Notes", offset=-1))
    r = compare(swapped, folder)
    assert locations(r) == ["sheet order"] and compare(swapped, folder, sheet_names={"order": False}).status == "pass"


def test_an_inserted_row_shifts_the_values_below_it(folder: Path) -> None:
    r = compare(variant(folder, "inserted"), folder)
    assert r.status == "fail"
    assert "Budget!A3" in locations(r, "values") and "Budget!A7" in locations(r, "values")
    assert all(loc.startswith("Budget!") for loc in locations(r))
    # positional, but the evidence says why so many cells differ
    assert r.evidence["rows_shifted"] == [{"sheet": "Budget", "inserted": [3], "deleted": []}]
    assert "rows_shifted" not in compare(variant(folder, "changed"), folder).evidence  # a value, not a row


def test_merges_are_compared_as_ranges(folder: Path) -> None:
    def unmerge(wb: Workbook) -> None:
        wb["Budget"].unmerge_cells("E1:F1")
        wb["Budget"].merge_cells("A8:B8")

    art = variant(folder, "merges", unmerge)
    assert compare(art, folder).status == "pass"
    r = compare(art, folder, merges=True, values=False, sheet_names=False)
    assert {(d["location"], d["note"]) for d in r.evidence["differences"]} == {
        ("Budget!E1:F1", "missing in the artifact"), ("Budget!A8:B8", "not in the reference")}


def test_widths_within_tolerance_and_hidden_rows(folder: Path) -> None:
    def resize(wb: Workbook) -> None:
        wb["Budget"].column_dimensions["A"].width = 30
        wb["Budget"].row_dimensions[4].hidden = True

    art = variant(folder, "widths", resize)
    r = compare(art, folder, dimensions=True, hidden=True, values=False, sheet_names=False)
    diffs = {(d["aspect"], d["location"]) for d in r.evidence["differences"]}
    assert ("dimensions", "Budget!column A") in diffs and ("hidden", "Budget!row 4") in diffs
    width = next(d for d in r.evidence["differences"] if d["location"] == "Budget!column A")
    assert width["expected"] < width["actual"]
    slightly = variant(folder, "width_18_1", lambda wb: setattr(wb["Budget"].column_dimensions["A"], "width", 18.1))
    assert compare(slightly, folder, dimensions={"rows": False}, values=False).status == "pass"  # < 1 pt
    assert compare(slightly, folder, dimensions={"rows": False, "tolerance_pt": 0}, values=False).status == "fail"


def test_freeze_panes_and_validations(folder: Path) -> None:
    def loosen(wb: Workbook) -> None:
        wb["Budget"].freeze_panes = None
        wb["Budget"].data_validations.dataValidation = []

    r = compare(variant(folder, "loose", loosen), folder, freeze=True, data_validations=True)
    diffs = {d["aspect"]: d for d in r.evidence["differences"]}
    assert diffs["freeze"]["location"] == "Budget" and diffs["freeze"]["expected"] == "A2"
    assert diffs["freeze"]["actual"] is None
    assert diffs["data_validations"]["location"] == "Budget!C2:C5"
    assert diffs["data_validations"]["expected"]["values"] == ["fixed", "variable"]


def test_chart_type_title_and_series_ranges(folder: Path) -> None:
    def line_chart(wb: Workbook) -> None:
        ws = wb["Budget"]
        ws._charts = []
        chart = LineChart()
        chart.title = "Spending"
        chart.add_data(Reference(ws, min_col=2, min_row=1, max_row=4), titles_from_data=True)
        chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
        ws.add_chart(chart, "H2")

    r = compare(variant(folder, "line_chart", line_chart), folder, charts=True)
    diffs = {d["location"]: d for d in r.evidence["differences"]}
    assert set(diffs) == {"Budget chart 1 'Spending' type", "Budget chart 1 'Spending' series 1"}
    assert (diffs["Budget chart 1 'Spending' type"]["expected"], diffs["Budget chart 1 'Spending' type"]["actual"]) == (
        ["column"], ["line"])
    assert diffs["Budget chart 1 'Spending' series 1"]["expected"]["values"] == "Budget!B2:B5"
    assert diffs["Budget chart 1 'Spending' series 1"]["actual"]["values"] == "Budget!B2:B4"


def test_range_and_sheets_limit_the_cells_compared(folder: Path) -> None:
    art = variant(folder, "changed")
    assert compare(art, folder, range="Budget!A1:A6").status == "pass"  # the change is in column B
    r = compare(art, folder, range=["B2:B4"])
    assert locations(r) == ["Budget!B3"] and r.evidence["ranges"] == ["B2:B4"]
    assert compare(art, folder, sheets=["Notes"]).status == "pass"
    bad = compare(art, folder, sheets=["Nope"])
    assert bad.status == "error" and "Nope" in bad.explanation


def test_displayed_text_comparison_sees_number_formats(folder: Path) -> None:
    art = variant(folder, "formatted", lambda wb: setattr(wb["Budget"]["B2"], "number_format", "#,##0.00"))
    assert compare(art, folder).status == "pass"
    r = compare(art, folder, values={"compare": "text"})
    assert [(d["location"], d["expected"], d["actual"]) for d in r.evidence["differences"]] == [
        ("Budget!B2", "1200", "1,200.00")]
    assert locations(compare(art, folder, number_formats=True)) == ["Budget!B2"]


def test_number_formats_quoting_literals_alike_are_one_format(tmp_path: Path) -> None:
    """A LibreOffice- or Excel-saved gold writes ``yyyy\\-mm\\-dd`` where openpyxl writes
    ``yyyy-mm-dd``: the same printed date, so no difference; another order of the parts,
    or other literal text, still is one."""
    (tmp_path / "assets").mkdir()

    def dated(path: Path, date_format: str, money_format: str) -> None:
        wb = Workbook()
        ws = wb.active
        ws["A1"], ws["B1"] = dt.date(2024, 3, 15), 1250
        ws["A1"].number_format, ws["B1"].number_format = date_format, money_format
        wb.save(path)

    dated(tmp_path / "assets" / "gold.xlsx", r"yyyy\-mm\-dd", r'#,##0\ "kr"')
    dated(tmp_path / "same.xlsx", "yyyy-mm-dd", r"#,##0\ \k\r")
    assert compare(tmp_path / "same.xlsx", tmp_path, number_formats=True).status == "pass"
    dated(tmp_path / "other.xlsx", "dd/mm/yyyy", '#,##0 "h"')
    assert locations(compare(tmp_path / "other.xlsx", tmp_path, number_formats=True)) == ["Sheet!A1", "Sheet!B1"]


def test_case_and_whitespace_options(folder: Path) -> None:
    art = variant(folder, "lower", lambda wb: wb["Budget"].__setitem__("A2", "  rent "))
    assert locations(compare(art, folder)) == ["Budget!A2"]
    assert compare(art, folder, values={"case_sensitive": False}).status == "pass"  # whitespace: strip
    assert compare(art, folder, values={"case_sensitive": False, "whitespace": "exact"}).status == "fail"


def test_text_where_the_gold_has_a_number_says_so(folder: Path) -> None:
    art = variant(folder, "as_text", lambda wb: wb["Budget"].__setitem__("B5", "42"))
    d = compare(art, folder).evidence["differences"][0]
    assert d["location"] == "Budget!B5" and d["note"] == "text, not a number (a number stored as text)"


def test_a_reference_outside_the_rubric_folders_is_an_error(folder: Path, tmp_path: Path) -> None:
    outside = budget(tmp_path / "elsewhere.xlsx")
    r = compare(variant(folder, "same", None), folder, reference=str(outside))
    assert r.status == "error" and "outside" in r.explanation
    r = compare(variant(folder, "same", None), folder, reference="../../elsewhere.xlsx")
    assert r.status == "error"
    assert compare(variant(folder, "same", None), folder, reference="missing.xlsx").status == "error"


def test_a_corrupt_reference_is_an_error_not_a_fail(folder: Path) -> None:
    (folder / "assets" / "corrupt.xlsx").write_bytes(b"PK\x03\x04 this is not a zip file at all")
    r = compare(variant(folder, "same", None), folder, reference="corrupt.xlsx")
    assert r.status == "error" and r.score is None and "corrupt.xlsx" in r.explanation


def test_a_csv_reference_compares_values(folder: Path) -> None:
    lines = ["Item,Amount,Kind", *(f"{n},{a},{'fixed' if a > 100 else 'variable'}" for n, a in ROWS), "Total,1692.499,"]
    (folder / "assets" / "gold.csv").write_text("\n".join(lines) + "\n")
    art = variant(folder, "same", None)
    r = compare(art, folder, reference="gold.csv", sheet_names=False, range="A1:C6")
    assert r.status == "pass" and r.evidence["aspects"]["values"]["compared"] == 17, r.explanation
    r = compare(variant(folder, "changed"), folder, reference="gold.csv", sheet_names=False, range="A1:C6")
    assert locations(r) == ["Budget!B3", "Budget!B6"]


def test_a_formula_nobody_could_compute_makes_an_otherwise_equal_comparison_an_error(folder: Path) -> None:
    path = variant(folder, "same", None)
    doc = load(path, recalculate=False)
    res = Resources(assets_dir=str(folder / "assets"))
    r = run_check("compare_workbook", doc, {"reference": "gold.xlsx"}, res)
    assert r.status == "error" and "Budget!B6" in r.explanation
    changed = load(variant(folder, "changed"), recalculate=False)
    r = run_check("compare_workbook", changed, {"reference": "gold.xlsx"}, res)
    assert r.status == "fail" and locations(r) == ["Budget!B3"]  # a known difference decides


def test_evidence_lists_the_first_differences_and_counts_the_rest(folder: Path) -> None:
    r = compare(variant(folder, "inserted"), folder, max_shown=2)
    assert len(r.evidence["differences"]) == 2 and r.evidence["more_differences"] == r.evidence["different"] - 2


def test_the_check_is_registered_with_described_parameters_and_a_valid_example() -> None:
    spec = get_check("compare_workbook")
    assert spec.params.model_config.get("extra") == "forbid"
    assert all(f.description for f in spec.params.model_fields.values())
    spec.params.model_validate(spec.example)
    assert spec.mechanism_for(spec.params.model_validate(spec.example)) == "tolerance"
    assert spec.mechanism_for(spec.params.model_validate({"reference": "g.xlsx"})) == "exact"
    assert spec.mechanism_for({"reference": "g.xlsx", "values": {"abs_tol": 0.1}}) == "tolerance"


def test_a_real_workbook_matches_its_copy_resaved_by_openpyxl(tmp_path: Path) -> None:
    """A corpus workbook saved by Excel (cached values) against the same workbook re-saved
    by openpyxl (formulas without values: LibreOffice recalculates them)."""
    source = corpus_file("xlsx", "poi_simple-monthly-budget.xlsx")
    (tmp_path / "assets").mkdir()
    shutil.copy(source, tmp_path / "assets" / "gold.xlsx")
    wb = load_workbook(source)
    wb.save(tmp_path / "resaved.xlsx")
    resaved = load(tmp_path / "resaved.xlsx")
    recalculated = [c.id for c in resaved.root.descendants("cell") if c.attrs.get("value_source") == "recalculated"]
    assert len(recalculated) == 5  # the five totals Excel had cached, now computed by LibreOffice
    r = compare(tmp_path / "resaved.xlsx", tmp_path)
    assert r.status == "pass", r.explanation
    assert r.evidence["aspects"]["values"]["compared"] == 49


def test_conditional_format_rules_and_what_they_paint(folder: Path) -> None:
    from openpyxl.formatting.rule import CellIsRule

    def rule(threshold: str) -> Callable[[Workbook], None]:
        def edit(wb: Workbook) -> None:
            red = PatternFill(start_color="FFC7CE", end_color="FFC7CE", fill_type="solid")
            wb["Budget"].conditional_formatting.add("B2:B5", CellIsRule(operator="greaterThan", formula=[threshold], fill=red))
        return edit

    gold_dir = folder / "cf"
    (gold_dir / "assets").mkdir(parents=True, exist_ok=True)
    budget(gold_dir / "assets" / "gold.xlsx", rule("300"))
    same, other = budget(gold_dir / "same.xlsx", rule("300")), budget(gold_dir / "other.xlsx", rule("1000"))
    assert compare(same, gold_dir, conditional_formats=True, styles={"properties": ["fill"]}).status == "pass"
    r = compare(other, gold_dir, conditional_formats=True)
    d = r.evidence["differences"][0]
    assert (d["aspect"], d["location"], d["expected"]["formulas"], d["actual"]["formulas"]) == (
        "conditional_formats", "Budget!B2:B5", ["300"], ["1000"])
    painted = compare(other, gold_dir, styles={"properties": ["fill"]}, values=False)
    assert locations(painted) == ["Budget!B3"]  # 350.5 is over 300 but not over 1000: no longer pink


def test_autofilter_sort_and_zoom(folder: Path) -> None:
    def view(wb: Workbook) -> None:
        ws = wb["Budget"]
        ws.auto_filter.ref = "A1:C5"
        ws.auto_filter.add_sort_condition("B2:B5", descending=True)
        ws.sheet_view.zoomScale = 85

    gold_dir = folder / "view"
    (gold_dir / "assets").mkdir(parents=True, exist_ok=True)
    budget(gold_dir / "assets" / "gold.xlsx", view)
    assert compare(budget(gold_dir / "same.xlsx", view), gold_dir, filters=True, zoom=True).status == "pass"
    r = compare(budget(gold_dir / "plain.xlsx"), gold_dir, filters=True, zoom=True, values=False, sheet_names=False)
    diffs = {d["location"]: (d["expected"], d["actual"]) for d in r.evidence["differences"]}
    assert diffs["Budget!autofilter"] == ("A1:C5", None)
    assert diffs["Budget!sort"] == ([{"column": "B", "descending": True}], None)
    assert diffs["Budget"] == (85, 100)


def _with_pivot_function(source: Path, dest: Path, function: str) -> Path:
    """The workbook with its pivot table's first data field summarised by ``function``."""
    import zipfile

    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "xl/pivotTables/pivotTable1.xml":
                data = data.replace(b"<dataField ", f'<dataField subtotal="{function}" '.encode(), 1)
            zout.writestr(info, data)
    return dest


def test_pivot_tables_of_a_real_workbook(tmp_path: Path) -> None:
    source = corpus_file("xlsx", "poi_DataTableCities.xlsx")
    (tmp_path / "assets").mkdir()
    shutil.copy(source, tmp_path / "assets" / "gold.xlsx")
    same = compare(Path(shutil.copy(source, tmp_path / "same.xlsx")), tmp_path, pivot_tables=True, values=False)
    assert same.status == "pass" and same.evidence["aspects"]["pivot_tables"]["compared"] == 5, same.explanation
    r = compare(_with_pivot_function(source, tmp_path / "average.xlsx", "average"), tmp_path, pivot_tables=True)
    assert [(d["location"], d["expected"][0], d["actual"][0]) for d in r.evidence["differences"]] == [
        ("PivotTable pivot table 1 'PivotTable3' data", {"field": "Latitude", "function": "sum"},
         {"field": "Latitude", "function": "average"})]


def test_an_ods_reference_made_by_libreoffice(folder: Path) -> None:
    from artifactcheck.extractors.render.cache import convert_cached

    ods, _ = convert_cached(folder / "assets" / "gold.xlsx", target="ods")
    shutil.copy(ods, folder / "assets" / "gold.ods")
    # (not freeze: a headless LibreOffice writes no view settings into the .ods it converts)
    r = compare(variant(folder, "same"), folder, reference="gold.ods", formulas=True, merges=True, data_validations=True)
    assert r.status == "pass", r.explanation
    assert locations(compare(variant(folder, "changed"), folder, reference="gold.ods")) == ["Budget!B3", "Budget!B6"]


def test_a_saved_google_sheets_response_is_a_reference_like_any_other(fixtures_dir: Path) -> None:
    google = fixtures_dir / "google"
    res = Resources(assets_dir=str(google))
    params = {"reference": "sheets_parity.json", "merges": True, "freeze": True, "number_formats": True,
              "styles": {"properties": ["fill", "bold"]}}
    r = run_check("compare_workbook", load(google / "sheets_parity.json"), params, res)
    assert r.status == "pass" and r.evidence["aspects"]["values"]["compared"] == 19, r.explanation
    # the .xlsx twin lacks the response's hidden sheet and row 4: located, not errors
    r = run_check("compare_workbook", load(google / "sheets_parity.xlsx"), params, res)
    assert r.status == "fail" and "Data!A4" in locations(r, "values")
    assert ("sheet 2", "Hidden") in [(d["location"], d["expected"]) for d in r.evidence["differences"]]


def test_the_catalog_lists_each_aspects_options() -> None:
    from typer.testing import CliRunner

    from artifactcheck.checks.catalog import catalog
    from artifactcheck.cli import app

    entry = next(c for c in catalog() if c["name"] == "compare_workbook")
    params = {p["name"]: p for p in entry["parameters"]}
    assert {o["name"] for o in params["values"]["options"]} == {
        "compare", "precision", "abs_tol", "rel_tol", "case_sensitive", "whitespace"}
    assert all(o.get("description") for p in params.values() for o in p.get("options", []))
    assert "options" not in params["reference"]
    out = CliRunner().invoke(app, ["checks", "compare_workbook"]).output
    assert "      .precision: int | null (default null)" in out
