"""ROC of image identity: is a candidate the reference picture? (issue 11; numbers in
design/checks-geometry.md, "Image identity").

Evaluation set, built from the real pictures stored in ../shared/corpus (decks, documents
and workbooks, peers included: every raster picture of at least 64 px a side, one per
distinct phash) plus generated wordmark logos:

- *same* (should match): each picture resized to 50% and 200%, stretched 6% wider,
  recompressed as JPEG q60 and q85, quantised to 256 colours (GIF-like), cropped mildly
  (4% off each side; 8% off the right; 10% off top and left), through a colour-profile
  change (gamma 0.85 and 1.15, saturation +-15%), and resized to 60% then JPEG q75.
- *different* (should not match), look-alikes of the same layout: hue rotated by 60 and
  180 degrees, the wordmark/label strip replaced by another word, a third of the
  picture replaced by the same region of another picture, the corpus picture nearest in
  phash, and for the generated logos the same layout in another colour, another
  wordmark, both (the case of the issue: phash distance 6), or one letter changed.

For every pair it measures the three 64-bit hashes (phash, dhash, whash), SSIM after
alignment and the colour difference (``artifactcheck.checks.image.identity``), then prints
the ROC of each score alone and the confusion of the decision rule ``image_matches``
uses with its defaults. Run: ``.venv/bin/python bench/image_identity.py [--limit 60]``
(about two minutes for 60 pictures).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import imagehash
import numpy as np
from PIL import Image, ImageDraw, ImageEnhance, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from artifactcheck.checks.image.identity import compare_pixels, flatten
from artifactcheck.checks.image.match import (
    DEFAULT_CONSENSUS,
    DEFAULT_MAX_COLOR_DELTA,
    DEFAULT_MAX_DISTANCE,
    DEFAULT_MIN_LOCAL_SSIM,
    DEFAULT_MIN_SSIM,
    DEFAULT_MIN_TILE_SSIM,
)

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
HASHES = ("phash", "dhash", "whash")


def corpus_pictures(limit: int) -> list[tuple[str, Image.Image]]:
    seen: set[str] = set()
    found: list[tuple[str, Image.Image]] = []
    for path in sorted(CORPUS.rglob("*")):
        if path.suffix not in (".pptx", ".docx", ".xlsx"):
            continue
        try:
            zf = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError):
            continue
        for name in sorted(zf.namelist()):
            if "/media/" not in name:
                continue
            try:
                img = Image.open(io.BytesIO(zf.read(name)))
                if img.width * img.height > 20_000_000:
                    continue
                img.load()
            except Exception:  # noqa: BLE001, S112 - vector or broken media is not a raster picture
                continue
            if min(img.size) < 64 or img.format in ("WMF", "EMF") or img.width * img.height > 20_000_000:
                continue
            rgb = flatten(img)
            rgb.thumbnail((1200, 1200))  # pictures as agents insert them; keeps the run short
            key = str(imagehash.phash(rgb))
            if key in seen:
                continue
            seen.add(key)
            found.append((f"{path.name}:{name.rsplit('/', 1)[-1]}", rgb))
    random.Random(7).shuffle(found)
    return found[:limit]


def logo(colour: tuple[int, int, int], word: str) -> Image.Image:
    img = Image.new("RGB", (400, 160), "white")
    draw = ImageDraw.Draw(img)
    draw.ellipse([10, 10, 150, 150], fill=colour)
    draw.rectangle([60, 40, 100, 120], fill="white")
    draw.text((170, 45), word, fill=(40, 40, 40), font=ImageFont.truetype(FONT, 60))
    return img


def report(seed: int, *, changed: bool = False, rows: int = 18) -> Image.Image:
    """A screenshot of a figures table, 800 x 500 px; ``changed``: other figures on the
    first ``rows`` lines (the layout, labels and most of the text the same)."""
    img = Image.new("RGB", (800, 500), "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, 18)
    for i in range(18):
        k = seed * 11 + i + (7 if changed and i < rows else 0)
        draw.text((20, 10 + i * 27), f"Row {i:02d}: revenue {1000 + k * 37} units, margin {k * 3 % 17}%", fill="black", font=font)
    return img


# -- transformations ----------------------------------------------------------------------


def resize(f: float) -> Callable[[Image.Image], Image.Image]:
    return lambda im: im.resize((max(8, round(im.width * f)), max(8, round(im.height * f))), Image.Resampling.LANCZOS)


def jpeg(q: int) -> Callable[[Image.Image], Image.Image]:
    def go(im: Image.Image) -> Image.Image:
        out = io.BytesIO()
        im.save(out, format="JPEG", quality=q)
        return Image.open(io.BytesIO(out.getvalue())).convert("RGB")

    return go


def crop(left: float, top: float, right: float, bottom: float) -> Callable[[Image.Image], Image.Image]:
    return lambda im: im.crop((round(im.width * left), round(im.height * top), round(im.width * (1 - right)), round(im.height * (1 - bottom))))


def gamma(g: float) -> Callable[[Image.Image], Image.Image]:
    table = [round(255 * (i / 255) ** g) for i in range(256)] * 3
    return lambda im: im.point(table)


def saturation(f: float) -> Callable[[Image.Image], Image.Image]:
    return lambda im: ImageEnhance.Color(im).enhance(f)


def quantise(im: Image.Image) -> Image.Image:
    return im.quantize(256).convert("RGB")


def stretch(im: Image.Image) -> Image.Image:
    return im.resize((round(im.width * 1.06), im.height), Image.Resampling.LANCZOS)


def hue(degrees: float) -> Callable[[Image.Image], Image.Image]:
    def go(im: Image.Image) -> Image.Image:
        hsv = np.asarray(im.convert("HSV")).copy()
        hsv[..., 0] = (hsv[..., 0].astype(int) + round(degrees / 360 * 255)) % 256
        return Image.fromarray(hsv, "HSV").convert("RGB")

    return go


def relabel(im: Image.Image) -> Image.Image:
    """The bottom quarter (where a caption or wordmark sits) replaced by another word."""
    out = im.copy()
    draw = ImageDraw.Draw(out)
    top = round(im.height * 0.72)
    draw.rectangle([0, top, im.width, im.height], fill="white")
    size = max(8, round((im.height - top) * 0.7))
    draw.text((round(im.width * 0.1), top), "Northwind", fill=(30, 30, 30), font=ImageFont.truetype(FONT, size))
    return out


def patch_from(other: Image.Image) -> Callable[[Image.Image], Image.Image]:
    def go(im: Image.Image) -> Image.Image:
        out = im.copy()
        box = (round(im.width * 0.4), round(im.height * 0.2), round(im.width * 0.95), round(im.height * 0.8))
        out.paste(other.resize((box[2] - box[0], box[3] - box[1])), box[:2])
        return out

    return go


SAME: dict[str, Callable[[Image.Image], Image.Image]] = {
    "resize 50%": resize(0.5),
    "resize 200%": resize(2.0),
    "stretch 6%": stretch,
    "jpeg q60": jpeg(60),
    "jpeg q85": jpeg(85),
    "256 colours": quantise,
    "crop 4% each side": crop(0.04, 0.04, 0.04, 0.04),
    "crop 8% right": crop(0, 0, 0.08, 0),
    "crop 10% top-left": crop(0.1, 0.1, 0, 0),
    "gamma 0.85": gamma(0.85),
    "gamma 1.15": gamma(1.15),
    "saturation +15%": saturation(1.15),
    "saturation -15%": saturation(0.85),
    "60% + jpeg q75": lambda im: jpeg(75)(resize(0.6)(im)),
}


@dataclass
class Pair:
    kind: str  # the transformation or look-alike
    same: bool
    raw: dict[str, int]  # hash distances of the pictures as stored (no alignment)
    distances: dict[str, int]  # hash distances after alignment
    ssim: float
    tile: float
    color_delta: float
    low: float  # 1st percentile of the local SSIM map


def measure(kind: str, same: bool, ref: Image.Image, cand: Image.Image, *, known_different: bool = False) -> Pair | None:
    """The pair's scores; None for a look-alike that is not visibly different (a hue
    rotation of a grey screenshot changes nothing: not a valid negative). A
    ``known_different`` look-alike (other figures: a few digits, invisible at 64 px) is
    kept."""
    if not same and not known_different:
        a = np.asarray(ref.resize((64, 64)), dtype=np.int16)
        b = np.asarray(cand.resize((64, 64)), dtype=np.int16)
        if np.percentile(np.abs(a - b).max(axis=2), 99) < 40:
            return None
    raw = {h: int(getattr(imagehash, h)(ref) - getattr(imagehash, h)(cand)) for h in HASHES}
    cmp = compare_pixels(ref, cand)
    return Pair(kind, same, raw, cmp.hash_distances, cmp.ssim, cmp.ssim_worst_tile, cmp.color_delta, cmp.ssim_low)


def decide(p: Pair, *, max_distance: int, consensus: int, min_ssim: float, min_tile: float, max_delta: float,
           min_low: float = -1.0) -> bool:
    agree = sum(d <= max_distance for d in p.distances.values())
    return agree >= consensus and p.ssim >= min_ssim and p.tile >= min_tile and p.color_delta <= max_delta and p.low >= min_low


def roc(pairs: list[Pair], score: Callable[[Pair], float], thresholds: list[float], label: str) -> None:
    """TPR/FPR when "match" means score >= threshold."""
    pos = [p for p in pairs if p.same]
    neg = [p for p in pairs if not p.same]
    print(f"\nROC of {label} (match when >= threshold)")
    print(f"  {'threshold':>10} {'TPR':>7} {'FPR':>7}")
    for t in thresholds:
        tpr = sum(score(p) >= t for p in pos) / len(pos)
        fpr = sum(score(p) >= t for p in neg) / len(neg)
        print(f"  {t:>10g} {tpr:>7.3f} {fpr:>7.3f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=60, help="corpus pictures used as references")
    args = ap.parse_args()
    pictures = corpus_pictures(args.limit)
    hashes = {name: imagehash.phash(im) for name, im in pictures}
    pairs: list[Pair] = []
    skipped: list[str] = []

    def add(kind: str, same: bool, ref: Image.Image, cand: Image.Image, known_different: bool = False) -> None:
        pair = measure(kind, same, ref, cand, known_different=known_different)
        if pair is None:
            skipped.append(kind)
        else:
            pairs.append(pair)
    for i, (name, ref) in enumerate(pictures):
        other = pictures[(i + 1) % len(pictures)][1]
        for kind, transform in SAME.items():
            add(kind, True, ref, transform(ref))
        lookalikes = {
            "hue +60": hue(60)(ref),
            "hue +180": hue(180)(ref),
            "label replaced": relabel(ref),
            "third replaced": patch_from(other)(ref),
        }
        nearest = min((n for n, _ in pictures if n != name), key=lambda n: hashes[n] - hashes[name])
        lookalikes["nearest other picture"] = dict(pictures)[nearest].resize(ref.size)
        for kind, cand in lookalikes.items():
            add(kind, False, ref, cand)
    colours = [(20, 90, 160), (200, 40, 40), (30, 140, 60), (230, 160, 20)]
    words = ["ACME", "Apex", "Orbit", "Nova"]
    for i, (c, w) in enumerate(zip(colours, words, strict=True)):
        ref = logo(c, w)
        for kind, transform in SAME.items():
            add(f"logo {kind}", True, ref, transform(ref))
        alt = logo(colours[(i + 1) % 4], words[(i + 2) % 4])
        add("logo: other colour + wordmark", False, ref, alt)
        add("logo: other colour", False, ref, logo(colours[(i + 1) % 4], w))
        add("logo: other wordmark", False, ref, logo(c, words[(i + 2) % 4]))
        add("logo: one letter changed", False, ref, logo(c, w[:1] + "K" + w[2:]))
    for i in range(4):  # screenshots of figures: the same report, and with other figures
        ref = report(i)
        for kind, transform in SAME.items():
            add(f"report {kind}", True, ref, transform(ref))
        add("report: other figures", False, ref, report(i, changed=True), known_different=True)
        add("report: one line changed", False, ref, report(i, changed=True, rows=1), known_different=True)
    pos = sum(p.same for p in pairs)
    print(f"{len(pictures)} corpus pictures + 4 generated logos: {pos} same pairs, {len(pairs) - pos} look-alike pairs")
    print(f"(left out, not visibly different from the reference: {len(skipped)} look-alikes, e.g. {sorted(set(skipped))[:3]})")

    roc(pairs, lambda p: -p.raw["phash"], [-4, -6, -8, -10, -12, -16], "phash alone, unaligned (-distance; the old rule: <= 8)")
    for d in (8, 10, 12):
        roc(pairs, lambda p, d=d: sum(x <= d for x in p.distances.values()), [1, 2, 3], f"hash consensus after alignment (hashes within {d} bits)")
    roc(pairs, lambda p: p.ssim, [0.7, 0.8, 0.85, 0.9, 0.93, 0.95], "SSIM after alignment")
    roc(pairs, lambda p: p.tile, [0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9], "worst-tile SSIM after alignment")
    roc(pairs, lambda p: p.low, [0.3, 0.4, 0.5, 0.6, 0.7, 0.8], "1st percentile of local SSIM after alignment")
    roc(pairs, lambda p: -p.color_delta, [-3, -5, -8, -10, -12, -15, -20], "colour (-p99 CIEDE2000 of 16 px thumbnails)")

    print("\nGrid search: rules with FPR <= 1%, best TPR first")
    found = []
    for d in (8, 10, 12, 14):
        for k in (1, 2, 3):
            for s in (0.7, 0.8, 0.85, 0.9):
                for t in (0.5, 0.6, 0.7, 0.75, 0.8):
                    for c in (6, 8, 10, 12, 15):
                        tp = sum(decide(p, max_distance=d, consensus=k, min_ssim=s, min_tile=t, max_delta=c) for p in pairs if p.same)
                        fp = sum(decide(p, max_distance=d, consensus=k, min_ssim=s, min_tile=t, max_delta=c) for p in pairs if not p.same)
                        if fp <= 0.01 * (len(pairs) - pos):
                            found.append((tp, -fp, d, k, s, t, c))
    for tp, fp, d, k, s, t, c in sorted(found, reverse=True)[:8]:
        print(f"  {k} of 3 hashes <= {d}, ssim >= {s}, worst tile >= {t}, colour <= {c}: TPR {tp / pos:.3f}, FP {-fp}")

    def table(label: str, rule: Callable[[Pair], bool]) -> None:
        print(f"\n{label}")
        for kind in dict.fromkeys(p.kind for p in pairs):
            group = [p for p in pairs if p.kind == kind]
            hits = sum(rule(p) for p in group)
            exp = "match" if group[0].same else "no match"
            worst = ""
            if group[0].same:
                worst = (f"min ssim {min(p.ssim for p in group):.3f}, min tile {min(p.tile for p in group):.3f}, "
                         f"min low {min(p.low for p in group):.3f}, "
                         f"max colour {max(p.color_delta for p in group):.1f}, max phash {max(p.distances['phash'] for p in group)}")
            else:
                worst = (f"max ssim {max(p.ssim for p in group):.3f}, max tile {max(p.tile for p in group):.3f}, "
                         f"max low {max(p.low for p in group):.3f}, "
                         f"min colour {min(p.color_delta for p in group):.1f}, min phash {min(p.distances['phash'] for p in group)}")
            print(f"  {kind:34} {hits:>3}/{len(group):<3} matched (want {exp}); {worst}")
        tp = sum(rule(p) for p in pairs if p.same)
        fp = sum(rule(p) for p in pairs if not p.same)
        print(f"  => TPR {tp / pos:.3f} ({tp}/{pos}), FPR {fp / (len(pairs) - pos):.3f} ({fp}/{len(pairs) - pos})")

    table("Old default: phash distance <= 8 (unaligned)", lambda p: p.raw["phash"] <= 8)
    table(
        f"New default: {DEFAULT_CONSENSUS} of 3 hashes <= {DEFAULT_MAX_DISTANCE} after alignment, SSIM >= {DEFAULT_MIN_SSIM}, "
        f"worst tile >= {DEFAULT_MIN_TILE_SSIM}, colour p99 <= {DEFAULT_MAX_COLOR_DELTA}, local SSIM p1 >= {DEFAULT_MIN_LOCAL_SSIM}",
        lambda p: decide(p, max_distance=DEFAULT_MAX_DISTANCE, consensus=DEFAULT_CONSENSUS, min_ssim=DEFAULT_MIN_SSIM,
                         min_tile=DEFAULT_MIN_TILE_SSIM, max_delta=DEFAULT_MAX_COLOR_DELTA, min_low=DEFAULT_MIN_LOCAL_SSIM),
    )


if __name__ == "__main__":
    main()
