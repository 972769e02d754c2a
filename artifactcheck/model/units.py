"""Named unit converters. The tree speaks points (1/72 in); every other unit is
converted here, once, by a function whose name says what it converts."""

from __future__ import annotations

EMU_PER_INCH = 914_400
EMU_PER_PT = 12_700
TWIPS_PER_PT = 20
POINTS_PER_INCH = 72.0


def emu_to_pt(emu: float) -> float:
    """English Metric Units (OOXML drawing coordinates) to points."""
    return emu / EMU_PER_PT


def pt_to_emu(pt: float) -> int:
    return round(pt * EMU_PER_PT)


def twips_to_pt(twips: float) -> float:
    """Twentieths of a point (WordprocessingML page and indent sizes) to points."""
    return twips / TWIPS_PER_PT


def px_to_pt(px: float, *, dpi: float = 96.0) -> float:
    """Pixels at ``dpi`` to points. Office and Google both assume 96 px per inch."""
    return px * POINTS_PER_INCH / dpi


def pt_to_px(pt: float, *, dpi: float = 96.0) -> float:
    return pt * dpi / POINTS_PER_INCH
