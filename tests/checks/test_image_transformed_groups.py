"""A picture inside a flipped group (an agent mirrors a group of shapes, or python-pptx
code sets the group's ``flipH``). The page draws the picture mirrored although its own
frame has no flip; a flipped group also turns its children's rotation the other way.
"Is the logo shown mirrored?" must pass. The truth is where the render paints the
picture's blue corner block, against where the turns we report would put it."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image, ImageOps
from pptx import Presentation
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.checks.image.edits import displayed_turns
from artifactcheck.extractors.render import render_pdf

pytestmark = pytest.mark.slow

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _reference() -> Image.Image:
    img = Image.new("RGB", (400, 200), (255, 0, 0))
    img.paste((0, 0, 255), (0, 0, 100, 50))  # a blue block in the top-left corner
    return img


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("groupflip")
    ref = folder / "ref.png"
    _reference().save(ref)
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    for x, flip, child_rot in ((0.5, "flipH", 0), (5.5, "flipV", 90)):
        group = slide.shapes.add_group_shape()
        pic = group.shapes.add_picture(io.BytesIO(ref.read_bytes()), Inches(x), Inches(1.5), width=Inches(3))
        pic.rotation = child_rot
        group._element.grpSpPr.find(f"{_A}xfrm").set(flip, "1")
    path = folder / "groups.pptx"
    prs.save(str(path))
    return path, ref


def _turned(img: Image.Image, turns: list[str]) -> Image.Image:
    for t in turns:
        if t == "mirror_horizontal":
            img = ImageOps.mirror(img)
        elif t == "mirror_vertical":
            img = ImageOps.flip(img)
        else:
            img = img.rotate(-int(t.split("_")[1]), expand=True)  # clockwise
    return img


def _blue_corner(img: Image.Image) -> tuple[bool, bool]:
    """(in the right half, in the bottom half) of the blue block's centre."""
    px = np.asarray(img.convert("RGB")).astype(int)
    ys, xs = np.nonzero((px[:, :, 2] > 200) & (px[:, :, 0] < 60))
    return xs.mean() > px.shape[1] / 2, ys.mean() > px.shape[0] / 2


def test_a_picture_in_a_flipped_group_is_judged_as_drawn(deck: tuple[Path, Path]) -> None:
    path, ref = deck
    doc = load(path)
    page = pdfium.PdfDocument(str(render_pdf(path).pdf_path))[0]
    scale = 2
    shot = page.render(scale=scale).to_pil()
    for i, picture in enumerate(doc.select("image")):
        box = picture.box
        assert box is not None
        drawn = shot.crop(tuple(int(v * scale) for v in (box.x0, box.top, box.x1, box.bottom)))
        turns = displayed_turns(picture)
        assert _blue_corner(drawn) == _blue_corner(_turned(_reference(), turns)), (i, turns)
    mirrored = run_check("image_transformed", doc, {"target": {"selector": "image", "nth": 0}, "reference": str(ref), "transform": "mirror_horizontal"})
    assert mirrored.status == "pass", mirrored.explanation
