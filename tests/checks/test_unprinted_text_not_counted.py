"""Hidden and deleted text is in the file, not in the document a reader reads. An agent
hides a paragraph (python-docx ``font.hidden``) and leaves a tracked deletion; "the
document has exactly 3 paragraphs" must count the 3 a reader sees, not 5, unless the
selector asks about hidden or deleted text itself. The truth is the render: hidden text is
never drawn, and the deletion only as struck-through markup."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml import OxmlElement
from docx.oxml.ns import qn

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow

_SHOWN = ["Opening paragraph.", "Middle paragraph.", "Closing paragraph."]


def _tracked(tag: str, n: int) -> OxmlElement:
    el = OxmlElement(tag)
    el.set(qn("w:id"), str(n))
    el.set(qn("w:author"), "Agent")
    el.set(qn("w:date"), "2026-01-01T00:00:00Z")
    return el


@pytest.fixture(scope="module")
def edited(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_paragraph(_SHOWN[0])
    d.add_paragraph().add_run("A paragraph the agent hid.").font.hidden = True
    d.add_paragraph(_SHOWN[1])
    gone = d.add_paragraph()
    run = gone.add_run("A paragraph the agent deleted with changes tracked.")
    deletion = _tracked("w:del", 1)
    run._r.addprevious(deletion)
    deletion.append(run._r)
    for t in deletion.iter(qn("w:t")):
        t.tag = qn("w:delText")
    mark = OxmlElement("w:rPr")
    mark.append(_tracked("w:del", 2))
    gone._p.get_or_add_pPr().append(mark)
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
