"""WordprocessingML colours: ``w:color`` and ``w:shd`` to what a reader sees, keeping
the theme slot and the tint/shade Word applied (:class:`ThemedColor`).

Word states a theme colour as ``w:themeColor="accent1"`` with optional
``w:themeTint``/``w:themeShade`` (hex bytes) next to a literal ``w:val``/``w:fill``
it wrote as a fallback; the theme attributes win, as in Word. Theme colour names map
to the theme part's slots (``text1`` -> ``dk1``, ``background2`` -> ``lt2``,
``hyperlink`` -> ``hlink``); the ``w:clrSchemeMapping`` of settings.xml is assumed
to be Word's default (it is in every file we have seen).

Shading (``w:shd``, 17.3.5): ``clear`` shows the fill, ``solid`` the pattern colour,
``pctN`` the pattern colour laid over the fill at N% (LibreOffice blends it to one
colour the same way); ``nil`` and ``auto`` fills are no shading.
"""

from __future__ import annotations

from lxml import etree

from ..drawingml.color import (
    Theme,
    ThemedColor,
    apply_word_theme_shade,
    apply_word_theme_tint,
    hex_to_rgb,
    rgb_to_hex,
)
from .package import W_NS

W = f"{{{W_NS}}}"

THEME_COLOR_SLOT: dict[str, str] = {
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

RawColor = tuple[str | None, str | None, str | None, str | None]
"""``(literal hex or "auto", themeColor, themeTint, themeShade)`` as the file states them."""

RawShading = tuple[str, RawColor, RawColor]
"""``(w:val, pattern colour, fill colour)`` of a ``w:shd``."""


def theme_color(
    theme: Theme,
    name: str,
    *,
    tint: str | None = None,
    shade: str | None = None,
    attr: str = "theme",
) -> ThemedColor | None:
    """A ``w:themeColor`` (``accent1``, ``text1``...) with ``w:themeTint``/``w:themeShade``;
    None for a name the theme does not have. ``attr`` names the attributes in ``mods``
    (``themeFill`` for shading: ``themeFillTint=33``)."""
    slot = THEME_COLOR_SLOT.get(name, name)
    base = theme.colors.get(slot)
    if base is None:
        return None
    mods: list[str] = []
    try:
        if tint:
            base = apply_word_theme_tint(base, tint)
            mods.append(f"{attr}Tint={tint}")
        if shade:
            base = apply_word_theme_shade(base, shade)
            mods.append(f"{attr}Shade={shade}")
    except ValueError:
        pass  # a malformed tint byte: keep the colour as far as it resolved
    return ThemedColor(base, slot, " ".join(mods) or None)


def resolve_raw(raw: RawColor, theme: Theme, *, attr: str = "theme") -> ThemedColor | None:
    """A stated colour: the theme colour when named (ECMA-376: the literal value is then
    ignored; LibreOffice 7 paints the literal, which Word keeps equal up to rounding),
    else the literal ``#rrggbb``; None for ``auto`` or nothing usable."""
    val, theme_name, tint, shade = raw
    if theme_name:
        got = theme_color(theme, theme_name, tint=tint, shade=shade, attr=attr)
        if got is not None:
            return got
    if val and val.lower() != "auto" and hex_to_rgb(val) is not None and len(val) == 6:
        return ThemedColor("#" + val.lower())
    return None


def color_raw(el: etree._Element) -> RawColor:
    """``w:color`` (or any element with ``w:val``/``w:themeColor``...) as stated."""
    return (
        el.get(f"{W}val"),
        el.get(f"{W}themeColor"),
        el.get(f"{W}themeTint"),
        el.get(f"{W}themeShade"),
    )


def shading_raw(shd: etree._Element) -> RawShading:
    """``w:shd`` as stated: its pattern, pattern colour and fill colour."""
    return (
        shd.get(f"{W}val") or "clear",
        (
            shd.get(f"{W}color"),
            shd.get(f"{W}themeColor"),
            shd.get(f"{W}themeTint"),
            shd.get(f"{W}themeShade"),
        ),
        (
            shd.get(f"{W}fill"),
            shd.get(f"{W}themeFill"),
            shd.get(f"{W}themeFillTint"),
            shd.get(f"{W}themeFillShade"),
        ),
    )


def resolve_shading(raw: RawShading | None, theme: Theme) -> ThemedColor | None:
    """The colour a ``w:shd`` paints, or None for no shading."""
    if raw is None:
        return None
    pattern, color, fill = raw
    if pattern == "nil":
        return None
    if pattern == "solid":
        return resolve_raw(color, theme) or ThemedColor("#000000")  # auto pattern: black
    back = resolve_raw(fill, theme, attr="themeFill")
    if pattern.startswith("pct"):
        try:
            share = int(pattern[3:]) / 100.0
        except ValueError:
            return back
        front = resolve_raw(color, theme) or ThemedColor("#000000")
        base = hex_to_rgb(back.hex if back is not None else "#ffffff")
        top = hex_to_rgb(front.hex)
        if base is None or top is None:
            return back
        mixed = tuple(t * share + b * (1 - share) for t, b in zip(top, base))
        return ThemedColor(rgb_to_hex((mixed[0], mixed[1], mixed[2])))
    return back


def auto_text_color(background: str | None) -> str:
    """What an automatic (``w:color`` absent or ``auto``) text colour is drawn as over
    ``background`` (``#rrggbb``, None for the white page).

    LibreOffice (``SwDrawTextInfo::ApplyAutoColor``) draws it white when the background
    is dark by ``Color::IsDark``: ``(76 R + 151 G + 29 B) >> 8 <= 60``, and black
    otherwise. Measured on 28 cell and run shadings (LibreOffice 7.4): #383838 (56) and
    #C00000 (57) get white text, #404040 (64), #FF0000 (75) and #4472C4 (109) black.
    Word's own threshold differs; the render is our truth (design/docx-tree.md).
    """
    if background is None:
        return "#000000"
    rgb = hex_to_rgb(background)
    if rgb is None:
        return "#000000"
    r, g, b = (round(c * 255) for c in rgb)
    return "#ffffff" if (76 * r + 151 * g + 29 * b) >> 8 <= 60 else "#000000"
