"""Geometry of what a slide shows, the way agents build slides with python-pptx:

- a table whose long cells grow its rows past the stated height (python-pptx writes every
  row's height; LibreOffice treats it as a minimum) runs off the slide and over the
  picture placed "just below" it;
- a picture the agent hid (``cNvPr hidden``) is drawn nowhere, so it is not "in the
  upper-left corner";
- a body placeholder left empty prints nothing, so a picture laid over it overlaps
  nothing a reader sees; and pictures are not "empty" for ``skip_empty``.

The truth is the LibreOffice render: where each colour is painted, where the last row's
text is drawn, what text the page prints."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pytest
from PIL import Image
from pptx import Presentation
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf

pytestmark = pytest.mark.slow


def _png(rgb: tuple[int, int, int]) -> io.BytesIO:
    out = io.BytesIO()
    Image.new("RGB", (300, 200), rgb).save(out, format="PNG")
    out.seek(0)
    return out


@pytest.fixture(scope="module")
def grown(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    table = slide.shapes.add_table(5, 3, Inches(0.5), Inches(2.5), Inches(9), Inches(2)).table  # bottom 324 pt
    long = "This cell has a long description that wraps over several lines when the column is narrow. " * 2
    for r in range(5):
        for c in range(3):
            table.cell(r, c).text = f"R{r}C{c} " + (long if c == 1 and r > 0 else "")
    slide.shapes.add_picture(_png((255, 0, 0)), Inches(3.5), Inches(4.7), width=Inches(3))  # "just below"
    path = tmp_path_factory.mktemp("grown") / "grown.pptx"
    prs.save(str(path))
    return path


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])  # Title and Content; the body is left empty
    slide.shapes.title.text = "Quarterly results"
    slide.shapes.add_picture(_png((255, 0, 0)), Inches(2), Inches(2.5), width=Inches(6))  # over the empty body
    ghost = slide.shapes.add_picture(_png((0, 200, 0)), Inches(0.2), Inches(0.2), width=Inches(3))
    ghost._element.nvPicPr.cNvPr.set("hidden", "1")
    path = tmp_path_factory.mktemp("hidden") / "hidden.pptx"
    prs.save(str(path))
    return path


def _page(path: Path) -> pdfium.PdfPage:
    return pdfium.PdfDocument(str(render_pdf(path).pdf_path))[0]


def _painted(page: pdfium.PdfPage, rgb: tuple[int, int, int]) -> int:
    pixels = np.asarray(page.render(scale=1).to_pil().convert("RGB")).astype(int)
    return int((np.abs(pixels - np.array(rgb)).sum(axis=2) < 30).sum())


def test_a_table_that_grows_runs_off_the_slide(grown: Path) -> None:
    page = _page(grown)
    text = page.get_textpage()
    at = text.get_text_range().index("R4C0")
    assert 540 - text.get_charbox(at)[3] > 540  # the last row is drawn below the slide (PDF y is up)
    doc = load(grown)  # layout deferred: the table check asks for it
    inside = run_check("within_page", doc, {"target": "table"})
    assert inside.status == "fail", inside.explanation
    apart = run_check("no_overlap", doc, {"target": "table, image"})
    assert apart.status == "fail", apart.explanation


def test_a_hidden_picture_is_nowhere(hidden: Path) -> None:
    page = _page(hidden)
    assert _painted(page, (0, 200, 0)) == 0 and _painted(page, (255, 0, 0)) > 10000
    doc = load(hidden)
    ghost = next(n for n in doc.select("image") if n.attrs.get("hidden"))
    corner = run_check("in_region", doc, {"target": {"selector": "image", "nth": -1}, "region": "upper-left"})
    assert ghost.box is not None and corner.status == "fail", corner.explanation
    assert "hidden" in corner.explanation


def test_an_empty_placeholder_overlaps_nothing(hidden: Path) -> None:
    printed = _page(hidden).get_textpage().get_text_range()
    assert "Click to add" not in printed  # the empty body prints nothing
    doc = load(hidden)
    apart = run_check("no_overlap", doc, {"target": {"selector": "image, shape", "exclude": "[hidden=true]"}})
    assert apart.status == "pass", apart.explanation
    assert apart.evidence["left_out_drawing_nothing"], apart.evidence
    pictures = run_check("count", doc, {"target": {"selector": "image", "skip_empty": True}, "exactly": 2})
    assert pictures.status == "pass", pictures.explanation
