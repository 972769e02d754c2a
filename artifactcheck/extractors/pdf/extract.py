"""A PDF (an agent's export) as a tree: pages, paragraphs, lines and words with boxes,
images with boxes and hashes, links. Geometry, text and images are read by
``render/layout.py`` (pypdfium2, the reader the .docx alignment uses), so a PDF an agent
exported and a PDF LibreOffice rendered are read the same way.

Tree (design/pdf.md)::

    document
      page "p0"                     one per PDF page; box = the page (crop box)
        paragraph "p0/b0"           consecutive lines read as one block (blocks.py)
          line "p0/b0/l0"           a text line as pdfium reads it
            run "p0/b0/l0/w0"       one word: box, effective style (font family, size,
                                    bold, italic from the font), hyperlink when a link
                                    annotation covers it
        image "p0/i0"               an image placement: box, blob (bytes, hashes)

Page links are also listed in ``Page.attrs["links"]`` (every link annotation, with its
box and target), so a link over a picture or empty space is not lost.
"""

from __future__ import annotations

import hashlib
from importlib import metadata
from pathlib import Path
from typing import Any

import pypdfium2 as pdfium

from ...digest import file_digest
from ...errors import ArtifactCheckError, ArtifactTooLarge, CorruptArtifact, EncryptedArtifact
from ...model import (
    ArtifactInfo,
    Blob,
    Box,
    Document,
    Node,
    Page,
    Style,
    ToolInfo,
    describe_image,
    union_all,
)
from ..render.layout import PdfImage, PdfLayout, PdfLine, PdfWord, font_facts, read_layout
from ..render.pdfium_lock import PDFIUM_LOCK
from ..tree_builder import fill_container_text
from .blocks import group_lines
from .links import PdfLink, read_links

__all__ = ["MAX_PDF_PAGES", "extract_pdf"]

MAX_PDF_PAGES = 5_000  # more is not an agent's export; refuse rather than run for minutes
_TAIL_BYTES = 64 * 1024  # where %%EOF must be (writers put it last; some append a little)
_PDFIUM_PASSWORD_ERROR = 4  # FPDF_ERR_PASSWORD


def extract_pdf(path: str | Path, *, ocr: bool = False, lang: str = "eng", ocr_dpi: int = 300, **options: Any) -> Document:
    """Read a PDF into a Document (see the module docstring).

    ``ocr=True``: pages without a text layer (scans) get the words tesseract reads on the
    page rendered at ``ocr_dpi`` (paragraph/line/run nodes with ``ocr`` boxes; ``lang``:
    tesseract languages). Other options are accepted for API symmetry with the Office
    extractors and ignored (a PDF needs no rendering).

    Raises ``EncryptedArtifact`` (a password is needed to open it), ``CorruptArtifact``
    (not a whole PDF: truncated, unreadable, no pages) or ``ArtifactTooLarge``.
    """
    p = Path(path)
    _check_file(p)
    producer, links, rotations = _read_document(p)
    try:
        layout = read_layout(p, image_data=True)
    except ArtifactCheckError as exc:  # RenderError from the shared reader: the file is at fault
        raise CorruptArtifact(str(exc).removeprefix(f"{exc.path}: "), path=p) from None
    digest = file_digest(p)
    blobs: dict[str, Blob] = {}
    warnings: list[str] = []
    pages: list[Page] = []
    page_nodes: list[Node] = []
    lines_by_page = _by_page(layout.lines, len(layout.pages))
    words_by_page = _by_page(layout.words, len(layout.pages))
    images_by_page = _by_page(layout.images, len(layout.pages))
    for pl in layout.pages:
        rotation = rotations[pl.index]
        page_links = links[pl.index]
        attrs: dict[str, Any] = {"rotation": rotation, "links": [_link_attrs(k) for k in page_links]}
        pages.append(Page(index=pl.index, kind="page", width=pl.width, height=pl.height, attrs=attrs))
        if rotation:
            warnings.append(f"page {pl.index + 1} is rotated {rotation} degrees: boxes are in the unrotated page space")
        node = Node(
            id=f"p{pl.index}",
            kind="page",
            boxes=[Box(page=pl.index, x0=0, top=0, x1=pl.width, bottom=pl.height)],
            source=f"page {pl.index + 1}",
        )
        node.children.extend(_text_nodes(layout, pl.index, lines_by_page[pl.index], words_by_page[pl.index], page_links))
        for k, image in enumerate(images_by_page[pl.index]):
            node.children.append(_image_node(image, f"p{pl.index}/i{k}", page_links, blobs, warnings))
        page_nodes.append(node)
    tools = [
        ToolInfo(name="pypdfium2", version=metadata.version("pypdfium2")),
        ToolInfo(name="artifactcheck.pdf", version=metadata.version("artifactcheck")),
    ]
    if ocr:
        tools.append(_ocr_scanned_pages(p, pages, page_nodes, lang=lang, dpi=ocr_dpi))
    if layout.pages and not layout.text.strip() and not ocr:
        warnings.append("the PDF has no text layer (a scan or outlined text): text checks see nothing; OCR checks read the pages")
    root = Node(id="doc", kind="document", children=page_nodes)
    fill_container_text(root)
    return Document(
        artifact=ArtifactInfo(
            format="pdf",
            platform="office",
            sha256=digest.sha256,
            size_bytes=digest.size_bytes,
            path=str(p),
            producer=producer,
        ),
        pages=pages,
        root=root,
        blobs=blobs,
        tools=tools,
        warnings=warnings,
    )


def _ocr_scanned_pages(p: Path, pages: list[Page], page_nodes: list[Node], *, lang: str, dpi: int) -> ToolInfo:
    """Add OCR words to every page that has no text of its own."""
    from ..ocr import default_engine
    from ..ocr.words import ocr_nodes
    from ..render.images import page_image

    engine = default_engine()
    for page, node in zip(pages, page_nodes, strict=True):
        if any(child.kind == "paragraph" for child in node.children):
            continue
        result = engine.ocr(page_image(p, page.index, dpi=dpi), lang=lang)
        node.children.extend(ocr_nodes(result, page=page.index, page_width=page.width, page_height=page.height, prefix=node.id))
    return ToolInfo(name="tesseract", version=engine.version())


# -- opening ------------------------------------------------------------------------------


def _check_file(p: Path) -> None:
    if not p.is_file():
        raise CorruptArtifact("no such file", path=p)
    size = p.stat().st_size
    with p.open("rb") as fh:
        head = fh.read(1024)
        fh.seek(max(0, size - _TAIL_BYTES))
        tail = fh.read()
    if b"%PDF-" not in head:
        raise CorruptArtifact("not a PDF (no %PDF- header in the first 1024 bytes)", path=p)
    if b"%%EOF" not in tail:
        # pdfium would "repair" the file and show the pages it could find: a truncated
        # export would pass as a shorter, whole document.
        raise CorruptArtifact("the PDF is truncated (no %%EOF at its end)", path=p)


def _read_document(p: Path) -> tuple[str | None, list[list[PdfLink]], list[int]]:
    """Producer, links per page and page rotations (degrees), with typed errors for
    files pdfium cannot open."""
    with PDFIUM_LOCK:  # pdfium is not thread-safe (render/pdfium_lock.py)
        return _read_document_unlocked(p)


def _read_document_unlocked(p: Path) -> tuple[str | None, list[list[PdfLink]], list[int]]:
    try:
        doc = pdfium.PdfDocument(str(p))
    except pdfium.PdfiumError as exc:
        if getattr(exc, "err_code", None) == _PDFIUM_PASSWORD_ERROR:
            raise EncryptedArtifact(
                "the PDF is password-protected; save it without a password first", path=p
            ) from None
        raise CorruptArtifact(f"pdfium cannot open the PDF: {exc}", path=p) from None
    except OSError as exc:
        raise CorruptArtifact(f"cannot read the PDF: {exc}", path=p) from None
    try:
        n = len(doc)
        if n == 0:
            raise CorruptArtifact("the PDF has no pages", path=p)
        if n > MAX_PDF_PAGES:
            raise ArtifactTooLarge(f"{n} pages (limit {MAX_PDF_PAGES})", path=p)
        meta = doc.get_metadata_dict(skip_empty=True)
        producer = " / ".join(v for v in (meta.get("Creator"), meta.get("Producer")) if v) or None
        links: list[list[PdfLink]] = []
        rotations: list[int] = []
        for index in range(n):
            page = doc[index]
            try:
                left, _, _, top = page.get_cropbox()
                links.append(read_links(doc, page, index, left, top))
                rotations.append(int(page.get_rotation()))
            finally:
                page.close()
        return producer, links, rotations
    finally:
        doc.close()


def _by_page(items: list[Any], n_pages: int) -> list[list[Any]]:
    out: list[list[Any]] = [[] for _ in range(n_pages)]
    for item in items:
        out[item.page].append(item)
    return out


# -- text ---------------------------------------------------------------------------------


def _text_nodes(
    layout: PdfLayout, page: int, lines: list[PdfLine], words: list[PdfWord], links: list[PdfLink]
) -> list[Node]:
    """Paragraph nodes of one page: lines grouped (blocks.py), words as runs."""
    chars = layout.chars
    words_of: list[list[PdfWord]] = [[] for _ in lines]
    k = 0
    for w in words:  # both in stream order: a word lies within exactly one line
        while k < len(lines) and lines[k].end <= w.start:
            k += 1
        if k < len(lines):
            words_of[k].append(w)
    sizes = [max((chars[w.start].size for w in ws), default=0.0) for ws in words_of]
    out: list[Node] = []
    for b, group in enumerate(group_lines(lines, sizes)):
        pid = f"p{page}/b{b}"
        line_nodes = []
        for li, i in enumerate(group):
            line = lines[i]
            lid = f"{pid}/l{li}"
            runs = [_word_node(layout, w, f"{lid}/w{wi}", links) for wi, w in enumerate(words_of[i])]
            line_nodes.append(
                Node(id=lid, kind="line", text=" ".join(r.text for r in runs), boxes=[_box(line)], children=runs)
            )
        para = Node(
            id=pid,
            kind="paragraph",
            text=" ".join(n.text for n in line_nodes),
            boxes=union_all([n.boxes[0] for n in line_nodes]),
            attrs={"lines": len(line_nodes)},
            children=line_nodes,
        )
        out.append(para)
    return out


def _word_node(layout: PdfLayout, word: PdfWord, node_id: str, links: list[PdfLink]) -> Node:
    first = layout.chars[word.start]
    facts = font_facts(first.font)
    style = Style(
        font=(facts.family if facts else first.font) or None,
        size=round(first.size, 2) if first.size > 0 else None,
        bold=facts.bold if facts else None,
        italic=facts.italic if facts else None,
    )
    attrs: dict[str, Any] = {"font_name": first.font}
    link = _covering_link(word, links)
    if link is not None and link.url:
        attrs["hyperlink"] = link.url
    return Node(id=node_id, kind="run", text=word.text, style=style, boxes=[_box(word)], attrs=attrs)


def _covering_link(item: PdfWord | PdfImage, links: list[PdfLink]) -> PdfLink | None:
    """The link whose rectangle holds the centre of ``item`` (annotations are drawn
    around the text they link, often a point or two larger)."""
    cx, cy = (item.x0 + item.x1) / 2, (item.top + item.bottom) / 2
    for link in links:
        if link.x0 <= cx <= link.x1 and link.top <= cy <= link.bottom:
            return link
    return None


# -- images -------------------------------------------------------------------------------


def _image_node(image: PdfImage, node_id: str, links: list[PdfLink], blobs: dict[str, Blob], warnings: list[str]) -> Node:
    attrs: dict[str, Any] = {"width_px": image.width_px, "height_px": image.height_px}
    if image.data is not None and image.mime is not None:
        blob = blobs.get(_sha(image.data))
        if blob is None:
            blob = describe_image(image.data, mime=image.mime, name=node_id)
            blobs[blob.sha256] = blob
        attrs["blob"] = blob.sha256
        attrs["pixel_sha256"] = image.pixel_sha256
        attrs["embedded_as"] = "file" if image.mime != "image/png" else "decoded pixels (PNG)"
    else:
        reason = f"{image.width_px}x{image.height_px} px: not decoded (pixel limit) or undecodable"
        attrs["decode_error"] = reason
        warnings.append(f"image {node_id}: {reason}")
    link = _covering_link(image, links)
    if link is not None and link.url:
        attrs["hyperlink"] = link.url
    return Node(id=node_id, kind="image", boxes=[_box(image)], attrs=attrs, source=f"page {image.page + 1} image")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# -- boxes --------------------------------------------------------------------------------


def _box(item: PdfLine | PdfWord | PdfImage) -> Box:
    x0, x1 = sorted((item.x0, item.x1))
    top, bottom = sorted((item.top, item.bottom))
    return Box(page=item.page, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")


def _link_attrs(link: PdfLink) -> dict[str, Any]:
    return {
        "url": link.url,
        "kind": link.kind,
        "target_page": link.target_page,
        "box": [round(link.x0, 2), round(link.top, 2), round(link.x1, 2), round(link.bottom, 2)],
    }
