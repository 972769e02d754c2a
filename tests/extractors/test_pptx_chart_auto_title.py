"""A python-pptx chart of one series whose title was never set: the file states
``<c:autoTitleDeleted val="0"/>`` without a ``c:title``, and LibreOffice (like PowerPoint)
draws the series' name as the chart's title; ``has_title = False`` deletes it, and a file
without the element draws none (checked on the render, design/drawingml-chart.md)."""

from __future__ import annotations

import zipfile
from pathlib import Path

from pptx.enum.chart import XL_CHART_TYPE

from artifactcheck import load
from artifactcheck.checks.registry import run_check

from .agent_decks import chart_slide


def _deck(path: Path, *, series: int = 1, has_title: bool | None = None, chart_type: XL_CHART_TYPE = XL_CHART_TYPE.COLUMN_CLUSTERED) -> Path:
    prs, chart = chart_slide({f"Sales {2024 + i}": (10 + i, 20 + i, 15 + i) for i in range(series)}, chart_type=chart_type)
    if has_title is not None:
        chart.has_title = has_title
    prs.save(str(path))
    return path


def _without_auto_title_element(src: Path, dst: Path) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename.startswith("ppt/charts/chart"):
                data = data.replace(b'<c:autoTitleDeleted val="0"/>', b"")
            zout.writestr(item, data)
    return dst


def _title(path: Path) -> object:
    (chart,) = load(path).root.descendants("chart")
    return chart.attrs["title"]


def test_a_single_series_chart_shows_its_series_name_as_title(tmp_path: Path) -> None:
    column = _deck(tmp_path / "column.pptx")
    assert _title(column) == "Sales 2024"
    assert _title(_deck(tmp_path / "pie.pptx", chart_type=XL_CHART_TYPE.PIE)) == "Sales 2024"
    result = run_check("exists", load(column), {"target": 'chart[title="Sales 2024"]'})
    assert result.status == "pass", result.explanation


def test_no_automatic_title_when_deleted_absent_or_several_series(tmp_path: Path) -> None:
    assert _title(_deck(tmp_path / "deleted.pptx", has_title=False)) is None
    assert _title(_deck(tmp_path / "three.pptx", series=3)) is None
    absent = _without_auto_title_element(_deck(tmp_path / "kept.pptx"), tmp_path / "absent.pptx")
    assert _title(absent) is None


def test_the_drawn_title_is_the_chart_nodes_text(tmp_path: Path) -> None:
    """As in workbooks: "the slide says 'Sales 2024'" finds the chart's title, stated or automatic."""
    deck = load(_deck(tmp_path / "auto.pptx"))
    (chart,) = deck.root.descendants("chart")
    assert chart.text == "Sales 2024"
    result = run_check("text_contains", deck, {"phrases": ["Sales 2024"]})
    assert result.status == "pass", result.explanation
    deleted = load(_deck(tmp_path / "deleted.pptx", has_title=False))
    assert run_check("text_contains", deleted, {"phrases": ["Sales 2024"]}).status == "fail"
