"""Drawn text boxes for a .pptx tree from its LibreOffice render (design/pptx-geometry.md,
"Text where it is drawn").

Deferred: ``extract_pptx`` registers :func:`attach_pptx_layout` on the Document, and it
runs on the first ``doc.ensure_layout()`` (a check that judges where text is drawn asks
for it), so an extraction nobody asks layout of never starts LibreOffice (nor imports
the render machinery).
The render goes through the content-addressed cache (``render_pdf``), like a .docx.
"""

from __future__ import annotations

from pathlib import Path

from ...errors import ArtifactCheckError, RenderError
from ...model import Document, ToolInfo
from ..render import read_layout, render_pdf
from ..render.slides import attach_slide_text, slide_pdf_pages
from ..render.table_rows import fit_table_rows

_PAGE_SIZE_TOLERANCE_PT = 1.0


def attach_pptx_layout(doc: Document, path: Path, *, timeout: float = 120) -> None:
    """Render ``path`` (cached) and give the text of ``doc`` its drawn boxes, in place.
    Raises RenderError/RenderTimeout/MissingDependency when there is no render."""
    rendered = render_pdf(path, timeout=timeout)
    try:
        layout = read_layout(rendered.pdf_path, images=False)
        doc.tools.append(ToolInfo(name=rendered.renderer_name, version=rendered.renderer_version))
        doc.root.attrs["layout_source"] = rendered.renderer_name
        pages = slide_pdf_pages(doc, len(layout.pages))
        if pages is None:
            doc.warnings.append(
                f"the render has {len(layout.pages)} page(s) for {len(doc.pages)} slide(s); "
                "text keeps its frame boxes (native)"
            )
            return
        for slide, page in pages.items():
            want, got = doc.pages[slide], layout.pages[page]
            if abs(want.width - got.width) > _PAGE_SIZE_TOLERANCE_PT or abs(want.height - got.height) > _PAGE_SIZE_TOLERANCE_PT:
                doc.warnings.append(
                    f"slide {slide} is {want.width:.1f} x {want.height:.1f} pt but its rendered page is "
                    f"{got.width:.1f} x {got.height:.1f} pt; drawn boxes may be off"
                )
                break
        stats = attach_slide_text(doc, layout, pages)
        fit_table_rows(doc)
    except ArtifactCheckError:
        raise
    except Exception as exc:
        raise RenderError(f"cannot lay out the rendered slides: {type(exc).__name__}: {exc}", path=path) from exc
    if stats.slides_missing:
        doc.warnings.append(
            f"slide(s) {', '.join(str(i) for i in stats.slides_missing)} are hidden and not in the render; "
            "their text keeps its frame boxes (native)"
        )
