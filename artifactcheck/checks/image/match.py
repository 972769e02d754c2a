"""Image checks (mechanism ``tolerance``): find a reference picture among the document's
images, recognise a crop of it, reject duplicates, catch stretched pictures.

Each image node carries ``attrs["blob"]`` (sha256 of the bytes the page shows) and the
Document's blob store already holds pixel sizes and 64-bit perceptual hashes (phash,
dhash, whash), so matching never re-reads the artifact. Matching goes from strict to
loose and says which step decided: identical bytes (sha256), identical pixels (decoded,
same size, same RGBA values), then the Hamming distance between perceptual hashes against
``max_distance`` (bits out of 64). Reference files are resolved against
``Resources.assets_dir``. See design/checks-geometry.md ("Images").
"""

from __future__ import annotations

import hashlib
import math
import threading
from functools import lru_cache
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...errors import RubricError
from ...input_files import read_input_bytes
from ...model import Blob, Document, Node
from ...model.blobs import decode_drawn, decode_image
from ...model.crop import crop_fractions
from ..geometry import box_dict, cut_off, result
from ..layout import extracted_without_layout, without_layout
from ..registry import Resources, register_check
from ..resource_files import resolve_resource_file
from ..result import CheckResult
from ..target import TargetSpec, node_ref, select_targets
from .shown import shown_on_page

if TYPE_CHECKING:
    import imagehash
    from PIL import Image

    from .identity import PixelComparison
    from .locate import CropLocation

# imagehash (numpy, scipy, PyWavelets) and Pillow, and the pixel comparisons (scikit-image)
# are imported by the functions that hash or compare: registering the image checks must
# not cost their ~0.4 s to a rubric that has no image to match (design/startup.md).

HashName = Literal["phash", "dhash", "whash"]
HASHES: tuple[HashName, ...] = ("phash", "dhash", "whash")
HASH_BITS = 64

# Identity defaults, chosen from the ROC of bench/image_identity.py (design/checks-geometry.md).
DEFAULT_MAX_DISTANCE = 12
DEFAULT_CONSENSUS = 2
DEFAULT_MIN_SSIM = 0.8
DEFAULT_MIN_TILE_SSIM = 0.6
DEFAULT_MIN_LOCAL_SSIM = 0.25  # the ROC's gap: same pictures >= 0.29, other figures <= 0.24
DEFAULT_MAX_COLOR_DELTA = 10.0

_LOCK = threading.Lock()


def _remember(store: dict[Any, Any], key: Any, value: Any, *, limit: int) -> None:
    """Keep ``value`` in a per-process cache shared by threads; a full cache starts over
    (these are per-artifact results: a long batch must not grow without bound)."""
    with _LOCK:
        if len(store) > limit:
            store.clear()
        store[key] = value


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


# -- reference images --------------------------------------------------------------------


class Reference:
    """A reference image file: bytes, sha256, pixel size and perceptual hashes."""

    def __init__(self, path: Path) -> None:
        import imagehash

        self.path = path
        self.data = read_input_bytes(path, what="reference image", error=RubricError, too_large=RubricError)
        self.sha256 = hashlib.sha256(self.data).hexdigest()
        # as drawn, like the blob store's hashes: a transparent reference on white
        rgb = decode_drawn(self.data, what=f"reference image {path.name}")
        self.size = rgb.size
        self.hashes: dict[str, str] = {name: str(getattr(imagehash, name)(rgb)) for name in HASHES}

    def evidence(self) -> dict[str, Any]:
        return {"path": str(self.path), "sha256": self.sha256, "width_px": self.size[0], "height_px": self.size[1], **self.hashes}


@lru_cache(maxsize=64)
def _reference_cached(path: str, mtime_ns: int, size: int) -> Reference:
    return Reference(Path(path))


def load_reference(name: str, resources: Resources) -> Reference:
    """The reference image ``name``: absolute, or relative to ``resources.assets_dir``
    (else to the working directory), confined as :func:`resolve_resource_file` says.
    Raises FileNotFoundError naming both."""
    path = resolve_resource_file(name, resources, what="reference image")
    st = path.stat()
    return _reference_cached(str(path), st.st_mtime_ns, st.st_size)


def _decode(data: bytes) -> Image.Image:
    return decode_image(data, mode="RGBA")  # type: ignore[no-any-return]


def same_pixels(a: bytes, b: bytes) -> bool:
    """Decoded images have the same size and the same RGBA values (a PNG re-saved as
    another PNG, metadata stripped, ...). False when either cannot be decoded."""
    try:
        ia, ib = _decode(a), _decode(b)
    except Exception:  # noqa: BLE001 - undecodable bytes are simply not identical pixels
        return False
    return ia.size == ib.size and ia.tobytes() == ib.tobytes()


def hash_distance(a: str | None, b: str | None) -> int | None:
    """Hamming distance (bits) between two imagehash hex strings; None if either is absent."""
    import imagehash

    if a is None or b is None:
        return None
    if len(a) == len(b):  # the same bits, however imagehash orders them: popcount of XOR
        return (int(a, 16) ^ int(b, 16)).bit_count()
    return int(imagehash.hex_to_hash(a) - imagehash.hex_to_hash(b))


def image_nodes(doc: Document, target: Any) -> list[tuple[Node, Blob | None]]:
    """Target image nodes with their blob (None when the node has no stored image)."""
    out: list[tuple[Node, Blob | None]] = []
    for node in select_targets(doc, target):
        sha = node.attrs.get("blob")
        out.append((node, doc.blobs.get(sha) if isinstance(sha, str) else None))
    return out


def _node_evidence(node: Node, blob: Blob | None) -> dict[str, Any]:
    out: dict[str, Any] = {**node_ref(node), "boxes": [box_dict(b) for b in node.boxes]}
    if blob is not None:
        out.update(blob=blob.sha256, width_px=blob.width_px, height_px=blob.height_px)
    return out


# -- image_matches -----------------------------------------------------------------------


class MatchParams(_Params):
    reference: str = Field(description="image file, relative to Resources.assets_dir")
    target: TargetSpec = Field(default="image", validate_default=True, description="the images to search")
    method: Literal["identity", "hash"] = Field(
        default="identity",
        description="identity: hash consensus and SSIM/colour after alignment (resized, recompressed, "
        "mildly cropped or colour-shifted copies match; look-alikes do not); hash: one perceptual "
        "hash within max_distance, unaligned (the old rule)",
    )
    hash: HashName | Literal["all"] = Field(default="phash", description="method hash: which perceptual hash decides; 'all' needs every hash within max_distance")
    max_distance: int = Field(
        default=DEFAULT_MAX_DISTANCE, ge=0, le=HASH_BITS,
        description="Hamming distance in bits out of 64 (identity: after alignment, for each agreeing hash)",
    )
    consensus: int = Field(default=DEFAULT_CONSENSUS, ge=1, le=3, description="identity: how many of phash, dhash, whash must be within max_distance")
    min_ssim: float = Field(default=DEFAULT_MIN_SSIM, ge=-1, le=1, description="identity: minimum SSIM of the aligned luminance")
    min_tile_ssim: float = Field(
        default=DEFAULT_MIN_TILE_SSIM, ge=-1, le=1,
        description="identity: minimum SSIM of the worst of 4x4 tiles (a replaced part: another wordmark)",
    )
    max_color_delta: float = Field(
        default=DEFAULT_MAX_COLOR_DELTA, ge=0,
        description="identity: maximum colour difference (99th percentile CIEDE2000 of 16 px thumbnails; a recoloured logo is far above)",
    )
    min_local_ssim: float = Field(
        default=DEFAULT_MIN_LOCAL_SSIM, ge=-1, le=1,
        description="identity: minimum 1st percentile of the local SSIM map at up to 256 px (a changed detail: a screenshot with other figures)",
    )
    expect: Literal["present", "absent"] = Field(default="present", description="absent: pass when no target image matches")
    min_count: int = Field(default=1, ge=1, description="how many target images must match")


_COMPARISONS: dict[tuple[str, str], PixelComparison | str] = {}


def _comparison(ref: Reference, blob: Blob) -> PixelComparison | str:
    """The aligned pixel comparison of a stored image with the reference (cached per
    pair), or why it could not be made."""
    from .identity import compare_pixels

    key = (ref.sha256, blob.sha256)
    with _LOCK:
        found = _COMPARISONS.get(key)
    if found is not None:
        return found
    try:
        a = decode_image(ref.data, mode="RGBA", what=f"reference image {ref.path.name}")
        b = decode_image(blob.data or b"", mode="RGBA", what=f"image {blob.sha256[:12]}")
        value: PixelComparison | str = compare_pixels(a, b)
    except Exception as exc:  # noqa: BLE001 - undecodable bytes are not the reference; say why
        value = f"cannot compare pixels: {type(exc).__name__}: {exc}"
    _remember(_COMPARISONS, key, value, limit=1024)
    return value


def _identity_row(ref: Reference, blob: Blob, p: MatchParams) -> dict[str, Any]:
    found = _comparison(ref, blob)
    if isinstance(found, str):
        return {"match": False, "method": None, "reason": found}
    agree = found.consensus(p.max_distance)
    failed = []
    if agree < p.consensus:
        failed.append(f"{agree} of 3 hashes within {p.max_distance} bits, need {p.consensus}")
    if found.ssim < p.min_ssim:
        failed.append(f"SSIM {found.ssim:.3f} < {p.min_ssim:g}")
    if found.ssim_worst_tile < p.min_tile_ssim:
        failed.append(f"worst tile SSIM {found.ssim_worst_tile:.3f} < {p.min_tile_ssim:g} (a part differs)")
    if found.color_delta > p.max_color_delta:
        failed.append(f"colour difference {found.color_delta:.1f} > {p.max_color_delta:g} (recoloured)")
    if found.ssim_low < p.min_local_ssim:
        failed.append(f"local SSIM {found.ssim_low:.3f} < {p.min_local_ssim:g} at 1% of the picture (a detail differs)")
    summary = (
        f"{agree} of 3 hashes within {p.max_distance} bits, SSIM {found.ssim:.3f} (worst tile "
        f"{found.ssim_worst_tile:.3f}), colour difference {found.color_delta:.1f}, aligned {found.alignment}"
    )
    return {
        "match": not failed,
        "method": "identity",
        "distance": min(found.hash_distances.values()),
        "identity": found.as_dict(),
        "summary": summary,
        "failed": failed,
    }


def match_candidates(
    ref: Reference, pairs: list[tuple[Node, Blob | None]], p: MatchParams, *, doc: Document | None = None
) -> list[dict[str, Any]]:
    """Every target image compared with the reference, best first. With ``doc``, a
    picture no page shows (placed wholly off its slide, or hidden) does not match however
    alike it is (``not_shown`` says why), and one partly off its page says how much shows."""
    rows: list[dict[str, Any]] = []
    for node, blob in pairs:
        row = _node_evidence(node, blob)
        if blob is None:
            row.update(match=False, method=None, reason="no stored image for this node")
        elif blob.sha256 == ref.sha256:
            row.update(match=True, method="sha256", distance=0)
        elif blob.data is not None and (blob.width_px, blob.height_px) == ref.size and same_pixels(blob.data, ref.data):
            row.update(match=True, method="pixels", distance=0)
        elif blob.data is None or blob.decode_error:
            row.update(match=False, method=None, reason=blob.decode_error or "the image bytes are not stored")
        elif p.method == "identity":
            row.update(_identity_row(ref, blob, p))
        else:
            distances = {h: hash_distance(getattr(blob, h), ref.hashes[h]) for h in HASHES}
            row["distances"] = distances
            if any(v is None for v in distances.values()):
                row.update(match=False, method=None, reason=blob.decode_error or "image could not be hashed")
            else:
                decide = list(HASHES) if p.hash == "all" else [p.hash]
                worst = max(int(distances[h] or 0) for h in decide)
                row.update(match=worst <= p.max_distance, method="hash", distance=worst)
        if node.attrs.get("original_blob") == ref.sha256 and not row["match"]:
            row["note"] = "the uncropped original is the reference; the page shows a crop (see image_crop_of)"
        if doc is not None:
            _judge_shown(row, doc, node)
        rows.append(row)

    def rank(r: dict[str, Any]) -> tuple[bool, float]:
        if "identity" in r:
            return (not r["match"], -float(r["identity"]["ssim"]))
        d = r.get("distance")
        return (not r["match"], float(d) - 2 if d is not None else float(HASH_BITS + 1))

    rows.sort(key=rank)
    return rows


def _judge_shown(row: dict[str, Any], doc: Document, node: Node) -> None:
    """A match no page shows is not one: the file holds the picture, a person never sees
    it (LibreOffice draws nothing for a picture placed wholly off the slide)."""
    shown = shown_on_page(doc, node)
    if shown is None or shown.share >= 1.0:
        return
    if shown.reason is not None:
        row["not_shown"] = shown.reason
        if row["match"]:
            row.update(match=False, matched_pixels_by=row["method"])
        return
    row.update(shown_share=round(shown.share, 3), beyond_pt=shown.beyond_pt, shown_on=shown.paper)


_MATCHED_BY = {"sha256": "identical bytes", "pixels": "identical pixels", "identity": "alike after alignment", "hash": "alike by hash"}


def _clipped_note(row: dict[str, Any]) -> str:
    """The explanation's "; only 50% of it is on its slide (150 pt right off)" for a
    picture its page shows in part; "" for one shown whole."""
    if "shown_share" not in row:
        return ""
    sides = ", ".join(f"{v:g} pt {k}" for k, v in row["beyond_pt"].items() if v > 0)
    return f"; only {row['shown_share']:.0%} of it is on its {row['shown_on']} ({sides} off)"


@register_check(
    "image_matches",
    mechanism="tolerance",
    params=MatchParams,
    example={"reference": "logo.png", "target": "slide:first-of-type image"},
)
def image_matches(doc: Document, p: MatchParams, resources: Resources) -> CheckResult:
    """A reference image appears among the target images: the same picture, resized, recompressed, mildly cropped or colour-shifted, but not a look-alike.

    Decided strict to loose, and the evidence says which step decided: identical bytes,
    identical decoded pixels, then (``method: identity``, the default) the candidate is
    aligned to the reference (whole at the reference's aspect, or the region of the
    reference where it is found: a mild crop) and must pass all of: ``consensus`` of the
    three 64-bit hashes (phash, dhash, whash) within ``max_distance`` bits, SSIM of the
    luminance >= ``min_ssim``, the worst 4x4 tile's SSIM >= ``min_tile_ssim`` (another
    wordmark on the same layout fails here), and a colour difference <= ``max_color_delta``
    (the same logo in another colour fails here). Defaults come from the ROC in
    ``bench/image_identity.py`` (design/checks-geometry.md, "Image identity"). ``method:
    hash`` is the old rule: one hash (``hash``) within ``max_distance``, unaligned. With
    ``expect="absent"`` the check passes when no target image matches.
    """
    name = "image_matches"
    ref = load_reference(p.reference, resources)
    pairs = image_nodes(doc, p.target)
    rows = match_candidates(ref, pairs, p, doc=doc)
    matched = [r for r in rows if r["match"]]
    found = len(matched) >= p.min_count
    passed = found if p.expect == "present" else not matched
    evidence: dict[str, Any] = {
        "reference": ref.evidence(),
        "method": p.method,
        "max_distance": p.max_distance,
        "candidates": rows[:30],
        "matches": len(matched),
    }
    if p.method == "identity":
        evidence.update(consensus=p.consensus, min_ssim=p.min_ssim, min_tile_ssim=p.min_tile_ssim, max_color_delta=p.max_color_delta)
    else:
        evidence["hash"] = p.hash
    if not pairs:
        explanation = f"no image matches {p.target.describe()}"
    elif matched:
        best = matched[0]
        how = {"sha256": "identical bytes", "pixels": "identical pixels"}.get(best["method"]) or (
            best["summary"] if best["method"] == "identity" else f"{p.hash} distance {best['distance']} <= {p.max_distance}"
        )
        explanation = f"{len(matched)} of {len(pairs)} image(s) match {ref.path.name}; best {best['id']} ({how}{_clipped_note(best)})"
    else:
        best = rows[0]
        dist = best.get("distance")
        if "not_shown" in best:
            alike = _MATCHED_BY.get(best.get("matched_pixels_by", ""))
            detail = f": the same picture ({alike}), but {best['not_shown']}" if alike else f" ({best['not_shown']})"
        elif best.get("method") == "identity":
            detail = f": {'; '.join(best['failed'])} ({best['summary']})"
        elif dist is not None:
            detail = f" at {p.hash} distance {dist} > {p.max_distance}"
        else:
            detail = f" ({best.get('reason')})"
        explanation = f"none of {len(pairs)} image(s) matches {ref.path.name}: closest {best['id']}{detail}"
    if p.expect == "absent":
        explanation = ("absent as expected: " if passed else "expected absent, but ") + explanation
    return result(name, passed=passed, explanation=explanation, evidence=evidence, mechanism="tolerance")


# -- image_crop_of -----------------------------------------------------------------------


_CROP_HASHES: dict[str, imagehash.ImageMultiHash] = {}


def _crop_resistant(sha: str, data: bytes) -> imagehash.ImageMultiHash:
    """The crop-resistant hash of an image, computed once per process per sha256
    (segmenting an image costs tens of milliseconds)."""
    import imagehash

    with _LOCK:
        cached = _CROP_HASHES.get(sha)
    if cached is not None:
        return cached
    value = imagehash.crop_resistant_hash(decode_image(data), min_segment_size=200)
    _remember(_CROP_HASHES, sha, value, limit=512)
    return value


class CropParams(_Params):
    reference: str = Field(description="the original image file, relative to Resources.assets_dir")
    target: TargetSpec = Field(default="image", validate_default=True)
    method: Literal["locate", "crop_resistant_hash", "either"] = Field(
        default="locate",
        description="locate: find the candidate in the original (cross-correlation) and compare that region's phash; "
        "crop_resistant_hash: imagehash's segment hash; either: one of them",
    )
    min_ncc: float = Field(default=0.85, ge=-1, le=1, description="locate: minimum normalised cross-correlation")
    max_distance: int = Field(default=10, ge=0, le=HASH_BITS, description="locate: phash distance of the located region")
    min_segment_share: float = Field(default=0.5, gt=0, le=1, description="crop_resistant_hash: share of the candidate's segments that must match")
    bit_error_rate: float = Field(default=0.25, ge=0, le=1, description="crop_resistant_hash: allowed differing bits per segment")
    require_crop: bool = Field(default=False, description="an uncropped copy does not count")
    max_color_delta: float = Field(
        default=DEFAULT_MAX_COLOR_DELTA, ge=0,
        description="locate: maximum colour difference of the located region (as image_matches; a recoloured look-alike is far above)",
    )


_LOCATIONS: dict[tuple[str, str], CropLocation | None] = {}


def _located(ref: Reference, blob: Blob) -> CropLocation | None:
    from .locate import locate_crop

    key = (ref.sha256, blob.sha256)
    with _LOCK:
        if key in _LOCATIONS:
            return _LOCATIONS[key]
    assert blob.data is not None
    found = locate_crop(decode_drawn(ref.data, what="reference image"), decode_drawn(blob.data))
    _remember(_LOCATIONS, key, found, limit=1024)
    return found


def _judge_crop(ref: Reference, blob: Blob, p: CropParams) -> dict[str, Any]:
    """Evidence and verdict for one candidate whose bytes differ from the reference."""
    row: dict[str, Any] = {}
    verdicts: list[bool] = []
    smaller = (blob.width_px or 0) * (blob.height_px or 0) < ref.size[0] * ref.size[1]
    if p.method in ("locate", "either"):
        loc = _located(ref, blob)
        if loc is None:
            row["locate"] = {"found": False, "reason": "the candidate does not fit inside the original at any scale"}
            verdicts.append(False)
        else:
            ok = loc.ncc >= p.min_ncc and loc.phash_distance <= p.max_distance and loc.color_delta <= p.max_color_delta
            ref_area = ref.size[0] * ref.size[1]
            box_area = (loc.box[2] - loc.box[0]) * (loc.box[3] - loc.box[1])
            smaller = box_area < 0.97 * ref_area
            row["locate"] = {**loc.as_dict(), "found": ok, "share_of_original": round(box_area / ref_area, 4)}
            verdicts.append(ok)
    if p.method in ("crop_resistant_hash", "either"):
        cand = _crop_resistant(blob.sha256, blob.data or b"")
        matching, total = cand.hash_diff(_crop_resistant(ref.sha256, ref.data), bit_error_rate=p.bit_error_rate)
        segments = len(cand.segment_hashes)
        share = matching / segments if segments else 0.0
        ok = matching >= 1 and share >= p.min_segment_share
        row["crop_resistant_hash"] = {"matching_segments": matching, "segments": segments, "segment_share": round(share, 4), "sum_distance": int(total), "found": ok}
        verdicts.append(ok)
    row["cropped"] = smaller
    row["match"] = any(verdicts) and (smaller or not p.require_crop)
    row["method"] = p.method
    return row


@register_check(
    "image_crop_of",
    mechanism="tolerance",
    params=CropParams,
    example={"reference": "signature.png", "target": "image"},
)
def image_crop_of(doc: Document, p: CropParams, resources: Resources) -> CheckResult:
    """A target image is the reference image or a crop of it (crop attributes, identical bytes, or the crop found inside the original).

    Decided in order: the node shows the reference's bytes with a crop recorded in its
    attrs (Office/Google crop), its bytes equal the reference's, or its pixels are found
    inside the reference: by normalised cross-correlation over scales (``locate``: the
    best region must correlate >= ``min_ncc`` and have a phash within ``max_distance``)
    and/or by imagehash's crop-resistant hash (``crop_resistant_hash``).
    """
    name = "image_crop_of"
    ref = load_reference(p.reference, resources)
    pairs = image_nodes(doc, p.target)
    rows: list[dict[str, Any]] = []
    for node, blob in pairs:
        row = _node_evidence(node, blob)
        crop = crop_fractions(node.attrs)
        row["crop"] = crop
        original = node.attrs.get("original_blob")
        if blob is None:
            row.update(match=False, reason="no stored image for this node")
        elif crop and ref.sha256 in (original, blob.sha256):
            row.update(match=True, method="crop attributes on the original bytes", cropped=True)
        elif blob.sha256 == ref.sha256:
            row.update(match=not p.require_crop, method="identical bytes", cropped=False)
        elif blob.data is None or blob.decode_error:
            row.update(match=False, reason=blob.decode_error or "the image bytes are not stored")
        else:
            row.update(_judge_crop(ref, blob, p))
        _judge_shown(row, doc, node)
        rows.append(row)
    rows.sort(key=lambda r: (not r["match"], -float(r.get("locate", {}).get("ncc", 1.0 if r["match"] else -1.0))))
    matched = [r for r in rows if r["match"]]
    evidence: dict[str, Any] = {
        "reference": ref.evidence(),
        "method": p.method,
        "min_ncc": p.min_ncc,
        "max_distance": p.max_distance,
        "min_segment_share": p.min_segment_share,
        "bit_error_rate": p.bit_error_rate,
        "require_crop": p.require_crop,
        "candidates": rows[:30],
    }
    if not pairs:
        explanation = f"no image matches {p.target.describe()}"
    elif matched:
        best = matched[0]
        how = best["method"]
        if "locate" in best and best["locate"].get("found"):
            loc = best["locate"]
            how = f"found at {loc['box_px']} px of the original, ncc {loc['ncc']}, phash distance {loc['phash_distance']}"
        explanation = f"{best['id']} is {'a crop of' if best.get('cropped') else 'the same image as'} {ref.path.name} ({how}{_clipped_note(best)})"
    else:
        best = rows[0]
        if "not_shown" in best:
            detail = f"{best['not_shown']}" + (f" (else it matches: {best['matched_pixels_by']})" if "matched_pixels_by" in best else "")
        elif "locate" in best:
            loc = best["locate"]
            detail = (
                f"best region ncc {loc.get('ncc')} (need >= {p.min_ncc}), phash distance {loc.get('phash_distance')} (need <= {p.max_distance}), "
                f"colour difference {loc.get('color_delta')} (need <= {p.max_color_delta:g})"
                if "ncc" in loc
                else loc.get("reason")
            )
        elif "crop_resistant_hash" in best:
            c = best["crop_resistant_hash"]
            detail = f"{c['matching_segments']} of {c['segments']} segments match, need {p.min_segment_share:.0%}"
        else:
            detail = best.get("reason") or "an uncropped copy (require_crop)"
        explanation = f"none of {len(pairs)} image(s) is a crop of {ref.path.name}; closest {best['id']}: {detail}"
    return result(name, passed=bool(matched), explanation=explanation, evidence=evidence, mechanism="tolerance")


# -- images_unique -----------------------------------------------------------------------


class UniqueParams(_Params):
    target: TargetSpec = Field(default="image", validate_default=True)
    hash: HashName = "phash"
    max_distance: int = Field(default=4, ge=-1, le=HASH_BITS, description="near-duplicates: distance <= this; -1 compares bytes only")
    max_color_delta: float = Field(
        default=DEFAULT_MAX_COLOR_DELTA, ge=0,
        description="near-duplicates must also have these colours (99th percentile CIEDE2000 of 16 px thumbnails): "
        "the hashes read brightness only, so a red and a blue swatch, or a recoloured logo, hash alike",
    )


@register_check(
    "images_unique",
    mechanism="tolerance",
    params=UniqueParams,
    example={"target": "image", "max_distance": 4},
)
def images_unique(doc: Document, p: UniqueParams, resources: Resources) -> CheckResult:
    """No two target images are the same picture (identical bytes, or perceptual-hash distance <= max_distance).

    The same stored image placed twice is a duplicate. Pictures alike by hash are
    duplicates only when their colours agree too (``max_color_delta``): the hashes see
    brightness, not colour. A picture no page shows (wholly off its slide, hidden) is left
    out: no one sees it twice. Pairs are listed with the method and distance that made
    them duplicates.
    """
    name = "images_unique"
    pairs: list[tuple[Node, Blob | None]] = []
    unseen: list[dict[str, Any]] = []  # no page shows them: no one sees them twice
    for n, b in image_nodes(doc, p.target):
        shown = shown_on_page(doc, n)
        if shown is not None and shown.reason is not None:
            unseen.append({"id": n.id, "reason": shown.reason})
        else:
            pairs.append((n, b))
    dupes: list[dict[str, Any]] = []
    recoloured: list[dict[str, Any]] = []  # alike by hash, not by colour: distinct
    compared = 0
    for (na, ba), (nb, bb) in combinations(pairs, 2):
        if ba is None or bb is None:
            continue
        compared += 1
        if ba.sha256 == bb.sha256:
            dupes.append({"a": na.id, "b": nb.id, "method": "sha256", "distance": 0, "blob": ba.sha256})
            continue
        if p.max_distance < 0:
            continue
        d = hash_distance(getattr(ba, p.hash), getattr(bb, p.hash))
        if d is not None and d <= p.max_distance:
            colours = _colour_difference(ba, bb)
            if colours is not None and colours > p.max_color_delta:
                recoloured.append({"a": na.id, "b": nb.id, "method": p.hash, "distance": d, "color_delta": round(colours, 2)})
                continue
            dupes.append({"a": na.id, "b": nb.id, "method": p.hash, "distance": d})
    ok = not dupes
    evidence: dict[str, Any] = {
        "images": [_node_evidence(n, b) for n, b in pairs][:50],
        "pairs_compared": compared,
        "duplicates": dupes[:50],
        "hash": p.hash,
        "max_distance": p.max_distance,
        "max_color_delta": p.max_color_delta,
    }
    if recoloured:
        evidence["alike_but_recoloured"] = recoloured[:50]
    if unseen:
        evidence["not_shown"] = unseen[:50]
    explanation = (
        f"all {len(pairs)} image(s) of {p.target.describe()} are distinct ({compared} pair(s) compared)"
        if ok
        else f"{len(dupes)} duplicate pair(s), e.g. {dupes[0]['a']} and {dupes[0]['b']} ({dupes[0]['method']} distance {dupes[0]['distance']})"
    )
    if unseen:
        explanation += f"; {len(unseen)} picture(s) no page shows left out, e.g. {unseen[0]['reason']}"
    return result(name, passed=ok, score=1 - len(dupes) / compared if compared else 1.0, explanation=explanation, evidence=evidence, mechanism="tolerance")


def _colour_difference(a: Blob, b: Blob) -> float | None:
    """The colour difference of two pictures (``color_delta``), or None when either does
    not decode."""
    from .color_delta import color_difference

    if a.data is None or b.data is None:
        return None
    try:
        # as drawn: a transparent logo over black RGB is the same logo as its copy on white
        first, second = decode_drawn(a.data), decode_drawn(b.data)
    except Exception:  # an undecodable picture keeps its hash verdict  # noqa: BLE001
        return None
    return color_difference(first, second)


# -- image_not_distorted -----------------------------------------------------------------


def displayed_size(node: Node) -> tuple[float, float] | None:
    """Width and height (pt) the picture is drawn at, before rotation: the polygon's edge
    lengths for a rotated picture, else the box size. None when not drawn."""
    b = node.box
    if b is None:
        return None
    if b.polygon is not None and len(b.polygon) == 4:
        p0, p1, p2, _ = b.polygon
        return math.dist(p0, p1), math.dist(p1, p2)
    return b.width, b.height


def placed_size(node: Node) -> tuple[float, float] | None:
    """Width and height (pt) the whole picture is placed at: :func:`displayed_size` plus
    what the render clips off (``cut_off_pt``: a picture wider than its table cell is cut
    at the cell's edge, not squeezed into it). Aspect and resolution are the placement's."""
    shown = displayed_size(node)
    if shown is None:
        return None
    left, top, right, bottom = cut_off(node)
    return shown[0] + left + right, shown[1] + top + bottom


class DistortionParams(_Params):
    target: TargetSpec = Field(default="image", validate_default=True)
    tolerance: float = Field(default=0.03, ge=0, description="allowed relative aspect-ratio difference (0.03 = 3%)")
    quantifier: Literal["all", "any"] = "all"


@register_check(
    "image_not_distorted",
    mechanism="tolerance",
    params=DistortionParams,
    example={"target": "image", "tolerance": 0.03},
)
def image_not_distorted(doc: Document, p: DistortionParams, resources: Resources) -> CheckResult:
    """Target images keep their aspect ratio: displayed width/height vs the pixels' (after crop) within a relative tolerance.

    The pixel aspect is taken from the shown part of the image: when the stored blob is the
    uncropped original, the node's crop fractions are applied first. Distortion is
    ``displayed_aspect / pixel_aspect - 1`` (positive: stretched wide).
    """
    name = "image_not_distorted"
    if extracted_without_layout(doc):
        return without_layout(name, "tolerance", "displayed aspect ratios")
    rows: list[dict[str, Any]] = []
    passes = 0
    judged = 0
    for node, blob in image_nodes(doc, p.target):
        row = _node_evidence(node, blob)
        shown = placed_size(node)
        if blob is None or not blob.width_px or not blob.height_px:
            row.update(ok=None, reason="no pixel size for this image (vector or undecodable)")
            rows.append(row)
            continue
        if shown is None or shown[0] <= 0 or shown[1] <= 0:
            row.update(ok=None, reason="not drawn (no box)")
            rows.append(row)
            continue
        crop = crop_fractions(node.attrs)
        original = node.attrs.get("original_blob")
        already_cropped = isinstance(original, str) and original != blob.sha256
        keep_w = 1.0 if already_cropped else max(1e-9, 1 - crop.get("left", 0) - crop.get("right", 0))
        keep_h = 1.0 if already_cropped else max(1e-9, 1 - crop.get("top", 0) - crop.get("bottom", 0))
        pixel_aspect = (blob.width_px * keep_w) / (blob.height_px * keep_h)
        shown_aspect = shown[0] / shown[1]
        distortion = shown_aspect / pixel_aspect - 1
        ok = abs(distortion) <= p.tolerance
        judged += 1
        passes += ok
        row.update(
            displayed_pt=[round(shown[0], 2), round(shown[1], 2)],
            displayed_aspect=round(shown_aspect, 4),
            pixel_aspect=round(pixel_aspect, 4),
            crop=crop,
            crop_applied=bool(crop) and not already_cropped,
            distortion=round(distortion, 4),
            ok=ok,
        )
        rows.append(row)
    evidence: dict[str, Any] = {"tolerance": p.tolerance, "images": rows[:50]}
    if judged == 0:
        return CheckResult(
            check=name,
            status="skipped" if rows else "fail",
            score=None if rows else 0.0,
            mechanism="tolerance",
            explanation=(
                "no target image has both a pixel size and a box to compare"
                if rows
                else f"no image matches {p.target.describe()}"
            ),
            evidence=evidence,
        )
    passed = passes == judged if p.quantifier == "all" else passes > 0
    worst = max((r for r in rows if r.get("ok") is not None), key=lambda r: abs(r["distortion"]))
    explanation = (
        f"{passes} of {judged} image(s) keep their aspect ratio within {p.tolerance:.0%}; "
        f"largest distortion {worst['distortion']:+.1%} ({worst['id']}: shown {worst['displayed_aspect']}, pixels {worst['pixel_aspect']})"
    )
    return result(name, passed=passed, score=passes / judged if p.quantifier == "all" else float(passed), explanation=explanation, evidence=evidence, mechanism="tolerance")


# -- image_size --------------------------------------------------------------------------


class SizeParams(_Params):
    target: TargetSpec = Field(default="image", validate_default=True)
    min_width_pt: float | None = Field(default=None, ge=0, description="displayed width at least this many points")
    max_width_pt: float | None = Field(default=None, ge=0, description="displayed width at most this many points")
    min_height_pt: float | None = Field(default=None, ge=0, description="displayed height at least this many points")
    max_height_pt: float | None = Field(default=None, ge=0, description="displayed height at most this many points")
    min_page_width_fraction: float | None = Field(default=None, ge=0, le=1, description="displayed width / page width at least this")
    max_page_width_fraction: float | None = Field(default=None, ge=0, le=1, description="displayed width / page width at most this")
    min_pixels_per_inch: float | None = Field(default=None, gt=0, description="displayed resolution: pixels across / inches across")
    quantifier: Literal["all", "any"] = "all"

    @model_validator(mode="after")
    def _some_bound(self) -> SizeParams:
        # without a bound every image passes: a rubric mistake, reported when it is read
        if all(v is None for k, v in self.__dict__.items() if k not in ("target", "quantifier")):
            raise ValueError("image_size needs at least one bound (min_width_pt, max_height_pt, min_pixels_per_inch, ...)")
        return self


@register_check(
    "image_size",
    mechanism="tolerance",
    params=SizeParams,
    example={"target": "slide:first-of-type image", "min_width_pt": 144, "min_pixels_per_inch": 96},
)
def image_size(doc: Document, p: SizeParams, resources: Resources) -> CheckResult:
    """Target images are displayed within size bounds (points, share of the page width) and at a minimum resolution (pixels per inch).

    Sizes are the picture's own (unrotated) width and height as drawn; resolution is its
    shown pixels (after crop) over its displayed inches across.
    """
    name = "image_size"
    bounds = {k: v for k, v in p.model_dump().items() if k not in ("target", "quantifier") and v is not None}
    if extracted_without_layout(doc):
        return without_layout(name, "tolerance", "displayed image sizes")
    rows: list[dict[str, Any]] = []
    passes = 0
    for node, blob in image_nodes(doc, p.target):
        row = _node_evidence(node, blob)
        shown = displayed_size(node)
        if shown is None:
            row.update(ok=False, reason="not drawn (no box)")
            rows.append(row)
            continue
        w, h = shown
        page_w = doc.pages[node.box.page].width if node.box is not None and node.box.page < len(doc.pages) else None
        measured: dict[str, float | None] = {"width_pt": round(w, 2), "height_pt": round(h, 2)}
        measured["page_width_fraction"] = round(w / page_w, 4) if page_w else None
        ppi = None
        placed_w = (placed_size(node) or shown)[0]
        if blob is not None and blob.width_px and placed_w > 0:
            crop = crop_fractions(node.attrs)
            original = node.attrs.get("original_blob")
            keep = 1.0 if isinstance(original, str) and original != blob.sha256 else max(1e-9, 1 - crop.get("left", 0) - crop.get("right", 0))
            ppi = round(blob.width_px * keep / (placed_w / 72.0), 1)
        measured["pixels_per_inch"] = ppi
        failures = []
        for key, limit in bounds.items():
            kind, _, what = key.partition("_")
            field = {"width_pt": "width_pt", "height_pt": "height_pt", "page_width_fraction": "page_width_fraction", "pixels_per_inch": "pixels_per_inch"}[what]
            value = measured[field]
            if value is None:
                failures.append(f"{field} unknown")
            elif (kind == "min" and value < limit) or (kind == "max" and value > limit):
                failures.append(f"{field} {value:g} {'<' if kind == 'min' else '>'} {limit:g}")
        ok = not failures
        passes += ok
        row.update(measured, ok=ok, failures=failures)
        rows.append(row)
    evidence: dict[str, Any] = {"bounds": bounds, "images": rows[:50]}
    if not rows:
        return result(name, passed=False, explanation=f"no image matches {p.target.describe()}", evidence=evidence, mechanism="tolerance")
    passed = passes == len(rows) if p.quantifier == "all" else passes > 0
    bad = next((r for r in rows if not r["ok"]), None)
    explanation = f"{passes} of {len(rows)} image(s) within {bounds}" + (f"; {bad['id']}: {', '.join(bad.get('failures') or [bad.get('reason', '')])}" if bad else "")
    return result(name, passed=passed, score=passes / len(rows) if p.quantifier == "all" else float(passed), explanation=explanation, evidence=evidence, mechanism="tolerance")
