"""Text frames of a slide shape -> ``paragraph``/``run`` nodes with EFFECTIVE style.

Resolution order for a run property (first element that states it wins), level ``n`` =
the paragraph's ``a:pPr@lvl`` + 1 (design/pptx-geometry.md, "Text style"):

1. the run's ``a:rPr``
1b. the paragraph's own ``a:pPr/a:defRPr`` (what python-pptx's ``paragraph.font`` writes:
   LibreOffice and PowerPoint draw the paragraph's runs with it)
2. the shape's own ``a:lstStyle`` (``lvlNpPr/defRPr``, then ``defPPr/defRPr``)
3. the shape's ``p:style/a:fontRef`` (theme font + colour, autoshapes drawn in PowerPoint)
4. the layout placeholder's ``a:lstStyle``, then the master placeholder's
5. the master's ``p:txStyles`` (``titleStyle`` for titles, ``bodyStyle`` for body/object/
   subtitle placeholders, ``otherStyle`` for the rest) — for non-placeholder shapes the
   presentation's ``p:defaultTextStyle`` comes first, then ``otherStyle``
6. the presentation's ``p:defaultTextStyle``
7. PowerPoint's built-in defaults: 18 pt, ``+mn-lt``, not bold/italic, colour ``tx1``.

Paragraph properties (alignment, bullets) follow the same chain on ``a:pPr``/``lvlNpPr``.
Sizes are points; colours ``#rrggbb`` resolved through the theme and the slide's clrMap.
A hyperlinked run (a web or file link, a slide or show jump; not a macro or other action)
is drawn in the theme's ``hlink`` colour, its own colour or not: PowerPoint and
LibreOffice both paint links so, unless the link carries PowerPoint 365's ``hlinkClr
val="tx"`` extension (the run's own colour). A run whose own colour is so overruled keeps
it in ``attrs["direct_style"]`` (what ``layer: direct`` reads), with
``attrs["style_sources"] = {"color": "hyperlink"}``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from lxml import etree
from pydantic import JsonValue

from ...model import Box, Node, Style
from ..drawingml.color import (
    A_NS,
    Theme,
    ThemedColor,
    color_alpha,
    resolve_color,
    resolve_themed_color,
)
from ..tree_builder import make_node

_A = f"{{{A_NS}}}"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_ALIGN = {"l": "left", "ctr": "center", "r": "right", "just": "justify", "dist": "distributed",
          "justLow": "justify", "thaiDist": "distributed"}  # fmt: skip
_ORDERED_PREFIXES = ("arabic", "alpha", "roman", "circleNum", "ea1", "hebrew", "thai", "hindi")

DEFAULT_SIZE_PT = 18.0


@dataclass
class TextContext:
    """Everything needed to resolve the style of text in one shape.

    ``list_styles``: ``a:lstStyle``-like elements (children ``lvl1pPr``..``lvl9pPr``,
    ``defPPr``), highest precedence first; ``font_ref_at`` is where the shape's fontRef
    (as a synthesized ``defRPr``) slots into that order. ``hyperlink`` maps an rId (and
    the click action) to the run's hyperlink string.
    """

    theme: Theme
    clr_map: dict[str, str]
    list_styles: list[etree._Element]
    font_ref: etree._Element | None = None
    font_ref_at: int = 1
    hyperlink: Callable[[str | None, str | None], str | None] = lambda rid, action: None
    slide_number: int | None = None  # what a slidenum field shows on this slide
    _level_cache: dict[int, tuple[list[etree._Element], list[etree._Element]]] = field(default_factory=dict)

    def level_chain(self, level: int) -> tuple[list[etree._Element], list[etree._Element]]:
        """(pPr chain, rPr chain) contributed by the list styles for a 0-based level."""
        cached = self._level_cache.get(level)
        if cached is not None:
            return cached
        tag = f"{_A}lvl{level + 1}pPr"
        pprs: list[etree._Element] = []
        rprs: list[etree._Element] = []
        for i, lst in enumerate(self.list_styles):
            if i == self.font_ref_at and self.font_ref is not None:
                rprs.append(self.font_ref)
            for child_tag in (tag, f"{_A}defPPr"):
                ppr = lst.find(child_tag)
                if ppr is not None:
                    pprs.append(ppr)
                    rpr = ppr.find(f"{_A}defRPr")
                    if rpr is not None:
                        rprs.append(rpr)
        if self.font_ref is not None and self.font_ref_at >= len(self.list_styles):
            rprs.append(self.font_ref)
        self._level_cache[level] = (pprs, rprs)
        return pprs, rprs


def font_ref_rpr(style: etree._Element | None) -> etree._Element | None:
    """A ``p:style/a:fontRef`` as a synthesized ``a:defRPr`` (typeface + colour)."""
    if style is None:
        return None
    ref = style.find(f"{_A}fontRef")
    if ref is None:
        return None
    rpr = etree.Element(f"{_A}defRPr")
    idx = ref.get("idx")
    if idx in ("major", "minor"):
        prefix = "+mj-" if idx == "major" else "+mn-"
        etree.SubElement(rpr, f"{_A}latin").set("typeface", prefix + "lt")
        etree.SubElement(rpr, f"{_A}ea").set("typeface", prefix + "ea")
    for child in ref:
        if isinstance(child.tag, str):
            fill = etree.SubElement(rpr, f"{_A}solidFill")
            fill.append(_copy(child))
            break
    return rpr


def _copy(el: etree._Element) -> etree._Element:
    return etree.fromstring(etree.tostring(el))


def _first_attr(chain: list[etree._Element], name: str) -> str | None:
    for el in chain:
        v = el.get(name)
        if v is not None:
            return str(v)
    return None


def _first_child(chain: list[etree._Element], tags: tuple[str, ...]) -> etree._Element | None:
    for el in chain:
        for child in el:
            if child.tag in tags:
                return child
    return None


_FILL_TAGS = (f"{_A}solidFill", f"{_A}gradFill", f"{_A}noFill", f"{_A}blipFill", f"{_A}pattFill", f"{_A}grpFill")
_BULLET_TAGS = (f"{_A}buNone", f"{_A}buChar", f"{_A}buAutoNum", f"{_A}buBlip")


def fill_color(fill: etree._Element | None, ctx_theme: Theme, clr_map: dict[str, str]) -> ThemedColor | None:
    """Colour of a fill element, with the theme slot and modifiers it came from: solid ->
    its colour; gradient -> first stop; pattern -> foreground; none/picture -> None."""
    if fill is None:
        return None
    name = etree.QName(fill).localname
    if name == "solidFill":
        return resolve_themed_color(fill, ctx_theme, clr_map)
    if name == "gradFill":
        gs = fill.find(f"{_A}gsLst/{_A}gs")
        return resolve_themed_color(gs, ctx_theme, clr_map) if gs is not None else None
    if name == "pattFill":
        return resolve_themed_color(fill.find(f"{_A}fgClr"), ctx_theme, clr_map)
    return None


_HLINK_COLOR_EXT = "{A12FA001-AC4F-418D-AE19-62706E023703}"


def _run_look(
    rpr: etree._Element | None, chain: list[etree._Element], ctx: TextContext, text: str
) -> tuple[Style, dict[str, object]]:
    """A run's drawn style and its link attributes: ``hyperlink``, and where the link's
    theme colour overrules a colour the run states, that colour in ``direct_style``."""
    click = rpr.find(f"{_A}hlinkClick") if rpr is not None else None
    link = ctx.hyperlink(click.get(_R_ID), click.get("action")) if click is not None else None
    attrs: dict[str, object] = {"hyperlink": link} if link else {}
    cap = _first_attr(chain, "cap")
    if cap in ("all", "small"):
        attrs["caps" if cap == "all" else "small_caps"] = True  # drawn in capitals
    fill_el = _first_child(chain, _FILL_TAGS)
    if fill_el is not None and fill_el.tag == f"{_A}solidFill" and _outline_color(chain, ctx) is None:
        # (Letters outlined in a solid line show the line's colour as much as the see-
        # through fill's: such WordArt keeps its stated colour.)
        alpha = color_alpha(fill_el)
        if alpha < _OPAQUE:
            attrs["color_alpha"] = round(alpha, 3)  # blended over its backdrop: see pptx/see_through.py
    if click is None or not _drawn_as_link(link):
        return run_style(chain, ctx, is_link=False, text=text), attrs
    style = run_style(chain, ctx, is_link=True, text=text, link_keeps_color=_link_keeps_run_color(click))
    if _first_child([rpr], _FILL_TAGS) is not None:  # the run states a colour of its own
        own = run_style(chain, ctx, is_link=False, text=text)
        if own.color != style.color:
            attrs["style_sources"] = {"color": "hyperlink"}
            attrs["direct_style"] = _colour_layer(own)
    return style, attrs


_OPAQUE = 0.999


def _colour_layer(style: Style) -> dict[str, JsonValue]:
    """A run's own text colour as ``direct_style`` keeps it, where another layer drew it."""
    return {"color": style.color, "color_theme": style.color_theme, "color_theme_mods": style.color_theme_mods}


def _outline_color(chain: list[etree._Element], ctx: TextContext) -> ThemedColor | None:
    """The colour of the solid line drawn around the letters (``a:ln``), or None."""
    line = _first_child(chain, (f"{_A}ln",))
    fill = line.find(f"{_A}solidFill") if line is not None else None
    return fill_color(fill, ctx.theme, ctx.clr_map) if fill is not None else None


def _drawn_as_link(link: str | None) -> bool:
    """Whether text with this click target is drawn as a link (``hlink`` colour,
    underlined). Measured on LibreOffice's render: web and file links, slide jumps and
    show jumps (next / previous / first / last slide) are; a macro, program, OLE verb,
    custom show or "no action" keeps the run's own look."""
    if not link:
        return False
    return not link.startswith("ppaction://") or link.startswith(("ppaction://hlinkshowjump", "ppaction://hlinksldjump"))


def _link_keeps_run_color(click: etree._Element) -> bool:
    """PowerPoint 365 marks a link drawn in the run's colour, not the theme's ``hlink``,
    with an ``a:ext`` holding ``ahyp:hlinkClr val="tx"``; LibreOffice honours it too."""
    for ext in click.iterfind(f"{_A}extLst/{_A}ext"):
        if ext.get("uri") == _HLINK_COLOR_EXT:
            return any(el.get("val") == "tx" for el in ext if isinstance(el.tag, str))
    return False


def _slot_color(theme: Theme, clr_map: dict[str, str], name: str) -> ThemedColor | None:
    """A mapped scheme name (``tx1``, ``hlink``) as PowerPoint paints it by default."""
    slot = clr_map.get(name, name)
    value = theme.colors.get(slot)
    return ThemedColor(value, slot) if value is not None else None


def _bool(v: str | None) -> bool | None:
    return None if v is None else v in ("1", "true", "on")


def _script(text: str) -> str:
    """Which font slot renders ``text``: ``ea`` for East Asian scripts, ``sym`` for
    Symbol-font private-use characters, else ``latin`` (first decisive character wins)."""
    for ch in text:
        o = ord(ch)
        if 0x3000 <= o <= 0x9FFF or 0xAC00 <= o <= 0xD7AF or 0xF900 <= o <= 0xFAFF or 0xFF00 <= o <= 0xFFEF or 0x20000 <= o <= 0x2FA1F:
            return "ea"
        if 0xF000 <= o <= 0xF0FF:
            return "sym"
        if ch.isalnum():
            return "latin"
    return "latin"


def _typeface(rpr_chain: list[etree._Element], slot: str) -> str | None:
    for el in rpr_chain:
        found = el.find(f"{_A}{slot}")
        if found is not None and found.get("typeface"):
            return str(found.get("typeface"))
    return None


def run_style(
    rpr_chain: list[etree._Element], ctx: TextContext, *, is_link: bool, text: str = "", link_keeps_color: bool = False
) -> Style:
    """Effective run style from the rPr chain (highest precedence first). The font is
    the one PowerPoint uses for the run's script: ``a:ea`` for CJK text, ``a:sym`` for
    symbol characters, else ``a:latin`` (theme fonts resolved). A link is drawn in the
    theme's ``hlink`` colour unless ``link_keeps_color`` (its ``hlinkClr val="tx"``) and
    the run states a colour."""
    theme, clr_map = ctx.theme, ctx.clr_map
    font = None
    script = _script(text) if text else "latin"
    if script == "ea":
        ea = theme.typeface(_typeface(rpr_chain, "ea") or "+mn-ea")
        font = ea or None
    elif script == "sym":
        font = _typeface(rpr_chain, "sym")
    if not font:
        font = theme.typeface(_typeface(rpr_chain, "latin") or "+mn-lt")
    sz = _first_attr(rpr_chain, "sz")
    try:
        size = float(sz) / 100.0 if sz is not None else DEFAULT_SIZE_PT
    except ValueError:
        size = DEFAULT_SIZE_PT
    u = _first_attr(rpr_chain, "u")
    if is_link and (not rpr_chain or rpr_chain[0].get("u") is None):
        u = "sng"  # PowerPoint underlines hyperlinks unless the run says otherwise
    strike = _first_attr(rpr_chain, "strike")
    baseline_raw = _first_attr(rpr_chain, "baseline")
    baseline = None
    if baseline_raw not in (None, "0"):
        try:
            baseline = "superscript" if float(baseline_raw or 0) > 0 else "subscript"
        except ValueError:
            baseline = None
    own_fill = _first_child(rpr_chain[:1], _FILL_TAGS)
    fill_el = _first_child(rpr_chain, _FILL_TAGS)
    color: ThemedColor | None
    if is_link and (own_fill is None or not link_keeps_color):
        color = _slot_color(theme, clr_map, "hlink") or _slot_color(theme, {}, "hlink")
    elif fill_el is not None:
        color = fill_color(fill_el, theme, clr_map)
        if color is None and fill_el.tag == f"{_A}noFill":
            color = _outline_color(rpr_chain, ctx)  # outline-only letters read in their line's colour
    else:
        color = _slot_color(theme, clr_map, "tx1")
    hl = _first_child(rpr_chain[:1], (f"{_A}highlight",))
    return _style(
        font or None,
        size,
        bool(_bool(_first_attr(rpr_chain, "b"))),
        bool(_bool(_first_attr(rpr_chain, "i"))),
        u is not None and u != "none",
        strike is not None and strike != "noStrike",
        color,
        resolve_color(hl, theme, clr_map) if hl is not None else None,
        baseline,
    )


@lru_cache(maxsize=4096)
def _style(
    font: str | None,
    size: float,
    bold: bool,
    italic: bool,
    underline: bool,
    strike: bool,
    color: ThemedColor | None,
    highlight: str | None,
    baseline: str | None,
) -> Style:
    """One shared (frozen) Style per distinct run style: a deck has few, nodes many."""
    return Style(
        font=font, size=size, bold=bold, italic=italic, underline=underline, strike=strike,
        color=color.hex if color else None, color_theme=color.theme if color else None,
        color_theme_mods=color.mods if color else None, highlight=highlight, baseline=baseline,
    )  # fmt: skip


@lru_cache(maxsize=64)
def _paragraph_style(align: str) -> Style:
    return Style(align=align)


def paragraph_nodes(
    body: etree._Element | None,
    ctx: TextContext,
    *,
    id_prefix: str,
    boxes: list[Box],
) -> list[Node]:
    """``paragraph`` nodes (with ``run`` children) of an ``a:txBody``-like element.

    Paragraphs and runs carry the text frame's box: native geometry has no line layout
    (a rendered layout replaces these with ``layout`` boxes)."""
    if body is None:
        return []
    out: list[Node] = []
    for pi, p in enumerate(body.iterfind(f"{_A}p")):
        ppr = p.find(f"{_A}pPr")
        try:
            level = max(0, min(8, int(ppr.get("lvl", "0")))) if ppr is not None else 0
        except ValueError:
            level = 0
        level_pprs, level_rprs = ctx.level_chain(level)
        ppr_chain = ([ppr] if ppr is not None else []) + level_pprs
        own_rpr = ppr.find(f"{_A}defRPr") if ppr is not None else None
        if own_rpr is not None:
            level_rprs = [own_rpr, *level_rprs]
        attrs: dict[str, object] = {"level": level}
        bullet = _first_child(ppr_chain, _BULLET_TAGS)
        runs: list[Node] = []
        pid = f"{id_prefix}/p{pi}"
        ri = 0
        for r in p:
            name = etree.QName(r).localname if isinstance(r.tag, str) else ""
            if name not in ("r", "fld", "br"):
                continue
            rpr = r.find(f"{_A}rPr")
            chain = ([rpr] if rpr is not None else []) + level_rprs
            if name == "br":
                text = "\n"
            else:
                t = r.find(f"{_A}t")
                text = (t.text or "") if t is not None else ""
            style, run_attrs = _run_look(rpr, chain, ctx, text)
            if name == "fld":
                run_attrs["field"] = r.get("type") or "field"
                if run_attrs["field"] == "slidenum" and ctx.slide_number is not None:
                    # PowerPoint and LibreOffice show the slide's number, whatever the file
                    # stored last ("‹#›" in layouts, a stale number after reordering).
                    shown = str(ctx.slide_number)
                    if shown != text:
                        run_attrs["field_stored_text"] = text
                    text = shown
            runs.append(
                make_node(
                    f"{pid}/r{ri}",
                    "run",
                    text=text,
                    style=style,
                    attrs=run_attrs,
                    boxes=list(boxes),
                )
            )
            ri += 1
        has_text = any(rn.text.strip() for rn in runs)
        if bullet is not None and has_text:
            bname = etree.QName(bullet).localname
            if bname == "buChar":
                attrs.update(list_level=level, list_ordered=False, bullet=bullet.get("char", ""))
            elif bname == "buAutoNum":
                scheme = bullet.get("type", "arabicPeriod")
                attrs.update(
                    list_level=level,
                    list_ordered=scheme.startswith(_ORDERED_PREFIXES),
                    bullet=scheme,
                )
                if bullet.get("startAt"):
                    attrs["list_start"] = int(bullet.get("startAt") or 1)
            elif bname == "buBlip":
                attrs.update(list_level=level, list_ordered=False, bullet="picture")
        algn = _first_attr(ppr_chain, "algn")
        out.append(
            make_node(
                pid,
                "paragraph",
                style=_paragraph_style(_ALIGN.get(algn or "l", "left")),
                attrs=attrs,
                boxes=list(boxes),
                children=runs,
            )
        )
    return out
