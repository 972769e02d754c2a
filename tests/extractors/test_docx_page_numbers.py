"""Page numbers as the page prints them. Agents number front matter in Roman numerals and
restart the body at 1 (python-docx ``add_section`` plus a ``w:pgNumType`` written with
OxmlElement, and a PAGE field in the footer). The tree counted 1, 2, 3... through the
whole document: the footer's number said "3" where the page prints "1", and the footer
was matched to a stray digit elsewhere. The truth is the render: what each page's footer
says after "Page "."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.enum.section import WD_SECTION
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.section import Section
from docx.text.paragraph import Paragraph

from artifactcheck import load
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow


def _page_field(paragraph: Paragraph) -> None:
    """A PAGE field as Word writes it (begin, instruction, separate, a stale "1", end)."""
    run = paragraph.add_run()
    for kind, text in (("begin", None), (None, " PAGE "), ("separate", None), (None, "1"), ("end", None)):
        if kind is not None:
            el = OxmlElement("w:fldChar")
            el.set(qn("w:fldCharType"), kind)
        elif text == " PAGE ":
            el = OxmlElement("w:instrText")
            el.set(qn("xml:space"), "preserve")
            el.text = text
        else:
            el = OxmlElement("w:t")
            el.text = text
        run._r.append(el)


def _numbering(section: Section, numbering: dict[str, str]) -> None:
    """The section's own w:pgNumType (add_section copies the previous section's)."""
    for old in section._sectPr.findall(qn("w:pgNumType")):
        section._sectPr.remove(old)
    if numbering:
        el = OxmlElement("w:pgNumType")
        for name, value in numbering.items():
            el.set(qn(f"w:{name}"), value)
        section._sectPr.append(el)


def _numbered(path: Path, sections: list[dict[str, str]]) -> Path:
    d = docx.Document()
    footer = d.sections[0].footer.paragraphs[0]
    footer.add_run("Page ")
    _page_field(footer)
    for k, numbering in enumerate(sections):
        section = d.sections[0] if k == 0 else d.add_section(WD_SECTION.NEW_PAGE)
        _numbering(section, numbering)
        d.add_paragraph(f"Section {k + 1}, first page.")
        d.add_page_break()
        d.add_paragraph(f"Section {k + 1}, second page.")
    d.save(str(path))
    return path


@pytest.mark.parametrize(
    "sections",
    [
        [{"fmt": "lowerRoman"}, {"start": "1", "fmt": "decimal"}, {}],  # front matter, body, appendix
        [{"start": "3"}, {"fmt": "upperRoman"}, {}],  # a format without a restart
        [{"fmt": "upperLetter"}, {"start": "0"}, {"fmt": "lowerRoman", "start": "27"}],
        [{"fmt": "decimalZero", "start": "9"}, {"fmt": "ordinal"}, {"fmt": "numberInDash"}],
    ],
    ids=["roman-front-matter", "format-only", "zero-and-letters", "zero-padded-ordinal-dash"],
)
def test_page_numbers_are_the_ones_the_pages_print(tmp_path: Path, sections: list[dict[str, str]]) -> None:
    path = _numbered(tmp_path / "numbered.docx", sections)
    printed = [text.split("Page ")[-1].strip() for text in page_texts(render_pdf(path).pdf_path)]
    assert len(printed) == 2 * len(sections)
    doc = load(path)
    assert [page.attrs["page_number"] for page in doc.pages] == printed
    (number,) = [r for r in doc.iter("run") if r.attrs.get("field") == "PAGE"]
    first = next(k for k, shown in enumerate(printed) if shown)
    assert number.text == printed[first]  # the first page it is printed on, not the file's "1"
    shown_on = [k for k, shown in enumerate(printed) if shown]
    assert [b.page for b in number.boxes] == shown_on  # matched in each footer, nowhere else
    for box in number.boxes:
        assert box.top > doc.pages[box.page].height - 72, box  # in the bottom margin
