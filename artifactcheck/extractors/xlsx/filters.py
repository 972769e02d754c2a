"""A sheet's (or table's) autofilter and sort state, as plain attrs.

``<autoFilter ref>`` gives the filtered range (the header row is its first row) and per
column the filter in force; ``<sortState>`` (inside the autofilter, or on the sheet
itself after Data > Sort) gives the sorted range and its keys in order. Excel saves the
sorted rows already in order, so the cells show the sort; these attrs tell a check that
the sort was done (and on which column) rather than typed in that order.
"""

from __future__ import annotations

from typing import Any

from lxml import etree
from openpyxl.utils import get_column_letter

from .sheet import split_range

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _column_letter(ref: str | None) -> str | None:
    if not ref:
        return None
    letters = "".join(ch for ch in ref.split(":")[0] if ch.isalpha())
    return letters.upper() or None


def read_sort_state(el: etree._Element | None) -> dict[str, Any] | None:
    """``{ref, conditions: [{ref, column, descending, by}], case_sensitive}`` or None."""
    if el is None:
        return None
    conditions = []
    for cond in el.iterfind(f"{NS}sortCondition"):
        item: dict[str, Any] = {
            "ref": cond.get("ref"),
            "column": _column_letter(cond.get("ref")),
            "descending": cond.get("descending") in ("1", "true"),
        }
        if cond.get("sortBy") and cond.get("sortBy") != "value":
            item["by"] = cond.get("sortBy")  # cellColor, fontColor, icon
        conditions.append(item)
    out: dict[str, Any] = {"ref": el.get("ref"), "conditions": conditions}
    if el.get("caseSensitive") in ("1", "true"):
        out["case_sensitive"] = True
    return out


def read_autofilter(el: etree._Element | None) -> dict[str, Any] | None:
    """``{ref, columns: [{column, values | custom | top10 | dynamic | color}], sort}``."""
    if el is None or not el.get("ref"):
        return None
    ref = str(el.get("ref"))
    rect = split_range(ref)
    first_col = rect[1] if rect else 1
    columns = []
    for fc in el.iterfind(f"{NS}filterColumn"):
        try:
            col_id = int(fc.get("colId", "0"))
        except ValueError:
            continue
        item: dict[str, Any] = {"column": _letters(first_col + col_id)}
        filters = fc.find(f"{NS}filters")
        if filters is not None:
            item["values"] = [f.get("val") for f in filters.iterfind(f"{NS}filter")]
            if filters.get("blank") in ("1", "true"):
                item["blank"] = True
        custom = fc.find(f"{NS}customFilters")
        if custom is not None:
            item["custom"] = [{"operator": c.get("operator", "equal"), "value": c.get("val")}
                              for c in custom.iterfind(f"{NS}customFilter")]
            item["and"] = custom.get("and") in ("1", "true")
        top = fc.find(f"{NS}top10")
        if top is not None:
            item["top10"] = {"top": top.get("top", "1") not in ("0", "false"), "percent": top.get("percent") in ("1", "true"),
                             "value": top.get("val")}
        dyn = fc.find(f"{NS}dynamicFilter")
        if dyn is not None:
            item["dynamic"] = dyn.get("type")
        if fc.find(f"{NS}colorFilter") is not None:
            item["color"] = True
        columns.append(item)
    out: dict[str, Any] = {"ref": ref, "columns": columns}
    sort = read_sort_state(el.find(f"{NS}sortState"))
    if sort is not None:
        out["sort"] = sort
    return out


def _letters(col: int) -> str:
    return str(get_column_letter(max(1, col)))
