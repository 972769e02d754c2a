"""A hyperlink's colour on a slide. An agent makes a link and colours it dark cyan with
python-pptx (``run.font.color.rgb``); PowerPoint and LibreOffice draw it in the theme's
``hlink`` blue all the same, so "is the link dark cyan?" must fail and say why. Only
PowerPoint 365's ``hlinkClr val="tx"`` extension keeps the run's colour. The truth is the
ink LibreOffice draws, read off the page image. Text with a click action is drawn as a
link for a slide jump, not for a macro."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.opc.constants import RELATIONSHIP_TYPE
from pptx.util import Inches, Pt

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import ink, same_color

pytestmark = pytest.mark.slow

_A = "{http://schemas.openxmlformats.org/drawingml/2006/main}"
_R_ID = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_KEEP_RUN_COLOR = (
    '<a:extLst xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main">'
    '<a:ext uri="{A12FA001-AC4F-418D-AE19-62706E023703}">'
    '<ahyp:hlinkClr xmlns:ahyp="http://schemas.microsoft.com/office/drawing/2018/hyperlinkcolor" val="tx"/>'
    "</a:ext></a:extLst>"
)


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    second = prs.slides.add_slide(prs.slide_layouts[6])
    frame = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(6), Inches(3)).text_frame

    def line(text: str, *, link: bool, rgb: str | None, keep: bool = False, action: str | None = None) -> None:
        paragraph = frame.paragraphs[0] if not frame.paragraphs[0].runs else frame.add_paragraph()
        run = paragraph.add_run()
        run.text = text
        run.font.size = Pt(28)
        if link:
            run.hyperlink.address = "https://example.org/" + text.lower()
        if rgb:
            run.font.color.rgb = RGBColor.from_string(rgb)
        if action:  # a click action on the text, as PowerPoint's Action Settings write it
            click = etree.SubElement(run._r.get_or_add_rPr(), f"{_A}hlinkClick")
            jump = action.endswith("sldjump")
            click.set(_R_ID, slide.part.relate_to(second.part, RELATIONSHIP_TYPE.SLIDE) if jump else "")
            click.set("action", action)
        if keep:
            run._r.get_or_add_rPr().find(
                f"{_A}hlinkClick"
            ).append(etree.fromstring(_KEEP_RUN_COLOR))

    line("CyanLink", link=True, rgb="007B8A")
    line("PlainLink", link=True, rgb=None)
    line("RedText", link=False, rgb="C00000")
    line("KeptGreen", link=True, rgb="00B050", keep=True)
    line("SlideJump", link=False, rgb="C00000", action="ppaction://hlinksldjump")
    line("MacroRun", link=False, rgb="C00000", action="ppaction://macro?name=Score")
    path = tmp_path_factory.mktemp("links") / "links.pptx"
    prs.save(str(path))
    return path


DRAWN = {
    "CyanLink": "#0000ff",
    "PlainLink": "#0000ff",
    "RedText": "#c00000",
    "KeptGreen": "#00b050",
    "SlideJump": "#0000ff",  # a jump to another slide is drawn as a link
    "MacroRun": "#c00000",  # a macro action is not (nor underlined)
}


@pytest.mark.parametrize("word", list(DRAWN))
def test_a_runs_colour_is_the_ink_drawn(links: Path, word: str) -> None:
    doc = load(links, render=True)  # the runs' own drawn boxes, not their frame
    run = next(r for r in doc.select("run") if r.text == word)
    drawn = ink(render_pdf(links).pdf_path, run.box)
    assert same_color(drawn, DRAWN[word], tolerance=8), (word, drawn)
    assert run.style is not None and run.style.color == DRAWN[word], (word, run.style, drawn)


def test_is_the_link_dark_cyan_fails_and_names_the_link(links: Path) -> None:
    doc = load(links)
    cyan = {"target": {"link": "example.org/cyanlink"}, "color": "#007B8A"}
    drawn = run_check("format_is", doc, cyan)
    assert drawn.status == "fail"
    assert "from the hyperlink" in drawn.explanation, drawn.explanation
    own = run_check("format_is", doc, {**cyan, "layer": "direct"})
    assert own.status == "pass", own.explanation  # the run's own format still says dark cyan
    kept = run_check("color_is", doc, {"target": {"link": "example.org/keptgreen"}, "expected": "#00B050"})
    assert kept.status == "pass", kept.explanation
