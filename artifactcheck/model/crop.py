"""How much of a picture a node's ``crop`` attribute cuts away, whichever source wrote it.
Read by the checks that judge pictures and by the .docx layout, which boxes a cropped
picture by its visible part."""

from __future__ import annotations

from typing import Any

_EDGE_NAMES = {
    "left": ("left", "l", "offsetLeft", "leftOffset"),
    "top": ("top", "t", "offsetTop", "topOffset"),
    "right": ("right", "r", "offsetRight", "rightOffset"),
    "bottom": ("bottom", "b", "offsetBottom", "bottomOffset"),
}


def crop_fractions(attrs: dict[str, Any]) -> dict[str, float]:
    """The crop recorded on an image node as fractions per edge (left, top, right, bottom),
    whichever source spelled it: OOXML ``l/t/r/b``, Word ``left/...``, Google Docs
    ``offsetLeft/...``, Google Slides ``leftOffset/...``. Negative values (padding) count
    as 0. Empty dict when not cropped.

    >>> crop_fractions({"crop": {"l": 0.25, "r": 0.25, "t": -0.1}})
    {'left': 0.25, 'right': 0.25}
    """
    raw = attrs.get("crop")
    if not isinstance(raw, dict):
        return {}
    out: dict[str, float] = {}
    for edge, keys in _EDGE_NAMES.items():
        for key in keys:
            value = raw.get(key)
            if isinstance(value, (int, float)) and value > 0:
                out[edge] = float(value)
                break
    return out
