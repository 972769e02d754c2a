"""Text a tab stop moves apart, in a .docx: python-docx's ``footer.paragraphs[0].text =
"ACME Corp\\t\\tConfidential"`` is how agents put text at both ends of a footer (the Footer
style has centre and right tab stops). A person sees "Confidential" in the lower-right
corner; the check must judge the words where they are drawn, not the centre of the line.
The truth is read off the LibreOffice render (the PDF's word boxes)."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import Document, load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import layout_of

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def memo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.sections[0].footer.paragraphs[0].text = "ACME Corp\t\tConfidential"
    header = d.sections[0].header.paragraphs[0]
    header.add_run("Q3 Report\t\t")  # the way some agents write it: two runs, same format
    header.add_run("Internal use")
    d.add_heading("Budget Memo", 1)
    d.add_paragraph("Signature: Jordan Lee\tDate: 30 June 2024")
    path = tmp_path_factory.mktemp("tabs") / "memo.docx"
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def doc(memo: Path) -> Document:
    return load(memo, render=True)


def _drawn(memo: Path, word: str) -> tuple[float, float]:
    """(x0, x1) of ``word`` on the first page of the render."""
    (w,) = [w for w in layout_of(render_pdf(memo).pdf_path).words if w.page == 0 and w.text.startswith(word)]
    return w.x0, w.x1


def test_the_render_puts_the_words_apart(memo: Path) -> None:
    acme, confidential = _drawn(memo, "ACME"), _drawn(memo, "Confidential")
    assert acme[1] < 612 / 3 and confidential[0] > 612 * 2 / 3  # the premise of the tests below


def test_in_region_judges_the_words_not_the_line(doc: Document, memo: Path) -> None:
    right = run_check("in_region", doc, {"target": {"text": "Confidential"}, "region": "lower-right"})
    assert right.status == "pass", right.explanation
    x0, x1 = _drawn(memo, "Confidential")
    (box,) = right.evidence["nodes"][0]["boxes"]
    assert abs(box["x0"] - x0) < 1 and abs(box["x1"] - x1) < 1
    assert run_check("in_region", doc, {"target": {"text": "Confidential"}, "region": "lower-left"}).status == "fail"
    assert run_check("in_region", doc, {"target": {"text": "ACME Corp"}, "region": "lower-left"}).status == "pass"
    assert run_check("in_region", doc, {"target": {"text": "Internal use"}, "region": "upper-right"}).status == "pass"
    runs = run_check("in_region", doc, {"target": {"selector": "run", "text": "Confidential"}, "region": "lower-right"})
    assert runs.status == "pass", runs.explanation


def test_relative_position_of_two_words_on_one_line(doc: Document) -> None:
    params = {"a": {"text": "Confidential"}, "b": {"text": "ACME Corp"}, "relation": "right_of"}
    assert run_check("relative_position", doc, params).status == "pass"
    assert run_check("relative_position", doc, {**params, "relation": "left_of"}).status == "fail"
    date = {"a": {"text": "Date:"}, "b": {"text": "Signature:"}, "relation": "right_of"}
    assert run_check("relative_position", doc, date).status == "pass"


def test_the_line_is_still_one_paragraph_with_its_text(doc: Document) -> None:
    footer = doc.select("footer paragraph")
    assert [p.text for p in footer] == ["ACME Corp\t\tConfidential"]
    assert [r.text for r in footer[0].select("run")] == ["ACME Corp\t\t", "Confidential"]
    whole = run_check("in_region", doc, {"target": {"selector": "paragraph", "text": "Confidential"}, "region": "bottom"})
    assert whole.status == "pass"  # a selector names the paragraph: its box is the whole line
