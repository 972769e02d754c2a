"""Hidden and deleted text is in the file, not in the document a reader reads. An agent
hides a paragraph (python-docx ``font.hidden``) and leaves a tracked deletion; "the
document has exactly 3 paragraphs" must count the 3 a reader sees, not 5, unless the
selector asks about hidden or deleted text itself. The truth is the render: hidden text is
never drawn, and the deletion only as struck-through markup."""

from __future__ import annotations

from pathlib import Path

import docx
import docx.document
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
from docx.oxml.xmlchemy import BaseOxmlElement

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import layout_of, page_texts

pytestmark = pytest.mark.slow

_SHOWN = ["Opening paragraph.", "Middle paragraph.", "Closing paragraph."]


def _tracked(tag: str, n: int) -> BaseOxmlElement:
    el = OxmlElement(tag)
    el.set(qn("w:id"), str(n))
    el.set(qn("w:author"), "Agent")
    el.set(qn("w:date"), "2026-01-01T00:00:00Z")
    return el


def _add_deleted_paragraph(d: docx.document.Document, text: str) -> None:
    """A paragraph deleted with changes tracked, its mark too (Word's w:del around the run,
    w:delText for its text, a w:del in the mark's w:rPr)."""
    gone = d.add_paragraph()
    run = gone.add_run(text)
    deletion = _tracked("w:del", 1)
    run._r.addprevious(deletion)
    deletion.append(run._r)
    for t in deletion.iter(qn("w:t")):
        t.tag = qn("w:delText")
    mark = OxmlElement("w:rPr")
    mark.append(_tracked("w:del", 2))
    gone._p.get_or_add_pPr().append(mark)


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_paragraph(_SHOWN[0])
    d.add_paragraph().add_run("A paragraph the agent hid.").font.hidden = True
    d.add_paragraph(_SHOWN[1])
    _add_deleted_paragraph(d, "A paragraph the agent deleted with changes tracked.")
    d.add_paragraph(_SHOWN[2])
    path = tmp_path_factory.mktemp("unprinted") / "edited.docx"
    d.save(str(path))
    return path


def test_count_counts_the_paragraphs_a_reader_sees(edited: Path) -> None:
    printed = " ".join(page_texts(render_pdf(edited).pdf_path))
    assert all(s in printed for s in _SHOWN) and "agent hid" not in printed
    doc = load(edited)
    three = run_check("count", doc, {"target": "paragraph", "exactly": 3})
    assert three.status == "pass", three.explanation
    assert [n["text"] for n in three.evidence["nodes"]] == _SHOWN
    every = run_check("count", doc, {"target": {"selector": "paragraph", "skip_empty": True}, "exactly": 3})
    assert every.status == "pass", every.explanation


def test_a_selector_that_names_hidden_or_deleted_text_still_finds_it(edited: Path) -> None:
    doc = load(edited, render=False)
    hidden = run_check("count", doc, {"target": "paragraph[hidden=true]", "exactly": 1})
    assert hidden.status == "pass", hidden.explanation
    deleted = run_check("count", doc, {"target": "run[deleted_text]", "exactly": 1})
    assert deleted.status == "pass", deleted.explanation
    unshown = run_check("count", doc, {"target": "paragraph[rendered=false]", "at_least": 2})
    assert unshown.status == "pass", unshown.explanation


def _with_view(src: Path, dest: Path, **view: str) -> Path:
    d = docx.Document(str(src))
    element = OxmlElement("w:revisionView")
    for name, value in view.items():
        element.set(qn(f"w:{name}"), value)
    d.settings.element.insert(0, element)
    d.save(str(dest))
    return dest


@pytest.fixture(scope="module")
def deleted_before(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A deleted paragraph whose words the next drawn paragraph shares ("Th", "paragraph.")."""
    d = docx.Document()
    d.add_paragraph("First visible paragraph.")
    _add_deleted_paragraph(d, "This paragraph was deleted.")
    d.add_paragraph("Third visible paragraph.")
    path = tmp_path_factory.mktemp("deleted") / "deleted_before.docx"
    d.save(str(path))
    return path


def _char_tops(pdf: Path, text: str) -> list[float]:
    """The tops of the characters of ``text`` as the render draws them."""
    layout = layout_of(pdf)
    at = layout.text.find(text)
    assert at >= 0, layout.text
    return [round(float(t), 1) for t in layout.columns.top[at : at + len(text)]]


@pytest.mark.parametrize("view", [{}, {"insDel": "0"}, {"markup": "false"}], ids=["shown", "insDel-off", "markup-off"])
def test_the_paragraph_after_a_deletion_is_boxed_where_it_is_drawn(
    deleted_before: Path, tmp_path: Path, view: dict[str, str]
) -> None:
    """LibreOffice draws a tracked deletion struck through unless the file's
    w:revisionView hides it. Left out of the alignment, the drawn deletion's characters
    were matched into the next paragraph: the one-line "Third visible paragraph." got a
    box two lines tall. Its box must be its own line, whichever the view."""
    path = _with_view(deleted_before, tmp_path / "viewed.docx", **view) if view else deleted_before
    pdf = render_pdf(path).pdf_path
    printed = " ".join(page_texts(pdf))
    assert ("was deleted" in printed) == (not view)
    tops = _char_tops(pdf, "Third visible paragraph.")
    doc = load(path)
    third = next(n for n in doc.iter("paragraph") if n.text == "Third visible paragraph.")
    assert len(third.boxes) == 1, third.boxes
    box = third.boxes[0]
    assert box.height < 16, box  # one 11-pt line
    assert box.top <= min(tops) + 1 and max(tops) - 1 <= box.bottom, (box, tops)
    assert doc.root.attrs["layout_text_coverage"] == 1.0


def test_the_targets_know_the_extractors_reasons() -> None:
    """checks/target.py spells the .docx reasons out (no extractor import at start-up)."""
    from artifactcheck.checks.target import _UNPRINTED_REASONS
    from artifactcheck.extractors.docx.body import HIDDEN_TEXT, TRACKED_DELETION

    assert {TRACKED_DELETION, HIDDEN_TEXT} <= _UNPRINTED_REASONS


@pytest.fixture(scope="module")
def words_in_text(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Printed paragraphs that say "hidden", "deleted" and "comment", beside a hidden, a
    deleted and a commented-on paragraph that say the same words."""
    d = docx.Document()
    d.add_paragraph("Costs that stay hidden.")
    d.add_paragraph().add_run("A hidden paragraph.").font.hidden = True
    d.add_paragraph("Nothing was deleted here.")
    _add_deleted_paragraph(d, "The deleted clause.")
    commented = d.add_paragraph("A comment on the budget follows.")
    d.add_comment(commented.runs, text="A reviewer's comment.", author="Reviewer")
    path = tmp_path_factory.mktemp("words") / "words.docx"
    d.save(str(path))
    return path


@pytest.mark.parametrize(
    ("selector", "printed"),
    [
        ("paragraph[text*='hidden']", ["Costs that stay hidden."]),
        ("paragraph[text*='deleted']", ["Nothing was deleted here."]),
        ("paragraph[text*='comment']", ["A comment on the budget follows."]),
    ],
)
def test_a_word_in_a_selector_value_does_not_bring_back_unprinted_text(
    words_in_text: Path, selector: str, printed: list[str]
) -> None:
    """The selector names paragraphs that *say* "hidden", not hidden ones: only a kind or
    attribute name ("run[hidden]", "comment paragraph") asks for unprinted text. Matching
    the word anywhere in the selector counted the reviewer's comment as a second paragraph
    saying "comment" (hidden and deleted text carry their words in other attributes, not
    ``text``, so those two cases held already; they stay as guards)."""
    page = " ".join(page_texts(render_pdf(words_in_text).pdf_path))
    assert all(p in page for p in printed)
    assert "A hidden paragraph." not in page and "A reviewer" not in page
    doc = load(words_in_text)
    found = run_check("count", doc, {"target": selector, "exactly": 1})
    assert found.status == "pass", found.explanation
    assert [n["text"] for n in found.evidence["nodes"]] == printed
    named = run_check("count", doc, {"target": "comment paragraph", "exactly": 1})
    assert named.status == "pass", named.explanation
