"""What authors need to say, on files built the way agents build them: numeric bounds
(format_is size_min/size_max, Target ``where``), same_size, Target ``exclude`` and
``skip_empty`` ("the last body paragraph"), position with a picture paragraph, and a
description for every parameter of every check."""

from __future__ import annotations

import io
from pathlib import Path

import docx
import pytest
from docx.shared import Inches, Pt

import artifactcheck
from artifactcheck import Document, run_check
from artifactcheck.checks.catalog import catalog
from tests.checks.geometry_docs import Item, build_deck, load_deck, picture_bytes


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """A python-docx letter: a 14 pt title, 11 and 12 pt body text, a footer line, the
    signature picture alone in a paragraph, the sender's name, then an empty paragraph
    (agents often leave one)."""
    word = docx.Document()
    title = word.add_paragraph().add_run("Quarterly letter")
    title.font.size = Pt(14)
    for size, text in ((11, "Dear Dr. Rivera,"), (12, "Thank you for your proposal."), (12, "Sincerely,")):
        word.add_paragraph().add_run(text).font.size = Pt(size)
    word.add_paragraph().add_run().add_picture(io.BytesIO(picture_bytes(3)), width=Inches(1.5))
    word.add_paragraph().add_run("Jordan Lee").font.size = Pt(12)
    word.add_paragraph()
    word.sections[0].footer.paragraphs[0].text = "Acme Consulting - confidential"
    path = tmp_path_factory.mktemp("letter") / "letter.docx"
    word.save(str(path))
    return artifactcheck.load(path)


def test_format_is_numeric_bounds(letter: Document) -> None:
    body = {"selector": "run", "exclude": "header, footer", "where": ["size < 14"]}
    assert run_check("format_is", letter, {"target": body, "size_min": 11, "size_max": 12}).status == "pass"
    low = run_check("format_is", letter, {"target": body, "size_min": 12})
    assert low.status == "fail" and "size_min" in low.explanation and "11" in low.explanation
    title = {"text": "Quarterly letter"}
    assert run_check("format_is", letter, {"target": title, "size_max": 12}).status == "fail"
    assert run_check("format_is", letter, {"target": title, "size_min": 14, "size_max": 14}).status == "pass"


def test_target_where_compares_numbers(letter: Document) -> None:
    big = run_check("count", letter, {"target": {"selector": "run", "where": ["size >= 12"]}, "exactly": 4})
    assert big.status == "pass", big.explanation
    # the signature is drawn 1.5 in = 108 pt wide (its box, from the render)
    assert run_check("exists", letter, {"target": {"selector": "image", "where": ["width > 100"]}}).status == "pass"
    assert run_check("exists", letter, {"target": {"selector": "image", "where": ["width > 110"]}}).status == "fail"
    # One condition may be written as a plain string, as authors write it.
    assert run_check("count", letter, {"target": {"selector": "run", "where": "size >= 12"}, "exactly": 4}).status == "pass"
    bad = run_check("exists", letter, {"target": {"selector": "run", "where": ["size is big"]}})
    assert bad.status == "error" and "name op number" in bad.explanation


def test_the_last_body_paragraph(letter: Document) -> None:
    """nth -1 of every paragraph is the footer's; exclude + skip_empty name the sender."""
    last_any = {"selector": "paragraph", "nth": -1}
    assert run_check("text_contains", letter, {"scope": last_any, "phrases": ["confidential"]}).status == "pass"
    last_body = {"selector": "paragraph", "exclude": "header, footer", "skip_empty": True, "nth": -1}
    r = run_check("text_equals", letter, {"target": last_body, "expected": "Jordan Lee"})
    assert r.status == "pass", r.explanation


def test_position_counts_a_picture_paragraph_and_skips_empty_ones(letter: Document) -> None:
    """The sender's name is the last item of the body: the trailing empty paragraph is
    skipped, the signature paragraph (a picture, no text) is an item before it."""
    at_end = {"target": {"text": "Jordan Lee"}, "where": "end", "container": "document", "among": "document > paragraph"}
    r = run_check("position", letter, at_end)
    assert r.status == "pass", r.explanation
    picture_paragraph = {"selector": "document > paragraph", "nth": 4}
    sig = run_check("position", letter, {**at_end, "target": picture_paragraph, "within": 2})
    assert sig.status == "pass", sig.explanation  # the picture paragraph is second from the end
    assert sig.evidence["items"] == 6  # title, three text paragraphs, the picture, the name
    everything = run_check("position", letter, {**at_end, "skip_empty": False})
    assert everything.status == "fail"  # the empty paragraph is last when nothing is skipped


def test_position_at_the_end_is_about_the_body_not_the_footer(letter: Document) -> None:
    """The footer's paragraph comes after the body in the tree; "the name is the last
    paragraph" with every default is still about the body (it failed as item 6 of 7)."""
    r = run_check("position", letter, {"target": {"text": "Jordan Lee"}, "where": "end"})
    assert r.status == "pass", r.explanation
    assert all("footer" not in n["id"] for n in r.evidence["neighbours"])
    footer_line = run_check("position", letter, {"target": {"text": "confidential"}, "where": "end"})
    assert footer_line.status == "pass", footer_line.explanation  # judged among the footer's lines
    title = run_check("position", letter, {"target": {"text": "Quarterly letter"}, "where": "end"})
    assert title.status == "fail"


@pytest.fixture(scope="module")
def photos(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """python-pptx: three photos side by side, the third 6 pt wider."""
    pic = picture_bytes(2)
    slide = [
        Item("picture", 40, 300, 180, 135, name="p1", image=pic),
        Item("picture", 260, 300, 180, 135, name="p2", image=pic),
        Item("picture", 480, 301, 186, 135, name="p3", image=pic),
    ]
    return load_deck(build_deck(tmp_path_factory.mktemp("photos") / "photos.pptx", [slide]))


def test_same_size(photos: Document) -> None:
    r = run_check("same_size", photos, {"target": "image"})
    assert r.status == "fail" and "width 180.0-186.0 pt (spread 6.0, allowed 2.0)" in r.explanation
    assert run_check("same_size", photos, {"target": "image", "dimension": "height"}).status == "pass"
    assert run_check("same_size", photos, {"target": "image", "tolerance_pt": 6}).status == "pass"
    assert run_check("same_size", photos, {"target": "image", "relative_tolerance": 0.04}).status == "pass"
    two = {"selector": "image", "where": ["x0 < 400"]}
    assert run_check("same_size", photos, {"target": two}).status == "pass"


def test_every_parameter_is_described() -> None:
    missing = [(c["name"], p["name"]) for c in catalog() for p in c["parameters"] if not p.get("description")]
    assert missing == []
    position = next(c for c in catalog() if c["name"] == "position")
    skip = next(p for p in position["parameters"] if p["name"] == "skip_empty")
    assert "picture" in skip["description"]


def test_target_fields_are_documented() -> None:
    from artifactcheck.checks.target import Target

    doc = Target.__doc__ or ""
    for name in Target.model_fields:
        if name in ("case_sensitive", "fuzzy_threshold"):
            continue
        assert f"``{name}``" in doc, name
    for name, field in Target.model_fields.items():
        assert field.description, name


def test_numbers_in_where_ignore_nodes_without_them(tmp_path: Path) -> None:
    deck = build_deck(tmp_path / "d.pptx", [[Item("textbox", 10, 10, 200, 40, text="Title", font_size=28), Item("picture", 10, 100, 50, 50, image=picture_bytes(1))]])
    doc = load_deck(deck)
    # a picture has no font size: it is neither "size >= 20" nor "size < 20"
    for cond in ("size >= 20", "size < 20"):
        found = run_check("exists", doc, {"target": {"selector": "image", "where": [cond]}})
        assert found.status == "fail", cond
    assert run_check("exists", doc, {"target": {"selector": "run", "where": ["size >= 20"]}}).status == "pass"


LAYOUT_CHECKS = [
    ("structure", {"unit": "pages", "exactly": 1}),
    ("within_page", {}),
    ("in_region", {"target": "image", "region": "last page bottom third"}),
    ("in_region", {"target": "image", "region": "upper-left"}),
    ("page_coverage", {"target": "image", "page": "last"}),
    ("image_size", {"min_width_pt": 50}),
    ("image_not_distorted", {}),
    ("relative_position", {"a": "image", "b": {"text": "Jordan Lee"}, "relation": "above"}),
    ("side_by_side", {"target": "image", "page": 0}),
    ("same_size", {"target": "image", "min_count": 1}),
    ("ocr_text_in_region", {"text": "Jordan", "region": "bottom half"}),
]


@pytest.mark.parametrize(("name", "params"), LAYOUT_CHECKS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(LAYOUT_CHECKS)])
def test_layout_checks_end_in_error_without_layout(tmp_path_factory: pytest.TempPathFactory, name: str, params: dict[str, object]) -> None:
    """The same python-docx letter loaded without rendering: pages and positions are
    unknown, so every check that needs them is an evaluator error, never a fail."""
    path = tmp_path_factory.getbasetemp() / "no_layout.docx"
    if not path.exists():
        word = docx.Document()
        word.add_paragraph("Sincerely,")
        word.add_paragraph().add_run().add_picture(io.BytesIO(picture_bytes(3)), width=Inches(1.5))
        word.add_paragraph("Jordan Lee")
        word.save(str(path))
    doc = artifactcheck.load(path, render=False)
    r = run_check(name, doc, params)
    assert r.status == "error", (r.status, r.explanation)
    assert "without layout" in r.explanation
