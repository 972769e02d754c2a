"""Numbers whose thousands are grouped by a non-breaking space or an apostrophe, as
French and Swiss writers (and agents localising a report) write them: "The total is
1 250 euros" says 1250, not 1 and 250. A plain space still separates two numbers ("3
250-page books"). The truth is what the page prints."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow

LINES = {"A": "The total is 1\u00a0250 euros.", "B": "The total is 1'250 CHF.", "C": "We bought 3 250-page books."}


@pytest.fixture(scope="module")
def totals(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    for key, line in LINES.items():
        d.add_paragraph(f"{key}: {line}")
    path = tmp_path_factory.mktemp("grouped") / "totals.docx"
    d.save(str(path))
    return path


@pytest.mark.parametrize(("key", "number", "status"), [("A", 1250, "pass"), ("B", 1250, "pass"), ("C", 3250, "fail")])
def test_grouped_thousands_read_as_one_number(totals: Path, key: str, number: float, status: str) -> None:
    printed = " ".join(page_texts(render_pdf(totals).pdf_path)).replace("\u00a0", " ")
    assert LINES[key].replace("\u00a0", " ") in printed
    target = {"selector": "paragraph", "text": f"{key}:", "match": "startswith"}
    verdict = run_check("number_equals", load(totals), {"target": target, "expected": number})
    assert verdict.status == status, verdict.explanation
