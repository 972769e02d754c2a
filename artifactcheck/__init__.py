"""artifactcheck: turn an agent-produced document, spreadsheet or slide deck into one
normalized tree with rendered boxes, and score it with honest, explained checks."""

from .checks.registry import Resources, run_check
from .checks.result import CheckResult
from .errors import (
    ArtifactCheckError,
    ArtifactTooLarge,
    CorruptArtifact,
    EncryptedArtifact,
    GoogleAPIError,
    MissingDependency,
    RendererBusy,
    RenderError,
    RenderTimeout,
    RubricError,
    SelectorError,
    UnsupportedFormat,
)
from .loading import load
from .model import SCHEMA_VERSION, Blob, Box, Document, Node, Page, Style
from .rubric import score
from .version import __version__

__all__ = [
    "SCHEMA_VERSION",
    "ArtifactCheckError",
    "ArtifactTooLarge",
    "Blob",
    "Box",
    "CheckResult",
    "CorruptArtifact",
    "Document",
    "EncryptedArtifact",
    "GoogleAPIError",
    "MissingDependency",
    "Node",
    "Page",
    "RenderError",
    "RenderTimeout",
    "RendererBusy",
    "Resources",
    "RubricError",
    "SelectorError",
    "Style",
    "UnsupportedFormat",
    "__version__",
    "load",
    "run_check",
    "score",
]
