"""Colour masks of the picture-content checks (``image_color_blob``, ``image_ink_extent``
with ``not_background``): CIEDE2000 once per distinct colour
(``artifactcheck.checks.image.pixels.color_distance``) against once per pixel (scikit-image
over the whole array, as ``image_background`` does for its band), side by side in one run.

Pictures: a 1920 x 1080 drawing (white canvas, a yellow triangle, text: a few hundred
colours) and 1920 x 1080 uniform noise (every pixel its own colour: the worst case for the
per-colour pass). Prints seconds per call (best of ``--repeat``) and the ratio; both
results are compared to be equal. Run: ``.venv/bin/python bench/color_mask.py``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFont
from skimage.color import deltaE_ciede2000, rgb2lab

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from artifactcheck.checks.image.blob import find_blob
from artifactcheck.checks.image.pixels import color_distance

TARGET = "#ffff00"


def per_pixel(rgba: Any) -> Any:
    lab = rgb2lab(rgba[:, :, :3].astype(np.float64) / 255.0)
    ref = rgb2lab(np.array([[[1.0, 1.0, 0.0]]]))
    return deltaE_ciede2000(lab, np.broadcast_to(ref, lab.shape))


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    img = Image.new("RGBA", (1920, 1080), "white")
    draw = ImageDraw.Draw(img)
    draw.polygon([(960, 400), (860, 600), (1060, 600)], fill=(255, 220, 0, 255))
    draw.text((40, 40), "Quarterly poster", fill="black", font=ImageFont.load_default(size=48))
    drawing = np.asarray(img)
    noise = np.random.default_rng(1).integers(0, 256, (1080, 1920, 4), dtype=np.uint8)
    noise[:, :, 3] = 255
    print(f"{'picture':<8} {'colours':>9} {'per colour s':>13} {'per pixel s':>12} {'ratio':>6} {'find_blob s':>12}")
    for name, rgba in (("drawing", drawing), ("noise", noise)):
        colours = len(np.unique(rgba[:, :, :3].reshape(-1, 3), axis=0))
        assert np.allclose(color_distance(rgba, TARGET), per_pixel(rgba))
        ours = best(lambda rgba=rgba: color_distance(rgba, TARGET), args.repeat)
        theirs = best(lambda rgba=rgba: per_pixel(rgba), args.repeat)
        blob = best(lambda rgba=rgba: find_blob(rgba, TARGET, tolerance=20, connected=True, min_pixels=1), args.repeat)
        print(f"{name:<8} {colours:>9} {ours:>13.3f} {theirs:>12.3f} {theirs / ours:>5.1f}x {blob:>12.3f}")


if __name__ == "__main__":
    main()
