"""Colour: parse what a rubric writes, measure CIEDE2000 distance, classify to names.

Specs a rubric may write (``resolve_color``):

- ``#rgb`` / ``#rrggbb`` (or the 6 hex digits alone), ``rgb(0, 139, 139)``, ``hsl(...)``
  and any other CSS colour syntax coloraide reads;
- CSS names (``darkcyan``);
- Google Docs palette names (``dark cyan 1``, ``light red 2``, ``dark grey 4``); both
  spellings of the swapped light-yellow pair are accepted (see ``palettes.py``);
- Office theme names (``accent 1``, ``Blue, Accent 1, Lighter 40%``, ``text 2``,
  ``hyperlink``) of the default 2013-2022 theme, ``office2007:``/``office2023:`` prefixes
  for the other defaults, Office standard colours (``dark red``), Word highlight names
  (``dark cyan``, prefix ``word:``).

- ``theme:`` + an Office theme name (``theme:accent 2``, ``theme:Accent2, Lighter 40%``,
  ``theme:text 1``, ``theme:tx1``, ``theme:dk2``, ``theme:hyperlink``): that slot of the
  *file's own* theme (the ``theme_colors`` the extractor records), with Office's
  lighter/darker arithmetic. A document without a theme makes such a spec an error.

A name may mean several colours (``green`` is #00ff00 in Google's palette, #008000 in
CSS, #00b050 in Office): an unprefixed name resolves to every candidate and a match with
any of them counts; the evidence says which one matched. A prefix (``google:``, ``css:``,
``office:``, ``word:``) restricts the lookup to one vocabulary.

Distances are CIEDE2000 (coloraide, ``method="2000"``) on sRGB colours; 0 is identity,
about 2.3 is a just-noticeable difference, palette neighbours differ by 5-20.

Colours are read from the style a reader sees (``layer: displayed``): for spreadsheet
cells that includes table styles, conditional formatting and ``[Red]``-style number
formats; ``layer: direct`` reads the node's own format.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..model import Document, Node
from .palettes import (
    GOOGLE_ALTERNATES,
    GOOGLE_PALETTE,
    OFFICE_SLOT_ALIASES,
    OFFICE_STANDARD,
    OFFICE_THEMES,
    WORD_HIGHLIGHT,
)
from .registry import Resources, register_check
from .result import CheckResult
from .target import (
    StyleLayer,
    Target,
    TargetSpec,
    cap_rows,
    deepest,
    layer_style,
    no_match,
    node_ref,
    runs_holding_match,
    select_targets,
    style_units,
    text_matches,
)

if TYPE_CHECKING:
    # coloraide is imported where a colour is parsed (design/startup.md)
    from coloraide import Color

Vocabulary = Literal["google", "office", "css", "word"]
ColorProperty = Literal["color", "highlight", "fill"]
ColorIsProperty = Literal["color", "highlight", "fill", "background"]

DEFAULT_TOLERANCE = 2.0
"""Default CIEDE2000 tolerance for "is this colour": above rounding noise of tints and
theme colours (< 1), below a just-noticeable difference (~2.3). It cannot be larger:
some Google palette neighbours are closer than 5 (light gray 3 vs white: 2.4; red berry
vs dark red 2: 0.2)."""

DEFAULT_MIN_DISTANCE = 5.0
"""Default CIEDE2000 distance below which two colours count as "the same colour" for
distinctness: a reader cannot tell them apart at a glance."""

_HEX6 = re.compile(r"^#?([0-9a-fA-F]{6})$")
_HEX3 = re.compile(r"^#([0-9a-fA-F]{3})$")
_OFFICE_MOD = re.compile(r"^(lighter|darker)\s+(\d{1,3})\s*%$")


@dataclass(frozen=True)
class NamedColor:
    """One reading of a colour spec: the hex value, and the name and vocabulary it
    came from (``hex`` for literal values)."""

    hex: str
    name: str
    vocabulary: str


# -- parsing --------------------------------------------------------------------------------


def format_color(hex_value: str) -> str:
    """Canonical form of a colour: ``#rrggbb`` lower-case.

    >>> format_color("#ABC")
    '#aabbcc'
    """
    return resolve_color(hex_value)[0].hex


def to_hex(spec: str) -> str:
    """The first (preferred) reading of ``spec`` as ``#rrggbb``; ValueError when no
    vocabulary knows it.

    >>> to_hex("dark cyan 1"), to_hex("rgb(0, 139, 139)"), to_hex("accent 1")
    ('#45818e', '#008b8b', '#4472c4')
    """
    return resolve_color(spec)[0].hex


_THEME_SPEC = re.compile(r"^\s*theme\s*:\s*(.+)$", re.IGNORECASE)


def resolve_color(spec: str, *, theme: Mapping[str, str] | None = None) -> tuple[NamedColor, ...]:
    """Every colour ``spec`` can mean, preferred first (Google palette, Office theme and
    standard colours, Word highlights, CSS). A ``theme:`` spec resolves against ``theme``
    (a file's ``theme_colors``: slot -> hex). ValueError when nothing matches.

    >>> resolve_color("theme:Accent 2, Darker 25%", theme={"accent2": "#c0504d"})[0].hex
    '#953735'
    """
    m = _THEME_SPEC.match(spec)
    if m is None:
        return _resolve_named(spec)
    if not theme:
        raise ValueError(f"{spec!r} names a colour of the file's theme, but the document has no theme colours")
    return (_resolve_in_theme(m.group(1), tuple(sorted(theme.items()))),)


@lru_cache(maxsize=1024)
def _resolve_in_theme(name: str, theme: tuple[tuple[str, str], ...]) -> NamedColor:
    slots = {OFFICE_SLOT_ALIASES.get(slot.lower(), slot.lower()): hex_ for slot, hex_ in theme}
    found = _office_color_in(_name_key(name), slots)
    if found is None:
        raise ValueError(
            f"unknown theme colour {name!r}: use a slot (accent 1..6, text 1/2, background 1/2, "
            "dark/light 1/2, hyperlink, followed hyperlink), optionally ', lighter N%'/', darker N%'"
        )
    return NamedColor(found, f"theme:{_name_key(name)}", "theme")


@lru_cache(maxsize=2048)
def _resolve_named(spec: str) -> tuple[NamedColor, ...]:
    """Every colour ``spec`` can mean, preferred first (Google palette, Office theme and
    standard colours, Word highlights, CSS). ValueError when nothing matches.

    >>> [c.hex for c in resolve_color("light yellow 2")]
    ['#ffe599', '#ffd966']
    >>> [c.vocabulary for c in resolve_color("green")]
    ['google', 'office', 'css']
    """
    from coloraide import Color
    from coloraide.css import color_names

    raw = spec.strip()
    literal = _parse_literal(raw)
    if literal is not None:
        return (NamedColor(literal, raw, "hex"),)
    vocabulary: str | None = None
    name = raw
    m = re.match(r"^(google|office|office2007|office2023|css|word)\s*:\s*(.+)$", raw, re.IGNORECASE)
    if m:
        vocabulary, name = m.group(1).lower(), m.group(2)
    key = _name_key(name)
    found: list[NamedColor] = []
    if vocabulary in (None, "google"):
        if key in GOOGLE_PALETTE:
            found.append(NamedColor(GOOGLE_PALETTE[key], key, "google"))
        found.extend(
            NamedColor(h, key + " (Docs tooltip)", "google") for h in GOOGLE_ALTERNATES.get(key, ())
        )
    if vocabulary in (None, "office", "office2007", "office2023"):
        theme = vocabulary or "office"
        office = _office_color(key, theme)
        if office is not None:
            found.append(NamedColor(office, key, theme))
        if vocabulary in (None, "office") and key in OFFICE_STANDARD:
            found.append(NamedColor(OFFICE_STANDARD[key], key, "office"))
    if vocabulary in (None, "word") and key in WORD_HIGHLIGHT:
        found.append(NamedColor(WORD_HIGHLIGHT[key], key, "word"))
    if vocabulary in (None, "css"):
        css_key = key.replace(" ", "")
        if color_names.has_name(css_key) and css_key != "transparent":
            found.append(
                NamedColor(Color(css_key).to_string(hex=True, alpha=False), css_key, "css")
            )
    if vocabulary in (None, "google") and re.fullmatch(r"light [a-z ]+", key) and f"{key} 3" in GOOGLE_PALETTE:
        # "light yellow" unnumbered is also each of the palette's light yellows: Sheets'
        # and Excel's theme picker (Gold, Lighter 80% is #fff2cc = light yellow 3) fill
        # with these, and CSS's lone lightyellow (#ffffe0) is 5.7 away from the first
        found.extend(NamedColor(GOOGLE_PALETTE[f"{key} {n}"], f"{key} {n}", "google") for n in (3, 2, 1))
    unique: list[NamedColor] = []
    seen: set[str] = set()
    for c in found:
        if c.hex not in seen:
            seen.add(c.hex)
            unique.append(c)
    if not unique:
        raise ValueError(
            f"unknown colour {spec!r}: not hex, rgb(), CSS, Google palette or Office theme"
        )
    return tuple(unique)


def _parse_literal(raw: str) -> str | None:
    from coloraide import Color

    m = _HEX6.match(raw)
    if m:
        return "#" + m.group(1).lower()
    m = _HEX3.match(raw)
    if m:
        return "#" + "".join(ch * 2 for ch in m.group(1).lower())
    if "(" in raw or re.match(
        r"^#([0-9a-fA-F]{4}|[0-9a-fA-F]{8})$", raw
    ):  # rgb(), #rgba, #rrggbbaa
        try:
            color = Color(raw)
        except ValueError:
            return None
        return color.convert("srgb").fit("srgb").to_string(hex=True, alpha=False)
    return None


def _name_key(name: str) -> str:
    key = name.strip().lower().replace("_", " ").replace("-", " ")
    key = re.sub(r"\bgrey\b", "gray", key)
    key = re.sub(r"\s*,\s*", ", ", key)
    key = re.sub(r"([a-z])(\d)", r"\1 \2", key)  # "dark cyan1" / "accent1"
    return re.sub(r"\s+", " ", key)


def _spaceless_key(name: str) -> str:
    """A name's key with no spaces: CSS writes "lightyellow", an author "light yellow"."""
    return _name_key(name).replace(" ", "")


def _office_color(key: str, theme: str) -> str | None:
    """An Office theme colour with its optional ``Lighter N%`` / ``Darker N%``
    modifier, computed the way Office does (HSL luminance modulation/offset)."""
    return _office_color_in(key, OFFICE_THEMES[theme])


def _office_color_in(key: str, slots: Mapping[str, str]) -> str | None:
    """:func:`_office_color` in a given scheme (UI slot names -> hex)."""
    from coloraide import Color

    parts = [p.strip() for p in key.split(",")]
    slot: str | None = None
    modifier: re.Match[str] | None = None
    for part in parts:
        norm = OFFICE_SLOT_ALIASES.get(part.replace(" ", ""), OFFICE_SLOT_ALIASES.get(part, part))
        if norm in slots:
            slot = norm
        elif _OFFICE_MOD.match(part):
            modifier = _OFFICE_MOD.match(part)
    if slot is None:
        return None
    base = slots[slot]
    if modifier is None:
        return base
    amount = int(modifier.group(2)) / 100.0
    hsl = Color(base).convert("hsl")
    lightness = hsl["lightness"]
    if modifier.group(1) == "lighter":  # lumMod (1 - a), lumOff a
        lightness = lightness * (1 - amount) + amount
    else:  # lumMod (1 - a)
        lightness = lightness * (1 - amount)
    hsl["lightness"] = min(1.0, max(0.0, lightness))
    return hsl.convert("srgb").fit("srgb").to_string(hex=True)


# -- distance and classification ---------------------------------------------------------


@lru_cache(maxsize=8192)
def _lab_color(hex_value: str) -> Color:
    from coloraide import Color

    return Color(hex_value)


@lru_cache(maxsize=65536)
def _delta_e_ordered(a: str, b: str) -> float:
    return float(_lab_color(a).delta_e(_lab_color(b), method="2000"))


def delta_e(a: str, b: str) -> float:
    """CIEDE2000 distance between two colour specs (hex, names, ...); symmetric, 0 for
    the same colour. Each spec uses its first reading.

    >>> delta_e("#ffffff", "white")
    0.0
    >>> round(delta_e("dark cyan 1", "light cyan 1"), 1)
    13.1
    """
    x, y = to_hex(a), to_hex(b)
    if x == y:
        return 0.0
    # CIEDE2000 is symmetric in theory; ordering the pair makes it exactly so in floats.
    return _delta_e_ordered(*sorted((x, y)))


@dataclass(frozen=True)
class ColorMatch:
    """How close an actual colour is to the closest reading of an expected spec."""

    ok: bool
    distance: float
    closest: NamedColor
    tolerance: float

    def evidence(self) -> dict[str, object]:
        return {
            "expected_hex": self.closest.hex,
            "expected_name": self.closest.name,
            "vocabulary": self.closest.vocabulary,
            "delta_e2000": round(self.distance, 3),
            "tolerance": self.tolerance,
        }


def match_color(
    actual: str,
    expected: str,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    theme: Mapping[str, str] | None = None,
) -> ColorMatch:
    """Compare an actual ``#rrggbb`` with every reading of ``expected``; ok when the
    closest is within ``tolerance`` (CIEDE2000, inclusive). ``theme``: the file's theme
    colours, for ``theme:`` specs (:func:`theme_of`).

    >>> match_color("#46818e", "dark cyan 1").ok
    True
    >>> match_color("#ffd966", "light yellow 2").distance
    0.0
    """
    actual_hex = to_hex(actual)
    best: tuple[float, NamedColor] | None = None
    for cand in resolve_color(expected, theme=theme):
        d = delta_e(actual_hex, cand.hex)
        if best is None or d < best[0]:
            best = (d, cand)
    assert best is not None  # resolve_color never returns an empty tuple
    return ColorMatch(best[0] <= tolerance, best[0], best[1], tolerance)


@lru_cache(maxsize=8)
def palette(vocabulary: str) -> tuple[NamedColor, ...]:
    """Every named colour of one vocabulary (``google``, ``office``, ``css``, ``word``,
    or ``all``)."""
    from coloraide import Color
    from coloraide.css import color_names

    out: list[NamedColor] = []
    if vocabulary in ("google", "all"):
        out += [NamedColor(h, n, "google") for n, h in GOOGLE_PALETTE.items()]
    if vocabulary in ("office", "all"):
        out += [NamedColor(h, n, "office") for n, h in OFFICE_THEMES["office"].items()]
        out += [NamedColor(h, n, "office") for n, h in OFFICE_STANDARD.items()]
    if vocabulary in ("word", "all"):
        out += [NamedColor(h, n, "word") for n, h in WORD_HIGHLIGHT.items()]
    if vocabulary in ("css", "all"):
        out += [
            NamedColor(Color(n).to_string(hex=True, alpha=False), n, "css")
            for n in sorted(color_names.name2val_map)
            if n != "transparent"
        ]
    if not out:
        raise ValueError(f"unknown palette {vocabulary!r}; use google, office, css, word or all")
    return tuple(out)


@lru_cache(maxsize=8192)
def nearest_named(color: str, *, vocabulary: str = "google") -> tuple[NamedColor, float]:
    """The named colour closest to ``color`` (CIEDE2000) in one vocabulary, and its
    distance.

    >>> c, d = nearest_named("#46828f"); (c.name, round(d, 1))
    ('dark cyan 1', 0.4)
    """
    hex_value = to_hex(color)
    best = min(palette(vocabulary), key=lambda c: (delta_e(hex_value, c.hex), c.name))
    return best, delta_e(hex_value, best.hex)


# -- the colour of a node ---------------------------------------------------------------


def theme_of(node: Node) -> dict[str, str] | None:
    """The theme colours (slot -> hex) of the file a node comes from: the nearest
    ``theme_colors`` attribute on the node or its ancestors (a slide whose master has
    its own theme may carry one), None when the extractor recorded none."""
    current: Node | None = node
    while current is not None:
        found = current.attrs.get("theme_colors")
        if isinstance(found, dict):
            return {str(k): str(v) for k, v in found.items()}
        current = current.parent
    return None


def theme_slot(node: Node, prop: str, style: object | None = None) -> str | None:
    """``accent2 (lumMod=75000 lumOff=25000)``: the theme slot a node's colour ``prop``
    came from, for evidence; None for literal colours."""
    st = style if style is not None else node.style
    slot = getattr(st, f"{prop}_theme", None) if st is not None else None
    if not slot:
        return None
    mods = getattr(st, f"{prop}_theme_mods", None)
    return f"{slot} ({mods})" if mods else str(slot)



def node_color(
    node: Node, prop: str, layer: StyleLayer = "displayed", target: Target | None = None
) -> tuple[str | None, dict[str, int]]:
    """The colour ``prop`` (color | highlight | fill) that marks a node: the node's own
    style value for runs and fills, else the colour covering most visible characters
    among its coloured runs (a topic paragraph whose first words are highlighted is
    "highlighted in that colour"). Returns ``(hex or None, {hex or "none": characters})``;
    the dict shows mixed colours. ``layer``: the displayed style (default) or the
    node's own (``target.layer_style``). With the ``target`` that selected the node by
    its text, only the runs holding the matched text count.
    """
    node_style = layer_style(node, layer)
    own = getattr(node_style, prop, None) if node_style is not None else None
    if own is not None and (node.kind == "run" or prop == "fill"):
        return own, {own: len(node.text.strip()) or 1}
    matched = runs_holding_match(node, target) if target is not None and node.kind != "run" else None
    runs = [node] if node.kind == "run" else matched or list(node.descendants("run"))
    counts: dict[str, int] = {}
    for run in runs:
        n = len("".join(run.text.split()))
        if n == 0:
            continue
        run_style = layer_style(run, layer)
        value = getattr(run_style, prop, None) if run_style is not None else None
        counts[value or "none"] = counts.get(value or "none", 0) + n
    if not counts:
        return own, ({own: 1} if own else {})
    coloured = {k: v for k, v in counts.items() if k != "none"}
    if not coloured:
        return None, counts
    return max(coloured.items(), key=lambda kv: (kv[1], kv[0]))[0], counts


# -- checks -------------------------------------------------------------------------------


class ColorIsParams(BaseModel):
    """Parameters of ``color_is``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec
    property: ColorIsProperty = Field(
        default="color",
        description="color (text), highlight, fill (cells, shapes), or background: a slide's background colour "
        "(background_color: a solid fill, a gradient's first stop, inherited from the layout or master)",
    )
    expected: str
    tolerance: float = Field(default=DEFAULT_TOLERANCE, ge=0)
    layer: StyleLayer = Field(
        default="displayed",
        description="displayed: what a reader sees (a cell's table style, conditional format and number-format colour, a slide link's theme colour included); direct: the node's own format",
    )
    quantifier: Literal["all", "any"] = "all"


def _background(node: Node) -> tuple[str | None, dict[str, object]]:
    """A slide's background colour and the evidence of where it came from; None with a
    reason for a picture background, no background, or a node that is not a slide."""
    if node.kind != "slide":
        return None, {"reason": f"a {node.kind} has no background (target slides)"}
    info: dict[str, object] = {
        k: node.attrs[k] for k in ("background_type", "background_from") if node.attrs.get(k) is not None
    }
    color = node.attrs.get("background_color")
    if not isinstance(color, str):
        return None, {**info, "reason": f"no background colour ({node.attrs.get('background_type') or 'none'})"}
    return color, info


@register_check(
    "color_is",
    mechanism="tolerance",
    params=ColorIsParams,
    example={"target": {"link": "example.org"}, "property": "color", "expected": "dark cyan 1"},
)
def color_is(doc: Document, params: ColorIsParams, resources: Resources) -> CheckResult:
    """The target's text colour, highlight or fill is the expected colour within a CIEDE2000 tolerance.

    ``expected`` is any colour spec (hex, CSS, Google or Office names); ``theme:accent 2``
    (``theme:text 1``, ``theme:Accent 1, Lighter 40%``) means that slot of the file's own
    theme, not Office's default one. Evidence rows name the theme slot a colour came from
    (``actual_theme``) when the file chose it from its theme.

    ``property: background`` reads each target slide's background colour (a solid fill,
    a gradient's first stop; a picture background has none and fails). With ``all`` the
    score is the share of slides within tolerance: "every slide's background is this
    colour", partially true when some slides are. (OSWorld's
    ``evaluate_presentation_fill_to_rgb_distance`` scores 1 minus the mean RGB distance;
    a share is a score of the same spirit at a perceptual threshold.)

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> r = run_check("color_is", tiny_doc(), {"target": "run[hyperlink]", "expected": "dark cyan 1"})
    >>> r.status, r.evidence["nodes"][0]["delta_e2000"], r.evidence["nodes"][0]["nearest_name"]
    ('pass', 0.0, 'dark cyan 1')
    """
    # ValueError -> status error (bad rubric, or a theme: spec on a file without a theme)
    expected = resolve_color(params.expected, theme=theme_of(doc.root))
    nodes = select_targets(doc, params.target)
    name = "color_is"
    if not nodes:
        return no_match(name, params.target, "tolerance", nodes=[], expected=[c.hex for c in expected])
    # Every run of the target (whitespace-only runs skipped) must have the colour: "the
    # hyperlink is dark cyan 1" is false when one of its runs is black.
    background = params.property == "background"
    units = nodes if background else [u for node in nodes for u in style_units(node, params.property, params.target)]
    rows: list[dict[str, object]] = []
    ok_count = 0
    for unit in units:
        row: dict[str, object] = {**node_ref(unit)}
        if background:
            actual, info = _background(unit)
            row.update(actual=actual, **info)
        else:
            style = layer_style(unit, params.layer)
            actual = getattr(style, params.property, None) if style is not None else None
            row["actual"] = actual
            slot = theme_slot(unit, params.property, style)
            if slot is not None:
                row["actual_theme"] = slot
            sources = unit.attrs.get("style_sources")
            if params.layer == "displayed" and isinstance(sources, dict) and params.property in sources:
                row["style_source"] = sources[params.property]
        if actual is None:
            row.update(ok=False)
            row.setdefault("reason", f"no {params.property} set")
        else:
            m = match_color(actual, params.expected, tolerance=params.tolerance, theme=theme_of(unit))
            row.update(ok=m.ok, **m.evidence())
            nearest, _dist = nearest_named(actual, vocabulary="all")
            row.update(nearest_name=nearest.name, nearest_vocabulary=nearest.vocabulary)
            ok_count += m.ok
        rows.append(row)
    nodes = units
    passed = ok_count == len(nodes) if params.quantifier == "all" else ok_count > 0
    score = (ok_count / len(nodes)) if params.quantifier == "all" else float(passed)
    bad = [r for r in rows if not r["ok"]]
    explanation = (
        f"{ok_count}/{len(nodes)} run(s)/node(s) have {params.property} within dE2000 "
        f"{params.tolerance} of {params.expected!r}"
    )
    if bad:
        first = bad[0]
        explanation += (
            f"; e.g. {first['id']} is {first['actual']} (dE {first.get('delta_e2000', 'n/a')})"
        )
    return CheckResult(
        check=name,
        status="pass" if passed else "fail",
        mechanism="tolerance",
        score=score,
        explanation=explanation,
        evidence={
            "nodes": cap_rows(rows),
            "nodes_total": len(rows),
            "expected": [c.hex for c in expected],
            "tolerance": params.tolerance,
            "property": params.property,
        },
    )


class ColorClassifiedParams(BaseModel):
    """Parameters of ``color_classified_as``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec
    property: ColorProperty = "color"
    expected: str = Field(
        description="a palette name, or a hue family such as 'yellow' when family=true"
    )
    vocabulary: Literal["google", "office", "css", "word", "all"] = "google"
    family: bool = Field(
        default=False,
        description="expected names a hue family of the Google palette: 'gray' = any gray "
        "swatch (dark gray 4 .. light gray 3), 'light gray' = light gray 1-3 only, 'dark "
        "yellow' = dark yellow 1-3 only (vocabulary is then ignored)",
    )
    layer: StyleLayer = Field(default="displayed", description="displayed (what a reader sees) or direct")


@register_check(
    "color_classified_as",
    mechanism="tolerance",
    params=ColorClassifiedParams,
    example={"target": "cell[row='2']", "property": "fill", "expected": "yellow", "family": True},
)
def color_classified_as(
    doc: Document, params: ColorClassifiedParams, resources: Resources
) -> CheckResult:
    """The target's colour is nearest (CIEDE2000) to the expected named colour of a palette.

    Without ``family`` the nearest swatch of ``vocabulary`` must be the expected name.
    With ``family`` the expected text names a hue family of the Google palette and every
    swatch of it counts: "gray" accepts dark gray 4 .. light gray 3, "light gray" only
    light gray 1-3 (#d9d9d9, #efefef, #f3f3f3), "dark red" only dark red 1-3; "light"
    never admits the dark variants nor the base swatch.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("color_classified_as", tiny_doc(),
    ...           {"target": "run[hyperlink]", "expected": "cyan", "family": True}).status
    'pass'
    """
    want = _spaceless_key(params.expected)
    nodes = select_targets(doc, params.target)
    rows: list[dict[str, object]] = []
    ok_count = 0
    for node in nodes:
        actual, _mix = node_color(node, params.property, params.layer, params.target)
        row: dict[str, object] = {**node_ref(node), "actual": actual}
        if actual is None:
            row.update(ok=False, reason=f"no {params.property} set")
        else:
            if params.family:
                ok, nearest, dist = in_family(actual, params.expected)
            else:
                nearest, dist = nearest_named(actual, vocabulary=params.vocabulary)
                # Names of one colour tie: Office's "orange" is accent 4's #ffc000, Word's
                # "teal" is "dark cyan"; the name the author wrote wins the tie.
                tied = [c for c in palette(params.vocabulary) if c.hex == nearest.hex]
                named = next((c for c in tied if _spaceless_key(c.name) == want), None)
                if named is not None:
                    nearest = named
                ok = _spaceless_key(nearest.name) == want
            row.update(
                ok=ok, nearest=nearest.name, nearest_hex=nearest.hex, delta_e2000=round(dist, 3)
            )
            ok_count += ok
        rows.append(row)
    if not nodes:
        return no_match("color_classified_as", params.target, "tolerance", nodes=[])
    passed = ok_count == len(nodes)
    return CheckResult(
        check="color_classified_as",
        status="pass" if passed else "fail",
        mechanism="tolerance",
        score=ok_count / len(nodes),
        explanation=(
            f"{ok_count}/{len(nodes)} node(s) classify as {params.expected!r}"
            + (" (hue family of the google palette)" if params.family else f" in the {params.vocabulary} palette")
            + (
                ""
                if passed
                else f"; first miss: {next(r for r in rows if not r['ok']).get('nearest')}"
            )
        ),
        evidence={
            "nodes": cap_rows(rows),
            "nodes_total": len(rows),
            "vocabulary": params.vocabulary,
        },
    )


Tone = Literal["light", "dark", "base"]
_TONED = re.compile(r"^(?:(light|dark)\s+)?(.+?)(?:\s+\d+)?$")


def color_family(name: str) -> tuple[Tone, str]:
    """(tone, hue) of a Google palette name: ``dark cyan 1`` -> ("dark", "cyan"),
    ``light gray 2`` -> ("light", "gray"), ``gray`` -> ("base", "gray"), ``black`` ->
    ("base", "black").

    >>> color_family("light yellow 3"), color_family("red berry")
    (('light', 'yellow'), ('base', 'red berry'))
    """
    m = _TONED.match(_name_key(name))
    assert m is not None  # the pattern matches any non-empty name
    tone: Tone = "light" if m.group(1) == "light" else "dark" if m.group(1) == "dark" else "base"
    return tone, m.group(2)


def in_family(actual_hex: str, expected: str) -> tuple[bool, NamedColor, float]:
    """Is the colour in the hue family the author named? ``expected`` "gray" (or "grey")
    is the whole row (dark gray 4 .. light gray 3); "light gray" only its light swatches
    (light gray 1-3), "dark yellow" only dark yellow 1-3, never the base or the other
    tone. The colour is classified by its nearest swatch of the Google palette, whose rows
    are the hue families (black and white are their own families). Returns (ok, nearest
    swatch, CIEDE2000 distance to it).

    >>> in_family("#d9d9d9", "light gray")[0], in_family("#d9d9d9", "gray")[0], in_family("#434343", "light gray")[0]
    (True, True, False)
    """
    want_tone, want_hue = color_family(expected)
    nearest, dist = nearest_named(actual_hex, vocabulary="google")
    tone, hue = color_family(nearest.name)
    hues = _HUES_OF_FAMILY.get(want_hue, (want_hue,))
    ok = hue in hues and (want_tone == "base" or tone == want_tone)
    return ok, nearest, dist


# Google's palette splits two families a person names with one word: Word's standard
# "Blue" (#0070c0) is nearest dark cornflower blue 1, and red berry (#980000) is a red to
# anyone asking for red. Naming the narrower row ("cornflower blue") still means only it.
_HUES_OF_FAMILY: dict[str, tuple[str, ...]] = {
    "blue": ("blue", "cornflower blue"),
    "red": ("red", "red berry"),
}


class ColorsDistinctParams(BaseModel):
    """Parameters of ``colors_distinct``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec = Field(description="one node per topic (or use 'topics')")
    topics: list[str] | None = Field(
        default=None,
        description="texts naming each topic; each topic's node is the deepest target containing it",
    )
    property: ColorProperty = "highlight"
    min_distance: float = Field(
        default=DEFAULT_MIN_DISTANCE,
        ge=0,
        description="CIEDE2000; closer pairs count as the same colour",
    )
    ignore: list[str] = Field(
        default_factory=lambda: ["white"],
        description="colours that do not count as a colour (e.g. white fill)",
    )
    layer: StyleLayer = Field(default="displayed", description="displayed (what a reader sees) or direct")


@register_check(
    "colors_distinct",
    mechanism="tolerance",
    params=ColorsDistinctParams,
    example={"target": "paragraph", "topics": ["Solar", "Wind", "Hydro"], "property": "highlight"},
)
def colors_distinct(
    doc: Document, params: ColorsDistinctParams, resources: Resources
) -> CheckResult:
    """Each topic has its own colour: every topic is coloured and all pairs differ by more than a CIEDE2000 threshold.

    With ``topics``, each topic's node is the deepest target node whose text contains the
    topic (when several separate nodes do, the first in document order); without, every
    target node is a topic. A node's colour is its own, or the colour covering most of
    its visible characters (``node_color``). Colours in ``ignore`` count as uncoloured.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("colors_distinct", tiny_doc(), {"target": "paragraph",
    ...           "topics": ["Solar", "Wind"], "property": "highlight"}).status
    'pass'
    """
    ignore = {c.hex for spec in params.ignore for c in resolve_color(spec)}
    pool = select_targets(doc, params.target)
    items: list[tuple[str, Node | None]] = []
    if params.topics:
        probe = Target(text="x")
        for topic in params.topics:
            # the deepest target containing the topic: "paragraph, cell" or "table, cell"
            # must pick the cell, not the table around every topic
            hits = deepest([n for n in pool if text_matches(n.text, topic, probe)])
            items.append((topic, hits[0] if hits else None))
    else:
        items = [(n.text[:40], n) for n in pool]
    rows: list[dict[str, object]] = []
    colors: list[tuple[int, str]] = []
    for i, (label, node) in enumerate(items):
        if node is None:
            rows.append({"topic": label, "ok": False, "reason": "topic not found"})
            continue
        actual, mix = node_color(node, params.property, params.layer)
        if actual is not None and any(delta_e(actual, h) <= params.min_distance for h in ignore):
            actual = None
        rows.append(
            {
                "topic": label,
                **node_ref(node),
                "actual": actual,
                "mix": dict(mix),
                "ok": actual is not None,
            }
        )
        if actual is not None:
            colors.append((i, actual))
    # Compare distinct colours, not topics: a selector may name thousands of nodes that
    # share a handful of colours, and topic pairs would be quadratic.
    by_color: dict[str, list[int]] = {}
    for i, hex_value in colors:
        by_color.setdefault(hex_value, []).append(i)
    near: list[tuple[str, str, float]] = [
        (h, h, 0.0) for h, idx in by_color.items() if len(idx) > 1
    ]
    for a, b in combinations(sorted(by_color), 2):
        d = delta_e(a, b)
        if d <= params.min_distance:
            near.append((a, b, d))
    clashes: list[dict[str, object]] = []
    clash_count = 0
    for a, b, d in near:
        ia, ib = by_color[a], by_color[b]
        clash_count += len(ia) * (len(ia) - 1) // 2 if a == b else len(ia) * len(ib)
        for i in ia + ib:
            rows[i]["ok"] = False
        first, second = (ia[0], ia[1]) if a == b else (ia[0], ib[0])
        if len(clashes) < 50:
            clashes.append(
                {
                    "a": items[first][0],
                    "b": items[second][0],
                    "color_a": a,
                    "color_b": b,
                    "delta_e2000": round(d, 3),
                    "topics_sharing": len(ia) if a == b else len(ia) + len(ib),
                }
            )
    n = len(items)
    if n < 2:
        return CheckResult(
            check="colors_distinct",
            status="fail",
            mechanism="tolerance",
            explanation=f"need at least 2 topics to compare, found {n}",
            evidence={"topics": rows},
        )
    ok = sum(1 for r in rows if r["ok"])
    passed = ok == n
    missing = [r["topic"] for r in rows if r.get("actual") is None]
    explanation = f"{len(colors)}/{n} topics coloured, {clash_count} pair(s) within dE2000 {params.min_distance}"
    if missing:
        explanation += f"; uncoloured: {', '.join(map(str, missing[:5]))}"
    return CheckResult(
        check="colors_distinct",
        status="pass" if passed else "fail",
        mechanism="tolerance",
        score=ok / n,
        explanation=explanation,
        evidence={
            "topics": cap_rows(rows),
            "clashes": clashes,
            "clash_pairs": clash_count,
            "min_distance": params.min_distance,
            "property": params.property,
        },
    )
