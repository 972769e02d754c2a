"""The workbook's stylesheet (``xl/styles.xml``) and theme, resolved once per cell format.

Each ``cellXfs`` entry becomes one :class:`CellFormat`: an effective :class:`Style`
(font, size, bold, italic, underline, strike, colour, fill, alignment, wrap), the number
format code, borders and the flags the overflow rules need. Cells share these objects,
so a 100k-cell sheet holds as many Style objects as the file has formats.

Colours: ``rgb="AARRGGBB"``, ``indexed`` (the legacy 64-colour palette or the file's own
``indexedColors``), ``theme`` + ``tint`` (Excel's theme index order lt1, dk1, lt2, dk2,
accent1..6, hlink, folHlink - the first two pairs swapped relative to the theme XML) and
``auto`` (black for text). A font without a colour is black ("Automatic"). Theme
colours keep their slot on the Style (``color_theme``/``fill_theme``, ``tint=-0.25`` as
the mods) and in border dicts (``color_theme``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree
from openpyxl.styles.colors import COLOR_INDEX

from ...model import Style
from ..drawingml.color import ThemedColor, apply_tint, mix_hex
from .number_format import builtin_format

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"

_H_ALIGN = {
    "left": "left", "center": "center", "right": "right", "justify": "justify",
    "distributed": "distributed", "fill": "fill", "general": "general",
    "centerContinuous": "center",
}
_V_ALIGN = {"top": "top", "center": "middle", "bottom": "bottom", "justify": "justify",
            "distributed": "distributed"}

# Office 2007-2010 default theme, used when a workbook has no theme part.
DEFAULT_THEME = [
    "#ffffff", "#000000", "#eeece1", "#1f497d", "#4f81bd", "#c0504d",
    "#9bbb59", "#8064a2", "#4bacc6", "#f79646", "#0000ff", "#800080",
]


def read_theme_colours(root: etree._Element | None) -> list[str]:
    """Theme colours in SpreadsheetML index order (see module docstring)."""
    if root is None:
        return list(DEFAULT_THEME)
    scheme = root.find(f"{A}themeElements/{A}clrScheme")
    if scheme is None:
        return list(DEFAULT_THEME)
    by_name: dict[str, str] = {}
    for el in scheme:
        name = etree.QName(el).localname
        for c in el:
            val = c.get("lastClr") if etree.QName(c).localname == "sysClr" else c.get("val")
            if val and len(val) == 6:
                by_name[name] = "#" + val.lower()
    return [by_name.get(n, DEFAULT_THEME[i]) for i, n in enumerate(THEME_ORDER)]


THEME_ORDER = ("lt1", "dk1", "lt2", "dk2", "accent1", "accent2", "accent3", "accent4",
               "accent5", "accent6", "hlink", "folHlink")
"""The theme slot of SpreadsheetML's ``theme="n"`` index (lt/dk swapped against the theme XML)."""


@dataclass
class ColourResolver:
    theme: list[str]
    indexed: list[str]

    def resolve(self, el: etree._Element | None, *, auto: str | None = None) -> str | None:
        """A ``<color>``-like element to ``#rrggbb``; ``auto`` for ``auto="1"``/absent."""
        got = self.resolve_themed(el, auto=auto)
        return got.hex if got is not None else None

    def resolve_themed(self, el: etree._Element | None, *, auto: str | None = None) -> ThemedColor | None:
        """:meth:`resolve` keeping the theme slot (``theme="5"`` is ``accent2``) and the
        tint applied (``tint=-0.249977``)."""
        if el is None:
            return ThemedColor(auto) if auto else None
        try:
            tint = float(el.get("tint", "0") or 0)
        except ValueError:
            tint = 0.0
        rgb = el.get("rgb")
        base: str | None = None
        slot: str | None = None
        if rgb:
            rgb = rgb.strip()
            if len(rgb) == 8:
                base = "#" + rgb[2:].lower()
            elif len(rgb) == 6:
                base = "#" + rgb.lower()
        elif el.get("theme") is not None:
            try:
                index = int(el.get("theme", "0"))
                base = self.theme[index]
                slot = THEME_ORDER[index]
            except (ValueError, IndexError):
                base = None
        elif el.get("indexed") is not None:
            try:
                idx = int(el.get("indexed", "0"))
            except ValueError:
                idx = -1
            if 0 <= idx < len(self.indexed):
                base = self.indexed[idx]
            elif idx == 64:  # system foreground
                base = "#000000"
            elif idx == 65:  # system background
                base = "#ffffff"
        elif el.get("auto") in ("1", "true"):
            return ThemedColor(auto) if auto else None
        if base is None or not _is_hex(base):
            return ThemedColor(auto) if auto else None
        value = apply_tint(base, tint) if tint else base
        if slot is None:
            return ThemedColor(value)
        return ThemedColor(value, slot, f"tint={el.get('tint')}" if tint else None)


def _is_hex(v: str) -> bool:
    return len(v) == 7 and all(c in "0123456789abcdef" for c in v[1:])


@dataclass(frozen=True)
class FontSpec:
    name: str | None
    size: float | None
    bold: bool
    italic: bool
    underline: bool
    strike: bool
    color: str | None
    baseline: str | None
    color_theme: str | None = None
    color_theme_mods: str | None = None


@dataclass
class CellFormat:
    """Everything a cell's ``s`` index decides."""

    style: Style
    number_format: str
    borders: dict[str, Any] | None
    shrink: bool = False
    indent: int = 0
    rotation: int = 0
    checkbox: bool = False
    has_fill: bool = False


@dataclass
class Stylesheet:
    formats: list[CellFormat]
    dxfs: list[dict[str, Any]]
    default_font: FontSpec
    colours: ColourResolver
    fallback: CellFormat = field(init=False)

    def __post_init__(self) -> None:
        self.fallback = self.formats[0] if self.formats else _format_from(
            self.default_font, None, None, {}, "General", False
        )

    def format(self, index: int) -> CellFormat:
        if 0 <= index < len(self.formats):
            return self.formats[index]
        return self.fallback


def _bool_attr(el: etree._Element | None) -> bool:
    if el is None:
        return False
    return el.get("val", "1").lower() not in ("0", "false", "none")


# The face LibreOffice draws a <font> without <name> in (what openpyxl writes for
# Font(bold=True)): Cambria 11 pt (its metric twin Caladea in the render), whatever the
# workbook's default font or theme fonts are (measured: tests/extractors/test_xlsx_nameless_font.py).
NAMELESS_FONT = "Cambria"


def _font(el: etree._Element | None, colours: ColourResolver) -> FontSpec:
    if el is None:
        return FontSpec("Calibri", 11.0, False, False, False, False, "#000000", None)
    name = el.find(f"{NS}name")
    sz = el.find(f"{NS}sz")
    u = el.find(f"{NS}u")
    va = el.find(f"{NS}vertAlign")
    try:
        size = float(sz.get("val", "11")) if sz is not None else 11.0
    except ValueError:
        size = 11.0
    baseline = None
    if va is not None and va.get("val") in ("superscript", "subscript"):
        baseline = va.get("val")
    color = colours.resolve_themed(el.find(f"{NS}color"), auto="#000000")
    return FontSpec(
        name=name.get("val") if name is not None else NAMELESS_FONT,
        size=size,
        bold=_bool_attr(el.find(f"{NS}b")),
        italic=_bool_attr(el.find(f"{NS}i")),
        underline=u is not None and u.get("val", "single") != "none",
        strike=_bool_attr(el.find(f"{NS}strike")),
        color=color.hex if color else None,
        baseline=baseline,
        color_theme=color.theme if color else None,
        color_theme_mods=color.mods if color else None,
    )


# The share of foreground in the flat colour LibreOffice paints for each pattern fill
# (measured on red over white and over blue: mediumGray #ff8080, darkGray #ff4040,
# lightGray #ffc0c0, lightGrid #ff9090, lightTrellis #ffa0a0; tests/extractors/test_xlsx_fills.py).
_PATTERN_INK = {
    "solid": 1.0, "darkGray": 0.75, "darkTrellis": 0.75, "mediumGray": 0.5,
    "darkHorizontal": 0.5, "darkVertical": 0.5, "darkDown": 0.5, "darkUp": 0.5, "darkGrid": 0.5,
    "lightGrid": 0.4375, "lightTrellis": 0.375, "lightGray": 0.25, "lightHorizontal": 0.25,
    "lightVertical": 0.25, "lightDown": 0.25, "lightUp": 0.25, "gray125": 0.125, "gray0625": 0.0625,
}  # fmt: skip


def _fill(el: etree._Element | None, colours: ColourResolver) -> ThemedColor | None:
    """The colour a cell fill paints: a solid fill's foreground, a pattern's flat mix of
    foreground and background as LibreOffice paints it (``none``, and ``gray125`` without
    colours - Excel's reserved fill 1 - paint nothing), or a gradient's first stop.

    As LibreOffice draws what openpyxl users mistype (tests/extractors/test_xlsx_fills.py):
    no ``patternType`` is ``none`` (the schema's default: ``PatternFill(fgColor=...)`` paints
    nothing), and a solid fill without ``fgColor`` is painted in the automatic foreground,
    black (``PatternFill("solid", bgColor=...)`` and ``end_color=`` set only bgColor).
    A conditional format's fill is the other way round (bgColor; ``_dxf``)."""
    if el is None:
        return None
    pf = el.find(f"{NS}patternFill")
    if pf is not None:
        pattern = pf.get("patternType", "none")
        fg_el = pf.find(f"{NS}fgColor")
        if pattern == "none" or (pattern == "gray125" and fg_el is None):
            return None
        fg = colours.resolve_themed(fg_el, auto="#000000")
        share = _PATTERN_INK.get(pattern, 1.0)
        if fg is None or share >= 1.0:
            return fg
        # LibreOffice paints a pattern as one flat colour, the foreground mixed into the
        # background by the pattern's share of ink (no bgColor: white).
        bg = colours.resolve(pf.find(f"{NS}bgColor"), auto="#ffffff") or "#ffffff"
        return ThemedColor(mix_hex(fg.hex, bg, share))
    gf = el.find(f"{NS}gradientFill")
    if gf is not None:
        stop = gf.find(f"{NS}stop")
        if stop is not None:
            return colours.resolve_themed(stop.find(f"{NS}color"))
    return None


def _border(el: etree._Element | None, colours: ColourResolver) -> dict[str, Any] | None:
    if el is None:
        return None
    out: dict[str, Any] = {}
    for side in ("left", "right", "top", "bottom", "diagonal"):
        s = el.find(f"{NS}{side}")
        if s is None or not s.get("style") or s.get("style") == "none":
            continue
        color = colours.resolve_themed(s.find(f"{NS}color"), auto="#000000")
        out[side] = {"style": s.get("style"), "color": color.hex if color else None}
        if color is not None and color.theme:
            out[side]["color_theme"] = color.theme
            if color.mods:
                out[side]["color_theme_mods"] = color.mods
    return out or None


def _format_from(
    font: FontSpec,
    fill: ThemedColor | None,
    borders: dict[str, Any] | None,
    align: dict[str, str],
    number_format: str,
    checkbox: bool,
) -> CellFormat:
    style = Style(
        font=font.name,
        size=font.size,
        bold=font.bold,
        italic=font.italic,
        underline=font.underline,
        strike=font.strike,
        color=font.color,
        color_theme=font.color_theme,
        color_theme_mods=font.color_theme_mods,
        fill=fill.hex if fill is not None else None,
        fill_theme=fill.theme if fill is not None else None,
        fill_theme_mods=fill.mods if fill is not None else None,
        align=_H_ALIGN.get(align.get("horizontal", "general"), "general"),
        valign=_V_ALIGN.get(align.get("vertical", "bottom"), "bottom"),
        wrap=align.get("wrapText", "0") in ("1", "true"),
        baseline=font.baseline,
    )
    try:
        indent = int(align.get("indent", "0"))
        rotation = int(align.get("textRotation", "0"))
    except ValueError:
        indent, rotation = 0, 0
    return CellFormat(
        style=style,
        number_format=number_format,
        borders=borders,
        shrink=align.get("shrinkToFit", "0") in ("1", "true"),
        indent=indent,
        rotation=rotation,
        checkbox=checkbox,
        has_fill=fill is not None,
    )


def read_stylesheet(root: etree._Element | None, theme: list[str]) -> Stylesheet:
    """Parse ``styles.xml`` (None: the file has none; Excel's defaults apply)."""
    indexed = [f"#{c[2:].lower()}" if len(c) == 8 else f"#{c.lower()}" for c in COLOR_INDEX[:64]]
    if root is not None:
        custom = root.find(f"{NS}colors/{NS}indexedColors")
        if custom is not None:
            vals = [c.get("rgb", "") for c in custom.findall(f"{NS}rgbColor")]
            indexed = ["#" + v[-6:].lower() if len(v) >= 6 else "#000000" for v in vals]
    colours = ColourResolver(theme=theme, indexed=indexed)
    if root is None:
        font = _font(None, colours)
        return Stylesheet([], [], font, colours)
    numfmts: dict[int, str] = {}
    for nf in root.iterfind(f"{NS}numFmts/{NS}numFmt"):
        try:
            numfmts[int(nf.get("numFmtId", "-1"))] = nf.get("formatCode", "General")
        except ValueError:
            continue
    fonts = [_font(f, colours) for f in root.iterfind(f"{NS}fonts/{NS}font")]
    fills = [_fill(f, colours) for f in root.iterfind(f"{NS}fills/{NS}fill")]
    borders = [_border(b, colours) for b in root.iterfind(f"{NS}borders/{NS}border")]
    default_font = fonts[0] if fonts else _font(None, colours)
    # The Normal style's font is the workbook's default font (column width unit).
    style_xfs = root.findall(f"{NS}cellStyleXfs/{NS}xf")
    for cs in root.iterfind(f"{NS}cellStyles/{NS}cellStyle"):
        if cs.get("builtinId") == "0":
            try:
                xf = style_xfs[int(cs.get("xfId", "0"))]
                default_font = fonts[int(xf.get("fontId", "0"))]
            except (ValueError, IndexError):
                pass
            break

    def pick(seq: list[Any], idx: str | None, default: Any) -> Any:
        try:
            return seq[int(idx or 0)]
        except (ValueError, IndexError):
            return default

    formats: list[CellFormat] = []
    cache: dict[tuple[Any, ...], CellFormat] = {}
    for xf in root.iterfind(f"{NS}cellXfs/{NS}xf"):
        al = xf.find(f"{NS}alignment")
        align = dict(al.attrib) if al is not None else {}
        try:
            nf_id = int(xf.get("numFmtId", "0"))
        except ValueError:
            nf_id = 0
        code = numfmts.get(nf_id) or builtin_format(nf_id)
        checkbox = b"xfComplement" in etree.tostring(xf) if xf.find(f"{NS}extLst") is not None else False
        key = (xf.get("fontId"), xf.get("fillId"), xf.get("borderId"), tuple(sorted(align.items())), code, checkbox)
        fmt = cache.get(key)
        if fmt is None:
            fmt = _format_from(
                pick(fonts, xf.get("fontId"), default_font),
                pick(fills, xf.get("fillId"), None),
                pick(borders, xf.get("borderId"), None),
                align,
                code,
                checkbox,
            )
            cache[key] = fmt
        formats.append(fmt)
    dxfs = [_dxf(d, colours, numfmts) for d in root.iterfind(f"{NS}dxfs/{NS}dxf")]
    return Stylesheet(formats, dxfs, default_font, colours)


def _dxf(el: etree._Element, colours: ColourResolver, numfmts: dict[int, str]) -> dict[str, Any]:
    """A differential format (conditional formatting style) as plain attrs."""
    out: dict[str, Any] = {}
    f = el.find(f"{NS}font")
    if f is not None:
        if f.find(f"{NS}b") is not None:
            out["bold"] = _bool_attr(f.find(f"{NS}b"))
        if f.find(f"{NS}i") is not None:
            out["italic"] = _bool_attr(f.find(f"{NS}i"))
        if f.find(f"{NS}u") is not None:
            out["underline"] = True
        if f.find(f"{NS}strike") is not None:
            out["strike"] = _bool_attr(f.find(f"{NS}strike"))
        c = colours.resolve(f.find(f"{NS}color"))
        if c:
            out["color"] = c
    fill = el.find(f"{NS}fill")
    if fill is not None:
        pf = fill.find(f"{NS}patternFill")
        if pf is not None:
            # In a dxf, a solid fill's colour is in bgColor (ECMA-376 18.8.32 note).
            c = colours.resolve(pf.find(f"{NS}bgColor")) or colours.resolve(pf.find(f"{NS}fgColor"))
            if c:
                out["fill"] = c
        else:
            themed = _fill(fill, colours)
            if themed:
                out["fill"] = themed.hex
    nf = el.find(f"{NS}numFmt")
    if nf is not None:
        out["number_format"] = nf.get("formatCode")
    b = _border(el.find(f"{NS}border"), colours)
    if b:
        out["borders"] = b
    return out


RunFont = tuple[str | None, float, bool, bool, bool, bool, str, str | None]
"""A rich-text run's ``rPr``: (font, size, bold, italic, underline, strike, colour,
baseline); a None font (an ``rFont`` without a name) means "the cell's"."""


def read_run_font(rpr: etree._Element, colours: ColourResolver) -> RunFont:
    """A run's properties. A run with ``rPr`` states its font fully, as LibreOffice
    draws it (measured: tests/extractors/test_xlsx_rich_text_runs.py): an absent ``<b/>``
    is not bold, an absent name is :data:`NAMELESS_FONT`, an absent size 11 pt and an
    absent colour black, whatever the cell's font (openpyxl's ``InlineFont(b=True)``
    writes only ``<b/>``: "Boldword" in an Arial 14 pt blue cell is drawn Caladea Bold
    11 pt black)."""
    name = rpr.find(f"{NS}rFont")
    sz = rpr.find(f"{NS}sz")
    u = rpr.find(f"{NS}u")
    va = rpr.find(f"{NS}vertAlign")
    try:
        size = float(sz.get("val", "")) if sz is not None else None
    except ValueError:
        size = None
    baseline = va.get("val") if va is not None and va.get("val") in ("superscript", "subscript") else None
    return (
        name.get("val") if name is not None else NAMELESS_FONT,
        size or 11.0,
        _bool_attr(rpr.find(f"{NS}b")),
        _bool_attr(rpr.find(f"{NS}i")),
        u is not None and u.get("val", "single") != "none",
        _bool_attr(rpr.find(f"{NS}strike")),
        colours.resolve(rpr.find(f"{NS}color")) or "#000000",
        baseline,
    )


def run_style(cell: Style, font: RunFont | None) -> Style:
    """The effective style of a run inside a cell of style ``cell``."""
    if font is None:
        return cell
    name, size, bold, italic, underline, strike, color, baseline = font
    return cell.model_copy(update={
        "font": name or cell.font, "size": size, "bold": bold, "italic": italic,
        "underline": underline, "strike": strike, "color": color, "baseline": baseline,
    })
