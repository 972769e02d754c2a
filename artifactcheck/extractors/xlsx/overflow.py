"""Is a cell's text fully visible? Excel's rules, applied to measured text widths.

Inputs are in points on the sheet canvas. The outcome (``overflow``):

- ``fits``: the text fits inside the cell (or merged range), padding included.
- ``spills``: too wide, but it is unwrapped text and the neighbours it needs are empty,
  so Excel draws it over them (left/general text spills right, right-aligned text left,
  centred text both ways).
- ``clipped``: too wide (or, when wrapped, too tall for a row of fixed height) and
  blocked by a non-empty neighbour, a merge, or alignment that never spills (fill,
  justify, distributed, wrapped, merged); part of the text is hidden.
- ``hashes``: a number or date too wide for its cell: Excel shows ``###``. A General
  number that can be shown rounded (fewer decimals) still ``fits``, with
  ``display_rounded``.
- ``unknown``: rotated text; not evaluated.

Padding: text needs its measured width plus ``PADDING_PT`` (1 pt), LibreOffice's cell text
margins (``number_format.CELL_TEXT_MARGINS_PT``, calibrated on renders). It was Excel's 5 px
(3.75 pt: a column of N "characters" is N * MDW + 5 px wide), but Excel measures text in
whole pixels (a Calibri 11 digit is 7 px) and we measure unhinted widths (7.43 px): against
5 px of padding, "$1,126.50", "1,234,567" and "Reference" were ``###`` or cut off in a
default-width column where LibreOffice draws them whole, and so does Excel.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .number_format import CELL_TEXT_MARGINS_PT

PADDING_PT = CELL_TEXT_MARGINS_PT
# One ``indent`` level of left or right aligned text, as LibreOffice draws it (three
# spaces of the default font; measured with Calibri 11: levels 1, 2, 4 start the text
# 7.5, 15.0, 30.0 pt further in, whatever the cell's own font). General and centred
# text ignore the indent there.
INDENT_PT = 7.5


def wrap_lines(text: str, width_of: Callable[[str], float], avail: float) -> int:
    """Lines greedy word-wrap produces in ``avail`` points (explicit newlines kept; a
    word wider than the line breaks across lines)."""
    if avail <= 0:
        return max(1, text.count("\n") + 1)
    lines = 0
    space = width_of(" ")
    for para in text.split("\n"):
        words = para.split(" ")
        cur = 0.0
        n = 1
        for w in words:
            ww = width_of(w)
            if ww > avail:  # breaks inside the word
                extra = int(ww // avail)
                n += extra if cur == 0 else extra + 1
                cur = ww - extra * avail
                continue
            need = ww if cur == 0 else cur + space + ww
            if need <= avail:
                cur = need
            else:
                n += 1
                cur = ww
        lines += n
    return lines


def classify(
    *,
    kind: str,
    text_w: float,
    x0: float,
    x1: float,
    height: float,
    align: str,
    wrap: bool,
    merged: bool,
    shrink: bool,
    rotation: int,
    left_limit: float,
    right_limit: float,
    line_h: float,
    lines: int,
    fixed_height: bool,
    general_min_w: float | None,
    indent: float = 0.0,
) -> dict[str, Any]:
    """Overflow attrs for one cell. ``kind``: text | number | bool | error.
    ``left_limit``/``right_limit``: x of the nearest non-empty obstacle on each side (the
    canvas edge when none). ``general_min_w``: width of the shorter rendering a
    General number too wide for its column is drawn with (None: other formats, or no
    rendering fits - ``###``). ``indent``: points the text starts further in (an
    ``indent`` level of left or right aligned text, ``INDENT_PT`` each)."""
    w = x1 - x0
    pad = PADDING_PT + indent
    need = text_w + pad
    out: dict[str, Any] = {}
    if rotation:
        out["overflow"] = "unknown"
        return out
    if wrap and kind == "text":
        text_h = lines * line_h
        out["lines"] = lines
        out["text_height_pt"] = round(text_h, 3)
        if text_h > height + 0.5:
            out["overflow"] = "clipped" if (fixed_height or merged) else "fits"
            if not (fixed_height or merged):
                out["needs_row_autofit"] = True  # Excel keeps the stored height; LibreOffice grows the row
        else:
            out["overflow"] = "fits"
        out["visible_width_pt"] = round(min(text_w, max(0.0, w - pad)), 3)
        return out
    if fixed_height and line_h > height + 0.5 and height > 0:
        # One line taller than a fixed-height row: Excel cuts it at the row's bottom.
        out["overflow"] = "clipped"
        out["clipped_vertically"] = True
        out["visible_width_pt"] = round(min(text_w, max(0.0, w - pad)), 3)
        return out
    if need <= w + 1e-6:
        out["overflow"] = "fits"
        out["visible_width_pt"] = round(text_w, 3)
        return out
    if shrink:
        out["overflow"] = "fits"
        out["shrunk"] = True
        out["visible_width_pt"] = round(max(0.0, w - pad), 3)
        return out
    if kind == "number":
        if general_min_w is not None:
            out["overflow"] = "fits"
            out["display_rounded"] = True
            out["visible_width_pt"] = round(general_min_w, 3)
        else:
            out["overflow"] = "hashes"
            out["visible_width_pt"] = 0.0
        return out
    visible = max(0.0, w - pad)
    if kind == "text" and not merged and align in ("left", "general", "right", "center"):
        if align in ("left", "general"):
            room = right_limit - x0
            if need <= room:
                out.update(overflow="spills", visible_width_pt=round(text_w, 3), spill_to_x=round(x0 + need, 3))
                return out
            visible = max(0.0, room - pad)
        elif align == "right":
            room = x1 - left_limit
            if need <= room:
                out.update(overflow="spills", visible_width_pt=round(text_w, 3), spill_to_x=round(x1 - need, 3))
                return out
            visible = max(0.0, room - pad)
        else:
            half = (need - w) / 2
            if x0 - half >= left_limit - 1e-6 and x1 + half <= right_limit + 1e-6:
                out.update(overflow="spills", visible_width_pt=round(text_w, 3))
                return out
    out["overflow"] = "clipped"
    out["visible_width_pt"] = round(min(text_w, visible), 3)
    return out
