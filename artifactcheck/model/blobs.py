"""Image bytes kept once, keyed by sha256, with pixel size and perceptual hashes so that
image checks never re-read the artifact. Hashes are computed here, once, at load."""

from __future__ import annotations

import hashlib
import io
import warnings
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..errors import ArtifactTooLarge
from ..limits import current_limits

# Pillow refuses images above this many pixels (a decompression bomb guard). 2x the
# Pillow default: large scans are legitimate, 1-gigapixel "images" are not. Our own,
# lower budget (``image_pixels`` in artifactcheck.limits) is checked before decoding.
MAX_IMAGE_PIXELS = 178_956_970
# Above this many pixels an image is hashed from a reduced copy: the hashes look at
# 8-64 px anyway, and three full-size conversions of a 144 Mpx image cost 3 GB.
FULL_HASH_PIXELS = 16_000_000
_HASH_SIDE_PX = 2048


def check_image_budget(size: tuple[int, int], *, what: str = "image") -> None:
    """ArtifactTooLarge when an image of ``size`` (width, height in pixels, read from
    its header) exceeds the ``image_pixels`` budget: call before decoding it."""
    width, height = size
    limit = current_limits().image_pixels
    if width * height > limit:
        raise ArtifactTooLarge(
            f"{what} is {width}x{height} = {width * height / 1e6:.1f} Mpx "
            f"(limit {limit / 1e6:.1f} Mpx; {current_limits().describe('image_pixels')})"
        )


def decode_image(data: bytes, *, mode: str = "RGB", what: str = "image") -> Any:
    """Decode image bytes to a PIL image in ``mode``, after checking the pixel budget
    against the header (a 12000x12000 PNG fits in 8 KB). Raises ArtifactTooLarge, or
    Pillow's own errors for undecodable bytes."""
    from PIL import Image

    with Image.open(io.BytesIO(data)) as img:
        check_image_budget(img.size, what=what)
        return img.convert(mode)


class Blob(BaseModel):
    """One stored image (or other binary part). ``data`` is not serialised to JSON; the
    CLI writes it to ``--assets`` and snapshot bundles carry it as a file.

    ``phash``/``dhash``/``whash`` are imagehash hex strings (64-bit). When the bytes
    cannot be decoded as a raster image (EMF, WMF, SVG, a corrupt or oversized image),
    the hashes are None and ``decode_error`` says why."""

    model_config = ConfigDict(extra="forbid")

    sha256: str
    mime: str
    size_bytes: int
    name: str | None = None
    width_px: int | None = None
    height_px: int | None = None
    phash: str | None = None
    dhash: str | None = None
    whash: str | None = None
    decode_error: str | None = None
    data: bytes | None = Field(default=None, exclude=True, repr=False)


def describe_image(data: bytes, *, mime: str, name: str | None = None) -> Blob:
    """Hash and measure image bytes. Never raises for bad image data: the failure is
    recorded in ``decode_error``."""
    import imagehash
    from PIL import Image

    sha = hashlib.sha256(data).hexdigest()
    blob = Blob(sha256=sha, mime=mime, size_bytes=len(data), name=name, data=data)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
            with Image.open(io.BytesIO(data)) as img:
                blob.width_px, blob.height_px = img.size
                if img.size[0] * img.size[1] > MAX_IMAGE_PIXELS:
                    raise ValueError(f"{img.size[0]}x{img.size[1]} pixels exceeds the limit")
                if img.format in {"WMF", "EMF"}:
                    blob.decode_error = f"{img.format} is a vector format; not hashed"
                    return blob
                img.draft("RGB", (512, 512))  # JPEG: decode at reduced size, hashes use <= 64 px
                check_image_budget(img.size, what=f"image {name or sha[:12]}")
                if img.size[0] * img.size[1] > FULL_HASH_PIXELS:
                    img.thumbnail((_HASH_SIDE_PX, _HASH_SIDE_PX))  # decode once, then hash small
                rgb = img.convert("RGB")
                blob.phash = str(imagehash.phash(rgb))
                blob.dhash = str(imagehash.dhash(rgb))
                blob.whash = str(imagehash.whash(rgb))
    except ArtifactTooLarge as exc:
        # One oversized picture does not make the document unreadable: it is kept (with
        # its size) but not hashed, and image checks report that they cannot judge it.
        blob.decode_error = f"ArtifactTooLarge: {exc}"
    except Exception as exc:  # noqa: BLE001 - any decoder failure is recorded, not raised
        blob.decode_error = f"{type(exc).__name__}: {exc}"
    return blob
