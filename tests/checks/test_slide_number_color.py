""""The slide numbers are red" (OSWorld's check_slide_numbers_color / check_page_number_colors),
on decks built the way python-pptx scripts build them: the layout's slide-number placeholder
copied onto each slide (what Insert > Slide Number does), then red set either on each slide's
number or only on the master placeholder's own run. What is true is what LibreOffice draws:
a master's run properties do not pass down to the slides (only its list styles do), so the
second deck's numbers stay grey on every slide — and the tree says so."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from lxml import etree

import artifactcheck
from artifactcheck.checks.registry import run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import ink, same_color

NUMBERS = "slide shape[placeholder_type='sldNum'] run"


def _red_runs(element: etree._Element) -> None:
    from pptx.oxml.ns import qn

    for fld in element.iter(qn("a:fld")):
        rpr = fld.find(qn("a:rPr"))
        if rpr is None:
            rpr = etree.Element(qn("a:rPr"))
            fld.insert(0, rpr)
        fill = etree.SubElement(rpr, qn("a:solidFill"))
        etree.SubElement(fill, qn("a:srgbClr")).set("val", "FF0000")


def _deck(path: Path, *, red_on: str | None) -> Path:
    from pptx import Presentation
    from pptx.enum.shapes import PP_PLACEHOLDER

    deck = Presentation()
    layout = deck.slide_layouts[1]
    if red_on == "master":
        for ph in deck.slide_master.placeholders:
            if ph.placeholder_format.type == PP_PLACEHOLDER.SLIDE_NUMBER:
                _red_runs(ph._element)
    for i in range(2):
        slide = deck.slides.add_slide(layout)
        slide.shapes.title.text = f"Results {i + 1}"
        for ph in layout.placeholders:
            if ph.placeholder_format.type == PP_PLACEHOLDER.SLIDE_NUMBER:
                number = copy.deepcopy(ph._element)
                if red_on == "slides":
                    _red_runs(number)
                slide.shapes._spTree.append(number)
    deck.save(str(path))
    return path


@pytest.fixture(scope="module")
def decks(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("slide-numbers")
    return {name: _deck(tmp / f"{name}.pptx", red_on=name) for name in ("slides", "master")}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "red"), [("slides", True), ("master", False)])
def test_slide_numbers_are_judged_as_drawn(decks: dict[str, Path], name: str, red: bool) -> None:
    doc = artifactcheck.load(decks[name], render=True)
    numbers = doc.select(NUMBERS)
    assert [n.text for n in numbers] == ["1", "2"]
    pdf = render_pdf(decks[name]).pdf_path
    for node in numbers:  # the ink LibreOffice drew inside each number's drawn box
        drawn = ink(pdf, node.boxes[0])
        assert same_color(drawn, "#ff0000", tolerance=12) is red, (node.id, drawn)
    result = run_check("color_is", doc, {"target": NUMBERS, "expected": "red", "tolerance": 5})
    assert result.status == ("pass" if red else "fail"), result.explanation
