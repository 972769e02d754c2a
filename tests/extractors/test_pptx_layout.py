"""Where slide text is drawn: a deck built the way agents build them (python-pptx edits),
rendered once by LibreOffice; every assertion is about what the render shows, read back
from the PDF's text positions (or its pixels) rather than from our own tree."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from lxml import etree
from pptx import Presentation
from pptx.enum.text import MSO_AUTO_SIZE
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import PdfLayout, PdfLine, page_image, read_layout, render_pdf
from artifactcheck.model import Document, Node

from .agent_decks import A, save

pytestmark = pytest.mark.slow

BULLETS = [f"Overflowing bullet number {i} with words" for i in range(15)]
P = "http://schemas.openxmlformats.org/presentationml/2006/main"


def _slide_number_placeholder(slide: Any) -> None:
    """Copy the layout's slide-number placeholder onto the slide, as agents do to show
    slide numbers (python-pptx has no API for footers)."""
    layout_sp = next(p for p in slide.slide_layout.placeholders if "SLIDE_NUMBER" in str(p.placeholder_format.type))
    slide.shapes._spTree.append(copy.deepcopy(layout_sp._element))


def _bullet_slide(prs: Any, title: str) -> Any:
    """A "Title and Content" slide whose body holds :data:`BULLETS` (too many to fit)."""
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = title
    tf = s.placeholders[1].text_frame
    tf.text = BULLETS[0]
    for text in BULLETS[1:]:
        tf.add_paragraph().text = text
    return tf


def build_deck(path: Path) -> Path:
    prs = Presentation()
    # 0: the title moved to the bottom (a lone <a:off>), a short body.
    s = prs.slides.add_slide(prs.slide_layouts[1])
    s.shapes.title.text = "Quarterly Review"
    s.shapes.title.top = Inches(6)
    s.placeholders[1].text_frame.text = "Revenue grew in every region"
    # 1: a tall title frame whose one line of text sits at its top.
    s = prs.slides.add_slide(prs.slide_layouts[5])
    title = s.shapes.title
    title.text = "Coral Reefs"
    title.left, title.top, title.width, title.height = Inches(0.5), Inches(0.2), Inches(9), Inches(5)
    title.text_frame._txBody.bodyPr.set("anchor", "t")
    # 2: more bullets than the body holds, autofit turned off.
    _bullet_slide(prs, "Too much text").auto_size = MSO_AUTO_SIZE.NONE
    # 3: the same bullets, with "shrink text on overflow" (python-pptx auto_size).
    _bullet_slide(prs, "Shrunk to fit").auto_size = MSO_AUTO_SIZE.TEXT_TO_FIT_SHAPE
    # 4: added text boxes (a credit in the lower-left, a wrapping note), a table with a
    # row of height 0 (PowerPoint sizes it to its text), a slide number.
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = "Results"
    credit = s.shapes.add_textbox(Inches(0.3), Inches(6.8), Inches(3), Inches(0.4))
    credit.text_frame.text = "Photo: Jane Doe"
    note = s.shapes.add_textbox(Inches(6.5), Inches(1.6), Inches(3), Inches(1))
    note.text_frame.word_wrap = True
    note.text_frame.text = "A note long enough to wrap over three lines in its box"
    for run in note.text_frame.paragraphs[0].runs:
        run.font.size = Pt(16)
    table = s.shapes.add_table(3, 2, Inches(0.5), Inches(2), Inches(5.5), Inches(1.2)).table
    for r in range(3):
        for c in range(2):
            table.cell(r, c).text = f"r{r}c{c}" + (f"\nsecond line {c}\nthird line {c}" if r == 1 else "")
    table.rows[1].height = 0
    _slide_number_placeholder(s)
    # 5: hidden (LibreOffice leaves it out of the PDF); 6: after it, still mapped right.
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = "Hidden backup slide"
    s._element.set("show", "0")
    s = prs.slides.add_slide(prs.slide_layouts[5])
    s.shapes.title.text = "Thank you"
    _slide_number_placeholder(s)
    # 7: the bullets again, with the autofit the master gives every content placeholder.
    _bullet_slide(prs, "Master autofit")
    return save(prs, path)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_deck(tmp_path_factory.mktemp("layout") / "agent_deck.pptx")


@pytest.fixture(scope="module")
def pdf(deck: Path) -> PdfLayout:
    return read_layout(render_pdf(deck).pdf_path)


@pytest.fixture(scope="module")
def doc(deck: Path) -> Document:
    d = load(deck)
    d.ensure_layout()
    return d


def _pdf_page(doc: Document, slide: int) -> int:
    """The PDF page of a slide: hidden slides are not in LibreOffice's PDF."""
    return [p.index for p in doc.pages if not p.hidden].index(slide)


def _lines_with(pdf: PdfLayout, page: int, text: str) -> list[PdfLine]:
    return [ln for ln in pdf.lines if ln.page == page and text in ln.text]


def _para(doc: Document, text: str, slide: int) -> Node:
    found = [n for n in doc.root.children[slide].descendants("paragraph") if n.text == text]
    assert len(found) == 1, (text, found)
    return found[0]


def _drawn(pdf: PdfLayout, page: int, text: str) -> tuple[float, float, float, float]:
    """The box of ``text`` where pdfium reads it on one line of ``page`` (exactly once)."""
    hits = []
    for ln in pdf.lines:
        at = ln.text.find(text) if ln.page == page else -1
        if at >= 0:
            chars = [c for c in pdf.chars[ln.start + at : ln.start + at + len(text)] if not c.generated]
            hits.append((min(c.x0 for c in chars), min(c.top for c in chars), max(c.x1 for c in chars), max(c.bottom for c in chars)))
    assert len(hits) == 1, (text, hits)
    return hits[0]


def test_every_one_line_paragraph_is_boxed_where_its_text_is_drawn(doc: Document, pdf: PdfLayout) -> None:
    """The paragraph's box is where the render shows its text (a bullet widens it to
    the left); runs likewise."""
    checked = 0
    for slide in doc.root.children:
        if slide.attrs["hidden"]:
            continue
        page = _pdf_page(doc, slide.attrs["index"])  # type: ignore[arg-type]
        for para in slide.descendants("paragraph"):
            if not para.text.strip() or para.attrs.get("lines") != 1:
                continue
            x0, top, x1, bottom = _drawn(pdf, page, para.text.strip())
            b = para.box
            assert b is not None and b.origin == "layout" and b.page == slide.attrs["index"]
            assert (b.x1, b.bottom) == pytest.approx((x1, bottom), abs=0.5), para.id
            if "bullet" in para.attrs:  # the bullet glyph (another font) widens the box
                assert b.x0 < x0 and b.top <= top + 0.5, para.id
            else:
                assert (b.x0, b.top) == pytest.approx((x0, top), abs=0.5), para.id
            checked += 1
    assert checked >= 30


def test_the_shape_keeps_its_frame_and_records_the_drawn_text(doc: Document) -> None:
    body = doc.get("s0/sh1")
    assert body.box is not None and body.box.origin == "native"
    drawn = body.attrs["drawn_text_box"]
    para = _para(doc, "Revenue grew in every region", 0)
    assert para.box is not None
    assert drawn == {"x0": round(para.box.x0, 2), "top": round(para.box.top, 2), "x1": round(para.box.x1, 2), "bottom": round(para.box.bottom, 2)}
    assert body.attrs["text_overflows"] is False
    assert doc.root.attrs["layout_source"] == "libreoffice"


def test_title_moved_to_the_bottom_is_judged_at_the_bottom(doc: Document, pdf: PdfLayout) -> None:
    (line,) = _lines_with(pdf, 0, "Quarterly Review")
    assert line.top > 0.8 * pdf.pages[0].height  # what the render shows
    target = {"text": "Quarterly Review"}
    assert run_check("in_region", doc, {"target": target, "region": "top 20%", "page": 0}).status == "fail"
    assert run_check("in_region", doc, {"target": target, "region": "bottom 20%", "page": 0}).status == "pass"


def test_title_text_at_the_top_of_a_tall_frame_is_in_the_top_20_percent(deck: Path, doc: Document, pdf: PdfLayout) -> None:
    """The words decide, not the 5-inch placeholder frame they sit in."""
    (line,) = _lines_with(pdf, 1, "Coral Reefs")
    assert line.bottom < 0.2 * pdf.pages[1].height
    params = {"target": {"text": "Coral Reefs"}, "region": "top 20%", "page": 1}
    result = run_check("in_region", doc, params)
    assert result.status == "pass", result.explanation
    frame_only = load(deck, render=False)  # no layout: the paragraph carries its frame
    assert run_check("in_region", frame_only, params).status == "fail"


def test_overflowing_text_is_measured_where_it_is_drawn(doc: Document, pdf: PdfLayout) -> None:
    last = _lines_with(pdf, 2, BULLETS[-1])[0]
    assert last.top > pdf.pages[2].height  # LibreOffice draws it below the slide
    para = _para(doc, BULLETS[-1], 2)
    assert para.box is not None and para.box.top == pytest.approx(last.top, abs=0.5)
    body = para.parent
    assert body is not None and body.attrs["text_overflows"] is True and body.attrs["autofit"] == "none"
    result = run_check("text_fits", doc, {"target": "slide:nth-of-type(3) shape"})
    assert result.status == "fail"
    row = result.evidence["overflowing"][0]
    assert row["id"] == body.id and row["measured"] == "drawn" and "slide edge" in row["overflow"]
    assert run_check("within_page", doc, {"target": {"text": BULLETS[-1]}}).status == "fail"


def test_autofit_shrunk_text_fits(doc: Document, pdf: PdfLayout) -> None:
    """``normAutofit`` on the shape: LibreOffice draws the bullets smaller, inside."""
    body = _para(doc, BULLETS[0], 3).parent
    assert body is not None and body.attrs["autofit"] == "shrink"
    last = _lines_with(pdf, 3, BULLETS[-1])[0]
    assert body.box is not None and last.bottom <= body.box.bottom
    assert 0.3 < float(body.attrs["drawn_font_scale"]) < 0.9  # type: ignore[arg-type]
    result = run_check("text_fits", doc, {"target": "slide:nth-of-type(4) shape"})
    assert result.status == "pass", result.explanation


def test_inherited_autofit_is_recorded_and_the_overflow_seen(doc: Document, pdf: PdfLayout) -> None:
    """The master's body says normAutofit. LibreOffice 7.4 shrinks only text whose own
    bodyPr asks, so it draws these bullets at full size, below the slide (no fontScale is
    stored: PowerPoint has not fitted them either). What is drawn decides: text_fits
    fails, and says the shrink setting was there."""
    body = _para(doc, BULLETS[0], 7).parent
    assert body is not None and body.attrs["autofit"] == "shrink" and body.attrs["autofit_from"] == "master"
    assert "drawn_font_scale" not in body.attrs and body.attrs["text_overflows"] is True
    assert _lines_with(pdf, _pdf_page(doc, 7), BULLETS[-1])[0].top > pdf.pages[0].height
    result = run_check("text_fits", doc, {"target": "slide:nth-of-type(8) shape"})
    assert result.status == "fail", result.explanation
    row = next(r for r in result.evidence["overflowing"] if r["id"] == body.id)
    assert "slide edge" in row["overflow"] and "shrink-on-overflow is set (from the master)" in row["overflow"]


def test_text_boxes_and_the_wrapped_note(doc: Document, pdf: PdfLayout) -> None:
    credit = _para(doc, "Photo: Jane Doe", 4)
    assert run_check("in_region", doc, {"target": {"text": "Photo:"}, "region": "lower-left", "page": 4}).status == "pass"
    assert credit.box is not None and credit.box.origin == "layout"
    note = _para(doc, "A note long enough to wrap over three lines in its box", 4)
    lines = note.attrs["line_boxes"]
    assert note.attrs["lines"] == len(lines) >= 2  # type: ignore[arg-type]
    # The rendered characters right of the note's left edge, above the slide number.
    left = Inches(6.5) / 12700
    tops = sorted({round(c.top, 1) for c in pdf.chars if c.page == 4 and c.x0 >= left and not c.generated and c.top < 300})
    assert tops == [round(b["top"], 1) for b in lines]  # type: ignore[index]


def test_table_row_of_height_zero_is_sized_from_the_render(deck: Path, doc: Document) -> None:
    """Row borders read from the rendered pixels (the table style fills rows with
    different blues and draws white borders between them) against the tree's rows."""
    table = doc.select_one("slide:nth-of-type(5) table")
    assert table is not None and table.attrs["rows_without_height"] == 1
    rows = [r for r in table.children if r.kind == "row"]
    assert rows[1].attrs["height_pt"] > 50  # type: ignore[operator]
    image = page_image(render_pdf(deck).pdf_path, _pdf_page(doc, 4), dpi=144).convert("RGB")
    x = int((Inches(0.5) / 12700 + 100) * 2)
    white = [y / 2 for y in range(int(rows[0].boxes[0].top * 2), int(rows[-1].boxes[0].bottom * 2) + 8) if image.getpixel((x, y)) == (255, 255, 255)]
    borders = [y for i, y in enumerate(white) if i == 0 or y - white[i - 1] > 1]
    for row in rows:
        assert any(abs(row.boxes[0].bottom - y) <= 1.0 for y in borders), (row.boxes[0].bottom, borders)
    assert table.boxes[0].origin == "layout" and table.attrs["frame_box"]["bottom"] < table.boxes[0].bottom  # type: ignore[index]
    # Every cell's text is drawn inside its (grown) row: none overflows, whatever the
    # file's row heights said (rows below the grown one were judged against their old
    # places before).
    cells = [c for r in rows for c in r.children if c.kind == "cell" and "drawn_text_box" in c.attrs]
    assert len(cells) == 6
    for cell in cells:
        drawn = cell.attrs["drawn_text_box"]
        assert isinstance(drawn, dict)
        inside = cell.boxes[0].top - 1 <= drawn["top"] and drawn["bottom"] <= cell.boxes[0].bottom + 1  # type: ignore[operator]
        assert inside and cell.attrs["text_overflows"] is False, (cell.id, drawn, cell.boxes[0])


def test_slide_numbers_show_the_slide_number(doc: Document, pdf: PdfLayout) -> None:
    for slide, text in ((4, "5"), (6, "7")):
        run = next(r for r in doc.root.children[slide].descendants("run") if r.attrs.get("field") == "slidenum")
        assert run.text == text and run.attrs["field_stored_text"] == "‹#›"
        (line,) = _lines_with(pdf, _pdf_page(doc, slide), text)
        assert run.box is not None and run.box.origin == "layout"
        assert (run.box.x0, run.box.top) == pytest.approx((line.x0, line.top), abs=0.5)
        assert run.style is not None and run.style.size == 12.0  # the master's otherStyle + placeholder lstStyle


def test_hidden_slide_keeps_its_frame_boxes(doc: Document) -> None:
    hidden = _para(doc, "Hidden backup slide", 5)
    assert hidden.box is not None and hidden.box.origin == "native"
    assert any("not in the libreoffice PDF" in w for w in doc.warnings)
    after = _para(doc, "Thank you", 6)
    assert after.box is not None and after.box.origin == "layout" and after.box.page == 6


def test_coverage_attributes(doc: Document) -> None:
    attrs = doc.root.attrs
    assert attrs["layout_paragraphs_boxed"] == attrs["layout_paragraphs"]
    assert attrs["layout_text_coverage"] == 1.0


def test_no_layout_check_never_starts_libreoffice(deck: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Extraction and checks that do not judge drawn text run without any renderer; the
    first check that does asks for the render (here: no LibreOffice, so ``error``)."""
    monkeypatch.setenv("ARTIFACTCHECK_SOFFICE", str(tmp_path / "no-soffice"))
    monkeypatch.setenv("ARTIFACTCHECK_CACHE_DIR", str(tmp_path / "cache"))
    from artifactcheck.extractors.render.renderer import soffice_version

    soffice_version.cache_clear()
    try:
        d = load(deck)
        assert d.layout_pending
        assert run_check("in_region", d, {"target": "slide:first-of-type shape[placeholder_type=title]", "region": "bottom 30%", "page": 0}).status == "pass"
        assert run_check("text_contains", d, {"phrases": ["Quarterly Review"]}).status == "pass"
        assert d.layout_pending and not (tmp_path / "cache").exists()
        broken = run_check("in_region", d, {"target": {"text": "Quarterly Review"}, "region": "bottom 30%", "page": 0})
        assert broken.status == "error" and "LibreOffice" in broken.explanation
        again = run_check("in_region", d, {"target": {"text": "Revenue"}, "region": "top 50%", "page": 0})
        assert again.status == "error"  # the failed render is not retried
    finally:
        soffice_version.cache_clear()


def test_lxml_is_what_python_pptx_wrote(deck: Path) -> None:
    """The deck really holds what the tests claim python-pptx writes."""
    prs = Presentation(str(deck))
    xfrm = prs.slides[0].shapes.title._element.spPr.find(f"{{{A}}}xfrm")
    assert [etree.QName(c).localname for c in xfrm] == ["off"]
    body_pr = prs.slides[3].placeholders[1].text_frame._txBody.bodyPr
    assert body_pr.find(f"{{{A}}}normAutofit") is not None
    tr = prs.slides[4].shapes[3]._element.find(f".//{{{A}}}tr[2]")
    assert tr is not None and tr.get("h") == "0"
    assert prs.slides[5]._element.get("show") == "0" and P


def test_every_layout_attribute_is_declared(doc: Document) -> None:
    """The attribute reference covers what a laid-out deck carries (drawn boxes, lines,
    table rows sized from the render, slide numbers); the reference's own test loads
    decks without a layout."""
    from tests.model.test_attributes import undeclared

    problems = undeclared(doc, "agent deck")
    assert not problems, "\n".join(problems)


def test_cli_extract_with_layout_prints_drawn_boxes(deck: Path, doc: Document) -> None:
    import json

    from typer.testing import CliRunner

    from artifactcheck.cli import app

    result = CliRunner().invoke(app, ["extract", str(deck), "--layout", "--compact"])
    assert result.exit_code == 0, result.output
    tree = json.loads(result.stdout)
    title = tree["root"]["children"][0]["children"][0]["children"][0]  # s0/sh0/p0
    assert title["id"] == "s0/sh0/p0" and title["boxes"][0]["origin"] == "layout"
    assert title["boxes"][0]["top"] == pytest.approx(doc.get("s0/sh0/p0").boxes[0].top)
    plain = json.loads(CliRunner().invoke(app, ["extract", str(deck), "--compact"]).stdout)
    assert plain["root"]["children"][0]["children"][0]["children"][0]["boxes"][0]["origin"] == "native"


def test_a_file_changed_after_loading_is_not_laid_out(deck: Path, tmp_path: Path) -> None:
    copy_path = tmp_path / "copy.pptx"
    copy_path.write_bytes(deck.read_bytes())
    d = load(copy_path)
    copy_path.write_bytes(deck.read_bytes() + b"\0")  # other bytes than the tree's
    result = run_check("in_region", d, {"target": {"text": "Quarterly Review"}, "region": "bottom 30%", "page": 0})
    assert result.status == "error" and "changed" in result.explanation
