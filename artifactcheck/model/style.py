"""Effective style: every value already resolved through styles, themes, masters,
placeholders and defaults. ``None`` means *not applicable to this node* (an image has no
font size) or *not stated anywhere and without a defined default*; it never means
"inherited, go look elsewhere"."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, field_validator

_HEX = re.compile(r"^#[0-9a-f]{6}$")

Align = Literal["left", "center", "right", "justify", "distributed", "fill", "general"]
VAlign = Literal["top", "middle", "bottom", "justify", "distributed"]
Baseline = Literal["superscript", "subscript"]


class Style(BaseModel):
    """Text and fill style of a node. Sizes in points, colours ``#rrggbb`` lower-case.

    ``color``/``fill`` are what a reader sees. When the file chose them from its theme,
    ``color_theme``/``fill_theme`` name the theme slot (``dk1``, ``lt1``, ``dk2``, ``lt2``,
    ``accent1``..``accent6``, ``hlink``, ``folHlink``: the theme part's own names, after
    any colour map) and ``color_theme_mods``/``fill_theme_mods`` the transforms applied
    to it, in the file's notation (``lumMod=75000 lumOff=25000``, ``themeShade=BF``,
    ``tint=-0.25``). Literal colours leave them None.

    >>> Style(bold=True, size=12, color="#0000FF").color
    '#0000ff'
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    font: str | None = None
    size: float | None = None
    bold: bool | None = None
    italic: bool | None = None
    underline: bool | None = None
    strike: bool | None = None
    color: str | None = None
    color_theme: str | None = None
    color_theme_mods: str | None = None
    highlight: str | None = None
    fill: str | None = None
    fill_theme: str | None = None
    fill_theme_mods: str | None = None
    align: Align | None = None
    valign: VAlign | None = None
    wrap: bool | None = None
    baseline: Baseline | None = None

    @field_validator("color", "highlight", "fill")
    @classmethod
    def _hex_colour(cls, v: str | None) -> str | None:
        if v is None:
            return None
        v = v.lower()
        if not _HEX.match(v):
            raise ValueError(f"colour must be #rrggbb, got {v!r}")
        return v


STYLE_FIELDS: tuple[str, ...] = tuple(Style.model_fields)
