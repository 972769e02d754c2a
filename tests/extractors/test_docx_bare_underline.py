"""A bare ``<w:u/>`` (no ``w:val``) states no kind of line: LibreOffice draws none, so
"is the word underlined?" must fail. ``w:val="single"`` draws one. The truth is whether
the render draws a line under the word."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import underlined

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def marks(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    paragraph = d.add_paragraph()
    for word, u in (("Bareunder", "<w:u/>"), ("Singleunder", '<w:u w:val="single"/>'), ("Nounder", "")):
        run = paragraph.add_run(word)
        if u:
            run._r.get_or_add_rPr().append(parse_xml(u.replace("<w:u", f"<w:u {nsdecls('w')}")))
        paragraph.add_run("   ")
    path = tmp_path_factory.mktemp("underline") / "marks.docx"
    d.save(str(path))
    return path


@pytest.mark.parametrize(("word", "drawn"), [("Bareunder", False), ("Singleunder", True), ("Nounder", False)])
def test_underline_is_what_the_render_draws(marks: Path, word: str, drawn: bool) -> None:
    doc = load(marks)
    run = next(r for r in doc.select("run") if r.text.strip() == word)
    assert run.box is not None
    assert underlined(render_pdf(marks).pdf_path, run.box) is drawn
    verdict = run_check("format_is", doc, {"target": {"selector": "run", "text": word, "match": "contains"}, "underline": True})
    assert verdict.status == ("pass" if drawn else "fail"), verdict.explanation
