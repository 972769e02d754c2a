"""The .docx tree without rendering: document order, effective styles, lists, tables,
pictures, sections, headers/footers, notes, comments, content controls, fields.

Fixtures are built by fixtures/build_docx.py; corpus files are real Word/LibreOffice/
Google/WPS output (skipped when the corpus is absent)."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from artifactcheck.errors import (
    ArtifactCheckError,
    CorruptArtifact,
    EncryptedArtifact,
    UnsupportedFormat,
)
from artifactcheck.extractors.docx.extract import extract_docx
from artifactcheck.model import Document
from tests.conftest import CORPUS, FIXTURES, corpus_files

DOCX = FIXTURES / "docx"


@pytest.fixture(scope="module")
def pages() -> Document:
    return extract_docx(DOCX / "layout_pages.docx", render=False)


@pytest.fixture(scope="module")
def flow() -> Document:
    return extract_docx(DOCX / "layout_flow.docx", render=False)


def corpus_doc(name: str) -> Document:
    path = CORPUS / "docx" / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} absent")
    return extract_docx(path, render=False)


# -- fixtures -----------------------------------------------------------------------------
def test_no_render_means_no_boxes_no_pages_and_a_warning(pages: Document) -> None:
    assert pages.pages == []
    assert all(not n.boxes for n in pages)
    assert any("render=False" in w for w in pages.warnings)


def test_body_in_document_order_with_headings_and_title(pages: Document) -> None:
    texts = [p.text for p in pages.root.children if p.kind == "paragraph" and p.text]
    assert texts[0] == "Regional Sales Review"
    assert texts.index("Results by Region") > texts.index("Publish the summary")
    (title,) = pages.select("paragraph[style_name='Title']")
    assert title.attrs["heading_level"] == 0
    (h1,) = pages.select("paragraph[heading_level='1']")
    assert h1.text == "Results by Region" and h1.attrs["style_name"] == "Heading 1"
    assert pages.select_one("paragraph[heading_level='2']").text == "Photographs"  # type: ignore[union-attr]


def test_page_break_marker_before_the_heading(pages: Document) -> None:
    h1 = pages.select_one("paragraph[heading_level='1']")
    assert h1 is not None
    i = pages.root.children.index(h1)
    brk = pages.root.children[i - 1]
    assert brk.attrs["page_breaks"] == 1 and brk.attrs["page_break_after"] is True
    assert "page_break_before" not in brk.attrs  # nothing visible follows the break inside it


def test_lists_bullets_numbers_and_labels(pages: Document) -> None:
    bullets = pages.select("paragraph[list_format='bullet']")
    assert [b.text for b in bullets] == ["First bullet point", "Second bullet point"]
    assert all(b.attrs["list_ordered"] is False and b.attrs["list_level"] == 0 for b in bullets)
    assert bullets[0].attrs["list_label"] == "\u2022"
    numbered = pages.select("paragraph[list_ordered=true]")
    assert [n.attrs["list_label"] for n in numbered] == ["1.", "2.", "3."]


def test_hyperlink_run_effective_style(pages: Document) -> None:
    (link,) = pages.select("run[hyperlink]")
    assert link.text == "full report online"
    assert link.attrs["hyperlink"] == "https://example.org/report"
    s = link.style
    assert s is not None
    assert (s.bold, s.italic, s.underline, s.size, s.color) == (True, True, True, 12, "#008b8b")
    # the theme's minor font (python-docx's template: Cambria), not "None = inherited"
    assert s.font == "Cambria"


def test_highlight_and_colour_and_style_inheritance(pages: Document) -> None:
    (hl,) = pages.select("run[highlight='#ffff00']")
    assert hl.text == "this sentence is highlighted"
    (red,) = pages.select("run[color='#c00000']")
    assert red.style is not None and red.style.size == 12
    title_run = pages.select_one("paragraph[style_name='Title'] run")
    assert title_run is not None and title_run.style is not None
    # Title style: 26 pt, text2 shaded by themeShade BF (python-docx template)
    assert title_run.style.size == 26 and title_run.style.color == "#17375e"


def test_character_shading_counts_as_highlight(flow: Document) -> None:
    (run,) = [r for r in flow.select("run") if r.text == "cyan character shading"]
    assert run.style is not None and run.style.highlight == "#00ffff"


def test_hidden_text_marked_not_rendered(pages: Document) -> None:
    (hidden,) = pages.select("run[hidden=true]")
    assert hidden.text == "" and hidden.attrs["hidden_text"] == "This hidden remark is not printed."
    assert hidden.attrs["rendered"] is False and "vanish" in str(
        hidden.attrs["not_rendered_reason"]
    )


def test_table_with_merged_header(pages: Document) -> None:
    (table,) = pages.select("table")
    assert table.attrs["rows"] == 4 and table.attrs["cols"] == 3
    header = table.children[0].children
    assert len(header) == 1 and header[0].attrs["col_span"] == 3
    assert header[0].text == "Sales by region and quarter"
    north = pages.select_one("cell:contains('North')")
    assert north is not None and north.attrs["row_span"] == 2 and north.attrs["col"] == 0
    # the continuation cell of the vertical merge is not a node of its own
    assert [c.attrs["col"] for c in table.children[2].children] == [1, 2]


def test_pictures_bytes_and_size(pages: Document) -> None:
    imgs = pages.images()
    assert len(imgs) == 5  # logo, three photos, header logo
    for img in imgs:
        blob = pages.blob(str(img.attrs["blob"]))
        assert blob.mime == "image/png" and blob.phash is not None
    assert len({i.attrs["blob"] for i in imgs}) == 5  # all different pictures
    logo = pages.get("p0/img0")
    assert (logo.attrs["width"], logo.attrs["height"], logo.attrs["placement"]) == (
        90,
        60,
        "inline",
    )


def test_header_footer_nodes_with_logo(pages: Document) -> None:
    (header,) = pages.select("header")
    assert header.attrs["type"] == "default" and header.attrs["section"] == 0
    assert header.select("image") and "Artifactcheck Quarterly" in header.text
    (footer,) = pages.select("footer")
    assert footer.text == "Confidential draft for review, page 1"
    page_field = footer.select_one("run[field='PAGE']")
    assert page_field is not None and page_field.text == "1"


def test_sections_page_size_columns(pages: Document, flow: Document) -> None:
    (sec,) = pages.root.attrs["sections"]  # type: ignore[misc]
    assert sec["orientation"] == "portrait" and round(sec["page_width"]) == 595  # type: ignore[index]
    s0, s1 = flow.root.attrs["sections"]  # type: ignore[misc]
    assert s0["columns"] == 1 and s1["columns"] == 2 and s1["start"] == "continuous"  # type: ignore[index]
    ends = flow.select("paragraph[section_break]")
    assert len(ends) == 1 and ends[0].attrs["section_break"] == "continuous"
    assert {p.attrs["section"] for p in flow.root.children if p.kind == "paragraph"} == {0, 1}


def test_floating_picture_anchor(flow: Document) -> None:
    (img,) = flow.images()
    a = img.attrs
    assert a["placement"] == "floating" and a["position_h_relative_from"] == "margin"
    assert a["position_h_align"] == "right" and a["wrap"] == "square" and a["width"] == 100


def test_comment_and_content_control(flow: Document) -> None:
    (comment,) = flow.select("comment")
    assert comment.text == "Who checked them?"
    assert comment.attrs["author"] == "Reviewer" and comment.attrs["anchor_text"] == "checked twice"
    assert comment.attrs["rendered"] is False
    (cc,) = flow.select("run[sdt_tag='customer']")
    assert cc.text == "Northwind Traders" and cc.attrs["sdt_alias"] == "Customer name"


def test_ids_are_stable_across_runs() -> None:
    a = extract_docx(DOCX / "layout_pages.docx", render=False)
    b = extract_docx(DOCX / "layout_pages.docx", render=False)
    assert [n.id for n in a] == [n.id for n in b]


# -- corpus: specific features of real files ---------------------------------------------
def test_corpus_highlight_names_map_to_hex() -> None:
    doc = corpus_doc("docx2python_run_styles.docx")
    colours = {r.style.highlight for r in doc.select("run") if r.style and r.style.highlight}
    assert {"#ffff00", "#00ff00"} <= colours


def test_corpus_field_code_hyperlinks() -> None:
    doc = corpus_doc("tika_testInstrLink.docx")
    links = doc.select("run[hyperlink]")
    assert links and all(str(r.attrs["hyperlink"]).startswith("http") for r in links)


def test_corpus_textboxes_notes_content_controls_tracked_changes() -> None:
    doc = corpus_doc("tika_testWORD_2006ml.docx")
    assert "This is a text box" in [t.text for t in doc.select("textbox")]
    notes = {n.attrs["note_type"]: n for n in doc.select("footnote")}
    assert notes["footnote"].text.endswith("And this is the footnote")
    assert notes["endnote"].attrs["label"] == "i"  # Word numbers endnotes i, ii, ...
    ref = doc.select_one("run[footnote_ref]")
    assert ref is not None and ref.text == "1"
    assert doc.select("paragraph[sdt_type='comboBox']")
    deleted = doc.select("run[tracked='delete']")
    assert deleted and all(r.text == "" and r.attrs["deleted_text"] for r in deleted)
    assert doc.select("chart")


def test_corpus_odd_even_and_first_headers() -> None:
    doc = corpus_doc("pydocx_doc-odd-even-hdrs.docx")
    types = {h.attrs["type"]: h for h in doc.select("header")}
    assert types["default"].text == "Odd page header." and types["even"].text == "Even page header."
    assert types["first"].attrs["rendered"] is False  # no w:titlePg


def test_corpus_landscape_section() -> None:
    doc = corpus_doc("pydocx_sct-section-props.docx")
    orientations = [s["orientation"] for s in doc.root.attrs["sections"]]  # type: ignore[union-attr,index]
    assert orientations[0] == "landscape" and "portrait" in orientations


def test_corpus_merged_cells() -> None:
    doc = corpus_doc("docling_word_tables.docx")
    assert any(c.attrs["col_span"] > 1 for c in doc.select("cell"))
    assert any(c.attrs["row_span"] > 1 for c in doc.select("cell"))


def test_corpus_nested_numbering_levels() -> None:
    doc = corpus_doc("tika_testWORD_numbered_list.docx")
    labels = [
        (p.attrs["list_level"], p.attrs["list_label"]) for p in doc.select("paragraph[list_level]")
    ][:4]
    assert labels == [(0, "1)"), (1, "a)"), (2, "i)"), (2, "ii)")]


def test_corpus_office365_main_part_document2() -> None:
    doc = corpus_doc("unstructured_office365.docx")
    assert doc.root.source == "word/document2.xml" and doc.text


@pytest.mark.parametrize("path", corpus_files("docx", ".docx"), ids=lambda p: p.name)
def test_every_corpus_docx_extracts(path: Path) -> None:
    doc = extract_docx(path, render=False)
    assert doc.root.kind == "document"
    assert doc.artifact.format == "docx"
    for img in doc.images():
        assert "blob" in img.attrs or img.attrs.get("missing_image") or img.attrs.get("linked_url")


# -- bad inputs --------------------------------------------------------------------------
BAD_EXPECTED: dict[str, type[ArtifactCheckError]] = {
    "poi_bug53475-password-is-pass.docx": EncryptedArtifact,
    "poi_protected_agile.docx": EncryptedArtifact,
    "poi_truncated62886.docx": CorruptArtifact,
    "tika_testWORD_truncated.docx": CorruptArtifact,
    "poi_clusterfuzz-XWPF-4959857092198400.docx": CorruptArtifact,
    "mammoth_strict-format.docx": UnsupportedFormat,
    "poi_hello_world_wrong_ext.docm": UnsupportedFormat,
}


@pytest.mark.parametrize("name", sorted(BAD_EXPECTED))
def test_bad_docx_typed_errors(name: str) -> None:
    path = CORPUS / "bad" / name
    if not path.is_file():
        pytest.skip("corpus absent")
    with pytest.raises(BAD_EXPECTED[name]) as info:
        extract_docx(path, render=False)
    assert str(path) in str(info.value)


def test_bad_xxe_entity_is_not_resolved() -> None:
    path = CORPUS / "bad" / "poi_ExternalEntityInText.docx"
    if not path.is_file():
        pytest.skip("corpus absent")
    doc = extract_docx(path, render=False)
    assert "poi.apache.org" not in doc.text and "<html" not in doc.text.lower()


def test_bad_renamed_main_part_found_through_relationships() -> None:
    path = CORPUS / "bad" / "docx2python_renamed_document_xml.docx"
    if not path.is_file():
        pytest.skip("corpus absent")
    doc = extract_docx(path, render=False)
    assert doc.root.source == "word/blah_blah.xml" and doc.text.strip()


def test_missing_referenced_part_is_a_typed_error(tmp_path: Path) -> None:
    """A package whose styles relationship points to a part that is not there."""
    src = DOCX / "layout_pages.docx"
    broken = tmp_path / "no_styles.docx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(broken, "w") as zout:
        for info in zin.infolist():
            if info.filename != "word/styles.xml":
                zout.writestr(info, zin.read(info.filename))
    doc = extract_docx(broken, render=False)  # styles are optional: defaults apply
    assert doc.select_one("run") is not None
    broken_xml = tmp_path / "bad_xml.docx"
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(broken_xml, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            zout.writestr(info, data[:200] if info.filename == "word/document.xml" else data)
    with pytest.raises(CorruptArtifact, match="word/document.xml"):
        extract_docx(broken_xml, render=False)


# -- tree_features.docx: features without layout assertions -------------------------------
@pytest.fixture(scope="module")
def features() -> Document:
    return extract_docx(DOCX / "tree_features.docx", render=False)


def test_outline_level_makes_a_heading(features: Document) -> None:
    p = features.get("p0")
    assert p.text == "Outline level three" and p.attrs["heading_level"] == 3


def test_field_code_and_bookmark_hyperlinks(features: Document) -> None:
    links = {r.text: r.attrs["hyperlink"] for r in features.select("run[hyperlink]")}
    assert links == {"field link": "https://example.com/field#part2", "anchor link": "#summary"}
    assert features.get("p1").text == "field link and anchor link"  # no instruction text


def test_theme_colour_with_tint_and_named_highlight(features: Document) -> None:
    run = features.get("p2/r0")
    assert run.style is not None
    # accent1 4F81BD "lighter 40%" (themeTint 99) is 95B3D7 in Word 2007's palette
    assert (run.style.color, run.style.highlight, run.style.strike) == ("#95b3d7", "#008080", True)


def test_tracked_changes(features: Document) -> None:
    p = features.get("p3")
    assert p.text == "Kept inserted"
    ins = features.select_one("run[tracked='insert']")
    deleted = features.select_one("run[tracked='delete']")
    assert ins is not None and ins.text == "inserted"
    assert (
        deleted is not None
        and deleted.attrs["deleted_text"] == "deleted"
        and deleted.attrs["rendered"] is False
    )


def test_nested_numbering_counters(features: Document) -> None:
    items = [
        (p.text, p.attrs["list_level"], p.attrs["list_label"])
        for p in features.select("paragraph[list_level]")
    ]
    assert items == [
        ("Top item", 0, "1."),
        ("Nested item", 1, "1."),
        ("Nested again", 1, "2."),
        ("Back to top", 0, "2."),
    ]


def test_cropped_picture(features: Document) -> None:
    img = features.get("p8/img0")
    assert img.attrs["crop"] == {"left": 0.1, "top": 0.05, "right": 0.2}
    assert (img.attrs["width"], img.attrs["height"]) == (100, 50)


def test_vml_text_box_in_a_table_cell(features: Document) -> None:
    (tb,) = features.select("cell textbox")
    assert tb.text == "VML box text" and tb.attrs["vml"] is True and tb.attrs["width"] == 120
    assert features.select_one("cell:contains('VML box text')") is not None


def test_drawing_group_with_picture_and_text_box(features: Document) -> None:
    (group,) = features.select("group")
    assert group.attrs["name"] == "Group 1" and [c.kind for c in group.children] == ["image"]
    assert group.children[0].attrs["blob"]
    (tb,) = [t for t in features.select("textbox") if t.text == "Grouped caption"]
    assert tb.attrs["anchor_paragraph"] == "p9"
