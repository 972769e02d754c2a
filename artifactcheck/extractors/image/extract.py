"""A standalone image file (.png, .jpg, .gif, .bmp, .tiff, .webp) as a one-page document
whose page is the image:

    document
      page "p0"                 box = the whole page
        image "p0/i0"           the picture, box = the whole page; attrs: blob, pixel size,
                                mode (``P`` = palette), format, frames
        paragraph "p0/o0" ...   only with ``ocr=True``: the words tesseract reads
          line "p0/o0/l0"       (extractors/ocr/words.py), boxes in page points
            run "p0/o0/l0/w0"

Page size: the pixels at the resolution the file states (PNG ``pHYs``, JPEG JFIF
density, TIFF resolution) when it states a plausible one (36-1200 dpi), else 96 dpi (the
CSS/Windows pixel: 1 px = 0.75 pt, as sheet grids count pixels). ``Page.attrs`` records
``dpi`` and where it came from, so geometry in points can be turned back into pixels.
An animated GIF or multi-page TIFF shows its first frame (``frames`` says how many).
"""

from __future__ import annotations

import io
import warnings
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from ...digest import file_digest
from ...errors import ArtifactTooLarge, CorruptArtifact, UnsupportedFormat
from ...input_files import read_input_bytes
from ...model import ArtifactInfo, Box, Document, Node, Page, ToolInfo, describe_image
from ...model.blobs import check_image_budget
from ..tree_builder import fill_container_text
from .formats import IMAGE_MIME

__all__ = ["DEFAULT_DPI", "extract_image"]

DEFAULT_DPI = 96.0
_DPI_RANGE = (36.0, 1200.0)


def extract_image(path: str | Path, *, ocr: bool = False, lang: str = "eng", **options: Any) -> Document:
    """Read an image file into a one-page Document (see the module docstring).

    ``ocr=True`` adds the words tesseract reads (``lang``: tesseract language codes) as
    paragraph/line/run nodes; it raises ``MissingDependency`` without tesseract. Other
    options are accepted for API symmetry and ignored. Raises ``CorruptArtifact`` (not
    decodable), ``UnsupportedFormat`` (an image format we do not read) or
    ``ArtifactTooLarge`` (over the ``image_pixels`` budget).
    """
    from PIL import Image, UnidentifiedImageError

    p = Path(path)
    data = read_input_bytes(p, what="image", error=CorruptArtifact)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt = img.format or ""
                size = img.size
                check_image_budget(size, what=f"the image ({fmt})")
                mode = img.mode
                frames = int(getattr(img, "n_frames", 1))
                dpi, dpi_source = _dpi(img.info)
                img.load()  # decode now: a truncated or corrupt file fails here, typed
    except ArtifactTooLarge as exc:
        raise ArtifactTooLarge(str(exc), path=p) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:  # Pillow's own guard, above ours
        raise ArtifactTooLarge(f"the image is too large to decode: {exc}", path=p) from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise CorruptArtifact(f"the image cannot be decoded: {type(exc).__name__}: {exc}", path=p) from None
    if fmt not in IMAGE_MIME:
        raise UnsupportedFormat(f"{fmt or 'unknown'} images are not read (PNG, JPEG, GIF, BMP, TIFF, WebP are)", path=p)
    artifact_format, mime = IMAGE_MIME[fmt]
    width_pt, height_pt = size[0] * 72.0 / dpi[0], size[1] * 72.0 / dpi[1]
    blob = describe_image(data, mime=mime, name=p.name)
    warnings_out: list[str] = []
    if blob.decode_error:
        warnings_out.append(f"the image could not be hashed: {blob.decode_error}")
    if frames > 1:
        warnings_out.append(f"the {fmt} has {frames} frames; the first is the page")
    page_box = Box(page=0, x0=0.0, top=0.0, x1=width_pt, bottom=height_pt)
    image = Node(
        id="p0/i0",
        kind="image",
        boxes=[page_box],
        attrs={
            "blob": blob.sha256,
            "width_px": size[0],
            "height_px": size[1],
            "mode": mode,
            "image_format": artifact_format,
            "frames": frames,
        },
        source=p.name,
    )
    page_node = Node(id="p0", kind="page", boxes=[page_box], children=[image])
    page = Page(
        index=0,
        kind="page",
        width=width_pt,
        height=height_pt,
        attrs={"width_px": size[0], "height_px": size[1], "dpi": [dpi[0], dpi[1]], "dpi_source": dpi_source},
    )
    tools = [ToolInfo(name="pillow", version=metadata.version("pillow"))]
    if ocr:
        from ..ocr import default_engine
        from ..ocr.words import ocr_nodes
        from .pixels import ocr_ready

        engine = default_engine()
        result = engine.ocr(ocr_ready(data), lang=lang)
        page_node.children.extend(ocr_nodes(result, page=0, page_width=width_pt, page_height=height_pt, prefix="p0"))
        tools.append(ToolInfo(name="tesseract", version=engine.version()))
    root = Node(id="doc", kind="document", children=[page_node])
    fill_container_text(root)
    digest = file_digest(p)
    return Document(
        artifact=ArtifactInfo(format=artifact_format, platform="office", sha256=digest.sha256, size_bytes=digest.size_bytes, path=str(p)),
        pages=[page],
        root=root,
        blobs={blob.sha256: blob},
        tools=tools,
        warnings=warnings_out,
    )


def _dpi(info: Mapping[Any, Any]) -> tuple[tuple[float, float], str]:
    """The resolution the file states, when plausible, else 96 dpi."""
    raw = info.get("dpi")
    try:
        x, y = (float(v) for v in raw) if raw is not None else (0.0, 0.0)
    except (TypeError, ValueError):
        x = y = 0.0
    lo, hi = _DPI_RANGE
    if lo <= x <= hi and lo <= y <= hi:
        return (round(x, 1), round(y, 1)), "file"  # PNG stores dots per metre: 150.012
    return (DEFAULT_DPI, DEFAULT_DPI), "default"
