"""A section's orientation is the page's as drawn. python-docx's ``section.orientation =
WD_ORIENT.LANDSCAPE`` without swapping ``page_width`` and ``page_height`` (its docs warn;
agents do it anyway) states ``w:orient="landscape"`` on a 612 x 792 pt page, and Word and
LibreOffice draw that page portrait. The tree said landscape, so a "the document is in
landscape" intent, or ``compare_document``'s page setup against a landscape gold, passed
a portrait page. The truth is the rendered page's size."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import docx
import pypdfium2 as pdfium
import pytest
from docx.enum.section import WD_ORIENT

from artifactcheck import load, run_check
from artifactcheck.checks.registry import Resources
from artifactcheck.extractors.render import render_pdf


def _letter(path: Path, *, flag: bool, swap: bool) -> Path:
    d = docx.Document()
    d.add_paragraph("A wide table goes here.")
    section = d.sections[0]
    if flag:
        section.orientation = WD_ORIENT.LANDSCAPE
    if swap:
        section.page_width, section.page_height = section.page_height, section.page_width
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def letters(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("orientation")
    return {
        "flag_only": _letter(folder / "flag_only.docx", flag=True, swap=False),
        "swapped": _letter(folder / "swapped.docx", flag=True, swap=True),
        "size_only": _letter(folder / "size_only.docx", flag=False, swap=True),
    }


def _section(path: Path) -> Mapping[str, object]:
    sections = load(path, render=False).root.attrs["sections"]
    assert isinstance(sections, list) and isinstance(sections[0], dict)
    return sections[0]


def test_the_flag_alone_is_a_portrait_page_that_states_landscape(letters: dict[str, Path]) -> None:
    got = _section(letters["flag_only"])
    assert got["orientation"] == "portrait" and got["orientation_stated"] == "landscape", got


@pytest.mark.parametrize("name", ["swapped", "size_only"])
def test_a_wide_page_is_landscape_whatever_it_states(letters: dict[str, Path], name: str) -> None:
    got = _section(letters[name])
    assert got["orientation"] == "landscape" and "orientation_stated" not in got, got


def test_compare_document_fails_the_flag_alone_against_a_landscape_gold(letters: dict[str, Path]) -> None:
    folder = letters["swapped"].parent
    result = run_check(
        "compare_document", load(letters["flag_only"], render=False),
        {"reference": "swapped.docx", "aspects": ["page_setup"]}, Resources(assets_dir=str(folder)),
    )
    assert result.status == "fail" and "orientation" in str(result.evidence), result.explanation
    same = run_check(
        "compare_document", load(letters["size_only"], render=False),
        {"reference": "swapped.docx", "aspects": ["page_setup"]}, Resources(assets_dir=str(folder)),
    )
    assert same.status == "pass", same.explanation


@pytest.mark.slow
def test_libreoffice_draws_the_pages_as_their_sizes_say(letters: dict[str, Path]) -> None:
    for name, path in letters.items():
        page = pdfium.PdfDocument(str(render_pdf(path).pdf_path))[0]
        width, height = page.get_size()
        drawn = "landscape" if width > height else "portrait"
        assert drawn == _section(path)["orientation"], (name, width, height)
