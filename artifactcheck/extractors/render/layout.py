"""``read_layout``: what a PDF puts where — characters, words, lines, images, page sizes
and (for tagged PDFs) the structure tree's marked-content ids.

All geometry is in points with the origin at the **top-left** of each page's crop box, y
down (pdfium's bottom-left coordinates are converted here, once). Character boxes are
pdfium's *loose* boxes: the font's ascent-to-descent band times the advance width, so a
line's characters share one top and bottom and a paragraph box covers its lines fully
(tight glyph boxes would shrink a "." to a dot). Whitespace the PDF does not draw
(pdfium infers spaces and line ends) is kept as characters with ``generated=True`` and a
zero-size box at the preceding character, so the character stream reads like the text.

Read with pypdfium2 (the PDFium engine): ~1–2 ms per page here versus ~50 ms per page for
pdfplumber/pdfminer, and it exposes marked-content ids and the structure tree; see
design/rendering.md.
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

from ...errors import RenderError

__all__ = [
    "PageLayout",
    "PdfChar",
    "PdfImage",
    "PdfLayout",
    "PdfLine",
    "PdfWord",
    "StructElement",
    "read_layout",
]


@dataclass(frozen=True, slots=True)
class PageLayout:
    """One page: 0-based ``index``, ``width``/``height`` in points (crop box)."""

    index: int
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class PdfChar:
    """One character of the text layer (top-left origin, points).

    ``mcid`` is the marked-content id of the text object that drew it (-1 when untagged);
    ``generated`` marks whitespace pdfium inferred rather than read from the PDF.
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
    None when pdfium cannot decode the image. ``mcid`` as for characters.
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


@dataclass(slots=True)
class StructElement:
    """A node of a tagged PDF's structure tree, in document order.

    ``type`` is the standard role after RoleMap resolution (``P``, ``H1``, ``LI``,
    ``Table``, ``TD``, ``Figure`` ...); ``raw_type`` the name as written (LibreOffice
    writes paragraph-style names such as ``"List Bullet"`` or ``"Standard"``).
    ``mcids`` maps page -> marked-content ids owned directly by this element. Elements
    found on several pages are separate objects in pdfium's per-page trees; they are
    merged here when they have the same ``id`` attribute or the same parent chain
    position (see design/rendering.md for the limits).
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


@dataclass(slots=True)
class PdfLayout:
    """The layout of a whole PDF. ``chars`` are in reading order per page, pages in order;
    ``words``/``lines`` index into ``chars``. ``structure`` holds one root list per page
    (empty when the PDF is not tagged)."""

    pages: list[PageLayout]
    chars: list[PdfChar]
    words: list[PdfWord]
    lines: list[PdfLine]
    images: list[PdfImage]
    structure: list[list[StructElement]]
    tagged: bool

    @property
    def text(self) -> str:
        """The character stream as one string (``len(text) == len(chars)``)."""
        return "".join(c.char for c in self.chars)

    def chars_with_mcid(self, page: int, mcid: int) -> list[PdfChar]:
        """The characters drawn inside marked content ``mcid`` on ``page``."""
        return [c for c in self.chars if c.page == page and c.mcid == mcid]


def read_layout(pdf_path: Path, *, images: bool = True) -> PdfLayout:
    """Read the layout of ``pdf_path``. ``images=False`` skips decoding images (hashes).

    Raises :class:`~artifactcheck.errors.RenderError` when the PDF cannot be opened.
    """
    try:
        doc = pdfium.PdfDocument(str(pdf_path))
    except (OSError, pdfium.PdfiumError) as exc:
        raise RenderError(f"cannot read PDF: {exc}", path=pdf_path) from None
    pages: list[PageLayout] = []
    chars: list[PdfChar] = []
    imgs: list[PdfImage] = []
    structure: list[list[StructElement]] = []
    try:
        tagged = _is_tagged(doc)
        for index in range(len(doc)):
            page = doc[index]
            try:
                left, bottom, right, top = page.get_cropbox()
                pages.append(PageLayout(index, right - left, top - bottom))
                _read_chars(page, index, left, top, chars)
                if images:
                    _read_images(page, index, left, top, imgs)
                structure.append(_read_structure(page, index) if tagged else [])
            finally:
                page.close()
    finally:
        doc.close()
    words, lines = _group(chars)
    return PdfLayout(pages, chars, words, lines, imgs, structure, tagged)


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
    """(ascent, descent) as fractions of the em from the embedded font's ``hhea`` table.

    LibreOffice lays lines out with these values (the first line's baseline sits exactly
    ``ascent * size`` below the top margin), so char bands built from them make a
    paragraph's box start at the margin. None when the font is not an embedded TrueType
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
                result = (hhea.ascent / upem, abs(hhea.descent) / upem)
    except Exception:  # noqa: BLE001 - CFF fonts, odd subsets: fall back to pdfium's boxes
        result = None
    # Subset fonts of one family share metrics; the name (subset tag removed) is the key.
    _METRICS_CACHE[name] = result
    return result


def _obj_info(obj: object, size: float) -> _ObjInfo:
    """Font name, size, mcid and vertical metrics of one text object."""
    font = pdfium_c.FPDFTextObj_GetFont(obj)
    name = ""
    metrics = None
    if font:
        n = pdfium_c.FPDFFont_GetBaseFontName(font, _FONT_BUF, len(_FONT_BUF))
        name = _FONT_BUF.raw[: max(0, n - 1)].decode("utf-8", "replace")
        metrics = _font_metrics(font, name)
        # Subset fonts are named "ABCDEF+Carlito": the tag is noise for style checks.
        if len(name) > 7 and name[6] == "+":
            name = name[7:]
    mcid = int(pdfium_c.FPDFPageObj_GetMarkedContentID(obj))
    ascent, descent = metrics if metrics else (-1.0, -1.0)
    return _ObjInfo(name, size, mcid, ascent, descent)


def _read_chars(page: pdfium.PdfPage, index: int, left: float, top: float, out: list[PdfChar]) -> None:
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
        rect = pdfium_c.FS_RECTF()
        rect_p = ctypes.byref(rect)
        ox = ctypes.c_double(0)
        oy = ctypes.c_double(0)
        ox_p, oy_p = ctypes.byref(ox), ctypes.byref(oy)
        info_cache: dict[int, _ObjInfo] = {}
        get_obj = pdfium_c.FPDFText_GetTextObject
        get_box = pdfium_c.FPDFText_GetLooseCharBox
        get_origin = pdfium_c.FPDFText_GetCharOrigin
        get_size = pdfium_c.FPDFText_GetFontSize
        is_generated = pdfium_c.FPDFText_IsGenerated
        no_info = _ObjInfo("", 0.0, -1, -1.0, -1.0)
        prev: PdfChar | None = None
        for i in range(n):
            ch = text[i] if i < len(text) else "\ufffd"
            if ch == "\r":
                continue  # pdfium ends lines with "\r\n"; keep the "\n" only
            if ch.isspace() and (ch == "\n" or is_generated(tp, i)):
                # Inferred whitespace: no ink, no box of its own.
                if prev is not None:
                    out.append(PdfChar(index, ch, prev.x1, prev.top, prev.x1, prev.bottom,
                                       prev.font, prev.size, prev.mcid, True))
                else:
                    out.append(PdfChar(index, ch, 0.0, 0.0, 0.0, 0.0, "", 0.0, -1, True))
                continue
            obj = get_obj(tp, i)
            key = ctypes.cast(obj, ctypes.c_void_p).value or 0
            info = info_cache.get(key)
            if info is None:
                info = _obj_info(obj, float(get_size(tp, i))) if key else no_info
                info_cache[key] = info
            get_box(tp, i, rect_p)
            if info.ascent > 0:
                get_origin(tp, i, ox_p, oy_p)
                baseline = top - oy.value
                y0 = baseline - info.ascent * info.size
                y1 = baseline + info.descent * info.size
            else:
                y0, y1 = top - rect.top, top - rect.bottom
            c = PdfChar(index, ch, rect.left - left, y0, rect.right - left, y1,
                        info.font, info.size, info.mcid, False)
            out.append(c)
            prev = c
        # A page break separates pages in the stream like a line break.
        if out and out[-1].page == index and out[-1].char != "\n":
            last = out[-1]
            out.append(PdfChar(index, "\n", last.x1, last.top, last.x1, last.bottom,
                               last.font, last.size, last.mcid, True))
    finally:
        textpage.close()


def _group(chars: list[PdfChar]) -> tuple[list[PdfWord], list[PdfLine]]:
    """Words (non-space runs) and lines (runs between "\\n") over the whole stream."""
    words: list[PdfWord] = []
    lines: list[PdfLine] = []

    def emit(kind: type, start: int, end: int) -> None:
        drawn = [c for c in chars[start:end] if not c.generated and not c.char.isspace()]
        if not drawn:
            return
        item = kind(
            drawn[0].page,
            "".join(c.char for c in chars[start:end]),
            min(c.x0 for c in drawn), min(c.top for c in drawn),
            max(c.x1 for c in drawn), max(c.bottom for c in drawn),
            start, end,
        )
        (words if kind is PdfWord else lines).append(item)

    line_start = 0
    word_start: int | None = None
    for i, c in enumerate(chars):
        if c.char == "\n":
            if word_start is not None:
                emit(PdfWord, word_start, i)
                word_start = None
            emit(PdfLine, line_start, i)
            line_start = i + 1
        elif c.char.isspace():
            if word_start is not None:
                emit(PdfWord, word_start, i)
                word_start = None
        elif word_start is None:
            word_start = i
    if word_start is not None:
        emit(PdfWord, word_start, len(chars))
    if line_start < len(chars):
        emit(PdfLine, line_start, len(chars))
    return words, lines


def _read_images(page: pdfium.PdfPage, index: int, left: float, top: float, out: list[PdfImage]) -> None:
    for obj in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=8):
        l, b, r, t = obj.get_pos()
        w = ctypes.c_uint(0)
        h = ctypes.c_uint(0)
        pdfium_c.FPDFImageObj_GetImagePixelSize(obj.raw, ctypes.byref(w), ctypes.byref(h))
        phash, dhash, pixel_sha = _image_hashes(obj)
        out.append(
            PdfImage(
                index, l - left, top - t, r - left, top - b,
                int(w.value), int(h.value), phash, dhash, pixel_sha,
                int(pdfium_c.FPDFPageObj_GetMarkedContentID(obj.raw)),
            )
        )


def _image_hashes(obj: pdfium.PdfImage) -> tuple[str | None, str | None, str | None]:
    """imagehash phash/dhash and a sha256 of the RGB pixels of an embedded image."""
    import imagehash

    try:
        bitmap = obj.get_bitmap(render=False)
        try:
            img = bitmap.to_pil().convert("RGB")
        finally:
            bitmap.close()
    except Exception:  # noqa: BLE001 - an undecodable image keeps its box, loses its hashes
        return None, None, None
    digest = hashlib.sha256(img.tobytes()).hexdigest()
    return str(imagehash.phash(img)), str(imagehash.dhash(img)), digest


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


