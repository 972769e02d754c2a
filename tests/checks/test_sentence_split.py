"""``sentences_split_after`` on python-docx-built documents, its default verdict beside
OSWorld's ``evaluate_alignment`` re-stated here from its published code (python-docx
paragraphs, split at '.', the parts found in order), and the ``gap`` rule."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

from artifactcheck import load
from artifactcheck.checks.registry import run_check
from artifactcheck.extractors.render import render_pdf

TAB = "The quick brown\tfox jumps over the dog. Every good boy\tdeserves fudge."
VARIANTS: dict[str, tuple[list[str], bool, bool]] = {
    # name: (paragraphs, OSWorld's verdict, verdict with gap "\t+")
    "tab after three words": ([TAB], True, True),
    "plain sentence": (["The quick brown fox jumps over the dog."], True, False),
    "exactly three words": (["Hello there friend. The quick brown\tfox jumps."], False, False),
    "double space in the rest": (["The quick brown\tfox  jumps."], False, True),
    "double space in the first words": (["The  quick brown\tfox jumps."], False, True),
    "short pieces only": (["Hi. Go on. Yes.", ""], True, True),
    "no paragraphs": ([], True, True),
    "tab after two words": (["The quick\tbrown fox jumps."], False, False),
}


def build(path: Path, paragraphs: list[str], *, table_text: str | None = None) -> Path:
    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    if table_text is not None:
        document.add_table(rows=1, cols=1).cell(0, 0).text = table_text
    document.save(str(path))
    return path


def osworld(path: Path) -> bool:
    for para in docx.Document(str(path)).paragraphs:
        for sentence in para.text.split("."):
            words = sentence.strip().split()
            if len(words) < 3:
                continue
            first, rest = " ".join(words[:3]), " ".join(words[3:])
            if not (first in sentence and rest in sentence and sentence.find(first) < sentence.find(rest)):
                return False
    return True


@pytest.mark.parametrize("name", list(VARIANTS))
def test_default_is_osworlds_rule_and_gap_is_the_intent(tmp_path: Path, name: str) -> None:
    paragraphs, osworld_ok, gap_ok = VARIANTS[name]
    path = build(tmp_path / "a.docx", paragraphs)
    assert osworld(path) is osworld_ok  # the table above states OSWorld's rule right
    doc = load(path, render=False)
    default = run_check("sentences_split_after", doc, {})
    assert (default.status == "pass") is osworld_ok, default.explanation
    gap = run_check("sentences_split_after", doc, {"gap": "\\t+"})
    assert (gap.status == "pass") is gap_ok, gap.explanation


def test_tables_are_not_body_paragraphs(tmp_path: Path) -> None:
    path = build(tmp_path / "t.docx", [TAB], table_text="Three words only. Four  words are here.")
    assert osworld(path)
    doc = load(path, render=False)
    assert run_check("sentences_split_after", doc, {}).status == "pass"
    in_cells = run_check("sentences_split_after", doc, {"target": "cell paragraph"})
    assert in_cells.status == "fail" and in_cells.evidence["sentences"] == 2


def test_evidence_locates_the_failing_sentence(tmp_path: Path) -> None:
    doc = load(build(tmp_path / "e.docx", [TAB, "One two three four. Alpha beta gamma delta epsilon."]), render=False)
    result = run_check("sentences_split_after", doc, {"gap": "\\t+"})
    assert result.status == "fail" and result.score == pytest.approx(2 / 4)
    bad = [r for r in result.evidence["nodes"] if not r["ok"]]
    assert [(r["sentence"], r["why"]) for r in bad] == [(1, "the gap after word 3 is ' '"), (2, "the gap after word 3 is ' '")]


def test_nothing_to_judge_passes_and_says_so(tmp_path: Path) -> None:
    result = run_check("sentences_split_after", load(build(tmp_path / "n.docx", ["Hi."]), render=False), {})
    assert result.status == "pass" and result.evidence["sentences"] == 0 and "nothing to split" in result.explanation


def test_a_bad_gap_is_an_error(tmp_path: Path) -> None:
    doc = load(build(tmp_path / "b.docx", [TAB]), render=False)
    assert run_check("sentences_split_after", doc, {"gap": "(\\t"}).status == "error"


def test_a_pdf_has_its_paragraphs_judged_not_a_vacuous_pass(tmp_path: Path) -> None:
    """A PDF's paragraphs are under its pages: the default target must still find them
    (the exported report of an agent that put no tab after the third word fails)."""
    src = build(tmp_path / "plain.docx", ["The quick brown fox jumps over the lazy dog.", "Every good boy deserves fudge."])
    pdf = render_pdf(src).pdf_path
    doc = load(pdf)
    default = run_check("sentences_split_after", doc, {"gap": "\\t+"})
    assert default.status == "fail" and default.evidence["sentences"] >= 2, default.explanation
    assert run_check("sentences_split_after", doc, {"gap": "\\t+", "target": "document > paragraph"}).status == "pass"
