"""Per-slide context: its layout, master, theme, colour map, placeholder inheritance and
the text-style chain each shape resolves through.

Placeholder matching (what PowerPoint does, and python-pptx only partly): a slide
placeholder finds its layout placeholder by ``idx`` (then by type); a layout placeholder
finds its master placeholder by type, where ``ctrTitle`` maps to ``title`` and content
types (``obj``, ``subTitle``, ``body``, ``tbl``, ``chart``, ``pic``, ...) map to ``body``.
A slide shape's xfrm, fill and text styles fall back along [slide, layout, master].
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from lxml import etree

from ..drawingml.color import A_NS, DEFAULT_CLR_MAP, Theme, parse_clr_map
from .media import MediaStore
from .package import PptxPackage
from .table_style import TableStyles
from .text import TextContext, font_ref_rpr

P_NS = "http://schemas.openxmlformats.org/presentationml/2006/main"
_P = f"{{{P_NS}}}"
_A = f"{{{A_NS}}}"
_MASTER_TYPE = {"ctrTitle": "title", "title": "title", "dt": "dt", "ftr": "ftr", "sldNum": "sldNum", "hdr": "hdr"}


def local(el: etree._Element) -> str:
    return etree.QName(el).localname if isinstance(el.tag, str) else ""


def child(el: etree._Element | None, name: str) -> etree._Element | None:
    """First child with this local name, any namespace (``p:``, ``dsp:`` ...)."""
    if el is None:
        return None
    # A suffix test on the tag string: building a QName per child was a tenth of the
    # extraction time (bench/bench_extract_pptx.py).
    suffix = "}" + name
    for c in el:
        tag = c.tag
        if isinstance(tag, str) and (tag.endswith(suffix) or tag == name):
            return c
    return None


def placeholder_of(shape: etree._Element) -> etree._Element | None:
    """The ``p:ph`` of a shape (under ``nvSpPr``/``nvPicPr``/``nvGraphicFramePr``...)."""
    for nv in shape:
        if isinstance(nv.tag, str) and etree.QName(nv).localname.startswith("nv"):
            nv_pr = child(nv, "nvPr")
            return child(nv_pr, "ph")
    return None


def ph_type(ph: etree._Element) -> str:
    return ph.get("type") or "obj"


class PlaceholderIndex:
    """Placeholders of one layout or master spTree, by idx and by type."""

    def __init__(self, root: etree._Element | None) -> None:
        self.by_idx: dict[str, etree._Element] = {}
        self.by_type: dict[str, etree._Element] = {}
        if root is None:
            return
        tree = root.find(f"{_P}cSld/{_P}spTree")
        if tree is None:
            return
        for shape in tree.iter(f"{_P}sp", f"{_P}pic", f"{_P}graphicFrame"):
            ph = placeholder_of(shape)
            if ph is None:
                continue
            if ph.get("idx") is not None:
                self.by_idx.setdefault(ph.get("idx", ""), shape)
            self.by_type.setdefault(ph_type(ph), shape)

    def for_slide(self, ph: etree._Element) -> etree._Element | None:
        """The layout placeholder a slide placeholder inherits from."""
        idx = ph.get("idx")
        if idx is not None and idx in self.by_idx:
            return self.by_idx[idx]
        t = ph_type(ph)
        found = self.by_type.get(t)
        if found is None and t in ("title", "ctrTitle"):
            found = self.by_type.get("title") or self.by_type.get("ctrTitle")
        if found is None and idx is None and t == "obj":
            found = self.by_type.get("body")
        return found

    def for_layout(self, ph: etree._Element) -> etree._Element | None:
        """The master placeholder a layout (or slide) placeholder inherits from."""
        t = _MASTER_TYPE.get(ph_type(ph), "body")
        return self.by_type.get(t)


@dataclass
class SlideContext:
    """What every shape on one slide needs. ``page`` is the 0-based slide index."""

    pkg: PptxPackage
    page: int
    part: str
    theme: Theme
    theme_part: str | None
    clr_map: dict[str, str]
    layout: etree._Element | None
    master: etree._Element | None
    layout_ph: PlaceholderIndex
    master_ph: PlaceholderIndex
    default_text_style: etree._Element | None
    media: MediaStore
    warnings: list[str]
    hyperlink: Callable[[str | None, str | None], str | None]
    table_styles: TableStyles | None = None
    slide_number: int | None = None  # shown by slidenum fields: first_slide_number + page
    z: int = 0
    # id(shape) -> (shape, context): the entry keeps the lxml proxy alive, else its id may
    # be reused by the next shape's proxy and that shape would get this one's styles
    _text_ctx_cache: dict[int, tuple[etree._Element, TextContext]] = field(default_factory=dict)

    def inherited(self, shape: etree._Element) -> list[etree._Element]:
        """[layout placeholder, master placeholder] a slide shape inherits from (empty
        for non-placeholders)."""
        ph = placeholder_of(shape)
        if ph is None:
            return []
        chain: list[etree._Element] = []
        lay = self.layout_ph.for_slide(ph)
        if lay is not None:
            chain.append(lay)
            lay_ph = placeholder_of(lay)
            mas = self.master_ph.for_layout(lay_ph if lay_ph is not None else ph)
        else:
            mas = self.master_ph.for_layout(ph)
        if mas is not None:
            chain.append(mas)
        return chain

    def master_text_style(self, ph: etree._Element | None) -> list[etree._Element]:
        styles = self.master.find(f"{_P}txStyles") if self.master is not None else None
        out: list[etree._Element] = []
        if ph is None:
            if self.default_text_style is not None:
                out.append(self.default_text_style)
            other = styles.find(f"{_P}otherStyle") if styles is not None else None
            if other is not None:
                out.append(other)
            return out
        t = ph_type(ph)
        name = "titleStyle" if t in ("title", "ctrTitle") else "otherStyle" if t in ("dt", "ftr", "sldNum", "hdr") else "bodyStyle"
        st = styles.find(f"{_P}{name}") if styles is not None else None
        if st is not None:
            out.append(st)
        if self.default_text_style is not None:
            out.append(self.default_text_style)
        return out

    def text_context(self, shape: etree._Element, inherited: list[etree._Element]) -> TextContext:
        """The style chain for text in ``shape`` (cached per shape element)."""
        key = id(shape)
        cached = self._text_ctx_cache.get(key)
        if cached is not None and cached[0] is shape:
            return cached[1]
        lists: list[etree._Element] = []
        own = child(child(shape, "txBody"), "lstStyle")
        if own is not None:
            lists.append(own)
        for src in inherited:
            lst = child(child(src, "txBody"), "lstStyle")
            if lst is not None:
                lists.append(lst)
        lists.extend(self.master_text_style(placeholder_of(shape)))
        ctx = TextContext(
            theme=self.theme,
            clr_map=self.clr_map,
            list_styles=lists,
            font_ref=font_ref_rpr(child(shape, "style")),
            font_ref_at=1 if own is not None else 0,
            hyperlink=self.hyperlink,
            slide_number=self.slide_number,
        )
        self._text_ctx_cache[key] = (shape, ctx)
        return ctx

    def next_z(self) -> int:
        z = self.z
        self.z += 1
        return z


def load_theme(pkg: PptxPackage, master_part: str | None, warnings: list[str]) -> tuple[Theme, str | None]:
    """The master's theme (Office's default theme when the master has none)."""
    if master_part is None:
        return Theme(), None
    theme_part = pkg.first_related(master_part, "theme")
    if theme_part is None:
        warnings.append(f"{master_part} has no theme; Office's default theme colours and fonts are used")
        return Theme(), None
    return Theme.from_element(pkg.xml(theme_part)), theme_part


def slide_clr_map(slide: etree._Element, layout: etree._Element | None, master: etree._Element | None) -> dict[str, str]:
    """The master's ``p:clrMap``, overridden by the layout's then the slide's
    ``p:clrMapOvr/a:overrideClrMapping`` (``a:masterClrMapping`` keeps the master's)."""
    base = parse_clr_map(master.find(f"{_P}clrMap") if master is not None else None, DEFAULT_CLR_MAP)
    for el in (layout, slide):
        if el is None:
            continue
        ovr = el.find(f"{_P}clrMapOvr/{_A}overrideClrMapping")
        if ovr is not None:
            base = parse_clr_map(ovr, base)
    return base
