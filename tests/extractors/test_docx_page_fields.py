""""Page X of Y" footers as python-docx users write them: PAGE and NUMPAGES fields made of
fldChar/instrText runs, with no stored result (the usual recipe) or a stale one ("1").
Word and LibreOffice print the numbers; the truth is the footer text of each rendered
page."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.text.run import Run

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


def _field(run: Run, instr: str, result: str | None) -> None:
    def char(kind: str) -> None:
        el = OxmlElement("w:fldChar")
        el.set(qn("w:fldCharType"), kind)
        run._r.append(el)

    char("begin")
    code = OxmlElement("w:instrText")
    code.set(qn("xml:space"), "preserve")
    code.text = instr
    run._r.append(code)
    if result is not None:
        char("separate")
        shown = OxmlElement("w:t")
        shown.text = result
        run._r.append(shown)
    char("end")


def _paged(path: Path, stored: str | None) -> Path:
    d = docx.Document()
    footer = d.sections[0].footer.paragraphs[0]
    footer.add_run("Page ")
    _field(footer.add_run(), "PAGE", stored)
    footer.add_run(" of ")
    _field(footer.add_run(), "NUMPAGES", stored)
    for i in range(3):
        d.add_paragraph(f"Body of page {i + 1}")
        if i < 2:
            d.add_page_break()
    d.save(str(path))
    return path


@pytest.mark.parametrize("stored", [None, "1"], ids=["no result", "stale result"])
def test_a_page_x_of_y_footer_reads_as_printed(tmp_path: Path, stored: str | None) -> None:
    path = _paged(tmp_path / "paged.docx", stored)
    layout = read_layout(render_pdf(path).pdf_path)
    printed = [" ".join(w.text for w in layout.words if w.page == p.index and w.top > p.height - 72) for p in layout.pages]
    assert printed == ["Page 1 of 3", "Page 2 of 3", "Page 3 of 3"]
    doc = load(path)
    footer = doc.select_one("footer")
    assert footer.text == printed[0]  # what its first page prints
    numbers = [r for r in footer.iter() if r.kind == "run" and r.attrs.get("field")]
    assert [[b.page for b in r.boxes] for r in numbers] == [[0, 1, 2], [0, 1, 2]]  # boxed on every page
    assert numbers[1].attrs["field_result_stored"] == (stored or "")
    assert run_check("text_regex", doc, {"pattern": r"^Page \d+ of 3$", "target": "footer"}).status == "pass"
    assert run_check("text_contains", doc, {"phrases": ["Page 1 of 3"], "scope": "footer"}).status == "pass"
    # without a render the page count is unknown: the stored text, as the file says
    unrendered = load(path, render=False).select_one("footer")
    assert unrendered.text == ("Page  of " if stored is None else "Page 1 of 1")
