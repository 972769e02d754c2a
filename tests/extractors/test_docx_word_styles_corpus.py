"""Styles as Word resolves them, on other people's files (../shared/corpus, its peers
folder): the tree's table-cell fills and bold runs against LibreOffice's rendering, list
labels against the rendered text, headers and footers per page against what is drawn in
the margins. Skipped when the corpus is absent."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

from artifactcheck.extractors.docx.extract import extract_docx
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Document
from tests.conftest import CORPUS
from tests.extractors.rendered_look import page_texts
from tests.extractors.test_docx_word_styles import (
    assert_cells_look_rendered,
    assert_headers_per_page_as_rendered,
)

pytestmark = pytest.mark.slow

# Files whose tables have styles (Word 2013 grid tables, Light Shading, Google Docs' and
# LibreOffice's own). Left out, with the reason: tika_testWORD_2006ml (LibreOffice paints
# tracked-deleted rows pink), peers/docling docx_rich_tables_01 (LibreOffice draws the
# first cell's bold Arial run in regular Times: a rendering fault, not a style).
TABLE_FILES = (
    "docx/docling_word_tables.docx",
    "docx/docx2python_example.docx",
    "docx/unstructured_docx-tables.docx",
    "peers/docx/tbl-having-applied-style.docx",
    "peers/docling/docx/docx_rich_cells.docx",
    "peers/docling/docx/word_sample.docx",
)
# Numbered lists, including restarts by w:startOverride shared between instances and
# outlines that skip levels. Bullets are not compared: LibreOffice draws them in symbol
# fonts whose text layer pdfium does not map back.
LIST_FILES = (
    "docx/docx2python_created-in-pages-bulleted-lists.docx",
    "docx/docling_docx_lists.docx",
    "docx/tika_testWORD_numbered_list.docx",
    "peers/docling/docx/unit_test_headers_numbered.docx",
    "peers/docling/docx/docx_list_resumed_numbering.docx",
)
# Level formats that Word 2010 writes inside mc:AlternateContent (w14 "custom" formats:
# "α, β, γ"): LibreOffice 7.4 prints the level as plain "1.", Word as "Some-α-...".
KNOWN_LABEL_DIFFERENCES = {("tika_testWORD_numbered_list.docx", "Some-1-CrazyFormat"), ("tika_testWORD_numbered_list.docx", "Some-2-CrazyFormat")}
HEADER_FILES = (
    "docx/pydocx_doc-odd-even-hdrs.docx",
    "peers/docx/sct-first-page-hdrftr.docx",
    "peers/docx/hdr-header-footer.docx",
    "peers/docx/doc-odd-even-hdrs.docx",
)


def _doc(name: str) -> tuple[Document, Path]:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} absent")
    return extract_docx(path), render_pdf(path).pdf_path


@pytest.mark.parametrize("name", TABLE_FILES)
def test_table_style_fills_and_bold_as_rendered(name: str) -> None:
    doc, pdf = _doc(name)
    styled = [t for t in doc.iter("table") if t.attrs.get("style_name") not in (None, "Normal Table")]
    assert styled, "no styled table"
    assert sum(assert_cells_look_rendered(doc, pdf, t) for t in styled) > 0


def _key(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFKC", text))


@pytest.mark.parametrize("name", LIST_FILES)
def test_numbered_list_labels_as_printed(name: str) -> None:
    path = CORPUS / name
    if not path.is_file():
        pytest.skip(f"corpus file {name} absent")
    doc = extract_docx(path, render=False)
    printed = _key("".join(page_texts(render_pdf(path).pdf_path)))
    items = [
        p
        for p in doc.iter("paragraph")
        if p.attrs.get("list_ordered") and p.text.strip() and p.attrs.get("rendered") is not False
    ]
    assert items
    missing = [
        (p.attrs["list_label"], p.text[:40])
        for p in items
        if _key(f"{p.attrs['list_label']}{p.text[:25]}") not in printed
        and (path.name, p.attrs["list_label"]) not in KNOWN_LABEL_DIFFERENCES
    ]
    assert not missing, missing


@pytest.mark.parametrize("name", HEADER_FILES)
def test_headers_and_footers_per_page_as_rendered(name: str) -> None:
    doc, pdf = _doc(name)
    assert assert_headers_per_page_as_rendered(doc, pdf) > 0
