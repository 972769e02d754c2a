"""Named colours that both the extractors and the checks need, one table each:
Word's sixteen highlight colours and the default Office theme's colour scheme;
``#rrggbb`` lower-case.

Kept in the model package because both sides use the same table: the extractors turn
``w:highlight`` values and theme slots into :class:`Style` colours, and the colour checks
accept the same colours by name ("dark blue", "accent 1"). The model imports neither
side, so neither depends on the other's internals.
"""

from __future__ import annotations

import re

WORD_HIGHLIGHT_HEX: dict[str, str] = {
    "yellow": "#ffff00",
    "green": "#00ff00",
    "cyan": "#00ffff",
    "magenta": "#ff00ff",
    "blue": "#0000ff",
    "red": "#ff0000",
    "darkBlue": "#000080",
    "darkCyan": "#008080",
    "darkGreen": "#008000",
    "darkMagenta": "#800080",
    "darkRed": "#800000",
    "darkYellow": "#808000",
    "darkGray": "#808080",
    "lightGray": "#c0c0c0",
    "black": "#000000",
    "white": "#ffffff",
}
"""``w:highlight`` value (ECMA-376 ST_HighlightColor, camelCase as in the file) -> hex,
as Word renders it."""

WORD_HIGHLIGHT_BY_NAME: dict[str, str] = {
    re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).lower(): hex_ for key, hex_ in WORD_HIGHLIGHT_HEX.items()
}
"""The same table keyed as a person writes the name (``darkBlue`` -> ``dark blue``)."""

OFFICE_THEME_COLORS: dict[str, str] = {
    "dk1": "#000000", "lt1": "#ffffff", "dk2": "#44546a", "lt2": "#e7e6e6",
    "accent1": "#4472c4", "accent2": "#ed7d31", "accent3": "#a5a5a5",
    "accent4": "#ffc000", "accent5": "#5b9bd5", "accent6": "#70ad47",
    "hlink": "#0563c1", "folHlink": "#954f72",
}  # fmt: skip
"""The default "Office Theme" (2013-2022) colour scheme by ``a:clrScheme`` slot: what a
package without a theme part uses, and the theme most agent-made files carry."""
