"""The normalized document tree: Document, Node, Box, Style, Blob. No I/O here."""

from .blobs import Blob, describe_image
from .document import SCHEMA_VERSION, ArtifactInfo, Document, Page, ToolInfo
from .geometry import Box, BoxOrigin, Point, union_all
from .node import NODE_KINDS, Node, NodeKind
from .style import Style

__all__ = [
    "NODE_KINDS",
    "SCHEMA_VERSION",
    "ArtifactInfo",
    "Blob",
    "Box",
    "BoxOrigin",
    "Document",
    "Node",
    "NodeKind",
    "Page",
    "Point",
    "Style",
    "ToolInfo",
    "describe_image",
    "union_all",
]
