"""Real decks for geometry, image and OCR tests: python-pptx writes shapes at known
positions (points), then the deck is loaded with ``artifactcheck.load`` (native boxes).
``plain_doc`` builds a Document from model classes for edge cases no editor writes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.util import Pt

from artifactcheck.model import ArtifactInfo, Box, Document, Node, Page
from tests.extractors.agent_decks import save

SLIDE_W, SLIDE_H = 720.0, 540.0


@dataclass
class Item:
    """One thing to draw: ``kind`` "box" (rectangle shape with optional text) or
    "picture" (PNG bytes), at (x, y, w, h) points, optionally rotated (degrees)."""

    kind: str
    x: float
    y: float
    w: float
    h: float
    name: str = ""
    text: str = ""
    image: bytes | None = None
    rotation: float = 0.0
    font_size: float | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def picture_bytes(seed: int = 0, size: tuple[int, int] = (160, 120)) -> bytes:
    """A deterministic PNG with structure (shapes, gradient) so perceptual hashes differ by seed."""
    w, h = size
    img = Image.new("RGB", size, (255, 255, 255))
    draw = ImageDraw.Draw(img)
    for i in range(0, w, 4):
        shade = (i * 255 // w + seed * 53) % 256
        draw.line([(i, 0), (i, h)], fill=(shade, (shade * 3 + seed * 17) % 256, 255 - shade))
    draw.ellipse([w * (0.1 + 0.05 * (seed % 5)), h * 0.1, w * 0.6, h * 0.7], fill=(20 * seed % 256, 30, 90))
    draw.rectangle([w * 0.55, h * (0.3 + 0.04 * (seed % 4)), w * 0.95, h * 0.9], fill=(240, 200 - 10 * seed % 200, 40))
    out = io.BytesIO()
    img.save(out, format="PNG", optimize=False)
    return out.getvalue()


def build_deck(path: Path, slides: list[list[Item]]) -> Path:
    prs = Presentation()
    prs.slide_width, prs.slide_height = Pt(SLIDE_W), Pt(SLIDE_H)
    blank = prs.slide_layouts[6]
    for items in slides:
        slide = prs.slides.add_slide(blank)
        for it in items:
            if it.kind == "picture":
                assert it.image is not None
                shape = slide.shapes.add_picture(io.BytesIO(it.image), Pt(it.x), Pt(it.y), Pt(it.w), Pt(it.h))
                for side in ("left", "right", "top", "bottom"):
                    if f"crop_{side}" in it.extra:
                        setattr(shape, f"crop_{side}", it.extra[f"crop_{side}"])
            else:
                shape = slide.shapes.add_textbox(Pt(it.x), Pt(it.y), Pt(it.w), Pt(it.h)) if it.kind == "textbox" else slide.shapes.add_shape(1, Pt(it.x), Pt(it.y), Pt(it.w), Pt(it.h))
                if it.text:
                    shape.text_frame.text = it.text
                    if it.font_size:
                        for para in shape.text_frame.paragraphs:
                            for run in para.runs:
                                run.font.size = Pt(it.font_size)
            if it.name:
                shape.name = it.name
            if it.rotation:
                shape.rotation = it.rotation
    save(prs, path)  # fixed bytes: the render cache serves later runs
    return path


def load_deck(path: Path, **options: Any) -> Document:
    """The deck through the real pptx extractor (``render=False``: never laid out)."""
    import artifactcheck

    return artifactcheck.load(path, **options)


def node_named(doc: Document, name: str) -> Node:
    for n in doc:
        if n.attrs.get("name") == name:
            return n
    raise KeyError(name)


def plain_doc(boxes: dict[str, tuple[int, float, float, float, float]], *, pages: int = 1, size: tuple[float, float] = (SLIDE_W, SLIDE_H)) -> Document:
    """A Document built from model classes: ``{id: (page, x0, top, x1, bottom)}`` shapes."""
    slides = []
    for p in range(pages):
        kids = [
            Node(id=nid, kind="shape", attrs={"name": nid}, boxes=[Box(page=p, x0=b[1], top=b[2], x1=b[3], bottom=b[4])])
            for nid, b in boxes.items()
            if b[0] == p
        ]
        slides.append(Node(id=f"s{p}", kind="slide", children=kids))
    return Document(
        artifact=ArtifactInfo(format="pptx", platform="office", sha256="0" * 64, size_bytes=0),
        pages=[Page(index=p, kind="slide", width=size[0], height=size[1]) for p in range(pages)],
        root=Node(id="doc", kind="document", children=slides),
    )
