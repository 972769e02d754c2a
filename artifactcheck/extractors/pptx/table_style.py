"""Table styles (``ppt/tableStyles.xml``): the fill and text style a cell gets from its
table's style, by the cell's role (header row, banded row, first column ...).

PowerPoint writes the definition of every style a deck uses into tableStyles.xml;
python-pptx does not, and its tables use PowerPoint's default "Medium Style 2 – Accent 1",
whose definition is embedded below as LibreOffice draws it when the package lacks it:
PowerPoint's definition (fills, white header text) without its ``b="on"`` - LibreOffice's
own predefined copy of the style draws the header and total text regular, while the
same definition written into tableStyles.xml is drawn bold (both measured on the fonts
of the render, tests/extractors/test_pptx_table_style_render.py). The other six styles of
that family (Accent 2..6 and plain "Medium Style 2", whose colour is ``dk1``) are the same
definition in another colour, as LibreOffice's predefined-table-styles.cxx builds them: an
agent picks one by writing its GUID into ``a:tableStyleId`` (python-pptx has no API for
it), and without them the header read black on no fill while it is drawn white on the
accent (tests/extractors/test_pptx_builtin_table_styles.py). The other built-in families
(Light, Themed, Medium 1/3/4, Dark) are not embedded: their cells read unstyled.

Parts apply in increasing precedence: ``wholeTbl``, ``band1H``/``band2H`` (when
``bandRow``), ``band1V``/``band2V`` (when ``bandCol``), ``lastCol``, ``firstCol``,
``lastRow``, ``firstRow`` (each when its ``a:tblPr`` flag is on). Banding counts rows
(columns) after the header row (first column) when that is on. The cell's own ``a:tcPr``
fill and the runs' own properties still win.
"""

from __future__ import annotations

from lxml import etree

from ..drawingml.color import A_NS
from ..package.xml import SAFE_XML_PARSER

_A = f"{{{A_NS}}}"

MEDIUM_STYLE_2_ACCENT_1 = "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"
# The Medium Style 2 family by GUID and the theme colour it is drawn in (LibreOffice's
# predefined-table-styles.cxx: the plain style uses dk1).
MEDIUM_STYLE_2: dict[str, tuple[str, str]] = {
    "{073A0DAA-6AF3-43AB-8588-CEC1D06C72B9}": ("Medium Style 2", "dk1"),
    MEDIUM_STYLE_2_ACCENT_1: ("Medium Style 2 – Accent 1", "accent1"),
    "{21E4AEA4-8DFA-4A89-87EB-49C32662AFE0}": ("Medium Style 2 – Accent 2", "accent2"),
    "{F5AB1C69-6EDB-4FF4-983F-18BD219EF322}": ("Medium Style 2 – Accent 3", "accent3"),
    "{00A15C55-8517-42AA-B614-E9B94910E393}": ("Medium Style 2 – Accent 4", "accent4"),
    "{7DF18680-E054-41AD-8BC1-D1AEF772440D}": ("Medium Style 2 – Accent 5", "accent5"),
    "{93296810-A885-4BE3-A3E7-6D5BEEA58F35}": ("Medium Style 2 – Accent 6", "accent6"),
}
_LT1_LINE = '<a:ln w="12700" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln>'
_HEADER_LT1 = '<a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle>'


def _medium_style_2(style_id: str, name: str, slot: str) -> str:
    """The definition of one Medium Style 2 colour, in DrawingML."""
    fill = f'<a:fill><a:solidFill><a:schemeClr val="{slot}"/></a:solidFill></a:fill>'

    def tint(val: int) -> str:
        return f'<a:fill><a:solidFill><a:schemeClr val="{slot}"><a:tint val="{val}"/></a:schemeClr></a:solidFill></a:fill>'

    return (
        f'<a:tblStyle xmlns:a="{A_NS}" styleId="{style_id}" styleName="{name}">'
        '<a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="dk1"/></a:tcTxStyle>'
        f"<a:tcStyle><a:tcBdr><a:left>{_LT1_LINE}</a:left><a:right>{_LT1_LINE}</a:right><a:top>{_LT1_LINE}</a:top>"
        f"<a:bottom>{_LT1_LINE}</a:bottom><a:insideH>{_LT1_LINE}</a:insideH><a:insideV>{_LT1_LINE}</a:insideV></a:tcBdr>"
        f"{tint(20000)}</a:tcStyle></a:wholeTbl>"
        f"<a:band1H><a:tcStyle><a:tcBdr/>{tint(40000)}</a:tcStyle></a:band1H>"
        "<a:band2H><a:tcStyle><a:tcBdr/></a:tcStyle></a:band2H>"
        f"<a:band1V><a:tcStyle><a:tcBdr/>{tint(40000)}</a:tcStyle></a:band1V>"
        "<a:band2V><a:tcStyle><a:tcBdr/></a:tcStyle></a:band2V>"
        f"<a:lastCol>{_HEADER_LT1}<a:tcStyle><a:tcBdr/>{fill}</a:tcStyle></a:lastCol>"
        f"<a:firstCol>{_HEADER_LT1}<a:tcStyle><a:tcBdr/>{fill}</a:tcStyle></a:firstCol>"
        f'<a:lastRow>{_HEADER_LT1}<a:tcStyle><a:tcBdr><a:top><a:ln w="38100" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:top></a:tcBdr>{fill}</a:tcStyle></a:lastRow>'
        f'<a:firstRow>{_HEADER_LT1}<a:tcStyle><a:tcBdr><a:bottom><a:ln w="38100" cmpd="sng"><a:solidFill><a:schemeClr val="lt1"/></a:solidFill></a:ln></a:bottom></a:tcBdr>{fill}</a:tcStyle></a:firstRow>'
        "</a:tblStyle>"
    )


_BUILT_IN: dict[str, str] = {sid: _medium_style_2(sid, name, slot) for sid, (name, slot) in MEDIUM_STYLE_2.items()}


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
        if found is None and style_id in _BUILT_IN:
            found = etree.fromstring(_BUILT_IN[style_id], parser=SAFE_XML_PARSER)
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
