"""A .docx run colour stated twice: python-docx's ``font.color.theme_color = ACCENT_1``
writes ``w:color w:val="000000" w:themeColor="accent1"``. Word draws accent 1 and the
tree follows Word (design/docx-tree.md); LibreOffice 7.4 paints ``w:val``, black. An
author comparing a verdict with our render saw black text judged blue, with nothing
saying why. The run now carries ``color_stated_rgb`` and a failing colour verdict says
what LibreOffice paints. The truth for the divergence is the render: the glyphs are
black there."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from docx.enum.dml import MSO_THEME_COLOR
from docx.shared import RGBColor

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from tests.extractors.rendered_look import ink, same_color


@pytest.fixture(scope="module")
def letter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    d.add_paragraph().add_run("Accent words here").font.color.theme_color = MSO_THEME_COLOR.ACCENT_1
    d.add_paragraph().add_run("Plain red words").font.color.rgb = RGBColor(0xFF, 0, 0)
    path = tmp_path_factory.mktemp("theme-twice") / "letter.docx"
    d.save(str(path))
    return path


def test_the_run_says_what_else_the_file_states(letter: Path) -> None:
    doc = load(letter, render=False)
    accent, red = (n for n in doc.select("run"))
    assert accent.style is not None and accent.style.color == "#4f81bd"
    assert accent.attrs.get("color_stated_rgb") == "#000000" and "color_stated_rgb" not in red.attrs
    failed = run_check("format_is", doc, {"target": {"text": "Accent words"}, "color": "#000000"})
    assert failed.status == "fail" and "LibreOffice 7.4 paints #000000" in failed.explanation, failed.explanation


@pytest.mark.slow
def test_libreoffice_paints_the_stated_value(letter: Path) -> None:
    doc = load(letter)
    accent = next(n for n in doc.select("run") if n.text.startswith("Accent"))
    drawn = ink(render_pdf(letter).pdf_path, accent.box)
    assert same_color(drawn, "#000000", tolerance=6) and not same_color(drawn, "#4f81bd", tolerance=20), drawn
