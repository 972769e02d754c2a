"""Deck and slide facts: slide size and orientation on the document node, slide names,
numbers and transitions, as agents write them (python-pptx has no API for names or
transitions, so they are XML edits)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation
from pptx.util import Inches

from artifactcheck.extractors.pptx.extract import extract_pptx

from .agent_decks import save

P = "http://schemas.openxmlformats.org/presentationml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
P14 = "http://schemas.microsoft.com/office/powerpoint/2010/main"


def _transition(slide: object, xml: str) -> None:
    el = etree.fromstring(xml)
    root = slide._element  # type: ignore[attr-defined]
    # p:transition goes after p:clrMapOvr (CT_Slide's sequence): before timing/extLst.
    root.insert(list(root).index(root.find(f"{{{P}}}clrMapOvr")) + 1, el)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs = Presentation()
    prs.slide_width, prs.slide_height = Inches(7.5), Inches(10)  # portrait
    prs._element.set("firstSlideNum", "0")
    a = prs.slides.add_slide(prs.slide_layouts[5])
    a.shapes.title.text = "Agenda"
    a._element.find(f"{{{P}}}cSld").set("name", "Agenda slide")
    _transition(a, f'<p:transition xmlns:p="{P}" spd="slow" advTm="3000"><p:push dir="u"/></p:transition>')
    b = prs.slides.add_slide(prs.slide_layouts[5])
    b.shapes.title.text = "Vortex"
    _transition(b, (
        f'<mc:AlternateContent xmlns:mc="{MC}" xmlns:p="{P}" xmlns:p14="{P14}">'
        f'<mc:Choice Requires="p14"><p:transition spd="slow" p14:dur="2000" advClick="0"><p14:vortex dir="r"/></p:transition></mc:Choice>'
        f'<mc:Fallback><p:transition spd="slow" advClick="0"><p:fade/></p:transition></mc:Fallback></mc:AlternateContent>'
    ))
    prs.slides.add_slide(prs.slide_layouts[6])
    return save(prs, tmp_path_factory.mktemp("deck") / "attrs.pptx")


def test_document_records_slide_size_and_orientation(deck: Path) -> None:
    attrs = extract_pptx(deck).root.attrs
    assert (attrs["slide_width"], attrs["slide_height"]) == (540.0, 720.0)
    assert attrs["orientation"] == "portrait"
    # As the file states it: python-pptx keeps the template's preset name when resizing.
    assert attrs["slide_size_type"] == "screen4x3"
    assert attrs["first_slide_number"] == 0


def test_slide_names_numbers_and_transitions(deck: Path) -> None:
    a, b, c = extract_pptx(deck).root.children
    assert a.attrs["name"] == "Agenda slide" and "name" not in b.attrs
    assert [s.attrs["number"] for s in (a, b, c)] == [0, 1, 2]  # firstSlideNum="0"
    assert {k: a.attrs[k] for k in ("transition", "transition_speed", "advance_on_click", "advance_after_ms")} == {
        "transition": "push", "transition_speed": "slow", "advance_on_click": True, "advance_after_ms": 3000,
    }
    # PowerPoint 2010's effect (the mc:Choice), not the fade fallback.
    assert (b.attrs["transition"], b.attrs["transition_duration_ms"], b.attrs["advance_on_click"]) == ("vortex", 2000, False)
    assert "transition" not in c.attrs


def test_select_by_slide_attributes(deck: Path) -> None:
    doc = extract_pptx(deck)
    assert [s.attrs["index"] for s in doc.select("slide[transition='push']")] == [0]
    assert [s.attrs["index"] for s in doc.select("slide[name='Agenda slide']")] == [0]
