"""Tables in each built-in style family (Themed, Light, Medium, Dark), picked the way an
agent does: the style's GUID written into ``a:tableStyleId`` (python-pptx has no API).
The package holds no definition and LibreOffice draws its predefined copy; the tree
knew only Medium Style 2 and read every other family unstyled, so a "Themed Style 1"
header read black on no fill while drawn white on the accent, and a "Light Style 1"
header black while drawn in the accent. The truth is what the render shows: the fill
behind the header and the first banded row, and the header's ink."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck import load, run_check
from artifactcheck.checks.color import delta_e
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box, Node
from tests.extractors.rendered_look import background, ink, layout_of, same_color

from .agent_decks import save, styled_table_slides

pytestmark = pytest.mark.slow

# One variant per family, accents spread over the six slots.
STYLES = {
    "Themed1": "{3C2FFA5D-87B4-456A-9821-1D502468CF0F}",  # Themed Style 1 - Accent 1
    "Themed2": "{18603FDC-E32A-4AB5-989C-0864C3EAD2B8}",  # Themed Style 2 - Accent 2
    "TableGrid": "{5940675A-B579-460E-94D1-54222C63F5DA}",  # No Style, Table Grid
    "Light1": "{3B4B98B0-60AC-42C2-AFA5-B58CD77FA1E5}",  # Light Style 1 - Accent 1
    "Light2": "{F2DE63D5-997A-4646-A377-4702673A728D}",  # Light Style 2 - Accent 3
    "Light3": "{BDBED569-4797-4DF1-A0F4-6AAB3CD982D8}",  # Light Style 3 - Accent 5
    "Medium1": "{9DCAF9ED-07DC-4A11-8D7F-57B35C25682E}",  # Medium Style 1 - Accent 2
    "Medium3": "{EB9631B5-78F2-41C9-869B-9F39066F8104}",  # Medium Style 3 - Accent 4
    "Medium4": "{16D9F66E-5EB9-4882-86FB-DCBF35E3C3E4}",  # Medium Style 4 - Accent 6
    "Dark1": "{125E5076-3810-47DD-B79F-674D7AD40C01}",  # Dark Style 1 - Accent 1
    "Dark2": "{91EBBBCC-DAD2-459C-BE2E-F6DE35CF9A28}",  # Dark Style 2 - Accent 3/Accent 4
}
SLIDE = "#ffffff"  # an unfilled cell shows the slide


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs, tables = styled_table_slides(STYLES, rows=3, cols=3)
    for tag, table in tables.items():
        for c in range(3):
            table.cell(0, c).text = f"Head{tag}{c}"
            table.cell(1, c).text = f"Band{tag}{c}"
            table.cell(2, c).text = f"Even{tag}{c}"
    return save(prs, tmp_path_factory.mktemp("table-families") / "families.pptx")


def _glyph_box(pdf: Path, cell: Node) -> Box:
    """The middle of the line of characters the PDF draws inside ``cell``: the ink
    without the cell's borders, which a line box's ascent can reach."""
    assert cell.box is not None
    b = cell.box
    chars = [
        c
        for c in layout_of(pdf).chars
        if c.page == b.page and not c.generated and c.char.strip()
        and b.x0 <= (c.x0 + c.x1) / 2 <= b.x1 and b.top <= (c.top + c.bottom) / 2 <= b.bottom
    ]
    assert chars, cell.text
    top, bottom = min(c.top for c in chars), max(c.bottom for c in chars)
    trim = (bottom - top) * 0.2
    return b.model_copy(update={"x0": min(c.x0 for c in chars), "x1": max(c.x1 for c in chars), "top": top + trim, "bottom": bottom - trim})


@pytest.mark.parametrize("tag", list(STYLES))
def test_header_and_band_are_what_libreoffice_draws(deck: Path, tag: str) -> None:
    doc = load(deck, render=False)
    pdf = render_pdf(deck).pdf_path
    cells = {c.text: c for c in doc.select("cell")}
    head, band = cells[f"Head{tag}1"], cells[f"Band{tag}1"]
    assert head.box is not None and band.box is not None
    drawn = {"header fill": background(pdf, head.box), "band 1 fill": background(pdf, band.box), "header ink": ink(pdf, _glyph_box(pdf, head))}
    head_run = next(r for r in head.descendants("run") if r.text)
    tree = {
        "header fill": head.style.fill if head.style is not None and head.style.fill else SLIDE,
        "band 1 fill": band.style.fill if band.style is not None and band.style.fill else SLIDE,
        "header ink": head_run.style.color if head_run.style is not None and head_run.style.color else "#000000",
    }
    report = {k: (drawn[k], tree[k], round(delta_e(drawn[k], tree[k]), 1)) for k in drawn}
    assert all(same_color(drawn[k], tree[k]) for k in drawn), (tag, report)
    assert head_run.style is not None and head_run.style.bold is not True  # LibreOffice's copies draw regular


def test_checks_read_the_drawn_colours(deck: Path) -> None:
    doc = load(deck, render=False)
    verdicts = {
        # white on the accent, not black on nothing
        "themed1 header white": run_check("format_is", doc, {"target": {"selector": "cell", "text": "HeadThemed11"}, "color": "white"}),
        "themed1 header filled": run_check(
            "color_is", doc, {"target": {"selector": "cell", "text": "HeadThemed11"}, "property": "fill", "expected": "theme:accent 1"}
        ),
        # the header is drawn in the accent, not black
        "light1 header accent": run_check(
            "color_is", doc, {"target": {"selector": "cell", "text": "HeadLight11"}, "property": "color", "expected": "theme:accent 1"}
        ),
        # Themed Style 2 draws the body white on the accent too
        "themed2 body white": run_check("format_is", doc, {"target": {"selector": "cell", "text": "EvenThemed21"}, "color": "white"}),
    }
    assert all(v.status == "pass" for v in verdicts.values()), {k: (v.status, v.explanation) for k, v in verdicts.items()}
    body = run_check("format_is", doc, {"target": {"selector": "cell", "text": "BandThemed11"}, "color": "white"})
    assert body.status == "fail", body.explanation
