"""Formatting checks on the effective style of the tree: bold, italic, underline, strike,
font family, size, colour, highlight, fill, alignment and list style.

Properties are read where they live (``target.style_units``): character properties on
each run with visible text, paragraph properties on paragraphs, fill on the node. The
result says, per run, which property failed and what it was; the score is the fraction
of (run, property) pairs satisfied, and the status is pass only when all are.

Styles are the ones a reader sees (``layer: displayed``): a spreadsheet cell's table
style, conditional formatting and number-format colour included, with the layer that
set a checked property in the evidence (``style_source``), a slide link's theme colour,
and slide text at the size its autofit shrink draws it; ``layer: direct`` reads the
node's own format (design/xlsx-display.md, design/pptx-geometry.md).
"""

from __future__ import annotations

import builtins
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..model import Document, Node
from .color import DEFAULT_TOLERANCE, match_color, theme_of, theme_slot
from .layout import ensure_layout_for
from .registry import Resources, register_check
from .result import CheckResult
from .target import (
    StyleLayer,
    TargetSpec,
    cap_rows,
    layer_style,
    no_match,
    node_ref,
    select_targets,
    style_units,
)

# Fonts that render the same text with the same metrics. LibreOffice substitutes the
# right-hand names for the Office fonts, and Google Docs exports may name either, so
# "Calibri" and "Carlito" are the same choice of font. Case and spacing are ignored.
FONT_ALIASES: tuple[frozenset[str], ...] = (
    frozenset({"calibri", "carlito"}),
    frozenset({"cambria", "caladea"}),
    frozenset({"arial", "liberation sans", "arimo", "helvetica"}),
    frozenset({"times new roman", "liberation serif", "tinos", "times"}),
    frozenset({"courier new", "liberation mono", "cousine", "courier"}),
    frozenset({"georgia", "gelasio"}),
)
_FONT_GROUP: dict[str, frozenset[str]] = {name: group for group in FONT_ALIASES for name in group}

ListStyle = Literal["bullet", "numbered", "none"]
Align = Literal["left", "center", "right", "justify", "distributed", "fill", "general"]
VAlign = Literal["top", "middle", "bottom", "justify", "distributed"]


def fonts_match(actual: str | None, expected: str, *, aliases: bool = True) -> bool:
    """Font family equality, case- and space-insensitive, with metric-compatible aliases.

    >>> fonts_match("Carlito", "calibri"), fonts_match("Arial", "Calibri")
    (True, False)
    """
    if actual is None:
        return False
    a = " ".join(actual.lower().split())
    e = " ".join(expected.lower().split())
    if a == e:
        return True
    return aliases and a in _FONT_GROUP and e in _FONT_GROUP[a]


class StyleExpectation(BaseModel):
    """The properties to check; each left out (None) is not checked. Colours take any
    spec ``color.resolve_color`` reads (``theme:accent 2`` = the file's own theme), or
    ``"none"`` for "not set"."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    bold: bool | None = Field(default=None, description="text is (true) or is not (false) bold")
    italic: bool | None = Field(default=None, description="text is (not) italic")
    underline: bool | None = Field(default=None, description="text is (not) underlined")
    strike: bool | None = Field(default=None, description="text is (not) struck through")
    font: str | None = Field(default=None, description="font family (metric-compatible aliases count, see font_aliases)")
    size: float | None = Field(default=None, gt=0, description="font size in points, within size_tolerance")
    size_min: float | None = Field(default=None, gt=0, description="font size at least this many points (inclusive)")
    size_max: float | None = Field(default=None, gt=0, description="font size at most this many points (inclusive)")
    color: str | None = Field(default=None, description="text colour: a name ('dark cyan 1'), #rrggbb, or 'none'")
    highlight: str | None = Field(default=None, description="highlight colour, or 'none'")
    fill: str | None = Field(default=None, description="cell or shape fill colour, or 'none'")
    align: Align | None = Field(default=None, description="horizontal alignment of the paragraph or cell")
    valign: VAlign | None = Field(default=None, description="vertical alignment of the cell or shape")
    baseline: Literal["superscript", "subscript", "none"] | None = Field(default=None, description="superscript, subscript or normal")
    list: ListStyle | None = Field(default=None, description="the paragraph is a bullet or numbered list item, or not a list item")
    list_level: int | None = Field(default=None, ge=0, description="list level (0 = top)")
    list_level_min: int | None = Field(default=None, ge=0, description="list level at least this (0 = top)")
    list_level_max: int | None = Field(default=None, ge=0, description="list level at most this")
    list_format: str | None = Field(
        default=None, description="numbering format as the extractor names it, e.g. decimal"
    )
    size_tolerance: float = Field(default=0.5, ge=0, description="size: allowed difference in points (bounds are exact)")
    color_tolerance: float = Field(default=DEFAULT_TOLERANCE, ge=0, description="CIEDE2000 distance a colour may be from the expected one")
    font_aliases: bool = Field(default=True, description="metric-compatible fonts count as the same (Carlito = Calibri)")
    layer: StyleLayer = Field(
        default="displayed",
        description="displayed: what a reader sees (a cell's table style, conditional format and number-format colour, a slide link's theme colour included); direct: the node's own format",
    )

    def checked(self) -> builtins.list[str]:  # the field `list` shadows the builtin here
        names = (
            "bold",
            "italic",
            "underline",
            "strike",
            "font",
            "size",
            "size_min",
            "size_max",
            "color",
            "highlight",
            "fill",
            "align",
            "valign",
            "baseline",
            "list",
            "list_level",
            "list_level_min",
            "list_level_max",
            "list_format",
        )
        return [n for n in names if getattr(self, n) is not None]


BOUNDS = {"size_min": "size", "size_max": "size", "list_level_min": "list_level", "list_level_max": "list_level"}
"""Numeric bounds and the property each bounds."""


def _actual(unit: Node, prop: str, layer: StyleLayer = "displayed") -> Any:
    prop = BOUNDS.get(prop, prop)
    if prop == "list":
        level = unit.attrs.get("list_level")
        if level is None:
            return "none"
        return "numbered" if unit.attrs.get("list_ordered") else "bullet"
    if prop in ("list_level",):
        return unit.attrs.get("list_level")
    if prop == "list_format":
        return unit.attrs.get("list_format", unit.attrs.get("num_format"))
    style = layer_style(unit, layer)
    value = getattr(style, prop, None) if style is not None else None
    if prop == "align" and layer == "displayed":
        return shown_align(unit, value)
    if prop == "size" and layer == "displayed" and isinstance(value, (int, float)):
        scale = drawn_font_scale(unit)
        if scale is not None:
            return round(float(value) * scale, 2)
    return value


GENERAL_ALIGN = {"number": "right", "date": "right", "bool": "center", "error": "center", "string": "left"}
"""Where a sheet draws a cell aligned General, by the type of its value: numbers and
dates right, logicals and errors centred, text left (Excel's rule, and LibreOffice draws
it so). A number stored as text is text: drawn left."""


def shown_align(unit: Node, stated: Any) -> Any:
    """The horizontal alignment a reader sees: a spreadsheet cell left at General (what
    openpyxl and most agents leave) is drawn by its value's type, so "the numbers are
    right-aligned" holds for numbers nobody aligned. Anything else is as stated. An empty
    cell stays ``general``."""
    if stated not in (None, "general") or unit.kind != "cell":
        return stated
    return GENERAL_ALIGN.get(str(unit.attrs.get("data_type")), stated)


def text_frame(unit: Node) -> Node | None:
    """The slide shape, text box or table cell whose frame holds ``unit``'s text."""
    if unit.kind in _FRAME_KINDS:
        return unit
    return next((a for a in unit.ancestors() if a.kind in _FRAME_KINDS), None)


_FRAME_KINDS = frozenset({"shape", "textbox", "cell"})


def drawn_font_scale(unit: Node) -> float | None:
    """How much smaller than stated the render drew the text of ``unit``'s frame (a
    slide's autofit shrink, ``drawn_font_scale`` after a layout), or None: a reader
    sees 18 pt text shrunk to 11 pt as 11 pt, whatever the file states."""
    frame = text_frame(unit)
    scale = frame.attrs.get("drawn_font_scale") if frame is not None else None
    return float(scale) if isinstance(scale, (int, float)) and not isinstance(scale, bool) else None


def ensure_drawn_sizes(doc: Document, nodes: list[Node]) -> None:
    """Attach a deck's deferred layout when one of ``nodes`` is text LibreOffice shrinks
    to its frame (the frame's own ``normAutofit``; an inherited one is drawn at full
    size), so sizes are judged as drawn. Raises what the render raised (``error``)."""
    frames = {
        id(f): f
        for n in nodes
        for u in style_units(n, "size")
        if (f := text_frame(u)) is not None and f.attrs.get("autofit") == "shrink" and "autofit_from" not in f.attrs
    }
    if frames:
        ensure_layout_for(doc, list(frames.values()), frames=True)


def check_property(unit: Node, prop: str, want: StyleExpectation) -> dict[str, Any]:
    """One (node, property) verdict: ``{"property", "expected", "actual", "ok", ...}``."""
    expected = getattr(want, prop)
    actual = _actual(unit, prop, "direct" if prop == "align" and expected == "general" else want.layer)
    out: dict[str, Any] = {"property": prop, "expected": expected, "actual": actual}
    sources = unit.attrs.get("style_sources")
    if want.layer == "displayed" and isinstance(sources, dict) and prop in sources:
        out["style_source"] = sources[prop]
    painted = unit.attrs.get("color_stated_rgb") if prop == "color" else None
    if isinstance(painted, str):
        # the file states two colours: the theme's (Word, and this verdict) and w:val
        out["libreoffice_paints"] = painted
    if prop == "align" and expected != "general" and actual != _actual(unit, prop, "direct"):
        out["style_source"] = f"general alignment of a {unit.attrs.get('data_type')} value"
        out["stated"] = "general"
    if BOUNDS.get(prop, prop) == "size" and want.layer == "displayed" and (scale := drawn_font_scale(unit)) is not None:
        out["style_source"] = "autofit_shrink"  # drawn shrunk to fit its frame
        out["stated"] = getattr(unit.style, "size", None)
        out["drawn_font_scale"] = scale
    if prop in ("color", "highlight", "fill"):
        if str(expected).strip().lower() == "none":
            out["ok"] = actual is None
        elif actual is None:
            out["ok"] = False
        else:
            m = match_color(actual, expected, tolerance=want.color_tolerance, theme=theme_of(unit))
            out.update(ok=m.ok, **m.evidence())
            slot = theme_slot(unit, prop, layer_style(unit, want.layer))
            if slot is not None:
                out["actual_theme"] = slot
    elif prop == "font":
        out["ok"] = fonts_match(actual, expected, aliases=want.font_aliases)
    elif prop == "size":
        out["ok"] = actual is not None and abs(float(actual) - expected) <= want.size_tolerance
        out["tolerance"] = want.size_tolerance
    elif prop in BOUNDS:
        number = actual if isinstance(actual, (int, float)) and not isinstance(actual, bool) else None
        if prop.endswith("_min"):
            out["ok"] = number is not None and number >= expected
        else:
            out["ok"] = number is not None and number <= expected
    elif prop in ("bold", "italic", "underline", "strike"):
        # None means "not stated and no default": for these flags Office's default is off.
        out["ok"] = bool(actual) == expected
    elif prop == "baseline":
        out["ok"] = (actual or "none") == expected
    elif prop == "list_format":
        out["ok"] = actual is not None and str(actual).lower() == str(expected).lower()
    else:
        out["ok"] = actual == expected
    return out


def evaluate_style(
    nodes: list[Node], want: StyleExpectation
) -> tuple[list[dict[str, Any]], int, int]:
    """Per-unit verdicts for every checked property: (rows, satisfied pairs, pairs)."""
    target = getattr(want, "target", None)  # selected by text: judge the matched words
    rows: list[dict[str, Any]] = []
    by_unit: dict[int, dict[str, Any]] = {}
    ok = total = 0
    for node in nodes:
        for prop in want.checked():
            for unit in style_units(node, BOUNDS.get(prop, prop), target):
                row = by_unit.get(id(unit))
                if row is None:
                    row = {**node_ref(unit), "failed": [], "checked": []}
                    by_unit[id(unit)] = row
                    rows.append(row)
                if prop in row["checked"]:
                    continue
                verdict = check_property(unit, prop, want)
                row["checked"].append(prop)
                total += 1
                if verdict["ok"]:
                    ok += 1
                else:
                    row["failed"].append(verdict)
    return rows, ok, total


class FormatIsParams(StyleExpectation):
    """Parameters of ``format_is``: a target and the properties it must have."""

    target: TargetSpec


@register_check(
    "format_is",
    mechanism="exact",
    # sizes and colours are compared within a tolerance (design/checks-text-color.md)
    mechanism_when={"size": "tolerance", "color": "tolerance", "highlight": "tolerance", "fill": "tolerance"},
    params=FormatIsParams,
    example={
        "target": {"link": "example.org"},
        "bold": True,
        "italic": True,
        "color": "dark cyan 1",
        "size": 12,
    },
)
def format_is(doc: Document, params: FormatIsParams, resources: Resources) -> CheckResult:
    """Every run of the target has the given formatting (bold, italic, font, size, colour, alignment, list ...).

    Each property given is checked on the nodes that decide it (runs for character
    properties, paragraphs for alignment and lists, the node itself for fill). ``size``
    allows ``size_tolerance``; the bounds ``size_min``/``size_max`` and
    ``list_level_min``/``list_level_max`` are inclusive and exact ("at least 12 pt":
    ``size_min: 12``).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("format_is", tiny_doc(), {"target": {"link": "example.org/report"},
    ...     "bold": True, "italic": True, "color": "dark cyan 1", "size": 12}).status
    'pass'
    >>> r = run_check("format_is", tiny_doc(), {"target": {"selector": "paragraph", "text": "Read the"}, "bold": True})
    >>> r.status, r.score
    ('fail', 0.333...)
    """
    checked = params.checked()
    if not checked:
        raise ValueError("format_is needs at least one property to check (bold, size, color, ...)")
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("format_is", params.target, "exact", units=[], properties=checked)
    if any(BOUNDS.get(p, p) == "size" for p in checked) and params.layer == "displayed":
        ensure_drawn_sizes(doc, nodes)
    rows, ok, total = evaluate_style(nodes, params)
    mechanism: Any = (
        "tolerance"
        if any(p in checked for p in ("size", "color", "highlight", "fill"))
        else "exact"
    )
    failures = [(r["id"], f["property"], f["actual"], f.get("style_source")) for r in rows for f in r["failed"]]
    if failures:
        # Name the layer a displayed value came from: "drawn blue" is only half an answer
        # when the agent set the run's own colour and a link or conditional format won.
        shown = "; ".join(
            f"{i} {p}={a!r}" + (f" (from the {src.replace('_', ' ')})" if src else "") for i, p, a, src in failures[:4]
        )
        explanation = f"{ok}/{total} (run, property) pairs hold; failing: {shown}"
        if len(failures) > 4:
            explanation += f" and {len(failures) - 4} more"
        painted = next((f["libreoffice_paints"] for r in rows for f in r["failed"] if "libreoffice_paints" in f), None)
        if painted is not None:
            explanation += (
                f"; the file also states {painted} for that text (w:val beside a theme colour): Word draws the theme"
                f" colour, as judged here, LibreOffice 7.4 paints {painted}"
            )
    else:
        explanation = f"all {len(rows)} run(s)/node(s) have {', '.join(checked)} as expected"
    return CheckResult(
        check="format_is",
        status="pass" if not failures else "fail",
        mechanism=mechanism,
        score=ok / total if total else 0.0,
        explanation=explanation,
        evidence={
            "units": cap_rows(rows),
            "units_total": len(rows),
            "properties": checked,
            "satisfied": ok,
            "total": total,
            "expected": {p: getattr(params, p) for p in checked},
            "tolerances": {
                "size_pt": params.size_tolerance,
                "color_delta_e2000": params.color_tolerance,
                "font_aliases": params.font_aliases,
            },
        },
    )


FlagProperty = Literal["bold", "italic", "underline", "strike", "highlight", "color"]


class OnlyFormattedParams(BaseModel):
    """Parameters of ``only_formatted``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    property: FlagProperty = "bold"
    value: bool | str = Field(
        default=True, description="True for flags; a colour spec for color/highlight"
    )
    allowed: TargetSpec = Field(description="the only nodes that may have the property")
    scope: TargetSpec | None = Field(
        default=None, description="where to look (default: every run outside headings)"
    )
    require_allowed: bool = Field(default=True, description="the allowed nodes must have it too")
    color_tolerance: float = Field(default=DEFAULT_TOLERANCE, ge=0)
    layer: StyleLayer = Field(default="displayed", description="displayed (what a reader sees) or direct")


@register_check(
    "only_formatted",
    mechanism="exact",
    params=OnlyFormattedParams,
    example={
        "property": "bold",
        "allowed": {"link": "example.org"},
        "scope": "paragraph:not([heading_level])",
    },
)
def only_formatted(doc: Document, params: OnlyFormattedParams, resources: Resources) -> CheckResult:
    """Only the allowed nodes have the property: e.g. "only the hyperlink is bold" (no other run is bold).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("only_formatted", tiny_doc(), {"allowed": {"link": "example.org"},
    ...     "scope": "paragraph:not([heading_level]):not(table paragraph)"}).status
    'pass'
    >>> run_check("only_formatted", tiny_doc(), {"allowed": {"link": "example.org"}}).status
    'fail'
    """
    allowed_nodes = select_targets(doc, params.allowed)
    allowed_units = {id(u): u for n in allowed_nodes for u in style_units(n, params.property, params.allowed)}
    if params.scope is None:
        # Headings are bold (or coloured) by their style, not by the author's choice:
        # "only the link is bold" is about body text, so heading runs are left out.
        scope_units = [
            r
            for r in doc.iter("run")
            if r.text.strip()
            and not (r.parent is not None and r.parent.attrs.get("heading_level") is not None)
        ]
        if not scope_units:  # a spreadsheet: cells carry the style
            scope_units = [c for c in doc.iter("cell") if c.text.strip()]
    else:
        scope_units = [
            u for n in select_targets(doc, params.scope) for u in style_units(n, params.property)
        ]

    def has(unit: Node) -> bool:
        style = layer_style(unit, params.layer)
        actual = getattr(style, params.property, None) if style is not None else None
        if params.property in ("color", "highlight"):
            if actual is None:
                return False
            return match_color(
                actual, str(params.value), tolerance=params.color_tolerance, theme=theme_of(unit)
            ).ok
        return bool(actual) == bool(params.value)

    intruders = [u for u in scope_units if id(u) not in allowed_units and has(u)]
    missing = [u for u in allowed_units.values() if not has(u)] if params.require_allowed else []
    problems = []
    if not allowed_nodes and params.require_allowed:
        problems.append(f"no node matches the allowed target {params.allowed.describe()}")
    if missing:
        problems.append(f"{len(missing)} allowed run(s) lack it")
    if intruders:
        problems.append(
            f"{len(intruders)} other run(s) have it, e.g. {intruders[0].id} {intruders[0].text[:40]!r}"
        )
    halves = [not intruders] + (
        [not missing and bool(allowed_nodes)] if params.require_allowed else []
    )
    passed = all(halves)
    return CheckResult(
        check="only_formatted",
        status="pass" if passed else "fail",
        mechanism="exact",
        score=sum(halves) / len(halves),
        explanation=(
            f"only the allowed {len(allowed_units)} run(s) have {params.property}={params.value!r}"
            if passed
            else "; ".join(problems)
        ),
        evidence={
            "allowed": [node_ref(u) for u in allowed_units.values()],
            "intruders": [node_ref(u) for u in intruders[:50]],
            "intruder_count": len(intruders),
            "missing": [node_ref(u) for u in missing[:50]],
            "scope_size": len(scope_units),
        },
    )
