"""A picture the file holds but no slide shows is not "in the deck".

python-pptx places a picture wherever it is told: ``add_picture(left=prs.slide_width +
Pt(50))`` puts it wholly right of the slide, and LibreOffice's PDF has no image there.
``image_matches`` found its bytes and passed; now it fails and says the picture is outside
the slide. A picture half off the slide is half shown: it still matches, and the
explanation says how much is cut off. The truth is the rendered page."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from PIL import Image, ImageDraw
from pptx import Presentation
from pptx.util import Emu, Pt

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.extractors.render import page_image, read_layout, render_pdf
from artifactcheck.model import Document

RED, GREEN, ORANGE = (220, 40, 40), (40, 160, 40), (240, 140, 0)


def logo(colour: tuple[int, int, int]) -> bytes:
    """A disc of ``colour`` and a blue bar on white, 300 x 200 px."""
    img = Image.new("RGB", (300, 200), (255, 255, 255))
    draw = ImageDraw.Draw(img)
    draw.ellipse([30, 30, 170, 170], fill=colour)
    draw.rectangle([180, 60, 280, 140], fill=(30, 60, 200))
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    """On a 720 x 540 pt slide, each 300 x 200 pt: "Off" at x 770 (wholly right of the
    slide), "Part" at x 570 (its right half off), "Hidden" at x 50 marked hidden."""
    folder = tmp_path_factory.mktemp("off-slide")
    for name, colour in (("off", RED), ("part", GREEN), ("hidden", ORANGE)):
        (folder / f"{name}.png").write_bytes(logo(colour))
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    off = slide.shapes.add_picture(io.BytesIO(logo(RED)), prs.slide_width + Emu(Pt(50)), Pt(100), Pt(300), Pt(200))
    part = slide.shapes.add_picture(io.BytesIO(logo(GREEN)), prs.slide_width - Emu(Pt(150)), Pt(300), Pt(300), Pt(200))
    hidden = slide.shapes.add_picture(io.BytesIO(logo(ORANGE)), Pt(50), Pt(300), Pt(300), Pt(200))
    off.name, part.name, hidden.name = "Off", "Part", "Hidden"
    hidden._element.nvPicPr.cNvPr.set("hidden", "1")
    path = folder / "deck.pptx"
    prs.save(str(path))
    return folder, load(path)


def _pixels_near(page: Image.Image, want: tuple[int, int, int]) -> int:
    """How many of the page's pixels are within 30 of ``want`` in every channel."""
    rgb = np.asarray(page.convert("RGB"), dtype=np.int16)
    return int((np.abs(rgb - np.array(want, dtype=np.int16)) <= 30).all(axis=2).sum())


@pytest.mark.slow
def test_the_render_shows_half_of_part_and_nothing_of_the_others(deck: tuple[Path, Document]) -> None:
    folder, _ = deck
    pdf = render_pdf(folder / "deck.pptx").pdf_path
    page = page_image(pdf, 0, dpi=72)
    assert _pixels_near(page, RED) == 0 and _pixels_near(page, ORANGE) == 0
    green = _pixels_near(page, GREEN)
    assert 0.7 < green / (3.1416 * 70 * 70) < 0.95  # the disc spans x 600..740: its part left of 720
    drawn = [(round(im.x0), round(im.x1)) for im in read_layout(pdf).images]
    assert drawn == [(570, 870)]  # one image object: Part's, clipped by the page


def run(doc: Document, folder: Path, check: str, reference: str, name: str) -> tuple[str, str]:
    r = run_check(check, doc, {"reference": reference, "target": f'image[name="{name}"]'}, Resources(assets_dir=str(folder)))
    return r.status, r.explanation


@pytest.mark.parametrize("check", ["image_matches", "image_crop_of"])
def test_a_picture_outside_the_slide_does_not_match(deck: tuple[Path, Document], check: str) -> None:
    folder, doc = deck
    status, why = run(doc, folder, check, "off.png", "Off")
    assert status == "fail" and "outside its slide" in why and "identical bytes" in why, why
    status, why = run(doc, folder, check, "hidden.png", "Hidden")
    assert status == "fail" and "hidden" in why, why


def test_a_picture_outside_the_slide_is_absent(deck: tuple[Path, Document]) -> None:
    folder, doc = deck
    r = run_check("image_matches", doc, {"reference": "off.png", "expect": "absent"}, Resources(assets_dir=str(folder)))
    assert r.status == "pass", r.explanation


@pytest.mark.parametrize("check", ["image_matches", "image_crop_of"])
def test_a_picture_half_off_the_slide_matches_and_says_so(deck: tuple[Path, Document], check: str) -> None:
    folder, doc = deck
    status, why = run(doc, folder, check, "part.png", "Part")
    assert status == "pass" and "only 50% of it is on its slide (150 pt right off)" in why, why


def test_a_copy_no_slide_shows_is_not_a_duplicate(tmp_path: Path) -> None:
    """One logo on the slide and its copy parked right of it: a person sees the logo
    once. The copy was counted as a duplicate pair; now it is left out, and said so."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    slide.shapes.add_picture(io.BytesIO(logo(RED)), Pt(50), Pt(100), Pt(300), Pt(200))
    slide.shapes.add_picture(io.BytesIO(logo(RED)), prs.slide_width + Emu(Pt(50)), Pt(100), Pt(300), Pt(200))
    path = tmp_path / "parked.pptx"
    prs.save(str(path))
    doc = load(path)
    got = run_check("images_unique", doc, {"target": "image"}, Resources(assets_dir=str(tmp_path)))
    assert got.status == "pass", got.explanation
    assert "no page shows left out" in got.explanation and len(got.evidence["not_shown"]) == 1  # type: ignore[arg-type]
    slide.shapes.add_picture(io.BytesIO(logo(RED)), Pt(400), Pt(300), Pt(300), Pt(200))  # a second one shown
    prs.save(str(path))
    assert run_check("images_unique", load(path), {"target": "image"}, Resources(assets_dir=str(tmp_path))).status == "fail"
