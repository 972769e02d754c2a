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

from ...digest import file_digest
from ...errors import ArtifactCheckError, RenderError
from ...model import Document, ToolInfo
from ..render import read_layout, render_pdf
from ..render.slide_layout import lay_out_slides
from ..render.slides import paints_frame, resizes_to_text


def attach_pptx_layout(doc: Document, path: Path, *, timeout: float = 120) -> None:
    """Render ``path`` (cached) and give the text of ``doc`` its drawn boxes, in place.
    Raises RenderError/RenderTimeout/MissingDependency when there is no render."""
    if not path.is_file() or file_digest(path).sha256 != doc.artifact.sha256:
        # The render must be of the bytes the tree was read from.
        raise RenderError("the file changed or went away since it was loaded; load it again", path=path)
    rendered = render_pdf(path, timeout=timeout)
    try:
        # Painted paths are read only when a visible frame is resized to its text: they
        # say where LibreOffice drew it (render/slides.py, grown_frame).
        layout = read_layout(rendered.pdf_path, images=False, rules=_has_visible_resized_frame(doc))
        doc.tools.append(ToolInfo(name=rendered.renderer_name, version=rendered.renderer_version))
        lay_out_slides(doc, layout, source=rendered.renderer_name)
    except ArtifactCheckError:
        raise
    except Exception as exc:
        raise RenderError(f"cannot lay out the rendered slides: {type(exc).__name__}: {exc}", path=path) from exc


def _has_visible_resized_frame(doc: Document) -> bool:
    return any(resizes_to_text(n) and paints_frame(n) for n in doc.iter() if n.kind in ("shape", "textbox"))
