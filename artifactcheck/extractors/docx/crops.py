"""A cropped .docx picture's image is the part its page shows.

Word crops a picture with ``a:srcRect`` and stores the whole original; a person sees the
kept part only. The checks that compare pixels (``image_matches``, ``images_unique``,
``image_crop_of``) read the node's ``blob``, so it becomes the cropped image (PNG, one
blob per crop) and the file's image stays as ``original_blob``, as the .pptx extractor
does. The layout matches the PDF by ``original_blob``: LibreOffice embeds the whole
original and clips it. Vector and undecodable pictures keep their original (their
``crop`` attribute still says what is cut).
"""

from __future__ import annotations

from ...model import Blob, Node, describe_image
from ...model.crop import crop_fractions, crop_image_bytes


def show_cropped_pictures(root: Node, blobs: dict[str, Blob], warnings: list[str]) -> None:
    """Give every cropped raster picture under ``root`` its cropped blob (see the module
    docstring); a picture whose crop fails keeps its original, with a warning."""
    done: dict[tuple[str, tuple[tuple[str, float], ...]], str | None] = {}
    for node in root.iter():
        if node.kind != "image":
            continue
        sha, fractions = node.attrs.get("blob"), crop_fractions(node.attrs)
        if not fractions or not isinstance(sha, str):
            continue
        key = (sha, tuple(sorted(fractions.items())))
        if key not in done:
            done[key] = _cropped(blobs.get(sha), fractions, blobs, warnings)
        cropped = done[key]
        if cropped is not None:
            node.attrs["original_blob"] = sha
            node.attrs["blob"] = cropped


def _cropped(original: Blob | None, fractions: dict[str, float], blobs: dict[str, Blob], warnings: list[str]) -> str | None:
    if original is None or original.data is None or original.decode_error:
        return None
    try:
        data = crop_image_bytes(original.data, fractions, what=f"picture {original.name}")
    except Exception as exc:  # noqa: BLE001 - a decoder failure is a warning, not a crash
        warnings.append(f"picture {original.name} could not be cropped: {type(exc).__name__}: {exc}")
        return None
    if data is None:
        return None
    stem = (original.name or "picture").rsplit(".", 1)[0]
    blob = describe_image(data, mime="image/png", name=f"{stem}-cropped.png")
    blobs.setdefault(blob.sha256, blob)
    return blob.sha256
