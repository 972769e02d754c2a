"""artifactcheck: turn an agent-produced document, spreadsheet or slide deck into one
normalized tree with rendered boxes, and score it with honest, explained checks."""

from typing import TYPE_CHECKING, Any

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
from .version import __version__

if TYPE_CHECKING:
    from .checks.registry import Resources, run_check
    from .checks.result import CheckResult
    from .loading import load
    from .model import SCHEMA_VERSION, Blob, Box, Document, Node, Page, Style
    from .rubric import score

# The rest of the public API is imported on first use (PEP 562): ``import artifactcheck``
# is what every ``artifactcheck`` command does first, and importing the model, the
# loaders and the check registry up front cost ~0.3 s before ``--help`` could answer
# (design/startup.md). ``from artifactcheck import load`` works as before.
_LAZY: dict[str, str] = {
    "Resources": "checks.registry",
    "run_check": "checks.registry",
    "CheckResult": "checks.result",
    "load": "loading",
    "SCHEMA_VERSION": "model",
    "Blob": "model",
    "Box": "model",
    "Document": "model",
    "Node": "model",
    "Page": "model",
    "Style": "model",
    "score": "rubric",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'artifactcheck' has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value  # once: later look-ups are plain module attributes
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


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
