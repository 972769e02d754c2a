"""Small real Office files for the text/colour/formatting/query/trace check tests, written
with python-docx, openpyxl and python-pptx and read back with ``artifactcheck.load``
(no rendering). Each builder has a ``good`` variant that satisfies the rubric the tests
use and a ``bad`` variant that breaks it in one documented way per check.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import docx
import openpyxl
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.shared import Pt, RGBColor
from openpyxl.styles import Font, PatternFill
from pptx import Presentation
from pptx.util import Pt as PptPt

from artifactcheck import Document, load


def _shade(run: docx.text.run.Run, fill: str) -> None:
    """Run shading: how Google Docs exports an arbitrary highlight colour."""
    shd = OxmlElement("w:shd")
    shd.set(qn("w:val"), "clear")
    shd.set(qn("w:color"), "auto")
    shd.set(qn("w:fill"), fill)
    run._r.get_or_add_rPr().append(shd)


def _hyperlink(
    paragraph: docx.text.paragraph.Paragraph,
    url: str,
    text: str,
    *,
    bold: bool,
    italic: bool,
    color: str,
    size: float,
    split: bool = False,
) -> None:
    """A w:hyperlink with one run (or two runs when ``split``: Docs often splits links)."""
    part = paragraph.part
    r_id = part.relate_to(
        url,
        "http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink",
        is_external=True,
    )
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), r_id)
    pieces = [text[: len(text) // 2], text[len(text) // 2 :]] if split else [text]
    for i, piece in enumerate(pieces):
        run = OxmlElement("w:r")
        rpr = OxmlElement("w:rPr")
        for tag, on in (("w:b", bold), ("w:i", italic if (i == 0 or not split) else not italic)):
            el = OxmlElement(tag)
            el.set(qn("w:val"), "1" if on else "0")
            rpr.append(el)
        col = OxmlElement("w:color")
        col.set(qn("w:val"), color)
        rpr.append(col)
        sz = OxmlElement("w:sz")
        sz.set(qn("w:val"), str(int(size * 2)))
        rpr.append(sz)
        run.append(rpr)
        t = OxmlElement("w:t")
        t.text = piece
        t.set(qn("xml:space"), "preserve")
        run.append(t)
        link.append(run)
    paragraph._p.append(link)


def _bullet(document: docx.document.Document, text: str, level: int) -> None:
    p = document.add_paragraph(text, style="List Bullet")
    if level:
        num_id = document.styles["List Bullet"].element.pPr.numPr.numId.val
        num_pr = p._p.get_or_add_pPr().get_or_add_numPr()
        num_pr.get_or_add_ilvl().val = level
        num_pr.get_or_add_numId().val = num_id


def build_report_docx(path: Path, *, good: bool) -> Path:
    """The report. Bad variant: hyperlink black and half not italic; a stray bold word;
    both topics highlighted yellow; facts not nested under the URL bullet; no Heading 2 above
    the Heading 3s (skipped level) and Module 2 is a Heading 4; 'Summary' not first; date and total differ; smart quotes
    missing; a URL cited that the trace does not visit; title misspelt."""
    d = docx.Document()
    summary = d.add_paragraph("Summary of findings.")
    if good:
        d.add_heading("Energy \u201cReport\u201d \u2014 2024", 1)
    else:
        d._body._body.remove(summary._p)
        d.add_heading("Enrgy Report 2024", 1)
        d.add_paragraph("Summary of findings.")
    p = d.add_paragraph("Read the ")
    _hyperlink(
        p,
        "https://www.example.org/report/?utm_source=newsletter",
        "full report",
        bold=True,
        italic=True,
        color="45818E" if good else "000000",
        size=12,
        split=not good,
    )
    tail = p.add_run(" online")
    if not good:
        tail.bold = True
    p.add_run(".")
    solar = d.add_paragraph()
    _shade(solar.add_run("Solar"), "FFF2CC")
    solar.add_run(" is growing fast.")
    wind = d.add_paragraph()
    _shade(wind.add_run("Wind"), "D0E0E3" if good else "FFF2CC")
    wind.add_run(" is cheap.")
    _bullet(d, "https://example.com/facts", 0)
    _bullet(d, "Fact one: capacity doubled", 1 if good else 0)
    _bullet(d, "Fact two: prices fell", 1 if good else 0)
    _bullet(d, "https://example.net/more", 0)
    if good:
        d.add_heading("Modules", 2)
    else:
        d.add_paragraph("Modules")  # the Heading 2 is missing: H1 -> H3 skips a level
    d.add_heading("Module 1: Basics", 3)
    d.add_heading("Module 2: Advanced", 3 if good else 4)
    d.add_paragraph("Signed on March 5, 2024." if good else "Signed on March 6, 2024.")
    d.add_paragraph("Total: $1,234.50" if good else "Total: $1,243.50")
    d.add_paragraph("Growth was 12% this year.")
    centred = d.add_paragraph("Thank you")
    centred.alignment = WD_ALIGN_PARAGRAPH.CENTER if good else WD_ALIGN_PARAGRAPH.LEFT
    last = d.add_paragraph()
    r = last.add_run("Sources: see www.example.com/facts")
    r.font.name = "Carlito" if good else "Arial"
    r.font.size = Pt(10)
    r.font.color.rgb = RGBColor(0x44, 0x72, 0xC4)
    out = path / f"report_{'good' if good else 'bad'}.docx"
    d.save(str(out))
    return out


def build_sheet_xlsx(path: Path, *, good: bool) -> Path:
    """A sheet with a bold header row, yellow-filled 'urgent' rows and a total formula.
    Bad variant: urgent rows scattered (row 3 urgent, row 4 not, row 5 urgent), header not
    bold, total typed in, a column renamed."""
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "Tasks"
    ws.append(["Task", "Owner", "Hours" if good else "Time spent", "Due"])
    rows = [
        ("Fix login", "Ada", 5, dt.date(2024, 3, 5), True),
        ("Write docs", "Bob", 3, dt.date(2024, 3, 9), good),
        ("Review", "Cy", 2, dt.date(2024, 4, 1), not good),
        ("Deploy", "Dee", 1, dt.date(2024, 4, 2), False),
    ]
    yellow = PatternFill("solid", fgColor="FFFF00")
    for i, (task, owner, hours, due, urgent) in enumerate(rows, start=2):
        ws.append([task, owner, hours, due])
        ws.cell(i, 4).number_format = "yyyy-mm-dd"
        if urgent:
            for c in range(1, 5):
                ws.cell(i, c).fill = yellow
    ws.cell(6, 1, "Total")
    ws.cell(6, 3, "=SUM(C2:C5)" if good else 11)
    if good:
        for c in ws[1]:
            c.font = Font(bold=True)
    wb.create_sheet("Notes")
    out = path / f"tasks_{'good' if good else 'bad'}.xlsx"
    wb.save(str(out))
    return out


def build_deck_pptx(path: Path, *, good: bool) -> Path:
    """Three slides (bad: two), a content slide with a URL bullet and nested facts (bad:
    flat), and a bold hyperlink run."""
    prs = Presentation()
    title = prs.slides.add_slide(prs.slide_layouts[0])
    title.shapes.title.text = "Wind energy"
    content = prs.slides.add_slide(prs.slide_layouts[1])
    content.shapes.title.text = "Sources"
    tf = content.placeholders[1].text_frame
    tf.text = "https://example.com/wind"
    for fact in ("Turbines got taller", "Costs fell"):
        para = tf.add_paragraph()
        para.text = fact
        para.level = 1 if good else 0
    run = tf.add_paragraph().add_run()
    run.text = "Read more"
    run.hyperlink.address = "https://example.org/more"
    run.font.bold = True
    run.font.size = PptPt(20)
    if good:
        prs.slides.add_slide(prs.slide_layouts[5]).shapes.title.text = "Questions"
    out = path / f"deck_{'good' if good else 'bad'}.pptx"
    prs.save(str(out))
    return out


def load_pair(builder: object, path: Path) -> tuple[Document, Document]:
    """(good, bad) Documents from one builder."""
    good = load(builder(path, good=True), render=False)  # type: ignore[operator]
    bad = load(builder(path, good=False), render=False)  # type: ignore[operator]
    return good, bad
