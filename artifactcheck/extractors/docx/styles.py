"""Effective run and paragraph formatting of WordprocessingML.

Resolution order, lowest priority first (ECMA-376 Part 1, 17.7.2), each later layer
overriding the properties it states:

1. document defaults (``w:docDefaults`` ``rPrDefault``/``pPrDefault``)
2. the table style of the enclosing table (its unconditional ``rPr``/``pPr``)
3. the paragraph style, ``basedOn`` chain from the root down (default paragraph style
   when the paragraph names none)
4. the character style of the run, ``basedOn`` chain from the root down
5. direct formatting on the run (``w:rPr``) or paragraph (``w:pPr``)

Theme fonts (``asciiTheme="minorHAnsi"``) and theme colours (``themeColor`` with
``themeTint``/``themeShade``) are resolved against ``word/theme/theme1.xml``. Toggle
properties (bold, italic...) are treated as plain overrides, like LibreOffice does;
Word's XOR rule for toggles stated twice in one style chain is not modelled.
Sizes are points (``w:sz`` is half-points); colours ``#rrggbb`` lower-case.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ...model import Style
from ...model.named_colors import WORD_HIGHLIGHT_HEX
from ..drawingml.color import Theme, apply_word_theme_shade, apply_word_theme_tint
from .package import W_NS

W = f"{{{W_NS}}}"


_THEME_COLOR_SLOT: dict[str, str] = {
    "dark1": "dk1",
    "light1": "lt1",
    "dark2": "dk2",
    "light2": "lt2",
    "text1": "dk1",
    "background1": "lt1",
    "text2": "dk2",
    "background2": "lt2",
    "accent1": "accent1",
    "accent2": "accent2",
    "accent3": "accent3",
    "accent4": "accent4",
    "accent5": "accent5",
    "accent6": "accent6",
    "hyperlink": "hlink",
    "followedHyperlink": "folHlink",
}

_ALIGN: dict[str, str] = {
    "left": "left",
    "start": "left",
    "center": "center",
    "right": "right",
    "end": "right",
    "both": "justify",
    "distribute": "distributed",
    "thaiDistribute": "distributed",
    "lowKashida": "justify",
    "mediumKashida": "justify",
    "highKashida": "justify",
}

# python-docx's "BabelFish": Word stores some built-in style names lower-case in
# styles.xml but shows them capitalised; users and rubrics use the UI names.
_UI_NAMES: dict[str, str] = {
    **{f"heading {i}": f"Heading {i}" for i in range(1, 10)},
    "caption": "Caption",
    "footer": "Footer",
    "header": "Header",
    "title": "Title",
    "subtitle": "Subtitle",
    "normal": "Normal",
    "body text": "Body Text",
    "list bullet": "List Bullet",
    "list number": "List Number",
    "list paragraph": "List Paragraph",
    "footnote text": "Footnote Text",
    "endnote text": "Endnote Text",
    "toc heading": "TOC Heading",
    **{f"toc {i}": f"TOC {i}" for i in range(1, 10)},
}

DEFAULT_FONT_SIZE_PT = 10.0  # ECMA-376 17.3.2.38: absent w:sz everywhere means 10 pt


def ui_style_name(name: str) -> str:
    return (
        _UI_NAMES.get(name.lower(), name) if name.islower() or name.lower() in _UI_NAMES else name
    )


def is_on(el: etree._Element | None) -> bool | None:
    """A WordprocessingML on/off property: absent -> None, ``w:val`` absent/true -> True."""
    if el is None:
        return None
    val = el.get(f"{W}val")
    return val is None or val.lower() not in ("0", "false", "off", "none")


# -- theme ------------------------------------------------------------------------------
def theme_font(theme: Theme, theme_ref: str) -> str | None:
    """``minorHAnsi``/``majorAscii``/``minorEastAsia``/``majorBidi`` -> typeface."""
    fonts = theme.major if theme_ref.startswith("major") else theme.minor
    if theme_ref.endswith("EastAsia"):
        return fonts.ea or fonts.latin or None
    if theme_ref.endswith("Bidi"):
        return fonts.cs or fonts.latin or None
    return fonts.latin or None


def theme_color(
    theme: Theme, name: str, *, tint: str | None = None, shade: str | None = None
) -> str | None:
    """A ``w:themeColor`` (``accent1``, ``text1``...) with ``w:themeTint``/``w:themeShade``."""
    base = theme.colors.get(_THEME_COLOR_SLOT.get(name, name))
    if base is None:
        return None
    try:
        if tint:
            base = apply_word_theme_tint(base, tint)
        if shade:
            base = apply_word_theme_shade(base, shade)
    except ValueError:
        pass  # a malformed tint byte: keep the untinted theme colour
    return base


# -- property layers -------------------------------------------------------------------
def run_layer(rpr: etree._Element | None) -> dict[str, Any]:
    """The run properties one ``w:rPr`` states (absent properties are left out)."""
    out: dict[str, Any] = {}
    if rpr is None:
        return out
    for key, tag in (
        ("bold", "b"),
        ("italic", "i"),
        ("strike", "strike"),
        ("dstrike", "dstrike"),
        ("caps", "caps"),
        ("small_caps", "smallCaps"),
        ("hidden", "vanish"),
    ):
        v = is_on(rpr.find(f"{W}{tag}"))
        if v is not None:
            out[key] = v
    u = rpr.find(f"{W}u")
    if u is not None:
        out["underline"] = (u.get(f"{W}val") or "single") != "none"
    fonts = rpr.find(f"{W}rFonts")
    if fonts is not None:
        theme = fonts.get(f"{W}asciiTheme") or fonts.get(f"{W}hAnsiTheme")
        name = fonts.get(f"{W}ascii") or fonts.get(f"{W}hAnsi")
        if theme:
            out["font"] = ("theme", theme)
        elif name:
            out["font"] = ("name", name)
        ea_theme, ea = fonts.get(f"{W}eastAsiaTheme"), fonts.get(f"{W}eastAsia")
        if ea_theme:
            out["font_ea"] = ("theme", ea_theme)
        elif ea:
            out["font_ea"] = ("name", ea)
    sz = rpr.find(f"{W}sz")
    if sz is not None:
        try:
            out["size"] = int(sz.get(f"{W}val", "")) / 2
        except ValueError:
            pass
    color = rpr.find(f"{W}color")
    if color is not None:
        out["color"] = (
            color.get(f"{W}val"),
            color.get(f"{W}themeColor"),
            color.get(f"{W}themeTint"),
            color.get(f"{W}themeShade"),
        )
    hl = rpr.find(f"{W}highlight")
    if hl is not None:
        out["highlight"] = hl.get(f"{W}val") or "none"
    shd = rpr.find(f"{W}shd")
    if shd is not None:
        out["shd"] = _shd_fill(shd)
    va = rpr.find(f"{W}vertAlign")
    if va is not None:
        out["baseline"] = va.get(f"{W}val")
    return out


def _shd_fill(shd: etree._Element) -> str | None:
    """The visible fill of ``w:shd``; a solid pattern shows the pattern colour."""
    val = shd.get(f"{W}val") or "clear"
    fill = shd.get(f"{W}fill")
    if val == "solid":
        fill = shd.get(f"{W}color") or fill
    if val == "nil" or not fill or fill.lower() == "auto" or len(fill) != 6:
        return None
    return "#" + str(fill).lower()


def para_layer(ppr: etree._Element | None) -> dict[str, Any]:
    """The paragraph properties one ``w:pPr`` states."""
    out: dict[str, Any] = {}
    if ppr is None:
        return out
    jc = ppr.find(f"{W}jc")
    if jc is not None and jc.get(f"{W}val") in _ALIGN:
        out["align"] = _ALIGN[jc.get(f"{W}val", "")]
    ol = ppr.find(f"{W}outlineLvl")
    if ol is not None:
        try:
            out["outline_level"] = int(ol.get(f"{W}val", "9"))
        except ValueError:
            pass
    num = ppr.find(f"{W}numPr")
    if num is not None:
        ilvl = num.find(f"{W}ilvl")
        num_id = num.find(f"{W}numId")
        if num_id is not None:
            out["num_id"] = num_id.get(f"{W}val")
        if ilvl is not None:
            try:
                out["ilvl"] = int(ilvl.get(f"{W}val", "0"))
            except ValueError:
                pass
    for key, tag in (("page_break_before", "pageBreakBefore"), ("keep_next", "keepNext")):
        v = is_on(ppr.find(f"{W}{tag}"))
        if v is not None:
            out[key] = v
    shd = ppr.find(f"{W}shd")
    if shd is not None:
        out["shd"] = _shd_fill(shd)
    return out


# -- style sheet ----------------------------------------------------------------------
@dataclass
class _StyleDef:
    style_id: str
    type: str
    name: str
    based_on: str | None
    rpr: dict[str, Any]
    ppr: dict[str, Any]


@dataclass
class StyleSheet:
    """``word/styles.xml`` plus the theme: resolves effective formatting."""

    theme: Theme
    styles: dict[str, _StyleDef] = field(default_factory=dict)
    default_rpr: dict[str, Any] = field(default_factory=dict)
    default_ppr: dict[str, Any] = field(default_factory=dict)
    default_paragraph_style: str | None = None
    default_character_style: str | None = None
    _chain_cache: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any]]] = field(
        default_factory=dict
    )
    _style_cache: dict[Any, Style] = field(default_factory=dict)

    @classmethod
    def parse(cls, root: etree._Element | None, theme: Theme) -> StyleSheet:
        sheet = cls(theme=theme)
        if root is None:
            return sheet
        defaults = root.find(f"{W}docDefaults")
        if defaults is not None:
            sheet.default_rpr = run_layer(defaults.find(f"{W}rPrDefault/{W}rPr"))
            sheet.default_ppr = para_layer(defaults.find(f"{W}pPrDefault/{W}pPr"))
        for st in root.iter(f"{W}style"):
            sid = st.get(f"{W}styleId")
            if not sid:
                continue
            stype = st.get(f"{W}type") or "paragraph"
            name_el = st.find(f"{W}name")
            based = st.find(f"{W}basedOn")
            sheet.styles[sid] = _StyleDef(
                style_id=sid,
                type=stype,
                name=ui_style_name(name_el.get(f"{W}val", sid) if name_el is not None else sid),
                based_on=based.get(f"{W}val") if based is not None else None,
                rpr=run_layer(st.find(f"{W}rPr")),
                ppr=para_layer(st.find(f"{W}pPr")),
            )
            if is_on(st.find(f"{W}default")) or st.get(f"{W}default") in ("1", "true", "on"):
                if stype == "paragraph":
                    sheet.default_paragraph_style = sid
                elif stype == "character":
                    sheet.default_character_style = sid
        return sheet

    def name(self, style_id: str | None) -> str | None:
        if style_id is None:
            return None
        st = self.styles.get(style_id)
        return st.name if st is not None else style_id

    def chain(self, style_id: str | None, stype: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Merged (rPr, pPr) layers of a style and its ``basedOn`` ancestors; a cycle
        or a missing style ends the chain."""
        if style_id is None:
            return {}, {}
        key = (style_id, stype)
        if key in self._chain_cache:
            return self._chain_cache[key]
        seen: list[_StyleDef] = []
        sid: str | None = style_id
        while (
            sid is not None
            and sid in self.styles
            and all(s.style_id != sid for s in seen)
            and len(seen) < 50
        ):
            st = self.styles[sid]
            seen.append(st)
            sid = st.based_on
        rpr: dict[str, Any] = {}
        ppr: dict[str, Any] = {}
        for st in reversed(seen):
            rpr.update(st.rpr)
            ppr.update(st.ppr)
        self._chain_cache[key] = (rpr, ppr)
        return rpr, ppr

    def paragraph_style_id(self, ppr: etree._Element | None) -> str | None:
        if ppr is not None:
            ps = ppr.find(f"{W}pStyle")
            if ps is not None and ps.get(f"{W}val"):
                return str(ps.get(f"{W}val"))
        return self.default_paragraph_style

    def paragraph_props(
        self, style_id: str | None, direct: dict[str, Any], table_style: str | None
    ) -> dict[str, Any]:
        """Effective paragraph properties (align, outline level, numbering, breaks, shading)."""
        props = dict(self.default_ppr)
        props.update(self.chain(table_style, "table")[1])
        props.update(self.chain(style_id, "paragraph")[1])
        props.update(direct)
        return props

    def run_props(
        self,
        *,
        paragraph_style: str | None,
        character_style: str | None,
        direct: dict[str, Any],
        table_style: str | None = None,
    ) -> dict[str, Any]:
        """Effective run properties, merged in the documented order."""
        props = dict(self.default_rpr)
        props.update(self.chain(table_style, "table")[0])
        props.update(self.chain(paragraph_style, "paragraph")[0])
        props.update(self.chain(character_style or self.default_character_style, "character")[0])
        props.update(direct)
        return props

    def to_style(
        self, props: dict[str, Any], *, align: str | None = None, fill: str | None = None
    ) -> Style:
        """A model ``Style`` from merged run properties (one shared frozen instance per
        distinct set of properties: a long document has few)."""
        key = (tuple(sorted(props.items())), align, fill)
        got = self._style_cache.get(key)
        if got is None:
            got = self._style_cache[key] = self._make_style(props, align=align, fill=fill)
        return got

    def _make_style(self, props: dict[str, Any], *, align: str | None, fill: str | None) -> Style:
        font = None
        if "font" in props:
            kind, value = props["font"]
            font = theme_font(self.theme, value) if kind == "theme" else value
        if font is None:
            font = theme_font(self.theme, "minorHAnsi")
        color = "#000000"  # "auto" text renders black on the default white page
        if "color" in props:
            val, theme_name, tint, shade = props["color"]
            resolved = (
                theme_color(self.theme, theme_name, tint=tint, shade=shade) if theme_name else None
            )
            if resolved is not None:
                color = resolved
            elif val and val.lower() != "auto" and len(val) == 6:
                color = "#" + val.lower()
        highlight = None
        hl = props.get("highlight")
        if hl and hl != "none":
            highlight = WORD_HIGHLIGHT_HEX.get(hl)
        if highlight is None and props.get("shd"):
            highlight = props["shd"]  # LibreOffice writes character shading, not w:highlight
        baseline = props.get("baseline")
        return Style(
            font=font,
            size=props.get("size", DEFAULT_FONT_SIZE_PT),
            bold=bool(props.get("bold", False)),
            italic=bool(props.get("italic", False)),
            underline=bool(props.get("underline", False)),
            strike=bool(props.get("strike", False) or props.get("dstrike", False)),
            color=color,
            highlight=highlight,
            fill=fill,
            align=align,
            baseline=baseline if baseline in ("superscript", "subscript") else None,
        )
