"""A small in-memory Document with known geometry, for rubric and report tests (the
fixture artifacts under fixtures/tasks cover real files). Page 0 is US Letter
(612 x 792 pt): a logo image in the upper-left, a title paragraph near the top, and a
photo that has no box (so geometry checks on it report an evaluator error)."""

from __future__ import annotations

from artifactcheck.extractors.tree_builder import fill_container_text
from artifactcheck.model import ArtifactInfo, Box, Document, Node, Page


def letter_doc() -> Document:
    logo = Node(id="body/p0/img0", kind="image", boxes=[Box(page=0, x0=36, top=36, x1=136, bottom=96)])
    title = Node(
        id="body/p1",
        kind="paragraph",
        attrs={"style_name": "Title"},
        boxes=[Box(page=0, x0=72, top=110, x1=540, bottom=140)],
        children=[Node(id="body/p1/r0", kind="run", text="Quarterly letter", boxes=[Box(page=0, x0=72, top=110, x1=300, bottom=140)])],
    )
    photo = Node(id="body/p2/img0", kind="image", attrs={"name": "photo"})
    root = Node(id="doc", kind="document", children=[logo, title, photo])
    fill_container_text(root)
    return Document(
        artifact=ArtifactInfo(format="docx", platform="office", sha256="0" * 64, size_bytes=1, path="letter.docx"),
        pages=[Page(index=0, kind="page", width=612, height=792)],
        root=root,
    )
