"""See-through fills on slides are stated as LibreOffice draws them.

Agents make "semi-transparent overlays" by writing ``a:alpha`` into a fill colour
(python-pptx has no API for it), and pick Light Style 1 tables, whose bands are the
accent at 20% opacity. The displayed fill is that colour laid over what is behind it:
the slide's background, the shape below, and the shape's own shadow, which LibreOffice
draws with the shape's transparency. Each colour here is read off the render.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_SHAPE
from pptx.oxml.ns import qn
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box, Document, Node
from tests.extractors.rendered_look import background, same_color

from .agent_decks import png_bytes, save

pytestmark = pytest.mark.slow

LIGHT_STYLE_1_ACCENT_1 = "{3B4B98B0-60AC-42C2-AFA5-B58CD77FA1E5}"
NAVY = "1F3864"


def _see_through_box(slide: object, name: str, rgb: str, alpha: int, box: tuple[float, float, float, float], *, shadow: str = "theme") -> None:
    """A see-through rectangle; ``shadow``: the theme's (python-pptx's default), ``inherit-off``
    (python-pptx's ``shadow.inherit = False``: LibreOffice still draws the theme's) or
    ``none`` (``effectRef idx="0"``)."""
    shape = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, *(Inches(v) for v in box))  # type: ignore[attr-defined]
    shape.name = name
    shape.fill.solid()
    shape.fill.fore_color.rgb = RGBColor.from_string(rgb)
    color = shape.fill._xPr.find(qn("a:solidFill")).find(qn("a:srgbClr"))
    etree.SubElement(color, qn("a:alpha")).set("val", str(alpha))
    if shadow == "inherit-off":
        shape.shadow.inherit = False
    elif shadow == "none":
        shape._element.find(qn("p:style")).find(qn("a:effectRef")).set("idx", "0")
    shape.text_frame.text = name


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    blank = prs.slide_layouts[6]
    white = prs.slides.add_slide(blank)
    _see_through_box(white, "RedHalf", "FF0000", 50000, (0.5, 0.5, 3, 1.5))
    _see_through_box(white, "RedNoShadow", "FF0000", 50000, (5, 0.5, 3, 1.5), shadow="none")
    _see_through_box(white, "RedInheritOff", "FF0000", 50000, (0.5, 2.5, 3, 1.5), shadow="inherit-off")
    navy = prs.slides.add_slide(blank)
    navy.background.fill.solid()
    navy.background.fill.fore_color.rgb = RGBColor.from_string(NAVY)
    _see_through_box(navy, "RedOnNavy", "FF0000", 50000, (0.5, 0.5, 3, 1.5))
    table = navy.shapes.add_table(4, 3, Inches(0.5), Inches(3), Inches(8), Inches(2)).table
    table._tbl.tblPr.find(qn("a:tableStyleId")).text = LIGHT_STYLE_1_ACCENT_1
    for r in range(4):
        for c in range(3):
            table.cell(r, c).text = f"R{r}C{c}"
    stacked = prs.slides.add_slide(blank)
    under = stacked.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(0.5), Inches(0.5), Inches(5), Inches(3))
    under.fill.solid()
    under.fill.fore_color.rgb = RGBColor.from_string("2E75B6")
    under.shadow.inherit = False
    _see_through_box(stacked, "WhiteOnBlue", "FFFFFF", 40000, (1, 1, 3, 1.5))
    stacked.shapes.add_picture(png_bytes((120, 80), (200, 40, 40)), Inches(6), Inches(0.5), Inches(3), Inches(2))
    _see_through_box(stacked, "BlackOnPhoto", "000000", 50000, (6.5, 1, 2, 1), shadow="none")
    return save(prs, tmp_path_factory.mktemp("see-through") / "see_through.pptx")


@pytest.fixture(scope="module")
def doc(deck: Path) -> Document:
    return load(deck)


@pytest.fixture(scope="module")
def pdf(deck: Path) -> Path:
    return render_pdf(deck).pdf_path


def _named(doc: Document, name: str) -> Node:
    (node,) = [n for n in doc.root.descendants("shape") if n.attrs.get("name") == name]
    return node


def _inside(node: Node, inset: float = 6.0) -> Box:
    """The middle of the node's box: no outline, no shadow edge."""
    assert node.box is not None
    b = node.box
    return b.model_copy(update={"x0": b.x0 + inset, "top": b.top + inset, "x1": b.x1 - inset, "bottom": b.bottom - inset})


@pytest.mark.parametrize("name", ["RedHalf", "RedNoShadow", "RedInheritOff", "RedOnNavy", "WhiteOnBlue"])
def test_see_through_shape_fill_is_the_colour_drawn(doc: Document, pdf: Path, name: str) -> None:
    shape = _named(doc, name)
    drawn = background(pdf, _inside(shape))
    assert shape.style is not None and shape.style.fill is not None
    assert same_color(shape.style.fill, drawn), (name, shape.style.fill, drawn)
    assert shape.attrs["fill_alpha"] < 1 and shape.attrs["style_sources"] == {"fill": "transparency"}


def test_the_shadow_under_a_see_through_shape_darkens_it(doc: Document) -> None:
    """The same 50% red over white: with python-pptx's default shadow it is drawn
    #e86969, without it #ff8080 (both read off the render above)."""
    with_shadow, without = _named(doc, "RedHalf"), _named(doc, "RedNoShadow")
    assert with_shadow.attrs["shadow_alpha"] == 0.35 and "shadow_alpha" not in without.attrs
    assert _named(doc, "RedInheritOff").attrs["shadow_alpha"] == 0.35
    assert with_shadow.style is not None and without.style is not None
    assert not same_color(with_shadow.style.fill or "", without.style.fill or "")


def test_light_style_bands_are_laid_over_the_slide(doc: Document, pdf: Path) -> None:
    """Light Style 1's bands are the accent at 20%: light blue on a white slide, a dark
    blue on a navy one (it used to read light blue on any slide)."""
    cells = [c for c in doc.root.descendants("cell") if c.box is not None and c.box.page == 1]
    banded = [c for c in cells if c.attrs.get("fill_alpha")]
    assert {c.attrs["row"] for c in banded} == {1, 3}
    for cell in cells:
        drawn = background(pdf, _inside(cell, 3.0))
        shown = cell.style.fill if cell.style is not None and cell.style.fill else "#" + NAVY.lower()
        assert same_color(shown, drawn), (cell.id, shown, drawn)
    band = {"target": {"selector": "slide:nth-of-type(2) table row:nth-child(2) cell"}, "property": "fill"}
    assert run_check("color_classified_as", doc, {**band, "expected": "dark blue", "family": True}).status == "pass"
    assert run_check("color_is", doc, {**band, "expected": "#4f81bd", "layer": "direct"}).status == "pass"


def test_the_stated_colour_stays_where_no_one_colour_is_behind(doc: Document) -> None:
    """Over a picture there is no single colour drawn: the stated one is kept."""
    overlay = _named(doc, "BlackOnPhoto")
    assert overlay.attrs["fill_alpha"] == 0.5
    assert overlay.style is not None and overlay.style.fill == "#000000"
    assert "style_sources" not in overlay.attrs


def test_checks_read_the_drawn_fill_and_the_stated_one_on_request(doc: Document) -> None:
    red = {"target": {"selector": "shape", "text": "RedOnNavy"}, "property": "fill", "expected": "#ff0000"}
    drawn = run_check("color_is", doc, red)
    assert drawn.status == "fail" and "#ff0000" not in (drawn.explanation.split("is ")[-1][:8])
    assert run_check("color_is", doc, {**red, "layer": "direct"}).status == "pass"
