"""``nth`` on pictures counts them as a reader meets them. A letter's logo put in the
header (the usual letterhead) is stored after the body, so "the first image" used to be
the signature at the foot of the letter, and "the logo is in the upper-left corner"
failed a letter whose logo is drawn there. The truth is where LibreOffice draws each
picture (the render's image placements, told apart by colour)."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.shared import Inches
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from artifactcheck.extractors.render.layout import read_layout

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("letterhead")
    Image.new("RGB", (120, 60), (200, 30, 30)).save(folder / "logo.png")
    Image.new("RGB", (160, 40), (30, 30, 200)).save(folder / "signature.png")
    d = docx.Document()
    header = d.sections[0].header.paragraphs[0]
    header.add_run().add_picture(str(folder / "logo.png"), width=Inches(1.2))
    header.add_run("  ACME Corporation")
    d.add_paragraph("Dear Dr. Rivera,")
    d.add_paragraph("Thank you for your letter. " * 60)
    d.add_paragraph("Sincerely,")
    d.add_paragraph().add_run().add_picture(str(folder / "signature.png"), width=Inches(1.6))
    d.add_paragraph("Jordan Lee")
    path = folder / "letter.docx"
    d.save(str(path))
    return path


def _drawn(letter: Path) -> dict[str, tuple[int, float, float]]:
    """(page, x0, top) of the red logo and the blue signature as the render draws them."""
    layout = read_layout(render_pdf(letter).pdf_path, image_data=True)
    out = {}
    for im in layout.images:
        assert im.data is not None
        red, _, blue = Image.open(io.BytesIO(im.data)).convert("RGB").getpixel((5, 5))
        out["logo" if red > blue else "signature"] = (im.page, im.x0, im.top)
    return out


def test_the_first_image_is_the_header_logo_drawn_at_the_top(letter: Path) -> None:
    drawn = _drawn(letter)
    assert drawn["logo"][0] == 0 and drawn["logo"][2] < drawn["signature"][2]  # the logo is met first
    doc = load(letter)
    verdict = run_check("in_region", doc, {"target": {"selector": "image", "nth": 0}, "region": "upper-left", "page": 0})
    assert verdict.status == "pass", verdict.explanation
    first, last = (run_check("image_matches", doc, {"target": {"selector": "image", "nth": n}, "reference": str(letter.parent / name), "max_distance": 6}) for n, name in ((0, "logo.png"), (-1, "signature.png")))
    assert first.status == "pass", first.explanation
    assert last.status == "pass", last.explanation  # "the last image" is the signature, not the logo


def test_text_keeps_the_body_first(letter: Path) -> None:
    """"The first paragraph" is the body's salutation, not the header's company name."""
    doc = load(letter)
    verdict = run_check("text_equals", doc, {"target": {"selector": "paragraph", "nth": 0}, "expected": "Dear Dr. Rivera,"})
    assert verdict.status == "pass", verdict.explanation
