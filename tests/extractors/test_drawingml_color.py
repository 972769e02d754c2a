"""DrawingML colour resolution, theme parsing and the Excel/Word tint rules."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st
from lxml import etree

from artifactcheck.extractors.drawingml.color import (
    Theme,
    apply_tint,
    apply_word_theme_shade,
    apply_word_theme_tint,
    color_alpha,
    parse_clr_map,
    resolve_color,
)

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
HEX = re.compile(r"^#[0-9a-f]{6}$")
hex_colours = st.integers(0, 0xFFFFFF).map(lambda n: f"#{n:06x}")

THEME_XML = f"""<a:theme xmlns:a="{A}" name="Test Theme"><a:themeElements>
<a:clrScheme name="t">
 <a:dk1><a:sysClr val="windowText" lastClr="111111"/></a:dk1>
 <a:lt1><a:sysClr val="window" lastClr="FEFEFE"/></a:lt1>
 <a:dk2><a:srgbClr val="1F497D"/></a:dk2><a:lt2><a:srgbClr val="EEECE1"/></a:lt2>
 <a:accent1><a:srgbClr val="4472C4"/></a:accent1><a:accent2><a:srgbClr val="ED7D31"/></a:accent2>
 <a:accent3><a:srgbClr val="A5A5A5"/></a:accent3><a:accent4><a:srgbClr val="FFC000"/></a:accent4>
 <a:accent5><a:srgbClr val="5B9BD5"/></a:accent5><a:accent6><a:srgbClr val="70AD47"/></a:accent6>
 <a:hlink><a:srgbClr val="0563C1"/></a:hlink><a:folHlink><a:srgbClr val="954F72"/></a:folHlink>
</a:clrScheme>
<a:fontScheme name="f"><a:majorFont><a:latin typeface="Georgia"/><a:ea typeface=""/><a:cs typeface=""/></a:majorFont>
<a:minorFont><a:latin typeface="Verdana"/><a:ea typeface="MS Mincho"/><a:cs typeface=""/></a:minorFont></a:fontScheme>
<a:fmtScheme name="m"><a:fillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill>
<a:solidFill><a:schemeClr val="phClr"><a:tint val="50000"/></a:schemeClr></a:solidFill></a:fillStyleLst>
<a:bgFillStyleLst><a:solidFill><a:schemeClr val="phClr"/></a:solidFill></a:bgFillStyleLst></a:fmtScheme>
</a:themeElements></a:theme>"""


def _close(a: str, b: str, tol: int = 1) -> bool:
    return all(abs(int(a[i : i + 2], 16) - int(b[i : i + 2], 16)) <= tol for i in (1, 3, 5))


def el(xml: str) -> etree._Element:
    """Parse a snippet, declaring the ``a:`` namespace on its root element."""
    head, sep, rest = xml.partition(">")
    if head.endswith("/"):
        head = head[:-1] + f' xmlns:a="{A}"/'
    else:
        head = head + f' xmlns:a="{A}"'
    return etree.fromstring(head + sep + rest)


def theme() -> Theme:
    return Theme.from_bytes(THEME_XML.encode(), path="t.pptx", part="ppt/theme/theme1.xml")


def test_theme_colours_fonts_and_fill_styles() -> None:
    t = theme()
    assert t.name == "Test Theme"
    assert t.colors["dk1"] == "#111111" and t.colors["lt1"] == "#fefefe"
    assert t.colors["accent1"] == "#4472c4"
    assert t.typeface("+mj-lt") == "Georgia"
    assert t.typeface("+mn-lt") == "Verdana"
    assert t.typeface("+mn-ea") == "MS Mincho"
    assert t.typeface("+mj-ea") == "Georgia"  # empty script falls back to latin
    assert t.typeface("Arial") == "Arial"
    assert len(t.fill_styles) == 2 and t.fill_style(1001) is not None and t.fill_style(0) is None


def test_scheme_colour_through_clr_map() -> None:
    t = theme()
    default_map = parse_clr_map(None)
    assert resolve_color(el('<a:schemeClr val="tx1"/>'), t, default_map) == "#111111"
    assert resolve_color(el('<a:schemeClr val="bg1"/>'), t, default_map) == "#fefefe"
    inverted = parse_clr_map(el('<a:clrMap bg1="dk1" tx1="lt1" bg2="dk2" tx2="lt2"/>'))
    assert resolve_color(el('<a:schemeClr val="tx1"/>'), t, inverted) == "#fefefe"
    assert resolve_color(el('<a:schemeClr val="bg2"/>'), t, inverted) == "#1f497d"
    # theme slot names are accepted directly too (used inside themes and by some producers)
    assert resolve_color(el('<a:schemeClr val="dk2"/>'), t, default_map) == "#1f497d"
    assert resolve_color(el('<a:schemeClr val="nonsense"/>'), t, default_map) is None


def test_lum_mod_off_matches_powerpoint_ui_colours() -> None:
    t = theme()
    # "Accent 1, Darker 25%" and "Lighter 40%" as PowerPoint writes them and shows them.
    darker = el('<a:schemeClr val="accent1"><a:lumMod val="75000"/></a:schemeClr>')
    assert resolve_color(darker, t) == "#2f5597"
    lighter = el('<a:schemeClr val="accent1"><a:lumMod val="60000"/><a:lumOff val="40000"/></a:schemeClr>')
    assert resolve_color(lighter, t) == "#8faadc"
    # inside a solidFill parent
    fill = el('<a:solidFill><a:srgbClr val="FF0000"><a:alpha val="50000"/></a:srgbClr></a:solidFill>')
    assert resolve_color(fill, t) == "#ff0000"
    assert color_alpha(fill) == 0.5


def test_other_colour_models() -> None:
    assert resolve_color(el('<a:sysClr val="windowText"/>'), None) == "#000000"
    assert resolve_color(el('<a:prstClr val="dkBlue"/>'), None) == "#00008b"
    assert resolve_color(el('<a:prstClr val="ltGray"/>'), None) == "#d3d3d3"
    assert resolve_color(el('<a:prstClr val="medSeaGreen"/>'), None) == "#3cb371"
    assert resolve_color(el('<a:scrgbClr r="100000" g="0" b="0"/>'), None) == "#ff0000"
    assert resolve_color(el('<a:scrgbClr r="21586" g="21586" b="21586"/>'), None) == "#808080"
    assert resolve_color(el('<a:hslClr hue="14400000" sat="100000" lum="50000"/>'), None) == "#0000ff"
    assert resolve_color(el('<a:srgbClr val="zzz"/>'), None) is None
    assert resolve_color(el('<a:srgbClr val="000000"><a:inv/></a:srgbClr>'), None) == "#ffffff"
    assert resolve_color(el('<a:srgbClr val="FF0000"><a:comp/></a:srgbClr>'), None) == "#00ffff"


def test_placeholder_colour_and_tint_shade() -> None:
    t = theme()
    ph = el('<a:schemeClr val="accent2"/>')
    assert resolve_color(t.fill_style(1), t, placeholder=ph) == "#ed7d31"
    assert resolve_color(t.fill_style(1), t) is None  # phClr with nothing to stand for
    # tint 50% of black in linear light is mid-grey #bcbcbc (sRGB of linear 0.5)
    assert resolve_color(el('<a:srgbClr val="000000"><a:tint val="50000"/></a:srgbClr>'), t) == "#bcbcbc"
    assert resolve_color(el('<a:srgbClr val="FFFFFF"><a:shade val="50000"/></a:srgbClr>'), t) == "#bcbcbc"


def test_excel_tint_known_values() -> None:
    # Excel's "White, Background 1, Darker 15%" and accent1 lighter 40%
    assert apply_tint("#FFFFFF", -0.1499984740745262) == "#d9d9d9"
    assert apply_tint("#4472C4", 0.3999755851924192) == "#8ea9db"
    assert apply_tint("#4472c4", -0.249977111117893) == "#305496"
    assert apply_tint("#ED7D31", 0.5999938962981048) == "#f8cbad"
    assert apply_tint("#000000", 0.499984740745262) == "#7f7f7f"
    assert apply_tint("#000000", 0.249977111117893) == "#404040"


def test_word_theme_tint_and_shade_known_values() -> None:
    assert apply_word_theme_shade("#4472C4", "BF") == "#2f5496"
    # Word shows d9e2f3 for "Lighter 80%"; float HSL lands one step off in two channels.
    assert _close(apply_word_theme_tint("#4472C4", "33"), "#d9e2f3")
    assert apply_word_theme_tint("#4472C4", "FF") == "#4472c4"


@given(hex_colours)
def test_tint_zero_is_identity(c: str) -> None:
    assert apply_tint(c, 0) == c


@given(hex_colours, st.floats(-1, 1, allow_nan=False))
def test_tint_stays_valid_hex(c: str, tint: float) -> None:
    assert HEX.match(apply_tint(c, tint))


@given(hex_colours)
def test_word_shade_ff_is_identity_up_to_rounding(c: str) -> None:
    out = apply_word_theme_shade(c, "FF")
    assert all(abs(int(out[i : i + 2], 16) - int(c[i : i + 2], 16)) <= 1 for i in (1, 3, 5))


@given(hex_colours)
def test_lum_mod_1_lum_off_0_is_identity(c: str) -> None:
    x = el(f'<a:srgbClr val="{c[1:]}"><a:lumMod val="100000"/><a:lumOff val="0"/></a:srgbClr>')
    out = resolve_color(x, None)
    assert out is not None
    assert all(abs(int(out[i : i + 2], 16) - int(c[i : i + 2], 16)) <= 1 for i in (1, 3, 5))


@given(
    hex_colours,
    st.lists(
        st.tuples(
            st.sampled_from(["lumMod", "lumOff", "satMod", "tint", "shade", "hueOff", "alpha", "redMod", "gamma"]),
            st.integers(-200000, 200000),
        ),
        max_size=5,
    ),
)
def test_any_modifier_chain_stays_valid_hex(c: str, mods: list[tuple[str, int]]) -> None:
    inner = "".join(f'<a:{m} val="{v}"/>' for m, v in mods)
    out = resolve_color(el(f'<a:srgbClr val="{c[1:]}">{inner}</a:srgbClr>'), None)
    assert out is not None and HEX.match(out)
