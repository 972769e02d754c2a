"""``image_crop_of`` on a crop of a screenshot shown smaller: an agent cuts the rows it
needs out of a report screenshot and pastes them at half or a third of their size. The
search ran at 256 px, where 18 px text is a blur: the exact crop correlated 0.88, at half
size 0.81, under the 0.85 a crop needs, and was "not a crop". It is now refined at the
candidate's own resolution, on whole-pixel region sizes and each phase of a shrunk
pixel. Rows cut from another screenshot of the same layout stay no crop."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.util import Pt

from artifactcheck import load
from artifactcheck.checks.image.locate import locate_crop
from artifactcheck.checks.registry import Resources, run_check


def _report(offset: int) -> Image.Image:
    """An 800 x 500 px screenshot of 18 lines of figures (``offset`` changes them)."""
    img = Image.new("RGB", (800, 500), "white")
    draw = ImageDraw.Draw(img)
    for i in range(18):
        line = f"Row {i:02d}: revenue {1000 + i * 37 + offset} units, margin {(i * 3 + offset) % 17}%"
        draw.text((20, 10 + i * 27), line, fill="black", font_size=18)
    return img


def _deck(folder: Path, picture: Image.Image, name: str) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    data = io.BytesIO()
    picture.save(data, format="PNG")
    slide.shapes.add_picture(io.BytesIO(data.getvalue()), Pt(100), Pt(100))
    path = folder / f"{name}.pptx"
    prs.save(str(path))
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("scaled-crops")
    _report(0).save(out / "report.png")
    return out


@pytest.mark.parametrize("scale", [1.0, 0.5, 0.35])
def test_a_shrunk_crop_of_a_screenshot_is_a_crop(folder: Path, scale: float) -> None:
    rows = _report(0).crop((20, 120, 420, 300))
    shown = rows.resize((round(400 * scale), round(180 * scale)), Image.Resampling.LANCZOS)
    result = run_check(
        "image_crop_of", load(_deck(folder, shown, f"rows-{scale}")), {"reference": "report.png"},
        Resources(assets_dir=str(folder)),
    )
    assert result.status == "pass", result.explanation
    found = locate_crop(_report(0), shown)
    assert found is not None and all(abs(a - b) <= 2 for a, b in zip(found.box, (20, 120, 420, 300), strict=True)), found


def test_rows_of_another_screenshot_are_no_crop(folder: Path) -> None:
    other = _report(5).crop((20, 120, 420, 300)).resize((200, 90), Image.Resampling.LANCZOS)
    result = run_check(
        "image_crop_of", load(_deck(folder, other, "other")), {"reference": "report.png"},
        Resources(assets_dir=str(folder)),
    )
    assert result.status == "fail", result.explanation
