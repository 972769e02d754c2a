"""Image bytes kept once, keyed by sha256, with pixel size and perceptual hashes so that
image checks never re-read the artifact.

The picture is decoded at load (so an undecodable one is reported then, as a warning of
the load), but its perceptual hashes are computed on first read, once, and cached on the
blob: imagehash imports scipy.fft and PyWavelets (~0.2 s of CPU), which a rubric with
no image check never needs (design/startup.md). Serialising a blob computes them first,
so the JSON tree is the same whether a check read them or not."""

from __future__ import annotations

import hashlib
import io
import warnings
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SerializerFunctionWrapHandler,
    model_serializer,
)

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


HashName = Literal["phash", "dhash", "whash"]
HASH_NAMES: tuple[HashName, ...] = ("phash", "dhash", "whash")


class Blob(BaseModel):
    """One stored image (or other binary part). ``data`` is not serialised to JSON; the
    CLI writes it to ``--assets`` and snapshot bundles carry it as a file.

    ``phash``/``dhash``/``whash`` are imagehash hex strings (64-bit). When the bytes
    cannot be decoded as a raster image (EMF, WMF, SVG, a corrupt or oversized image),
    the hashes are None and ``decode_error`` says why."""

    # (Not in the docstring, which is the schema's description: for a blob made by
    # ``describe_image`` the hashes are computed from ``data`` on first read, of any of
    # the three or of the serialised blob, and then kept like any field.)
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
    # True while ``data`` decoded at load but its hashes are not computed yet. Copies
    # and pickles carry it (pydantic private state) with ``data``, so they compute too.
    _hashes_pending: bool = PrivateAttr(default=False)

    def compute_hashes(self) -> None:
        """Fill phash/dhash/whash now if they are still to be computed (idempotent; two
        threads racing compute the same bits, and the flag drops only once they are set)."""
        if not self._hashes_pending:
            return
        if self.data is not None:
            try:
                hashes = _perceptual_hashes(self.data)
            except Exception as exc:  # noqa: BLE001 - as at load: a hasher failure is recorded, not raised
                self.decode_error = f"{type(exc).__name__}: {exc}"
            else:
                self.phash, self.dhash, self.whash = hashes
        self._hashes_pending = False

    # Unannotated on purpose: a return annotation would replace the blob's JSON schema
    # (document.schema.json) by that of the annotation; without one, pydantic keeps the
    # fields' schema and this only runs first.
    @model_serializer(mode="wrap")
    def _serialise_with_hashes(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        self.compute_hashes()
        return handler(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Blob):  # a blob equals itself before and after its hashes are read
            self.compute_hashes()
            other.compute_hashes()
        return super().__eq__(other)


class _LazyHash:
    """Data descriptor for one hash field: the stored value, computed first when the blob
    says it is pending. Pydantic keeps field values in the instance ``__dict__`` and
    assigns them there directly; a data descriptor on the class is read before that dict,
    so ``blob.phash`` is right for every reader without each one asking for it."""

    def __init__(self, name: HashName) -> None:
        self.name = name

    def __get__(self, blob: Blob | None, owner: type[Blob] | None = None) -> Any:
        if blob is None:
            return self
        if blob._hashes_pending:
            blob.compute_hashes()
        return blob.__dict__[self.name]

    def __set__(self, blob: Blob, value: str | None) -> None:
        blob.__dict__[self.name] = value  # pydantic's own assignment path does the same


for _name in HASH_NAMES:
    setattr(Blob, _name, _LazyHash(_name))


def _hash_source(img: Any) -> Any:
    """The RGB image the hashes are computed from, given the opened picture (after
    ``draft``): a reduced copy for very large pictures. One function for load and hashing,
    so the deferred hashes see exactly the pixels the eager ones did."""
    if img.size[0] * img.size[1] > FULL_HASH_PIXELS:
        img.thumbnail((_HASH_SIDE_PX, _HASH_SIDE_PX))  # decode once, then hash small
    return img.convert("RGB")


def _open_for_hashing(data: bytes) -> Any:
    from PIL import Image

    img = Image.open(io.BytesIO(data))
    img.draft("RGB", (512, 512))  # JPEG: decode at reduced size, hashes use <= 64 px
    return img


def _perceptual_hashes(data: bytes) -> tuple[str, str, str]:
    """(phash, dhash, whash) of bytes that ``describe_image`` decoded without error."""
    import imagehash
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
        with _open_for_hashing(data) as img:
            rgb = _hash_source(img)
    return str(imagehash.phash(rgb)), str(imagehash.dhash(rgb)), str(imagehash.whash(rgb))


def describe_image(data: bytes, *, mime: str, name: str | None = None) -> Blob:
    """Measure and decode image bytes; the hashes follow on first read. Never raises for
    bad image data: the failure is recorded in ``decode_error``."""
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
                img.draft("RGB", (512, 512))  # as _open_for_hashing
                check_image_budget(img.size, what=f"image {name or sha[:12]}")
                # Decoded now (the budget above holds at load time, and a broken picture
                # is reported by the load), hashed later from the same bytes.
                _hash_source(img)
                blob._hashes_pending = True
    except ArtifactTooLarge as exc:
        # One oversized picture does not make the document unreadable: it is kept (with
        # its size) but not hashed, and image checks report that they cannot judge it.
        blob.decode_error = f"ArtifactTooLarge: {exc}"
    except Exception as exc:  # noqa: BLE001 - any decoder failure is recorded, not raised
        blob.decode_error = f"{type(exc).__name__}: {exc}"
    return blob
