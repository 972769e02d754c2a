"""Typed errors. Every failure caused by the artifact or the environment is an
``ArtifactCheckError`` subclass whose message names the file and the value at fault.

Checks never raise these for a wrong artifact; they return ``status="error"`` or
``"fail"``. Loading does raise them: a document that cannot be read is not a document.
"""

from __future__ import annotations

from pathlib import Path


class ArtifactCheckError(Exception):
    """Root of every error this package raises on purpose."""

    def __init__(self, message: str, *, path: str | Path | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.message = message
        super().__init__(f"{self.path}: {message}" if self.path else message)

    def naming(self, path: str | Path | None) -> ArtifactCheckError:
        """This error, naming ``path`` when it names no file yet (raised deep inside an
        extractor that does not know the file); the same error otherwise."""
        if self.path is not None or path is None or type(self).__init__ is not ArtifactCheckError.__init__:
            return self
        return type(self)(self.message, path=path)


class UnsupportedFormat(ArtifactCheckError):
    """The bytes are not a format we read (legacy binary Office, PDF, Strict OOXML, ...)."""


class CorruptArtifact(ArtifactCheckError):
    """The file claims a supported format but its container or XML is broken."""


class EncryptedArtifact(CorruptArtifact):
    """A password-protected OOXML file (a CFB container holding EncryptedPackage)."""


class ArtifactTooLarge(CorruptArtifact):
    """A declared size, dimension or decompression ratio exceeds our safety limits."""


class RenderError(ArtifactCheckError):
    """The renderer ran but produced no usable output."""


class RenderTimeout(RenderError):
    """The renderer did not finish in time; its whole process group was killed."""


class RendererBusy(RenderError):
    """Every warm renderer stayed busy past the acquisition deadline (the pool is full;
    try again later). The warm pool raises it instead of starting more LibreOffice."""


class GoogleAPIError(ArtifactCheckError):
    """A Google API call failed (credentials, permissions, missing file, quota)."""


class MissingDependency(ArtifactCheckError):
    """An optional external tool or package is absent; the message carries the install hint."""

    def __init__(self, what: str, *, hint: str) -> None:
        self.what = what
        self.hint = hint
        super().__init__(f"{what} is not available; install it with: {hint}")


class SchedulerUnreachable(ArtifactCheckError):
    """``batch --scheduler``: no Dask scheduler answered at the address in time."""


class SelectorError(ArtifactCheckError):
    """A ``Document.select`` selector could not be parsed."""


class UsageError(ArtifactCheckError):
    """A command-line argument cannot be used as given (an output file that is a
    directory, an output folder that is a file, a parent folder that does not exist)."""


class RubricError(ArtifactCheckError):
    """A rubric (file or built in code) is invalid; ``line`` is 1-based when known."""

    def __init__(self, message: str, *, path: str | Path | None = None, line: int | None = None) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}" if line else message, path=path)


__all__ = [
    "ArtifactCheckError",
    "ArtifactTooLarge",
    "CorruptArtifact",
    "EncryptedArtifact",
    "GoogleAPIError",
    "MissingDependency",
    "RenderError",
    "RenderTimeout",
    "RendererBusy",
    "RubricError",
    "SchedulerUnreachable",
    "SelectorError",
    "UnsupportedFormat",
    "UsageError",
]
