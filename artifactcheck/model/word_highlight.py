"""Word's sixteen fixed highlight colours (``w:highlight``, ECMA-376 ST_HighlightColor),
``#rrggbb`` lower-case as Word renders them.

Kept in the model package because both sides need the one table: the .docx extractor
turns ``w:highlight`` values into :attr:`Style.highlight`, and the colour checks accept
the same colours by name ("dark blue"). The model imports neither side, so neither
depends on the other's internals.
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
"""``w:highlight`` value (camelCase, as in the file) -> hex."""

WORD_HIGHLIGHT_BY_NAME: dict[str, str] = {
    re.sub(r"(?<=[a-z])(?=[A-Z])", " ", key).lower(): hex_ for key, hex_ in WORD_HIGHLIGHT_HEX.items()
}
"""The same table keyed as a person writes the name (``darkBlue`` -> ``dark blue``)."""
