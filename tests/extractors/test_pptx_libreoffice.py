"""The fixture deck as LibreOffice writes it: another producer, other XML (explicit
placeholder xfrms, group rotation pushed into members, table-style fills written out,
recomputed group extents). The geometry a user sees must not change."""

from __future__ import annotations

import math
import shutil
from pathlib import Path

import pytest

from artifactcheck.extractors.pptx.extract import extract_pptx
from artifactcheck.model import Box, Document, Node
from tests.conftest import FIXTURES

LO_DECK = FIXTURES / "pptx" / "deck_libreoffice.pptx"
PY_DECK = FIXTURES / "pptx" / "deck.pptx"
IN = 72.0
# LibreOffice stores positions in 1/100 mm and rounds them: up to ~0.36 EMU-free points off.
LO_TOL = 0.1


@pytest.fixture(scope="module")
def lo() -> Document:
    return extract_pptx(LO_DECK)


@pytest.fixture(scope="module")
def py() -> Document:
    return extract_pptx(PY_DECK)


def named(doc: Document, name: str) -> Node:
    found = [n for n in doc if n.attrs.get("name") == name]
    assert len(found) == 1, name
    return found[0]


def close(a: Box | None, b: Box | None, tol: float = LO_TOL) -> bool:
    assert a is not None and b is not None
    return all(abs(x - y) <= tol for x, y in zip((a.x0, a.top, a.x1, a.bottom), (b.x0, b.top, b.x1, b.bottom)))


def test_libreoffice_deck_is_another_producer(lo: Document) -> None:
    assert lo.artifact.producer is not None and "LibreOffice" in lo.artifact.producer
    assert lo.warnings == []
    assert [p.hidden for p in lo.pages] == [False, False, False, True, False]


@pytest.mark.parametrize(
    "name",
    ["Picture 3", "Picture 4", "Scaled Rect", "Nested Oval", "Rotated Member", "Rotated 30", "Flipped", "Connector", "Red Oval", "Table 2", "Chart 3"],
)
def test_same_geometry_from_both_producers(lo: Document, py: Document, name: str) -> None:
    a, b = named(lo, name), named(py, name)
    assert close(a.box, b.box), (a.box, b.box)
    if b.box is not None and b.box.polygon is not None:
        assert a.box is not None and a.box.polygon is not None
        assert all(math.dist(p, q) <= LO_TOL for p, q in zip(a.box.polygon, b.box.polygon))


def test_placeholders_text_and_table_from_libreoffice(lo: Document, py: Document) -> None:
    assert lo.get("s0/sh0").text == "Quarterly Review"
    assert close(lo.get("s0/sh0").box, py.get("s0/sh0").box)
    assert [c.text for c in lo.iter("cell")] == [c.text for c in py.iter("cell")]
    head = lo.get("s2/sh1/tr0/tc0")
    assert head.attrs["col_span"] == 2 and close(head.box, Box(page=2, x0=0.5 * IN, top=1.5 * IN, x1=4 * IN, bottom=2 * IN))
    # LibreOffice writes the table style out: the header cell is accent1 with light text.
    assert head.style is not None and head.style.fill == "#4f81bd"
    assert lo.get("s2/sh1/tr0/tc0/p0/r0").style.color == "#ffffff"  # type: ignore[union-attr]


def test_styles_and_links_survive_the_resave(lo: Document) -> None:
    link = lo.select_one("run[hyperlink]")
    assert link is not None and link.attrs["hyperlink"] == "https://example.org/docs"
    dark = next(r for r in lo.iter("run") if r.text == "Dark accent").style
    assert dark is not None and (dark.color, dark.bold, dark.italic, dark.size) == ("#376092", True, True, 20.0)
    chart = lo.select_one("chart")
    assert chart is not None and chart.attrs["title"] == "Sales by quarter"
    assert [s["name"] for s in chart.attrs["series"]] == ["North", "South"]  # type: ignore[index,union-attr]


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice not installed")
def test_fresh_libreoffice_resave_matches_the_committed_one(tmp_path: Path, py: Document) -> None:
    """Re-save with the LibreOffice installed here (the build script's own code path)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_pptx", FIXTURES / "build_pptx.py")
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    out = tmp_path / "deck_lo.pptx"
    build.resave_with_libreoffice(PY_DECK, out, timeout=180)
    fresh = extract_pptx(out)
    for name in ("Picture 3", "Scaled Rect", "Rotated Member", "Table 2"):
        assert close(named(fresh, name).box, named(py, name).box), name


def test_golden_snapshot_libreoffice(lo: Document) -> None:
    from tests.extractors.test_pptx_fixture import _snapshot
    from tests.golden import assert_matches_golden

    assert_matches_golden("pptx_fixture_deck_libreoffice", _snapshot(lo))
