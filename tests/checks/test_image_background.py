"""image_background on pictures made the way an image editor or an agent's Pillow script
saves them: a subject on a white canvas, the same with the background filled green, a
JPEG of it, a transparent canvas, a picture in a deck. Each case is judged by its pixels."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image, ImageDraw

import artifactcheck
from artifactcheck.checks.image.pixels import border_band
from artifactcheck.checks.registry import run_check


def subject_on(background: tuple[int, int, int, int], size: tuple[int, int] = (400, 300)) -> Image.Image:
    """A dark-red circle and a blue square (the subject) on a plain background."""
    img = Image.new("RGBA", size, background)
    draw = ImageDraw.Draw(img)
    draw.ellipse([120, 60, 280, 220], fill=(150, 20, 20, 255))
    draw.rectangle([170, 110, 230, 170], fill=(20, 40, 200, 255))
    return img


@pytest.fixture(scope="module")
def pictures(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("backgrounds")
    out = {}
    white = subject_on((255, 255, 255, 255))
    green = subject_on((40, 170, 60, 255))
    out["white.png"] = white
    out["green.png"] = green
    # a green fill that missed the top-left corner (a flood fill stopped by a stray line)
    partial = green.copy()
    ImageDraw.Draw(partial).rectangle([0, 0, 200, 150], fill=(255, 255, 255, 255))
    out["partial.png"] = partial
    out["transparent.png"] = subject_on((0, 0, 0, 0))
    for name, img in out.items():
        img.save(tmp / name)
    green.convert("RGB").save(tmp / "green.jpg", quality=70)
    return {name: tmp / name for name in [*out, "green.jpg"]}


def _check(path: Path, **params: object) -> artifactcheck.CheckResult:
    return run_check("image_background", artifactcheck.load(path), params)


def test_a_green_background_passes_and_a_white_one_fails(pictures: dict[str, Path]) -> None:
    green = _check(pictures["green.png"], expected="green", tolerance=25)
    assert green.status == "pass", green.explanation
    row = green.evidence["images"][0]
    assert row["share_matching"] == 1.0 and row["band_px"] == 15  # 5% of 300 px
    white = _check(pictures["white.png"], expected="green", tolerance=25)
    assert white.status == "fail" and white.evidence["images"][0]["share_matching"] == 0.0
    assert white.evidence["images"][0]["band_mean"] == "#ffffff" and "white" in white.explanation


def test_channel_dominance_is_osworlds_more_green_than_red_or_blue(pictures: dict[str, Path]) -> None:
    assert _check(pictures["green.png"], dominant="green").status == "pass"
    assert _check(pictures["green.jpg"], dominant="green", margin=40).status == "pass"  # JPEG noise stays green
    assert _check(pictures["white.png"], dominant="green").status == "fail"  # white: no channel dominates


def test_a_fill_that_missed_a_corner_is_measured_not_rounded(pictures: dict[str, Path]) -> None:
    partial = _check(pictures["partial.png"], dominant="green")
    share = partial.evidence["images"][0]["share_matching"]
    assert 0.5 < share < 0.9 and partial.status == "fail", partial.explanation
    assert _check(pictures["partial.png"], dominant="green", min_share=0.5).status == "pass"


def test_transparent_pixels_are_not_background(pictures: dict[str, Path]) -> None:
    res = _check(pictures["transparent.png"], expected="white")
    assert res.status == "fail" and "fully transparent" in res.explanation


def test_a_picture_in_a_deck(pictures: dict[str, Path], tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_picture(str(pictures["green.png"]), Inches(1), Inches(1), width=Inches(4))
    deck.save(str(tmp_path / "deck.pptx"))
    res = run_check("image_background", artifactcheck.load(tmp_path / "deck.pptx"), {"target": "image", "expected": "#28aa3c"})
    assert res.status == "pass", res.explanation


def test_parameters_are_checked_before_judging(pictures: dict[str, Path]) -> None:
    doc = artifactcheck.load(pictures["green.png"])
    both = run_check("image_background", doc, {"expected": "green", "dominant": "green"})
    assert both.status == "error" and "not both" in both.explanation
    assert run_check("image_background", doc, {"expected": "greenish blurple"}).status == "error"


def test_border_band_bounds() -> None:
    assert border_band(400, 300, 0.05) == 15
    assert border_band(2, 2, 0.5) == 1
