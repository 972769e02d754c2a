"""See-through colours on a slide: what a reader sees of a semi-transparent fill or text.

PowerPoint's transparency slider writes ``a:alpha`` into a colour (Google Slides: a solid
fill's ``alpha``). The tree's displayed ``style`` holds colours as drawn, so a
see-through colour is laid over what is behind it (.pptx and Google Slides alike):

- a fill (``fill_alpha``: a shape's, or a table cell's from its table style) over the
  shape below it that covers it, else the slide's background. Under the shape lies its
  own shadow (``shadow_alpha``): LibreOffice draws the shadow with the shape's
  transparency too, so a 50% red python-pptx rectangle on white is drawn #e86969 (red
  over a 17.5% black shadow), not #ff8080;
- a run's colour (``color_alpha``) over the fill of the shape or cell holding it, else
  the slide's background (white when that is a picture or gradient).

When what is behind a fill is not one colour (a picture, or a shape that covers only part
of it) the stated colour is kept: no single colour is drawn there. The stated colour
stays in ``direct_style`` (what ``layer: direct`` reads), with ``style_sources =
{fill|color: transparency}``.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import JsonValue

from ...model import Box, Node, Style
from ..drawingml.color import mix_hex

_FILLED = ("shape", "textbox", "cell")
_PAINTING_FILLS = ("solid", "gradient", "pattern", "picture")
_SHADOW = "#000000"


@dataclass(frozen=True)
class _Behind:
    """What lies behind a node: one colour, or None when several things show there."""

    color: str | None


@dataclass(frozen=True)
class _Painted:
    """An area an earlier (lower) sibling paints: its box and, when it is one opaque
    colour, that colour."""

    box: Box
    color: str | None


def see_through(slide: Node, background: str | None) -> None:
    """Lay the see-through fills and text colours of ``slide`` over what is behind them
    (its ``background`` colour when solid, else white)."""
    _lay(slide.children, _Behind(background or "#ffffff"))


def _lay(children: list[Node], behind: _Behind) -> None:
    painted: list[_Painted] = []
    for node in children:
        own = _behind_node(node, painted, behind)
        _see_through_fill(node, own)
        _see_through_run(node, own)
        inner = _inner_backdrop(node, own)
        _lay(node.children, inner)
        painted.extend(_painted_areas(node))


def _behind_node(node: Node, painted: list[_Painted], behind: _Behind) -> _Behind:
    """What the siblings drawn before ``node`` leave behind it: the topmost one that
    overlaps it when that covers it in one colour; several things when it covers only
    part (or is a picture); else what is behind the siblings."""
    box = node.boxes[0] if node.boxes else None
    if box is None:
        return behind
    for area in reversed(painted):
        if area.box.page != box.page or not _overlap(area.box, box):
            continue
        return _Behind(area.color if _covers(area.box, box) else None)
    return behind


def _see_through_fill(node: Node, behind: _Behind) -> None:
    alpha = node.attrs.get("fill_alpha")
    style = node.style
    if node.kind not in _FILLED or not isinstance(alpha, float) or style is None or not style.fill or behind.color is None:
        return
    under = behind.color
    shadow = node.attrs.get("shadow_alpha")
    if isinstance(shadow, float):
        under = mix_hex(_SHADOW, under, shadow * alpha)
    shown = mix_hex(style.fill, under, alpha)
    node.style = style.model_copy(update={"fill": shown, "fill_theme": None, "fill_theme_mods": None})
    _record_direct(node, "fill", {"fill": style.fill, "fill_theme": style.fill_theme, "fill_theme_mods": style.fill_theme_mods})


def _see_through_run(node: Node, behind: _Behind) -> None:
    """Black at 25% opacity on white is drawn #bfbfbf, a light grey (measured:
    LibreOffice paints the glyphs with that opacity)."""
    alpha = node.attrs.get("color_alpha")
    own = node.style
    if node.kind != "run" or not isinstance(alpha, float) or own is None or not own.color or behind.color is None:
        return
    shown = mix_hex(own.color, behind.color, alpha)
    node.style = own.model_copy(update={"color": shown, "color_theme": None, "color_theme_mods": None})
    _record_direct(node, "color", {"color": own.color, "color_theme": own.color_theme, "color_theme_mods": own.color_theme_mods})


def _record_direct(node: Node, prop: str, direct: dict[str, JsonValue]) -> None:
    """Note that ``prop`` is drawn see-through, keeping the node's own values; a value
    another layer already recorded (a link's own colour) is the node's own and stays."""
    node.attrs["style_sources"] = {**_as_dict(node.attrs.get("style_sources")), prop: "transparency"}
    node.attrs["direct_style"] = {**direct, **_as_dict(node.attrs.get("direct_style"))}


def _as_dict(value: object) -> dict[str, JsonValue]:
    return dict(value) if isinstance(value, dict) else {}


def _inner_backdrop(node: Node, behind: _Behind) -> _Behind:
    """What the text and cells inside ``node`` are drawn over: its solid fill as drawn
    (see-through or not), else what is behind it."""
    style = node.style
    if node.kind in _FILLED and style is not None and style.fill and node.attrs.get("fill_type", "solid") == "solid":
        return _Behind(style.fill)
    return behind


def _painted_areas(node: Node) -> list[_Painted]:
    """The areas ``node`` paints over what lies below it, with their colour when one
    opaque solid colour: pictures, charts and filled shapes and cells (a group's and a
    table's through their members)."""
    if node.kind in ("image", "chart", "media") and node.boxes:
        return [_Painted(node.boxes[0], None)]
    if node.kind in _FILLED and node.boxes and _paints(node):
        return [_Painted(node.boxes[0], _opaque_color(node))]
    return [area for child in node.children for area in _painted_areas(child)]


def _paints(node: Node) -> bool:
    fill_type = node.attrs.get("fill_type")
    if fill_type is None:
        return node.style is not None and bool(node.style.fill)
    return fill_type in _PAINTING_FILLS


def _opaque_color(node: Node) -> str | None:
    style: Style | None = node.style
    if style is None or not style.fill or node.attrs.get("fill_type", "solid") != "solid":
        return None
    sources = node.attrs.get("style_sources")
    laid_over = isinstance(sources, dict) and sources.get("fill") == "transparency"
    return style.fill if "fill_alpha" not in node.attrs or laid_over else None


def _overlap(a: Box, b: Box) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.top < b.bottom and b.top < a.bottom


def _covers(a: Box, b: Box, slack: float = 0.5) -> bool:
    return a.x0 <= b.x0 + slack and a.top <= b.top + slack and a.x1 >= b.x1 - slack and a.bottom >= b.bottom - slack
