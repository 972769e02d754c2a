"""Chart intents as rubric authors write them, on charts built the way agents build them
(openpyxl, python-pptx): "the legend is at the bottom" as ``chart[legend_position="bottom"]``
in a workbook as in a deck, and "the chart has 3 series" as ``chart[series_count="3"]``
(a selector cannot look into the ``series`` list)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import openpyxl
import pytest
from openpyxl.chart import BarChart, Reference
from pptx.enum.chart import XL_CHART_TYPE, XL_LEGEND_POSITION

from artifactcheck import load
from artifactcheck.checks.registry import run_check

from .agent_decks import chart_slide


def _workbook(path: Path, *, series: int, legend: str | None) -> Path:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Region"] + [f"Y{2024 + i}" for i in range(series)])
    for r, name in enumerate(["North", "South", "East"]):
        ws.append([name] + [10 + r + i for i in range(series)])
    chart = BarChart()
    chart.add_data(Reference(ws, min_col=2, min_row=1, max_col=1 + series, max_row=4), titles_from_data=True)
    chart.set_categories(Reference(ws, min_col=1, min_row=2, max_row=4))
    if legend is None:
        chart.legend = None
    else:
        chart.legend.position = legend
    ws.add_chart(chart, "E2")
    wb.save(path)
    return path


def _deck(path: Path, *, series: int) -> Path:
    prs, chart = chart_slide({f"Y{2024 + i}": (10 + i, 20 + i, 15 + i) for i in range(series)}, chart_type=XL_CHART_TYPE.LINE_MARKERS)
    chart.has_legend = True
    chart.legend.position = XL_LEGEND_POSITION.BOTTOM
    prs.save(str(path))
    return path


def _status(path: Path, name: str, params: Mapping[str, object]) -> str:
    result = run_check(name, load(path), dict(params))
    assert result.status in ("pass", "fail"), result.explanation
    return result.status


def test_legend_position_reads_the_same_in_a_workbook_and_a_deck(tmp_path: Path) -> None:
    bottom = _workbook(tmp_path / "bottom.xlsx", series=3, legend="b")
    right = _workbook(tmp_path / "right.xlsx", series=3, legend="r")
    none = _workbook(tmp_path / "none.xlsx", series=3, legend=None)
    deck = _deck(tmp_path / "deck.pptx", series=3)
    at_bottom = {"target": 'chart[legend_position="bottom"]'}
    assert _status(bottom, "exists", at_bottom) == "pass"
    assert _status(deck, "exists", at_bottom) == "pass"
    assert _status(right, "exists", at_bottom) == "fail"
    assert _status(none, "count", {"target": "chart[legend_position]", "exactly": 0}) == "pass"


def test_a_top_right_legend_has_one_name_in_a_workbook_and_a_deck(tmp_path: Path) -> None:
    """``c:legendPos val="tr"`` read ``corner`` in workbooks and ``top_right`` in decks, so
    one selector could not find "the legend in the top right corner" in both."""
    book = _workbook(tmp_path / "tr.xlsx", series=2, legend="tr")
    prs, chart = chart_slide({"A": (1, 2, 3), "B": (2, 3, 4)})
    chart.has_legend = True
    chart.legend.position = XL_LEGEND_POSITION.CORNER
    deck = tmp_path / "tr.pptx"
    prs.save(str(deck))
    for path in (book, deck):
        assert _status(path, "exists", {"target": 'chart[legend_position="top_right"]'}) == "pass", path.name


def test_series_count_in_a_workbook_and_a_deck(tmp_path: Path) -> None:
    three = {"target": 'chart[series_count="3"]'}
    assert _status(_workbook(tmp_path / "three.xlsx", series=3, legend="r"), "exists", three) == "pass"
    assert _status(_deck(tmp_path / "three.pptx", series=3), "exists", three) == "pass"
    assert _status(_workbook(tmp_path / "two.xlsx", series=2, legend="r"), "exists", three) == "fail"
    assert _status(_deck(tmp_path / "two.pptx", series=2), "exists", three) == "fail"


def test_the_value_axis_title_is_selectable(tmp_path: Path) -> None:
    """"The value axis is titled 'Revenue ($)'": the title was only inside ``axes``,
    which no selector reads, so no check could pass it (LibreOffice draws it beside the
    axis, in a deck and a workbook alike)."""
    prs, chart = chart_slide({"2024": (10, 20)}, categories=("Q1", "Q2"))
    chart.value_axis.has_title = True
    chart.value_axis.axis_title.text_frame.text = "Revenue ($)"
    prs.save(str(tmp_path / "deck.pptx"))
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for row in (["Region", "2024"], ["North", 10], ["South", 20]):
        ws.append(row)
    bar = BarChart()
    bar.add_data(Reference(ws, min_col=2, min_row=1, max_row=3), titles_from_data=True)
    bar.set_categories(Reference(ws, min_col=1, min_row=2, max_row=3))
    bar.y_axis.title = "Revenue ($)"
    bar.x_axis.title = "Region"
    ws.add_chart(bar, "E2")
    book = tmp_path / "book.xlsx"
    wb.save(book)
    for path in (tmp_path / "deck.pptx", book):
        result = run_check("exists", load(path, render=False), {"target": 'chart[value_axis_title="Revenue ($)"]'})
        assert result.status == "pass", (path.name, result.explanation)
    got = run_check("exists", load(book, render=False), {"target": 'chart[category_axis_title="Region"]'})
    assert got.status == "pass", got.explanation


def _labelled_deck(path: Path, *, labels: bool) -> Path:
    prs, chart = chart_slide({"2024": (13, 22, 17)})  # not multiples of the axis step
    chart.plots[0].has_data_labels = labels
    prs.save(str(path))
    return path


def test_data_labels_are_selectable(tmp_path: Path) -> None:
    """"The chart shows data labels": no attribute said so, and the chart node's text is
    its title, so no check could pass it."""
    shown = _labelled_deck(tmp_path / "labels.pptx", labels=True)
    plain = _labelled_deck(tmp_path / "plain.pptx", labels=False)
    for path, want in ((shown, "pass"), (plain, "fail")):
        got = run_check("exists", load(path, render=False), {"target": 'chart[data_labels="true"]'})
        assert got.status == want, (path.name, got.explanation)


@pytest.mark.slow
def test_libreoffice_draws_the_labels_it_says(tmp_path: Path) -> None:
    from artifactcheck.extractors.render import read_layout, render_pdf

    for labels in (True, False):
        path = _labelled_deck(tmp_path / f"deck-{labels}.pptx", labels=labels)
        words = {w.text for w in read_layout(render_pdf(path).pdf_path).words}
        values = {"13", "22", "17"}  # drawn only as labels: the axis steps by 5
        assert (load(path).select_one("chart").attrs["data_labels"] is True) == labels
        assert (values <= words) == labels, (labels, sorted(words))
