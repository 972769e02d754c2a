"""Image parts of a .pptx as blobs: the original bytes and, for cropped pictures, the
cropped image's bytes (what the slide shows).

``a:srcRect`` gives the crop as fractions of the image in 1000ths of a percent per edge
(l, t, r, b); negative values pad instead of crop, and only the positive part is cut
here. Cropped bytes are re-encoded as PNG (lossless, deterministic). Vector images (EMF,
WMF, SVG) are stored uncropped; their attrs still carry the crop.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...errors import ArtifactCheckError
from ...model import Blob, describe_image
from ...model.crop import cropped_blob
from .package import PptxPackage


@dataclass(frozen=True)
class Crop:
    """Crop fractions of the source image per edge (0.1 = 10% cut off)."""

    l: float = 0.0
    t: float = 0.0
    r: float = 0.0
    b: float = 0.0

    @property
    def is_empty(self) -> bool:
        return self.l <= 0 and self.t <= 0 and self.r <= 0 and self.b <= 0

    def as_attrs(self) -> dict[str, float]:
        return {"l": self.l, "t": self.t, "r": self.r, "b": self.b}


class MediaStore:
    """Blobs of one package, each part decoded at most once (and each crop once)."""

    def __init__(self, pkg: PptxPackage, blobs: dict[str, Blob], warnings_out: list[str]) -> None:
        self.pkg = pkg
        self.blobs = blobs
        self.warnings = warnings_out
        self._by_part: dict[str, Blob | None] = {}
        self._crops: dict[tuple[str, Crop], Blob | None] = {}

    def original(self, part: str) -> Blob | None:
        if part in self._by_part:
            return self._by_part[part]
        blob: Blob | None = None
        try:
            data = self.pkg.read(part)
        except ArtifactCheckError as exc:
            self.warnings.append(f"image part {part} could not be read: {exc}")
        else:
            mime = self.pkg.content_type(part) or "application/octet-stream"
            blob = describe_image(data, mime=mime, name=part.rsplit("/", 1)[-1])
            self.blobs.setdefault(blob.sha256, blob)
        self._by_part[part] = blob
        return blob

    def cropped(self, part: str, crop: Crop) -> Blob | None:
        """The cropped image's blob; None when it cannot be cropped (vector, undecodable)
        or the crop removes everything."""
        key = (part, crop)
        if key in self._crops:
            return self._crops[key]
        self._crops[key] = result = self._crop(part, crop)
        return result

    def _crop(self, part: str, crop: Crop) -> Blob | None:
        fractions = {"left": max(0.0, crop.l), "top": max(0.0, crop.t), "right": max(0.0, crop.r), "bottom": max(0.0, crop.b)}
        return cropped_blob(self.original(part), fractions, self.blobs, self.warnings, what=f"image part {part}")
