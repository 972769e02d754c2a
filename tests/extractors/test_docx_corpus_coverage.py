"""Every .docx of the corpus, rendered: the share of text characters that got a layout box
(issue target: >= 99% overall). The per-file floor is lower only where the cause is known and
written down in design/docx-tree.md; `scripts/docx_box_coverage.py` prints the same table."""

from __future__ import annotations

import pytest

from artifactcheck.extractors.docx.extract import extract_docx
from tests.conftest import corpus_files

pytestmark = pytest.mark.slow

FILES = corpus_files("docx", ".docx")
OVERALL_FLOOR = 0.995
FILE_FLOOR = 0.95
KNOWN_SHORTFALLS = {
    # LibreOffice clips text that overflows its text box, so it is not on the page at all.
    "docling_textbox.docx": 0.85,
}


def test_box_coverage_over_the_whole_docx_corpus() -> None:
    if not FILES:
        pytest.skip("corpus absent")
    keys = matched = 0
    rows: list[str] = []
    short: list[str] = []
    for path in FILES:
        doc = extract_docx(path)
        k = int(doc.root.attrs["layout_key_chars"])  # type: ignore[arg-type]
        m = int(doc.root.attrs["layout_matched_chars"])  # type: ignore[arg-type]
        keys += k
        matched += m
        share = m / k if k else 1.0
        rows.append(f"{path.name:50s} {m:>8d}/{k:<8d} {share:8.2%}")
        if share < KNOWN_SHORTFALLS.get(path.name, FILE_FLOOR):
            short.append(rows[-1])
    rows.append(f"{'ALL':50s} {matched:>8d}/{keys:<8d} {matched / keys:8.2%}")
    print("\n".join(rows))
    assert not short, "files below their floor:\n" + "\n".join(short)
    assert matched / keys >= OVERALL_FLOOR, rows[-1]
