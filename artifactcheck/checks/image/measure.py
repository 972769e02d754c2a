"""Pixel measurements the image-edit checks compare (pure functions over numpy arrays).

The definitions are the ones image-task evaluators use (OSWorld's GIMP metrics), stated
so a threshold means something:

- **brightness**: mean of the luma channel (ITU-R 601-2, Pillow's ``L``), 0-255;
- **contrast**: RMS contrast, the standard deviation of that luma, 0-~128;
- **saturation**: mean of the HSV saturation channel, 0-1;
- **sharpness**: variance of the Laplacian of the luma scaled to 0-1 (``skimage.filters.
  laplace``, at full size): blurring lowers it, sharpening raises it;
- **ssim**: structural similarity (scikit-image, Wang et al. 2004) of the RGB pixels,
  -1..1, 1 = identical; images of different sizes are not comparable (None);
- **structure**: SSIM of the two lumas each standardised to mean 0, std 1, so a change
  of brightness or contrast alone keeps structure ~1 while a different picture does not.

Images larger than ``MAX_SIDE_PX`` on their long side are compared at that size (both
resized alike, area-averaged): SSIM's 7x7 windows then still see the picture's
structure, and a 24-megapixel photo does not cost seconds per check.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...model.blobs import decode_image

if TYPE_CHECKING:
    import numpy.typing as npt
    from PIL import Image

    Array = npt.NDArray[Any]

# numpy and Pillow are imported by the functions that measure: this module is imported
# when the image checks register, long before (and mostly without) an image to measure.

__all__ = [
    "MAX_SIDE_PX",
    "PROPERTIES",
    "decode_rgb",
    "measure",
    "ssim",
    "structure",
    "transformed",
]

MAX_SIDE_PX = 1024
PROPERTIES = ("brightness", "contrast", "saturation", "sharpness")
TRANSFORMS = ("identity", "mirror_horizontal", "mirror_vertical", "rotate_90", "rotate_180", "rotate_270")


def decode_rgb(data: bytes, *, what: str = "image") -> Image.Image:
    """Image bytes as an RGB Pillow image, within the ``image_pixels`` budget."""

    image: Image.Image = decode_image(data, mode="RGB", what=what)
    return image


def _luma(image: Image.Image) -> Array:
    import numpy as np

    return np.asarray(image.convert("L"), dtype=np.float64)


def measure(image: Image.Image, prop: str) -> float:
    """One of ``PROPERTIES`` of an RGB image (units in the module docstring)."""
    import numpy as np

    if prop == "brightness":
        return float(_luma(image).mean())
    if prop == "contrast":
        return float(_luma(image).std())
    if prop == "saturation":
        return float(np.asarray(image.convert("HSV"), dtype=np.float64)[..., 1].mean() / 255.0)
    if prop == "sharpness":
        from skimage.filters import laplace

        laplacian: Any = laplace  # scikit-image is untyped
        return float(laplacian(_luma(image) / 255.0).var())
    raise ValueError(f"unknown image property {prop!r}; known: {', '.join(PROPERTIES)}")


def _shrunk(image: Image.Image, size: tuple[int, int] | None = None) -> Image.Image:
    from PIL import Image

    if size is not None:
        return image if image.size == size else image.resize(size, Image.Resampling.BOX)
    scale = MAX_SIDE_PX / max(image.size)
    if scale >= 1:
        return image
    return image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.Resampling.BOX)


def _pair(a: Image.Image, b: Image.Image) -> tuple[Image.Image, Image.Image] | None:
    if a.size != b.size or min(a.size) < 7:  # SSIM's window is 7x7
        return None
    a = _shrunk(a)
    return a, _shrunk(b, a.size)


def ssim(a: Image.Image, b: Image.Image) -> float | None:
    """SSIM of two RGB images of the same size; None when the sizes differ or an image
    is smaller than 7 px (no 7x7 window fits)."""
    import numpy as np

    pair = _pair(a, b)
    if pair is None:
        return None
    x, y = (np.asarray(im, dtype=np.float64) for im in pair)
    return float(_ssim_fn()(x, y, channel_axis=2, data_range=255.0))


def structure(a: Image.Image, b: Image.Image) -> float | None:
    """SSIM of the standardised lumas (brightness- and contrast-independent); None as
    for :func:`ssim`."""
    pair = _pair(a, b)
    if pair is None:
        return None
    x, y = (_standardised(_luma(im)) for im in pair)
    lo = float(min(x.min(), y.min()))
    hi = float(max(x.max(), y.max()))
    return float(_ssim_fn()(x, y, data_range=max(hi - lo, 1e-9)))


def _ssim_fn() -> Any:
    from skimage.metrics import structural_similarity  # untyped; imported on first use (~0.3 s)

    return structural_similarity


def _standardised(values: Array) -> Array:
    std = float(values.std())
    out: Array = (values - values.mean()) / (std if std > 1e-9 else 1.0)
    return out


def transformed(image: Image.Image, transform: str) -> Image.Image:
    """``image`` mirrored or rotated. Rotations are clockwise (the tree's convention for
    angles): ``rotate_90`` turns the top edge to the right."""
    from PIL import Image

    ops = {
        "identity": None,
        "mirror_horizontal": Image.Transpose.FLIP_LEFT_RIGHT,
        "mirror_vertical": Image.Transpose.FLIP_TOP_BOTTOM,
        "rotate_90": Image.Transpose.ROTATE_270,  # Pillow's ROTATE_n turn counter-clockwise
        "rotate_180": Image.Transpose.ROTATE_180,
        "rotate_270": Image.Transpose.ROTATE_90,
    }
    if transform not in ops:
        raise ValueError(f"unknown transform {transform!r}; known: {', '.join(ops)}")
    op = ops[transform]
    return image if op is None else image.transpose(op)
