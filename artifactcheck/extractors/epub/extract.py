"""An EPUB as a Document: the spine's content documents in reading order, each read into
paragraphs, runs, pictures and tables (``content.py``), one flat body as a .docx has, so
text checks, selectors and ``compare_document`` work unchanged.

Tree::

    document                      attrs: title, language, epub_version (the OPF's)
      paragraph "c0/p1"           attrs: part (the chapter's zip member), heading_level, list_level...
        run "c0/p1/r0"            style: bold/italic/underline/strike/baseline as HTML states them; hyperlink
        image "c0/img2"           blob, alt_text, image_part
      table "c1/t3"  > row > cell > paragraph

An EPUB is reflowable: it has no pages until a reading system lays it out, and nothing
here renders it, so the Document has no pages and no node has a box
(``ArtifactInfo.layout == "none"``); page and position checks end in ``error``.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path
from typing import Any

from ...digest import file_digest
from ...model import ArtifactInfo, Blob, Document, Node, ToolInfo
from ..tree_builder import fill_container_text, make_node
from .content import ContentReader
from .package import XHTML_TYPES, open_epub

__all__ = ["extract_epub"]


def extract_epub(path: str | Path, **options: Any) -> Document:
    """Read an EPUB (2 or 3) into a Document (see the module docstring). Options are
    accepted for API symmetry and ignored (there is nothing to render).

    Raises CorruptArtifact (broken zip or container, missing package document or spine
    item, malformed XML), EncryptedArtifact (DRM), ArtifactTooLarge (zip bombs, the
    element and node budgets), UnsupportedFormat (no XHTML in the spine)."""
    p = Path(path)
    package = open_epub(p)
    blobs: dict[str, Blob] = {}
    warnings: list[str] = []
    body: list[Node] = []
    try:
        reader = ContentReader(package, blobs, warnings)
        for index, item in enumerate(package.spine):
            if item.media_type not in XHTML_TYPES:
                warnings.append(f"spine item {item.part} ({item.media_type or 'no media type'}) is not XHTML; not read")
                continue
            body.extend(reader.read(index, item.part))
    finally:
        package.zf.close()
    attrs = {"title": package.title, "language": package.language, "epub_version": package.version}
    root = make_node("doc", "document", attrs={k: v for k, v in attrs.items() if v is not None}, children=body)
    fill_container_text(root)
    digest = file_digest(p)
    return Document(
        artifact=ArtifactInfo(
            format="epub", platform="office", sha256=digest.sha256, size_bytes=digest.size_bytes,
            path=str(p), layout="none",
        ),
        pages=[],
        root=root,
        blobs=blobs,
        tools=[ToolInfo(name="lxml", version=metadata.version("lxml"))],
        warnings=warnings,
    )

