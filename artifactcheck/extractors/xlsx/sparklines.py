"""Sparklines (Excel 2010 ``x14:sparklineGroups`` in a worksheet's extLst): the small
chart drawn inside a cell, with its type, data range and colour.

Each sparkline is ``{cell, source, type, color}``: ``cell`` the A1 address it is drawn
in (``xm:sqref``), ``source`` the data range (``xm:f``, usually sheet-qualified),
``type`` ``line`` (the default), ``column`` or ``stacked`` (win/loss), ``color`` the
series colour. Markers and axis settings are not kept.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .styles import ColourResolver

X14 = "{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}"
XM = "{http://schemas.microsoft.com/office/excel/2006/main}"


def read_sparklines(groups: list[etree._Element], colours: ColourResolver) -> list[dict[str, Any]]:
    out = []
    for group in groups:
        kind = group.get("type", "line")
        colour = colours.resolve(group.find(f"{X14}colorSeries"))
        for spark in group.iter(f"{X14}sparkline"):
            cell = (spark.findtext(f"{XM}sqref") or "").strip()
            if not cell:
                continue
            out.append({"cell": cell, "source": (spark.findtext(f"{XM}f") or "").strip() or None,
                        "type": kind, "color": colour})
    return out
