"""Layout boxes for a Google Doc from its Drive PDF export.

The Docs API has no geometry, so the PDF that Drive renders is the ground truth of where
text sits. Boxes come from the shared renderer (``read_layout`` + ``align_text_to_layout``)
exactly as for a .docx rendered by LibreOffice: same alignment, same ``layout`` origin.
Runs get the boxes of their characters; containers the per-page union of their children;
images the placement of the PDF image with the nearest perceptual hash (Drive re-encodes
images, so bytes never match exactly).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from ...model import Box, Node, Page, ToolInfo, union_all
from ...model.blobs import Blob, phash_as_stored

_MAX_PHASH_DISTANCE = 12  # of 64 bits: same picture after Drive's re-encoding and scaling
_LOW_ALIGNMENT = 0.9


def _leaves(root: Node) -> list[tuple[Node, bool]]:
    """Text leaves in document order, with ``repeated`` for header/footer text."""
    out: list[tuple[Node, bool]] = []
    stack: list[tuple[Node, bool]] = [(root, False)]
    while stack:
        node, repeated = stack.pop()
        repeated = repeated or node.kind in ("header", "footer")
        if node.kind == "run" and node.text:
            out.append((node, repeated))
        stack.extend((c, repeated) for c in reversed(node.children))
    return out


def _hamming(a: str, b: str) -> int:
    return (int(a, 16) ^ int(b, 16)).bit_count()


def _attach_images(root: Node, layout: object, blobs: dict[str, Blob]) -> int:
    """Give image nodes the box of their PDF placement; returns how many were placed."""
    pdf_images = list(getattr(layout, "images", []) or [])
    used: set[int] = set()
    placed = 0
    for node in root.iter():
        if node.kind != "image":
            continue
        blob = blobs.get(str(node.attrs.get("blob", "")))
        phash = phash_as_stored(blob) if blob is not None else None  # as the PDF's images are hashed
        if phash is None:
            continue
        best, best_d = None, _MAX_PHASH_DISTANCE + 1
        for i, img in enumerate(pdf_images):
            if i in used or img.phash is None:
                continue
            d = _hamming(phash, img.phash)
            if d < best_d:
                best, best_d = i, d
        if best is not None:
            used.add(best)
            img = pdf_images[best]
            node.boxes = [Box(page=img.page, x0=img.x0, top=img.top, x1=img.x1, bottom=img.bottom, origin="layout")]
            placed += 1
    return placed


def _fill_containers(root: Node) -> None:
    post: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        post.append(n)
        stack.extend(n.children)
    for node in reversed(post):
        if node.children and not node.boxes and node.kind != "document":
            node.boxes = union_all([b for c in node.children for b in c.boxes])


def attach_pdf_layout(
    root: Node,
    pdf: str | Path | bytes,
    *,
    warnings: list[str],
    tools: list[ToolInfo],
    blobs: dict[str, Blob] | None = None,
) -> list[Page]:
    """Attach ``layout`` boxes to the tree from the PDF export; return the PDF's pages."""
    from ..render import TextSpan, align_text_to_layout, read_layout

    with tempfile.TemporaryDirectory(prefix="artifactcheck-gdoc-") as tmp:
        if isinstance(pdf, (bytes, bytearray)):
            pdf_path = Path(tmp) / "export.pdf"
            pdf_path.write_bytes(pdf)
        else:
            pdf_path = Path(pdf)
        layout = read_layout(pdf_path)
    leaves = _leaves(root)
    result = align_text_to_layout([TextSpan(n.id, n.text, repeated=r) for n, r in leaves], layout)
    for node, _ in leaves:
        node.boxes = result.boxes(node.id)
    images = sum(1 for n in root.iter() if n.kind == "image" and n.attrs.get("blob"))  # others are warned about already
    placed = _attach_images(root, layout, blobs or {})
    _fill_containers(root)
    if isinstance(root.attrs, dict):
        root.attrs["layout_text_coverage"] = round(result.aligned_share, 5)
        root.attrs["layout_key_chars"] = result.key_chars
        root.attrs["layout_matched_chars"] = result.matched_chars
    if result.aligned_share < _LOW_ALIGNMENT:
        warnings.append(
            f"only {result.aligned_share:.0%} of the document's text was found in the PDF export; "
            "the export may be older or newer than the API response"
        )
    if images > placed:
        warnings.append(f"{images - placed} of {images} image(s) could not be located in the PDF export")
    tools.append(ToolInfo(name="drive-pdf-export+align", version="1"))
    return [Page(index=p.index, kind="page", width=p.width, height=p.height) for p in layout.pages]
