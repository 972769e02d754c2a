"""Theme colours keep their slot in .pptx and .xlsx trees (``color_theme``, ``fill_theme``
and the lumMod/lumOff or tint applied), next to the hex LibreOffice paints; colour checks
resolve ``theme:`` specs against the file's own theme. Files are built the way agents
build them (python-pptx ``theme_color``/``brightness``, openpyxl ``Color(theme=, tint=)``)
and the hex values are judged by the LibreOffice render."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import Workbook
from openpyxl.styles import Border, Color, Font, PatternFill, Side
from pptx import Presentation
from pptx.enum.dml import MSO_THEME_COLOR
from pptx.enum.shapes import MSO_SHAPE
from pptx.util import Inches, Pt

from artifactcheck import run_check
from artifactcheck.extractors.pptx.extract import extract_pptx
from artifactcheck.extractors.render import render_pdf
from artifactcheck.extractors.xlsx.extract import extract_xlsx
from artifactcheck.model import Box, Document
from tests.extractors.rendered_look import background, ink, same_color
from tests.extractors.xlsx_look import look, same_colour

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    box = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(1), Inches(1), Inches(4), Inches(1.5))
    box.fill.solid()
    box.fill.fore_color.theme_color = MSO_THEME_COLOR.ACCENT_2
    box.fill.fore_color.brightness = 0.4  # "Lighter 40%": lumMod 60000, lumOff 40000
    box.line.color.theme_color = MSO_THEME_COLOR.ACCENT_6
    box.line.width = Pt(6)
    box.text_frame.text = "Accent one darker"
    run = box.text_frame.paragraphs[0].runs[0]
    run.font.size, run.font.bold = Pt(32), True
    run.font.color.theme_color = MSO_THEME_COLOR.ACCENT_1
    run.font.color.brightness = -0.5  # "Darker 50%": lumMod 50000
    text = slide.shapes.add_textbox(Inches(1), Inches(4), Inches(6), Inches(1))
    text.text_frame.text = "Plain default text"
    table = slide.shapes.add_table(2, 2, Inches(6), Inches(1), Inches(3), Inches(1)).table
    table.cell(0, 0).text, table.cell(1, 0).text = "Head", "Body"
    path = tmp_path_factory.mktemp("theme_pptx") / "deck.pptx"
    prs.save(str(path))
    return path, extract_pptx(path)


def test_pptx_keeps_theme_slots_and_paints_them(deck: tuple[Path, Document]) -> None:
    path, doc = deck
    pdf = render_pdf(path).pdf_path
    shape = next(n for n in doc.iter("shape") if n.text == "Accent one darker")
    assert (shape.style.fill, shape.style.fill_theme, shape.style.fill_theme_mods) == (
        "#d99694",
        "accent2",
        "lumMod=60000 lumOff=40000",
    )
    assert (shape.attrs["line_color"], shape.attrs["line_color_theme"]) == ("#f79646", "accent6")
    (run,) = shape.descendants("run")
    assert (run.style.color, run.style.color_theme, run.style.color_theme_mods) == ("#254061", "accent1", "lumMod=50000")
    plain = next(r for r in doc.iter("run") if r.text == "Plain default text")
    assert (plain.style.color_theme, plain.style.color_theme_mods) == ("dk1", None)  # tx1 mapped
    assert doc.root.attrs["theme_colors"]["accent2"] == "#c0504d"  # type: ignore[index]
    # what LibreOffice paints: inside the rectangle, its outline, the text's ink
    b = shape.boxes[0]
    assert same_color(background(pdf, Box(page=0, x0=b.x0 + 12, top=b.top + 8, x1=b.x0 + 40, bottom=b.top + 20)), "#d99694")
    assert same_color(background(pdf, Box(page=0, x0=b.x0 - 1.5, top=b.top + 30, x1=b.x0 + 1.5, bottom=b.top + 60)), "#f79646")
    assert same_color(ink(pdf, b), "#254061", 4.0)
    # a table cell filled by the default table style (Medium Style 2 - Accent 1)
    head = next(c for c in doc.iter("cell") if c.text == "Head")
    assert head.style.fill_theme == "accent1"
    hb = head.boxes[0]
    assert same_color(background(pdf, Box(page=0, x0=hb.x1 - 20, top=hb.top + 4, x1=hb.x1 - 6, bottom=hb.bottom - 4)), head.style.fill)


def test_pptx_colour_checks_read_the_decks_theme(deck: tuple[Path, Document]) -> None:
    _path, doc = deck
    target = {"text": "Accent one"}
    r = run_check("color_is", doc, {"target": target, "expected": "theme:accent 1, darker 50%"})
    assert r.status == "pass" and r.evidence["nodes"][0]["actual_theme"] == "accent1 (lumMod=50000)"
    r = run_check("color_is", doc, {"target": "shape", "property": "fill", "expected": "theme:Accent 2, Lighter 40%", "quantifier": "any"})
    assert r.status == "pass", r.explanation
    # Office 2013's accent 1 (#4472c4), darker 50%, is another blue than this deck's
    assert run_check("color_is", doc, {"target": target, "expected": "accent 1, darker 50%"}).status == "fail"


@pytest.fixture(scope="module")
def book(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Document]:
    wb = Workbook()
    ws = wb.active
    ws["A1"] = "Heading"
    ws["A1"].font = Font(bold=True, color=Color(theme=4, tint=-0.249977111117893))  # accent 1, darker 25%
    ws["A1"].fill = PatternFill("solid", fgColor=Color(theme=5, tint=0.5999938962981048))  # accent 2, lighter 60%
    ws["B3"] = "Bordered"
    ws["B3"].border = Border(bottom=Side(style="thick", color=Color(theme=9)))
    ws["C5"] = "Literal"
    ws["C5"].fill = PatternFill("solid", fgColor="FFFFC000")
    path = tmp_path_factory.mktemp("theme_xlsx") / "book.xlsx"
    wb.save(path)
    return path, extract_xlsx(path)


def test_xlsx_keeps_theme_slots_and_paints_them(book: tuple[Path, Document]) -> None:
    path, doc = book
    cells = {c.text: c for c in doc.iter("cell") if c.text}
    head = cells["Heading"].style
    assert (head.color_theme, head.color_theme_mods) == ("accent1", "tint=-0.249977111117893")
    assert (head.fill_theme, head.fill_theme_mods) == ("accent2", "tint=0.5999938962981048")
    drawn = look(path, "Heading")
    assert same_colour(head.fill, drawn.background, 6) and same_colour(head.color, drawn.color, 40)
    assert cells["Bordered"].attrs["borders"]["bottom"]["color_theme"] == "accent6"  # type: ignore[index]
    literal = cells["Literal"].style
    assert literal.fill == "#ffc000" and literal.fill_theme is None
    assert doc.root.attrs["theme_colors"]["accent2"] == "#c0504d"  # type: ignore[index]
    r = run_check("color_is", doc, {"target": "cell:contains('Heading')", "property": "fill", "expected": "theme:accent 2, lighter 60%"})
    assert r.status == "pass", r.explanation
