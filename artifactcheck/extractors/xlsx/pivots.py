"""Pivot tables: where a pivot table sits, what it summarises and how.

A sheet's pivot table part (``pivotTableDefinition``) gives its name, its location on the
sheet and the fields on each axis by index; the pivot cache definition it points at
names those fields (``cacheFields``) and the source (``worksheetSource``: a range on a
sheet, or a defined name / table name). The cells the pivot shows are the sheet's own
cells (Excel saves them), so the pivot becomes a ``table`` node over its location with
``pivot: true`` and these attrs:

- ``name``, ``location`` (A1 range on the sheet), ``source`` (``Sheet!A1:D13``, or the
  name as written when the source is a defined name or table);
- ``row_fields``, ``column_fields``, ``filter_fields``: field names in axis order
  (``Values`` stands for the data-fields pseudo field, index -2);
- ``data_fields``: ``[{name, field, function}]`` (``function`` ``sum`` by default, as
  Excel writes it: ``count``, ``average``, ``max``...).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"


def _names(el: etree._Element | None, tag: str, attr: str, fields: list[str]) -> list[str]:
    if el is None:
        return []
    out = []
    for f in el.iterfind(f"{NS}{tag}"):
        try:
            i = int(f.get(attr, "-1"))
        except ValueError:
            continue
        out.append("Values" if i == -2 else (fields[i] if 0 <= i < len(fields) else f"field{i}"))
    return out


def read_pivot(table: etree._Element, cache: etree._Element | None) -> dict[str, Any]:
    """The attrs of one pivot table (see the module docstring)."""
    fields: list[str] = []
    source: str | None = None
    if cache is not None:
        fields = [cf.get("name") or "" for cf in cache.iterfind(f"{NS}cacheFields/{NS}cacheField")]
        ws = cache.find(f"{NS}cacheSource/{NS}worksheetSource")
        if ws is not None:
            if ws.get("ref"):
                sheet = ws.get("sheet")
                source = f"{sheet}!{ws.get('ref')}" if sheet else ws.get("ref")
            else:
                source = ws.get("name")
    loc = table.find(f"{NS}location")
    data = []
    for df in table.iterfind(f"{NS}dataFields/{NS}dataField"):
        try:
            fld = int(df.get("fld", "-1"))
        except ValueError:
            fld = -1
        data.append({
            "name": df.get("name"),
            "field": fields[fld] if 0 <= fld < len(fields) else None,
            "function": df.get("subtotal", "sum"),
        })
    return {
        "pivot": True,
        "name": table.get("name"),
        "location": loc.get("ref") if loc is not None else None,
        "source": source,
        "row_fields": _names(table.find(f"{NS}rowFields"), "field", "x", fields),
        "column_fields": _names(table.find(f"{NS}colFields"), "field", "x", fields),
        "filter_fields": _names(table.find(f"{NS}pageFields"), "pageField", "fld", fields),
        "data_fields": data,
    }
