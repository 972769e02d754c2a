"""``date_equals``/``number_equals`` on a cell drawn ``###``: the stored value is still
judged, but the evidence no longer calls it "displayed" and the explanation says the
cell shows ``###`` (truth: the render's words)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import openpyxl
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = dt.date(2024, 3, 15)
    ws["A1"].number_format = "dddd, mmmm d, yyyy"  # far too wide for a default column
    ws["B1"] = "x"
    ws["A2"] = dt.date(2024, 3, 16)
    ws["A2"].number_format = "m/d/yy"
    path = tmp_path_factory.mktemp("hashes") / "dates.xlsx"
    wb.save(path)
    return path


@pytest.mark.slow
def test_the_render_draws_hashes_and_the_verdict_says_so(book: Path) -> None:
    words = [w.text for w in read_layout(render_pdf(book).pdf_path).words]
    assert any(set(w) == {"#"} for w in words) and "3/16/24" in words, words
    doc = load(book, render=False)
    hidden = run_check("date_equals", doc, {"target": "cell[ref='A1']", "expected": "2024-03-15"})
    assert hidden.status == "pass" and "###" in hidden.explanation, hidden.explanation
    assert not any(c.startswith("displayed") for c in hidden.evidence["nodes"][0]["compared"])
    shown = run_check("date_equals", doc, {"target": "cell[ref='A2']", "expected": "2024-03-16"})
    assert shown.status == "pass" and "###" not in shown.explanation
    assert shown.evidence["nodes"][0]["compared"][0].startswith("displayed")
