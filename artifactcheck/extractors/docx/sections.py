"""Sections (``w:sectPr``): page size, margins, orientation, columns, header/footer links.

A section's properties sit at its end: in the ``w:pPr`` of its last paragraph, and for
the last section directly in ``w:body``. Header and footer references a section does not
state are inherited from the previous section (ECMA-376 17.10.5). Lengths in points.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from ...model.units import twips_to_pt
from .package import W_NS, is_on

W = f"{{{W_NS}}}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"

# Word's defaults when a sectPr omits them: US Letter, 1" margins, header/footer 0.5".
_DEFAULT_PAGE = (612.0, 792.0)
_DEFAULT_MARGINS = {
    "top": 72.0,
    "bottom": 72.0,
    "left": 72.0,
    "right": 72.0,
    "header": 36.0,
    "footer": 36.0,
    "gutter": 0.0,
}


@dataclass
class Section:
    index: int
    attrs: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)  # type -> rId
    footers: dict[str, str] = field(default_factory=dict)
    title_page: bool = False


def _pt(el: etree._Element | None, attr: str) -> float | None:
    if el is None:
        return None
    v = el.get(f"{W}{attr}")
    if v is None:
        return None
    try:
        return round(twips_to_pt(float(v)), 3)
    except ValueError:
        return None


def parse_section(sect: etree._Element | None, index: int, previous: Section | None) -> Section:
    attrs: dict[str, Any] = {"index": index}
    if sect is None:
        sect = etree.Element(f"{W}sectPr")
    pg = sect.find(f"{W}pgSz")
    width = _pt(pg, "w") or _DEFAULT_PAGE[0]
    height = _pt(pg, "h") or _DEFAULT_PAGE[1]
    orient = pg.get(f"{W}orient") if pg is not None else None
    attrs["page_width"] = width
    attrs["page_height"] = height
    # Word and LibreOffice lay out by the stated size; w:orient is advisory. python-docx's
    # `section.orientation = LANDSCAPE` alone (no width/height swap, a common agent slip)
    # states landscape on a page drawn portrait (measured: a 612 x 792 pt PDF page), so the
    # orientation is the drawn page's and a disagreeing w:orient is kept beside it.
    attrs["orientation"] = "landscape" if width > height else "portrait"
    if orient in ("landscape", "portrait") and orient != attrs["orientation"]:
        attrs["orientation_stated"] = orient
    mar = sect.find(f"{W}pgMar")
    attrs["margins"] = {
        k: (_pt(mar, k) if _pt(mar, k) is not None else d) for k, d in _DEFAULT_MARGINS.items()
    }
    cols = sect.find(f"{W}cols")
    count = 1
    col_attrs: dict[str, Any] = {}
    if cols is not None:
        try:
            count = max(1, int(cols.get(f"{W}num", "1")))
        except ValueError:
            count = 1
        space = _pt(cols, "space")
        col_attrs["space"] = space if space is not None else 36.0
        explicit = cols.findall(f"{W}col")
        if explicit:
            col_attrs["widths"] = [_pt(c, "w") for c in explicit]
            count = (
                max(count, len(explicit)) if cols.get(f"{W}equalWidth") in ("0", "false") else count
            )
        if cols.get(f"{W}sep") in ("1", "true"):
            col_attrs["separator"] = True
    attrs["columns"] = count
    if col_attrs and count > 1:
        attrs["column_layout"] = col_attrs
    stype = sect.find(f"{W}type")
    attrs["start"] = stype.get(f"{W}val", "nextPage") if stype is not None else "nextPage"
    title_pg = bool(is_on(sect.find(f"{W}titlePg")))
    attrs["title_page"] = title_pg
    attrs.update(_page_numbering(sect))
    section = Section(index=index, attrs=attrs, title_page=title_pg)
    if previous is not None:
        section.headers.update(previous.headers)
        section.footers.update(previous.footers)
    for tag, target in (("headerReference", section.headers), ("footerReference", section.footers)):
        for ref in sect.findall(f"{W}{tag}"):
            rid = ref.get(f"{R}id")
            if rid:
                target[ref.get(f"{W}type") or "default"] = rid
    return section


def _page_numbering(sect: etree._Element) -> dict[str, Any]:
    """``page_number_start`` and ``page_number_format`` as the section's ``w:pgNumType``
    states them (nothing when it does not: numbers continue from the previous section,
    in decimal). Measured against LibreOffice 7.4's render: a section without ``w:start``
    continues counting, one without ``w:fmt`` prints decimal (not the previous section's
    format), ``w:start="0"`` prints 0. python-docx's ``add_section`` copies the previous
    ``w:sectPr``, so a file may hold two; their attributes are read in order, later ones
    winning."""
    out: dict[str, Any] = {}
    for el in sect.findall(f"{W}pgNumType"):
        start = el.get(f"{W}start")
        if start is not None:
            try:
                out["page_number_start"] = max(0, int(start))
            except ValueError:
                pass
        fmt = el.get(f"{W}fmt")
        if fmt:
            out["page_number_format"] = fmt
    return out
