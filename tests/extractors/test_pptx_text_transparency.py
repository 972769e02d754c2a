"""Transparent text on a slide (PowerPoint's transparency slider writes ``a:alpha`` in
the run's colour). Black at 25% opacity on a white slide is drawn light grey, so "is
the text black?" must fail and "is it grey?" pass; on a filled shape the colour is
laid over the shape's fill. Letters with no fill and a red outline read red. The truth is the ink LibreOffice draws, read off the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.shapes import MSO_SHAPE
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.checks.color import delta_e
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import ink

pytestmark = pytest.mark.slow

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"


def _fade(run: object, opacity: int) -> None:
    colour = run._r.get_or_add_rPr().find(f"{_A}solidFill/{_A}srgbClr")  # type: ignore[attr-defined]
    etree.SubElement(colour, f"{_A}alpha").set("val", str(opacity * 1000))


@pytest.fixture(scope="module")
def faded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(1)).text_frame
    run = frame.paragraphs[0].add_run()
    run.text = "Faded black words"
    run.font.size = Pt(36)
    run.font.color.rgb = RGBColor(0, 0, 0)
    _fade(run, 25)
    box = slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(1), Inches(3), Inches(6), Inches(1.5))
    box.fill.solid()
    box.fill.fore_color.rgb = RGBColor(0x1F, 0x38, 0x64)
    run = box.text_frame.paragraphs[0].add_run()
    run.text = "Half white words"
    run.font.size = Pt(36)
    run.font.color.rgb = RGBColor(0xFF, 0xFF, 0xFF)
    _fade(run, 50)
    outlined = slide.shapes.add_textbox(Inches(1), Inches(5.5), Inches(6), Inches(1)).text_frame
    run = outlined.paragraphs[0].add_run()
    run.text = "Outlined red words"
    run.font.size = Pt(36)
    rpr = run._r.get_or_add_rPr()
    rpr.append(etree.fromstring(  # WordArt's "no fill, red outline"
        f'<a:ln xmlns:a="{_A[1:-1]}" w="12700"><a:solidFill><a:srgbClr val="C00000"/></a:solidFill></a:ln>'
    ))
    rpr.append(etree.fromstring(f'<a:noFill xmlns:a="{_A[1:-1]}"/>'))
    path = tmp_path_factory.mktemp("faded") / "faded.pptx"
    prs.save(str(path))
    return path


@pytest.mark.parametrize("words", ["Faded black words", "Half white words", "Outlined red words"])
def test_transparent_text_is_the_colour_drawn(faded: Path, words: str) -> None:
    doc = load(faded, render=True)
    run = next(r for r in doc.select("run") if r.text == words)
    assert run.box is not None and run.style is not None and run.style.color is not None
    drawn = ink(render_pdf(faded).pdf_path, run.box)
    assert delta_e(drawn, run.style.color) < 3, (words, drawn, run.style.color)


def test_is_the_faded_text_black(faded: Path) -> None:
    doc = load(faded)
    target = {"selector": "run", "text": "Faded black words"}
    black = run_check("color_is", doc, {"target": target, "expected": "black"})
    assert black.status == "fail", black.explanation
    grey = run_check("color_classified_as", doc, {"target": target, "expected": "gray", "family": True})
    assert grey.status == "pass", grey.explanation
    stated = run_check("color_is", doc, {"target": target, "expected": "black", "layer": "direct"})
    assert stated.status == "pass", stated.explanation
