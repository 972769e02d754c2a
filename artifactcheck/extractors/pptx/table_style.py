"""Table styles (``ppt/tableStyles.xml``): the fill and text style a cell gets from its
table's style, by the cell's role (header row, banded row, first column ...).

PowerPoint writes the definition of every style a deck uses into tableStyles.xml;
python-pptx does not: its tables name PowerPoint's default "Medium Style 2 – Accent 1"
and an agent picks another built-in style by writing its GUID into ``a:tableStyleId``
(python-pptx has no API for it). The package then holds no definition and LibreOffice
draws its own predefined copy (oox/source/drawingml/table/predefined-table-styles.cxx),
so the 74 built-in styles are embedded below as LibreOffice draws them, not as
PowerPoint would: text colours and fills only, never bold (LibreOffice's copies draw
header and total text regular while PowerPoint's definition written into
tableStyles.xml is drawn bold, tests/extractors/test_pptx_table_style_render.py), and
no borders (the tree does not read them). Without them a "Light Style 1 – Accent 1"
header read black while drawn in the accent, a "Themed Style 1" header black on no
fill while drawn white on the accent (tests/extractors/test_pptx_builtin_table_styles.py
and test_pptx_builtin_table_families.py measure each family on the render).

Parts apply in increasing precedence: ``wholeTbl``, ``band1H``/``band2H`` (when
``bandRow``), ``band1V``/``band2V`` (when ``bandCol``), ``lastCol``, ``firstCol``,
``lastRow``, ``firstRow`` (each when its ``a:tblPr`` flag is on). Banding counts rows
(columns) after the header row (first column) when that is on. The cell's own ``a:tcPr``
fill and the runs' own properties still win.
"""

from __future__ import annotations

from typing import NamedTuple

from lxml import etree

from ..drawingml.color import A_NS
from ..package.xml import SAFE_XML_PARSER

_A = f"{{{A_NS}}}"


class _Paint(NamedTuple):
    """A colour of a built-in style: a theme slot, or ``A`` for the style's colour and
    ``B`` for its second colour (Dark Style 2's header); ``op`` one of DrawingML's
    ``tint``/``shade``/``alpha`` (an opacity: the cell's ``fill_alpha``, laid over the
    slide by ``pptx/see_through.py``) or ``over_white`` (opacity drawn over the
    white of the table's own background, :func:`_over_white`),
    ``val`` in thousandths of a percent."""

    slot: str
    op: str | None = None
    val: int = 0


class _Look(NamedTuple):
    """What one style part sets: text colour and cell fill, None where it sets nothing
    (LibreOffice leaves that colour unused, so a lower part's shows)."""

    text: _Paint | None = None
    fill: _Paint | None = None


_LT1, _DK1, _TX1, _BG1 = _Paint("lt1"), _Paint("dk1"), _Paint("tx1"), _Paint("bg1")
_ACCENT = _Paint("A")


def _bands(paint: _Paint) -> dict[str, _Look]:
    """Band 1 of rows and of columns in one fill. Band 2 never has a fill in
    LibreOffice's copies, so band2H/band2V are absent from every family."""
    return {"band1H": _Look(fill=paint), "band1V": _Look(fill=paint)}


# Each family's parts as LibreOffice's predefined copy sets them. ``A`` falls back to the
# family's plain colour (tx1 or dk1) for the variant without an accent, as LibreOffice
# does. Light Style 1/3 and Themed Style 1 bands are semi-transparent (alpha 20%/40%):
# LibreOffice draws them over the slide (measured: Light Style 1's accent-1 band is
# #284675 on a #1f3864 slide, #dbe5f1 on a white one).
_FAMILY_LOOKS: dict[str, dict[str, _Look]] = {
    # Themed Style 1's plain variant ("No Style, No Grid") sets only the text colour:
    # its band colour is unset, so the alpha LibreOffice gives it draws nothing.
    "themed1": {"wholeTbl": _Look(text=_DK1), "firstRow": _Look(text=_LT1, fill=_ACCENT), **_bands(_Paint("A", "alpha", 40000))},
    "themed1-plain": {"wholeTbl": _Look(text=_TX1)},
    # Themed Style 2 paints the table background in the accent; LibreOffice blends each
    # cell's own fill over it (tablecell.cxx): the bands are lt1 at 20% over the accent,
    # i.e. the accent at 80% over white while lt1 is white. Its plain variant ("No
    # Style, Table Grid", common in agents' decks) sets no fill and no text colour: the
    # text is drawn black (measured; newer LibreOffice sources set lt1 text only with
    # an accent).
    "themed2": {
        "wholeTbl": _Look(text=_LT1, fill=_ACCENT),
        **_bands(_Paint("A", "over_white", 80000)),
        "firstRow": _Look(text=_LT1),
    },
    "themed2-plain": {},
    "light1": {"wholeTbl": _Look(text=_TX1), "firstRow": _Look(text=_ACCENT), **_bands(_Paint("A", "alpha", 20000))},
    "light2": {"wholeTbl": _Look(text=_TX1), "firstRow": _Look(text=_BG1, fill=_ACCENT)},
    "light3": {"wholeTbl": _Look(text=_TX1), "firstRow": _Look(text=_ACCENT), **_bands(_Paint("A", "alpha", 20000))},
    "medium1": {
        "wholeTbl": _Look(text=_DK1, fill=_LT1),
        "lastRow": _Look(fill=_LT1),
        "firstRow": _Look(text=_LT1, fill=_ACCENT),
        **_bands(_Paint("A", "tint", 20000)),
    },
    "medium2": {
        "wholeTbl": _Look(text=_DK1, fill=_Paint("A", "tint", 20000)),
        **_bands(_Paint("A", "tint", 40000)),
        **{part: _Look(text=_LT1, fill=_ACCENT) for part in ("lastCol", "firstCol", "lastRow", "firstRow")},
    },
    # Medium Style 3 bands in grey (dk1), whatever the accent.
    "medium3": {
        "wholeTbl": _Look(text=_DK1, fill=_LT1),
        **_bands(_Paint("dk1", "tint", 20000)),
        "lastCol": _Look(text=_LT1, fill=_ACCENT),
        "firstCol": _Look(text=_LT1, fill=_ACCENT),
        "lastRow": _Look(fill=_LT1),
        "firstRow": _Look(text=_LT1, fill=_ACCENT),
    },
    "medium4": {
        "wholeTbl": _Look(text=_DK1, fill=_Paint("A", "tint", 20000)),
        **_bands(_Paint("A", "tint", 40000)),
        "lastRow": _Look(fill=_Paint("dk1", "tint", 20000)),
        "firstRow": _Look(text=_ACCENT, fill=_Paint("A", "tint", 20000)),
    },
    # Dark Style 1 darkens the accent (shade) but lightens plain dk1 (tint); the body
    # text stays dk1, black on the dark accent (measured).
    **{
        key: {
            "wholeTbl": _Look(text=_DK1, fill=_Paint("A", op, 20000)),
            **_bands(_Paint("A", op, 40000)),
            "lastCol": _Look(fill=_Paint("A", op, 60000)),
            "firstCol": _Look(fill=_Paint("A", op, 60000)),
            "lastRow": _Look(fill=_ACCENT),
            "firstRow": _Look(text=_LT1, fill=_DK1),
        }
        for key, op in (("dark1", "shade"), ("dark1-plain", "tint"))
    },
    # Dark Style 2 comes in accent pairs: the header in the second (B) colour.
    "dark2": {
        "wholeTbl": _Look(text=_DK1, fill=_Paint("A", "tint", 20000)),
        **_bands(_Paint("A", "tint", 40000)),
        "lastRow": _Look(fill=_Paint("A", "tint", 20000)),
        "firstRow": _Look(text=_LT1, fill=_Paint("B")),
    },
}

# GUID -> (name, family, A, B), PowerPoint's names; LibreOffice knows exactly these 74.
_STYLE_IDS: dict[str, tuple[str, str, str, str]] = {}


def _family(name: str, key: str, plain_slot: str, plain_id: str, accent_ids: list[str], *, plain_name: str | None = None) -> None:
    """Register a family of seven: the plain variant (its own look when the family has
    one, ``A`` = ``plain_slot``) and Accent 1..6 in the order of ``accent_ids``."""
    _STYLE_IDS[plain_id] = (plain_name or name, key + "-plain" if key + "-plain" in _FAMILY_LOOKS else key, plain_slot, plain_slot)
    for n, sid in enumerate(accent_ids, start=1):
        _STYLE_IDS[sid] = (f"{name} – Accent {n}", key, f"accent{n}", f"accent{n}")


_family("Themed Style 1", "themed1", "tx1", "{2D5ABB26-0587-4C30-8999-92F81FD0307C}", [
    "{3C2FFA5D-87B4-456A-9821-1D502468CF0F}", "{284E427A-3D55-4303-BF80-6455036E1DE7}", "{69C7853C-536D-4A76-A0AE-DD22124D55A5}",
    "{775DCB02-9BB8-47FD-8907-85C794F793BA}", "{35758FB7-9AC5-4552-8A53-C91805E547FA}", "{08FB837D-C827-4EFA-A057-4D05807E0F7C}",
], plain_name="No Style, No Grid")
_family("Themed Style 2", "themed2", "tx1", "{5940675A-B579-460E-94D1-54222C63F5DA}", [
    "{D113A9D2-9D6B-4929-AA2D-F23B5EE8CBE7}", "{18603FDC-E32A-4AB5-989C-0864C3EAD2B8}", "{306799F8-075E-4A3A-A7F6-7FBC6576F1A4}",
    "{E269D01E-BC32-4049-B463-5C60D7B0CCD2}", "{327F97BB-C833-4FB7-BDE5-3F7075034690}", "{638B1855-1B75-4FBE-930C-398BA8C253C6}",
], plain_name="No Style, Table Grid")
_family("Light Style 1", "light1", "tx1", "{9D7B26C5-4107-4FEC-AEDC-1716B250A1EF}", [
    "{3B4B98B0-60AC-42C2-AFA5-B58CD77FA1E5}", "{0E3FDE45-AF77-4B5C-9715-49D594BDF05E}", "{C083E6E3-FA7D-4D7B-A595-EF9225AFEA82}",
    "{D27102A9-8310-4765-A935-A1911B00CA55}", "{5FD0F851-EC5A-4D38-B0AD-8093EC10F338}", "{68D230F3-CF80-4859-8CE7-A43EE81993B5}",
])
_family("Light Style 2", "light2", "tx1", "{7E9639D4-E3E2-4D34-9284-5A2195B3D0D7}", [
    "{69012ECD-51FC-41F1-AA8D-1B2483CD663E}", "{72833802-FEF1-4C79-8D5D-14CF1EAF98D9}", "{F2DE63D5-997A-4646-A377-4702673A728D}",
    "{17292A2E-F333-43FB-9621-5CBBE7FDCDCB}", "{5A111915-BE36-4E01-A7E5-04B1672EAD32}", "{912C8C85-51F0-491E-9774-3900AFEF0FD7}",
])
_family("Light Style 3", "light3", "tx1", "{616DA210-FB5B-4158-B5E0-FEB733F419BA}", [
    "{BC89EF96-8CEA-46FF-86C4-4CE0E7609802}", "{5DA37D80-6434-44D0-A028-1B22A696006F}", "{8799B23B-EC83-4686-B30A-512413B5E67A}",
    "{ED083AE6-46FA-4A59-8FB0-9F97EB10719F}", "{BDBED569-4797-4DF1-A0F4-6AAB3CD982D8}", "{E8B1032C-EA38-4F05-BA0D-38AFFFC7BED3}",
])
_family("Medium Style 1", "medium1", "dk1", "{793D81CF-94F2-401A-BA57-92F5A7B2D0C5}", [
    "{B301B821-A1FF-4177-AEE7-76D212191A09}", "{9DCAF9ED-07DC-4A11-8D7F-57B35C25682E}", "{1FECB4D8-DB02-4DC6-A0A2-4F2EBAE1DC90}",
    "{1E171933-4619-4E11-9A3F-F7608DF75F80}", "{FABFCF23-3B69-468F-B69F-88F6DE6A72F2}", "{10A1B5D5-9B99-4C35-A422-299274C87663}",
])
MEDIUM_STYLE_2_ACCENT_1 = "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"  # python-pptx's default
_family("Medium Style 2", "medium2", "dk1", "{073A0DAA-6AF3-43AB-8588-CEC1D06C72B9}", [
    MEDIUM_STYLE_2_ACCENT_1, "{21E4AEA4-8DFA-4A89-87EB-49C32662AFE0}", "{F5AB1C69-6EDB-4FF4-983F-18BD219EF322}",
    "{00A15C55-8517-42AA-B614-E9B94910E393}", "{7DF18680-E054-41AD-8BC1-D1AEF772440D}", "{93296810-A885-4BE3-A3E7-6D5BEEA58F35}",
])
_family("Medium Style 3", "medium3", "dk1", "{8EC20E35-A176-4012-BC5E-935CFFF8708E}", [
    "{6E25E649-3F16-4E02-A733-19D2CDBF48F0}", "{85BE263C-DBD7-4A20-BB59-AAB30ACAA65A}", "{EB344D84-9AFB-497E-A393-DC336BA19D2E}",
    "{EB9631B5-78F2-41C9-869B-9F39066F8104}", "{74C1A8A3-306A-4EB7-A6B1-4F7E0EB9C5D6}", "{2A488322-F2BA-4B5B-9748-0D474271808F}",
])
_family("Medium Style 4", "medium4", "dk1", "{D7AC3CCA-C797-4891-BE02-D94E43425B78}", [
    "{69CF1AB2-1976-4502-BF36-3FF5EA218861}", "{8A107856-5554-42FB-B03E-39F5DBC370BA}", "{0505E3EF-67EA-436B-97B2-0124C06EBD24}",
    "{C4B1156A-380E-4F78-BDF5-A606A8083BF9}", "{22838BEF-8BB2-4498-84A7-C5851F593DF1}", "{16D9F66E-5EB9-4882-86FB-DCBF35E3C3E4}",
])
_family("Dark Style 1", "dark1", "dk1", "{E8034E78-7F5D-4C2E-B375-FC64B27BC917}", [
    "{125E5076-3810-47DD-B79F-674D7AD40C01}", "{37CE84F3-28C3-443E-9E96-99CF82512B78}", "{D03447BB-5D67-496B-8E87-E561075AD55C}",
    "{E929F9F4-4A8F-4326-A1B4-22849713DDAB}", "{8FD4443E-F989-4FC4-A0C8-D5A2AF1F390B}", "{AF606853-7671-496A-8E4F-DF71F8EC918B}",
])
# Dark Style 2 comes in pairs: Accent 1/Accent 2, 3/4, 5/6.
_STYLE_IDS["{5202B0CA-FC54-4496-8BCA-5EF66A818D29}"] = ("Dark Style 2", "dark2", "dk1", "dk1")
_STYLE_IDS.update(
    (sid, (f"Dark Style 2 – Accent {n}/Accent {n + 1}", "dark2", f"accent{n}", f"accent{n + 1}"))
    for n, sid in (
        (1, "{0660B408-B3CF-4A94-85FC-2B1E0A45F4A2}"),
        (3, "{91EBBBCC-DAD2-459C-BE2E-F6DE35CF9A28}"),
        (5, "{46F890A9-2807-4EBB-B81D-B2AA78EC7F39}"),
    )
)


def _over_white(alpha: int) -> str:
    """Modifiers that make a colour what it looks like at opacity ``alpha`` (thousandths
    of a percent) over white: ``alpha·c + (1 − alpha)`` on each sRGB channel, as the
    PDF composites it. Only for Themed Style 2, whose bands lie over the table's own
    accent background rather than the slide: lt1 at 20% over the accent is the accent
    at 80% over white while lt1 is white. Channel modifiers work on linear RGB;
    ``gamma`` first makes the linear value the sRGB one, and ``invGamma`` turns it back.
    The fill keeps its theme slot; its modifiers text (``fill_theme_mods``) shows this
    chain."""
    mods = "".join(f'<a:{ch}Mod val="{alpha}"/><a:{ch}Off val="{100000 - alpha}"/>' for ch in ("red", "green", "blue"))
    return f"<a:gamma/>{mods}<a:invGamma/>"


def _color(paint: _Paint, a: str, b: str) -> str:
    slot = {"A": a, "B": b}.get(paint.slot, paint.slot)
    if paint.op is None:
        mods = ""
    elif paint.op == "over_white":
        mods = _over_white(paint.val)
    elif paint.op == "alpha":
        mods = f'<a:alpha val="{paint.val}"/>'
    else:
        mods = f'<a:{paint.op} val="{paint.val}"/>'
    return f'<a:schemeClr val="{slot}">{mods}</a:schemeClr>'


# Document order of a:tblStyle's parts (the schema's sequence).
_PART_ORDER = ("wholeTbl", "band1H", "band2H", "band1V", "band2V", "lastCol", "firstCol", "lastRow", "firstRow")


def _definition(style_id: str, name: str, looks: dict[str, _Look], a: str, b: str) -> str:
    """One built-in style as an ``a:tblStyle`` in DrawingML."""
    out = [f'<a:tblStyle xmlns:a="{A_NS}" styleId="{style_id}" styleName="{name}">']
    for part in _PART_ORDER:
        look = looks.get(part)
        if look is None:
            continue
        out.append(f"<a:{part}>")
        if look.text is not None:
            out.append(f'<a:tcTxStyle><a:fontRef idx="minor"/>{_color(look.text, a, b)}</a:tcTxStyle>')
        fill = f"<a:fill><a:solidFill>{_color(look.fill, a, b)}</a:solidFill></a:fill>" if look.fill is not None else ""
        out.append(f"<a:tcStyle>{fill}</a:tcStyle></a:{part}>")
    out.append("</a:tblStyle>")
    return "".join(out)


def _built_in(style_id: str) -> str | None:
    """The embedded definition of a built-in style GUID (any case); None for others."""
    found = _STYLE_IDS.get(style_id.upper())
    if found is None:
        return None
    name, family, a, b = found
    return _definition(style_id, name, _FAMILY_LOOKS[family], a, b)


class TableStyles:
    """Table style definitions by styleId (the package's, then built-ins)."""

    def __init__(self, root: etree._Element | None) -> None:
        self.by_id: dict[str, etree._Element] = {}
        self.default_id: str | None = None
        if root is not None:
            self.default_id = root.get("def")
            for style in root.iterfind(f"{_A}tblStyle"):
                sid = style.get("styleId")
                if sid:
                    self.by_id[sid] = style

    def get(self, style_id: str | None) -> etree._Element | None:
        if not style_id:
            return None
        found = self.by_id.get(style_id)
        if found is None:
            definition = _built_in(style_id)
            if definition is not None:
                found = etree.fromstring(definition, parser=SAFE_XML_PARSER)
                self.by_id[style_id] = found
        return found

    def for_table(self, tbl: etree._Element) -> etree._Element | None:
        """The style a table uses: inline ``a:tblStyle``, else ``a:tableStyleId``. A
        table without either has no style (PowerPoint then draws plain cells)."""
        tbl_pr = tbl.find(f"{_A}tblPr")
        if tbl_pr is None:
            return None
        inline = tbl_pr.find(f"{_A}tblStyle")
        if inline is not None:
            return inline
        sid = tbl_pr.findtext(f"{_A}tableStyleId")
        return self.get(sid.strip()) if sid else None


def _on(tbl_pr: etree._Element | None, name: str) -> bool:
    return tbl_pr is not None and tbl_pr.get(name) in ("1", "true")


def cell_parts(style: etree._Element, tbl: etree._Element, row: int, col: int, rows: int, cols: int) -> list[etree._Element]:
    """The style parts that apply to a cell, highest precedence first."""
    tbl_pr = tbl.find(f"{_A}tblPr")
    names: list[str] = ["wholeTbl"]
    first_row, first_col = _on(tbl_pr, "firstRow"), _on(tbl_pr, "firstCol")
    if _on(tbl_pr, "bandRow"):
        band = row - (1 if first_row else 0)
        if band >= 0:
            names.append("band1H" if band % 2 == 0 else "band2H")
    if _on(tbl_pr, "bandCol"):
        band = col - (1 if first_col else 0)
        if band >= 0:
            names.append("band1V" if band % 2 == 0 else "band2V")
    if _on(tbl_pr, "lastCol") and col == cols - 1:
        names.append("lastCol")
    if first_col and col == 0:
        names.append("firstCol")
    if _on(tbl_pr, "lastRow") and row == rows - 1:
        names.append("lastRow")
    if first_row and row == 0:
        names.append("firstRow")
    found = [style.find(f"{_A}{n}") for n in reversed(names)]
    return [p for p in found if p is not None]


def part_fill(parts: list[etree._Element]) -> etree._Element | None:
    """The fill element (``a:solidFill`` ...) of the first part that states one."""
    for part in parts:
        fill = part.find(f"{_A}tcStyle/{_A}fill")
        if fill is not None:
            for child in fill:
                if isinstance(child.tag, str):
                    return child
    return None


def part_text_rpr(parts: list[etree._Element]) -> etree._Element | None:
    """The parts' ``a:tcTxStyle`` merged into one synthesized ``a:defRPr`` (bold,
    italic, theme font, colour), highest precedence first."""
    rpr = etree.Element(f"{_A}defRPr")
    have_font = have_color = False
    for part in parts:
        tx = part.find(f"{_A}tcTxStyle")
        if tx is None:
            continue
        for attr, name in (("b", "b"), ("i", "i")):
            v = tx.get(attr)
            if v is not None and rpr.get(name) is None:
                rpr.set(name, "1" if v == "on" else "0")
        if not have_font:
            ref = tx.find(f"{_A}fontRef")
            font = tx.find(f"{_A}font/{_A}latin")
            if font is not None and font.get("typeface"):
                etree.SubElement(rpr, f"{_A}latin").set("typeface", font.get("typeface") or "")
                have_font = True
            elif ref is not None and ref.get("idx") in ("major", "minor"):
                etree.SubElement(rpr, f"{_A}latin").set("typeface", "+mj-lt" if ref.get("idx") == "major" else "+mn-lt")
                have_font = True
        if not have_color:
            for child in tx:
                if isinstance(child.tag, str) and etree.QName(child).localname in ("srgbClr", "schemeClr", "sysClr", "prstClr", "scrgbClr", "hslClr"):
                    fill = etree.SubElement(rpr, f"{_A}solidFill")
                    fill.append(etree.fromstring(etree.tostring(child)))
                    have_color = True
                    break
    return rpr if len(rpr) or rpr.attrib else None
