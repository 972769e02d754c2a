"""How different two pictures' colours are: CIEDE2000 between small box-averaged
thumbnails (design/checks-geometry.md, "Image identity"). Shared by ``identity``
(image_matches) and ``locate`` (image_crop_of); numpy, Pillow and scikit-image are
imported when a colour is compared."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

COLOR_SIDE = 16
"""Long side (px) of the thumbnails whose colours are compared: box-averaged this small,
recompression noise is gone (fine detail is SSIM's job) while a recoloured part remains."""
COLOR_PERCENTILE = 99
"""The colour difference is this percentile of the per-pixel CIEDE2000 of the thumbnails:
a recoloured part covering a few percent of the picture still counts."""


def size_at(aspect_of: tuple[int, int], side: int) -> tuple[int, int]:
    """A (width, height) of ``side`` px on the long side with ``aspect_of``'s aspect."""
    w, h = aspect_of
    if w >= h:
        return side, max(7, round(side * h / w))
    return max(7, round(side * w / h)), side


def _lab(img: Image.Image, size: tuple[int, int]) -> np.ndarray:
    import numpy as np
    from PIL import Image
    from skimage.color import rgb2lab

    rgb = np.asarray(img.resize(size, Image.Resampling.BOX), dtype=np.float64) / 255.0
    lab: np.ndarray = rgb2lab(rgb)
    return lab


def color_difference(reference: Image.Image, candidate: Image.Image) -> float:
    """The ``COLOR_PERCENTILE`` of the per-pixel CIEDE2000 between ``COLOR_SIDE`` px
    thumbnails of two RGB pictures, at the reference's aspect (see ``color_delta``)."""
    import numpy as np
    from skimage.color import deltaE_ciede2000

    thumb = size_at(reference.size, COLOR_SIDE)
    delta = deltaE_ciede2000(_lab(reference, thumb), _lab(candidate, thumb))  # type: ignore[no-untyped-call]
    return float(np.percentile(delta, COLOR_PERCENTILE))
