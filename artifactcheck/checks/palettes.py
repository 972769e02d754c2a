"""Named colours of the editors our artifacts come from: the Google Docs/Sheets/Slides
palette and the default Office themes and standard colours. CSS names come from coloraide.

Values are ``#rrggbb`` lower-case. Sources and the light-yellow naming quirk are described
in design/checks-text-color.md.
"""

from __future__ import annotations

from ..model.named_colors import OFFICE_THEME_COLORS, WORD_HIGHLIGHT_BY_NAME

# -- Google Docs / Sheets / Slides "text colour" and "highlight colour" palette ------------
# Ten hues, each with a base colour, light 1-3 (lighter as the number grows) and dark 1-3
# (darker as the number grows), plus a grey row. Order: base, light 3, light 2, light 1,
# dark 1, dark 2, dark 3 -- the order of the rows in the Docs colour picker.
_GOOGLE_HUES: dict[str, tuple[str, str, str, str, str, str, str]] = {
    "red berry": ("#980000", "#e6b8af", "#dd7e6b", "#cc4125", "#a61c00", "#85200c", "#5b0f00"),
    "red": ("#ff0000", "#f4cccc", "#ea9999", "#e06666", "#cc0000", "#990000", "#660000"),
    "orange": ("#ff9900", "#fce5cd", "#f9cb9c", "#f6b26b", "#e69138", "#b45f06", "#783f04"),
    "yellow": ("#ffff00", "#fff2cc", "#ffe599", "#ffd966", "#f1c232", "#bf9000", "#7f6000"),
    "green": ("#00ff00", "#d9ead3", "#b6d7a8", "#93c47d", "#6aa84f", "#38761d", "#274e13"),
    "cyan": ("#00ffff", "#d0e0e3", "#a2c4c9", "#76a5af", "#45818e", "#134f5c", "#0c343d"),
    "cornflower blue": (
        "#4a86e8",
        "#c9daf8",
        "#a4c2f4",
        "#6d9eeb",
        "#3c78d8",
        "#1155cc",
        "#1c4587",
    ),
    "blue": ("#0000ff", "#cfe2f3", "#9fc5e8", "#6fa8dc", "#3d85c6", "#0b5394", "#073763"),
    "purple": ("#9900ff", "#d9d2e9", "#b4a7d6", "#8e7cc3", "#674ea7", "#351c75", "#20124d"),
    "magenta": ("#ff00ff", "#ead1dc", "#d5a6bd", "#c27ba0", "#a64d79", "#741b47", "#4c1130"),
}
_GOOGLE_GREYS: dict[str, str] = {
    "black": "#000000",
    "dark gray 4": "#434343",
    "dark gray 3": "#666666",
    "dark gray 2": "#999999",
    "dark gray 1": "#b7b7b7",
    "gray": "#cccccc",
    "light gray 1": "#d9d9d9",
    "light gray 2": "#efefef",
    "light gray 3": "#f3f3f3",
    "white": "#ffffff",
}


def _google_palette() -> dict[str, str]:
    out: dict[str, str] = dict(_GOOGLE_GREYS)
    for hue, (base, l3, l2, l1, d1, d2, d3) in _GOOGLE_HUES.items():
        out[hue] = base
        out.update({f"light {hue} 3": l3, f"light {hue} 2": l2, f"light {hue} 1": l1})
        out.update({f"dark {hue} 1": d1, f"dark {hue} 2": d2, f"dark {hue} 3": d3})
    return out


GOOGLE_PALETTE: dict[str, str] = _google_palette()
"""Google palette name -> hex, systematic naming (light N: N=3 is the palest)."""

# The Docs colour picker's tooltips swap two names in the yellow column: the swatch
# #ffe599 (systematically "light yellow 2") is labelled "light yellow 1", and #ffd966
# ("light yellow 1") is labelled "light yellow 2". A task author copying the tooltip and
# one reading the grid both mean a real palette entry, so both spellings are accepted.
GOOGLE_ALTERNATES: dict[str, tuple[str, ...]] = {
    "light yellow 1": ("#ffe599",),
    "light yellow 2": ("#ffd966",),
}

# -- Office ------------------------------------------------------------------------------
# Synonyms for theme slots as OOXML and the Office UI spell them.
OFFICE_SLOT_ALIASES: dict[str, str] = {
    "dk1": "dark 1",
    "lt1": "light 1",
    "dk2": "dark 2",
    "lt2": "light 2",
    "text 1": "dark 1",
    "background 1": "light 1",
    "text 2": "dark 2",
    "background 2": "light 2",
    "tx1": "dark 1",
    "bg1": "light 1",
    "tx2": "dark 2",
    "bg2": "light 2",
    "hlink": "hyperlink",
    "folhlink": "followed hyperlink",
    **{f"accent{i}": f"accent {i}" for i in range(1, 7)},
}
# Default theme colours by theme generation. "Office" (2013-2022) is the default of the
# files most agents produce; 2007 and 2023 themes are recognised by explicit prefix.
OFFICE_THEMES: dict[str, dict[str, str]] = {
    # the same scheme the extractors fall back to, named as the Office UI names the slots
    "office": {OFFICE_SLOT_ALIASES[slot.lower()]: hex_ for slot, hex_ in OFFICE_THEME_COLORS.items()},
    "office2007": {
        "dark 1": "#000000",
        "light 1": "#ffffff",
        "dark 2": "#1f497d",
        "light 2": "#eeece1",
        "accent 1": "#4f81bd",
        "accent 2": "#c0504d",
        "accent 3": "#9bbb59",
        "accent 4": "#8064a2",
        "accent 5": "#4bacc6",
        "accent 6": "#f79646",
        "hyperlink": "#0000ff",
        "followed hyperlink": "#800080",
    },
    "office2023": {
        "dark 1": "#000000",
        "light 1": "#ffffff",
        "dark 2": "#0e2841",
        "light 2": "#e8e8e8",
        "accent 1": "#156082",
        "accent 2": "#e97132",
        "accent 3": "#196b24",
        "accent 4": "#0f9ed5",
        "accent 5": "#a02b93",
        "accent 6": "#4ea72e",
        "hyperlink": "#467886",
        "followed hyperlink": "#96607d",
    },
}
# The "Standard Colors" row of the Office colour picker (same in every version).
OFFICE_STANDARD: dict[str, str] = {
    "dark red": "#c00000",
    "red": "#ff0000",
    "orange": "#ffc000",
    "yellow": "#ffff00",
    "light green": "#92d050",
    "green": "#00b050",
    "light blue": "#00b0f0",
    "blue": "#0070c0",
    "dark blue": "#002060",
    "purple": "#7030a0",
}
# Word's fixed highlight colours (w:highlight values), as Word renders them; one table
# shared with the .docx extractor (see artifactcheck/model/named_colors.py).
WORD_HIGHLIGHT: dict[str, str] = {
    **WORD_HIGHLIGHT_BY_NAME,
    # The names Word's highlight menu and python-docx's WD_COLOR_INDEX give the same
    # colours (BRIGHT_GREEN is w:highlight="green", TEAL "darkCyan", ...). "green" stays
    # the file's value (#00ff00); Word's menu "Green" (#008000) is also CSS green.
    "bright green": "#00ff00",
    "turquoise": "#00ffff",
    "pink": "#ff00ff",
    "teal": "#008080",
    "violet": "#800080",
    "gray 25%": "#c0c0c0",
    "gray 50%": "#808080",
}
