"""Chart parts (``c:chartSpace``) of a presentation as ``chart`` node attrs; the XML is
read by :mod:`..drawingml.chart` (shared with .xlsx), this module shapes PowerPoint's attrs.

Attrs: ``chart_type`` (the first plot's type, e.g. ``bar``, ``column``, ``line``,
``pie``, ``area3D``), ``chart_types`` (all plots, for combo charts), ``chart_grouping``
(``clustered``, ``stacked``, ``percentStacked``, ``standard``; when stated), ``title``,
``series`` (list of {name, name_ref, values_ref, values, categories_ref, categories,
chart_type}), ``series_count``, ``legend`` (bool), ``legend_position``, ``axes`` (list of
{kind, title, position, deleted}).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from ..drawingml.chart import Source, axis_titles, read_chart_space

_AXES = {"catAx": "category", "valAx": "value", "dateAx": "date", "serAx": "series"}
_POS = {"b": "bottom", "t": "top", "l": "left", "r": "right", "tr": "top_right"}
_MAX_POINTS = 100_000  # ptCount is file-controlled


def _positioned(source: Source) -> list[Any]:
    """Cached points placed by ``idx`` in a list of ``ptCount`` slots (missing points are
    None); numeric caches give floats (text kept when not a number). A multi-level
    category cache gives its innermost level (written first)."""
    if not source.levels:
        return []
    level = source.levels[0]
    count = min(max(level.count, len(level.points)), _MAX_POINTS)
    values: list[Any] = [None] * count
    for pt in level.points:
        if pt.idx is None or pt.text is None or not 0 <= pt.idx < count:
            continue
        if source.numeric:
            try:
                values[pt.idx] = float(pt.text)
            except ValueError:
                values[pt.idx] = pt.text
        else:
            values[pt.idx] = pt.text
    return values


def read_chart(root: etree._Element) -> dict[str, Any]:
    """Attrs of a chart part's root (``c:chartSpace``)."""
    chart = read_chart_space(root)
    if chart is None:
        return {"chart_type": None}
    attrs: dict[str, Any] = {}
    if chart.grouping is not None:
        attrs["chart_grouping"] = chart.grouping
    series: list[dict[str, Any]] = []
    for ser in chart.series:
        names = _positioned(ser.name.source)
        series.append(
            {
                "name": names[0] if names else ser.name.literal,
                "name_ref": ser.name.ref,
                "values_ref": ser.values.ref,
                "values": _positioned(ser.values),
                "categories_ref": ser.categories.ref,
                "categories": _positioned(ser.categories),
                "chart_type": ser.plot_type,
            }
        )
    title = chart.title
    if title is None and (chart.has_title or chart.auto_title_kept) and not chart.auto_title_deleted:
        # A title element without text, or none with the automatic title kept
        # (autoTitleDeleted val=0, python-pptx's default), shows the single series' name,
        # as PowerPoint and LibreOffice draw it (design/drawingml-chart.md).
        title = series[0]["name"] if len(series) == 1 else None
    attrs.update(
        chart_type=chart.plot_types[0] if chart.plot_types else None,
        chart_types=chart.plot_types,
        title=title,
        series=series,
        series_count=len(series),  # a selector cannot look into the series list
        data_labels=chart.data_labels,
        legend=chart.legend_position is not None,
        legend_position=_POS.get(chart.legend_position, chart.legend_position) if chart.legend_position is not None else None,
        axes=[
            {
                "kind": _AXES[ax.element],
                "title": ax.title,
                "position": _POS.get(ax.position, ax.position) if ax.position is not None else None,
                "deleted": ax.deleted,
            }
            for ax in chart.axes
            if ax.element in _AXES
        ],
        **axis_titles(chart.axes),
    )
    return attrs
