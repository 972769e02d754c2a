"""range_equals and cells_compare: comparisons without a gold workbook, on a sheet written
with openpyxl (amounts, a percentage, a date, a number typed as text, a formula)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest
from openpyxl import Workbook

from artifactcheck import Document, load, run_check
from artifactcheck.checks.registry import Resources, get_check
from artifactcheck.checks.result import CheckResult


def sheet(path: Path, *, amount: Any = 350.5) -> Path:
    wb = Workbook()
    ws = wb.active
    ws.title = "Budget"
    ws.append(["Item", "Amount", "Share", "Due"])
    ws.append(["Rent", 1200, 0.25, dt.date(2024, 1, 5)])
    ws.append(["Food", amount, 0.5, dt.date(2024, 2, 1)])
    ws.append(["Travel", 99.999, 0.25, None])
    ws["B5"] = "=SUM(B2:B4)"
    ws["C2"].number_format = "0%"
    ws["D2"].number_format = "m/d/yyyy"
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("compare_cells")
    sheet(base / "budget.xlsx")
    sheet(base / "typed.xlsx", amount="350.5")
    (base / "expected.csv").write_text("Item,Amount\nRent,1200\nFood,350.5\nTravel,99.999\n")
    return base


@pytest.fixture(scope="module")
def doc(folder: Path) -> Document:
    return load(folder / "budget.xlsx")


def run(name: str, doc: Document, folder: Path, **params: Any) -> CheckResult:
    return run_check(name, doc, params, Resources(assets_dir=str(folder)))


def where(result: CheckResult) -> list[str]:
    return [d["location"] for d in result.evidence["differences"]]


# -- range_equals ---------------------------------------------------------------------------


def test_a_block_equals_inline_values_from_its_top_left_cell(doc: Document, folder: Path) -> None:
    expected = [["Item", "Amount"], ["Rent", 1200], ["Food", 350.5], ["Travel", 99.999], [None, 1650.499]]
    r = run("range_equals", doc, folder, range="Budget!A1", expected=expected)
    assert r.status == "pass" and r.mechanism == "exact", r.explanation
    assert r.evidence["range"] == "Budget!A1:B5" and r.evidence["aspects"]["values"]["compared"] == 10


def test_a_wrong_value_is_located_and_tolerance_boundaries_are_inclusive(doc: Document, folder: Path) -> None:
    expected = [["Rent", 1200], ["Food", 350.5], ["Travel", 100]]
    r = run("range_equals", doc, folder, range="A2:B4", expected=expected)
    assert r.status == "fail" and where(r) == ["Budget!B4"]
    assert (r.evidence["differences"][0]["expected"], r.evidence["differences"][0]["actual"]) == (100, 99.999)
    ok = run("range_equals", doc, folder, range="A2:B4", expected=expected, abs_tol=0.001)
    assert ok.status == "pass" and ok.mechanism == "tolerance"
    assert run("range_equals", doc, folder, range="A2:B4", expected=expected, abs_tol=0.0009).status == "fail"
    assert run("range_equals", doc, folder, range="A2:B4", expected=expected, precision=2).status == "pass"


def test_expected_blanks_must_be_empty_unless_skipped(doc: Document, folder: Path) -> None:
    r = run("range_equals", doc, folder, range="C4", expected=[[0.25, None]])
    assert r.status == "pass", r.explanation  # D4 is empty
    r = run("range_equals", doc, folder, range="C3", expected=[[0.5, ""]])
    assert r.status == "fail" and where(r) == ["Budget!D3"] and r.evidence["differences"][0]["note"] == "cell should be empty"
    assert run("range_equals", doc, folder, range="C3", expected=[[0.5, None]], skip_blank_expected=True).status == "pass"
    short_row = run("range_equals", doc, folder, range="A4", expected=[["Travel", 99.999, 0.25], ["Total"]])
    assert short_row.status == "fail" and where(short_row) == ["Budget!A5", "Budget!B5"]  # a short row pads with blanks


def test_text_matches_what_a_date_or_percentage_cell_shows(doc: Document, folder: Path) -> None:
    r = run("range_equals", doc, folder, range="C2:D2", expected=[["25%", "2024-01-05"]])
    assert r.status == "pass", r.explanation
    assert run("range_equals", doc, folder, range="C2:D2", expected=[[0.25, "1/5/2024"]]).status == "pass"
    assert run("range_equals", doc, folder, range="C2:D2", expected=[[25, "2024-01-06"]]).status == "fail"


def test_a_csv_file_gives_the_expected_values(doc: Document, folder: Path) -> None:
    r = run("range_equals", doc, folder, range="A1", expected_file="expected.csv")
    assert r.status == "pass" and "expected.csv" in r.explanation, r.explanation
    typed = load(folder / "typed.xlsx")
    r = run("range_equals", typed, folder, range="A1", expected_file="expected.csv")
    assert r.status == "fail" and where(r) == ["Budget!B3"]
    assert r.evidence["differences"][0]["note"] == "text, not a number (a number stored as text)"


def test_range_equals_errors_are_the_rubrics_problem(doc: Document, folder: Path, tmp_path: Path) -> None:
    size = run("range_equals", doc, folder, range="A1:C3", expected=[["Item", "Amount"]])
    assert size.status == "error" and "3x3" in size.explanation
    both = run("range_equals", doc, folder, range="A1", expected=[["x"]], expected_file="expected.csv")
    assert both.status == "error"
    (tmp_path / "outside.csv").write_text("a\n")
    outside = run("range_equals", doc, folder, range="A1", expected_file=str(tmp_path / "outside.csv"))
    assert outside.status == "error" and "outside" in outside.explanation


def test_an_uncomputed_formula_is_an_error_only_when_nothing_else_differs(folder: Path) -> None:
    raw = load(folder / "budget.xlsx", recalculate=False)
    r = run("range_equals", raw, folder, range="B5", expected=[[1650.499]])
    assert r.status == "error" and "Budget!B5" in r.explanation
    r = run("range_equals", raw, folder, range="B4", expected=[[1], [1650.499]])
    assert r.status == "fail" and where(r) == ["Budget!B4"]


def test_alternatives_per_cell_and_contained_text_like_compare_conference_city_in_order(tmp_path: Path) -> None:
    wb = Workbook()
    ws = wb.active
    ws.append(["Conference", "Year", "City"])
    for row in (["ICML", 2024, "Vienna, Austria"], ["NeurIPS", 2024, "Vancouver"], ["ACL", 2024, "Bangkok"]):
        ws.append(row)
    wb.save(tmp_path / "cities.xlsx")
    doc = load(tmp_path / "cities.xlsx")
    cities = [["Vienna"], [["Vancouver", "Vancouver, Canada"]], [["Bangkok", "Krung Thep"]]]
    assert run("range_equals", doc, tmp_path, range="C2", expected=cities).status == "fail"  # "Vienna, Austria"
    ok = run("range_equals", doc, tmp_path, range="C2", expected=cities, text_match="contains")
    assert (ok.status, ok.score) == ("pass", 1.0), ok.explanation
    wrong = [["Vienna"], [["Seattle", "Toronto"]], ["Bangkok"]]
    r = run("range_equals", doc, tmp_path, range="C2", expected=wrong, text_match="contains")
    assert r.status == "fail" and where(r) == ["Sheet!C3"]
    (diff,) = r.evidence["differences"]
    assert diff["expected"] == ["Seattle", "Toronto"] and diff["note"] == "none of the alternatives"
    assert run("range_equals", doc, tmp_path, range="B2", expected=[[[2023, 2024]]]).status == "pass"  # numbers too
    bad = run("range_equals", doc, tmp_path, range="C2", expected=[[[]]])
    assert bad.status == "error"


# -- cells_compare --------------------------------------------------------------------------


def test_every_cell_satisfies_the_comparison(doc: Document, folder: Path) -> None:
    r = run("cells_compare", doc, folder, range="Budget!B2:B5", op=">", value=50)
    assert r.status == "pass" and r.score == 1.0 and r.evidence["cells_total"] == 4, r.explanation
    r = run("cells_compare", doc, folder, range="B2:B5", op="<", value=1000)
    assert r.status == "fail" and r.score == pytest.approx(0.5)
    assert [c["location"] for c in r.evidence["failing"]] == ["Budget!B2", "Budget!B5"]


def test_between_is_inclusive_and_percentages_are_fractions(doc: Document, folder: Path) -> None:
    assert run("cells_compare", doc, folder, range="C2:C4", between=[0.25, 0.5]).status == "pass"
    assert run("cells_compare", doc, folder, range="C2:C4", between=[0.26, 0.5]).status == "fail"
    assert run("cells_compare", doc, folder, range="C2:C4", op="<=", value=0.5).status == "pass"
    assert run("cells_compare", doc, folder, range="C2:C4", op="!=", value=0.25, quantifier="any").status == "pass"
    assert run("cells_compare", doc, folder, range="C2:C4", op="==", value=1, quantifier="any").status == "fail"


def test_text_fails_with_its_location_and_blanks_are_skipped_or_failed(doc: Document, folder: Path) -> None:
    r = run("cells_compare", doc, folder, range="A1:B2", op=">=", value=0)
    assert r.status == "fail"
    assert {c["location"]: c["note"] for c in r.evidence["failing"]} == {
        "Budget!A1": "not a number (text)", "Budget!B1": "not a number (text)", "Budget!A2": "not a number (text)"}
    assert run("cells_compare", doc, folder, range="D2:D4", op=">", value=0).status == "pass"  # dates are serials
    r = run("cells_compare", doc, folder, range="D2:D4", op=">", value=0, blanks="fail")
    assert r.status == "fail" and [c["location"] for c in r.evidence["failing"]] == ["Budget!D4"]
    typed = load(folder / "typed.xlsx")
    r = run("cells_compare", typed, folder, range="B3", op=">", value=0)
    assert r.status == "fail" and r.evidence["failing"][0]["note"] == "a number stored as text"


def test_whole_columns_stop_at_the_used_rows(doc: Document, folder: Path) -> None:
    """"Every amount in column C is positive": the header above the column's first value
    is not an amount, so it is left out (it used to fail the check), and said so."""
    r = run("cells_compare", doc, folder, range="C:C", op=">", value=0, blanks="fail")
    assert [c["location"] for c in r.evidence["failing"]] == ["Budget!C5"]
    assert r.evidence["cells_total"] == 4
    assert r.evidence["labels_left_out"] == ["Budget!C1"] and "Budget!C1" in r.explanation


def test_uncomputed_values_are_errors_unless_known_cells_decide(folder: Path) -> None:
    raw = load(folder / "budget.xlsx", recalculate=False)
    assert run("cells_compare", raw, folder, range="B2:B5", op=">", value=0).status == "error"
    assert run("cells_compare", raw, folder, range="B2:B5", op=">", value=100).status == "fail"  # B4 decides
    assert run("cells_compare", raw, folder, range="B2:B5", op=">", value=100, quantifier="any").status == "pass"


def test_targets_other_than_cells_are_read_from_their_text(folder: Path) -> None:
    from artifactcheck.checks.examples import tiny_doc

    r = run("cells_compare", tiny_doc(), folder, target="table row:nth-child(2) cell:nth-child(2)", op=">", value=90)
    assert r.status == "pass"


def test_parameters_that_do_not_say_what_to_compare_are_errors(doc: Document, folder: Path) -> None:
    assert run("cells_compare", doc, folder, range="B2:B5").status == "error"
    assert run("cells_compare", doc, folder, range="B2:B5", op=">", value=1, between=[0, 1]).status == "error"
    assert run("cells_compare", doc, folder, range="B2:B5", between=[2, 1]).status == "error"


@pytest.mark.parametrize("name", ["range_equals", "cells_compare"])
def test_registered_with_described_parameters_and_a_valid_example(name: str) -> None:
    spec = get_check(name)
    assert spec.params.model_config.get("extra") == "forbid"
    assert all(f.description for f in spec.params.model_fields.values()), name
    spec.params.model_validate(spec.example)
