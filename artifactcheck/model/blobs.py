"""Image bytes kept once, keyed by sha256, with pixel size and perceptual hashes so that
image checks never re-read the artifact.

At load only the picture's header is read (size, format, the pixel budget). Its pixels
are decoded on the first read of ``decode_error`` (extractors that warn about an
undecodable picture read it at load) and hashed on the first read of a hash, once, then
kept on the blob: imagehash imports scipy.fft and PyWavelets (~0.2 s of CPU) and decoding
a 1280x720 PNG costs ~10 ms, which a rubric with no image check never needs
(design/startup.md). Serialising a blob computes both first, so the JSON tree is the same
whether a check read them or not."""

from __future__ import annotations

import hashlib
import io
import re
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


def flatten_on_white(img: Any) -> Any:
    """A PIL image as RGB with its transparency composited on white: how a page shows a
    transparent picture. ``convert("RGB")`` drops alpha and keeps the stored colour of
    transparent pixels, which is often black (RGBA (0, 0, 0, 0)): a logo on a white slide
    would hash, and be compared, as a logo on black. Images without transparency (no
    alpha band, no ``transparency`` entry) are converted as they stand. The PDF side
    reads images as stored, without their soft mask (design/checks-geometry.md, "Images")."""
    from PIL import Image

    if _transparent(img):
        rgba = img.convert("RGBA")
        canvas = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        canvas.alpha_composite(rgba)
        return canvas.convert("RGB")
    return img.convert("RGB")


def decode_drawn(data: bytes, *, what: str = "image") -> Any:
    """Decode image bytes to RGB as a page draws them (transparency on white), after
    the pixel budget check of :func:`decode_image`. Raises as it does."""
    return flatten_on_white(decode_image(data, mode="RGBA", what=what))


HashName = Literal["phash", "dhash", "whash"]
HASH_NAMES: tuple[HashName, ...] = ("phash", "dhash", "whash")


class Blob(BaseModel):
    """One stored image (or other binary part). ``data`` is not serialised to JSON; the
    CLI writes it to ``--assets`` and snapshot bundles carry it as a file.

    ``phash``/``dhash``/``whash`` are imagehash hex strings (64-bit). When the bytes
    cannot be decoded as a raster image (EMF, WMF, SVG, a corrupt or oversized image),
    the hashes are None and ``decode_error`` says why."""

    # (Not in the docstring, which is the schema's description: for a blob made by
    # ``describe_image``, ``decode_error`` and the hashes are computed from ``data`` on
    # first read, of the field or of the serialised blob, and then kept like any field.)
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
    # What is still to be learnt from ``data`` (pydantic private state, so copies and
    # pickles carry it with ``data`` and compute too): "decode" — only the header was
    # read; "hash" — the pixels decoded, the hashes are not computed yet; None — settled.
    _pending: Literal["decode", "hash"] | None = PrivateAttr(default=None)

    def compute_hashes(self) -> None:
        """Fill phash/dhash/whash (and ``decode_error`` if the pixels do not decode) now,
        when still to be computed. Idempotent; threads racing compute the same values, and
        the pending state drops only once they are set."""
        if self._pending is not None:
            self._settle(hash_too=True)

    def _settle(self, *, hash_too: bool) -> None:
        if self.data is None:  # the bytes were dropped: nothing more can be learnt
            self._pending = None
            return
        try:
            hashes = _decode_and_hash(self.data, hash_too=hash_too)
        except Exception as exc:  # noqa: BLE001 - as at load: a decoder failure is recorded, not raised
            self.decode_error = decoder_failure(exc)
            self._pending = None
            return
        if hashes is None:
            self._pending = "hash"
            return
        self.phash, self.dhash, self.whash = hashes
        self._pending = None

    # Unannotated on purpose: a return annotation would replace the blob's JSON schema
    # (document.schema.json) by that of the annotation; without one, pydantic keeps the
    # fields' schema and this only runs first.
    @model_serializer(mode="wrap")
    def _serialise_settled(self, handler: SerializerFunctionWrapHandler):  # type: ignore[no-untyped-def]
        self.compute_hashes()
        return handler(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Blob):  # a blob equals itself before and after it is settled
            self.compute_hashes()
            other.compute_hashes()
        return super().__eq__(other)


class _Deferred:
    """Data descriptor for a field known only once the pixels are decoded (``decode_error``)
    or hashed (the three hashes): the stored value, computed first while the blob is
    pending. Pydantic keeps field values in the instance ``__dict__`` and assigns them
    there directly; a data descriptor on the class is read before that dict, so
    ``blob.phash`` is right for every reader without each one asking for it."""

    def __init__(self, name: str, *, needs_hash: bool) -> None:
        self.name = name
        self.needs_hash = needs_hash

    def __get__(self, blob: Blob | None, owner: type[Blob] | None = None) -> Any:
        if blob is None:
            return self
        pending = blob._pending
        if pending == "decode" or (pending == "hash" and self.needs_hash):
            blob._settle(hash_too=self.needs_hash)
        return blob.__dict__[self.name]

    def __set__(self, blob: Blob, value: str | None) -> None:
        blob.__dict__[self.name] = value  # pydantic's own assignment path does the same


for _name in HASH_NAMES:
    setattr(Blob, _name, _Deferred(_name, needs_hash=True))
Blob.decode_error = _Deferred("decode_error", needs_hash=False)  # type: ignore[assignment]


def _decode_and_hash(data: bytes, *, hash_too: bool) -> tuple[str, str, str] | None:
    """Decode bytes whose header ``describe_image`` accepted, as the hashes see them (a
    JPEG at reduced size, a very large picture reduced, transparency composited on white):
    (phash, dhash, whash), or None when only the decoding was asked for. Raises what the
    decoder raises."""
    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        Image.MAX_IMAGE_PIXELS = MAX_IMAGE_PIXELS
        with Image.open(io.BytesIO(data)) as img:
            _reduce_for_hashing(img)
            rgb = flatten_on_white(img)  # hashed as drawn: transparency on white
    if not hash_too:
        return None
    import imagehash

    return str(imagehash.phash(rgb)), str(imagehash.dhash(rgb)), str(imagehash.whash(rgb))


def _reduce_for_hashing(img: Any) -> None:
    """Decode an opened image only as large as the hashes need (they use <= 64 px): a
    JPEG at reduced size, a very large picture decoded once and then shrunk."""
    img.draft("RGB", (512, 512))
    if img.size[0] * img.size[1] > FULL_HASH_PIXELS:
        img.thumbnail((_HASH_SIDE_PX, _HASH_SIDE_PX))


def _transparent(img: Any) -> bool:
    return img.mode in ("RGBA", "RGBa", "LA", "La", "PA") or "transparency" in img.info


def phash_as_stored(blob: Blob) -> str | None:
    """The phash of a picture's pixels as stored, alpha dropped: how ``read_layout``
    hashes a PDF's image objects (pdfium's bitmap leaves the soft mask out), so the one
    to match a picture with its placement in a PDF by. The blob's own ``phash`` (as drawn,
    transparency on white) when the image has no transparency, which the header tells
    without decoding the pixels; None when it has no phash."""
    from PIL import Image

    if blob.phash is None or blob.data is None:
        return blob.phash
    try:
        with Image.open(io.BytesIO(blob.data)) as img:
            if not _transparent(img):
                return blob.phash
            _reduce_for_hashing(img)
            rgb = img.convert("RGB")
    except Exception:  # noqa: BLE001 - it decoded for its phash; a second failure: keep that
        return blob.phash
    import imagehash

    return str(imagehash.phash(rgb))


def describe_image(data: bytes, *, mime: str, name: str | None = None) -> Blob:
    """Measure image bytes from their header; the pixels are decoded, and hashed, on the
    first read of ``decode_error`` or of a hash (or when the blob is serialised). Never
    raises for bad image data: the failure is recorded in ``decode_error``."""
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
                img.draft("RGB", (512, 512))  # as _decode_and_hash: the budget sees the drafted size
                # The budget is the one in force at load (a later read may run under another).
                check_image_budget(img.size, what=f"image {name or sha[:12]}")
                blob._pending = "decode"
    except ArtifactTooLarge as exc:
        # One oversized picture does not make the document unreadable: it is kept (with
        # its size) but not hashed, and image checks report that they cannot judge it.
        blob.decode_error = f"ArtifactTooLarge: {exc}"
    except Exception as exc:  # noqa: BLE001 - any decoder failure is recorded, not raised
        blob.decode_error = decoder_failure(exc)
    return blob


_OBJECT_REPR = re.compile(r"<[^<>]*? at 0x[0-9a-fA-F]+>")


def decoder_failure(exc: BaseException) -> str:
    """A decoder failure as recorded: the same bytes give the same text on every run.
    Pillow names the stream it read (``cannot identify image file <_io.BytesIO object at
    0x7f...>``); that address changes per process and would make reports and golden files
    unstable.

    >>> decoder_failure(OSError("cannot identify image file <_io.BytesIO object at 0x7f3a2c>"))
    'OSError: cannot identify image file (the image bytes)'
    """
    return f"{type(exc).__name__}: {_OBJECT_REPR.sub('(the image bytes)', str(exc))}"
