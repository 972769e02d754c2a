"""``image_transformed`` on a slide picture turned the way python-pptx users turn one:
``picture.rotation = 90`` or ``flipH`` on its frame. The stored pixels are the original;
a reader sees the turned picture. The truth is the LibreOffice render: the corner where
the picture's black block is drawn."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from pptx import Presentation
from pptx.util import Inches

from artifactcheck import Resources, load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import DPI, page_png

pytestmark = pytest.mark.slow

TURNS = {"rotate_90": ("rotation", 90), "mirror_horizontal": ("flipH", None), "rotate_180": ("rotation", 180)}
# where the block in the original's top-left corner is drawn after each turn
BLOCK_CORNER = {"rotate_90": "top-right", "mirror_horizontal": "top-right", "rotate_180": "bottom-right"}


@pytest.fixture(scope="module")
def turned(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("turned")
    original = Image.new("RGB", (240, 240), (30, 160, 60))
    original.paste((0, 0, 0), (0, 0, 80, 80))  # the block that shows how it was turned
    for x in range(0, 240, 24):
        original.paste((250, 250, 250), (x, 150, x + 8, 240))  # texture for SSIM
    png = folder / "original.png"
    original.save(png)
    prs = Presentation()
    for how, value in TURNS.values():
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        pic = slide.shapes.add_picture(str(png), Inches(3), Inches(2), Inches(3), Inches(3))
        if how == "rotation":
            pic.rotation = value
        else:
            pic._element.spPr.get_or_add_xfrm().set("flipH", "1")
    deck = folder / "turned.pptx"
    prs.save(str(deck))
    return deck, png


def _drawn_block_corner(pdf: Path, page: int) -> str:
    """Which corner of the picture's 3-inch square the dark block is drawn in."""
    img = page_png(pdf, page).convert("L")
    k = DPI / 72.0
    x0, y0, side = 3 * 72 * k, 2 * 72 * k, 3 * 72 * k
    quarter = side / 6

    def dark(cx: float, cy: float) -> bool:
        return img.getpixel((int(cx), int(cy))) < 40  # type: ignore[operator]

    corners = {
        "top-left": (x0 + quarter, y0 + quarter),
        "top-right": (x0 + side - quarter, y0 + quarter),
        "bottom-left": (x0 + quarter, y0 + side - quarter),
        "bottom-right": (x0 + side - quarter, y0 + side - quarter),
    }
    found = [name for name, (cx, cy) in corners.items() if dark(cx, cy)]
    assert len(found) == 1, found
    return found[0]


@pytest.mark.parametrize("transform", list(TURNS))
def test_a_turned_slide_picture_is_judged_as_drawn(turned: tuple[Path, Path], transform: str) -> None:
    deck, png = turned
    page = list(TURNS).index(transform)
    assert _drawn_block_corner(render_pdf(deck).pdf_path, page) == BLOCK_CORNER[transform]
    doc = load(deck)
    resources = Resources(assets_dir=png.parent)
    target = f"slide:nth-of-type({page + 1}) image"
    verdict = run_check("image_transformed", doc, {"target": target, "reference": png.name, "transform": transform}, resources)
    assert verdict.status == "pass", verdict.explanation
    stored = run_check(
        "image_transformed", doc, {"target": target, "reference": png.name, "transform": transform, "as_displayed": False}, resources
    )
    assert stored.status == "fail"  # the stored pixels are the original
