"""Sub-bullets as python-docx users make them: the "List Bullet 2" style (level 0 of its
own list, indented deeper) or "List Bullet" with a bigger left indent. A reader sees them
nested under the bullet before them; the truth is where LibreOffice draws each item's
text, read from the PDF."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.shared import Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow

TOPICS = {"Photosynthesis": ["Light reactions", "Calvin cycle"], "Respiration": ["Glycolysis", "Krebs cycle"]}


def _lesson(path: Path, sub_style: str, sub_indent: float | None) -> Path:
    d = docx.Document()
    d.add_heading("Lesson plan", 1)
    for topic, subs in TOPICS.items():
        d.add_paragraph(topic, style="List Bullet")
        for sub in subs:
            p = d.add_paragraph(sub, style=sub_style)
            if sub_indent is not None:
                p.paragraph_format.left_indent = Pt(sub_indent)
    d.save(str(path))
    return path


def _text_x(pdf: Path, word: str) -> float:
    return next(w.x0 for w in read_layout(pdf).words if w.text == word)


@pytest.mark.parametrize(("sub_style", "sub_indent"), [("List Bullet 2", None), ("List Bullet", 54.0)])
def test_sub_bullets_drawn_further_in_are_nested(tmp_path: Path, sub_style: str, sub_indent: float | None) -> None:
    path = _lesson(tmp_path / "lesson.docx", sub_style, sub_indent)
    pdf = render_pdf(path).pdf_path
    assert _text_x(pdf, "Light") > _text_x(pdf, "Photosynthesis") + 10  # the render nests them
    doc = load(path)
    for topic, subs in TOPICS.items():
        verdict = run_check(
            "nested_under",
            doc,
            {"parent": {"selector": "paragraph[list_level='0']", "text": topic}, "children": subs, "min_children": 2, "direct_only": True},
        )
        assert verdict.status == "pass", verdict.explanation
    # the next topic is not a sub-item of the one before
    first = run_check("nested_under", doc, {"parent": {"text": "Photosynthesis"}, "children": ["Respiration"]})
    assert first.status == "fail"


def test_a_flat_list_has_no_sub_items(tmp_path: Path) -> None:
    path = _lesson(tmp_path / "flat.docx", "List Bullet", None)
    pdf = render_pdf(path).pdf_path
    assert abs(_text_x(pdf, "Light") - _text_x(pdf, "Photosynthesis")) < 1  # drawn flush
    verdict = run_check("nested_under", load(path), {"parent": {"text": "Photosynthesis"}, "children": ["Light reactions"]})
    assert verdict.status == "fail", verdict.explanation


def test_a_nested_list_style_is_a_deeper_level(tmp_path: Path) -> None:
    """The gold nests the sub-topics with "List Bullet 2"; the artifact has them flat. The
    render draws them 18 pt apart, so "does it match the gold?" with every default must
    fail, and name the level (the structure read only w:ilvl, 0 on both: it passed)."""
    gold = _lesson(tmp_path / "gold.docx", "List Bullet 2", None)
    flat = _lesson(tmp_path / "flat.docx", "List Bullet", None)
    assert _text_x(render_pdf(gold).pdf_path, "Light") > _text_x(render_pdf(flat).pdf_path, "Light") + 10
    levels = {p.text: p.attrs.get("list_level") for p in load(gold).select("paragraph")}
    assert levels["Photosynthesis"] == 0 and levels["Light reactions"] == 1
    verdict = run_check("compare_document", load(flat), {"reference": str(gold)})
    assert verdict.status == "fail", verdict.explanation
    assert "level 2" in verdict.explanation + str(verdict.evidence), verdict.explanation
    assert run_check("compare_document", load(gold), {"reference": str(gold)}).status == "pass"
