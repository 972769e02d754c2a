"""List labels are part of what a page shows. An agent numbers steps with python-docx's
"List Number" style; another types "1. " by hand. Both pages print "1. Download the
installer": "does the document say '1. Download the installer'?" must pass on both, the
label-less phrase too, and the two documents compare equal as text. The truth is the text
the render prints."""

from __future__ import annotations

import re
from pathlib import Path

import docx
import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import page_texts

pytestmark = pytest.mark.slow

STEPS = ["Download the installer", "Run setup", "Accept the licence"]


def _doc(path: Path, *, typed: bool) -> Path:
    d = docx.Document()
    d.add_paragraph("Steps to install:")
    for i, step in enumerate(STEPS, 1):
        if typed:
            d.add_paragraph(f"{i}. {step}")
        else:
            d.add_paragraph(step, style="List Number")
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("labels")
    return _doc(folder / "numbered.docx", typed=False), _doc(folder / "typed.docx", typed=True)


def _printed(path: Path) -> str:
    return re.sub(r"\s+", " ", " ".join(page_texts(render_pdf(path).pdf_path)))


def test_numbered_steps_read_as_printed(pair: tuple[Path, Path]) -> None:
    numbered, typed = pair
    assert "1. Download the installer" in _printed(numbered)
    assert _printed(numbered) == _printed(typed)
    doc = load(numbered)
    for phrase in ("1. Download the installer", "Download the installer", "3. Accept the licence"):
        verdict = run_check("text_contains", doc, {"phrases": [phrase]})
        assert verdict.status == "pass", (phrase, verdict.explanation)
    gone = run_check("text_excludes", doc, {"phrases": ["2. Run setup"]})
    assert gone.status == "fail", gone.explanation  # the page prints it
    first = run_check("text_equals", doc, {"target": {"selector": "paragraph[list_level]", "nth": 0}, "expected": "1. Download the installer"})
    assert first.status == "pass", first.explanation


def test_typed_and_automatic_numbering_compare_equal(pair: tuple[Path, Path]) -> None:
    numbered, typed = pair
    same = run_check("compare_document", load(typed), {"reference": str(numbered), "aspects": ["text"]})
    assert same.status == "pass", same.explanation
