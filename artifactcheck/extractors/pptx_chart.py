"""Chart parts (``c:chartSpace``) read straight from the XML into ``chart`` node attrs.

Why not python-pptx's chart API: it raises NotImplementedError for several plot types
(``area3DChart``, ``surfaceChart``, ... — see corpus pptx_cht-chart-type.pptx). The XML
is regular: every plot element under ``c:plotArea`` holds ``c:ser`` elements with
``c:tx`` (name), ``c:cat``/``c:xVal`` (categories) and ``c:val``/``c:yVal`` (values),
each a formula reference plus the cached values the file was saved with.

Attrs: ``chart_type`` (the first plot's type, e.g. ``bar``, ``column``, ``line``,
``pie``, ``area3D``), ``chart_types`` (all plots, for combo charts), ``chart_grouping``
(``clustered``, ``stacked``, ``percentStacked``, ``standard``; when stated), ``title``,
``series`` (list of {name, name_ref, values_ref, values, categories_ref, categories,
chart_type}), ``legend`` (bool), ``legend_position``, ``axes`` (list of {kind, title,
position, deleted}).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

C_NS = "http://schemas.openxmlformats.org/drawingml/2006/chart"
_C = f"{{{C_NS}}}"
_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_AXES = {"catAx": "category", "valAx": "value", "dateAx": "date", "serAx": "series"}
_POS = {"b": "bottom", "t": "top", "l": "left", "r": "right", "tr": "top_right"}


def _plot_type(el: etree._Element) -> str:
    """``barChart`` -> ``bar``/``column`` (by ``c:barDir``), ``line3DChart`` -> ``line3D``."""
    name = etree.QName(el).localname.removesuffix("Chart")
    if name in ("bar", "bar3D"):
        bar_dir = el.find(f"{_C}barDir")
        if bar_dir is not None and bar_dir.get("val") == "col":
            return "column" if name == "bar" else "column3D"
    return str(name)


def _rich_text(el: etree._Element | None) -> str | None:
    """Text of a ``c:tx``/``c:title``: rich runs, or a string reference's cache."""
    if el is None:
        return None
    rich = el.find(f".//{_C}rich")
    if rich is not None:
        paras = ["".join(t.text or "" for t in p.iter(f"{_A}t")) for p in rich.iter(f"{_A}p")]
        return "\n".join(paras)
    cache = el.find(f".//{_C}strCache")
    if cache is not None:
        return " ".join(v.text or "" for v in cache.iter(f"{_C}v"))
    v = el.find(f"{_C}v")
    return v.text if v is not None else None


def _ref_and_cache(el: etree._Element | None) -> tuple[str | None, list[Any]]:
    """A data source (``c:cat``/``c:val``/...): its formula and its cached points, in
    point order (missing points are None)."""
    if el is None:
        return None, []
    f = el.find(f".//{_C}f")
    ref = f.text if f is not None else None
    cache = None
    for tag in ("numCache", "strCache", "numLit", "strLit", "multiLvlStrCache"):
        cache = el.find(f".//{_C}{tag}")
        if cache is not None:
            break
    if cache is None:
        return ref, []
    numeric = etree.QName(cache).localname.startswith("num")
    if etree.QName(cache).localname == "multiLvlStrCache":
        lvl = cache.find(f"{_C}lvl")  # the innermost level comes first
        cache = lvl if lvl is not None else cache
    count_el = cache.find(f"{_C}ptCount")
    pts = list(cache.iter(f"{_C}pt"))
    try:
        count = int(count_el.get("val", "0")) if count_el is not None else 0
    except ValueError:
        count = 0
    count = min(max(count, len(pts)), 100_000)  # ptCount is file-controlled
    values: list[Any] = [None] * count
    for pt in pts:
        try:
            idx = int(pt.get("idx", "-1"))
        except ValueError:
            continue
        v = pt.find(f"{_C}v")
        if v is None or not 0 <= idx < count:
            continue
        text = v.text or ""
        if numeric:
            try:
                values[idx] = float(text)
            except ValueError:
                values[idx] = text
        else:
            values[idx] = text
    return ref, values


def read_chart(root: etree._Element) -> dict[str, Any]:
    """Attrs of a chart part's root (``c:chartSpace``)."""
    chart = root.find(f"{_C}chart")
    attrs: dict[str, Any] = {}
    if chart is None:
        attrs["chart_type"] = None
        return attrs
    title_el = chart.find(f"{_C}title")
    deleted = chart.find(f"{_C}autoTitleDeleted")
    title = _rich_text(title_el.find(f"{_C}tx")) if title_el is not None else None
    series: list[dict[str, Any]] = []
    types: list[str] = []
    plot = chart.find(f"{_C}plotArea")
    axes: list[dict[str, Any]] = []
    if plot is not None:
        for el in plot:
            if not isinstance(el.tag, str):
                continue
            local = etree.QName(el).localname
            if local.endswith("Chart"):
                kind = _plot_type(el)
                types.append(kind)
                grouping = el.find(f"{_C}grouping")
                if grouping is not None and "chart_grouping" not in attrs:
                    attrs["chart_grouping"] = grouping.get("val", "standard")
                for ser in el.iterfind(f"{_C}ser"):
                    name_ref, name_vals = _ref_and_cache(ser.find(f"{_C}tx"))
                    v = ser.find(f"{_C}tx/{_C}v")
                    name = name_vals[0] if name_vals else (v.text if v is not None else None)
                    cat_ref, cats = _ref_and_cache(ser.find(f"{_C}cat") if ser.find(f"{_C}cat") is not None else ser.find(f"{_C}xVal"))
                    val_ref, vals = _ref_and_cache(ser.find(f"{_C}val") if ser.find(f"{_C}val") is not None else ser.find(f"{_C}yVal"))
                    series.append(
                        {
                            "name": name,
                            "name_ref": name_ref,
                            "values_ref": val_ref,
                            "values": vals,
                            "categories_ref": cat_ref,
                            "categories": cats,
                            "chart_type": kind,
                        }
                    )
            elif local in _AXES:
                ax_del = el.find(f"{_C}delete")
                pos = el.find(f"{_C}axPos")
                ax_title = el.find(f"{_C}title")
                axes.append(
                    {
                        "kind": _AXES[local],
                        "title": _rich_text(ax_title.find(f"{_C}tx")) if ax_title is not None else None,
                        "position": _POS.get(pos.get("val", ""), pos.get("val")) if pos is not None else None,
                        "deleted": ax_del is not None and ax_del.get("val", "1") in ("1", "true"),
                    }
                )
    if title is None and title_el is not None and not (deleted is not None and deleted.get("val") in ("1", "true")):
        # A title element without text shows the single series' name (PowerPoint's rule).
        title = series[0]["name"] if len(series) == 1 else None
    legend = chart.find(f"{_C}legend")
    legend_pos = legend.find(f"{_C}legendPos") if legend is not None else None
    attrs.update(
        chart_type=types[0] if types else None,
        chart_types=types,
        title=title,
        series=series,
        legend=legend is not None,
        legend_position=(_POS.get(legend_pos.get("val", "r"), legend_pos.get("val")) if legend_pos is not None else ("right" if legend is not None else None)),
        axes=axes,
    )
    return attrs
