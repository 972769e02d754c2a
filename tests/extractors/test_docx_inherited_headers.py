"""A header a later section inherits is one header, as a reader sees it. python-docx's
``add_section`` writes no header reference, so the new section shows its predecessor's
header part; it was a second header node with a second copy of the logo, and "is there
one logo?", images_unique and in_region on a page of the first section saw two. The
truth is the render: the logo's pixels on every page, from one header part."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.enum.section import WD_ORIENT, WD_SECTION
from docx.shared import Inches
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from tests.extractors.rendered_look import page_png

pytestmark = pytest.mark.slow

ORANGE = (240, 140, 20)


def logo(colour: tuple[int, int, int], mark: int) -> io.BytesIO:
    """A coloured logo with a white mark at ``mark`` px from its left: two logos differ in
    shape, not only in colour."""
    img = Image.new("RGB", (240, 80), colour)
    img.paste((255, 255, 255), (mark, 20, mark + 30, 60))
    out = io.BytesIO()
    img.save(out, format="PNG")
    out.seek(0)
    return out


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Section 1 portrait with the ACME logo at the header's right; section 2 landscape
    (inherits the header); section 3 with a header of its own, a teal logo at the left."""
    d = docx.Document()
    header = d.sections[0].header.paragraphs[0]
    header.alignment = 2
    header.add_run().add_picture(logo(ORANGE, 20), width=Inches(1.2))
    d.add_paragraph("Portrait page.")
    wide = d.add_section(WD_SECTION.NEW_PAGE)
    wide.orientation = WD_ORIENT.LANDSCAPE
    wide.page_width, wide.page_height = wide.page_height, wide.page_width
    d.add_paragraph("Landscape page.")
    last = d.add_section(WD_SECTION.NEW_PAGE)
    last.orientation = WD_ORIENT.PORTRAIT
    last.page_width, last.page_height = last.page_height, last.page_width
    last.header.is_linked_to_previous = False
    last.header.paragraphs[0].add_run().add_picture(logo((20, 150, 150), 190), width=Inches(1.2))
    d.add_paragraph("Portrait again.")
    path = tmp_path_factory.mktemp("headers") / "report.docx"
    d.save(str(path))
    return path


def test_an_inherited_header_is_one_node_on_each_of_its_pages(report: Path) -> None:
    doc = load(report, render=True)
    headers = doc.select("header")
    assert [h.attrs["sections"] for h in headers if h.attrs.get("rendered") is not False] == [[0, 1], [2]]
    acme = headers[0].select("image")[0]
    assert [b.page for b in acme.boxes] == [0, 1]
    pdf = render_pdf(report).pdf_path
    for box in acme.boxes:  # the render paints the orange logo where the tree says, on both pages
        image = page_png(pdf, box.page).convert("RGB")
        k = image.width / doc.pages[box.page].width
        assert image.getpixel((int((box.x0 + box.x1) / 2 * k), int((box.top + box.bottom * 3) / 4 * k))) == pytest.approx(ORANGE, abs=12)
    assert run_check("count", doc, {"target": "image", "exactly": 2}).status == "pass"
    assert run_check("images_unique", doc, {"target": "image"}).status == "pass"


def test_in_region_on_a_page_judges_the_pictures_drawn_there(report: Path) -> None:
    doc = load(report, render=True)
    wide = run_check("in_region", doc, {"target": "image", "region": "upper-right", "page": 1})
    assert wide.status == "pass", wide.explanation
    assert wide.evidence["not_on_page"] == ["s2/header-default/p0/img0"]
    last = run_check("in_region", doc, {"target": "image", "region": "upper-right", "page": "last"})
    assert last.status == "fail"  # the last section's logo is at the left
    nowhere = run_check("in_region", doc, {"target": "header image", "region": "upper-right", "page": 2, "quantifier": "all"})
    assert nowhere.status == "fail"


def test_a_header_no_page_shows_holds_nothing_a_reader_sees(tmp_path: Path) -> None:
    """python-docx writes ``first_page_header`` whether or not "different first page" is
    on; without it no page shows that header, and its logo is not in the document a reader
    sees. An even-page header of a one-page letter shows nowhere either, and must not make
    the shown logo's checks an error."""
    unused = docx.Document()
    unused.sections[0].first_page_header.paragraphs[0].add_run().add_picture(logo(ORANGE, 20), width=Inches(1.2))
    unused.add_paragraph("A one-page letter.")
    unused.save(str(tmp_path / "unused.docx"))
    doc = load(tmp_path / "unused.docx", render=True)
    assert read_layout(render_pdf(tmp_path / "unused.docx").pdf_path).images == []  # nothing drawn
    assert run_check("count", doc, {"target": "image", "at_least": 1}).status == "fail"
    assert run_check("structure", doc, {"unit": "images", "at_least": 1}).status == "fail"

    letter = docx.Document()
    letter.settings.odd_and_even_pages_header_footer = True
    for header in (letter.sections[0].header, letter.sections[0].even_page_header):
        header.paragraphs[0].add_run().add_picture(logo(ORANGE, 20), width=Inches(1.2))
    letter.add_paragraph("A one-page letter.")
    letter.save(str(tmp_path / "letter.docx"))
    doc = load(tmp_path / "letter.docx", render=True)
    assert run_check("count", doc, {"target": "image", "exactly": 1}).status == "pass"
    assert run_check("within_page", doc, {"target": "image"}).status == "pass"
    left = run_check("in_region", doc, {"target": "header image", "region": "upper-left"})
    assert left.status == "pass", left.explanation


def test_a_logo_of_another_colour_does_not_take_the_drawn_logos_place(tmp_path: Path) -> None:
    """A continuous section break with its own header logo, the same shape in another
    colour: LibreOffice keeps drawing the first section's orange logo (it never draws the
    teal one). Alike by perceptual hash, which reads brightness only, the teal logo took
    the orange one's placements; a picture's box must show its own colour."""
    d = docx.Document()
    first = d.sections[0].header.paragraphs[0]
    first.alignment = 2
    first.add_run().add_picture(logo(ORANGE, 20), width=Inches(1.2))
    d.add_paragraph("Intro in one column. " * 20)
    second = d.add_section(WD_SECTION.CONTINUOUS)
    second.header.is_linked_to_previous = False
    second.header.paragraphs[0].add_run().add_picture(logo((20, 150, 150), 20), width=Inches(1.2))
    for _ in range(8):
        d.add_paragraph("The story runs on. " * 30)
    path = tmp_path / "newsletter.docx"
    d.save(str(path))
    doc = load(path, render=True)
    pdf = render_pdf(path).pdf_path
    colours = {"s0": ORANGE, "s1": (20, 150, 150)}
    for picture in doc.select("header image"):
        for box in picture.boxes:  # wherever the tree places a logo, the render paints that logo
            image = page_png(pdf, box.page).convert("RGB")
            k = image.width / doc.pages[box.page].width
            drawn = image.getpixel((int((box.x0 + box.x1) / 2 * k), int((box.top + box.bottom * 3) / 4 * k)))
            assert drawn == pytest.approx(colours[picture.id[:2]], abs=12), (picture.id, box)
