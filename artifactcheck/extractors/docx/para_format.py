"""Paragraph geometry of WordprocessingML: spacing, line spacing, indents, tab stops and
the keep/widow flags, resolved through the style chain like any paragraph property.

A ``w:pPr`` becomes a *layer* (:func:`geometry_layer`): a dict holding only what that
``w:pPr`` states, attribute by attribute, so a style that states ``w:spacing
w:after`` keeps the ``w:before`` of the style it is based on (ECMA-376 17.3.1.33).
Layers merge lowest priority first with :func:`merge_layer`; tab stops merge position
by position, a ``w:tab w:val="clear"`` removing the stop an earlier layer set there
(17.3.1.37). :func:`geometry_attrs` turns the merged layer into tree attributes.

Units: points (``w:spacing``, ``w:ind``, ``w:tab`` are twentieths of a point).
``line_spacing`` is a multiple of single spacing when the rule is ``multiple``
(``w:lineRule="auto"``: ``w:line`` in 240ths of a line) and points for ``exact`` and
``at_least``. Absent everywhere: spacing 0, single line spacing, indents 0, no tab stops,
keep/widow flags off (the spec's defaults; Word's templates state their own in
``w:docDefaults`` or the Normal style, which the chain picks up).
"""

from __future__ import annotations

from typing import Any

from lxml import etree

from .package import W_NS, is_on

W = f"{{{W_NS}}}"

AUTO_SPACING_PT = 14.0
"""What ``w:beforeAutospacing``/``w:afterAutospacing`` give: Word's HTML paragraph
spacing (14 pt before and after)."""

_TAB_ALIGN: dict[str, str] = {
    "left": "left",
    "start": "left",
    "center": "center",
    "right": "right",
    "end": "right",
    "decimal": "decimal",
    "bar": "bar",
    "num": "left",  # a list tab: behaves as a left stop
}
_LEADERS = {"none", "dot", "hyphen", "underscore", "heavy", "middleDot"}
_LINE_RULE = {"auto": "multiple", "exact": "exact", "atLeast": "at_least"}
_FLAGS = (
    ("keep_with_next", "keepNext"),
    ("keep_lines", "keepLines"),
    ("widow_control", "widowControl"),
    ("contextual_spacing", "contextualSpacing"),
)


def _twips(el: etree._Element, *names: str) -> float | None:
    """The first of ``names`` (qualified attribute names: ``_LEFT``...) that ``el``
    states, twips -> points; None if none parse."""
    for name in names:
        raw = el.get(name)
        if raw is None:
            continue
        try:
            return float(raw) / 20.0
        except ValueError:
            return None
    return None


# The attribute names the readers below ask for, qualified once: building each with an
# f-string per call cost about as much as the read (tens of thousands of w:ind and w:spacing).
_START, _LEFT, _END, _RIGHT, _HANGING, _FIRST_LINE = (
    f"{W}{a}" for a in ("start", "left", "end", "right", "hanging", "firstLine")
)
_SPACING_SIDES = tuple(
    (key, f"{W}{attr}Autospacing", f"{W}{attr}")
    for key, attr in (("space_before", "before"), ("space_after", "after"))
)
_LINE, _LINE_RULE_ATTR, _TAB, _POS, _VAL, _LEADER = (
    f"{W}{a}" for a in ("line", "lineRule", "tab", "pos", "val", "leader")
)


def geometry_layer(ppr: etree._Element | None) -> dict[str, Any]:
    """What one ``w:pPr`` (or a numbering level's ``w:pPr``) states about geometry.

    Keys: ``space_before``/``space_after`` (pt), ``space_before_auto``/
    ``space_after_auto``, ``line`` (raw ``w:line``), ``line_rule``, ``ind_left``/
    ``ind_right`` (pt), ``ind_first`` (pt: positive first-line indent, negative hanging
    indent; one key, because a layer stating either replaces the other), ``tabs`` (tuple
    of ``(position_pt, align or "clear", leader)``), and the flags of ``_FLAGS``. One
    pass over the children: a long document has tens of thousands of ``w:pPr``
    (``styles.read_ppr`` makes this same pass itself, with :data:`GEOMETRY_READERS`)."""
    out: dict[str, Any] = {}
    if ppr is None:
        return out
    for child in ppr:
        reader = GEOMETRY_READERS.get(child.tag)
        if reader is not None:
            reader(child, out)
    return out


def _spacing(sp: etree._Element, out: dict[str, Any]) -> None:
    for key, auto_attr, attr in _SPACING_SIDES:
        auto = _on_attr(sp.get(auto_attr))
        if auto is not None:
            out[f"{key}_auto"] = auto
        value = _twips(sp, attr)
        if value is not None:
            out[key] = value
    raw_line = sp.get(_LINE)
    if raw_line is not None:
        try:
            out["line"] = int(float(raw_line))
            out["line_rule"] = sp.get(_LINE_RULE_ATTR) or "auto"
        except ValueError:
            pass


def _indent(ind: etree._Element, out: dict[str, Any]) -> None:
    # _twips(ind, _START, _LEFT) and so on, the reads unrolled: most paragraphs state a
    # w:ind, and the generic loop was most of the cost of reading one
    get = ind.get
    raw = get(_START)
    left = _points(raw if raw is not None else get(_LEFT))
    raw = get(_END)
    right = _points(raw if raw is not None else get(_RIGHT))
    if left is not None:
        out["ind_left"] = left
    if right is not None:
        out["ind_right"] = right
    # w:hanging wins over w:firstLine when both are stated (17.3.1.12)
    hanging = _points(get(_HANGING))
    first = _points(get(_FIRST_LINE))
    if hanging is not None:
        out["ind_first"] = -hanging
    elif first is not None:
        out["ind_first"] = first


def _points(raw: str | None) -> float | None:
    """A stated twips value in points; None when absent or malformed (as :func:`_twips`)."""
    if raw is None:
        return None
    try:
        return float(raw) / 20.0
    except ValueError:
        return None


def _tabs(tabs: etree._Element, out: dict[str, Any]) -> None:
    stops: list[tuple[float, str, str]] = []
    for tab in tabs.findall(_TAB):
        pos = _twips(tab, _POS)
        val = tab.get(_VAL) or "left"
        if pos is None:
            continue
        align = "clear" if val == "clear" else _TAB_ALIGN.get(val, "left")
        leader = tab.get(_LEADER) or "none"
        stops.append((pos, align, leader if leader in _LEADERS else "none"))
    out["tabs"] = tuple(stops)


def _flag(key: str) -> Any:
    def read(el: etree._Element, out: dict[str, Any]) -> None:
        out[key] = bool(is_on(el))

    return read


# Child tag of a w:pPr -> the reader adding what that child states to a geometry layer.
GEOMETRY_READERS: dict[str, Any] = {
    f"{W}spacing": _spacing,
    f"{W}ind": _indent,
    f"{W}tabs": _tabs,
    **{f"{W}{tag}": _flag(key) for key, tag in _FLAGS},
}


def _on_attr(raw: str | None) -> bool | None:
    if raw is None:
        return None
    return raw.lower() not in ("0", "false", "off")


def merge_layer(dst: dict[str, Any], src: dict[str, Any]) -> None:
    """Lay ``src`` over ``dst`` in place: plain keys replace, tab stops merge by position
    (a stop at the same position replaces the earlier one; ``clear`` removes it)."""
    tabs = src.get("tabs")
    if tabs is None:
        dst.update(src)
        return
    merged = {pos: (pos, align, leader) for pos, align, leader in dst.get("tabs", ())}
    for pos, align, leader in tabs:
        if align == "clear":
            merged.pop(pos, None)
        else:
            merged[pos] = (pos, align, leader)
    dst.update(src)
    dst["tabs"] = tuple(merged[p] for p in sorted(merged))


_GEOMETRY_KEYS = (
    "space_before",
    "space_after",
    "space_before_auto",
    "space_after_auto",
    "line",
    "line_rule",
    "ind_left",
    "ind_right",
    "ind_first",
    "tabs",
    *(key for key, _tag in _FLAGS),
)
_ATTRS_CACHE: dict[tuple[Any, ...], dict[str, Any]] = {}


def geometry_attrs(props: dict[str, Any]) -> dict[str, Any]:
    """Tree attributes of a paragraph from its merged geometry (always the numbers;
    the flags and ``tab_stops`` only when set). A fresh dict each call; its values are
    shared between paragraphs with the same geometry (a document has few)."""
    key = tuple(props.get(k) for k in _GEOMETRY_KEYS)
    got = _ATTRS_CACHE.get(key)
    if got is None:
        if len(_ATTRS_CACHE) > 4096:
            _ATTRS_CACHE.clear()
        got = _ATTRS_CACHE[key] = _geometry_attrs(props)
    return dict(got)


def _geometry_attrs(props: dict[str, Any]) -> dict[str, Any]:
    before = AUTO_SPACING_PT if props.get("space_before_auto") else props.get("space_before", 0.0)
    after = AUTO_SPACING_PT if props.get("space_after_auto") else props.get("space_after", 0.0)
    rule = _LINE_RULE.get(str(props.get("line_rule", "auto")), "multiple")
    line = props.get("line")
    if line is None:
        spacing = 1.0
        rule = "multiple"
    elif rule == "multiple":
        spacing = line / 240.0
    else:
        spacing = line / 20.0
    first = float(props.get("ind_first", 0.0))
    out: dict[str, Any] = {
        "space_before": round(float(before), 2),
        "space_after": round(float(after), 2),
        "line_spacing": round(spacing, 4),
        "line_spacing_rule": rule,
        "indent_left": round(float(props.get("ind_left", 0.0)), 2),
        "indent_right": round(float(props.get("ind_right", 0.0)), 2),
        "indent_first_line": round(first, 2) if first > 0 else 0.0,
        "indent_hanging": round(-first, 2) if first < 0 else 0.0,
    }
    stops = [
        {"position": round(pos, 2), "align": align, "leader": leader}
        for pos, align, leader in props.get("tabs", ())
        if align != "clear"
    ]
    if stops:
        out["tab_stops"] = stops
    for key, _tag in _FLAGS:
        if props.get(key):
            out[key] = True
    return out
