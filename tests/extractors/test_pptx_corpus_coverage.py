"""Every deck of the corpus (real files, python-pptx's and docling's test decks), rendered:
the share of non-empty paragraphs whose drawn box was found (issue 10 target: >= 99%
overall). A file's floor is lower only where the cause is known and written down in
design/pptx-geometry.md ("Text where it is drawn"); `scripts/pptx_box_coverage.py` prints
the same table. Rendered through one warm LibreOffice (a cold start per deck would cost
minutes); the render cache serves later runs."""

from __future__ import annotations

import pytest

from artifactcheck.extractors.pptx.extract import extract_pptx
from artifactcheck.extractors.render.selection import renderer_mode
from tests.conftest import corpus_files

pytestmark = pytest.mark.slow

FILES = corpus_files("pptx", ".pptx") + corpus_files("peers/pptx", ".pptx", ".pptm") + corpus_files("peers/docling/pptx", ".pptx")
OVERALL_FLOOR = 0.99
FILE_FLOOR = 0.98
KNOWN_SHORTFALLS = {
    # No Japanese or Gothic font is installed: LibreOffice draws no text for 3 of 33 paragraphs.
    "poi_with_japanese.pptx": 0.9,
    # An Arabic table cell whose digits the PDF reorders: another cell's similar date claims them.
    "poi_stress022.pptx": 0.995,
}


def test_drawn_boxes_over_the_whole_pptx_corpus() -> None:
    if not FILES:
        pytest.skip("corpus absent")
    paras = boxed = 0
    rows: list[str] = []
    short: list[str] = []
    with renderer_mode("warm"):
        for path in FILES:
            doc = extract_pptx(path, render=False)
            if not any(p.text.strip() for p in doc.iter("paragraph")):
                continue  # nothing to look for: no render
            doc = extract_pptx(path, render=True)
            assert not [w for w in doc.warnings if "PDF has" in w or "internal:" in w], (path.name, doc.warnings)
            n = int(doc.root.attrs["layout_paragraphs"])  # type: ignore[arg-type]
            b = int(doc.root.attrs["layout_paragraphs_boxed"])  # type: ignore[arg-type]
            paras += n
            boxed += b
            share = b / n if n else 1.0
            rows.append(f"{path.parent.name + '/' + path.name:55s} {b:>6d}/{n:<6d} {share:8.2%}")
            if share < KNOWN_SHORTFALLS.get(path.name, FILE_FLOOR):
                short.append(rows[-1])
    rows.append(f"{'ALL':55s} {boxed:>6d}/{paras:<6d} {boxed / paras:8.2%}")
    print("\n".join(rows))
    assert not short, "files below their floor:\n" + "\n".join(short)
    assert boxed / paras >= OVERALL_FLOOR, rows[-1]
