"""Locate a (possibly scaled) crop inside an original image by normalised cross-correlation.

Why beside imagehash's crop-resistant hash: that hash compares segment-wise dhashes, and
flat, uniform segments (logos, diagrams, screenshots) all hash alike, so it both misses
real crops and matches unrelated flat images (design/checks-geometry.md, "Crops"). Finding
where the candidate sits in the original and then comparing that region's perceptual hash
with the candidate's is a direct test of "cut from this picture".

Pure numpy: grayscale, both images shrunk so the original's long side is <= 256 px, the
candidate tried at a range of scales, correlation by FFT with local sums from integral
images. Pixel coordinates in the result are in the original's full resolution.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

# numpy, Pillow and imagehash are imported by the functions that compare
# pixels: the check registry imports this module whether or not a rubric matches images.

WORK_SIDE = 256  # long side of the original while searching, in pixels
MIN_TEMPLATE = 8  # a template smaller than this (px) carries no information


@dataclass(frozen=True)
class CropLocation:
    """Where the candidate best fits in the original: ``box`` (x0, y0, x1, y1) in the
    original's pixels, ``scale`` candidate px per original px, ``ncc`` in [-1, 1], and the
    phash distance (bits of 64) between that region and the candidate."""

    box: tuple[int, int, int, int]
    scale: float
    ncc: float
    phash_distance: int
    color_delta: float  # the region's colours against the candidate's (identity.color_difference)

    def as_dict(self) -> dict[str, object]:
        return {
            "box_px": list(self.box),
            "scale": round(self.scale, 4),
            "ncc": round(self.ncc, 4),
            "phash_distance": self.phash_distance,
            "color_delta": round(self.color_delta, 2),
        }


def _gray(img: Image.Image, size: tuple[int, int]) -> np.ndarray:
    import numpy as np
    from PIL import Image

    return np.asarray(img.convert("L").resize(size, Image.Resampling.BILINEAR), dtype=np.float64)


def ncc_map(image: np.ndarray, template: np.ndarray) -> np.ndarray:
    """Normalised cross-correlation of ``template`` at every valid offset of ``image``
    (shape ``(H - h + 1, W - w + 1)``); 0 where the window or the template is flat."""
    import numpy as np

    h, w = template.shape
    H, W = image.shape
    t = template - template.mean()
    t_norm = float(np.sqrt((t * t).sum()))
    if t_norm == 0:
        return np.zeros((H - h + 1, W - w + 1))
    shape = (H + h - 1, W + w - 1)
    corr = np.fft.irfft2(np.fft.rfft2(image, shape) * np.fft.rfft2(t[::-1, ::-1], shape), shape)
    corr = corr[h - 1 : H, w - 1 : W]
    ii = np.pad(image, ((1, 0), (1, 0))).cumsum(0).cumsum(1)
    ii2 = np.pad(image * image, ((1, 0), (1, 0))).cumsum(0).cumsum(1)

    def window(a: np.ndarray) -> np.ndarray:

        out: np.ndarray = a[h:, w:] - a[:-h, w:] - a[h:, :-w] + a[:-h, :-w]
        return out

    s1, s2 = window(ii), window(ii2)
    var = np.maximum(s2 - s1 * s1 / (h * w), 0.0)
    denom = np.sqrt(var) * t_norm
    out = np.zeros_like(corr)
    ok = denom > 1e-6 * max(1.0, t_norm)
    out[ok] = corr[ok] / denom[ok]
    return np.clip(out, -1.0, 1.0)


def locate_crop(original: Image.Image, candidate: Image.Image, *, scales: int = 14) -> CropLocation | None:
    """The best placement of ``candidate`` inside ``original`` over a range of scales, or
    None when the candidate cannot fit (larger than the original at every scale tried).

    Scales run from "the candidate spans the whole original" to "it is 1/8 of it", plus
    1:1 (a crop cut at full resolution, as Office and Google store cropped pixels)."""
    import imagehash
    import numpy as np

    W, H = original.size
    w, h = candidate.size
    if min(W, H, w, h) < 1:
        return None
    shrink = min(1.0, WORK_SIDE / max(W, H))
    ow, oh = max(1, round(W * shrink)), max(1, round(H * shrink))
    ref = _gray(original, (ow, oh))
    fit = max(w / W, h / H)  # scale at which the candidate covers the original exactly
    best: tuple[float, float, int, int, int, int] | None = None

    def search(grid: list[float]) -> None:
        import numpy as np

        nonlocal best
        for s in grid:
            tw, th = round(w / s * shrink), round(h / s * shrink)
            if tw < MIN_TEMPLATE or th < MIN_TEMPLATE or tw > ow or th > oh:
                continue
            scores = ncc_map(ref, _gray(candidate, (tw, th)))
            y, x = np.unravel_index(int(np.argmax(scores)), scores.shape)
            score = float(scores[y, x])
            if best is None or score > best[0]:
                best = (score, s, int(x), int(y), tw, th)

    step = 8 ** (1 / max(1, scales - 1))  # ratio between neighbouring coarse scales
    search([float(v) for v in np.geomspace(fit, fit * 8, scales)] + [1.0])
    if best is None:
        return None
    coarse = best[1]
    search([float(v) for v in np.geomspace(coarse / step, coarse * step, 9)])  # refine around the best
    score, s, x, y, tw, th = best
    x0, y0 = round(x / shrink), round(y / shrink)
    x1, y1 = min(W, round((x + tw) / shrink)), min(H, round((y + th) / shrink))
    from .color_delta import color_difference

    region = original.convert("RGB").crop((x0, y0, x1, y1))
    rgb = candidate.convert("RGB")
    distance = int(imagehash.phash(region) - imagehash.phash(rgb))
    # the search and the hash see grey only: a recoloured look-alike correlates perfectly
    return CropLocation((x0, y0, x1, y1), float(s), score, distance, color_difference(region, rgb))
