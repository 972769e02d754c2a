"""A chart part (``xl/charts/chartN.xml``, DrawingML chart) as plain attrs: chart type(s),
title, series (name, name reference, category and value references, cached values),
legend and axes. The XML is read by :mod:`..drawingml.chart` (shared with .pptx); this
module shapes the workbook's attrs."""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..drawingml.chart import Source, axis_titles, read_chart_space

MAX_CACHED_POINTS = 1000  # values kept per series; the reference says where the rest is
# c:legendPos in the words the .pptx attr and compare_workbook use
_LEGEND_POS = {"r": "right", "b": "bottom", "t": "top", "l": "left", "tr": "top_right"}  # as decks say it: Office calls it "Top Right"


def _in_order(source: Source) -> list[Any]:
    """Cached points in document order (all levels), at most MAX_CACHED_POINTS: numbers
    as floats, blank or missing values as None, other text as written."""
    out: list[Any] = []
    for v in source.texts()[:MAX_CACHED_POINTS]:
        try:
            out.append(float(v) if v is not None and v.strip() else None)
        except ValueError:
            out.append(v)
    return out


def read_chart(root: etree._Element) -> dict[str, Any]:
    """Attrs of one chart: ``chart_type`` (first plot), ``chart_types``, ``title``,
    ``series`` [{name, name_ref, categories_ref, values_ref, values, type}],
    ``series_count`` (so a selector can say ``chart[series_count="3"]``), ``legend``
    (raw position ``r``, ``b``... or None), ``legend_position`` (``right``, ``bottom``,
    ``top``, ``left``, ``top_right``; None without a legend), ``axes`` [{kind, title,
    deleted}]."""
    chart = read_chart_space(root)
    if chart is None:
        return {"chart_type": None, "series": []}
    return {
        "chart_type": chart.plot_types[0] if chart.plot_types else None,
        "chart_types": chart.plot_types,
        "title": chart.title,
        "title_ref": chart.title_ref,
        "auto_title_deleted": chart.auto_title_deleted,
        "series": [
            {
                "type": ser.plot_type,
                "name": ser.name.text,
                "name_ref": ser.name.ref,
                "categories_ref": ser.categories.ref,
                "categories": _in_order(ser.categories),
                "values_ref": ser.values.ref,
                "values": _in_order(ser.values),
            }
            for ser in chart.series
        ],
        "series_count": len(chart.series),
        "data_labels": chart.data_labels,
        "legend": chart.legend_position,
        "legend_position": _LEGEND_POS.get(chart.legend_position, chart.legend_position) if chart.legend_position is not None else None,
        "axes": [{"kind": ax.element, "title": ax.title, "deleted": ax.deleted} for ax in chart.axes],
        **axis_titles(chart.axes),
    }
