"""A table given another built-in style than python-pptx's default. python-pptx has no
API for the table style, so an agent writes the style's GUID into ``a:tableStyleId``
("Medium Style 2 - Accent 2"); the package holds no definition of it, and LibreOffice
draws its own predefined copy: the header text white on the accent. The tree knew only
Accent 1 and read that header black on no fill, so "is the header text white?" failed.
The truth is the ink and the fill LibreOffice draws, read off the page image."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import background, ink, same_color

from .agent_decks import save, styled_table_slides

pytestmark = pytest.mark.slow

STYLES = {
    "Plain": "{073A0DAA-6AF3-43AB-8588-CEC1D06C72B9}",  # Medium Style 2 (dk1)
    "Accent2": "{21E4AEA4-8DFA-4A89-87EB-49C32662AFE0}",
    "Accent6": "{93296810-A885-4BE3-A3E7-6D5BEEA58F35}",
}
# the default template's 2007 theme: dk1, accent 2, accent 6
SLOT = {"Plain": "#000000", "Accent2": "#c0504d", "Accent6": "#f79646"}


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    prs, tables = styled_table_slides(STYLES, rows=3, cols=2)
    for tag, table in tables.items():
        table.cell(0, 0).text = f"Head{tag}"
        table.cell(1, 0).text = f"Body{tag}"
    return save(prs, tmp_path_factory.mktemp("table-styles") / "styles.pptx")


@pytest.mark.parametrize("tag", list(STYLES))
def test_header_and_body_are_what_libreoffice_draws(deck: Path, tag: str) -> None:
    doc = load(deck, render=True)
    pdf = render_pdf(deck).pdf_path
    head = next(c for c in doc.select("cell") if c.text == f"Head{tag}")
    body = next(c for c in doc.select("cell") if c.text == f"Body{tag}")
    head_run = next(r for r in head.descendants("run") if r.text)
    assert head.box is not None and body.box is not None and head_run.box is not None
    drawn_head_fill, drawn_body_fill = background(pdf, head.box), background(pdf, body.box)
    drawn_head_ink = ink(pdf, head_run.box)
    assert same_color(drawn_head_fill, SLOT[tag]), (tag, drawn_head_fill)
    assert same_color(drawn_head_ink, "#ffffff"), (tag, drawn_head_ink)
    assert head.style is not None and head.style.fill is not None
    assert same_color(head.style.fill, drawn_head_fill), (tag, head.style.fill, drawn_head_fill)
    assert body.style is not None and body.style.fill is not None
    assert same_color(body.style.fill, drawn_body_fill), (tag, body.style.fill, drawn_body_fill)
    assert head_run.style is not None and head_run.style.color == "#ffffff"
    assert head_run.style.bold is False  # LibreOffice's predefined copy draws it regular


def test_is_the_header_text_white(deck: Path) -> None:
    doc = load(deck, render=False)
    white = run_check("format_is", doc, {"target": {"selector": "cell", "text": "HeadAccent2"}, "color": "white"})
    assert white.status == "pass", white.explanation
    filled = run_check("color_is", doc, {"target": {"selector": "cell", "text": "HeadAccent2"}, "property": "fill", "expected": "theme:accent 2"})
    assert filled.status == "pass", filled.explanation
    body = run_check("format_is", doc, {"target": {"selector": "cell", "text": "BodyAccent2"}, "color": "white"})
    assert body.status == "fail"
