"""Text widths in points from real font files (fontTools), for "is this text cut off?".

Office fonts are rarely installed on Linux; their metric-compatible free twins are
(same advance widths by design): Calibri -> Carlito, Cambria -> Caladea, Arial ->
Liberation Sans, Times New Roman -> Liberation Serif, Courier New -> Liberation Mono.
Families with no twin but a close design (Aptos -> Carlito, Segoe UI -> Liberation Sans)
use ``APPROXIMATE_TWINS``. Any other family goes through ``fc-match`` (fontconfig,
installed with LibreOffice); when the measuring font is not the family or its metric twin,
:class:`FontFace` says so (``substituted``; ``fallback`` when it is DejaVu Sans).

Widths are the sum of the glyphs' advance widths (no kerning, no shaping: Excel's GDI
text output does not kern either). A character the font has no glyph for counts as 1 em
when it is East-Asian wide, else 0.5 em, and is counted in ``TextMeasure.missing``.

Parsed fonts are cached per process; a measurement is a dict lookup per character.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from fontTools.ttLib import TTFont

# fontTools logs a warning for fonts with a pre-1970 "created" date (Carlito has one).
logging.getLogger("fontTools.ttLib.tables._h_e_a_d").setLevel(logging.ERROR)

# Office family -> metric-compatible family installed with LibreOffice / Debian fonts.
METRIC_TWINS: dict[str, str] = {
    "calibri": "Carlito",
    "calibri light": "Carlito",
    "cambria": "Caladea",
    "arial": "Liberation Sans",
    "helvetica": "Liberation Sans",
    "arial narrow": "Liberation Sans Narrow",
    "times new roman": "Liberation Serif",
    "times": "Liberation Serif",
    "courier new": "Liberation Mono",
    "courier": "Liberation Mono",
}
# Office families with no metric twin on Linux, measured with the closest installed
# design rather than DejaVu Sans (``substituted`` stays True: widths are approximate).
# Aptos Narrow, Excel 365's default since 2023, keeps Calibri's 7 px digit at 11 pt.
APPROXIMATE_TWINS: dict[str, str] = {
    "aptos narrow": "Carlito",
    "aptos": "Carlito",
    "aptos display": "Carlito",
    "segoe ui": "Liberation Sans",
    "helvetica neue": "Liberation Sans",
    "verdana": "DejaVu Sans",
}
FALLBACK_FAMILY = "DejaVu Sans"

# Where Debian puts these fonts, for machines without fc-match.
_DEBIAN_FILES: dict[tuple[str, bool, bool], str] = {}
for _fam, _stem, _dir in (
    ("carlito", "Carlito", "crosextra"),
    ("caladea", "Caladea", "crosextra"),
    ("liberation sans", "LiberationSans", "liberation2"),
    ("liberation serif", "LiberationSerif", "liberation2"),
    ("liberation mono", "LiberationMono", "liberation2"),
):
    for _b, _i, _suffix in (
        (False, False, "Regular"),
        (True, False, "Bold"),
        (False, True, "Italic"),
        (True, True, "BoldItalic"),
    ):
        _DEBIAN_FILES[(_fam, _b, _i)] = f"/usr/share/fonts/truetype/{_dir}/{_stem}-{_suffix}.ttf"
for _b, _i, _suffix in (
    (False, False, ""),
    (True, False, "-Bold"),
    (False, True, "-Oblique"),
    (True, True, "-BoldOblique"),
):
    _DEBIAN_FILES[("dejavu sans", _b, _i)] = f"/usr/share/fonts/truetype/dejavu/DejaVuSans{_suffix}.ttf"


@dataclass(frozen=True)
class FontFace:
    """Which file measures a requested family. ``substituted``: the file's family is not
    the requested one nor its metric twin (widths are approximate); ``fallback``: it is
    the DejaVu Sans last resort."""

    requested: str
    family: str
    file: str
    bold: bool
    italic: bool
    substituted: bool
    fallback: bool


@dataclass(frozen=True)
class TextMeasure:
    """A measured string: ``width_pt`` at the given size; ``missing`` characters had no
    glyph and were estimated."""

    width_pt: float
    missing: int
    face: FontFace
    estimated: bool = False


@dataclass
class _FontData:
    units_per_em: int
    ascent: int  # OS/2 winAscent (what Windows/Excel use for line height)
    descent: int  # OS/2 winDescent, positive
    line_ascent: int  # hhea ascender (what LibreOffice lays a line out with on Linux)
    line_descent: int  # hhea descender, positive
    cmap: dict[int, str]
    hmtx: dict[str, tuple[int, int]]
    cache: dict[str, float | None] = field(default_factory=dict)  # char -> advance in em

    def advance_em(self, ch: str) -> float | None:
        adv = self.cache.get(ch, -1.0)
        if adv != -1.0:
            return adv
        glyph = self.cmap.get(ord(ch))
        value = None if glyph is None else self.hmtx[glyph][0] / self.units_per_em
        self.cache[ch] = value
        return value


_LOCK = threading.Lock()


@lru_cache(maxsize=64)
def _load(file: str) -> _FontData:
    font = TTFont(file, lazy=True, fontNumber=0)
    try:
        upem = int(font["head"].unitsPerEm)
        os2 = font.get("OS/2", None)
        hhea = font["hhea"]
        ascent = int(os2.usWinAscent) if os2 is not None else int(hhea.ascent)
        descent = int(os2.usWinDescent) if os2 is not None else -int(hhea.descent)
        line_ascent, line_descent = int(hhea.ascent), -int(hhea.descent)
        if line_ascent + line_descent <= 0:  # no usable hhea: vcl falls back to the OS/2 values
            line_ascent, line_descent = ascent, descent
        cmap = dict(font.getBestCmap() or {})
        hmtx = dict(font["hmtx"].metrics)
    finally:
        font.close()
    return _FontData(upem, ascent, descent, line_ascent, line_descent, cmap, hmtx)


def _fc_match(family: str, bold: bool, italic: bool) -> tuple[str, str] | None:
    exe = shutil.which("fc-match")
    if exe is None:
        return None
    pattern = family.replace("-", r"\-").replace(":", r"\:")
    if bold:
        pattern += ":bold"
    if italic:
        pattern += ":italic"
    try:
        out = subprocess.run(
            [exe, "-f", "%{file}\n%{family[0]}\n", pattern],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        ).stdout.splitlines()
    except (OSError, subprocess.SubprocessError):
        return None
    if len(out) >= 2 and out[0] and Path(out[0]).is_file():
        return out[0], out[1]
    return None


@lru_cache(maxsize=256)
def resolve_font(family: str | None, *, bold: bool = False, italic: bool = False) -> FontFace:
    """The font file that measures ``family`` (an Office family name), bold/italic."""
    requested = (family or FALLBACK_FAMILY).strip() or FALLBACK_FAMILY
    approximate = APPROXIMATE_TWINS.get(requested.lower())
    twin = METRIC_TWINS.get(requested.lower(), approximate or requested)
    found = _fc_match(twin, bold, italic)
    if found is None:
        for fam in (twin.lower(), FALLBACK_FAMILY.lower()):
            path = _DEBIAN_FILES.get((fam, bold, italic))
            if path and Path(path).is_file():
                found = (path, fam.title())
                break
    if found is None:
        raise FileNotFoundError(
            f"no font file for {requested!r} and no {FALLBACK_FAMILY} fallback; "
            "install fontconfig and fonts-dejavu-core"
        )
    file, got = found
    matched = got.lower() in {requested.lower(), twin.lower()}
    return FontFace(
        requested=requested,
        family=got,
        file=file,
        bold=bold,
        italic=italic,
        substituted=not matched or approximate is not None,
        fallback=(not matched or approximate == FALLBACK_FAMILY) and got.lower() == FALLBACK_FAMILY.lower()
        and requested.lower() != FALLBACK_FAMILY.lower(),
    )


def _wide(ch: str) -> bool:
    return unicodedata.east_asian_width(ch) in ("W", "F")


MAX_MEASURED_CHARS = 4096  # longer strings: measure a prefix and scale (flagged `estimated`)
_MEMO: dict[tuple[str, str], tuple[float, int]] = {}
_MEMO_MAX_TEXT = 64
_MEMO_MAX_ITEMS = 200_000


def measure_text(
    text: str, family: str | None, size_pt: float, *, bold: bool = False, italic: bool = False
) -> TextMeasure:
    """Advance width of ``text`` on one line, in points, at ``size_pt``.

    Strings longer than ``MAX_MEASURED_CHARS`` (a cell may hold 32,767 characters, no
    screen shows that many) are measured on a prefix and scaled; ``estimated`` says so."""
    face = resolve_font(family, bold=bold, italic=italic)
    key = (text, face.file)
    hit = _MEMO.get(key) if len(text) <= _MEMO_MAX_TEXT else None
    if hit is not None:
        return TextMeasure(width_pt=hit[0] * size_pt, missing=hit[1], face=face)
    sample = text if len(text) <= MAX_MEASURED_CHARS else text[:MAX_MEASURED_CHARS]
    with _LOCK:
        data = _load(face.file)
        total = 0.0
        missing = 0
        advance = data.advance_em
        for ch in sample:
            adv = advance(ch)
            if adv is None:
                if unicodedata.category(ch) in ("Cc", "Cf", "Mn"):
                    continue  # controls, format and combining marks take no width
                missing += 1
                adv = 1.0 if _wide(ch) else 0.5
            total += adv
    if len(sample) < len(text):
        total *= len(text) / len(sample)
        return TextMeasure(width_pt=total * size_pt, missing=missing, face=face, estimated=True)
    if len(text) <= _MEMO_MAX_TEXT and len(_MEMO) < _MEMO_MAX_ITEMS:
        _MEMO[key] = (total, missing)
    return TextMeasure(width_pt=total * size_pt, missing=missing, face=face)


def em_measurer(family: str | None, *, bold: bool = False, italic: bool = False) -> tuple[FontFace, Callable[[str], tuple[float, int]]]:
    """A fast measuring function for one face: text -> (width in em, missing glyphs).
    Multiply by the size in points. For hot loops (one call per spreadsheet cell)."""
    face = resolve_font(family, bold=bold, italic=italic)
    data = _load(face.file)
    advance = data.advance_em
    memo: dict[str, tuple[float, int]] = {}

    known = data.cache  # char -> advance in em (None: no glyph), filled by advance_em
    getitem: Callable[[str], float] = known.__getitem__  # type: ignore[assignment]

    def measure(text: str) -> tuple[float, int]:
        hit = memo.get(text)
        if hit is not None:
            return hit
        if len(text) <= MAX_MEASURED_CHARS:
            try:
                # C-speed path once every character has been seen with a glyph.
                return float(sum(map(getitem, text))), 0
            except (KeyError, TypeError):
                pass
        total = 0.0
        missing = 0
        for ch in text[:MAX_MEASURED_CHARS]:
            adv = advance(ch)
            if adv is None:
                if unicodedata.category(ch) in ("Cc", "Cf", "Mn"):
                    continue
                missing += 1
                adv = 1.0 if _wide(ch) else 0.5
            total += adv
        if len(text) > MAX_MEASURED_CHARS:
            total *= len(text) / MAX_MEASURED_CHARS
        elif len(text) <= _MEMO_MAX_TEXT and len(memo) < 50_000:
            memo[text] = (total, missing)
        return total, missing

    return face, measure


def text_width_pt(
    text: str, family: str | None, size_pt: float, *, bold: bool = False, italic: bool = False
) -> float:
    """Width of ``text`` in points (see :func:`measure_text`).

    >>> round(text_width_pt("0", "Calibri", 11), 3)   # Carlito digit: 1038/2048 em
    5.575
    """
    return measure_text(text, family, size_pt, bold=bold, italic=italic).width_pt


@lru_cache(maxsize=1024)
def line_height_pt(family: str | None, size_pt: float, *, bold: bool = False) -> float:
    """Single line height in points (winAscent + winDescent), as GDI lays out cell text."""
    face = resolve_font(family, bold=bold)
    data = _load(face.file)
    return (data.ascent + data.descent) / data.units_per_em * size_pt


def lo_line_height_pt(family: str | None, size_pt: float, *, bold: bool = False) -> float:
    """The height of one line of cell text as LibreOffice draws it here: the font's
    hhea ascender + descender, without the line gap. Carlito (for Calibri) states 2048
    units where its OS/2 win metrics say 2500: wrapped Calibri 11 lines are drawn
    11.1 pt apart, not GDI's 13.43 (measured; Arial, Times and Verdana agree both ways)."""
    face = resolve_font(family, bold=bold)
    data = _load(face.file)
    return (data.line_ascent + data.line_descent) / data.units_per_em * size_pt


def lo_digit_width_pt(family: str | None, size_pt: float) -> float:
    """LibreOffice's unit for a ``<col width>``: the widest digit of the default font in
    whole twips (truncated), in points. Calibri 11 (Carlito): 111.5 -> 111 twips, so a
    width of 20 is drawn 111.0 pt wide where Excel's whole-pixel rule gives 105 (measured
    on widths 5 to 21: 27.6, 55.5, 72.2, 111.0, 116.6 pt)."""
    face = resolve_font(family)
    data = _load(face.file)
    widest = max((data.advance_em(d) or 0.5) for d in "0123456789")
    return int(widest * size_pt * 20) / 20.0


def max_digit_width_px(family: str | None, size_pt: float, *, dpi: float = 96.0) -> int:
    """Excel's "maximum digit width": the widest of 0-9 in whole pixels at ``dpi``
    (rounded: Calibri 11 -> 7, Arial 10 -> 7). Excel column widths are in these units."""
    face = resolve_font(family)
    data = _load(face.file)
    size_px = size_pt * dpi / 72.0
    widest = max((data.advance_em(d) or 0.5) for d in "0123456789")
    return max(1, int(widest * size_px + 0.5))
