"""Sheet features kept as plain attrs: data validations, conditional formatting rules,
tables (ListObjects) and comments (legacy notes).

Data validation: ``{ranges, type, operator, formula1, formula2, values, checkbox,
allow_blank, show_dropdown, prompt, error}``; ``values`` is the literal list of a
``"a,b,c"`` list validation (None when the list is a range reference); ``checkbox`` is
True for a two-valued boolean-like list (TRUE/FALSE, Yes/No, ☐/☑ ...). Both the main
``<dataValidations>`` and Excel 2010's ``x14:dataValidations`` (cross-sheet lists) are read.

Conditional formatting: ``{ranges, type, operator, formulas, priority, stop_if_true,
text, style, ...}`` with ``style`` the resolved differential format (colour, fill, bold)
and colour scales / data bars / icon sets with their thresholds (``cfvo``) and colours.
``conditional_formats.py`` evaluates them.
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .filters import read_sort_state
from .styles import Stylesheet

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
X14 = "{http://schemas.microsoft.com/office/spreadsheetml/2009/9/main}"
XM = "{http://schemas.microsoft.com/office/excel/2006/main}"

_BOOLEAN_PAIRS = [
    {"true", "false"}, {"yes", "no"}, {"y", "n"}, {"☐", "☑"}, {"☐", "☒"}, {"✓", "✗"},
    {"✔", "✘"}, {"checked", "unchecked"}, {"1", "0"},
]


def _list_values(formula: str | None) -> list[str] | None:
    if not formula:
        return None
    f = formula.strip()
    if len(f) >= 2 and f[0] == '"' and f[-1] == '"':
        return [v.strip() for v in f[1:-1].replace('""', '"').split(",")]
    return None


def _validation(el: etree._Element, f1: str | None, f2: str | None, ranges: str) -> dict[str, Any]:
    dv_type = el.get("type", "none")
    values = _list_values(f1) if dv_type == "list" else None
    out: dict[str, Any] = {
        "ranges": ranges,
        "type": dv_type,
        "operator": el.get("operator", "between") if dv_type not in ("list", "custom", "none") else None,
        "formula1": f1,
        "formula2": f2,
        "values": values,
        "checkbox": values is not None and bool(values) and {v.lower() for v in values} in _BOOLEAN_PAIRS,
        "allow_blank": el.get("allowBlank") in ("1", "true"),
        # showDropDown="1" means the in-cell dropdown is HIDDEN (ECMA's inverted name).
        "in_cell_dropdown": el.get("showDropDown") not in ("1", "true"),
    }
    if el.get("prompt"):
        out["prompt"] = el.get("prompt")
    if el.get("error"):
        out["error"] = el.get("error")
    return out


def read_data_validations(main: list[etree._Element], x14: list[etree._Element]) -> list[dict[str, Any]]:
    out = []
    for el in main:
        out.append(_validation(el, el.findtext(f"{NS}formula1"), el.findtext(f"{NS}formula2"), el.get("sqref", "")))
    for el in x14:
        f1 = el.find(f"{X14}formula1")
        f2 = el.find(f"{X14}formula2")
        out.append(_validation(
            el,
            f1.findtext(f"{XM}f") if f1 is not None else None,
            f2.findtext(f"{XM}f") if f2 is not None else None,
            el.findtext(f"{XM}sqref") or "",
        ))
    return out


def _cfvo(v: etree._Element) -> dict[str, Any]:
    out: dict[str, Any] = {"type": v.get("type"), "val": v.get("val")}
    if v.get("val") is None:
        f = v.find(f"{XM}f")  # x14 rules keep the value as <xm:f>
        if f is not None:
            out["val"] = f.text
    if v.get("gte") in ("0", "false"):
        out["gte"] = False
    return out


def _cfvo_colors(rule: etree._Element, styles: Stylesheet, ns: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for kind in ("colorScale", "dataBar", "iconSet"):
        el = rule.find(f"{ns}{kind}")
        if el is None:
            continue
        cfvo = [_cfvo(v) for v in el if etree.QName(v).localname == "cfvo"]
        colours = [styles.colours.resolve(c) for c in el if etree.QName(c).localname in ("color", "fillColor")]
        item: dict[str, Any] = {"cfvo": cfvo, "colors": [c for c in colours if c]}
        if kind == "iconSet":
            item["icon_set"] = el.get("iconSet", "3TrafficLights1")
            if el.get("reverse") in ("1", "true"):
                item["reverse"] = True
        if kind == "dataBar":
            for attr, key, default in (("minLength", "min_length", 10), ("maxLength", "max_length", 90)):
                try:
                    item[key] = int(el.get(attr, str(default)))
                except ValueError:
                    item[key] = default
        if el.get("showValue") in ("0", "false"):
            item["show_value"] = False
        out[kind] = item
    return out


def _rule(rule: etree._Element, ranges: str, styles: Stylesheet, ns: str, formula_tag: str) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ranges": ranges,
        "type": rule.get("type"),
        "operator": rule.get("operator"),
        "formulas": [f.text or "" for f in rule.iter(formula_tag)],
        "priority": int(rule.get("priority", "0") or 0),
        "stop_if_true": rule.get("stopIfTrue") in ("1", "true"),
    }
    for attr, key in (("text", "text"), ("rank", "rank"), ("percent", "percent"), ("bottom", "bottom"),
                      ("timePeriod", "time_period"), ("aboveAverage", "above_average"),
                      ("equalAverage", "equal_average"), ("stdDev", "std_dev")):
        if rule.get(attr) is not None:
            out[key] = rule.get(attr)
    dxf = rule.get("dxfId")
    if dxf is not None:
        try:
            out["style"] = styles.dxfs[int(dxf)]
        except (ValueError, IndexError):
            out["style"] = None
    out.update(_cfvo_colors(rule, styles, ns))
    return out


def read_conditional_formats(
    main: list[etree._Element], x14: list[etree._Element], styles: Stylesheet
) -> list[dict[str, Any]]:
    out = []
    for cf in main:
        ranges = cf.get("sqref", "")
        for rule in cf.iterfind(f"{NS}cfRule"):
            out.append(_rule(rule, ranges, styles, NS, f"{NS}formula"))
    for cf in x14:
        ranges = cf.findtext(f"{XM}sqref") or ""
        for rule in cf.iterfind(f"{X14}cfRule"):
            item = _rule(rule, ranges, styles, X14, f"{XM}f")
            dxf = rule.find(f"{X14}dxf")
            if dxf is not None and item.get("style") is None:
                from .styles import _dxf

                item["style"] = _dxf(dxf, styles.colours, {})
            item["x14"] = True
            out.append(item)
    return sorted(out, key=lambda r: r["priority"])


def read_table(root: etree._Element) -> dict[str, Any]:
    """A table part: name, display name, range, header/totals rows, columns, style."""
    style = root.find(f"{NS}tableStyleInfo")
    flags = {}
    if style is not None:
        for attr, key in (("showRowStripes", "row_stripes"), ("showColumnStripes", "column_stripes"),
                          ("showFirstColumn", "first_column"), ("showLastColumn", "last_column")):
            flags[key] = style.get(attr) in ("1", "true")
    return {
        "name": root.get("displayName") or root.get("name"),
        "ref": root.get("ref"),
        "header_row_count": int(root.get("headerRowCount", "1") or 1),
        "totals_row_count": int(root.get("totalsRowCount", "0") or 0),
        "columns": [c.get("name") for c in root.iterfind(f"{NS}tableColumns/{NS}tableColumn")],
        "style": style.get("name") if style is not None else None,
        "style_flags": flags,
        "autofilter": root.find(f"{NS}autoFilter") is not None,
        **_table_sort(root),
    }


def _table_sort(root: etree._Element) -> dict[str, Any]:
    """A table's sort (``sortState`` in its autoFilter or on the table), as ``filters.py``
    reads it: ``{"sort_state": ...}`` or nothing."""
    el = root.find(f"{NS}autoFilter/{NS}sortState")
    if el is None:
        el = root.find(f"{NS}sortState")
    sort = read_sort_state(el)
    return {"sort_state": sort} if sort and sort["conditions"] else {}


def read_comments(root: etree._Element) -> list[tuple[str, str | None, str]]:
    """(cell ref, author, text) of a legacy comments part."""
    authors = [a.text or "" for a in root.iterfind(f"{NS}authors/{NS}author")]
    out = []
    for c in root.iterfind(f"{NS}commentList/{NS}comment"):
        try:
            author: str | None = authors[int(c.get("authorId", "-1"))]
        except (ValueError, IndexError):
            author = None
        text_el = c.find(f"{NS}text")
        text = "".join(t.text or "" for t in text_el.iter(f"{NS}t")) if text_el is not None else ""
        out.append((c.get("ref", ""), author, text))
    return out
