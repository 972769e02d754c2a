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

from ...model import Blob, Node
from ...model.crop import crop_fractions, cropped_blob


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
            original = blobs.get(sha)
            what = f"picture {original.name if original is not None else sha[:12]}"
            shown = cropped_blob(original, fractions, blobs, warnings, what=what)
            done[key] = shown.sha256 if shown is not None else None
        cropped = done[key]
        if cropped is not None:
            node.attrs["original_blob"] = sha
            node.attrs["blob"] = cropped

