"""Is the artifact's picture the reference's picture? The same decision ``image_matches``
makes for a reference image file, made here between two stored blobs.

``pixels``: identical bytes or identical decoded pixels (OSWorld's
``compare_docx_images``: a re-encoded copy of the same pixels still counts).
``identity``: that, or the aligned perceptual comparison of ``checks/image/identity.py``
with ``image_matches``' default thresholds (a resized or recompressed copy counts, a
look-alike does not; design/checks-geometry.md, "Image identity").
"""

from __future__ import annotations

import threading
from typing import Literal

from ...model import Blob, Document, Node
from ...model.blobs import decode_image
from ..image.identity import compare_pixels
from ..image.match import (
    DEFAULT_CONSENSUS,
    DEFAULT_MAX_COLOR_DELTA,
    DEFAULT_MAX_DISTANCE,
    DEFAULT_MIN_LOCAL_SSIM,
    DEFAULT_MIN_SSIM,
    DEFAULT_MIN_TILE_SSIM,
    same_pixels,
)

ImageMatch = Literal["identity", "pixels"]
UNSTORED_IMAGE_KEYS = ("linked_url", "linked_image", "image_link", "missing_image", "image_missing", "drawing")
"""What tells two pictures apart when neither file stores their bytes (linked, missing)."""

_CACHE: dict[tuple[str, str, str], tuple[bool, str]] = {}
_LOCK = threading.Lock()


def nodes_show_same_picture(
    reference: Document, a: Node, artifact: Document, b: Node, method: ImageMatch, *, key: str = "blob"
) -> tuple[bool, str]:
    """Whether node ``a`` of the reference and ``b`` of the artifact show the same picture
    (``key``: the attribute naming the blob, ``background_blob`` for slide backgrounds).
    Two pictures neither file stores (a linked picture, a missing part) are the same when
    they point at the same thing."""
    ref_sha, art_sha = a.attrs.get(key), b.attrs.get(key)
    ref_blob = reference.blobs.get(ref_sha) if isinstance(ref_sha, str) else None
    art_blob = artifact.blobs.get(art_sha) if isinstance(art_sha, str) else None
    if ref_blob is None and art_blob is None:
        ka = {k: a.attrs.get(k) for k in UNSTORED_IMAGE_KEYS if a.attrs.get(k) is not None}
        kb = {k: b.attrs.get(k) for k in UNSTORED_IMAGE_KEYS if b.attrs.get(k) is not None}
        return ka == kb, f"neither file stores the picture; compared by {', '.join(sorted(ka)) or 'its absence'}"
    return same_picture(ref_blob, art_blob, method)


def same_picture(reference: Blob | None, artifact: Blob | None, method: ImageMatch) -> tuple[bool, str]:
    """Whether the two stored pictures are the same, and how that was decided."""
    if reference is None or artifact is None:
        return False, "no stored image on " + ("the reference's side" if reference is None else "the artifact's side")
    if reference.sha256 == artifact.sha256:
        return True, "identical bytes"
    key = (reference.sha256, artifact.sha256, method)
    with _LOCK:
        found = _CACHE.get(key)
    if found is None:
        found = _decide(reference, artifact, method)
        with _LOCK:
            if len(_CACHE) > 1024:
                _CACHE.clear()
            _CACHE[key] = found
    return found


def _decide(reference: Blob, artifact: Blob, method: ImageMatch) -> tuple[bool, str]:
    if reference.data is None or artifact.data is None:
        return False, "the image bytes are not stored"
    if (reference.width_px, reference.height_px) == (artifact.width_px, artifact.height_px) and same_pixels(
        reference.data, artifact.data
    ):
        return True, "identical pixels"
    if method == "pixels":
        return False, "different pixels"
    try:
        found = compare_pixels(
            decode_image(reference.data, mode="RGBA", what="reference image"),
            decode_image(artifact.data, mode="RGBA", what="artifact image"),
        )
    except Exception as exc:  # noqa: BLE001 - undecodable bytes are not the same picture; say why
        return False, f"cannot compare pixels: {type(exc).__name__}: {exc}"
    failed = []
    agree = found.consensus(DEFAULT_MAX_DISTANCE)
    if agree < DEFAULT_CONSENSUS:
        failed.append(f"{agree} of 3 hashes within {DEFAULT_MAX_DISTANCE} bits")
    if found.ssim < DEFAULT_MIN_SSIM:
        failed.append(f"SSIM {found.ssim:.3f} < {DEFAULT_MIN_SSIM:g}")
    if found.ssim_worst_tile < DEFAULT_MIN_TILE_SSIM:
        failed.append(f"worst tile SSIM {found.ssim_worst_tile:.3f} < {DEFAULT_MIN_TILE_SSIM:g}")
    if found.color_delta > DEFAULT_MAX_COLOR_DELTA:
        failed.append(f"colour difference {found.color_delta:.1f} > {DEFAULT_MAX_COLOR_DELTA:g}")
    if found.ssim_low < DEFAULT_MIN_LOCAL_SSIM:
        failed.append(f"local SSIM {found.ssim_low:.3f} < {DEFAULT_MIN_LOCAL_SSIM:g} (a detail differs)")
    summary = f"SSIM {found.ssim:.3f}, worst tile {found.ssim_worst_tile:.3f}, colour difference {found.color_delta:.1f}"
    if failed:
        return False, "another picture: " + "; ".join(failed)
    return True, f"the same picture ({summary})"
