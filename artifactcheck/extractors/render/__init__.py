"""Rendering: Office file -> PDF (LibreOffice, cached) -> layout, page images, and the
alignment of a tree's text to the rendered characters that gives flowing documents
(.docx) their boxes.

Public API (units: points, origin top-left of each page, y down; pixels only in images):

- :class:`Renderer` (protocol) and :class:`LibreOfficeRenderer`
- :func:`render_pdf` -> :class:`RenderedPDF` (content-addressed cache)
- :func:`read_layout` -> :class:`PdfLayout` (pages, chars, words, lines, images, structure)
- :func:`page_image` / :func:`page_images` (pypdfium2 bitmaps; :func:`pt_to_px`)
- :func:`align_text_to_layout` -> :class:`AlignmentResult`

See design/rendering.md and design/text-alignment.md.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .align import AlignmentResult, SpanAlignment, TextSpan, align_text_to_layout
    from .cache import RenderedPDF, cache_dir, render_pdf
    from .images import page_image, page_images, pt_to_px, px_to_pt
    from .layout import (
        PageLayout,
        PdfChar,
        PdfImage,
        PdfLayout,
        PdfLine,
        PdfWord,
        StructElement,
        read_layout,
    )
    from .renderer import LibreOfficeRenderer, Renderer, soffice_version

# Imported on first use (PEP 562): a command that only asks which renderer to use
# (``selection.renderer_mode``) or a deck whose layout is never needed must not pay for
# numpy and pypdfium2 (~0.3 s; design/startup.md).
_LAZY: dict[str, str] = {
    **dict.fromkeys(("AlignmentResult", "SpanAlignment", "TextSpan", "align_text_to_layout"), "align"),
    **dict.fromkeys(("RenderedPDF", "cache_dir", "render_pdf"), "cache"),
    **dict.fromkeys(("page_image", "page_images", "pt_to_px", "px_to_pt"), "images"),
    **dict.fromkeys(("PageLayout", "PdfChar", "PdfImage", "PdfLayout", "PdfLine", "PdfWord", "StructElement", "read_layout"), "layout"),
    **dict.fromkeys(("LibreOfficeRenderer", "Renderer", "soffice_version"), "renderer"),
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    value = getattr(import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


__all__ = [
    "AlignmentResult",
    "LibreOfficeRenderer",
    "PageLayout",
    "PdfChar",
    "PdfImage",
    "PdfLayout",
    "PdfLine",
    "PdfWord",
    "RenderedPDF",
    "Renderer",
    "SpanAlignment",
    "StructElement",
    "TextSpan",
    "align_text_to_layout",
    "cache_dir",
    "page_image",
    "page_images",
    "pt_to_px",
    "px_to_pt",
    "read_layout",
    "render_pdf",
    "soffice_version",
]
