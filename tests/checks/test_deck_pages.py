"""Page words on a deck the way agents leave decks: slides reordered through
``sldIdLst``, one deleted, the last one hidden; a sidebar label rotated 270° against the
slide's left edge. The truth is the LibreOffice render: which slides it prints, in what
order, and where it draws the label's text."""

from __future__ import annotations

from pathlib import Path

import pytest
from pptx import Presentation
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow

R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"


@pytest.fixture(scope="module")
def reordered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Slides 1-5; 5 moved to the front, 2 deleted, 4 (now last) hidden: shown 5, 1, 3."""
    prs = Presentation()
    for i in range(1, 6):
        slide = prs.slides.add_slide(prs.slide_layouts[1])
        slide.shapes.title.text = f"Slide {i} title"
    ids = list(prs.slides._sldIdLst)
    prs.slides._sldIdLst.remove(ids[4])
    prs.slides._sldIdLst.insert(0, ids[4])
    prs.part.drop_rel(ids[1].get(R_ID))
    prs.slides._sldIdLst.remove(ids[1])
    prs.slides.get(int(ids[3].get("id")))._element.set("show", "0")
    path = tmp_path_factory.mktemp("reordered") / "deck.pptx"
    prs.save(str(path))
    return path


def _printed_titles(path: Path) -> list[str]:
    layout = read_layout(render_pdf(path).pdf_path)
    return [" ".join(w.text for w in layout.words if w.page == page.index) for page in layout.pages]


def test_the_last_page_of_a_deck_is_its_last_shown_slide(reordered: Path) -> None:
    printed = _printed_titles(reordered)
    assert printed == ["Slide 5 title", "Slide 1 title", "Slide 3 title"]  # the hidden slide is not printed
    doc = load(reordered)
    for page in ("last", -1):
        verdict = run_check("in_region", doc, {"target": {"text": "Slide 3 title"}, "region": "top 25%", "page": page})
        assert verdict.status == "pass", (page, verdict.explanation)
    first = run_check("in_region", doc, {"target": {"text": "Slide 5 title"}, "region": "top 25%", "page": "first"})
    assert first.status == "pass", first.explanation
    hidden = run_check("in_region", doc, {"target": {"text": "Slide 4 title"}, "region": "top 25%", "page": 3})
    assert hidden.status == "pass", hidden.explanation  # a 0-based index is still the file's slide


def test_a_deck_has_as_many_pages_as_it_shows_slides(reordered: Path) -> None:
    doc = load(reordered)
    shown = len(_printed_titles(reordered))
    assert run_check("structure", doc, {"unit": "pages", "exactly": shown}).status == "pass"
    assert run_check("structure", doc, {"unit": "slides", "exactly": shown}).status == "pass"
    assert run_check("structure", doc, {"unit": "pages", "exactly": 4, "include_hidden": True}).status == "pass"


def test_a_workbook_has_no_pages_to_count(tmp_path: Path) -> None:
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active["A1"] = "x"
    wb.save(tmp_path / "book.xlsx")
    verdict = run_check("structure", load(tmp_path / "book.xlsx"), {"unit": "pages", "exactly": 1})
    assert verdict.status == "error" and "unit 'sheets'" in verdict.explanation


def test_a_label_rotated_against_the_left_edge_is_within_the_slide(tmp_path: Path) -> None:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    label = slide.shapes.add_textbox(Inches(-1.5), Inches(3.25), Inches(4), Inches(1))
    label.text_frame.text = "Vertical sidebar label"
    label.rotation = 270  # drawn as a 1 x 4 inch upright strip from x = 0
    path = tmp_path / "sidebar.pptx"
    prs.save(str(path))
    drawn = [w for w in read_layout(render_pdf(path).pdf_path).words if w.text in ("Vertical", "sidebar", "label")]
    assert drawn and all(0 <= w.x0 and w.x1 <= 72 for w in drawn)  # inside the slide, in the strip
    verdict = run_check("within_page", load(path), {"target": "textbox"})
    assert verdict.status == "pass", verdict.explanation
