"""Bold and size of Hebrew and Arabic text. An agent writes a Hebrew greeting and makes
it bold 16 pt with python-docx (``run.bold``, ``font.size``): those write ``w:b`` and
``w:sz``, which text of a complex script does not take; it is drawn with ``w:bCs`` and
``w:szCs`` (regular, 11 pt from the template's defaults), in Word and in LibreOffice.
"Is the greeting bold, 16 pt?" passed on the tree. The truth is the size and the font
face LibreOffice draws, read per character from the PDF."""

from __future__ import annotations

import ctypes
from pathlib import Path

import docx
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf

pytestmark = pytest.mark.slow

HEBREW = "שלום עולם"
ARABIC = "مرحبا بالعالم"
ARABIC_CS = "صباح الخير"  # no lam-alef: pdfium reads that ligature back reversed
HEBREW_HEADING = "כותרת ראשית"


@pytest.fixture(scope="module")
def greetings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    run = d.add_paragraph().add_run(HEBREW)
    run.bold, run.font.size = True, Pt(16)
    run = d.add_paragraph().add_run(ARABIC)
    run.italic, run.font.size = True, Pt(18)
    run = d.add_paragraph().add_run(ARABIC_CS)  # the complex-script way
    run.font.cs_bold = True
    size_cs = OxmlElement("w:szCs")
    size_cs.set(qn("w:val"), "32")
    run._r.get_or_add_rPr().append(size_cs)
    run = d.add_paragraph().add_run("LatinBold")
    run.bold, run.font.size = True, Pt(16)
    d.add_heading(HEBREW_HEADING, level=1)  # Heading 1 states b, bCs, sz and szCs
    path = tmp_path_factory.mktemp("complex-script") / "greetings.docx"
    d.save(str(path))
    return path


def _drawn(pdf: Path, text: str) -> tuple[set[float], bool]:
    """Sizes and whether every letter is in a bold face, for the characters of ``text``
    where pdfium reads it on the page."""
    page = pdfium.PdfDocument(str(pdf))[0]
    textpage = page.get_textpage()
    start = textpage.get_text_range().find(text)
    assert start >= 0, text
    sizes, fonts = set(), set()
    for i in range(start, start + len(text)):
        if text[i - start].isalpha():
            name = ctypes.create_string_buffer(256)
            pdfium_c.FPDFText_GetFontInfo(textpage.raw, i, name, 256, None)
            fonts.add(name.value.decode())
            sizes.add(round(pdfium_c.FPDFText_GetFontSize(textpage.raw, i), 1))
    return sizes, all("bold" in f.lower() for f in fonts)


@pytest.mark.parametrize(
    ("text", "size", "bold"),
    [(HEBREW, 11.0, False), (ARABIC, 11.0, False), (ARABIC_CS, 16.0, True), ("LatinBold", 16.0, True), (HEBREW_HEADING, 14.0, True)],
)
def test_style_is_what_libreoffice_draws(greetings: Path, text: str, size: float, bold: bool) -> None:
    sizes, drawn_bold = _drawn(render_pdf(greetings).pdf_path, text)
    assert sizes == {size} and drawn_bold is bold, (text, sizes, drawn_bold)
    run = next(r for r in load(greetings, render=False).select("run") if r.text == text)
    assert run.style is not None and run.style.size == size and run.style.bold is bold, (text, run.style)


def test_is_the_hebrew_greeting_bold_16pt(greetings: Path) -> None:
    doc = load(greetings, render=False)
    asked = {"target": {"selector": "run", "text": HEBREW}, "bold": True, "size": 16}
    verdict = run_check("format_is", doc, asked)
    assert verdict.status == "fail", verdict.explanation
    units = verdict.evidence["units"]
    assert isinstance(units, list) and isinstance(units[0], dict) and isinstance(units[0]["failed"], list)
    failed = {f["property"]: f["actual"] for f in units[0]["failed"] if isinstance(f, dict)}
    assert failed == {"bold": False, "size": 11.0}
    italic = run_check("format_is", doc, {"target": {"selector": "run", "text": ARABIC}, "italic": True})
    assert italic.status == "fail"  # w:i does not reach Arabic either
    right = run_check("format_is", doc, {"target": {"selector": "run", "text": ARABIC_CS}, "bold": True, "size": 16})
    assert right.status == "pass", right.explanation
