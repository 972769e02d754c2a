"""``within_page {within: margins}``: "the picture stays inside the margins". python-docx
places an inline picture at the left margin whatever its width, so a 7 in picture on a
Letter page with 1.25 in side margins (6 in of text width) runs 1 in into the right
margin, still on the page. ``within_page`` passed it (the page's edges were the only
bounds) and no region word named the margins. The truth is the render: the picture's
right edge, read from the PDF, is past the page's right margin line. A header logo lives
in the margin and is held to the page."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.shared import Inches
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf


def _png(width: int, height: int) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), (30, 90, 200)).save(out, format="PNG")
    return out.getvalue()


def _letter(path: Path, picture_in: float) -> Path:
    d = docx.Document()  # Letter, 1.25 in left and right margins: 6 in of text
    d.add_paragraph("Figure 1")
    d.add_picture(io.BytesIO(_png(700, 200)), width=Inches(picture_in))
    d.sections[0].header.paragraphs[0].add_run().add_picture(io.BytesIO(_png(100, 40)), width=Inches(1))
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def letters(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("margins")
    return {"wide": _letter(folder / "wide.docx", 7.0), "fits": _letter(folder / "fits.docx", 5.0)}


def _within(path: Path, **params: object) -> tuple[str, str]:
    result = run_check("within_page", load(path), {"target": "image", **params})
    return result.status, result.explanation


def test_a_picture_into_the_right_margin_is_not_within_the_margins(letters: dict[str, Path]) -> None:
    assert _within(letters["wide"])[0] == "pass"  # on the page
    status, explanation = _within(letters["wide"], within="margins")
    assert status == "fail" and "page margins" in explanation, explanation
    status, explanation = _within(letters["fits"], within="margins")  # the header logo too
    assert status == "pass", explanation


def test_a_deck_has_no_margins_to_judge(tmp_path: Path) -> None:
    from pptx import Presentation

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    slide.shapes.add_picture(io.BytesIO(_png(100, 40)), 0, 0)
    prs.save(str(tmp_path / "deck.pptx"))
    result = run_check("within_page", load(tmp_path / "deck.pptx"), {"target": "image", "within": "margins"})
    assert result.status == "error" and "states none" in result.explanation, result.explanation


@pytest.mark.slow
def test_the_render_draws_the_wide_picture_past_the_margin(letters: dict[str, Path]) -> None:
    layout = read_layout(render_pdf(letters["wide"]).pdf_path)
    body = max(layout.images, key=lambda im: im.x1 - im.x0)  # the 7 in picture, not the logo
    assert body.x1 > 612 - 90 + 36, (body.x0, body.x1)  # well past the 1.25 in right margin
    assert body.x1 <= 612, body.x1  # still on the page
