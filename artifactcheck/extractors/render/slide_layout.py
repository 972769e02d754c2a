"""A slide deck laid out from a PDF of itself, one page per slide: a LibreOffice render
of a .pptx, or Drive's PDF export of a Google Slides deck (design/pptx-geometry.md,
"Text where it is drawn"). The text's drawn boxes come from :mod:`.slides`, table rows
sized from them from :mod:`.table_rows`."""

from __future__ import annotations

from ...model import Document
from .layout import PdfLayout
from .slides import SlideTextStats, attach_slide_text
from .table_rows import fit_table_rows

__all__ = ["lay_out_slides", "slide_pdf_pages"]

_PAGE_SIZE_TOLERANCE_PT = 1.0  # a PDF page differing more from its slide is warned about


def slide_pdf_pages(doc: Document, pdf_pages: int) -> dict[int, int] | None:
    """Slide index -> PDF page index. One page per slide; or, when the PDF left hidden
    slides out (LibreOffice's default), one page per visible slide in order. None when
    neither fits (the PDF is not of this deck)."""
    slides = [p for p in doc.pages if p.kind == "slide"]
    if pdf_pages == len(slides):
        return {p.index: i for i, p in enumerate(slides)}
    visible = [p.index for p in slides if not p.hidden]
    if pdf_pages == len(visible):
        return {s: i for i, s in enumerate(visible)}
    return None


def lay_out_slides(doc: Document, layout: PdfLayout, *, source: str) -> SlideTextStats | None:
    """Everything a slide deck takes from a PDF of itself (``source`` names the PDF's
    maker, recorded as ``layout_source`` on the document node): the slides' pages, the
    text's drawn boxes (:func:`attach_slide_text`) and table rows sized from them
    (:func:`~artifactcheck.extractors.render.table_rows.fit_table_rows`). None, with a
    warning, when the PDF's pages are not the deck's slides."""
    doc.root.attrs["layout_source"] = source
    pages = slide_pdf_pages(doc, len(layout.pages))
    if pages is None:
        doc.warnings.append(
            f"the {source} PDF has {len(layout.pages)} page(s) for {len(doc.pages)} slide(s); "
            "text keeps its frame boxes (native)"
        )
        return None
    for slide, page in pages.items():
        want, got = doc.pages[slide], layout.pages[page]
        if abs(want.width - got.width) > _PAGE_SIZE_TOLERANCE_PT or abs(want.height - got.height) > _PAGE_SIZE_TOLERANCE_PT:
            doc.warnings.append(
                f"slide {slide} is {want.width:.1f} x {want.height:.1f} pt but its page in the {source} PDF is "
                f"{got.width:.1f} x {got.height:.1f} pt; drawn boxes may be off"
            )
            break
    stats = attach_slide_text(doc, layout, pages)
    fit_table_rows(doc)
    if stats.slides_missing:
        doc.warnings.append(
            f"slide(s) {', '.join(str(i) for i in stats.slides_missing)} are not in the {source} PDF "
            "(hidden slides are left out); their text keeps its frame boxes (native)"
        )
    return stats
