"""A DATE field shows the day the document is opened. An agent inserts
``DATE \\@ "d MMMM yyyy"`` with a result it typed, "15 March 2024"; the page prints today
in that picture, so "is the date 15 March 2024?" must fail and the stored result stays in
``field_result_stored``. A CREATEDATE field is a date the file keeps. The truth is the
text the render prints (the document carries a fresh marker so no cached render of
another day answers)."""

from __future__ import annotations

import uuid
from datetime import datetime
from pathlib import Path

import docx
import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from artifactcheck import load, run_check
from artifactcheck.extractors.docx.clock_fields import format_picture
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow


def _field(paragraph, instr: str, result: str) -> None:  # type: ignore[no-untyped-def]
    for xml in (
        '<w:r %s><w:fldChar w:fldCharType="begin"/></w:r>',
        f'<w:r %s><w:instrText xml:space="preserve"> {instr} </w:instrText></w:r>',
        '<w:r %s><w:fldChar w:fldCharType="separate"/></w:r>',
        f"<w:r %s><w:t>{result}</w:t></w:r>",
        '<w:r %s><w:fldChar w:fldCharType="end"/></w:r>',
    ):
        paragraph._p.append(parse_xml(xml % nsdecls("w")))


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_paragraph(f"Marker {uuid.uuid4().hex}")
    _field(d.add_paragraph("Printed on "), 'DATE \\@ "d MMMM yyyy"', "15 March 2024")
    _field(d.add_paragraph("Created "), 'CREATEDATE \\@ "d MMMM yyyy"', "15 March 2024")
    path = tmp_path_factory.mktemp("clock") / "letter.docx"
    d.save(str(path))
    return path


def test_a_date_field_shows_today(letter: Path) -> None:
    today = format_picture(datetime.now(), "d MMMM yyyy")
    printed = " ".join(page_texts(render_pdf(letter).pdf_path))
    assert f"Printed on {today}" in printed
    doc = load(letter)
    line = next(p for p in doc.select("paragraph") if p.text.startswith("Printed on"))
    assert line.text == f"Printed on {today}"
    assert any(r.attrs.get("field_result_stored") == "15 March 2024" for r in line.descendants("run"))
    stale = run_check("date_equals", doc, {"target": {"selector": "paragraph", "text": "Printed on", "match": "startswith"}, "expected": "15 March 2024"})
    assert stale.status == "fail", stale.explanation
    kept = run_check("text_contains", doc, {"phrases": ["Created 15 March 2024"]})
    assert kept.status == "pass", kept.explanation
