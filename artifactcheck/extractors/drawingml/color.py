"""DrawingML colours, themes and the Office tint rules, resolved to ``#rrggbb``.

Shared by the .pptx, .xlsx and .docx extractors. Everything here works on lxml elements
already parsed with :func:`artifactcheck.extractors.package.xml.parse_xml`; nothing reads files.

- :class:`Theme` — a theme part's colour scheme (``dk1`` ... ``folHlink``), major/minor
  fonts and the format scheme's fill styles (for ``p:style/a:fillRef``).
- :func:`resolve_color` — any colour choice element (``a:srgbClr``, ``a:schemeClr``,
  ``a:sysClr``, ``a:prstClr``, ``a:scrgbClr``, ``a:hslClr``) or a parent holding one
  (``a:solidFill``), with its modifiers applied in document order (ECMA-376 §20.1.2.3).
- :func:`resolve_themed_color` — the same, as a :class:`ThemedColor` that also keeps the
  theme slot a ``a:schemeClr`` named (after the colour map) and the modifiers applied, so
  the tree can say "accent2, lumMod 75%" next to the hex a reader sees.
- :func:`apply_tint` — SpreadsheetML ``tint`` (ECMA-376 §18.8.19, HLS luminance).
- :func:`apply_word_theme_tint` / :func:`apply_word_theme_shade` — WordprocessingML
  ``w:themeTint`` / ``w:themeShade`` (hex byte 00..FF, HSL luminance, as Word renders).

Colour maths: HSL modifiers (hue/sat/lum and their Off/Mod forms) work in HSL on sRGB
values 0..1, as PowerPoint and LibreOffice do; ``tint``/``shade`` work in linear RGB
(scRGB), as LibreOffice's ``oox::drawingml::Color`` does (see design/pptx-geometry.md).
Results are clamped to 0..255 per channel — colour clamping, not geometry.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from lxml import etree
from PIL import ImageColor

from ...model.named_colors import OFFICE_THEME_COLORS  # used when a package has no theme part
from ..package.xml import parse_xml

A_NS = "http://schemas.openxmlformats.org/drawingml/2006/main"
_A = f"{{{A_NS}}}"

SCHEME_SLOTS: tuple[str, ...] = (
    "dk1", "lt1", "dk2", "lt2",
    "accent1", "accent2", "accent3", "accent4", "accent5", "accent6",
    "hlink", "folHlink",
)  # fmt: skip

# p:clrMap / p:clrMapOvr defaults (what PowerPoint's default master writes). Keys are the
# names a schemeClr may use that are *mapped* (bg1, tx1, ...), values theme slots.
DEFAULT_CLR_MAP: dict[str, str] = {
    "bg1": "lt1", "tx1": "dk1", "bg2": "lt2", "tx2": "dk2",
    "accent1": "accent1", "accent2": "accent2", "accent3": "accent3",
    "accent4": "accent4", "accent5": "accent5", "accent6": "accent6",
    "hlink": "hlink", "folHlink": "folHlink",
}  # fmt: skip

# a:sysClr values without lastClr: the Windows defaults.
_SYSTEM_COLORS: dict[str, str] = {
    "windowText": "#000000", "window": "#ffffff", "menuText": "#000000",
    "menu": "#f0f0f0", "btnFace": "#f0f0f0", "btnText": "#000000",
    "captionText": "#000000", "highlight": "#0078d7", "highlightText": "#ffffff",
    "grayText": "#6d6d6d", "infoText": "#000000", "infoBk": "#ffffe1",
    "3dDkShadow": "#696969", "3dLight": "#e3e3e3", "btnShadow": "#a0a0a0",
    "btnHighlight": "#ffffff", "windowFrame": "#646464", "scrollBar": "#c8c8c8",
    "background": "#000000", "activeBorder": "#b4b4b4", "inactiveBorder": "#f4f7fc",
    "activeCaption": "#99b4d1", "inactiveCaption": "#bfcddb",
    "inactiveCaptionText": "#000000", "appWorkspace": "#ababab",
    "gradientActiveCaption": "#b9d1ea", "gradientInactiveCaption": "#d7e4f2",
    "hotLight": "#0066cc", "menuBar": "#f0f0f0", "menuHighlight": "#3399ff",
}  # fmt: skip

_COLOR_TAGS = {f"{_A}{t}" for t in ("srgbClr", "schemeClr", "sysClr", "prstClr", "scrgbClr", "hslClr")}
_PCT = 100_000.0  # ST_Percentage / ST_PositiveFixedPercentage: 1000ths of a percent
_DEG = 60_000.0  # ST_Angle / ST_PositiveFixedAngle: 60000ths of a degree


@dataclass(frozen=True)
class ThemeFonts:
    """One font collection of a theme's font scheme: typefaces for Latin, East Asian and
    complex scripts (empty string when the theme leaves a script to the application)."""

    latin: str = "Calibri"
    ea: str = ""
    cs: str = ""


@dataclass(frozen=True)
class Theme:
    """A theme part (``a:theme``): colour scheme as ``#rrggbb`` by slot name, major
    (headings) and minor (body) fonts, and the format scheme's fill style elements.

    ``fill_styles`` are the ``a:fillStyleLst`` children (``p:style/a:fillRef idx`` 1..n),
    ``bg_fill_styles`` the ``a:bgFillStyleLst`` children (``idx`` 1001..), ``line_styles``
    the ``a:lnStyleLst`` children (``a:lnRef idx`` 1..n), ``effect_styles`` the
    ``a:effectStyleLst`` children (``a:effectRef idx`` 1..n: shadows, glows).
    """

    name: str = "Office Theme"
    colors: Mapping[str, str] = field(default_factory=lambda: dict(OFFICE_THEME_COLORS))
    major: ThemeFonts = ThemeFonts("Calibri Light")
    minor: ThemeFonts = ThemeFonts("Calibri")
    fill_styles: tuple[etree._Element, ...] = ()
    bg_fill_styles: tuple[etree._Element, ...] = ()
    line_styles: tuple[etree._Element, ...] = ()
    effect_styles: tuple[etree._Element, ...] = ()

    @classmethod
    def from_element(cls, root: etree._Element) -> Theme:
        """Read an ``a:theme`` element. Missing slots fall back to the Office theme's
        values (a theme that omits a slot is invalid; Office then uses its defaults)."""
        colors = dict(OFFICE_THEME_COLORS)
        scheme = root.find(f"{_A}themeElements/{_A}clrScheme")
        if scheme is not None:
            for slot_el in scheme:
                if not isinstance(slot_el.tag, str):
                    continue
                slot = etree.QName(slot_el).localname
                value = resolve_color(slot_el, None)
                if value is not None:
                    colors[slot] = value
        fonts = root.find(f"{_A}themeElements/{_A}fontScheme")
        major, minor = ThemeFonts("Calibri Light"), ThemeFonts("Calibri")
        if fonts is not None:
            major = _theme_fonts(fonts.find(f"{_A}majorFont"), major)
            minor = _theme_fonts(fonts.find(f"{_A}minorFont"), minor)
        fmt = root.find(f"{_A}themeElements/{_A}fmtScheme")
        fills: tuple[etree._Element, ...] = ()
        bg_fills: tuple[etree._Element, ...] = ()
        lines: tuple[etree._Element, ...] = ()
        effects: tuple[etree._Element, ...] = ()
        if fmt is not None:
            lst = fmt.find(f"{_A}lnStyleLst")
            lines = tuple(e for e in lst if isinstance(e.tag, str)) if lst is not None else ()
            lst = fmt.find(f"{_A}fillStyleLst")
            fills = tuple(e for e in lst if isinstance(e.tag, str)) if lst is not None else ()
            lst = fmt.find(f"{_A}bgFillStyleLst")
            bg_fills = tuple(e for e in lst if isinstance(e.tag, str)) if lst is not None else ()
            lst = fmt.find(f"{_A}effectStyleLst")
            effects = tuple(e for e in lst if isinstance(e.tag, str)) if lst is not None else ()
        return cls(
            name=root.get("name") or "",
            colors=colors,
            major=major,
            minor=minor,
            fill_styles=fills,
            bg_fill_styles=bg_fills,
            line_styles=lines,
            effect_styles=effects,
        )

    @classmethod
    def from_bytes(cls, data: bytes, *, path: str, part: str) -> Theme:
        """Parse a theme part's bytes safely (typed error naming ``path`` and ``part``)."""
        return cls.from_element(parse_xml(data, path=path, part=part))

    def typeface(self, name: str) -> str:
        """Resolve a theme font reference (``+mj-lt``, ``+mn-ea``, ``+mj-cs`` ...) to a
        typeface; any other name is returned unchanged."""
        if len(name) == 6 and name[0] == "+" and name[3] == "-":
            fonts = self.major if name[1:3] == "mj" else self.minor if name[1:3] == "mn" else None
            script = name[4:]
            if fonts is not None and script in ("lt", "ea", "cs"):
                value = {"lt": fonts.latin, "ea": fonts.ea, "cs": fonts.cs}[script]
                return value or fonts.latin
        return name

    def fill_style(self, idx: int) -> etree._Element | None:
        """The fill style a ``fillRef``/``bgRef`` ``idx`` names (0 = no fill)."""
        if 1 <= idx <= len(self.fill_styles):
            return self.fill_styles[idx - 1]
        if 1001 <= idx < 1001 + len(self.bg_fill_styles):
            return self.bg_fill_styles[idx - 1001]
        return None


def _theme_fonts(el: etree._Element | None, default: ThemeFonts) -> ThemeFonts:
    if el is None:
        return default
    def face(tag: str) -> str:
        child = el.find(f"{_A}{tag}")
        return (child.get("typeface") or "") if child is not None else ""
    return ThemeFonts(latin=face("latin") or default.latin, ea=face("ea"), cs=face("cs"))


def parse_clr_map(el: etree._Element | None, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """A ``p:clrMap`` (or the ``a:overrideClrMapping`` inside ``p:clrMapOvr``) as a dict
    ``{"bg1": "lt1", "tx1": "dk1", ...}``. ``el`` None gives ``base`` (default: Office's)."""
    result = dict(base if base is not None else DEFAULT_CLR_MAP)
    if el is not None:
        for key in DEFAULT_CLR_MAP:
            value = el.get(key)
            if value:
                result[key] = value
    return result


# -- resolving ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ThemedColor:
    """A resolved colour and where it came from.

    ``hex``: ``#rrggbb`` as displayed. ``theme``: the theme slot (``dk1``, ``lt1``, ``dk2``,
    ``lt2``, ``accent1``..``accent6``, ``hlink``, ``folHlink``) when the colour names one,
    after the colour map (PowerPoint's ``tx1`` on a default master is ``dk1``); None for
    literal colours. ``mods``: the transforms applied to the slot colour, space-separated
    in the source's own notation (``lumMod=75000 lumOff=25000`` for DrawingML,
    ``themeShade=BF`` for WordprocessingML, ``tint=-0.25`` for SpreadsheetML); None when
    the slot colour is used as is."""

    hex: str
    theme: str | None = None
    mods: str | None = None


def resolve_themed_color(
    el: etree._Element | None,
    theme: Theme | None,
    clr_map: Mapping[str, str] | None = None,
    *,
    placeholder: etree._Element | ThemedColor | str | None = None,
) -> ThemedColor | None:
    """:func:`resolve_color`, keeping the theme slot and the modifiers applied.

    ``phClr`` takes the slot (and modifiers) of ``placeholder``, followed by its own
    modifiers, as the colour it stands for does."""
    color_el = find_color_element(el)
    if color_el is None:
        return None
    hex_value = resolve_color(
        color_el,
        theme,
        clr_map,
        placeholder=placeholder.hex if isinstance(placeholder, ThemedColor) else placeholder,
    )
    if hex_value is None:
        return None
    tag = etree.QName(color_el).localname
    if tag != "schemeClr":
        return ThemedColor(hex_value)
    own = _modifier_text(color_el)
    val = color_el.get("val", "")
    if val == "phClr":
        base = (
            placeholder
            if isinstance(placeholder, ThemedColor)
            else resolve_themed_color(placeholder, theme, clr_map)
            if isinstance(placeholder, etree._Element)
            else None
        )
        if base is None or base.theme is None:
            return ThemedColor(hex_value)
        mods = " ".join(m for m in (base.mods, own) if m) or None
        return ThemedColor(hex_value, base.theme, mods)
    slot = (clr_map or DEFAULT_CLR_MAP).get(val, DEFAULT_CLR_MAP.get(val, val))
    return ThemedColor(hex_value, slot, own)


def _modifier_text(color_el: etree._Element) -> str | None:
    """``lumMod=75000 lumOff=25000``: the colour's transform children, in order."""
    parts = [
        f"{etree.QName(m).localname}={m.get('val', '')}"
        for m in color_el
        if isinstance(m.tag, str)
    ]
    return " ".join(parts) or None


def find_color_element(el: etree._Element | None) -> etree._Element | None:
    """``el`` itself when it is a colour choice element, else its first colour child
    (``a:solidFill`` -> ``a:srgbClr``), else None."""
    if el is None:
        return None
    if el.tag in _COLOR_TAGS:
        return el
    for child in el:
        if child.tag in _COLOR_TAGS:
            return child
    return None


def resolve_color(
    el: etree._Element | None,
    theme: Theme | None,
    clr_map: Mapping[str, str] | None = None,
    *,
    placeholder: etree._Element | str | None = None,
) -> str | None:
    """The ``#rrggbb`` of a colour choice element (or of the first one inside ``el``),
    modifiers applied. ``theme`` None uses Office's default theme colours. ``clr_map``
    maps ``bg1``/``tx1``/... to theme slots (default: Office's). ``placeholder`` is the
    colour ``a:schemeClr val="phClr"`` stands for (a style reference's colour element or
    an already resolved ``#rrggbb``). None when there is no colour element or it cannot
    be resolved (unknown scheme slot, phClr without a placeholder)."""
    color_el = find_color_element(el)
    if color_el is None:
        return None
    rgb = _base_rgb(color_el, theme, clr_map, placeholder)
    if rgb is None:
        return None
    rgb, _alpha = apply_modifiers(rgb, color_el)
    return rgb_to_hex(rgb)


def color_alpha(el: etree._Element | None) -> float:
    """Opacity 0..1 of a colour element after its alpha modifiers (1 when none)."""
    color_el = find_color_element(el)
    if color_el is None:
        return 1.0
    return apply_modifiers((0.0, 0.0, 0.0), color_el)[1]


RGB = tuple[float, float, float]
"""sRGB channels, each 0..1."""


def _base_rgb(
    el: etree._Element,
    theme: Theme | None,
    clr_map: Mapping[str, str] | None,
    placeholder: etree._Element | str | None,
) -> RGB | None:
    tag = etree.QName(el).localname
    if tag == "srgbClr":
        return hex_to_rgb(el.get("val", ""))
    if tag == "schemeClr":
        val = el.get("val", "")
        if val == "phClr":
            if placeholder is None:
                return None
            if isinstance(placeholder, str):
                return hex_to_rgb(placeholder)
            resolved = resolve_color(placeholder, theme, clr_map)
            return hex_to_rgb(resolved) if resolved else None
        slot = (clr_map or DEFAULT_CLR_MAP).get(val, DEFAULT_CLR_MAP.get(val, val))
        colors = theme.colors if theme is not None else OFFICE_THEME_COLORS
        value = colors.get(slot)
        return hex_to_rgb(value) if value else None
    if tag == "sysClr":
        value = el.get("lastClr") or _SYSTEM_COLORS.get(el.get("val", ""), "")
        return hex_to_rgb(value)
    if tag == "prstClr":
        return _preset_rgb(el.get("val", ""))
    if tag == "scrgbClr":
        try:
            lin = tuple(float(el.get(k, "0")) / _PCT for k in ("r", "g", "b"))
        except ValueError:
            return None
        return (_to_srgb(lin[0]), _to_srgb(lin[1]), _to_srgb(lin[2]))
    if tag == "hslClr":
        try:
            h = float(el.get("hue", "0")) / _DEG / 360.0
            s = float(el.get("sat", "0")) / _PCT
            lum = float(el.get("lum", "0")) / _PCT
        except ValueError:
            return None
        return colorsys.hls_to_rgb(h % 1.0, _clamp(lum), _clamp(s))
    return None


def _preset_rgb(name: str) -> RGB | None:
    """``a:prstClr`` names are CSS colour names with ``dk``/``lt``/``med`` abbreviations
    (``dkBlue``, ``ltGray``, ``medSeaGreen``); Pillow carries the CSS table."""
    if not name:
        return None
    css = name
    for short, long in (("dk", "dark"), ("lt", "light"), ("med", "medium")):
        if css.startswith(short) and len(css) > len(short) and css[len(short)].isupper():
            css = long + css[len(short):]
            break
    value = ImageColor.colormap.get(css.lower())
    return hex_to_rgb(value) if isinstance(value, str) else None


def apply_modifiers(rgb: RGB, color_el: etree._Element) -> tuple[RGB, float]:
    """Apply the colour transforms under ``color_el`` in document order; returns the new
    sRGB and the alpha (0..1). Unknown children are ignored."""
    r, g, b = rgb
    alpha = 1.0
    for mod in color_el:
        if not isinstance(mod.tag, str):
            continue
        name = etree.QName(mod).localname
        raw = mod.get("val")
        try:
            v = float(raw) / _PCT if raw is not None else 0.0
        except ValueError:
            continue
        if name in ("lumMod", "lumOff", "lum", "satMod", "satOff", "sat", "hueMod", "hueOff", "hue"):
            h, lum, s = colorsys.rgb_to_hls(r, g, b)
            if name == "lumMod":
                lum *= v
            elif name == "lumOff":
                lum += v
            elif name == "lum":
                lum = v
            elif name == "satMod":
                s *= v
            elif name == "satOff":
                s += v
            elif name == "sat":
                s = v
            elif name == "hueMod":
                h = h * v
            elif name == "hueOff":
                h = h + (float(raw or 0) / _DEG) / 360.0
            elif name == "hue":
                h = (float(raw or 0) / _DEG) / 360.0
            r, g, b = colorsys.hls_to_rgb(h % 1.0, _clamp(lum), _clamp(s))
        elif name == "tint":
            # Lighter: in linear RGB, move towards white by (1 - v).
            if 0 <= v < 1:
                r, g, b = (_to_srgb(1 - (1 - _to_linear(c)) * v) for c in (r, g, b))
        elif name == "shade":
            # Darker: in linear RGB, scale towards black by v.
            if 0 <= v < 1:
                r, g, b = (_to_srgb(_to_linear(c) * v) for c in (r, g, b))
        elif name == "comp":
            h, lum, s = colorsys.rgb_to_hls(r, g, b)
            r, g, b = colorsys.hls_to_rgb((h + 0.5) % 1.0, lum, s)
        elif name == "inv":
            r, g, b = 1 - r, 1 - g, 1 - b
        elif name == "gray":
            y = 0.299 * r + 0.587 * g + 0.114 * b
            r = g = b = y
        elif name == "alpha":
            alpha = _clamp(v)
        elif name == "alphaMod":
            alpha = _clamp(alpha * v)
        elif name == "alphaOff":
            alpha = _clamp(alpha + v)
        elif name in ("red", "green", "blue", "redMod", "greenMod", "blueMod", "redOff", "greenOff", "blueOff"):
            # Channel transforms are defined on linear RGB.
            lin = [_to_linear(r), _to_linear(g), _to_linear(b)]
            i = 0 if name.startswith("red") else 1 if name.startswith("green") else 2
            if name.endswith("Mod"):
                lin[i] *= v
            elif name.endswith("Off"):
                lin[i] += v
            else:
                lin[i] = v
            r, g, b = (_to_srgb(_clamp(c)) for c in lin)
        elif name == "gamma":
            r, g, b = (_to_srgb(_clamp(c)) for c in (r, g, b))
        elif name == "invGamma":
            r, g, b = (_to_linear(_clamp(c)) for c in (r, g, b))
        r, g, b = _clamp(r), _clamp(g), _clamp(b)
    return (r, g, b), alpha


# -- Excel and Word tints ---------------------------------------------------------------


def apply_tint(rgb: str, tint: float) -> str:
    """SpreadsheetML ``tint`` (-1..1) applied to ``#rrggbb`` as Excel does (ECMA-376
    §18.8.19, [MS-OI29500]): in integer HLS with HLSMAX = 240 (the Windows
    ``ColorRGBToHLS`` scale), negative darkens (``L * (1 + tint)``), positive lightens
    (``L * (1 - tint) + HLSMAX * tint``). Reproduces Excel's palette: accent1 4472C4
    lighter 40% gives 8ea9db, darker 25% 305496. ``tint`` 0 returns the colour unchanged."""
    base = hex_to_rgb(rgb)
    if base is None:
        raise ValueError(f"not a #rrggbb colour: {rgb!r}")
    if tint == 0 or math.isnan(tint):
        return rgb_to_hex(base)
    tint = max(-1.0, min(1.0, tint))
    r, g, b = (round(c * 255) for c in base)
    h, lum, s = _win_rgb_to_hls(r, g, b)
    new_lum = lum * (1 + tint) if tint < 0 else lum * (1 - tint) + _HLSMAX * tint
    if s == 0:
        # Greys: Excel keeps the unrounded luminance (black lighter 50% is 7f7f7f).
        v = math.floor(_clamp(new_lum / _HLSMAX) * 255 + 0.5)
        return f"#{v:02x}{v:02x}{v:02x}"
    out = _win_hls_to_rgb(h, math.floor(new_lum + 0.5), s)
    return "#" + "".join(f"{max(0, min(255, c)):02x}" for c in out)


_HLSMAX = 240


def _win_rgb_to_hls(r: int, g: int, b: int) -> tuple[int, int, int]:
    """Integer RGB (0..255) to HLS (0..240), the classic Windows algorithm (KB29240)."""
    cmax, cmin = max(r, g, b), min(r, g, b)
    lum = ((cmax + cmin) * _HLSMAX + 255) // 510
    if cmax == cmin:
        return (_HLSMAX * 2 // 3, lum, 0)
    if lum <= _HLSMAX // 2:
        sat = ((cmax - cmin) * _HLSMAX + (cmax + cmin) // 2) // (cmax + cmin)
    else:
        sat = ((cmax - cmin) * _HLSMAX + (510 - cmax - cmin) // 2) // (510 - cmax - cmin)

    def delta(c: int) -> int:
        return ((cmax - c) * (_HLSMAX // 6) + (cmax - cmin) // 2) // (cmax - cmin)

    if r == cmax:
        hue = delta(b) - delta(g)
    elif g == cmax:
        hue = _HLSMAX // 3 + delta(r) - delta(b)
    else:
        hue = 2 * _HLSMAX // 3 + delta(g) - delta(r)
    hue = hue + _HLSMAX if hue < 0 else hue - _HLSMAX if hue > _HLSMAX else hue
    return hue, lum, sat


def _win_hue_to_rgb(n1: int, n2: int, hue: int) -> int:
    hue = hue + _HLSMAX if hue < 0 else hue - _HLSMAX if hue > _HLSMAX else hue
    if hue < _HLSMAX // 6:
        return n1 + ((n2 - n1) * hue + _HLSMAX // 12) // (_HLSMAX // 6)
    if hue < _HLSMAX // 2:
        return n2
    if hue < _HLSMAX * 2 // 3:
        return n1 + ((n2 - n1) * (_HLSMAX * 2 // 3 - hue) + _HLSMAX // 12) // (_HLSMAX // 6)
    return n1


def _win_hls_to_rgb(hue: int, lum: int, sat: int) -> tuple[int, int, int]:
    lum = max(0, min(_HLSMAX, lum))
    if sat == 0:
        v = (lum * 255 + _HLSMAX // 2) // _HLSMAX
        return (v, v, v)
    if lum <= _HLSMAX // 2:
        m2 = (lum * (_HLSMAX + sat) + _HLSMAX // 2) // _HLSMAX
    else:
        m2 = lum + sat - (lum * sat + _HLSMAX // 2) // _HLSMAX
    m1 = 2 * lum - m2

    def chan(h: int) -> int:
        return (_win_hue_to_rgb(m1, m2, h) * 255 + _HLSMAX // 2) // _HLSMAX

    return (chan(hue + _HLSMAX // 3), chan(hue), chan(hue - _HLSMAX // 3))


def apply_word_theme_tint(rgb: str, theme_tint: str | int) -> str:
    """``w:themeTint`` (hex byte ``"00"``..``"FF"``, or an int 0..255): the fraction of the
    original colour kept, the rest white, on HSL luminance (``L * t + (1 - t)``) — what
    Word shows as "Lighter n%" (themeTint ``33`` on accent1 4472C4 gives d9e2f3)."""
    t = _byte_fraction(theme_tint)
    base = hex_to_rgb(rgb)
    if base is None:
        raise ValueError(f"not a #rrggbb colour: {rgb!r}")
    h, lum, s = colorsys.rgb_to_hls(*base)
    return rgb_to_hex(colorsys.hls_to_rgb(h, _clamp(lum * t + (1 - t)), s))


def apply_word_theme_shade(rgb: str, theme_shade: str | int) -> str:
    """``w:themeShade`` (hex byte): HSL luminance scaled by the fraction — Word's
    "Darker n%" (themeShade ``BF`` on accent1 4472C4 gives 2f5496)."""
    t = _byte_fraction(theme_shade)
    base = hex_to_rgb(rgb)
    if base is None:
        raise ValueError(f"not a #rrggbb colour: {rgb!r}")
    h, lum, s = colorsys.rgb_to_hls(*base)
    return rgb_to_hex(colorsys.hls_to_rgb(h, _clamp(lum * t), s))


def _byte_fraction(value: str | int) -> float:
    n = int(value, 16) if isinstance(value, str) else int(value)
    if not 0 <= n <= 255:
        raise ValueError(f"theme tint/shade must be 00..FF, got {value!r}")
    return n / 255.0


# -- conversions --------------------------------------------------------------------------


def hex_to_rgb(value: str | None) -> RGB | None:
    """``"4472C4"``, ``"#4472c4"`` or ARGB ``"FF4472C4"`` to sRGB 0..1; None if malformed."""
    if not value:
        return None
    v = value.lstrip("#")
    if len(v) == 8:
        v = v[2:]
    if len(v) != 6:
        return None
    try:
        n = int(v, 16)
    except ValueError:
        return None
    return ((n >> 16) / 255.0, ((n >> 8) & 0xFF) / 255.0, (n & 0xFF) / 255.0)


def mix_hex(top: str, under: str, share: float) -> str:
    """``top`` laid over ``under`` at ``share`` of its strength (an opacity, a pattern's
    share of ink), as renderers composite sRGB; ``top`` unchanged when either is not a
    colour."""
    a, b = hex_to_rgb(top), hex_to_rgb(under)
    if a is None or b is None:
        return top
    r, g, bl = (share * x + (1 - share) * y for x, y in zip(a, b, strict=True))
    return rgb_to_hex((r, g, bl))


def rgb_to_hex(rgb: RGB) -> str:
    """sRGB 0..1 to ``#rrggbb`` lower-case (channels clamped, rounded half up)."""
    return "#" + "".join(f"{math.floor(_clamp(c) * 255 + 0.5):02x}" for c in rgb)


def _clamp(x: float) -> float:
    if math.isnan(x):
        return 0.0
    return 0.0 if x < 0 else 1.0 if x > 1 else x


def _to_linear(c: float) -> float:
    """sRGB companding inverse (IEC 61966-2-1)."""
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _to_srgb(c: float) -> float:
    c = _clamp(c)
    return c * 12.92 if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055


__all__ = [
    "DEFAULT_CLR_MAP",
    "OFFICE_THEME_COLORS",
    "SCHEME_SLOTS",
    "Theme",
    "ThemeFonts",
    "ThemedColor",
    "apply_modifiers",
    "apply_tint",
    "apply_word_theme_shade",
    "apply_word_theme_tint",
    "color_alpha",
    "find_color_element",
    "hex_to_rgb",
    "parse_clr_map",
    "resolve_color",
    "resolve_themed_color",
    "rgb_to_hex",
]
