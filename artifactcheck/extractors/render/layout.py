"""``read_layout``: what a PDF puts where — characters, words, lines, images, page sizes
and (for tagged PDFs) the structure tree's marked-content ids.

All geometry is in points with the origin at the **top-left** of each page's crop box, y
down (pdfium's bottom-left coordinates are converted here, once). Character boxes run
horizontally over pdfium's loose box and vertically over the *line band* — baseline minus
(ascent + line gap) to baseline plus descent, from the embedded font's ``hhea`` table —
so a line's characters share one top and bottom, consecutive single-spaced lines tile,
and a paragraph box covers its lines fully (tight glyph boxes would shrink a "." to a
dot). Whitespace the PDF does not draw
(pdfium infers spaces and line ends) is kept as characters with ``generated=True`` and a
zero-size box at the preceding character, so the character stream reads like the text.

Read with pypdfium2 (the PDFium engine): 2.4–4.8x faster than pdfplumber on the same dense
pages (measured side by side, design/rendering.md), and it exposes marked-content ids,
the structure tree and image pixels.
"""

from __future__ import annotations

import collections
import ctypes
import gc
import hashlib
import importlib
import io
import itertools
import logging
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property
from operator import itemgetter
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ...errors import RenderError
from ...limits import current_limits
from .pdfium_lock import PDFIUM_LOCK

__all__ = [
    "CharColumns",
    "FontFacts",
    "PageLayout",
    "PdfChar",
    "PdfImage",
    "PdfLayout",
    "PdfLine",
    "PdfRule",
    "PdfWord",
    "StructElement",
    "font_facts",
    "read_layout",
]


@dataclass(frozen=True, slots=True)
class PageLayout:
    """One page: 0-based ``index``, ``width``/``height`` in points (crop box)."""

    index: int
    width: float
    height: float


class PdfChar(NamedTuple):
    """One character of the text layer (top-left origin, points).

    ``top``/``bottom`` span the font's ascent-to-descent band at the baseline, so all
    characters of a line share them. ``mcid`` is the marked-content id of the text
    object that drew it (-1 when untagged); ``generated`` marks whitespace pdfium
    inferred rather than read from the PDF (its box is zero-width, at the previous
    character). A NamedTuple because a 200-page document has ~400k of them.
    """

    page: int
    char: str
    x0: float
    top: float
    x1: float
    bottom: float
    font: str
    size: float
    mcid: int = -1
    generated: bool = False


@dataclass(frozen=True, slots=True)
class PdfWord:
    """A maximal run of non-space characters on one line: ``layout.chars[start:end]``."""

    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PdfRule:
    """A thin drawn path: a line or bar at most ``RULE_MAX_PT`` thick (a table border, an
    underline, a horizontal rule), as its axis-aligned bounds on the page."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def horizontal(self) -> bool:
        return self.x1 - self.x0 > self.bottom - self.top


@dataclass(frozen=True, slots=True)
class PdfArea:
    """A drawn path thicker than a rule both ways (a cell's shading, a filled shape), as
    its axis-aligned bounds on the page."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float


# Thicker paths are areas (fills, shapes), not rules. Word draws borders up to 6 pt
# (w:sz 48); Light Grid's header rule is drawn 4.5 pt thick.
RULE_MAX_PT = 6.5


@dataclass(frozen=True, slots=True)
class PdfLine:
    """One text line as pdfium reads it: ``layout.chars[start:end]`` (end excludes the
    line break). Box = union of the line's drawn (non-generated) characters."""

    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class PdfImage:
    """One image placement. The box is the placement's axis-aligned bounds on the page
    (an image clipped by the page keeps its full placement: geometry is never clamped).

    ``width_px``/``height_px`` are the embedded image's pixel size. ``phash``/``dhash`` are
    imagehash hex strings of the decoded pixels (same functions as ``Blob``), so a picture
    is matched to the document's image by content, not by order; ``pixel_sha256`` hashes
    the decoded RGB pixels (exact match when the image was not re-encoded). Hashes are
    None when pdfium cannot decode the image, or when its pixel count exceeds
    the ``image_pixels`` budget (``artifactcheck.limits``; then it is not decoded at all). ``mcid`` as for characters.

    ``data``/``mime`` (only with ``read_layout(image_data=True)``) are the image as a file:
    the embedded stream itself when it is a whole JPEG (``DCTDecode``) or JPEG 2000
    (``JPXDecode``) file, so its sha256 equals the original picture's; otherwise the
    decoded pixels encoded as PNG (``image/png``). None when it could not be decoded.
    """

    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    width_px: int
    height_px: int
    phash: str | None
    dhash: str | None
    pixel_sha256: str | None
    mcid: int = -1
    data: bytes | None = field(default=None, repr=False)
    mime: str | None = None
    clip: tuple[float, float, float, float] | None = None  # (x0, top, x1, bottom) the image is clipped to
    mean_rgb: tuple[int, int, int] | None = None  # the decoded pixels' average colour (hashes read brightness only)


@dataclass(frozen=True, slots=True)
class FontFacts:
    """What a PDF says about one font (by its name, subset tag removed): ``family`` from
    pdfium (``FPDFFont_GetFamilyName``: the descriptor's FontFamily or the base name's
    family part), and ``bold``/``italic`` from the descriptor's weight, flags and italic
    angle or, since many writers (LibreOffice among them) leave those at their defaults,
    from the style words in the base name (``Carlito-Bold``, ``Arial,BoldItalic``,
    ``DejaVuSans-Oblique``)."""

    family: str
    bold: bool
    italic: bool


@dataclass(slots=True)
class StructElement:
    """A node of a tagged PDF's structure tree, in document order.

    ``type`` is the standard role after RoleMap resolution (``P``, ``H1``, ``LI``,
    ``Table``, ``TD``, ``Figure`` ...); ``raw_type`` the name as written (LibreOffice
    writes paragraph-style names such as ``"List Bullet"`` or ``"Standard"``).
    ``page`` is the page whose tree it was read from and ``mcids`` the marked-content ids
    it owns directly on that page. pdfium builds one tree per page, so an element with
    content on two pages (a paragraph across a page break) appears once in each page's
    list; they are not merged (design/rendering.md).
    """

    type: str
    raw_type: str
    page: int
    mcids: list[int] = field(default_factory=list)
    children: list[StructElement] = field(default_factory=list)
    alt_text: str | None = None

    def iter(self) -> Iterator[StructElement]:
        yield self
        for child in self.children:
            yield from child.iter()


@dataclass(frozen=True, slots=True)
class CharColumns:
    """``PdfLayout.chars`` as columns (numpy arrays, one entry per character, same order),
    for work over all characters at once (alignment boxes) without a Python step per
    character. Geometry as in :class:`PdfChar`. ``line`` numbers the lines of the whole
    stream: the count of ``"\n"`` characters before each character, so two characters are
    on the same line exactly when they have the same ``page`` and ``line``."""

    page: npt.NDArray[np.int64]
    x0: npt.NDArray[np.float64]
    top: npt.NDArray[np.float64]
    x1: npt.NDArray[np.float64]
    bottom: npt.NDArray[np.float64]
    generated: npt.NDArray[np.bool_]
    newline: npt.NDArray[np.bool_]
    line: npt.NDArray[np.int64]


class PdfLayout:
    """The layout of a whole PDF. ``chars`` are in reading order per page, pages in order,
    and a ``"\\n"`` char ends every line and page. ``words``/``lines`` (computed on first
    use) index into ``chars``. ``structure`` holds one root list per page (empty unless
    read with ``structure=True`` from a tagged PDF).

    :func:`read_layout` keeps the characters as per-page columns and builds the
    ``PdfChar`` tuples only when ``chars`` is first read: alignment works on ``text`` and
    ``columns`` alone, and 330k tuples (plus the GC pass over them) cost ~0.2 s at 200
    pages. Built either way, ``chars`` is the same list.
    """

    def __init__(
        self,
        pages: list[PageLayout],
        chars: list[PdfChar] | None,
        images: list[PdfImage],
        structure: list[list[StructElement]],
        tagged: bool,
        *,
        _lazy: list[_PageChars] | None = None,
        _subset: tuple[PdfLayout, npt.NDArray[np.int64]] | None = None,
        rules: list[PdfRule] | None = None,
        areas: list[PdfArea] | None = None,
    ) -> None:
        if chars is None and _lazy is None and _subset is None:
            raise ValueError("PdfLayout needs chars")
        self.pages = pages
        self.images = images
        self.rules = rules if rules is not None else []  # read_layout(rules=True)
        self.areas = areas if areas is not None else []  # read_layout(rules=True)
        self.structure = structure
        self.tagged = tagged
        self._chars = chars
        self._lazy = _lazy
        self._subset = _subset

    def subset(self, indices: npt.NDArray[np.int64]) -> PdfLayout:
        """The characters ``chars[i] for i in indices`` (any order, repeats allowed) as a
        layout of their own: same pages, no images, no structure. ``text`` and
        ``columns`` are taken from this layout's (``line`` renumbered over the subset, as
        a layout built from those tuples would number it), so aligning against a subset
        builds no ``PdfChar`` tuples; ``chars`` builds them on first use."""
        idx = np.asarray(indices, dtype=np.int64)
        sub = PdfLayout(self.pages, None, [], [], False, _subset=(self, idx))
        if len(self.text) == len(self.columns.page):  # one code point per character
            cols = self.columns
            newline = cols.newline[idx]
            sub.__dict__["columns"] = CharColumns(
                page=cols.page[idx],
                x0=cols.x0[idx],
                top=cols.top[idx],
                x1=cols.x1[idx],
                bottom=cols.bottom[idx],
                generated=cols.generated[idx],
                newline=newline,
                line=np.cumsum(newline, dtype=np.int64) - newline,
            )
            sub.__dict__["text"] = (
                self.codes[idx].tobytes().decode("utf-32-le", "surrogatepass") if idx.size else ""
            )
        return sub

    @cached_property
    def codes(self) -> npt.NDArray[np.uint32]:
        """``text`` as code points (one uint32 per code point)."""
        return np.frombuffer(self.text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)

    def __repr__(self) -> str:
        return f"PdfLayout(pages={len(self.pages)}, chars={len(self.text)}, images={len(self.images)}, tagged={self.tagged})"

    @property
    def chars(self) -> list[PdfChar]:
        if self._chars is None and self._subset is not None:
            parent, idx = self._subset
            self._chars = list(map(parent.chars.__getitem__, idx.tolist()))
        if self._chars is None:
            out: list[PdfChar] = []
            gc_was_enabled = gc.isenabled()
            gc.disable()  # as in read_layout: no cycles here, and the GC would rescan the list
            try:
                for part in self._lazy or []:
                    part.build(out)
            finally:
                if gc_was_enabled:
                    gc.enable()
            self._chars = out
        return self._chars

    @cached_property
    def text(self) -> str:
        """The character stream as one string. One code point per character (so
        ``text[i]`` is ``chars[i].char``) except for a hand-built layout whose chars hold
        several; then it is their concatenation."""
        if self._chars is None and self._lazy is not None:
            return "".join(part.text for part in self._lazy)
        return "".join(c.char for c in self.chars)

    @cached_property
    def lines(self) -> list[PdfLine]:
        return _group(self.chars, words=False)  # type: ignore[return-value]

    @cached_property
    def words(self) -> list[PdfWord]:
        return _group(self.chars, words=True)  # type: ignore[return-value]

    @cached_property
    def columns(self) -> CharColumns:
        """The characters as numpy columns (built on first use, ~5 C-level passes)."""
        chars = self.chars
        n = len(chars)

        def col(k: int, dtype: type[Any]) -> Any:
            return np.fromiter(map(itemgetter(k), chars), dtype=dtype, count=n)

        newline = np.fromiter(map("\n".__eq__, map(itemgetter(1), chars)), dtype=np.bool_, count=n)
        line = np.cumsum(newline, dtype=np.int64) - newline
        return CharColumns(
            page=col(0, np.int64),
            x0=col(2, np.float64),
            top=col(3, np.float64),
            x1=col(4, np.float64),
            bottom=col(5, np.float64),
            generated=col(9, np.bool_),
            newline=newline,
            line=line,
        )

    def chars_with_mcid(self, page: int, mcid: int) -> list[PdfChar]:
        """The characters drawn inside marked content ``mcid`` on ``page``."""
        return [c for c in self.chars if c.page == page and c.mcid == mcid]


@dataclass(frozen=True, slots=True)
class _PageChars:
    """One page's characters as the column reader left them: everything needed to build
    its ``PdfChar`` tuples later (``build``), bit-identical to building them at once."""

    index: int
    text: str
    x0: npt.NDArray[np.float64]
    x1: npt.NDArray[np.float64]
    top: npt.NDArray[np.float64]
    bottom: npt.NDArray[np.float64]
    obj: npt.NDArray[np.int64]  # per row: its text object's index into the o_ lists
    generated: npt.NDArray[np.bool_]
    o_top: npt.NDArray[np.float64] | None  # per object band; None: per-row tops/bottoms
    o_bottom: npt.NDArray[np.float64] | None
    o_font: list[str]
    o_size: list[float]
    o_mcid: list[int]

    def build(self, out: list[PdfChar]) -> None:
        r_obj_list = self.obj.tolist()
        if self.o_top is None or self.o_bottom is None:
            tops: list[float] = self.top.tolist()
            bottoms: list[float] = self.bottom.tolist()
        else:
            # Every character takes its object's band: share one float object per object
            # and value (16 MB less at 200 pages) instead of one per character.
            tops = list(map(self.o_top.tolist().__getitem__, r_obj_list))
            bottoms = list(map(self.o_bottom.tolist().__getitem__, r_obj_list))
        out.extend(
            map(
                tuple.__new__,  # PdfChar's own __new__ is a Python frame per character
                itertools.repeat(PdfChar),
                zip(
                    itertools.repeat(self.index),
                    self.text,
                    self.x0.tolist(),
                    tops,
                    self.x1.tolist(),
                    bottoms,
                    map(self.o_font.__getitem__, r_obj_list),
                    map(self.o_size.__getitem__, r_obj_list),
                    map(self.o_mcid.__getitem__, r_obj_list),
                    self.generated.tolist(),
                ),
            )
        )


def read_layout(
    pdf_path: Path,
    *,
    images: bool = True,
    structure: bool = False,
    image_data: bool = False,
    rules: bool = False,
) -> PdfLayout:
    """Read the layout of ``pdf_path``.

    ``images=False`` skips image placements (and decoding them for hashes);
    ``structure=True`` also reads a tagged PDF's structure tree (about 2 ms per page);
    ``image_data=True`` keeps each image's bytes (``PdfImage.data``) for a blob store;
    ``rules=True`` also keeps the page's path objects' bounds, thin ones as
    ``PdfLayout.rules`` (table borders, lines) and the others as ``PdfLayout.areas``
    (shading, filled shapes): the .docx boxers and a deck's resized frames need them.

    Raises :class:`~artifactcheck.errors.RenderError` when the PDF cannot be opened.
    """
    with PDFIUM_LOCK:  # pdfium is not thread-safe (pdfium_lock.py)
        return _read_layout(pdf_path, images=images, structure=structure, image_data=image_data, rules=rules)


def _read_layout(pdf_path: Path, *, images: bool, structure: bool, image_data: bool, rules: bool) -> PdfLayout:
    try:
        doc = pdfium.PdfDocument(str(pdf_path))
    except (OSError, pdfium.PdfiumError) as exc:
        raise RenderError(f"cannot read PDF: {exc}", path=pdf_path) from None
    pages: list[PageLayout] = []
    # Per page, the numpy columns the character reader computed anyway: PdfLayout.columns
    # without a second pass over 330k tuples. None once a page used the fallback loop.
    parts: list[_Part] | None = []
    # The fast reader's pages (tuples built on demand), or the fallback loop's tuples.
    lazy: list[_PageChars] = []
    chars: list[PdfChar] = []
    imgs: list[PdfImage] = []
    thin_paths: list[PdfRule] | None = [] if rules else None
    thick_paths: list[PdfArea] | None = [] if rules else None
    tree: list[list[StructElement]] = []
    # The cyclic GC would run every 700 new objects and, as the character list grows,
    # traverse all of it again: 3-5x the cost of building the tuples (measured 0.06 vs
    # 0.16-0.32 s for 330k). Nothing here makes reference cycles; collection resumes after.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        tagged = _is_tagged(doc)
        bidi_free = _bidi_free(doc)
        for index in range(len(doc)):
            page = doc[index]
            try:
                left, bottom, right, top = page.get_cropbox()
                pages.append(PageLayout(index, right - left, top - bottom))
                if not _read_chars(page, index, left, top, chars, parts, lazy, bidi_free=bidi_free):
                    parts = None
                if images:
                    _read_images(
                        page, index, left, top, imgs, keep_data=image_data, rules=thin_paths,
                        areas=thick_paths,
                    )
                elif thin_paths is not None:
                    _read_paths(page, index, left, top, thin_paths, thick_paths)
                tree.append(_read_structure(page, index) if tagged and structure else [])
            finally:
                page.close()
    finally:
        doc.close()
        if gc_was_enabled:
            gc.enable()
    if parts is None:  # the fallback loop read every page (see _read_chars)
        return PdfLayout(pages, chars, imgs, tree, tagged, rules=thin_paths, areas=thick_paths)
    layout = PdfLayout(pages, None, imgs, tree, tagged, _lazy=lazy, rules=thin_paths, areas=thick_paths)
    layout.__dict__["columns"] = _join_parts(parts)  # what the cached_property would compute
    return layout


# One page's columns: page, x0, top, x1, bottom, generated, newline (one entry per char).
_Part = tuple[
    npt.NDArray[np.int64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
]


def _join_parts(parts: list[_Part]) -> CharColumns:
    if not parts:
        f = np.zeros(0, dtype=np.float64)
        b = np.zeros(0, dtype=np.bool_)
        return CharColumns(np.zeros(0, dtype=np.int64), f, f, f, f, b, b, np.zeros(0, dtype=np.int64))
    page, x0, top, x1, bottom, generated, newline = (np.concatenate(c) for c in zip(*parts, strict=True))
    line = np.cumsum(newline, dtype=np.int64) - newline
    return CharColumns(page, x0, top, x1, bottom, generated, newline, line)


def _is_tagged(doc: pdfium.PdfDocument) -> bool:
    # MarkInfo/Marked is what tagged-PDF writers set; pdfium exposes it via the catalog.
    fn = getattr(pdfium_c, "FPDFCatalog_IsTagged", None)
    return bool(fn(doc.raw)) if fn is not None else True


_FONT_BUF = ctypes.create_string_buffer(256)


@dataclass(frozen=True, slots=True)
class _ObjInfo:
    font: str
    size: float
    mcid: int
    ascent: float  # em fractions (0.9 = 90% of the font size above the baseline)
    descent: float  # em fraction below the baseline, positive


_METRICS_CACHE: dict[str, tuple[float, float] | None] = {}


def _font_metrics(font: object, name: str) -> tuple[float, float] | None:
    """(ascent + line gap, descent) as fractions of the em from the embedded font's
    ``hhea`` table.

    LibreOffice lays lines out with these values, so char bands built from them tile a
    single-spaced paragraph exactly and its box starts at the top margin. None when the font is not an embedded TrueType
    program with ``hhea`` (then pdfium's loose box is used).
    """
    if name in _METRICS_CACHE:
        return _METRICS_CACHE[name]
    result: tuple[float, float] | None = None
    try:
        from fontTools.ttLib import TTFont

        n = ctypes.c_size_t(0)
        get = pdfium_c.FPDFFont_GetFontData
        if get(font, None, 0, ctypes.byref(n)) and 0 < n.value < 64 * 1024 * 1024:
            data = ctypes.create_string_buffer(n.value)
            get(font, ctypes.cast(data, get.argtypes[1]), n.value, ctypes.byref(n))
            tt = TTFont(io.BytesIO(data.raw), lazy=True)
            # LibreOffice's subsets carry a zero 'modified' date that fontTools logs about.
            head_log = logging.getLogger("fontTools.ttLib.tables._h_e_a_d")
            level = head_log.level
            head_log.setLevel(logging.ERROR)
            try:
                upem = float(tt["head"].unitsPerEm)
            finally:
                head_log.setLevel(level)
            hhea = tt["hhea"]
            if upem > 0 and hhea.ascent > 0:
                # LibreOffice puts the line gap above the ascent: the first line's
                # baseline is (ascent + lineGap) * size below the top margin, and the line
                # pitch at single spacing is (ascent + lineGap + |descent|) * size.
                above = hhea.ascent + max(0, hhea.lineGap)
                result = (above / upem, abs(hhea.descent) / upem)
    except Exception:  # noqa: BLE001 - CFF fonts, odd subsets: fall back to pdfium's boxes
        result = None
    # Subset fonts of one family share metrics; the name (subset tag removed) is the key.
    _METRICS_CACHE[name] = result
    return result


def _obj_info(obj: object, size: float) -> _ObjInfo:
    """Font name, size, mcid and vertical metrics of one text object."""
    name, metrics = _font_name_metrics(pdfium_c.FPDFTextObj_GetFont(obj))
    mcid = int(pdfium_c.FPDFPageObj_GetMarkedContentID(obj))
    ascent, descent = metrics if metrics else (-1.0, -1.0)
    return _ObjInfo(name, size, mcid, ascent, descent)


_FontInfo = tuple[str, tuple[float, float] | None]  # name without subset tag, (ascent, descent)


def _obj_info_fast(obj: int, size: float, fonts: dict[int | None, _FontInfo]) -> _ObjInfo:
    """:func:`_obj_info` for an object given by address, through the ``c_void_p`` copies
    of the pdfium calls, with the font's name and metrics looked up once per font handle
    in ``fonts`` (one page's: a font handle is only known to stay the same font while
    the page that uses it is open)."""
    get_font: Any = _FAST_OBJ_FONT  # not None: checked by _read_chars
    get_mcid: Any = _FAST_MCID
    font = get_font(obj)
    got = fonts.get(font)
    if got is None:
        got = fonts[font] = _font_name_metrics(
            ctypes.cast(ctypes.c_void_p(font), pdfium_c.FPDF_FONT) if font else None
        )
    name, metrics = got
    mcid = int(get_mcid(obj))
    ascent, descent = metrics if metrics else (-1.0, -1.0)
    return _ObjInfo(name, size, mcid, ascent, descent)


def _font_name_metrics(font: Any) -> _FontInfo:
    """A font's base name (subset tag removed) and hhea metrics; records its facts."""
    name = ""
    metrics = None
    if font:
        n = pdfium_c.FPDFFont_GetBaseFontName(font, _FONT_BUF, len(_FONT_BUF))
        name = _FONT_BUF.raw[: max(0, n - 1)].decode("utf-8", "replace")
        metrics = _font_metrics(font, name)
        # Subset fonts are named "ABCDEF+Carlito": the tag is noise for style checks.
        if len(name) > 7 and name[6] == "+":
            name = name[7:]
        if name not in _FONT_FACTS:
            _FONT_FACTS[name] = _read_font_facts(font, name)
    return name, metrics


# Facts per font name, read once per process (like _METRICS_CACHE): one entry per
# distinct font, filled by _obj_info, so the per-character path never pays for it.
_FONT_FACTS: dict[str, FontFacts] = {}
_BOLD_WORDS = ("bold", "black", "heavy", "semibold", "demibold", "extrabold", "ultrabold")
_ITALIC_WORDS = ("italic", "oblique", "slanted")
_FONT_FORCE_BOLD = 1 << 18  # PDF 32000-1, Table 123: flag bit 19
_FONT_ITALIC = 1 << 6  # flag bit 7


def font_facts(name: str) -> FontFacts | None:
    """Family, bold and italic of a font named in ``PdfChar.font``; None when no page read
    so far used a font of that name."""
    return _FONT_FACTS.get(name)


def _read_font_facts(font: object, name: str) -> FontFacts:
    n = pdfium_c.FPDFFont_GetFamilyName(font, _FONT_BUF, len(_FONT_BUF))
    family = _FONT_BUF.raw[: max(0, n - 1)].decode("utf-8", "replace") if n > 1 else ""
    style = name.lower().replace(family.lower().replace(" ", ""), "", 1) if family else name.lower()
    flags = int(pdfium_c.FPDFFont_GetFlags(font))
    angle = ctypes.c_int(0)
    has_angle = bool(pdfium_c.FPDFFont_GetItalicAngle(font, ctypes.byref(angle)))
    bold = int(pdfium_c.FPDFFont_GetWeight(font)) >= 600 or bool(flags & _FONT_FORCE_BOLD) or any(
        w in style for w in _BOLD_WORDS
    )
    italic = (has_angle and angle.value != 0) or bool(flags & _FONT_ITALIC) or any(w in style for w in _ITALIC_WORDS)
    if not family:  # no family from pdfium: the base name before its style suffix
        family = name.replace(",", "-").split("-")[0]
    return FontFacts(family=family, bold=bold, italic=italic)


def _fast(name: str, argtypes: list[Any], restype: Any) -> Any | None:
    """A private copy of a pdfium function taking plain addresses (``c_void_p``) instead of
    pypdfium2's typed pointers: ctypes then skips the pointer type checks, which halves the
    cost of the calls made once per character (measured 1.65 -> 0.74 µs per call). None
    when pypdfium2's internals differ (the typed bindings are used then)."""
    try:
        from pypdfium2_raw import bindings

        fn = bindings._libs["pdfium"][name]
        fn.argtypes = argtypes
        fn.restype = restype
        return fn
    except Exception:  # noqa: BLE001 - layout of pypdfium2's internals changed: slower path
        return None


_FAST_TEXT_OBJECT = _fast("FPDFText_GetTextObject", [ctypes.c_void_p, ctypes.c_int], ctypes.c_void_p)
_FAST_LOOSE_BOX = _fast("FPDFText_GetLooseCharBox", [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p], ctypes.c_int)
# The column reader's own copies: the text object as an integer address (0 for none, so
# numpy can hold them), whether a character is generated, and the per-object calls.
_FAST_TEXT_OBJECT_ADDR = _fast("FPDFText_GetTextObject", [ctypes.c_void_p, ctypes.c_int], ctypes.c_size_t)
_FAST_IS_GENERATED = _fast("FPDFText_IsGenerated", [ctypes.c_void_p, ctypes.c_int], ctypes.c_int)
_FAST_FONT_SIZE = _fast("FPDFText_GetFontSize", [ctypes.c_void_p, ctypes.c_int], ctypes.c_double)
_FAST_CHAR_ORIGIN = _fast(
    "FPDFText_GetCharOrigin", [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p], ctypes.c_int
)
_FAST_OBJ_FONT = _fast("FPDFTextObj_GetFont", [ctypes.c_void_p], ctypes.c_void_p)
_FAST_MCID = _fast("FPDFPageObj_GetMarkedContentID", [ctypes.c_void_p], ctypes.c_int)
_FAST_OBJ_TYPE = _fast("FPDFPageObj_GetType", [ctypes.c_void_p], ctypes.c_int)
_FAST_PAGE_COUNT = _fast("FPDFPage_CountObjects", [ctypes.c_void_p], ctypes.c_int)
_FAST_PAGE_OBJECT = _fast("FPDFPage_GetObject", [ctypes.c_void_p, ctypes.c_int], ctypes.c_void_p)
_FAST_FORM_COUNT = _fast("FPDFFormObj_CountObjects", [ctypes.c_void_p], ctypes.c_int)
_FAST_FORM_OBJECT = _fast("FPDFFormObj_GetObject", [ctypes.c_void_p, ctypes.c_ulong], ctypes.c_void_p)
_COLUMN_CALLS = (
    _FAST_TEXT_OBJECT_ADDR, _FAST_LOOSE_BOX, _FAST_IS_GENERATED, _FAST_FONT_SIZE,
    _FAST_CHAR_ORIGIN, _FAST_OBJ_FONT, _FAST_MCID,
)
_FAST_OBJ_BOUNDS = _fast(
    "FPDFPageObj_GetBounds", [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p], ctypes.c_int
)
_OBJECT_CALLS = (_FAST_OBJ_TYPE, _FAST_PAGE_COUNT, _FAST_PAGE_OBJECT, _FAST_FORM_COUNT, _FAST_FORM_OBJECT, _FAST_OBJ_BOUNDS)


@dataclass(frozen=True, slots=True)
class _NativeLoops:
    """The C loops of ``_pdfium_loops`` (one call per page instead of one per character)
    and the addresses of the pdfium functions they call: the same functions, with the same
    arguments, that the ctypes loop calls."""

    loose_boxes: Any
    text_objects: Any
    char_ints: Any
    loose_box_fn: int
    text_object_fn: int
    is_generated_fn: int

    @staticmethod
    def run(loop: Any, fn: int, tp: int | None, indices: npt.NDArray[np.int64], out: npt.NDArray[Any]) -> None:
        """``loop`` calls ``fn(tp, i, ...)`` for each of ``indices`` into ``out`` (allocated
        by the caller for that many results); the C reads the indices as contiguous int64."""
        at = np.ascontiguousarray(indices, dtype=np.int64)
        loop(fn, tp, at.ctypes.data, at.size, out.ctypes.data)


def _native_loops() -> _NativeLoops | None:
    """The compiled loops, or None when the optional extension was not built (no compiler
    at install) or pypdfium2's internals differ: the ctypes loop reads the same values."""
    try:  # by name: the module exists only where the optional build ran
        compiled = importlib.import_module(f"{__package__}._pdfium_loops")
    except ImportError:
        return None
    box, obj, gen = _FAST_LOOSE_BOX, _FAST_TEXT_OBJECT_ADDR, _FAST_IS_GENERATED
    if box is None or obj is None or gen is None:
        return None
    box_fn, object_fn, generated_fn = (ctypes.cast(fn, ctypes.c_void_p).value or 0 for fn in (box, obj, gen))
    if not (box_fn and object_fn and generated_fn):
        return None
    lib = ctypes.CDLL(compiled.__file__)
    for name in ("loose_boxes", "text_objects", "char_ints"):
        loop = getattr(lib, name)
        # fn, text page, indices (int64), count, out buffer
        loop.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_void_p]
        loop.restype = None
    return _NativeLoops(lib.loose_boxes, lib.text_objects, lib.char_ints, box_fn, object_fn, generated_fn)


_NATIVE = _native_loops()


def _get_text_object_slow(tp: Any, i: int) -> int | None:
    return ctypes.cast(pdfium_c.FPDFText_GetTextObject(tp, i), ctypes.c_void_p).value


_NO_BAND: Any = object()  # identity-compared sentinel: no font metrics, use pdfium's box
_MATRIX = pdfium_c.FS_MATRIX()
_MATRIX_ADDR = ctypes.addressof(_MATRIX)
_FAST_OBJ_MATRIX = _fast("FPDFPageObj_GetMatrix", [ctypes.c_void_p, ctypes.c_void_p], ctypes.c_int)


def _upright(obj: int | None) -> bool:
    """Is the text object set left to right, upright (its matrix neither turned nor
    mirrored; a shear is allowed)? Only then is its band the font's ascent and descent about the baseline;
    a text box turned 90° draws its line down the page, and pdfium's loose boxes (which
    follow the turn) are its characters' places instead."""
    if not obj:
        return True
    if _FAST_OBJ_MATRIX is not None:
        if not _FAST_OBJ_MATRIX(obj, _MATRIX_ADDR):
            return True
    elif not pdfium_c.FPDFPageObj_GetMatrix(ctypes.cast(ctypes.c_void_p(obj), pdfium_c.FPDF_PAGEOBJECT), ctypes.byref(_MATRIX)):
        return True
    # A shear alone (c) is LibreOffice's synthetic italic: still upright.
    a, b, d = float(_MATRIX.a), float(_MATRIX.b), float(_MATRIX.d)
    return a > 0 and d > 0 and abs(b) <= 1e-6 * a
# Characters that may be inferred whitespace (checked with FPDFText_IsGenerated) or the
# "\r\n" pdfium puts at line ends; any other character is drawn.
_SPACES = frozenset(" \t\r\n\u00a0\u2002\u2003\u2009\u200a\u3000")


_SPACE_CODES = np.array(sorted(ord(c) for c in _SPACES), dtype=np.uint32)
_RECT_SIZE = ctypes.sizeof(pdfium_c.FS_RECTF)


def _read_chars(
    page: pdfium.PdfPage,
    index: int,
    left: float,
    top: float,
    out: list[PdfChar],
    parts: list[_Part] | None,
    lazy: list[_PageChars],
    *,
    bidi_free: bool = False,
) -> bool:
    """Read the page's characters (see :class:`PdfChar`; a ``"\n"`` ends every line and
    the page): their columns to ``parts`` and their unbuilt tuples to ``lazy``; or, with
    the fallback loop, the tuples to ``out`` and False (it makes no columns). The
    choice is global (``_FAST_*``), so all pages of a document take the same path."""
    if any(fn is None for fn in _COLUMN_CALLS):
        _read_chars_loop(page, index, left, top, out)
        return False
    textpage = page.get_textpage()
    try:
        _read_chars_columns(
            textpage.raw, index, left, top, lazy, parts if parts is not None else [], bidi_free=bidi_free
        )
    finally:
        textpage.close()
    return True


def _read_chars_columns(
    tp: Any, index: int, left: float, top: float, out: list[_PageChars], parts: list[_Part],
    *, bidi_free: bool = False,
) -> None:
    """:func:`_read_chars_loop`'s result, computed column-wise.

    The pdfium calls made per character (loose box, text object, whether generated) run
    in C, one call per page (``_pdfium_loops``, when built: ~0.6 ms a page less at ~1,700
    characters a page), or else are driven by ``map`` (no Python frame per call), the
    boxes written straight into one array; classification, bands, line-break insertion
    and the copies of a generated character's position are numpy operations, and the tuples are built by ``map`` too. This is the
    hot loop of a 200-page document (330k characters): ~3x faster than the loop, with
    bit-identical results (same float operations in the same order).

    ``bidi_free`` (the document is not marked right-to-left) lets the ctypes loop, on a
    page without right-to-left characters, find each character's text object by sampling
    (:func:`_object_addresses_sparse`) instead of asking for every character; the C loop
    asks for every one (a few ns each). All three give the same layout
    (``scripts/layout_reader_parity.py``).
    """
    n = pdfium_c.FPDFText_CountChars(tp)
    if n <= 0:
        return
    buf = ctypes.create_string_buffer((n + 1) * 2)
    pdfium_c.FPDFText_GetText(tp, 0, n, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)))
    text = buf.raw[: n * 2].decode("utf-16-le", "replace")
    if len(text) != n:  # surrogate pairs decode to fewer characters: go one by one
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(tp, i)) for i in range(n))
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)

    # Which characters are drawn: not "\r" (pdfium ends lines with "\r\n"; we keep the
    # "\n"), not "\n", and not whitespace pdfium inferred (FPDFText_IsGenerated).
    space = np.isin(codes, _SPACE_CODES)
    kept = codes != 0x0D
    drawn = ~space
    maybe = np.flatnonzero(space & kept & (codes != 0x0A))
    tp_arg = ctypes.cast(tp, ctypes.c_void_p).value
    native = _NATIVE
    if maybe.size:
        if native is not None:
            gen = np.zeros(maybe.size, dtype=np.int64)
            native.run(native.char_ints, native.is_generated_fn, tp_arg, maybe, gen)
        else:
            is_generated: Any = _FAST_IS_GENERATED  # the fast copies: checked by _read_chars
            gen = np.fromiter(map(is_generated, itertools.repeat(tp_arg, maybe.size), maybe.tolist()), dtype=np.int64, count=maybe.size)
        drawn[maybe[gen == 0]] = True
    d_idx = np.flatnonzero(drawn)
    n_drawn = int(d_idx.size)

    # Per drawn character: its text object and its loose box (float32, as pdfium's
    # FS_RECTF: left, top, right, bottom; zeros where pdfium has no box, as the ctypes
    # array starts).
    if native is not None:
        # In C every character is asked for its object (what the sampling reproduces).
        addr = np.zeros(n_drawn, dtype=np.uint64)
        native.run(native.text_objects, native.text_object_fn, tp_arg, d_idx, addr)
        rect_values = np.zeros((n_drawn, 4), dtype=np.float32)
        native.run(native.loose_boxes, native.loose_box_fn, tp_arg, d_idx, rect_values)
    else:
        get_obj: Any = _FAST_TEXT_OBJECT_ADDR
        get_box: Any = _FAST_LOOSE_BOX
        d_list = d_idx.tolist()
        sampled = _object_addresses_sparse(tp_arg, d_list) if bidi_free and not _has_rtl(codes) else None
        if sampled is not None:
            addr = sampled
        else:
            addr = np.fromiter(map(get_obj, itertools.repeat(tp_arg, n_drawn), d_list), dtype=np.uint64, count=n_drawn)
        rects = (pdfium_c.FS_RECTF * max(1, n_drawn))()
        base = ctypes.addressof(rects)
        addrs = range(base, base + _RECT_SIZE * n_drawn, _RECT_SIZE)
        # deque(maxlen=0) only drives the calls (their return values are not needed).
        collections.deque(map(get_box, itertools.repeat(tp_arg, n_drawn), d_list, addrs), maxlen=0)
        rect_values = np.frombuffer(rects, dtype=np.float32).reshape(-1, 4)[:n_drawn]
    box = rect_values.astype(np.float64)
    r_left, r_top, r_right, r_bottom = box[:, 0], box[:, 1], box[:, 2], box[:, 3]

    # Per text object: font, size, mcid and band (from its first character, as the loop).
    # Objects numbered in order of first appearance. A text object's characters mostly
    # come in one stretch, so the numbering runs over the stretches of equal addresses
    # (a few per object) instead of every character; np.unique's first indices, in
    # object order since the numbers are 0..m-1.
    starts = np.flatnonzero(np.concatenate(([True], addr[1:] != addr[:-1]))) if n_drawn else d_idx
    obj_of: dict[int, int] = {}
    run_obj = np.fromiter(
        (obj_of.setdefault(a, len(obj_of)) for a in addr[starts].tolist()), dtype=np.int64, count=starts.size
    )
    obj = np.repeat(run_obj, np.diff(np.append(starts, n_drawn)))
    # Each object's first drawn character, as an index into the page's characters.
    first_i = d_idx[starts[np.unique(run_obj, return_index=True)[1]]].tolist()
    n_obj = len(obj_of) + 1  # + a sentinel "no previous character" entry, last
    o_y0 = np.full(n_obj, np.nan)
    o_y1 = np.full(n_obj, np.nan)
    o_font: list[str] = []
    o_size: list[float] = []
    o_mcid: list[int] = []
    get_origin: Any = _FAST_CHAR_ORIGIN
    get_size: Any = _FAST_FONT_SIZE
    ox = ctypes.c_double(0)
    oy = ctypes.c_double(0)
    ox_addr, oy_addr = ctypes.addressof(ox), ctypes.addressof(oy)
    fonts: dict[int | None, _FontInfo] = {}
    for j, (key, i) in enumerate(zip(obj_of, first_i, strict=True)):
        if key:
            info = _obj_info_fast(key, float(get_size(tp_arg, i)), fonts)
        else:
            info = _ObjInfo("", 0.0, -1, -1.0, -1.0)
        if info.ascent > 0 and _upright(key):
            get_origin(tp_arg, i, ox_addr, oy_addr)
            baseline = top - oy.value
            o_y0[j] = baseline - info.ascent * info.size
            o_y1[j] = baseline + info.descent * info.size
        o_font.append(info.font)
        o_size.append(info.size)
        o_mcid.append(info.mcid)
    o_font.append("")
    o_size.append(0.0)
    o_mcid.append(-1)

    y0 = o_y0[obj]
    y1 = o_y1[obj]
    no_band = np.isnan(y0)
    y0[no_band] = top - r_top[no_band]
    y1[no_band] = top - r_bottom[no_band]
    x0 = r_left - left
    x1 = r_right - left

    # pdfium joins a line ending in a hyphen to the next line without a break; a drawn
    # character that moves left and below the previous drawn one starts a line. So does
    # one that does not move right and starts below the previous one's band: two
    # right-aligned numbers in cells one above the other ("45291.5" over "7") were one
    # word "45291.57". (Text set top to bottom has overlapping bands: no break.)
    brk = np.zeros(n_drawn, dtype=np.bool_)
    below = (y0[1:] + y1[1:]) / 2 > y1[:-1]
    dropped = (x0[1:] <= x1[:-1]) & (y0[1:] > y1[:-1])
    brk[1:] = ((x0[1:] < x0[:-1]) & below) | dropped

    # Drawn columns plus a sentinel (zeros, "", -1) for "no drawn character before".
    d_x0 = np.append(x0, 0.0)
    d_x1 = np.append(x1, 0.0)
    d_y0 = np.append(y0, 0.0)
    d_y1 = np.append(y1, 0.0)
    d_obj = np.append(obj, n_obj - 1)

    # Output rows in order: every kept character, and a generated "\n" before each drawn
    # character that starts a line. `src` is the drawn character a row takes its position
    # from: itself, or for generated rows the last drawn one before it (-1: the sentinel).
    k_drawn = drawn[kept]
    src = np.cumsum(k_drawn, dtype=np.int64) - 1
    row_codes = codes[kept]
    gen_rows = ~k_drawn
    at = np.flatnonzero(k_drawn)[brk]  # kept-row positions of drawn chars after a break
    if at.size:
        src = np.insert(src, at, src[at] - 1)
        row_codes = np.insert(row_codes, at, 0x0A)
        gen_rows = np.insert(gen_rows, at, True)
    r_x1 = d_x1[src]
    r_x0 = np.where(gen_rows, r_x1, d_x0[src])
    r_y0 = d_y0[src]
    r_y1 = d_y1[src]
    r_obj = d_obj[src]
    if len(src) and row_codes[-1] != 0x0A:
        # A page break separates pages in the stream like a line break: a generated "\n"
        # at the last character (x0 = x1 = its x1, its band, font and mcid).
        src = np.append(src, src[-1])
        row_codes = np.append(row_codes, np.uint32(0x0A))
        gen_rows = np.append(gen_rows, True)
        r_x1 = np.append(r_x1, r_x1[-1])
        r_x0 = np.append(r_x0, r_x1[-1])
        r_y0 = np.append(r_y0, r_y0[-1])
        r_y1 = np.append(r_y1, r_y1[-1])
        r_obj = np.append(r_obj, r_obj[-1])
    parts.append((np.full(len(src), index, dtype=np.int64), r_x0, r_y0, r_x1, r_y1, gen_rows, row_codes == 0x0A))
    if no_band.any():
        o_top, o_bottom = None, None
    else:
        o_y0[-1] = o_y1[-1] = 0.0  # the sentinel, as d_y0/d_y1
        o_top, o_bottom = o_y0, o_y1
    text = row_codes.astype(np.uint32).tobytes().decode("utf-32-le", "surrogatepass")
    out.append(_PageChars(index, text, r_x0, r_x1, r_y0, r_y1, r_obj, gen_rows, o_top, o_bottom, o_font, o_size, o_mcid))


# Code points pdfium's bidi pass may treat as right-to-left (classes R and AL, plus the
# explicit RTL marks, embeddings and isolates, to be safe): Hebrew to Arabic Extended,
# RLM/RLE/RLO/RLI, Hebrew and Arabic presentation forms, and the RTL astral blocks.
_RTL_RANGES = np.array(
    [
        (0x0590, 0x08FF), (0x200F, 0x200F), (0x202B, 0x202B), (0x202E, 0x202E), (0x2067, 0x2067),
        (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF), (0x10800, 0x10FFF), (0x1E800, 0x1EFFF),
    ],
    dtype=np.uint32,
)
_RTL_FROM = int(_RTL_RANGES[0, 0])
_OBJ_STRIDE = 32  # drawn characters between two samples of the text object


def _has_rtl(codes: npt.NDArray[np.uint32]) -> bool:
    high = codes[codes >= _RTL_FROM][:, None]
    return bool(high.size and ((high >= _RTL_RANGES[:, 0]) & (high <= _RTL_RANGES[:, 1])).any())


def _object_addresses_sparse(tp_arg: int | None, d_list: list[int]) -> npt.NDArray[np.uint64] | None:
    """The text object of each drawn character ``d_list[k]``, asking pdfium about one
    character in ``_OBJ_STRIDE`` and bisecting between two samples that differ (~10x
    fewer ``FPDFText_GetTextObject`` calls at LibreOffice's ~90 characters an object).

    Exact, not a guess, when the page has no right-to-left text: pdfium's text page
    (``CPDF_TextPage::ProcessTextObject``) appends each text object's characters to its
    list in one go, inserting only generated characters between objects, and only its
    bidi pass (``CloseTempLine``: reversing right-to-left segments, or neutral ones in a
    document marked R2L) can reorder them. Without it, every text object's characters
    form one contiguous run, so two samples with the same object have only that
    object's characters between them. The caller checks that premise (no RTL code
    point on the page, document not R2L). None (ask for every character) when an
    object turns up in two runs all the same: then the premise does not hold here.
    """
    n = len(d_list)
    if n <= 2 * _OBJ_STRIDE:
        return None
    get_obj: Any = _FAST_TEXT_OBJECT_ADDR
    at = list(range(0, n, _OBJ_STRIDE))
    if at[-1] != n - 1:
        at.append(n - 1)
    seen = list(map(get_obj, itertools.repeat(tp_arg, len(at)), map(d_list.__getitem__, at)))
    starts = [0]
    values = [seen[0]]

    def split(lo: int, v_lo: int, hi: int, v_hi: int) -> None:
        # The runs starting in (lo, hi], given the objects at lo and hi (different).
        if hi - lo == 1:
            starts.append(hi)
            values.append(v_hi)
            return
        mid = (lo + hi) // 2
        v_mid = get_obj(tp_arg, d_list[mid])
        if v_mid != v_lo:
            split(lo, v_lo, mid, v_mid)
        if v_mid != v_hi:
            split(mid, v_mid, hi, v_hi)

    for k in range(1, len(at)):
        if seen[k] != seen[k - 1]:
            split(at[k - 1], seen[k - 1], at[k], seen[k])
    if len(set(values)) != len(values):
        return None
    return np.repeat(np.array(values, dtype=np.uint64), np.diff(np.append(np.array(starts, dtype=np.int64), n)))


def _bidi_free(doc: pdfium.PdfDocument) -> bool:
    """The document does not ask for right-to-left reading (ViewerPreferences
    ``/Direction /R2L``), which makes pdfium's text page reorder neutral text too."""
    buf = ctypes.create_string_buffer(16)
    n = pdfium_c.FPDF_VIEWERREF_GetName(doc.raw, b"Direction", buf, len(buf))
    return not (n and buf.value.upper() == b"R2L")


def _read_chars_loop(page: pdfium.PdfPage, index: int, left: float, top: float, out: list[PdfChar]) -> None:
    """One character at a time through pypdfium2's typed bindings (the fallback when its
    internals differ from what :func:`_fast` expects)."""
    textpage = page.get_textpage()
    try:
        tp = textpage.raw
        n = pdfium_c.FPDFText_CountChars(tp)
        if n <= 0:
            return
        # The whole page text in one call (UTF-16LE) is much cheaper than n GetUnicode calls.
        buf = ctypes.create_string_buffer((n + 1) * 2)
        pdfium_c.FPDFText_GetText(tp, 0, n, ctypes.cast(buf, ctypes.POINTER(ctypes.c_ushort)))
        text = buf.raw[: n * 2].decode("utf-16-le", "replace")
        if len(text) < n:  # surrogate pairs decode to fewer characters: go one by one
            text = "".join(chr(pdfium_c.FPDFText_GetUnicode(tp, i)) for i in range(n))
        rect = pdfium_c.FS_RECTF()
        rect_p = ctypes.byref(rect)
        ox = ctypes.c_double(0)
        oy = ctypes.c_double(0)
        ox_p, oy_p = ctypes.byref(ox), ctypes.byref(oy)
        bands: dict[int | None, tuple[Any, Any, _ObjInfo]] = {}
        if _FAST_TEXT_OBJECT is not None and _FAST_LOOSE_BOX is not None:
            tp_arg: Any = ctypes.cast(tp, ctypes.c_void_p).value
            rect_arg: Any = ctypes.addressof(rect)
            get_obj, get_box = _FAST_TEXT_OBJECT, _FAST_LOOSE_BOX
        else:
            tp_arg, rect_arg = tp, rect_p
            get_obj, get_box = _get_text_object_slow, pdfium_c.FPDFText_GetLooseCharBox
        get_origin = pdfium_c.FPDFText_GetCharOrigin
        get_size = pdfium_c.FPDFText_GetFontSize
        is_generated = pdfium_c.FPDFText_IsGenerated
        no_info = _ObjInfo("", 0.0, -1, -1.0, -1.0)
        obj_type = pdfium_c.FPDF_PAGEOBJECT
        append = out.append
        new = tuple.__new__  # PdfChar's own __new__ is a Python frame per character
        spaces = _SPACES
        prev: PdfChar | None = None
        for i in range(n):
            ch = text[i]
            if ch in spaces:
                if ch == "\r":
                    continue  # pdfium ends lines with "\r\n"; keep the "\n" only
                if ch == "\n" or is_generated(tp, i):
                    # Inferred whitespace: no ink, no box of its own.
                    if prev is not None:
                        append(new(PdfChar, (index, ch, prev.x1, prev.top, prev.x1, prev.bottom,
                                             prev.font, prev.size, prev.mcid, True)))
                    else:
                        append(new(PdfChar, (index, ch, 0.0, 0.0, 0.0, 0.0, "", 0.0, -1, True)))
                    continue
            key = get_obj(tp_arg, i)
            band = bands.get(key)
            if band is None:
                # First character of this text object. One text object is one show-text
                # operation, so all its glyphs share this baseline (horizontal text).
                info = _obj_info(ctypes.cast(ctypes.c_void_p(key), obj_type), float(get_size(tp, i))) if key else no_info
                if info.ascent > 0 and _upright(key):
                    get_origin(tp, i, ox_p, oy_p)
                    baseline = top - oy.value
                    band = (baseline - info.ascent * info.size, baseline + info.descent * info.size, info)
                else:
                    band = (_NO_BAND, _NO_BAND, info)
                bands[key] = band
            y0, y1, info = band
            get_box(tp_arg, i, rect_arg)
            if y0 is _NO_BAND:
                y0, y1 = top - rect.top, top - rect.bottom
            x0 = rect.left - left
            if prev is not None and (
                (x0 < prev.x0 and (y0 + y1) / 2 > prev.bottom) or (x0 <= prev.x1 and y0 > prev.bottom)
            ):
                # pdfium joins a line ending in a hyphen to the next line without a break;
                # a character that moves left and below the previous one starts a line
                # (and one well below that does not move right: see _read_chars_columns).
                append(new(PdfChar, (index, "\n", prev.x1, prev.top, prev.x1, prev.bottom,
                                     prev.font, prev.size, prev.mcid, True)))
            prev = new(PdfChar, (index, ch, x0, y0, rect.right - left, y1, info.font, info.size, info.mcid, False))
            append(prev)
        # A page break separates pages in the stream like a line break.
        if out and out[-1].page == index and out[-1].char != "\n":
            last = out[-1]
            append(PdfChar(index, "\n", last.x1, last.top, last.x1, last.bottom,
                           last.font, last.size, last.mcid, True))
    finally:
        textpage.close()


def _group(chars: list[PdfChar], *, words: bool) -> list[PdfWord] | list[PdfLine]:
    """Lines (runs between "\\n") or words (non-space runs within a line). The box is
    the union of the drawn characters; a run without any is skipped."""
    out: list[Any] = []
    kind = PdfWord if words else PdfLine
    start = 0
    x0 = top = float("inf")
    x1 = bottom = float("-inf")
    page = -1
    for i, c in enumerate(chars):
        ch = c.char
        if ch == "\n" or (words and ch.isspace()):
            if page >= 0:
                out.append(kind(page, "".join(d.char for d in chars[start:i]), x0, top, x1, bottom, start, i))
            start = i + 1
            x0 = top = float("inf")
            x1 = bottom = float("-inf")
            page = -1
            continue
        if c.generated or ch.isspace():
            continue
        if page < 0:
            page = c.page
        x0 = min(x0, c.x0)
        top = min(top, c.top)
        x1 = max(x1, c.x1)
        bottom = max(bottom, c.bottom)
    if page >= 0:
        out.append(kind(page, "".join(d.char for d in chars[start:]), x0, top, x1, bottom, start, len(chars)))
    return out


def _image_objects(page: pdfium.PdfPage, max_depth: int = 8, paths: list[Any] | None = None) -> Iterator[Any]:
    """The page's image objects, also inside form XObjects (up to ``max_depth`` levels),
    in ``page.get_objects(filter=[IMAGE], max_depth=...)`` order. Walks the object list
    through the ``c_void_p`` copies and wraps only the images: a text page has thousands
    of text objects, and pypdfium2 builds a helper object for each. ``paths``, when
    given, receives the raw handles of the path objects met on the way."""
    if any(fn is None for fn in _OBJECT_CALLS):
        kinds = [pdfium_c.FPDF_PAGEOBJ_IMAGE] + ([pdfium_c.FPDF_PAGEOBJ_PATH] if paths is not None else [])
        for obj in page.get_objects(filter=kinds, max_depth=max_depth):
            if paths is not None and obj.type == pdfium_c.FPDF_PAGEOBJ_PATH:
                paths.append(ctypes.cast(obj.raw, ctypes.c_void_p).value)
            else:
                yield obj
        return
    obj_type: Any = _FAST_OBJ_TYPE
    image, form, path = pdfium_c.FPDF_PAGEOBJ_IMAGE, pdfium_c.FPDF_PAGEOBJ_FORM, pdfium_c.FPDF_PAGEOBJ_PATH
    # (container address, its count and get calls, level): page first, then forms.
    stack: list[tuple[Any, Any, Any, int, int]] = []
    stack.append((ctypes.cast(page.raw, ctypes.c_void_p).value, _FAST_PAGE_COUNT, _FAST_PAGE_OBJECT, 0, 0))
    while stack:
        parent, count, get, level, i = stack.pop()
        n = count(parent)
        if n < 0:
            raise pdfium.PdfiumError("Failed to get number of pageobjects.")
        while i < n:
            raw = get(parent, i)
            if not raw:
                raise pdfium.PdfiumError("Failed to get pageobject.")
            i += 1
            kind = obj_type(raw)
            if kind == image:
                handle = ctypes.cast(ctypes.c_void_p(raw), pdfium_c.FPDF_PAGEOBJECT)
                yield pdfium.PdfObject(handle, page=page, pdf=page.pdf, level=level)
            elif kind == path and paths is not None:
                paths.append(raw)  # an address: _read_rules calls the c_void_p copy
            if kind == form and level < max_depth - 1:
                stack.append((parent, count, get, level, i))  # resume after the form
                stack.append((raw, _FAST_FORM_COUNT, _FAST_FORM_OBJECT, level + 1, 0))
                break


def _read_images(
    page: pdfium.PdfPage, index: int, left: float, top: float, out: list[PdfImage], *, keep_data: bool = False,
    rules: list[PdfRule] | None = None,
    areas: list[PdfArea] | None = None,
) -> None:
    paths: list[Any] | None = [] if rules is not None else None
    for obj in _image_objects(page, paths=paths):
        l, b, r, t = obj.get_bounds()
        w = ctypes.c_uint(0)
        h = ctypes.c_uint(0)
        pdfium_c.FPDFImageObj_GetImagePixelSize(obj.raw, ctypes.byref(w), ctypes.byref(h))
        if int(w.value) * int(h.value) > current_limits().image_pixels:
            # Not decoded: a bitmap of this size is the memory attack the budget is for.
            hashes: tuple[str | None, str | None, str | None] = (None, None, None)
            data, mime, mean = None, None, None
        else:
            hashes, data, mime, mean = _decode_image(obj, keep_data=keep_data)
        clip = _clip_bounds(obj, left, top)
        if clip is not None and clip[0] <= l - left and clip[1] <= top - t and clip[2] >= r - left and clip[3] >= top - b:
            clip = None  # the clip leaves the whole image showing
        out.append(
            PdfImage(
                index, l - left, top - t, r - left, top - b,
                int(w.value), int(h.value), *hashes,
                int(pdfium_c.FPDFPageObj_GetMarkedContentID(obj.raw)),
                data, mime, clip, mean,
            )
        )
    if rules is not None and paths:
        _read_rules(paths, index, left, top, rules, areas)


def _clip_bounds(obj: Any, left: float, top: float) -> tuple[float, float, float, float] | None:
    """The bounds (page points from the top-left) of the area an image object is clipped
    to, or None without a clip path. LibreOffice places a picture whole and clips it to
    its table cell, to the page's body (a picture taller than the page), or to its frame
    (a cropped picture). The clip's paths are intersected, as the PDF does."""
    clip = pdfium_c.FPDFPageObj_GetClipPath(obj.raw)
    if not clip:
        return None
    x0, y0, x1, y1 = -math.inf, -math.inf, math.inf, math.inf
    x, y = ctypes.c_float(), ctypes.c_float()
    found = False
    for k in range(pdfium_c.FPDFClipPath_CountPaths(clip)):
        xs: list[float] = []
        ys: list[float] = []
        for j in range(pdfium_c.FPDFClipPath_CountPathSegments(clip, k)):
            seg = pdfium_c.FPDFClipPath_GetPathSegment(clip, k, j)
            if seg and pdfium_c.FPDFPathSegment_GetPoint(seg, ctypes.byref(x), ctypes.byref(y)):
                xs.append(x.value)
                ys.append(y.value)
        if xs:
            found = True
            x0, x1 = max(x0, min(xs)), min(x1, max(xs))
            y0, y1 = max(y0, min(ys)), min(y1, max(ys))
    if not found or x0 > x1 or y0 > y1:
        return None
    return x0 - left, top - y1, x1 - left, top - y0


def _read_paths(
    page: pdfium.PdfPage, index: int, left: float, top: float, rules: list[PdfRule], areas: list[PdfArea] | None
) -> None:
    """The page's path objects without its images (``rules=True, images=False``)."""
    paths: list[Any] = []
    for _image in _image_objects(page, paths=paths):
        pass  # the walk collects the paths; images are not wanted
    if paths:
        _read_rules(paths, index, left, top, rules, areas)


def _read_rules(
    paths: list[Any], index: int, left: float, top: float, out: list[PdfRule], areas: list[PdfArea] | None = None
) -> None:
    """The thin ones of a page's path objects (bounds at most ``RULE_MAX_PT`` across) into
    ``out``, the thicker ones into ``areas``."""
    get_bounds: Any = _FAST_OBJ_BOUNDS
    if get_bounds is None:  # pypdfium2's internals differ: the typed binding
        def get_bounds(address: int, *out: int) -> int:
            handle = ctypes.cast(ctypes.c_void_p(address), pdfium_c.FPDF_PAGEOBJECT)
            return int(pdfium_c.FPDFPageObj_GetBounds(handle, *(ctypes.cast(o, ctypes.POINTER(ctypes.c_float)) for o in out)))
    l, b, r, t = (ctypes.c_float() for _ in range(4))
    refs = (ctypes.addressof(l), ctypes.addressof(b), ctypes.addressof(r), ctypes.addressof(t))
    for handle in paths:
        if not get_bounds(handle, *refs):
            continue
        x0, x1, y0, y1 = l.value - left, r.value - left, top - t.value, top - b.value
        if max(x1 - x0, y1 - y0) <= RULE_MAX_PT:
            continue  # a dot, a bullet: neither
        if min(x1 - x0, y1 - y0) <= RULE_MAX_PT:
            out.append(PdfRule(index, x0, y0, x1, y1))
        elif areas is not None:
            areas.append(PdfArea(index, x0, y0, x1, y1))


# Embedded streams that are whole image files as they stand (one filter, no decoding).
_FILE_FILTERS = {"DCTDecode": "image/jpeg", "JPXDecode": "image/jp2"}


def _decode_image(
    obj: pdfium.PdfImage, *, keep_data: bool
) -> tuple[tuple[str | None, str | None, str | None], bytes | None, str | None, tuple[int, int, int] | None]:
    """imagehash phash/dhash and a sha256 of the RGB pixels of an embedded image, (``keep_data``)
    the image as a file, and its average colour: see :class:`PdfImage`."""
    import imagehash

    try:
        img = obj.get_bitmap(render=False).to_pil().convert("RGB")
    except Exception:  # noqa: BLE001 - an undecodable image keeps its box, loses its hashes
        return (None, None, None), None, None, None
    digest = hashlib.sha256(img.tobytes()).hexdigest()
    hashes = (str(imagehash.phash(img)), str(imagehash.dhash(img)), digest)
    mean = mean_colour(img)
    if not keep_data:
        return hashes, None, None, mean
    try:
        filters = obj.get_filters()
        raw = bytes(obj.get_data(decode_simple=False)) if len(filters) == 1 and filters[0] in _FILE_FILTERS else None
    except Exception:  # noqa: BLE001 - unreadable stream: keep the decoded pixels instead
        raw = None
    if raw:
        return hashes, raw, _FILE_FILTERS[filters[0]], mean
    buffer = io.BytesIO()
    img.save(buffer, format="PNG")
    return hashes, buffer.getvalue(), "image/png", mean


def mean_colour(img: Any) -> tuple[int, int, int]:
    """The average colour of an RGB PIL image (a box-filtered 1 x 1 thumbnail)."""
    from PIL import Image

    r, g, b = img.resize((1, 1), Image.Resampling.BOX).getpixel((0, 0))
    return int(r), int(g), int(b)


# --- structure tree (tagged PDF) -------------------------------------------------------

_TYPE_BUF = ctypes.create_string_buffer(512)


def _wide(fn: object, *args: object) -> str:
    """Call a pdfium getter that fills a UTF-16LE buffer and returns its byte length."""
    argtype = fn.argtypes[len(args)]  # type: ignore[attr-defined]
    n = fn(*args, ctypes.cast(_TYPE_BUF, argtype), len(_TYPE_BUF))  # type: ignore[operator]
    if n <= 2:
        return ""
    return _TYPE_BUF.raw[: min(n, len(_TYPE_BUF)) - 2].decode("utf-16-le", "replace")


def _read_structure(page: pdfium.PdfPage, index: int) -> list[StructElement]:
    tree = pdfium_c.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return []
    try:
        roots: list[StructElement] = []
        for i in range(pdfium_c.FPDF_StructTree_CountChildren(tree)):
            elem = pdfium_c.FPDF_StructTree_GetChildAtIndex(tree, i)
            if elem:
                roots.append(_element(elem, index, 0))
        return roots
    finally:
        pdfium_c.FPDF_StructTree_Close(tree)


def _element(elem: object, index: int, depth: int) -> StructElement:
    raw_type = _wide(pdfium_c.FPDF_StructElement_GetRawType, elem) if hasattr(
        pdfium_c, "FPDF_StructElement_GetRawType"
    ) else ""
    std_type = _wide(pdfium_c.FPDF_StructElement_GetType, elem)
    alt = _wide(pdfium_c.FPDF_StructElement_GetAltText, elem) or None
    node = StructElement(type=std_type or raw_type, raw_type=raw_type or std_type, page=index, alt_text=alt)
    for k in range(pdfium_c.FPDF_StructElement_GetMarkedContentIdCount(elem)):
        mcid = pdfium_c.FPDF_StructElement_GetMarkedContentIdAtIndex(elem, k)
        if mcid >= 0:
            node.mcids.append(int(mcid))
    if depth < 64:
        for k in range(pdfium_c.FPDF_StructElement_CountChildren(elem)):
            child = pdfium_c.FPDF_StructElement_GetChildAtIndex(elem, k)
            if child:
                node.children.append(_element(child, index, depth + 1))
    return node


def page_to_pixels(value_pt: float, dpi: int) -> float:
    """Points -> pixels at ``dpi`` (1 pt = dpi/72 px); the same factor on both axes."""
    return value_pt * dpi / 72.0


