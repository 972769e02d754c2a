"""Every real .pptx of the corpus extracts without an exception, with sane trees; boxes of
top-level shapes agree with python-pptx (an independent reader) where it can answer.
Skips when the corpus is absent."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from artifactcheck.errors import ArtifactCheckError
from artifactcheck.extractors.pptx.extract import extract_pptx
from artifactcheck.model import Document
from tests.conftest import CORPUS, corpus_files

PPTX = corpus_files("pptx", ".pptx")
TOL = 0.01


@pytest.fixture(scope="module")
def extracted() -> dict[str, Document]:
    return {}


def load(path: Path, cache: dict[str, Document]) -> Document:
    if path.name not in cache:
        cache[path.name] = extract_pptx(path)
    return cache[path.name]


@pytest.mark.parametrize("path", PPTX, ids=[p.name for p in PPTX])
def test_corpus_file_extracts_cleanly(path: Path, extracted: dict[str, Document]) -> None:
    doc = load(path, extracted)
    assert len(doc.pages) == len(list(doc.iter("slide"))) > 0
    assert all(p.kind == "slide" and p.width > 0 and p.height > 0 for p in doc.pages)
    ids = [n.id for n in doc]
    assert len(ids) == len(set(ids))
    for n in doc:
        for b in n.boxes:
            assert all(math.isfinite(v) for v in (b.x0, b.top, b.x1, b.bottom))
            assert 0 <= b.page < len(doc.pages)
        if n.kind in ("shape", "image", "group", "table", "chart", "textbox", "media") and not n.boxes:
            assert n.attrs.get("rendered") is False and n.attrs.get("not_rendered_reason")
        if n.style is not None and n.kind == "run":
            assert n.style.size is not None and n.style.size > 0 and n.style.font
    # A shape our code failed on would show up as an "internal:" warning.
    assert not [w for w in doc.warnings if w.startswith("internal:")]
    assert Document.from_json(doc.to_json()).to_json() == doc.to_json()


@pytest.mark.parametrize("path", [p for p in PPTX if p.name != "poi_stress022.pptx"], ids=lambda p: p.name)
def test_top_level_boxes_agree_with_python_pptx(path: Path, extracted: dict[str, Document]) -> None:
    """python-pptx resolves slide-level shapes (placeholders through layout/master) too;
    unrotated top-level boxes must match to 0.01 pt."""
    from pptx import Presentation

    doc = load(path, extracted)
    prs = Presentation(str(path))
    compared = 0
    for si, slide in enumerate(prs.slides):
        # python-pptx skips mc:AlternateContent shapes (ink, some OLE objects)
        ours = [
            c
            for c in doc.get(f"s{si}").children
            if c.kind not in ("note", "comment") and "alternate_content" not in c.attrs and "inherited_from" not in c.attrs
        ]
        theirs = list(slide.shapes)
        assert [c.attrs.get("name") for c in ours] == [s.name for s in theirs]
        for node, shape in zip(ours, theirs):
            if shape.left is None or shape.width is None or node.box is None or node.box.polygon is not None:
                continue
            got = (node.box.x0, node.box.top, node.box.width, node.box.height)
            want = tuple(v / 12700 for v in (shape.left, shape.top, abs(shape.width), abs(shape.height)))
            assert all(abs(g - w) <= TOL for g, w in zip(got, want)), (node.id, got, want)
            compared += 1
    assert compared > 0 or not any(True for _ in doc.iter("shape"))


needs_corpus = pytest.mark.skipif(not (CORPUS / "pptx").is_dir(), reason="corpus absent")


@needs_corpus
def test_slideshow_typed_package_loads() -> None:
    """python-pptx refuses this one (main part typed presentationml.slideshow)."""
    doc = extract_pptx(CORPUS / "pptx" / "poi_stress022.pptx")
    assert len(doc.pages) == 45
    assert len(list(doc.iter("note"))) >= 40


@needs_corpus
def test_every_chart_type_is_read_without_python_pptx() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "pptx_cht-chart-type.pptx")
    charts = list(doc.iter("chart"))
    assert len(charts) == 31
    types = {c.attrs["chart_type"] for c in charts}
    assert {"area", "area3D", "bar", "column", "line", "pie", "scatter", "bubble", "radar"} <= types
    assert all(c.attrs["series"] for c in charts)


@needs_corpus
def test_nested_groups_contain_their_members() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "unstructured_group-shapes-nested.pptx")
    groups = list(doc.iter("group"))
    assert len(groups) == 4
    for g in groups:
        assert g.box is not None
        for c in g.children:
            assert c.box is not None
            assert g.box.x0 - TOL <= c.box.x0 and c.box.x1 <= g.box.x1 + TOL
            assert g.box.top - TOL <= c.box.top and c.box.bottom <= g.box.bottom + TOL
    assert doc.text.split("\n") == list("AIJBDHCEFG")


@needs_corpus
def test_cropped_pictures_in_rotated_groups() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "poi_54542_cropped_bitmap.pptx")
    cropped = [n for n in doc.iter("image") if "crop" in n.attrs]
    assert len(cropped) >= 4
    assert all(n.attrs["blob"] != n.attrs["original_blob"] for n in cropped)
    in_groups = [n for n in cropped if n.parent is not None and n.parent.kind == "group"]
    assert in_groups and all(n.box is not None and n.box.polygon is not None for n in in_groups)


@needs_corpus
def test_smartart_text_and_shapes() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "poi_smartart-simple.pptx")
    art = doc.select_one('group[graphic="smartart"]')
    assert art is not None and art.text.split("\n") == ["abc", "def", "ghi"]
    assert all(c.box is not None for c in art.children)


@needs_corpus
def test_placeholders_without_any_position_are_not_given_a_box() -> None:
    doc = extract_pptx(CORPUS / "bad" / "unstructured_fake-power-point-malformed.pptx")
    date = doc.get("s0/sh0")
    assert date.text == "Problem Date Placeholder"
    assert date.boxes == [] and date.attrs["rendered"] is False
    assert "no position" in date.attrs["not_rendered_reason"]
    assert doc.get("s0/sh1").box is not None  # the title inherits from its layout


@needs_corpus
def test_layout_and_master_shapes_are_drawn_under_the_slide() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "tika_testPPT_various2.pptx")
    slide = doc.get("s1")
    inherited = [c for c in slide.children if "inherited_from" in c.attrs]
    assert [c.text for c in inherited if c.text] == ["MASTERTEXTBOX"]
    assert all(c.box is not None and c.attrs["inherited_from"] == "layout" for c in inherited)
    own = [c for c in slide.children if "inherited_from" not in c.attrs and c.kind not in ("note", "comment")]
    # drawn beneath: lower z than every shape of the slide itself
    assert max(c.attrs["z"] for c in inherited) < min(c.attrs["z"] for c in own)


@needs_corpus
def test_layout_without_relationships_is_tolerated() -> None:
    doc = extract_pptx(CORPUS / "bad" / "pptx_missing_rels_item.pptx")
    assert len(doc.pages) == 1 and doc.text


@needs_corpus
def test_corrupt_and_encrypted_pptx_raise_typed_errors() -> None:
    for name in ("poi_clusterfuzz-XSLF-5471515212382208.pptx", "tika_testPPT_protected_passtika.pptx"):
        with pytest.raises(ArtifactCheckError) as info:
            extract_pptx(CORPUS / "bad" / name)
        assert name in str(info.value)


@needs_corpus
def test_east_asian_runs_use_the_ea_typeface() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "pptx_txt-font-typeface.pptx")
    fonts = {r.text: r.style.font for r in doc.iter("run") if r.style is not None}
    cjk = "\u6692\u9fa2\u52a0\u548a\ufa12\u5f17"  # escaped: editors normalise U+FA12
    assert fonts[cjk] == "Hiragino Sans GB W3"  # a:ea, not the run's a:latin Arial
    assert fonts["A textbox with Verdana typeface applied to shape, not text selection"] == "Verdana"
    assert fonts["Baseline default textbox, no adjustments of any kind"] == "Calibri"  # +mn-lt


@needs_corpus
def test_flipped_lines_report_their_true_endpoints() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "poi_shapes.pptx")
    line = doc.get("s0/sh5")
    assert line.attrs["flip_v"] is True
    (x0, y0), (x1, y1) = line.attrs["endpoints"]  # type: ignore[misc]
    assert line.box is not None and y0 == pytest.approx(line.box.bottom) and y1 == pytest.approx(line.box.top)


@needs_corpus
def test_sections_name_their_slides() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "poi_60810.pptx")
    assert doc.get("s0").attrs["section"] == "Core layouts"
    assert all("section" in s.attrs for s in doc.iter("slide"))


@needs_corpus
def test_review_comments_with_authors() -> None:
    doc = extract_pptx(CORPUS / "pptx" / "tika_testPPT_various2.pptx")
    comments = list(doc.iter("comment"))
    assert comments[0].text == "This is a comment" and comments[0].attrs["author"] == "Timothy Allison"
    assert all(c.boxes == [] and c.attrs["rendered"] is False for c in comments)
    assert 0 <= comments[0].attrs["x"] <= doc.pages[0].width  # type: ignore[operator]
