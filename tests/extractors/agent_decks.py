"""Decks built the way agents build them: python-pptx edits of the default template
(moved placeholders, overflowing text, autofit, added text boxes), plus the few XML edits
python-pptx has no API for. Shared by the .pptx geometry, layout and chart tests."""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from lxml import etree
from PIL import Image
from pptx import Presentation
from pptx.util import Emu

A = "http://schemas.openxmlformats.org/drawingml/2006/main"
FIXED_TIME = datetime(2024, 1, 1)
_A = f"{{{A}}}"

# The default template's master body placeholder (EMU): where a layout without an xfrm
# puts its content placeholder.
MASTER_BODY = (457200, 1600200, 8229600, 4525963)
XFRM_PARTS = ("none", "empty", "off", "ext", "both")
"""How a placeholder's own ``a:xfrm`` can look: absent, ``<a:xfrm/>``, ``a:off`` only
(python-pptx after ``shape.top = ...``), ``a:ext`` only (after ``shape.width = ...``),
or complete."""


@dataclass(frozen=True)
class XfrmCase:
    """One slide: the layout placeholder's xfrm and the slide placeholder's xfrm, each
    one of :data:`XFRM_PARTS` (the layout's never ``empty``), and the frame that must
    result (EMU: x, y, cx, cy), with an anchor that makes it visible in a render:
    ``t`` (text starts at the frame's top-left) or ``b`` (centred on the bottom edge)."""

    layout: str
    slide: str
    anchor: str
    expected: tuple[int, int, int, int]

    @property
    def marker(self) -> str:
        return f"Mark{self.layout.title()}{self.slide.title()}{self.anchor.upper()}"


# Distinct positions and sizes per level, so the test can tell which one was used.
_LAYOUT_OFF = (1371600, 914400)  # 1.5 in, 1 in
_LAYOUT_EXT = (3657600, 2743200)  # 4 x 3 in
_SLIDE_OFF = (2743200, 3200400)  # 3 in, 3.5 in
_SLIDE_EXT = (5486400, 1828800)  # 6 x 2 in
# Layouts of the default template with an idx=1 content placeholder, one per layout case.
_LAYOUT_FOR = {"both": 1, "off": 3, "ext": 7, "none": 2}


def _set_xfrm(sp_pr: etree._Element, parts: str, off: tuple[int, int], ext: tuple[int, int]) -> None:
    for old in sp_pr.findall(f"{_A}xfrm"):
        sp_pr.remove(old)
    if parts == "none":
        return
    xfrm = etree.Element(f"{_A}xfrm")
    sp_pr.insert(0, xfrm)
    if parts in ("off", "both"):
        etree.SubElement(xfrm, f"{_A}off", x=str(off[0]), y=str(off[1]))
    if parts in ("ext", "both"):
        etree.SubElement(xfrm, f"{_A}ext", cx=str(ext[0]), cy=str(ext[1]))


def xfrm_cases() -> list[XfrmCase]:
    """Every combination of layout and slide xfrm parts, with both anchors."""
    out = []
    for layout in ("both", "off", "ext", "none"):
        lay_off = _LAYOUT_OFF if layout in ("off", "both") else MASTER_BODY[:2]
        lay_ext = _LAYOUT_EXT if layout in ("ext", "both") else MASTER_BODY[2:]
        for slide in XFRM_PARTS:
            off = _SLIDE_OFF if slide in ("off", "both") else lay_off
            ext = _SLIDE_EXT if slide in ("ext", "both") else lay_ext
            for anchor in ("t", "b"):
                out.append(XfrmCase(layout, slide, anchor, (off[0], off[1], ext[0], ext[1])))
    return out


def build_xfrm_deck(path: Path) -> list[XfrmCase]:
    """One slide per :func:`xfrm_cases` entry; its content placeholder holds one
    paragraph (no bullet) with the case's marker. The slide's ``a:xfrm`` parts are
    written as python-pptx writes them (``shape.top = ...`` adds a lone ``a:off``)."""
    prs = Presentation()
    for layout_case, index in _LAYOUT_FOR.items():
        ph = next(p for p in prs.slide_layouts[index].placeholders if p.placeholder_format.idx == 1)
        _set_xfrm(ph._element.spPr, layout_case, _LAYOUT_OFF, _LAYOUT_EXT)
    cases = xfrm_cases()
    for case in cases:
        slide = prs.slides.add_slide(prs.slide_layouts[_LAYOUT_FOR[case.layout]])
        body = next(p for p in slide.placeholders if p.placeholder_format.idx == 1)
        if case.slide in ("off", "both"):
            body.left, body.top = Emu(_SLIDE_OFF[0]), Emu(_SLIDE_OFF[1])  # python-pptx: a lone a:off
        if case.slide in ("ext", "both"):
            body.width, body.height = Emu(_SLIDE_EXT[0]), Emu(_SLIDE_EXT[1])
        if case.slide == "empty":
            etree.SubElement(body._element.spPr, f"{_A}xfrm")
        frame = body.text_frame
        frame.text = case.marker
        frame._txBody.bodyPr.set("anchor", case.anchor)
        p_pr = frame.paragraphs[0]._p.get_or_add_pPr()
        p_pr.set("algn", "ctr" if case.anchor == "b" else "l")
        p_pr.set("marL", "0")
        p_pr.set("indent", "0")
        etree.SubElement(p_pr, f"{_A}buNone")
    save(prs, path)
    return cases


def png_bytes(size: tuple[int, int] = (64, 48), color: tuple[int, int, int] = (40, 120, 200)) -> io.BytesIO:
    """A small solid PNG as python-pptx takes pictures (a file-like object)."""
    out = io.BytesIO()
    Image.new("RGB", size, color).save(out, format="PNG")
    out.seek(0)
    return out


def save(prs: object, path: Path) -> Path:
    """``prs.save(path)`` with fixed core properties and zip member times, so the same
    deck is the same bytes on every run and its render comes from the render cache."""
    from pptx.presentation import Presentation as PresentationType

    assert isinstance(prs, PresentationType)
    cp = prs.core_properties
    cp.created = cp.modified = FIXED_TIME
    cp.last_modified_by = "tests"
    cp.revision = 1
    buf = io.BytesIO()
    prs.save(buf)
    with zipfile.ZipFile(io.BytesIO(buf.getvalue())) as zin:
        members = [(i.filename, zin.read(i)) for i in zin.infolist()]
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, blob in members:
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME.timetuple()[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            zout.writestr(info, blob)
    path.write_bytes(out.getvalue())
    return path


def chart_slide(series: dict[str, tuple[float, ...]], *, chart_type: object = None, categories: tuple[str, ...] = ("North", "South", "East")) -> tuple[Any, Any]:
    """A one-slide deck (blank layout) holding a 6 x 4 in chart at (1 in, 1 in), as
    ``slide.shapes.add_chart`` makes it: ``(presentation, chart)``, for the caller to set
    the chart's title, legend or labels and save. ``chart_type``: an ``XL_CHART_TYPE``
    (default clustered columns)."""
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    data = CategoryChartData()
    data.categories = list(categories)
    for name, values in series.items():
        data.add_series(name, values)
    kind = XL_CHART_TYPE.COLUMN_CLUSTERED if chart_type is None else chart_type
    frame = slide.shapes.add_chart(kind, Inches(1), Inches(1), Inches(6), Inches(4), data)  # type: ignore[no-untyped-call]
    return prs, frame.chart


def styled_table_slides(style_ids: dict[str, str], rows: int, cols: int) -> tuple[Any, dict[str, Any]]:
    """A deck with one slide per ``tag -> style GUID``, each a 6 x 2 in python-pptx table
    (header row and banded rows on, its defaults) whose ``a:tableStyleId`` is that GUID,
    as an agent picks a built-in style (python-pptx has no API for it): ``(presentation,
    {tag: table})``, for the caller to fill and save."""
    from pptx.util import Inches

    prs = Presentation()
    tables: dict[str, Any] = {}
    for tag, style_id in style_ids.items():
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        table = slide.shapes.add_table(rows, cols, Inches(1), Inches(1), Inches(6), Inches(2)).table
        table._tbl.tblPr.find(f"{_A}tableStyleId").text = style_id
        tables[tag] = table
    return prs, tables
