"""Shape fills, outlines and slide backgrounds of a .pptx, resolved to colours/pictures.

A shape's fill is the first fill element found on its own ``p:spPr``, then (for a
placeholder) the layout's and the master's placeholder ``p:spPr``; failing those, its
``p:style/a:fillRef`` names a theme fill style whose ``phClr`` stands for the fillRef's
colour. ``a:grpFill`` takes the enclosing group's fill. Backgrounds: ``p:bg/p:bgPr`` (a
fill) or ``p:bg/p:bgRef`` (a theme background fill style, idx >= 1001), looked up on the
slide, then its layout, then its master.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lxml import etree

from ..drawingml.color import (
    A_NS,
    Theme,
    ThemedColor,
    color_alpha,
    find_color_element,
    resolve_themed_color,
)

_A = f"{{{A_NS}}}"
_P = "{http://schemas.openxmlformats.org/presentationml/2006/main}"
_R_EMBED = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}embed"
_FILL_NAMES = {"solidFill", "gradFill", "noFill", "blipFill", "pattFill", "grpFill"}


@dataclass(frozen=True)
class Fill:
    """``type``: solid | gradient | pattern | picture | none | group. ``color`` for solid
    (gradient: first stop; pattern: foreground). ``blip_rid`` for a picture fill, to be
    resolved against ``part``'s relationships. ``alpha``: the solid colour's opacity
    (``a:alpha``, PowerPoint's transparency slider), 1 when opaque."""

    type: str
    color: str | None = None
    blip_rid: str | None = None
    part: str | None = None
    theme: str | None = None  # theme slot of ``color`` and the transforms applied (ThemedColor)
    mods: str | None = None
    alpha: float = 1.0


def _colored(kind: str, color: ThemedColor | None) -> Fill:
    return Fill(kind, color.hex, theme=color.theme, mods=color.mods) if color is not None else Fill(kind)


def _fill_child(el: etree._Element | None) -> etree._Element | None:
    if el is None:
        return None
    for child in el:
        if isinstance(child.tag, str) and etree.QName(child).localname in _FILL_NAMES:
            return child
    return None


def read_fill(
    fill: etree._Element,
    theme: Theme,
    clr_map: dict[str, str],
    *,
    part: str | None,
    placeholder: etree._Element | None = None,
) -> Fill:
    """One fill element as a :class:`Fill`; ``placeholder`` is what ``phClr`` means."""
    name = etree.QName(fill).localname
    if name == "solidFill":
        solid = _colored("solid", resolve_themed_color(fill, theme, clr_map, placeholder=placeholder))
        alpha = color_alpha(fill)
        return replace(solid, alpha=round(alpha, 3)) if alpha < 1 else solid
    if name == "gradFill":
        gs = fill.find(f"{_A}gsLst/{_A}gs")
        color = resolve_themed_color(gs, theme, clr_map, placeholder=placeholder) if gs is not None else None
        return _colored("gradient", color)
    if name == "pattFill":
        fg = fill.find(f"{_A}fgClr")
        return _colored("pattern", resolve_themed_color(fg, theme, clr_map, placeholder=placeholder) if fg is not None else None)
    if name == "blipFill":
        blip = fill.find(f"{_A}blip")
        return Fill("picture", blip_rid=blip.get(_R_EMBED) if blip is not None else None, part=part)
    if name == "grpFill":
        return Fill("group")
    return Fill("none")


def shape_fill(
    sppr_chain: list[tuple[etree._Element | None, str]],
    style: etree._Element | None,
    theme: Theme,
    clr_map: dict[str, str],
    *,
    theme_part: str | None,
) -> Fill | None:
    """The effective fill of a shape. ``sppr_chain`` holds (spPr, part) pairs, the shape's
    own first. None when nothing states a fill (the shape is unfilled)."""
    for sppr, part in sppr_chain:
        child = _fill_child(sppr)
        if child is not None:
            return read_fill(child, theme, clr_map, part=part)
    if style is not None:
        ref = style.find(f"{_A}fillRef")
        if ref is not None:
            return _style_ref_fill(ref, theme, clr_map, theme_part=theme_part)
    return None


def _style_ref_fill(ref: etree._Element, theme: Theme, clr_map: dict[str, str], *, theme_part: str | None) -> Fill | None:
    try:
        idx = int(ref.get("idx", "0"))
    except ValueError:
        return None
    if idx == 0:
        return Fill("none")
    template = theme.fill_style(idx)
    color_el = find_color_element(ref)
    if template is None:
        # No theme fill style: PowerPoint still paints the reference colour.
        return _colored("solid", resolve_themed_color(color_el, theme, clr_map)) if color_el is not None else None
    return read_fill(template, theme, clr_map, part=theme_part, placeholder=color_el)


def line_color(
    sppr_chain: list[tuple[etree._Element | None, str]],
    style: etree._Element | None,
    theme: Theme,
    clr_map: dict[str, str],
) -> ThemedColor | None:
    """Outline colour (``a:ln`` fill, else ``p:style/a:lnRef`` colour), with its theme
    slot; None when none."""
    for sppr, _part in sppr_chain:
        ln = sppr.find(f"{_A}ln") if sppr is not None else None
        child = _fill_child(ln)
        if child is not None:
            return _fill_color(read_fill(child, theme, clr_map, part=None))
    if style is not None:
        ref = style.find(f"{_A}lnRef")
        if ref is not None and ref.get("idx", "0") != "0":
            try:
                idx = int(ref.get("idx", "0"))
            except ValueError:
                idx = 0
            template = theme.line_styles[idx - 1] if 1 <= idx <= len(theme.line_styles) else None
            child = _fill_child(template)
            if child is not None:
                return _fill_color(read_fill(child, theme, clr_map, part=None, placeholder=find_color_element(ref)))
            return resolve_themed_color(ref, theme, clr_map)
    return None


def _fill_color(fill: Fill) -> ThemedColor | None:
    if fill.type not in ("solid", "gradient", "pattern") or fill.color is None:
        return None
    return ThemedColor(fill.color, fill.theme, fill.mods)


def background_fill(c_sld: etree._Element | None, theme: Theme, clr_map: dict[str, str], *, part: str, theme_part: str | None) -> Fill | None:
    """The background a ``p:cSld`` states itself (None when it inherits)."""
    if c_sld is None:
        return None
    bg = c_sld.find(f"{_P}bg")
    if bg is None:
        return None
    bg_pr = bg.find(f"{_P}bgPr")
    if bg_pr is not None:
        child = _fill_child(bg_pr)
        return read_fill(child, theme, clr_map, part=part) if child is not None else Fill("none")
    bg_ref = bg.find(f"{_P}bgRef")
    if bg_ref is not None:
        return _style_ref_fill(bg_ref, theme, clr_map, theme_part=theme_part)
    return None


def shadow_alpha(sppr_chain: list[tuple[etree._Element | None, str]], style: etree._Element | None, theme: Theme) -> float | None:
    """Opacity of the outer shadow LibreOffice draws under a shape, None when it draws
    none: the first non-empty ``a:effectLst`` of ``sppr_chain``, else the theme effect
    style ``p:style/a:effectRef`` names (python-pptx's autoshapes name style 2: a 35%
    black shadow). LibreOffice 7.4 skips an empty ``a:effectLst``, which is what
    python-pptx's ``shadow.inherit = False`` writes, and still draws the theme's shadow
    (measured: a 50% red square is #e86969 on white either way); PowerPoint draws none.
    ``effectRef idx="0"`` removes it in both."""
    for sppr, _part in sppr_chain:
        effects = sppr.find(f"{_A}effectLst") if sppr is not None else None
        if effects is not None and len(effects):
            return _outer_shadow_alpha(effects)
    ref = style.find(f"{_A}effectRef") if style is not None else None
    if ref is None:
        return None
    try:
        idx = int(ref.get("idx", "0"))
    except ValueError:
        return None
    if not 1 <= idx <= len(theme.effect_styles):
        return None
    effects = theme.effect_styles[idx - 1].find(f"{_A}effectLst")
    return _outer_shadow_alpha(effects) if effects is not None else None


def _outer_shadow_alpha(effects: etree._Element) -> float | None:
    shadow = effects.find(f"{_A}outerShdw")
    if shadow is None:
        return None
    alpha = color_alpha(shadow)
    return round(alpha, 3) if alpha > 0 else None
