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

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

# numpy, Pillow and imagehash are imported by the functions that compare
# pixels: the check registry imports this module whether or not a rubric matches images.

WORK_SIDE = 256  # long side of the original while searching, in pixels
MIN_TEMPLATE = 8  # a template smaller than this (px) carries no information
FINE_SIDE = 512  # long side of the candidate while refining, in pixels
FINE_MARGIN = 3  # search-resolution pixels around the coarse place the refinement looks


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
    from scipy.fft import next_fast_len

    # padded to sizes the FFT factors well (a 1051-point axis, prime-heavy, cost 5x)
    shape = (next_fast_len(H + h - 1, real=True), next_fast_len(W + w - 1, real=True))
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
    fine = _refine(original, candidate, (x0, y0, x1, y1), s, margin=round(FINE_MARGIN / shrink))
    if fine is not None and fine[0] >= score:
        score, s, (x0, y0, x1, y1) = fine
    from .color_delta import color_difference

    region = original.convert("RGB").crop((x0, y0, x1, y1))
    rgb = candidate.convert("RGB")
    distance = int(imagehash.phash(region) - imagehash.phash(rgb))
    # the search and the hash see grey only: a recoloured look-alike correlates perfectly
    return CropLocation((x0, y0, x1, y1), float(s), score, distance, color_difference(region, rgb))


def _refine(
    original: Image.Image, candidate: Image.Image, box: tuple[int, int, int, int], scale: float, *, margin: int
) -> tuple[float, float, tuple[int, int, int, int]] | None:
    """The coarse placement ``box`` (original pixels, candidate at ``scale``) searched
    again at the candidate's own resolution (at most ``FINE_SIDE``), within ``margin``
    original pixels of it and 2% of its scale: at 256 px text is a blur, so an exact crop
    of a screenshot correlated 0.88 and the same crop at half size 0.81, under the 0.85
    a crop needs. (score, scale, box) or None when nothing fits.

    A shrunk crop is a whole number of original pixels resized to the candidate's size,
    and thin strokes correlate only at that exact ratio and on the same pixel grid (0.1%
    off, or half a pixel over, and a line of text blurs into its neighbour): so the
    region widths tried are whole pixels, each axis resampled by its own exact ratio,
    and each start pixel of a shrunk pixel's block is tried (up to 4)."""
    import numpy as np
    from PIL import Image

    w, h = candidate.size
    k = min(1.0, FINE_SIDE / max(w, h))
    tw, th = max(1, round(w * k)), max(1, round(h * k))
    if min(tw, th) < MIN_TEMPLATE:
        return None
    template = np.asarray(candidate.convert("L").resize((tw, th), Image.Resampling.BILINEAR), dtype=np.float64)
    W, H = original.size
    gray = original.convert("L")
    low, high = w / (scale * 1.02), w / (scale * 0.98)
    widths = sorted({round(v) for v in np.linspace(low, high, min(13, max(1, round(high - low) + 1)))})

    def at(rw: int, dx: float, dy: float) -> tuple[float, float, tuple[int, int, int, int]] | None:
        rh = max(1, round(h * rw / w))
        fx, fy = tw / rw, th / rh  # original pixels -> template pixels, per axis
        wx0, wy0 = max(0, box[0] - margin) + dx * _phase_step(fx), max(0, box[1] - margin) + dy * _phase_step(fy)
        wx1, wy1 = min(W, box[2] + margin), min(H, box[3] + margin)
        size = (int((wx1 - wx0) * fx), int((wy1 - wy0) * fy))
        if size[0] < tw or size[1] < th:
            return None
        window = gray.resize(size, Image.Resampling.BILINEAR, box=(wx0, wy0, wx0 + size[0] / fx, wy0 + size[1] / fy))
        scores = ncc_map(np.asarray(window, dtype=np.float64), template)
        y, x = np.unravel_index(int(np.argmax(scores)), scores.shape)
        x0, y0 = round(wx0 + int(x) / fx), round(wy0 + int(y) / fy)
        return float(scores[y, x]), w / rw, (x0, y0, min(W, x0 + rw), min(H, y0 + rh))

    # every width at one phase, then every phase at the three best widths: 13 + 3 x 16
    # windows at most (a 1600 px crop of a 3200 px screenshot: about a second)
    first = [(got, rw) for rw in widths if rw >= 1 and (got := at(rw, 0, 0)) is not None]
    if not first:
        return None
    best = max(first)[0]
    for _, rw in sorted(first, reverse=True)[:3]:
        fx, fy = tw / rw, th / max(1, round(h * rw / w))
        for dx in range(_phase_count(fx)):
            for dy in range(_phase_count(fy)):
                got = at(rw, dx, dy) if dx or dy else None
                if got is not None and got[0] > best[0]:
                    best = got
    return best


def _phase_count(f: float) -> int:
    """How many start offsets put a window resampled by ``f`` on each part of a
    resampled pixel (one spans 1/f original pixels): up to 4."""
    return min(4, max(1, math.ceil(1 / f - 1e-9)))


def _phase_step(f: float) -> float:
    """The start offset (original pixels) between two of those phases."""
    return 1 / (f * _phase_count(f))
