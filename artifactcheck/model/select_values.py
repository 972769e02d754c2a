"""What a selector sees of a node: the attribute values of its lxml mirror element.

Both selector engines read nodes through these definitions (``select.py`` writes them into
lxml elements; ``select_python.py`` computes them on demand for one node and one name), so
``run[size="12"]`` means the same string in both: numbers the shortest way, booleans
``true``/``false``, control characters XML cannot hold removed.
"""

from __future__ import annotations

import re
from typing import Any

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
"""Attribute names the mirror carries (CSS and XML can both spell them)."""

MIRROR_NAMES: tuple[str, ...] = ("id", "text", "pages")
"""Names every mirror element carries beside the style fields and the node's attrs."""

INDEX_NAME = "_i"
"""Mirror attribute holding the node's pre-order position (internal)."""

BOOLS_NAME = "_b"
"""Mirror attribute listing the element's boolean attribute names (`` italic bold ``)."""

XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
"""Characters an XML attribute or text cannot hold; removed from every value."""


def clean(text: str) -> str:
    """``text`` without the characters XML cannot hold (most strings have none)."""
    return XML_BAD.sub("", text)


def fmt(value: Any) -> str | None:
    """A scalar attribute or style value as the mirror spells it; None for lists, dicts
    and None (they are left out of the mirror)."""
    if value is None or isinstance(value, (list, dict)):
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}" if value != int(value) or abs(value) >= 1e15 else str(int(value))
    return XML_BAD.sub("", str(value))
