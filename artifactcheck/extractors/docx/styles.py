"""Effective run and paragraph formatting of WordprocessingML.

Resolution order, lowest priority first (ECMA-376 Part 1, 17.7.2), each later layer
overriding the properties it states:

1. document defaults (``w:docDefaults`` ``rPrDefault``/``pPrDefault``)
2. the table style of the enclosing table: its unconditional ``rPr``/``pPr``, then the
   conditional parts that reach the cell (first row, banding...: ``table_styles.py``)
3. the paragraph style, ``basedOn`` chain from the root down (the default paragraph
   style when the paragraph names none, or names one ``styles.xml`` does not define)
4. for paragraph properties: the list level's ``w:pPr`` (indents and tabs of numbering)
5. the character style of the run, ``basedOn`` chain from the root down
6. direct formatting on the run (``w:rPr``) or paragraph (``w:pPr``)

Theme fonts (``asciiTheme="minorHAnsi"``) and theme colours (``themeColor`` with
``themeTint``/``themeShade``, ``colors.py``) are resolved against the theme part; the
slot and tint/shade are kept on the Style (``color_theme``, ``fill_theme``...). Toggle
properties (bold, italic...) are treated as plain overrides, like LibreOffice does;
Word's XOR rule for toggles stated twice in one style chain is not modelled. Text whose
letters are all of a complex script (Hebrew, Arabic, Thai...) takes ``w:bCs``/``w:iCs``/
``w:szCs`` and the ``w:cs`` font instead (``complex_script_props``). Sizes are
points (``w:sz`` is half-points); colours ``#rrggbb`` lower-case. Paragraph geometry
(spacing, indents, tab stops) merges attribute by attribute (``para_format.py``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ...model import Style
from ...model.named_colors import WORD_HIGHLIGHT_HEX
from ..drawingml.color import Theme, ThemedColor
from .colors import auto_text_color, color_raw, resolve_raw, resolve_shading, shading_raw
from .package import W_NS, find_child, is_on
from .para_format import GEOMETRY_READERS, merge_layer
from .table_styles import PART_ORDER, cell_layer, table_layer

W = f"{{{W_NS}}}"

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


# -- theme ------------------------------------------------------------------------------
def theme_font(theme: Theme, theme_ref: str) -> str | None:
    """``minorHAnsi``/``majorAscii``/``minorEastAsia``/``majorBidi`` -> typeface."""
    fonts = theme.major if theme_ref.startswith("major") else theme.minor
    if theme_ref.endswith("EastAsia"):
        return fonts.ea or fonts.latin or None
    if theme_ref.endswith("Bidi"):
        return fonts.cs or fonts.latin or None
    return fonts.latin or None


# -- property layers -------------------------------------------------------------------
def _first_children(el: etree._Element) -> dict[Any, etree._Element]:
    """Each child tag's first child: what ``el.find(tag)`` returns, for every tag in one
    pass (a long document has tens of thousands of ``w:rPr``/``w:pPr``, and a dozen
    ``find`` calls each cost more than the walk)."""
    first: dict[Any, etree._Element] = {}
    for child in el:
        first.setdefault(child.tag, child)
    return first


_RUN_TOGGLES = tuple(
    (key, f"{W}{tag}")
    for key, tag in (
        ("bold", "b"),
        ("italic", "i"),
        ("bold_cs", "bCs"),
        ("italic_cs", "iCs"),
        ("strike", "strike"),
        ("dstrike", "dstrike"),
        ("caps", "caps"),
        ("small_caps", "smallCaps"),
        ("hidden", "vanish"),
    )
)
_W_VAL = f"{W}val"
# The tag and attribute names run_layer/para_layer read, made once: the f-strings cost
# ~2 us of the ~8 us a w:rPr took, and a long document has ~15k of each.
_U, _RFONTS, _COLOR, _HIGHLIGHT, _SHD, _VERT_ALIGN = (
    f"{W}{t}" for t in ("u", "rFonts", "color", "highlight", "shd", "vertAlign")
)
_SIZES = (("size", f"{W}sz"), ("size_cs", f"{W}szCs"))
_ASCII_THEME, _HANSI_THEME, _ASCII, _HANSI = (f"{W}{a}" for a in ("asciiTheme", "hAnsiTheme", "ascii", "hAnsi"))
_EA_THEME, _EA, _CS_THEME, _CS = (f"{W}{a}" for a in ("eastAsiaTheme", "eastAsia", "cstheme", "cs"))
_PSTYLE, _RSTYLE = f"{W}pStyle", f"{W}rStyle"
_JC, _OUTLINE_LVL, _NUM_PR, _ILVL, _NUM_ID, _PAGE_BREAK_BEFORE = (
    f"{W}{t}" for t in ("jc", "outlineLvl", "numPr", "ilvl", "numId", "pageBreakBefore")
)


def run_layer(rpr: etree._Element | None) -> dict[str, Any]:
    """The run properties one ``w:rPr`` states (absent properties are left out).
    Colours stay as stated (``colors.RawColor``/``RawShading``) until a Style is made,
    where the theme resolves them."""
    if rpr is None or not len(rpr):
        return {}
    return _run_layer(_first_children(rpr).get)


def read_rpr(rpr: etree._Element | None) -> tuple[dict[str, Any], dict[Any, etree._Element]]:
    """``run_layer(rpr)`` and each child tag's first child (what ``rpr.find(tag)``
    gives, e.g. ``w:rStyle``), from one pass over the children: the walker asks every
    run for both (~14k runs in a 180-page file)."""
    if rpr is None or not len(rpr):
        return {}, {}
    first = _first_children(rpr)
    return _run_layer(first.get), first


def _run_layer(get: Any) -> dict[str, Any]:
    """run_layer's reading, ``get`` giving a ``w:rPr``'s first child of a tag."""
    out: dict[str, Any] = {}
    for key, tag in _RUN_TOGGLES:
        el = get(tag)
        if el is not None:  # is_on(el) is None only for a missing element
            out[key] = is_on(el)
    u = get(_U)
    if u is not None:
        # A bare <w:u/> states no kind of line: LibreOffice draws none (measured).
        out["underline"] = u.get(_W_VAL) or "none"
    fonts = get(_RFONTS)
    if fonts is not None:
        _font_layer(fonts, out)
    for key, tag in _SIZES:
        sz = get(tag)
        if sz is not None:
            try:
                out[key] = int(sz.get(_W_VAL, "")) / 2
            except ValueError:
                pass
    color = get(_COLOR)
    if color is not None:
        out["color"] = color_raw(color)
    hl = get(_HIGHLIGHT)
    if hl is not None:
        out["highlight"] = hl.get(_W_VAL) or "none"
    shd = get(_SHD)
    if shd is not None:
        out["shd"] = shading_raw(shd)
    va = get(_VERT_ALIGN)
    if va is not None:
        out["baseline"] = va.get(_W_VAL)
    return out


def _font_layer(fonts: etree._Element, out: dict[str, Any]) -> None:
    """``w:rFonts`` into ``out``: the Latin, East Asian and complex-script font, each a
    theme slot (``("theme", ref)``) or a name, the theme first."""
    get = fonts.get
    theme = get(_ASCII_THEME) or get(_HANSI_THEME)
    name = get(_ASCII) or get(_HANSI)
    if theme:
        out["font"] = ("theme", theme)
    elif name:
        out["font"] = ("name", name)
    ea_theme, ea = get(_EA_THEME), get(_EA)
    if ea_theme:
        out["font_ea"] = ("theme", ea_theme)
    elif ea:
        out["font_ea"] = ("name", ea)
    cs_theme, cs = get(_CS_THEME), get(_CS)
    if cs_theme:
        out["font_cs"] = ("theme", cs_theme)
    elif cs:
        out["font_cs"] = ("name", cs)


# Scripts Word and LibreOffice format with the complex-script properties (``w:bCs``,
# ``w:iCs``, ``w:szCs``, ``w:rFonts/@w:cs``): Hebrew, Arabic, Syriac, Thaana, N'Ko, the
# Indic scripts, Thai, Lao, Tibetan, Myanmar, Khmer, Mongolian and the Hebrew/Arabic
# presentation forms.
_COMPLEX_RANGES = (
    (0x0590, 0x08FF),
    (0x0900, 0x0DFF),
    (0x0E00, 0x0FFF),
    (0x1000, 0x109F),
    (0x1780, 0x18AF),
    (0xFB1D, 0xFDFF),
    (0xFE70, 0xFEFF),
)
_COMPLEX_FROM = min(lo for lo, _ in _COMPLEX_RANGES)


def is_complex_script(text: str) -> bool:
    """Whether every letter of ``text`` is of a complex script (and there is one).

    >>> is_complex_script("שלום 2024"), is_complex_script("Hello"), is_complex_script("Hi שלום")
    (True, False, False)
    """
    seen = False
    for c in text:  # stops at the first other letter: Latin text costs one letter
        if c.isalpha():
            code = ord(c)
            # below the first range (Latin, Greek, Cyrillic): no range to try
            if code < _COMPLEX_FROM or not any(lo <= code <= hi for lo, hi in _COMPLEX_RANGES):
                return False
            seen = True
    return seen


def complex_script_props(props: dict[str, Any]) -> dict[str, Any]:
    """Merged run properties as text of a complex script is drawn: ``w:b``/``w:i``/
    ``w:sz`` do not reach it, ``w:bCs``/``w:iCs``/``w:szCs`` and the ``w:cs`` font do.
    python-docx's ``run.bold``/``font.size`` set only the former, so a Hebrew run made
    bold 16 pt that way is drawn regular at the default size, in Word and in LibreOffice
    (tests/extractors/test_docx_complex_script.py). A run mixing scripts keeps its Latin
    properties: one Style cannot say both."""
    out = {k: v for k, v in props.items() if k not in ("bold", "italic", "size")}
    for key in ("bold", "italic", "size"):
        if f"{key}_cs" in props:
            out[key] = props[f"{key}_cs"]
    if "font_cs" in props:
        out["font"] = props["font_cs"]
    return out


def para_layer(ppr: etree._Element | None) -> dict[str, Any]:
    """The paragraph properties one ``w:pPr`` states: alignment, outline level,
    numbering, page break before, shading, and geometry (``para_format.py``)."""
    return read_ppr(ppr)[0]


def read_ppr(ppr: etree._Element | None) -> tuple[dict[str, Any], dict[Any, etree._Element]]:
    """``para_layer(ppr)`` and each child tag's first child (what ``ppr.find(tag)``
    gives, e.g. ``w:pStyle``, ``w:sectPr``), from one pass over the children that also
    reads the geometry (``para_format.geometry_layer``'s pass): the walker asks every
    paragraph for all of it (~14k in a 180-page file)."""
    if ppr is None:
        return {}, {}
    first: dict[Any, etree._Element] = {}
    geometry: dict[str, Any] = {}
    readers = GEOMETRY_READERS
    for child in ppr:
        tag = child.tag
        if tag not in first:
            first[tag] = child
        reader = readers.get(tag)
        if reader is not None:
            reader(child, geometry)
    out: dict[str, Any] = {}
    get = first.get
    jc = get(_JC)
    if jc is not None and jc.get(_W_VAL) in _ALIGN:
        out["align"] = _ALIGN[jc.get(_W_VAL, "")]
    ol = get(_OUTLINE_LVL)
    if ol is not None:
        try:
            out["outline_level"] = int(ol.get(_W_VAL, "9"))
        except ValueError:
            pass
    num = get(_NUM_PR)
    if num is not None:
        ilvl = num.find(_ILVL)
        num_id = num.find(_NUM_ID)
        if num_id is not None:
            out["num_id"] = num_id.get(_W_VAL)
        if ilvl is not None:
            try:
                out["ilvl"] = int(ilvl.get(_W_VAL, "0"))
            except ValueError:
                pass
    v = is_on(get(_PAGE_BREAK_BEFORE))
    if v is not None:
        out["page_break_before"] = v
    shd = get(_SHD)
    if shd is not None:
        out["shd"] = shading_raw(shd)
    out.update(geometry)
    return out, first


# -- style sheet ----------------------------------------------------------------------
@dataclass
class _StyleDef:
    """One ``w:style``. Its property layers are read when first asked for: a
    styles.xml can define thousands of styles (2,672 in a 180-page corpus file, 2.5 MB)
    of which a document uses a few dozen, and reading them all cost ~0.25 s."""

    style_id: str
    type: str
    name: str
    based_on: str | None
    el: etree._Element | None = field(default=None, repr=False, compare=False)

    def _child(self, tag: str) -> etree._Element | None:
        return find_child(self.el, f"{W}{tag}") if self.el is not None else None

    @functools.cached_property
    def rpr(self) -> dict[str, Any]:
        return run_layer(self._child("rPr"))

    @functools.cached_property
    def ppr(self) -> dict[str, Any]:
        return para_layer(self._child("pPr"))

    @functools.cached_property
    def tblpr(self) -> dict[str, Any]:
        return table_layer(self._child("tblPr")) if self.type == "table" else {}

    @functools.cached_property
    def tcpr(self) -> dict[str, Any]:
        return cell_layer(self._child("tcPr")) if self.type == "table" else {}

    @functools.cached_property
    def parts(self) -> dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
        """tblStylePr type -> (rPr, pPr, tcPr) layers (table styles only)."""
        out: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {}
        if self.type != "table" or self.el is None:
            return out
        for part in self.el.findall(f"{W}tblStylePr"):
            ptype = part.get(f"{W}type") or ""
            if ptype in PART_ORDER:
                out[ptype] = (
                    run_layer(part.find(f"{W}rPr")),
                    para_layer(part.find(f"{W}pPr")),
                    cell_layer(part.find(f"{W}tcPr")),
                )
        return out

    def num_id(self) -> str | None:
        """The list its ``w:pPr`` names (``ppr["num_id"]``), read without the rest of
        the layer (asked of every style to find the lists styles link to)."""
        ppr = self._child("pPr")
        num = ppr.find(f"{W}numPr") if ppr is not None else None
        num_id = num.find(f"{W}numId") if num is not None else None
        return num_id.get(_W_VAL) if num_id is not None else None


@dataclass(frozen=True)
class TableStyle:
    """A table style with its ``basedOn`` chain merged: unconditional layers and each
    conditional part's (rPr, pPr, tcPr) layers."""

    style_id: str | None
    name: str | None
    rpr: dict[str, Any]
    ppr: dict[str, Any]
    tblpr: dict[str, Any]
    tcpr: dict[str, Any]
    parts: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]


@dataclass
class StyleSheet:
    """``word/styles.xml`` plus the theme: resolves effective formatting."""

    theme: Theme
    styles: dict[str, _StyleDef] = field(default_factory=dict)
    default_rpr: dict[str, Any] = field(default_factory=dict)
    default_ppr: dict[str, Any] = field(default_factory=dict)
    default_paragraph_style: str | None = None
    default_character_style: str | None = None
    default_table_style: str | None = None
    _chain_cache: dict[tuple[str, str], tuple[dict[str, Any], dict[str, Any]]] = field(
        default_factory=dict
    )
    _table_cache: dict[str | None, TableStyle] = field(default_factory=dict)
    _base_cache: dict[tuple[Any, ...], dict[str, Any]] = field(default_factory=dict)
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
            name_el = find_child(st, f"{W}name")
            based = find_child(st, f"{W}basedOn")
            sheet.styles[sid] = _StyleDef(
                style_id=sid,
                type=stype,
                name=ui_style_name(name_el.get(f"{W}val", sid) if name_el is not None else sid),
                based_on=based.get(f"{W}val") if based is not None else None,
                el=st,
            )
            if is_on(find_child(st, f"{W}default")) or st.get(f"{W}default") in ("1", "true", "on"):
                # "If this attribute is specified by multiple styles, the last one is used."
                if stype == "paragraph":
                    sheet.default_paragraph_style = sid
                elif stype == "character":
                    sheet.default_character_style = sid
                elif stype == "table":
                    sheet.default_table_style = sid
        if sheet.default_paragraph_style is None and "Normal" in sheet.styles:
            sheet.default_paragraph_style = "Normal"
        return sheet

    def name(self, style_id: str | None) -> str | None:
        if style_id is None:
            return None
        st = self.styles.get(style_id)
        return st.name if st is not None else style_id

    def _lineage(self, style_id: str) -> list[_StyleDef]:
        """The style and its ``basedOn`` ancestors, root first; a cycle or a missing
        style ends the chain."""
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
        seen.reverse()
        return seen

    def chain(self, style_id: str | None, stype: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """Merged (rPr, pPr) layers of a style and its ``basedOn`` ancestors."""
        if style_id is None:
            return {}, {}
        key = (style_id, stype)
        if key in self._chain_cache:
            return self._chain_cache[key]
        rpr: dict[str, Any] = {}
        ppr: dict[str, Any] = {}
        for st in self._lineage(style_id):
            rpr.update(st.rpr)
            merge_layer(ppr, st.ppr)
        self._chain_cache[key] = (rpr, ppr)
        return rpr, ppr

    def table_style(self, style_id: str | None) -> TableStyle:
        """The table style a table uses: the one it names when ``styles.xml`` defines
        it as a table style, else the document's default table style (Word's rule;
        usually "Normal Table", which has no formatting of its own)."""
        if style_id is None or self.styles.get(style_id, None) is None or (
            self.styles[style_id].type != "table"
        ):
            style_id = self.default_table_style
        got = self._table_cache.get(style_id)
        if got is not None:
            return got
        rpr: dict[str, Any] = {}
        ppr: dict[str, Any] = {}
        tblpr: dict[str, Any] = {}
        tcpr: dict[str, Any] = {}
        parts: dict[str, tuple[dict[str, Any], dict[str, Any], dict[str, Any]]] = {}
        for st in self._lineage(style_id) if style_id else []:
            rpr.update(st.rpr)
            merge_layer(ppr, st.ppr)
            tblpr.update(st.tblpr)
            tcpr.update(st.tcpr)
            for ptype, (prpr, pppr, ptcpr) in st.parts.items():
                old = parts.get(ptype, ({}, {}, {}))
                merged_ppr = dict(old[1])
                merge_layer(merged_ppr, pppr)
                parts[ptype] = ({**old[0], **prpr}, merged_ppr, {**old[2], **ptcpr})
        got = TableStyle(
            style_id=style_id,
            name=self.name(style_id),
            rpr=rpr,
            ppr=ppr,
            tblpr=tblpr,
            tcpr=tcpr,
            parts=parts,
        )
        self._table_cache[style_id] = got
        return got

    def paragraph_style_id(self, ppr: etree._Element | None) -> str | None:
        """The paragraph's style: the one ``w:pStyle`` names when ``styles.xml``
        defines it as a paragraph style, else the default paragraph style (Word shows
        such a paragraph as "Normal")."""
        return self.paragraph_style_named(find_child(ppr, _PSTYLE) if ppr is not None else None)

    def paragraph_style_named(self, pstyle: etree._Element | None) -> str | None:
        """:meth:`paragraph_style_id` from the paragraph's ``w:pStyle`` (None: none)."""
        val = pstyle.get(_W_VAL) if pstyle is not None else None
        if val:
            st = self.styles.get(val)
            if st is not None and st.type == "paragraph":
                return str(val)
        return self.default_paragraph_style

    def character_style_id(self, rpr: etree._Element | None) -> str | None:
        """The run's ``w:rStyle`` when ``styles.xml`` defines it (Word ignores others)."""
        if rpr is None:
            return None
        return self.character_style_named(find_child(rpr, _RSTYLE))

    def character_style_named(self, rstyle: etree._Element | None) -> str | None:
        """:meth:`character_style_id` from the run's ``w:rStyle`` (None: none)."""
        val = rstyle.get(_W_VAL) if rstyle is not None else None
        if val and val in self.styles and self.styles[val].type == "character":
            return str(val)
        return None

    def paragraph_props(
        self,
        style_id: str | None,
        direct: dict[str, Any],
        table_style: str | None,
        *,
        table_parts: tuple[str, ...] = (),
        numbering: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """Effective paragraph properties (align, outline level, numbering, breaks,
        shading, geometry). ``numbering``: the list level's pPr layer, when the
        paragraph is a list item (it sits between the style and direct formatting)."""
        props = dict(self.default_ppr)
        if table_style is not None:
            ts = self.table_style(table_style)
            merge_layer(props, ts.ppr)
            for part in table_parts:
                if part in ts.parts:
                    merge_layer(props, ts.parts[part][1])
        merge_layer(props, self.chain(style_id, "paragraph")[1])
        if numbering:
            merge_layer(props, numbering)
        merge_layer(props, direct)
        return props

    def run_props(
        self,
        *,
        paragraph_style: str | None,
        character_style: str | None,
        direct: dict[str, Any],
        table_style: str | None = None,
        table_parts: tuple[str, ...] = (),
    ) -> dict[str, Any]:
        """Effective run properties, merged in the documented order."""
        key = (paragraph_style, character_style, table_style, table_parts)
        base = self._base_cache.get(key)
        if base is None:
            base = dict(self.default_rpr)
            if table_style is not None:
                ts = self.table_style(table_style)
                base.update(ts.rpr)
                for part in table_parts:
                    if part in ts.parts:
                        base.update(ts.parts[part][0])
            base.update(self.chain(paragraph_style, "paragraph")[0])
            base.update(
                self.chain(character_style or self.default_character_style, "character")[0]
            )
            self._base_cache[key] = base
        if not direct:
            return base
        return {**base, **direct}

    def cell_props(
        self, table_style: str | None, table_parts: tuple[str, ...], direct: dict[str, Any]
    ) -> dict[str, Any]:
        """Effective cell properties (shading, vertical alignment, width): the table
        style's ``w:tcPr``, its conditional parts', then the cell's own."""
        ts = self.table_style(table_style)
        props = dict(ts.tcpr)
        for part in table_parts:
            if part in ts.parts:
                props.update(ts.parts[part][2])
        props.update(direct)
        return props

    def color(self, raw: Any) -> ThemedColor | None:
        """A stated colour or shading (``colors.RawColor``/``RawShading``) resolved."""
        if raw is None:
            return None
        if isinstance(raw[1], tuple):
            return resolve_shading(raw, self.theme)
        return resolve_raw(raw, self.theme)

    def to_style(
        self,
        props: dict[str, Any],
        *,
        align: str | None = None,
        fill: ThemedColor | None = None,
        background: str | None = None,
        auto_color: str | None = None,
    ) -> Style:
        """A model ``Style`` from merged run properties (one shared frozen instance per
        distinct set of properties: a long document has few). ``background``: what is
        drawn behind a run without shading of its own (paragraph shading, cell fill),
        which decides the colour of automatic text; ``auto_color``: what automatic text is
        drawn in instead (a Word shape's fontRef colour: white in Word's default shape)."""
        key = (tuple(sorted(props.items(), key=lambda kv: kv[0])), align, fill, background, auto_color)
        got = self._style_cache.get(key)
        if got is None:
            got = self._style_cache[key] = self._make_style(
                props, align=align, fill=fill, background=background, auto_color=auto_color
            )
        return got

    def _make_style(
        self,
        props: dict[str, Any],
        *,
        align: str | None,
        fill: ThemedColor | None,
        background: str | None,
        auto_color: str | None = None,
    ) -> Style:
        font = None
        if "font" in props:
            kind, value = props["font"]
            font = theme_font(self.theme, value) if kind == "theme" else value
        if font is None:
            font = theme_font(self.theme, "minorHAnsi")
        shading = self.color(props.get("shd"))
        # "auto" text is drawn black, or white over a dark background: the run's own
        # shading, else the paragraph's or the cell's. A highlight does not count
        # (LibreOffice asks the character background, which w:highlight is not).
        color = self.color(props.get("color")) or ThemedColor(
            auto_color or auto_text_color(shading.hex if shading is not None else background)
        )
        highlight = None
        hl = props.get("highlight")
        if hl and hl != "none":
            highlight = WORD_HIGHLIGHT_HEX.get(hl)
        if highlight is None and shading is not None:
            highlight = shading.hex  # LibreOffice writes character shading, not w:highlight
        baseline = props.get("baseline")
        return Style(
            font=font,
            size=props.get("size", DEFAULT_FONT_SIZE_PT),
            bold=bool(props.get("bold", False)),
            italic=bool(props.get("italic", False)),
            underline=underline_kind(props) is not None,
            strike=bool(props.get("strike", False) or props.get("dstrike", False)),
            color=color.hex,
            color_theme=color.theme,
            color_theme_mods=color.mods,
            highlight=highlight,
            fill=fill.hex if fill is not None else None,
            fill_theme=fill.theme if fill is not None else None,
            fill_theme_mods=fill.mods if fill is not None else None,
            align=align,
            baseline=baseline if baseline in ("superscript", "subscript") else None,
        )


def underline_kind(props: dict[str, Any]) -> str | None:
    """The ``w:u`` value in effect (``single``, ``double``, ``thick``, ``dotted``,
    ``wave``, ``words``...), None when the run is not underlined."""
    kind = props.get("underline")
    if not kind or kind == "none":
        return None
    return str(kind)
