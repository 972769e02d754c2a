"""A reviewer's comment is in the file, not on the page. An agent leaves a comment
"Reviewer remark about pricing" (python-docx ``add_comment``); "the document never says
'Reviewer remark'" must pass and "does it say so?" fail, unless the check looks at the
comments themselves. The truth is the text the render prints."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def reviewed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    paragraph = d.add_paragraph("The price is fixed for a year.")
    d.add_comment(paragraph.runs, text="Reviewer remark about pricing", author="Reviewer")
    d.add_paragraph("End of document.")
    path = tmp_path_factory.mktemp("comments") / "reviewed.docx"
    d.save(str(path))
    return path


def test_comment_text_is_not_the_documents(reviewed: Path) -> None:
    printed = " ".join(page_texts(render_pdf(reviewed).pdf_path))
    assert "The price is fixed" in printed and "Reviewer remark" not in printed
    doc = load(reviewed)
    says = run_check("text_contains", doc, {"phrases": ["Reviewer remark"]})
    assert says.status == "fail", says.explanation
    never = run_check("text_excludes", doc, {"phrases": ["Reviewer remark"]})
    assert never.status == "pass", never.explanation
    body = run_check("text_contains", doc, {"phrases": ["The price is fixed", "End of document"]})
    assert body.status == "pass", body.explanation
    remark = run_check("text_contains", doc, {"phrases": ["Reviewer remark"], "scope": "comment"})
    assert remark.status == "pass", remark.explanation  # asked of the comments, it is there
