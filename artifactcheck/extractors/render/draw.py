"""Page PNGs with every node's box drawn on them (``artifactcheck render``), so a person
can see at a glance whether the boxes are right.

Boxes are in points, top-left origin; a page image at ``dpi`` maps a point to
``dpi / 72`` pixels (images.py). A node's box is drawn on the rendered page with the same
index, except where the Document's pages and the rendered pages do not correspond:
hidden slides are skipped by LibreOffice's PDF export (visible slides are matched in
order), and a spreadsheet's sheet canvases are not its printed pages (the pages are then
written without boxes).
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

from ...model import Document
from .cache import render_pdf
from .images import page_images, pt_to_px
from .layout import read_layout

__all__ = ["KIND_COLOURS", "draw_document_boxes", "write_box_pages"]

KIND_COLOURS: dict[str, tuple[int, int, int]] = {
    "paragraph": (31, 119, 180),
    "run": (174, 199, 232),
    "table": (214, 39, 40),
    "row": (255, 152, 150),
    "cell": (255, 127, 14),
    "image": (44, 160, 44),
    "shape": (148, 103, 189),
    "group": (197, 176, 213),
    "chart": (140, 86, 75),
    "header": (227, 119, 194),
    "footer": (227, 119, 194),
    "note": (127, 127, 127),
}
_DEFAULT_COLOUR = (188, 189, 34)
_SKIP_KINDS = {"document", "page", "slide", "sheet"}


def _page_map(doc: Document, rendered_sizes: list[tuple[float, float]]) -> dict[int, int] | None:
    """Document page index -> rendered page index, or None when they do not correspond."""
    if doc.artifact.format in ("docx", "gdoc"):
        return {i: i for i in range(len(rendered_sizes))}
    visible = [p for p in doc.pages if not p.hidden]
    if len(visible) != len(rendered_sizes):
        return None
    for page, (w, h) in zip(visible, rendered_sizes):
        if abs(page.width - w) > 1.5 or abs(page.height - h) > 1.5:
            return None
    return {p.index: k for k, p in enumerate(visible)}


def draw_document_boxes(
    doc: Document, image: Image.Image, doc_page: int, *, dpi: int, line_width: int = 2
) -> Image.Image:
    """Draw the boxes of ``doc`` that lie on ``doc_page`` onto ``image`` (in place)."""
    draw = ImageDraw.Draw(image)
    for node in doc.root.iter():
        if node.kind in _SKIP_KINDS:
            continue
        colour = KIND_COLOURS.get(node.kind, _DEFAULT_COLOUR)
        width = 1 if node.kind == "run" else line_width
        for box in node.boxes:
            if box.page != doc_page:
                continue
            if box.polygon is not None:
                pts = [(pt_to_px(x, dpi), pt_to_px(y, dpi)) for x, y in box.polygon]
                draw.polygon(pts, outline=colour, width=width)
            else:
                draw.rectangle(
                    (pt_to_px(box.x0, dpi), pt_to_px(box.top, dpi), pt_to_px(box.x1, dpi), pt_to_px(box.bottom, dpi)),
                    outline=colour,
                    width=width,
                )
    return image


def write_box_pages(doc: Document, path: Path, out_dir: Path, *, dpi: int = 100, timeout: float = 120) -> list[Path]:
    """Render ``path`` (the file ``doc`` was loaded from) and write ``page-NNN.png``
    files with ``doc``'s boxes drawn. Returns the written files; raises the renderer's
    typed errors."""
    path = Path(path)
    doc.ensure_layout()  # a slide deck's text where it is drawn (the same cached render)
    pdf = render_pdf(path, timeout=timeout).pdf_path
    sizes = [(p.width, p.height) for p in read_layout(pdf, images=False).pages]
    mapping = _page_map(doc, sizes)
    reverse = {v: k for k, v in mapping.items()} if mapping is not None else {}
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for index, image in enumerate(page_images(pdf, dpi)):
        if index in reverse:
            draw_document_boxes(doc, image, reverse[index], dpi=dpi)
        target = out_dir / f"page-{index + 1:03d}.png"
        image.save(target)
        written.append(target)
    return written
