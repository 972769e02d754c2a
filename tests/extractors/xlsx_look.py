"""What a person sees in a LibreOffice render of a spreadsheet: the text, text colour and
background colour of the cell that shows a given text. Tests of the displayed style and
value compare the tree with this, never with the tree itself.

The workbook is rendered to PDF through the render cache (``render_pdf``), words are read
from the PDF text layer (``read_layout``), and colours are sampled from the page image at
200 dpi inside the word's box: the background is its most common colour, the text colour
the frequent colour farthest from the background (anti-aliased edges blend towards it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from PIL import Image

from artifactcheck.extractors.render import page_image, read_layout, render_pdf
from artifactcheck.extractors.render.layout import PdfLayout

DPI = 200


@dataclass(frozen=True)
class Look:
    """One word as drawn: its text, page, colours (``#rrggbb``)."""

    text: str
    page: int
    color: str
    background: str


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def _close(a: tuple[int, int, int], b: tuple[int, int, int], tol: int = 24) -> bool:
    return all(abs(x - y) <= tol for x, y in zip(a, b))


@cache
def _render(path: str) -> tuple[PdfLayout, Path]:
    pdf = render_pdf(Path(path)).pdf_path
    return read_layout(pdf, images=False), pdf


@cache
def _image(pdf: str, page: int) -> Image.Image:
    return page_image(Path(pdf), page, dpi=DPI)


def rendered_words(path: Path) -> list[str]:
    """Every word LibreOffice draws, in reading order."""
    layout, _pdf = _render(str(path))
    return [w.text for w in layout.words]


def look(path: Path, text: str, *, occurrence: int = 0) -> Look:
    """How the ``occurrence``-th word equal to ``text`` is drawn. AssertionError when the
    render has no such word (the words drawn are listed)."""
    layout, pdf = _render(str(path))
    hits = [w for w in layout.words if w.text == text]
    assert len(hits) > occurrence, f"{text!r} not drawn; words: {[w.text for w in layout.words][:80]}"
    w = hits[occurrence]
    img = _image(str(pdf), w.page)
    s = DPI / 72.0
    x0, top, x1, bottom = int(w.x0 * s), int(w.top * s), int(w.x1 * s), int(w.bottom * s)
    # Background: the most common colour inside the word's box (glyph strokes cover a
    # minority of it); the box spans the font's ascent-descent band, which sits inside the
    # row with less than 1 pt to spare, so no pixel outside it is sampled.
    band: Counter[tuple[int, int, int]] = Counter()
    for y in range(top, bottom):
        for x in range(x0, x1):
            band[img.getpixel((x, y))] += 1  # type: ignore[index]
    background = band.most_common(1)[0][0]
    inside: Counter[tuple[int, int, int]] = Counter()
    for y in range(top, bottom):
        for x in range(x0, x1):
            px = img.getpixel((x, y))
            if not _close(px, background, 40):  # type: ignore[arg-type]
                inside[px] += 1  # type: ignore[index]
    if not inside:
        return Look(text, w.page, _hex(background), _hex(background))
    # Anti-aliased edges blend towards the background; the glyph colour is the most
    # common of the colours farthest from the background.
    top_colours = inside.most_common(6)
    far = max(top_colours, key=lambda kv: (sum(abs(a - b) for a, b in zip(kv[0], background)), kv[1]))
    colour = far[0] if far[1] * 4 >= top_colours[0][1] else top_colours[0][0]
    return Look(text, w.page, _hex(colour), _hex(background))


def same_colour(a: str, b: str, tol: int = 24) -> bool:
    """Two ``#rrggbb`` within ``tol`` per channel (PDF rasterisation and colour profiles
    move a flat colour by a few units)."""
    pa = tuple(int(a[i : i + 2], 16) for i in (1, 3, 5))
    pb = tuple(int(b[i : i + 2], 16) for i in (1, 3, 5))
    return _close(pa, pb, tol)  # type: ignore[arg-type]


def format_cases_book(path: Path, cases: Sequence[tuple[str, float]], *, width: float = 20) -> Path:
    """A sheet of one row per (number format, value): ``caseN`` in A, the formatted value in
    B (``width`` characters wide), as an agent writes them with openpyxl."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    for i, (fmt, value) in enumerate(cases, 1):
        ws.cell(i, 1, f"case{i}")
        ws.cell(i, 2, value).number_format = fmt
    ws.column_dimensions["B"].width = width
    wb.save(str(path))
    return path


def printed_by_label(path: Path) -> dict[str, str]:
    """What the render prints after each row's ``caseN`` label (format_cases_book)."""
    from tests.extractors.rendered_look import page_texts

    printed: dict[str, str] = {}
    for line in "\n".join(page_texts(render_pdf(path).pdf_path)).splitlines():
        label, _, shown = line.strip().partition(" ")
        printed[label] = shown.strip()
    return printed

