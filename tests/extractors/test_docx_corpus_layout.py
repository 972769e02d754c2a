"""Rendered boxes on real .docx files: share of text characters that got a box.

A representative subset runs here (lists, tables with merges, text boxes, footnotes,
comments, tracked changes, content controls, odd/even headers, Google Docs, LibreOffice
and Apple Pages output, section breaks). The whole corpus — including the 180- and
430-page files that take minutes to render — is measured by
``scripts/docx_box_coverage.py`` (numbers in design/docx-tree.md)."""

from __future__ import annotations

import pytest

from artifactcheck.extractors.docx.extract import extract_docx
from artifactcheck.model import Document
from tests.conftest import CORPUS

pytestmark = pytest.mark.slow

SUBSET = [
    "docling_docx_lists.docx",
    "docling_word_tables.docx",
    "docx2python_created-in-pages-bulleted-lists.docx",
    "docx2python_example.docx",
    "docx2python_google_docs.docx",
    "poi_Bug54849.docx",
    "poi_delins.docx",
    "pydocx_doc-odd-even-hdrs.docx",
    "tika_testWORD_2006ml.docx",
    "tika_testWORD_various.docx",
    "unstructured_page-breaks.docx",
]
FILE_FLOOR = 0.90  # every file: at least this share of its text characters boxed
SUBSET_FLOOR = 0.98  # all characters of the subset together


@pytest.fixture(scope="session")
def corpus_rendered() -> dict[str, Document]:
    if not (CORPUS / "docx").is_dir():
        pytest.skip("corpus absent")
    return {
        name: extract_docx(CORPUS / "docx" / name)
        for name in SUBSET
        if (CORPUS / "docx" / name).is_file()
    }


def test_box_coverage_per_file_and_overall(corpus_rendered: dict[str, Document]) -> None:
    keys = matched = 0
    report = []
    for name, doc in corpus_rendered.items():
        k = int(doc.root.attrs["layout_key_chars"])  # type: ignore[arg-type]
        m = int(doc.root.attrs["layout_matched_chars"])  # type: ignore[arg-type]
        keys += k
        matched += m
        report.append(f"{name}: {m}/{k} = {m / k if k else 1:.2%}")
        assert (m / k if k else 1.0) >= FILE_FLOOR, report[-1]
    print("\n".join(report))
    assert matched / keys >= SUBSET_FLOOR


def test_every_node_has_a_box_or_says_why(corpus_rendered: dict[str, Document]) -> None:
    for name, doc in corpus_rendered.items():
        for node in doc:
            if node.kind == "document":
                continue
            if not node.boxes:
                assert node.attrs.get("rendered") is False, (name, node.id)
                assert node.attrs.get("not_rendered_reason"), (name, node.id)
            for b in node.boxes:
                assert 0 <= b.page < len(doc.pages) and b.origin == "layout", (name, node.id)


def test_headers_land_on_their_pages(corpus_rendered: dict[str, Document]) -> None:
    doc = corpus_rendered.get("pydocx_doc-odd-even-hdrs.docx")
    if doc is None:
        pytest.skip("file absent")
    types = {h.attrs["type"]: h for h in doc.select("header")}
    assert [b.page for b in types["default"].boxes] == [0]  # odd pages: 1 (index 0)
    assert [b.page for b in types["even"].boxes] == [1]
    assert all(b.top < 72 for b in types["default"].boxes + types["even"].boxes)


def test_footnote_box_at_page_bottom(corpus_rendered: dict[str, Document]) -> None:
    doc = corpus_rendered.get("tika_testWORD_2006ml.docx")
    if doc is None:
        pytest.skip("file absent")
    note = next(n for n in doc.select("footnote") if n.attrs["note_type"] == "footnote")
    ref = doc.select_one("run[footnote_ref]")
    assert ref is not None and note.boxes and ref.boxes
    assert note.boxes[0].page == ref.boxes[0].page
    assert note.boxes[0].top > doc.pages[note.boxes[0].page].height * 0.75
