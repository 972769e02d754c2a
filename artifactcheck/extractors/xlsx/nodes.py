"""Fast constructors for the many small models a big sheet needs (one Node and one Box
per cell): shared with the other extractors, so they live in ``tree_builder.py``."""

from __future__ import annotations

from ..tree_builder import make_box, make_node

__all__ = ["make_box", "make_node"]
