"""How much of a picture a node's ``crop`` attribute cuts away, whichever source wrote it.
Read by the checks that judge pictures and by the .docx layout, which boxes a cropped
picture by its visible part."""

from __future__ import annotations

from typing import Any

from .blobs import Blob, check_image_budget, describe_image

_EDGE_NAMES = {
    "left": ("left", "l", "offsetLeft", "leftOffset"),
    "top": ("top", "t", "offsetTop", "topOffset"),
    "right": ("right", "r", "offsetRight", "rightOffset"),
    "bottom": ("bottom", "b", "offsetBottom", "bottomOffset"),
}


def crop_fractions(attrs: dict[str, Any]) -> dict[str, float]:
    """The crop recorded on an image node as fractions per edge (left, top, right, bottom),
    whichever source spelled it: OOXML ``l/t/r/b``, Word ``left/...``, Google Docs
    ``offsetLeft/...``, Google Slides ``leftOffset/...``. Negative values (padding) count
    as 0. Empty dict when not cropped.

    >>> crop_fractions({"crop": {"l": 0.25, "r": 0.25, "t": -0.1}})
    {'left': 0.25, 'right': 0.25}
    """
    raw = attrs.get("crop")
    if not isinstance(raw, dict):
        return {}
    out: dict[str, float] = {}
    for edge, keys in _EDGE_NAMES.items():
        for key in keys:
            value = raw.get(key)
            if isinstance(value, (int, float)) and value > 0:
                out[edge] = float(value)
                break
    return out


def crop_image_bytes(data: bytes, fractions: dict[str, float], *, what: str = "image") -> bytes | None:
    """The part of a raster image a crop keeps (``crop_fractions``' edges), as PNG bytes
    (lossless and deterministic, so one crop is one blob); None when the crop keeps
    nothing. What a page shows of a cropped picture, for the checks that compare pixels:
    the file stores the whole original. Checks the pixel budget before decoding; raises
    ArtifactTooLarge, or Pillow's own errors for undecodable bytes."""
    import io
    import warnings

    from PIL import Image

    with warnings.catch_warnings():
        warnings.simplefilter("error", Image.DecompressionBombWarning)
        with Image.open(io.BytesIO(data)) as img:
            w, h = img.size
            check_image_budget(img.size, what=what)
            left = round(fractions.get("left", 0.0) * w)
            top = round(fractions.get("top", 0.0) * h)
            right = w - round(fractions.get("right", 0.0) * w)
            bottom = h - round(fractions.get("bottom", 0.0) * h)
            if right <= left or bottom <= top:
                return None
            out = io.BytesIO()
            img.crop((left, top, right, bottom)).save(out, format="PNG", optimize=False)
    return out.getvalue()


def cropped_blob(
    original: Blob | None, fractions: dict[str, float], blobs: dict[str, Blob], warnings: list[str], *, what: str
) -> Blob | None:
    """The blob of the part ``fractions`` keep of ``original`` (:func:`crop_image_bytes`,
    named after the original, added to ``blobs``), as the .docx and .pptx extractors give
    a cropped picture. None when there is nothing to crop (no data, vector or
    undecodable) or the crop keeps nothing; a decoder failure is a warning naming
    ``what``, not a crash."""
    if original is None or original.data is None or original.decode_error:
        return None
    try:
        data = crop_image_bytes(original.data, fractions, what=what)
    except Exception as exc:  # noqa: BLE001 - a decoder failure is a warning, not a crash
        warnings.append(f"{what} could not be cropped: {type(exc).__name__}: {exc}")
        return None
    if data is None:
        return None
    stem = (original.name or "picture").rsplit(".", 1)[0]
    blob = describe_image(data, mime="image/png", name=f"{stem}-cropped.png")
    blobs.setdefault(blob.sha256, blob)
    return blob
