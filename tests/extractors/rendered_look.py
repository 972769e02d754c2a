"""What a person sees on a rendered page, read back for tests: the fill colour under a
box, the colour of the ink inside it, the fonts the PDF drew there, the text printed on
each page. Used to check the tree's styles against LibreOffice's rendering, never the
tree against itself."""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image

from artifactcheck.checks.color import delta_e
from artifactcheck.extractors.render import PdfLayout, page_image, read_layout
from artifactcheck.model import Box

DPI = 144


@lru_cache(maxsize=32)
def page_png(pdf: Path, page: int) -> Image.Image:
    return page_image(pdf, page, dpi=DPI)


@lru_cache(maxsize=8)
def layout_of(pdf: Path) -> PdfLayout:
    return read_layout(pdf)


def _pixels(pdf: Path, box: Box, pad: float = 0.0) -> list[tuple[int, int, int]]:
    img = page_png(pdf, box.page)
    k = DPI / 72.0
    x0, y0 = int((box.x0 - pad) * k), int((box.top - pad) * k)
    x1, y1 = int((box.x1 + pad) * k) + 1, int((box.bottom + pad) * k) + 1
    crop = img.crop((max(0, x0), max(0, y0), min(img.width, x1), min(img.height, y1)))
    rgb = crop.convert("RGB")
    return [rgb.getpixel((x, y)) for y in range(rgb.height) for x in range(rgb.width)]  # type: ignore[misc]


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)


def background(pdf: Path, box: Box) -> str:
    """The most common colour inside ``box`` (text covers less of a line box than its
    background does): the fill a reader sees behind the text."""
    return _hex(Counter(_pixels(pdf, box)).most_common(1)[0][0])


def ink(pdf: Path, box: Box) -> str:
    """The colour of the text inside ``box``: among the pixels farthest from the
    background, the most common (anti-aliased edges are nearer the background)."""
    pixels = _pixels(pdf, box)
    back = Counter(pixels).most_common(1)[0][0]

    def dist(p: tuple[int, int, int]) -> int:
        return sum((a - b) ** 2 for a, b in zip(p, back))

    far = sorted(set(pixels), key=dist, reverse=True)[:1]
    ranked = sorted(pixels, key=dist, reverse=True)[: max(3, len(pixels) // 40)]
    return _hex(Counter(ranked).most_common(1)[0][0] if ranked else far[0])


def same_color(a: str, b: str, tolerance: float = 3.0) -> bool:
    """CIEDE2000 within ``tolerance`` (renderers round tints and anti-alias edges)."""
    return delta_e(a, b) <= tolerance


def fonts_in(pdf: Path, box: Box) -> set[str]:
    """PDF font names of the characters drawn inside ``box``."""
    layout = layout_of(pdf)
    return {
        c.font
        for c in layout.chars
        if c.page == box.page
        and not c.generated
        and c.char.strip()
        and box.x0 - 0.5 <= (c.x0 + c.x1) / 2 <= box.x1 + 0.5
        and box.top - 0.5 <= (c.top + c.bottom) / 2 <= box.bottom + 0.5
    }


def drawn_bold(pdf: Path, box: Box) -> bool:
    """Whether the text in ``box`` is set in a bold face (LibreOffice embeds the bold
    font file, named ``...-Bold``)."""
    fonts = fonts_in(pdf, box)
    return bool(fonts) and all("bold" in f.lower() for f in fonts)


def drawn_italic(pdf: Path, box: Box) -> bool:
    fonts = fonts_in(pdf, box)
    return bool(fonts) and all("italic" in f.lower() or "oblique" in f.lower() for f in fonts)


def page_texts(pdf: Path) -> list[str]:
    """The text pdfium reads on each page, lines separated by newlines."""
    doc = pdfium.PdfDocument(str(pdf))
    try:
        return [doc[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(doc))]
    finally:
        doc.close()


def line_tops(pdf: Path, box: Box) -> list[float]:
    """Tops of the text lines pdfium finds inside ``box``, top to bottom."""
    layout = layout_of(pdf)
    return sorted(
        {
            round(line.top, 1)
            for line in layout.lines
            if line.page == box.page
            and line.text.strip()
            and box.top - 1 <= line.top <= box.bottom
            and box.x0 - 1 <= line.x0 <= box.x1
        }
    )


def margin_lines(pdf: Path, page: int, *, top: float, bottom: float) -> set[str]:
    """Text lines LibreOffice drew in the page's top margin (above ``top``) and bottom
    margin (below ``bottom``, in points from the top): its header and footer."""
    layout = layout_of(pdf)
    return {
        " ".join(line.text.split())
        for line in layout.lines
        if line.page == page
        and line.text.strip()
        and ((line.top + line.bottom) / 2 < top or (line.top + line.bottom) / 2 > bottom)
    }


def underlined(pdf: Path, box: Box) -> bool:
    """Is a line drawn under the word in ``box``: a pixel row, at most 4 pt below the
    word's band, dark across at least 80% of its width? (Use words without descenders.)"""
    img = page_png(pdf, box.page).convert("L")
    k = DPI / 72.0
    x0, x1 = int(box.x0 * k), int(box.x1 * k)
    for y in range(int((box.bottom - 3) * k), int((box.bottom + 4) * k)):
        dark = sum(1 for x in range(x0, x1) if img.getpixel((x, y)) < 128)  # type: ignore[operator]
        if dark >= 0.8 * max(1, x1 - x0):
            return True
    return False
