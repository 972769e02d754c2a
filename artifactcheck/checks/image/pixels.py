"""Pixel masks for the checks that look at what a picture shows (``image_ink_extent``,
``image_color_blob``): which pixels are drawn (not fully transparent), dark, or of a
colour, and where a mask lies.

Coordinates are **pixels of the stored image**, origin top-left, y down. A box is
``(x0, top, x1, bottom)`` with ``x1``/``bottom`` exclusive (one past the last pixel), so
its width is ``x1 - x0`` and a one-pixel blob at column 3 spans ``[3, 4)``. A centroid is
the mean of the pixel *centres* (``col + 0.5``), so a symmetric shape in the middle of a
``w`` x ``h`` picture has its centroid exactly at ``(w / 2, h / 2)``.

Fully transparent pixels (alpha 0) are never ink nor colour: an editor's transparent
canvas usually stores them as ``(0, 0, 0, 0)``, which would otherwise read as black.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...errors import CorruptArtifact
from ...model import Blob
from ...model.blobs import decode_image

if TYPE_CHECKING:
    import numpy.typing as npt

    Array = npt.NDArray[Any]

# numpy, Pillow and scikit-image are imported by the functions that use them: this module
# is imported when the image checks register (design/startup.md).

Box = tuple[int, int, int, int]


def decode_rgba(data: bytes, what: str) -> Array:
    """The picture as an ``h x w x 4`` uint8 array (within the ``image_pixels`` budget).

    Raises CorruptArtifact naming ``what`` when the bytes are not a raster image Pillow
    reads (EMF, SVG, truncated data): a check that cannot see the pixels is an ``error``,
    not a ``fail``.
    """
    import numpy as np
    from PIL import UnidentifiedImageError

    try:
        return np.asarray(decode_image(data, mode="RGBA", what=what))
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise CorruptArtifact(f"{what}: cannot decode the picture's pixels ({exc})") from exc


def blob_rgba(blob: Blob) -> Array:
    """``decode_rgba`` of a stored image; the blob's own decode error first, when known."""
    what = f"image {blob.name or blob.sha256[:12]}"
    if blob.decode_error:
        raise CorruptArtifact(f"{what}: cannot decode the picture's pixels ({blob.decode_error})")
    assert blob.data is not None
    return decode_rgba(blob.data, what)


def drawn(rgba: Array) -> Array:
    """True where a pixel is not fully transparent."""
    mask: Array = rgba[:, :, 3] > 0
    return mask


def luma(rgba: Array) -> Array:
    """Pillow's ``L`` of each pixel (ITU-R 601-2: ``(299 R + 587 G + 114 B) / 1000``,
    rounded), 0-255, alpha ignored — the grey OSWorld's evaluators threshold."""
    import numpy as np
    from PIL import Image

    rgb = np.ascontiguousarray(rgba[:, :, :3])
    out: Array = np.asarray(Image.fromarray(rgb, mode="RGB").convert("L"))
    return out


def color_distance(pixels: Array, hex_color: str) -> Array:
    """CIEDE2000 distance of every pixel's RGB from ``#rrggbb``: ``pixels`` is any array
    whose last axis holds R, G, B (and maybe alpha) — a picture (``h x w x 4``, giving
    ``h x w`` floats) or a list of pixels (``n x 3``, giving ``n``).

    Computed once per distinct colour (scikit-image), then spread back: a drawing has a
    few hundred colours, so a 1920 x 1080 one costs 0.06-0.16 s instead of 1.3-1.5 s per
    pixel; noise with a colour per pixel costs ~1.2x the per-pixel pass (the extra sort).
    Measured by ``bench/color_mask.py`` on a loaded machine (design/images.md).
    """
    import numpy as np
    from skimage.color import deltaE_ciede2000, rgb2lab

    rgb = pixels[..., :3].reshape(-1, 3).astype(np.uint32)
    packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    colours, inverse = np.unique(packed, return_inverse=True)
    unique_rgb = np.stack([(colours >> 16) & 255, (colours >> 8) & 255, colours & 255], axis=1)
    lab = rgb2lab(unique_rgb.reshape(-1, 1, 3).astype(np.float64) / 255.0).reshape(-1, 3)
    ref = np.array([int(hex_color[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64).reshape(1, 1, 3) / 255.0
    ref_lab = rgb2lab(ref).reshape(1, 3)
    distance = deltaE_ciede2000(lab, np.broadcast_to(ref_lab, lab.shape))  # type: ignore[no-untyped-call]
    out: Array = np.asarray(distance)[inverse.reshape(-1)].reshape(pixels.shape[:-1])
    return out


def border_band(width: int, height: int, band: float) -> int:
    """Pixels of the border band for a picture of ``width`` x ``height``: ``band`` of the
    shorter side, at least 1 and at most half of it.

    >>> border_band(800, 600, 0.05), border_band(10, 4, 0.05), border_band(3, 3, 0.5)
    (30, 1, 1)
    """
    side = min(width, height)
    return max(1, min(side // 2, round(side * band)))


def border_mask(rgba: Array, band: float) -> tuple[Array, int]:
    """True for the drawn pixels within the border band (``band`` of the shorter side
    from each edge: where a picture's background shows), and the band's width in pixels."""
    h, w = rgba.shape[:2]
    k = border_band(w, h, band)
    mask = drawn(rgba).copy()
    mask[k:-k, k:-k] = False
    return mask, k


def common_colors(rgba: Array, mask: Array, n: int) -> list[tuple[str, int]]:
    """The ``n`` most common exact colours (``#rrggbb``, pixel count) among ``mask``'s
    pixels, most common first; ties in the order of the colour value."""
    import numpy as np

    rgb = rgba[mask][:, :3].astype(np.uint32)
    if len(rgb) == 0:
        return []
    packed = (rgb[:, 0] << 16) | (rgb[:, 1] << 8) | rgb[:, 2]
    colours, counts = np.unique(packed, return_counts=True)
    order = np.argsort(-counts, kind="stable")[:n]
    return [(f"#{int(colours[i]):06x}", int(counts[i])) for i in order]


def mask_box(mask: Array) -> Box | None:
    """The bounding box of a boolean mask's True pixels, or None when it has none."""
    import numpy as np

    cols = np.flatnonzero(mask.any(axis=0))
    if len(cols) == 0:
        return None
    rows = np.flatnonzero(mask.any(axis=1))
    return (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1)


def box_evidence(box: Box, width: int, height: int) -> dict[str, Any]:
    """A pixel box as evidence: in pixels and as fractions of the picture's sides.

    >>> box_evidence((10, 0, 30, 50), 200, 100)
    {'px': [10, 0, 30, 50], 'fraction': {'x0': 0.05, 'top': 0.0, 'x1': 0.15, 'bottom': 0.5}}
    """
    x0, top, x1, bottom = box
    return {
        "px": [x0, top, x1, bottom],
        "fraction": {"x0": round(x0 / width, 4), "top": round(top / height, 4), "x1": round(x1 / width, 4), "bottom": round(bottom / height, 4)},
    }
