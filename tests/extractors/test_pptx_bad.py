"""Broken or hostile .pptx packages made from the fixture deck: typed errors naming the
file and the part, or a degraded tree with warnings — never a library traceback."""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from artifactcheck.errors import ArtifactTooLarge, CorruptArtifact
from artifactcheck.extractors.pptx.extract import extract_pptx
from tests.conftest import FIXTURES

DECK = FIXTURES / "pptx" / "deck.pptx"


def rewrite(dest: Path, edits: dict[str, bytes | None]) -> Path:
    """Copy the fixture deck with some parts replaced (None drops the part)."""
    with zipfile.ZipFile(DECK) as zin, zipfile.ZipFile(dest, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            if info.filename in edits:
                data = edits[info.filename]
                if data is None:
                    continue
            else:
                data = zin.read(info)
            zout.writestr(info.filename, data)
    return dest


def part(name: str) -> bytes:
    with zipfile.ZipFile(DECK) as z:
        return z.read(name)


def test_absurd_slide_size_is_a_typed_error(tmp_path: Path) -> None:
    pres = re.sub(rb'<p:sldSz cx="\d+" cy="\d+"', b'<p:sldSz cx="9999999999999" cy="6858000"', part("ppt/presentation.xml"))
    bad = rewrite(tmp_path / "huge.pptx", {"ppt/presentation.xml": pres})
    with pytest.raises(ArtifactTooLarge, match="huge.pptx.*slide size"):
        extract_pptx(bad)


def test_missing_slide_size_falls_back_with_a_warning(tmp_path: Path) -> None:
    pres = re.sub(rb'<p:sldSz[^>]*/>', b"", part("ppt/presentation.xml"))
    doc = extract_pptx(rewrite(tmp_path / "nosize.pptx", {"ppt/presentation.xml": pres}))
    assert (doc.pages[0].width, doc.pages[0].height) == (720.0, 540.0)
    assert any("slide size" in w for w in doc.warnings)


def test_broken_slide_xml_names_the_part(tmp_path: Path) -> None:
    bad = rewrite(tmp_path / "broken.pptx", {"ppt/slides/slide2.xml": b"<p:sld><unclosed>"})
    with pytest.raises(CorruptArtifact, match=r"broken\.pptx.*ppt/slides/slide2\.xml"):
        extract_pptx(bad)


def test_missing_image_and_chart_parts_degrade(tmp_path: Path) -> None:
    doc = extract_pptx(rewrite(tmp_path / "holes.pptx", {"ppt/media/image1.png": None, "ppt/charts/chart1.xml": None}))
    pic = next(iter(doc.iter("image")))
    assert pic.attrs.get("image_missing") is True and pic.box is not None
    chart = doc.select_one("chart")
    assert chart is not None and chart.attrs["chart_type"] is None and chart.attrs["chart_error"]
    assert any("chart" in w for w in doc.warnings) and any("image" in w for w in doc.warnings)


def test_missing_theme_uses_office_defaults(tmp_path: Path) -> None:
    doc = extract_pptx(rewrite(tmp_path / "notheme.pptx", {"ppt/theme/theme1.xml": None}))
    assert any("theme" in w for w in doc.warnings)
    run = doc.get("s0/sh0/p0/r0")
    assert run.style is not None and run.style.font and run.style.color == "#000000"
