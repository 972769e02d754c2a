"""``text_fits`` on Word documents, judged where LibreOffice draws the text.

An agent sets a python-docx row to an exact height (``height_rule = EXACTLY``, 14 pt)
and puts two lines in one of its cells: LibreOffice keeps the row 14 pt high and clips
the second line (it stays in the PDF's text layer, below the row, but is not painted);
a line wholly below the row is not drawn at all. Rows of other heights grow, and a long
unbreakable word in a fixed narrow column is broken at the cell edge. Every .docx cell
was "not judged" (``skipped``). A Word text box whose text is followed by an empty
paragraph was measured as one line too tall and failed though its text shows whole.
The truth is the render: the PDF's characters and the page's pixels."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdfium2 as pdfium
import pytest
from docx import Document as WordDocument
from docx.enum.table import WD_ROW_HEIGHT_RULE
from docx.shared import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.extractors.render.layout import PdfChar
from tests.conftest import corpus_file

pytestmark = pytest.mark.slow

HASH = "ID_9f8e7d6c5b4a39281726354433221100ffeeddcc"


def _exact_row(doc: Any, height: float, left: str, *right: str, borders: bool = True) -> None:
    table = doc.add_table(rows=1, cols=2)
    if borders:
        table.style = "Table Grid"
    table.rows[0].height_rule = WD_ROW_HEIGHT_RULE.EXACTLY
    table.rows[0].height = Pt(height)
    table.cell(0, 0).text = left
    cell = table.cell(0, 1)
    cell.text = right[0]
    for extra in right[1:]:
        cell.add_paragraph(extra)


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = WordDocument()
    doc.add_paragraph("Exact 14 pt row, two lines")
    _exact_row(doc, 14, "AlphaTop", "First line BetaOne", "Second line GammaHidden")
    doc.add_paragraph("Next")  # short: the clipped line, drawn further right, overlaps nothing
    doc.add_paragraph("Exact 20 pt row, one line")
    _exact_row(doc, 20, "XiOne", "OmicronTwo")
    doc.add_paragraph("Fixed narrow columns, unbreakable text")
    table = doc.add_table(rows=1, cols=2)
    table.style = "Table Grid"
    table.autofit = False
    for column in table.columns:
        column.width = Inches(1)
        for cell in column.cells:
            cell.width = Inches(1)
    table.cell(0, 0).text = HASH
    table.cell(0, 1).text = "LambdaNext"
    doc.add_paragraph("Exact 14 pt row, borderless, two paragraphs")
    _exact_row(doc, 14, "OmegaShort", "ChiOne", "PsiTwoHidden", borders=False)
    path = tmp_path_factory.mktemp("docx_fit") / "tables.docx"
    doc.save(str(path))
    return path


def _chars(pdf: Path, word: str) -> list[PdfChar]:
    chars = [c for c in read_layout(pdf).chars if not c.generated]
    text = "".join(c.char for c in chars)
    at = text.find(word)
    return chars[at : at + len(word)] if at >= 0 else []


def _painted(pdf: Path, chars: list[PdfChar], below: float | None = None) -> bool:
    """Are there dark pixels where these characters' ink is (4 px per pt)? A drawn
    character's box is its font's band; the ink of lower-case letters fills its middle
    (a rule just above or below the band is left out), and with ``below`` only what lies
    under that line (a box's bottom edge drawn across the band)."""
    scale = 4
    image = pdfium.PdfDocument(str(pdf))[chars[0].page].render(scale=scale).to_pil().convert("L")
    top, bottom = min(c.top for c in chars), max(c.bottom for c in chars)
    band = bottom - top
    core_top, core_bottom = top + 0.3 * band, bottom - 0.25 * band
    if below is not None:
        core_top = max(core_top, below + 1.5)
    box = (int(min(c.x0 for c in chars) * scale), int(core_top * scale), int(max(c.x1 for c in chars) * scale), int(core_bottom * scale))
    darkest: int = min(image.crop(box).get_flattened_data())
    return darkest < 128


def _verdicts(path: Path) -> dict[str, dict[str, Any]]:
    result = run_check("text_fits", load(path), {"target": "cell"})
    rows: list[dict[str, Any]] = result.evidence["overflowing"] + result.evidence["fitting_sample"]  # type: ignore[operator,assignment]
    return {str(row["text"]).split("\n")[0]: row for row in rows}


def test_exact_row_clips_its_second_line(tables: Path) -> None:
    pdf = render_pdf(tables).pdf_path
    first, hidden = _chars(pdf, "BetaOne"), _chars(pdf, "GammaHidden")
    assert first and hidden
    assert _painted(pdf, first) and not _painted(pdf, hidden)  # in the text layer, not painted
    assert min(c.top for c in hidden) > min(c.top for c in first) + 10  # the line below
    assert _painted(pdf, _chars(pdf, "OmicronTwo"))  # the 20 pt row shows its one line
    verdicts = _verdicts(tables)
    cut = verdicts["First line BetaOne"]
    assert cut["ok"] is False and "exactly 14 pt" in cut["overflow"], cut
    assert verdicts["AlphaTop"]["ok"] and verdicts["XiOne"]["ok"] and verdicts["OmicronTwo"]["ok"]


def test_wholly_clipped_paragraph_is_not_drawn_and_fails(tables: Path) -> None:
    pdf = render_pdf(tables).pdf_path
    assert _chars(pdf, "ChiOne") and not _chars(pdf, "PsiTwoHidden")
    row = _verdicts(tables)["ChiOne"]
    assert row["ok"] is False and "not drawn" in row["overflow"], row


def test_growing_row_with_unbreakable_text_fits(tables: Path) -> None:
    pdf = render_pdf(tables).pdf_path
    token = _chars(pdf, HASH[-8:])  # the last piece, on a line of its own
    neighbour = _chars(pdf, "LambdaNext")
    assert token and neighbour and max(c.x1 for c in token) < min(c.x0 for c in neighbour)
    assert _painted(pdf, token)
    verdicts = _verdicts(tables)
    assert verdicts[HASH]["ok"] and verdicts[HASH].get("row_grows"), verdicts[HASH]


def _area(r: tuple[float, float, float, float]) -> float:
    return (r[2] - r[0]) * (r[3] - r[1])


def _frame_around(pdf: Path, chars: list[PdfChar]) -> tuple[float, float, float, float]:
    """The smallest drawn path (a text box's outline) around these characters."""
    page = pdfium.PdfDocument(str(pdf))[chars[0].page]
    height = page.get_height()
    x0, top = min(c.x0 for c in chars), min(c.top for c in chars)
    x1, bottom = max(c.x1 for c in chars), max(c.bottom for c in chars)
    best = None
    for obj in page.get_objects(max_depth=5):
        if obj.type != pdfium.raw.FPDF_PAGEOBJ_PATH:
            continue
        left, low, right, high = obj.get_bounds()
        frame = (left, height - high, right, height - low)
        encloses = frame[0] <= x0 and frame[1] <= top and frame[2] >= x1 and frame[3] >= bottom
        if encloses and (best is None or _area(frame) < _area(best)):
            best = frame
    assert best is not None
    return best


def test_word_text_boxes_judged_as_drawn() -> None:
    path = corpus_file("docx", "docling_textbox.docx")
    pdf = render_pdf(path).pdf_path
    shown = _chars(pdf, "Student falls ill")
    frame = _frame_around(pdf, shown)
    assert frame[3] - frame[1] < 40 and _painted(pdf, shown)  # one line, inside its box
    first, last = _chars(pdf, "If a caregiver"), _chars(pdf, "show the same suggested")
    frame_bottom = _frame_around(pdf, first)[3]
    assert max(c.bottom for c in last) > frame_bottom and not _painted(pdf, last, below=frame_bottom)
    assert _painted(pdf, _chars(pdf, "classes with 15 or fewer"))  # the line above it shows
    doc = load(path)

    def verdict(start: str) -> dict[str, Any]:
        target = {"selector": "textbox", "text": start, "match": "startswith"}
        result = run_check("text_fits", doc, {"target": target})
        assert "PowerPoint" not in result.explanation  # a Word text box has no shrink-on-overflow
        rows: list[dict[str, Any]] = result.evidence["overflowing"] + result.evidence["fitting_sample"]  # type: ignore[operator,assignment]
        assert len(rows) == 1, rows
        return rows[0]

    assert verdict("Student falls ill")["ok"], verdict("Student falls ill")
    assert verdict("Case closed.")["ok"], verdict("Case closed.")
    assert verdict("If a caregiver")["ok"] is False, verdict("If a caregiver")


@pytest.fixture(scope="module")
def descenders(tmp_path_factory: pytest.TempPathFactory) -> Path:
    doc = WordDocument()
    for rule, word in ((WD_ROW_HEIGHT_RULE.EXACTLY, "gypsyExact"), (WD_ROW_HEIGHT_RULE.AT_LEAST, "gypsyGrows")):
        doc.add_paragraph("A 14 pt line in a 14 pt row")
        table = doc.add_table(rows=1, cols=2)
        table.style = "Table Grid"
        table.rows[0].height_rule = rule
        table.rows[0].height = Pt(14)
        table.cell(0, 0).text = "x"
        table.cell(0, 1).text = word
        table.cell(0, 1).paragraphs[0].runs[0].font.size = Pt(14)
    doc.add_paragraph("An 11 pt line pushed down a 20 pt row by 10 pt of space before")
    table = doc.add_table(rows=1, cols=2)
    table.style = "Table Grid"
    table.rows[0].height_rule = WD_ROW_HEIGHT_RULE.EXACTLY
    table.rows[0].height = Pt(20)
    table.cell(0, 0).text = "x"
    table.cell(0, 1).text = "gypsySpaced"
    table.cell(0, 1).paragraphs[0].paragraph_format.space_before = Pt(10)
    path = tmp_path_factory.mktemp("docx_fit") / "descenders.docx"
    doc.save(str(path))
    return path


def _ink_below(pdf: Path, chars: list[PdfChar], depth: float) -> bool:
    """Dark pixels in the ``depth`` pt above the band's bottom (the descenders)?"""
    scale = 4
    image = pdfium.PdfDocument(str(pdf))[chars[0].page].render(scale=scale).to_pil().convert("L")
    bottom = max(c.bottom for c in chars)
    box = (int(min(c.x0 for c in chars) * scale), int((bottom - depth) * scale), int(max(c.x1 for c in chars) * scale), int(bottom * scale))
    darkest: int = min(image.crop(box).get_flattened_data())
    return darkest < 128


def test_descenders_cut_by_an_exact_row_fail(descenders: Path) -> None:
    pdf = render_pdf(descenders).pdf_path
    cut, grown = _chars(pdf, "gypsyExact"), _chars(pdf, "gypsyGrows")
    # the same line: its descenders show in the growing row, not in the exact one
    assert _ink_below(pdf, grown, 2.0) and not _ink_below(pdf, cut, 2.0)
    verdicts = _verdicts(descenders)
    assert verdicts["gypsyExact"]["ok"] is False, verdicts["gypsyExact"]
    assert verdicts["gypsyGrows"]["ok"], verdicts["gypsyGrows"]
    forgiving = run_check("text_fits", load(descenders), {"target": "cell", "tolerance_pt": 3})
    assert forgiving.status == "pass", forgiving.explanation  # the author forgives 3 pt


def test_space_before_pushing_a_line_out_of_an_exact_row_fails(descenders: Path) -> None:
    pdf = render_pdf(descenders).pdf_path
    pushed = _chars(pdf, "gypsySpaced")
    assert not _ink_below(pdf, pushed, 2.0)  # its descenders are below the row, clipped
    row = _verdicts(descenders)["gypsySpaced"]
    assert row["ok"] is False and row["needed_height_pt"] > 20, row


def test_fixed_table_wider_than_the_page_cuts_its_last_column(tmp_path: Path) -> None:
    doc = WordDocument()
    table = doc.add_table(rows=1, cols=3)
    table.style = "Table Grid"
    table.autofit = False
    for column in table.columns:
        column.width = Inches(3.2)  # 9.6 in on an 8.5 in page
        for cell in column.cells:
            cell.width = Inches(3.2)
    for i, text in enumerate(("WideOne left", "WideTwo middle", "WideThree right column OffPage")):
        table.cell(0, i).text = text
    path = tmp_path / "wide.docx"
    doc.save(str(path))
    pdf = render_pdf(path).pdf_path
    width = pdfium.PdfDocument(str(pdf))[0].get_width()
    assert max(c.x1 for c in _chars(pdf, "OffPage")) > width  # drawn off the page
    assert max(c.x1 for c in _chars(pdf, "WideTwo middle")) < width
    verdicts = _verdicts(path)
    assert verdicts["WideThree right column OffPage"]["ok"] is False
    assert "page edge" in verdicts["WideThree right column OffPage"]["overflow"]
    assert verdicts["WideOne left"]["ok"] and verdicts["WideTwo middle"]["ok"]
