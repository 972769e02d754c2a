"""A chart part (``xl/charts/chartN.xml``, DrawingML chart) as plain attrs: chart type(s),
title, series (name, name reference, category and value references, cached values),
legend and axes. Read with lxml because openpyxl's reader keeps neither the cached values
nor every chart type."""

from __future__ import annotations

from typing import Any

from lxml import etree

C = "{http://schemas.openxmlformats.org/drawingml/2006/chart}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"

MAX_CACHED_POINTS = 1000  # values kept per series; the reference says where the rest is


def _rich_text(el: etree._Element | None) -> str | None:
    if el is None:
        return None
    paras = []
    for p in el.iter(f"{A}p"):
        paras.append("".join(t.text or "" for t in p.iter(f"{A}t")))
    return "\n".join(paras) if paras else None


def _tx(el: etree._Element | None) -> tuple[str | None, str | None]:
    """(text, reference) of a ``c:tx`` (series name or title)."""
    if el is None:
        return None, None
    ref = el.find(f"{C}strRef")
    if ref is not None:
        f = ref.findtext(f"{C}f")
        cached = [pt.findtext(f"{C}v") or "" for pt in ref.iter(f"{C}pt")]
        return (" ".join(cached) if cached else None), f
    rich = el.find(f"{C}rich")
    if rich is not None:
        return _rich_text(rich), None
    v = el.findtext(f"{C}v")
    return v, None


def _data(el: etree._Element | None) -> tuple[str | None, list[Any]]:
    """(reference, cached values) of ``c:cat``/``c:val``/``c:xVal``/``c:yVal``."""
    if el is None:
        return None, []
    for kind in ("numRef", "strRef", "multiLvlStrRef"):
        ref = el.find(f"{C}{kind}")
        if ref is not None:
            pts = _points(ref)
            return ref.findtext(f"{C}f"), pts
    for kind in ("numLit", "strLit"):
        lit = el.find(f"{C}{kind}")
        if lit is not None:
            return None, _points(lit)
    return None, []


def _points(el: etree._Element) -> list[Any]:
    out: list[Any] = []
    for pt in el.iter(f"{C}pt"):
        if len(out) >= MAX_CACHED_POINTS:
            break
        v = pt.findtext(f"{C}v")
        try:
            out.append(float(v) if v is not None and v.strip() else None)
        except ValueError:
            out.append(v)
    return out


def _chart_kind(el: etree._Element) -> str:
    name = etree.QName(el).localname.removesuffix("Chart")
    if name in ("bar", "bar3D"):
        direction = el.find(f"{C}barDir")
        if direction is not None and direction.get("val") == "col":
            return "column" if name == "bar" else "column3D"
    return str(name)


def read_chart(root: etree._Element) -> dict[str, Any]:
    """Attrs of one chart: ``chart_type`` (first plot), ``chart_types``, ``title``,
    ``series`` [{name, name_ref, categories_ref, values_ref, values, type}], ``legend``
    (position or None), ``axes`` [{kind, title, deleted}]."""
    chart = root.find(f"{C}chart")
    if chart is None:
        return {"chart_type": None, "series": []}
    title_el = chart.find(f"{C}title")
    title = None
    title_ref = None
    if title_el is not None:
        title, title_ref = _tx(title_el.find(f"{C}tx"))
    auto_deleted = chart.find(f"{C}autoTitleDeleted")
    plot = chart.find(f"{C}plotArea")
    types: list[str] = []
    series: list[dict[str, Any]] = []
    axes: list[dict[str, Any]] = []
    if plot is not None:
        for el in plot:
            local = etree.QName(el).localname
            if local.endswith("Chart"):
                kind = _chart_kind(el)
                types.append(kind)
                for ser in el.iterfind(f"{C}ser"):
                    name, name_ref = _tx(ser.find(f"{C}tx"))
                    cat_ref, cats = _data(ser.find(f"{C}cat") if ser.find(f"{C}cat") is not None else ser.find(f"{C}xVal"))
                    val_ref, vals = _data(ser.find(f"{C}val") if ser.find(f"{C}val") is not None else ser.find(f"{C}yVal"))
                    series.append({
                        "type": kind,
                        "name": name,
                        "name_ref": name_ref,
                        "categories_ref": cat_ref,
                        "categories": cats,
                        "values_ref": val_ref,
                        "values": vals,
                    })
            elif local.endswith("Ax"):
                t_el = el.find(f"{C}title")
                ax_title = _tx(t_el.find(f"{C}tx"))[0] if t_el is not None else None
                deleted = el.find(f"{C}delete")
                axes.append({
                    "kind": local,
                    "title": ax_title,
                    "deleted": deleted is not None and deleted.get("val", "1") in ("1", "true"),
                })
    legend = chart.find(f"{C}legend")
    legend_pos = None
    if legend is not None:
        pos = legend.find(f"{C}legendPos")
        legend_pos = pos.get("val", "r") if pos is not None else "r"
    return {
        "chart_type": types[0] if types else None,
        "chart_types": types,
        "title": title,
        "title_ref": title_ref,
        "auto_title_deleted": auto_deleted is not None and auto_deleted.get("val", "1") in ("1", "true"),
        "series": series,
        "legend": legend_pos,
        "axes": axes,
    }
