"""The safe OOXML package reader: zip limits, encryption and legacy formats told apart,
the main part found by content (``inspection.py``), XML parsed with entities and network
off (``xml.py``), and ``.rels`` relationships (``relationships.py``)."""

from .inspection import PackageInfo, inspect_package

__all__ = ["PackageInfo", "inspect_package"]
