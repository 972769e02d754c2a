"""Is a candidate picture the reference picture? Pixel-level confirmation after alignment.

A 64-bit perceptual hash keeps the layout of a picture and little else: a logo redrawn in
another colour with another wordmark kept its phash within 6 bits of the original
(issue 11). So ``image_matches`` decides identity from hash *consensus* (several hashes
agree) **and** a pixel comparison of the two pictures once aligned:

1. alignment: the candidate is compared with the whole reference resized to the
   reference's aspect (a resized, recompressed or stretched copy), and, when that is not
   already a near-perfect fit, with the region of the reference where normalised
   cross-correlation finds it (``locate.locate_crop``: a mildly cropped copy); the better
   of the two counts;
2. hashes of the aligned pair (phash, dhash, whash), for a consensus;
3. structure: SSIM (scikit-image ``structural_similarity``) of the luminance of both at
   up to ``WORK_SIDE`` px on the long side, its mean and its worst ``TILES`` x ``TILES``
   tile: robust to recompression and resampling, low where shapes or letters differ;
4. colour: the 99th percentile of the per-pixel CIEDE2000 difference (scikit-image
   ``deltaE_ciede2000``) between ``COLOR_SIDE`` px thumbnails: small under a
   colour-profile or gamma change, large when a logo is redrawn in another hue (which SSIM
   on luminance misses).

Pure code over PIL images: no Document, no I/O. Defaults were chosen from the ROC of
``bench/image_identity.py`` (design/checks-geometry.md, "Image identity").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...model.blobs import flatten_on_white
from .color_delta import color_difference, size_at
from .locate import locate_crop

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

# numpy, Pillow, imagehash (and scikit-image) are imported by the functions that compare
# pixels: the check registry imports this module whether or not a rubric matches images.

WORK_SIDE = 128
"""Long side (px) both pictures are resampled to before SSIM (less when either picture
is smaller: detail one of them does not have is not compared)."""
TILES = 8
"""SSIM is also averaged per tile of a TILES x TILES grid; the worst tile catches a
replaced part (another wordmark, one letter, a swapped photo) that the whole-picture mean
dilutes (4 x 4 tiles let a one-letter change through: worst tile 0.62)."""
LOW_SIDE = 256
LOW_PERCENTILE = 1.0
"""``ssim_low`` is this percentile of the local SSIM map at up to ``LOW_SIDE`` px: a
screenshot whose figures changed keeps every tile's mean near 0.75 (the digits are a
small part of each) while the windows on the changed digits fall far below (at 128 px
the digits are a blur: 0.56, as high as a recompressed photo's); recompression and
resizing leave most windows high (bench/image_identity.py, design/checks-geometry.md).
A whole figure changes it; one changed line of figures (under 1% of the picture) does
not."""
ALIGNED_ENOUGH = 0.97
"""A whole-picture SSIM at least this high needs no search for a cropped region."""
MIN_REGION_SHARE = 0.6
"""A located region must cover at least this share of the reference's area: a mild crop
is the same picture, a detail cut from it is not (``image_crop_of`` answers that)."""
HASHES = ("phash", "dhash", "whash")


@dataclass(frozen=True)
class PixelComparison:
    """How alike two aligned pictures are.

    ``ssim``: mean SSIM of their luminance (-1..1, 1 = identical); ``ssim_worst_tile``:
    the lowest per-tile mean over an 8 x 8 grid; ``color_delta``: the 99th percentile of
    the per-pixel CIEDE2000 difference between 16 px thumbnails (0 = same colours, about 2 is
    just noticeable; a logo recoloured in another hue is far above 10 on its coloured
    part); ``hash_distances``: phash/dhash/whash Hamming distances (bits of 64) of the
    aligned pair; ``alignment``: "whole", or "located" when the candidate was found in
    ``region_px`` (reference pixels) of the reference (a crop)."""

    ssim: float
    ssim_worst_tile: float
    color_delta: float
    ssim_low: float  # the 1st percentile of the local SSIM map: a changed detail
    hash_distances: dict[str, int]
    alignment: str
    region_px: tuple[int, int, int, int] | None = None

    def consensus(self, max_distance: int) -> int:
        """How many of the three hashes are within ``max_distance`` bits."""
        return sum(d <= max_distance for d in self.hash_distances.values())

    def as_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "ssim": round(self.ssim, 4),
            "ssim_worst_tile": round(self.ssim_worst_tile, 4),
            "ssim_low": round(self.ssim_low, 4),
            "color_delta": round(self.color_delta, 2),
            "hash_distances": dict(self.hash_distances),
            "alignment": self.alignment,
        }
        if self.region_px is not None:
            out["region_px"] = list(self.region_px)
        return out


def flatten(img: Image.Image) -> Image.Image:
    """RGB, with transparency composited on white (how a page shows a transparent logo).
    The blob store hashes pictures the same way (``model.blobs.flatten_on_white``)."""
    return flatten_on_white(img)  # type: ignore[no-any-return]


def _luminance(img: Image.Image, size: tuple[int, int]) -> np.ndarray:
    import numpy as np
    from PIL import Image

    return np.asarray(img.convert("L").resize(size, Image.Resampling.LANCZOS), dtype=np.float64)


def _compare(reference: Image.Image, candidate: Image.Image, alignment: str, region: tuple[int, int, int, int] | None) -> PixelComparison:
    """Both RGB pictures measured at the reference's aspect."""
    import imagehash
    import numpy as np
    from skimage.metrics import structural_similarity

    side = max(16, min(WORK_SIDE, max(reference.size), max(candidate.size)))
    size = size_at(reference.size, side)
    a, b = _luminance(reference, size), _luminance(candidate, size)
    mean, full = structural_similarity(a, b, data_range=255.0, full=True)  # type: ignore[no-untyped-call]
    rows = np.array_split(np.arange(full.shape[0]), TILES)
    cols = np.array_split(np.arange(full.shape[1]), TILES)
    worst = min(float(full[np.ix_(r, c)].mean()) for r in rows for c in cols if len(r) and len(c))
    # small details (a screenshot's digits) need more pixels than the mean: the local map
    # is read at up to LOW_SIDE, the same map when the pictures are no larger
    detail = max(16, min(LOW_SIDE, max(reference.size), max(candidate.size)))
    local = full
    if detail > side:
        size = size_at(reference.size, detail)
        local = structural_similarity(_luminance(reference, size), _luminance(candidate, size), data_range=255.0, full=True)[1]  # type: ignore[no-untyped-call]
    low = float(np.percentile(local, LOW_PERCENTILE))
    resized = candidate.resize(reference.size) if candidate.size != reference.size else candidate
    distances = {h: int(getattr(imagehash, h)(reference) - getattr(imagehash, h)(resized)) for h in HASHES}
    return PixelComparison(float(mean), worst, color_difference(reference, candidate), low, distances, alignment, region)



def compare_pixels(reference: Image.Image, candidate: Image.Image, *, locate: bool = True) -> PixelComparison:
    """Align ``candidate`` to ``reference`` and measure how alike they are.

    Both are flattened to RGB on white. The whole candidate is compared with the whole
    reference at the reference's aspect; unless that already scores SSIM >=
    ``ALIGNED_ENOUGH``, the candidate is also located inside the reference (a crop) and
    compared with that region when it covers at least ``MIN_REGION_SHARE`` of the
    reference. The alignment with the better SSIM wins.
    """
    ref, cand = flatten(reference), flatten(candidate)
    best = _compare(ref, cand, "whole", None)
    if not locate or best.ssim >= ALIGNED_ENOUGH:
        return best
    found = locate_crop(ref, cand)
    if found is None:
        return best
    x0, y0, x1, y1 = found.box
    share = (x1 - x0) * (y1 - y0) / (ref.size[0] * ref.size[1])
    if x1 - x0 < 8 or y1 - y0 < 8 or not MIN_REGION_SHARE <= share < 0.995:
        return best
    located = _compare(ref.crop(found.box), cand, "located", found.box)
    return located if located.ssim > best.ssim else best
