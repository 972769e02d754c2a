"""OpenDocument files saved by LibreOffice (from documents built the way agents build
them) load through their OOXML twin: the tree says what the source said, the artifact
info names the .odt/.ods/.odp, the conversion is cached, and checks work on them."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

import artifactcheck
from artifactcheck import errors
from artifactcheck.checks.registry import run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.extractors.render.cache import render_cache_stats

pytestmark = pytest.mark.slow  # LibreOffice converts the ODF files (once per machine: cached)


ODF = Path(__file__).resolve().parents[2] / "fixtures" / "odf"  # built by fixtures/build_input_tasks.py


@pytest.fixture(scope="module")
def odf() -> dict[str, Path]:
    """An .odt/.ods/.odp LibreOffice saved from a python-docx document (heading, a word
    highlighted yellow), an openpyxl workbook (values, =SUM(B2:B3)) and a python-pptx deck
    (title, a text box placed at 72, 400 pt)."""
    return {"odt": ODF / "notes.odt", "ods": ODF / "budget.ods", "odp": ODF / "plan.odp"}


def test_odt_reads_as_its_docx_twin(odf: dict[str, Path]) -> None:
    doc = artifactcheck.load(odf["odt"])
    assert (doc.artifact.format, doc.artifact.extracted_as, doc.artifact.path) == ("odt", "docx", str(odf["odt"]))
    assert doc.artifact.size_bytes == odf["odt"].stat().st_size
    assert any(t.name.startswith("libreoffice (odt to docx)") for t in doc.tools)
    texts = [p.text for p in doc.select("paragraph") if p.text]
    assert texts == ["Field Notes", "The river was high after the storm.", "Second paragraph."]
    heading = doc.select_one("paragraph[heading_level='1']")
    assert heading is not None and heading.box is not None and heading.box.origin == "layout"
    high = next(r for r in doc.select("run") if r.text == "high")
    assert high.style is not None and high.style.highlight is not None  # highlight survives (OSWorld's .odt check)
    assert run_check("in_region", doc, {"target": "paragraph[heading_level='1']", "region": "top 20%", "page": 0}).status == "pass"
    assert run_check("in_region", doc, {"target": "paragraph[heading_level='1']", "region": "bottom half", "page": 0}).status == "fail"


def test_ods_reads_as_its_xlsx_twin(odf: dict[str, Path]) -> None:
    doc = artifactcheck.load(odf["ods"])
    assert (doc.artifact.format, doc.artifact.extracted_as) == ("ods", "xlsx")
    assert [p.name for p in doc.pages] == ["Budget"]
    cost = doc.get("Budget!B2")
    assert cost.attrs["value"] == 12.5
    total = doc.get("Budget!B4")
    assert total.attrs["formula"] == "=SUM(B2:B3)" and total.attrs["value"] == 42.5  # LibreOffice computed it
    assert run_check("number_equals", doc, {"target": "cell[ref='B4']", "expected": 42.5}).status == "pass"
    assert run_check("number_equals", doc, {"target": "cell[ref='B4']", "expected": 40}).status == "fail"


def test_odp_reads_as_its_pptx_twin(odf: dict[str, Path]) -> None:
    doc = artifactcheck.load(odf["odp"])
    assert (doc.artifact.format, doc.artifact.extracted_as) == ("odp", "pptx")
    assert len(doc.pages) == 1 and doc.pages[0].kind == "slide"
    note = next(n for n in doc.iter() if n.kind in ("textbox", "shape") and n.text == "Ship in May")
    assert note.box is not None and note.box.top == pytest.approx(400, abs=1)  # where python-pptx put it
    # python-pptx's text box is auto-fit; LibreOffice shrinks it around the text (the
    # .pptx renders the same way): the box must hold the words where the render draws them.
    drawn = [w for w in read_layout(render_pdf(odf["odp"]).pdf_path).words if w.text in ("Ship", "May")]
    assert len(drawn) == 2
    for w in drawn:
        assert note.box.x0 - 1 <= w.x0 and w.x1 <= note.box.x1 + 1 and note.box.top - 1 <= w.top and w.bottom <= note.box.bottom + 1
    assert run_check("text_contains", doc, {"phrases": ["Launch Plan", "Ship in May"]}).status == "pass"


def test_every_attribute_is_declared(odf: dict[str, Path]) -> None:
    from tests.model.test_attributes import undeclared

    for path in odf.values():
        assert undeclared(artifactcheck.load(path, render=False), path.name) == []


def test_the_conversion_is_cached(odf: dict[str, Path]) -> None:
    artifactcheck.load(odf["ods"])
    before = render_cache_stats()
    again = artifactcheck.load(odf["ods"])
    after = render_cache_stats()
    assert after["misses"] == before["misses"] and after["hits"] > before["hits"]
    assert again.get("Budget!B2").attrs["value"] == 12.5


def test_password_protected_and_non_office_odf_are_typed_errors(odf: dict[str, Path], tmp_path: Path) -> None:
    # The manifest of a password-protected file lists encryption-data for each stream.
    locked = tmp_path / "locked.odt"
    with zipfile.ZipFile(odf["odt"]) as src, zipfile.ZipFile(locked, "w") as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename == "META-INF/manifest.xml":
                data = data.replace(
                    b'manifest:full-path="content.xml"',
                    b'manifest:full-path="content.xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K"/></manifest:file-entry><manifest:file-entry manifest:full-path="x"',
                    1,
                )
            dst.writestr(info, data)
    with pytest.raises(errors.EncryptedArtifact, match="locked.odt"):
        artifactcheck.load(locked)
    drawing = tmp_path / "sketch.odg"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("mimetype", "application/vnd.oasis.opendocument.graphics")
        zf.writestr("content.xml", "<office:document-content/>")
    drawing.write_bytes(buf.getvalue())
    with pytest.raises(errors.UnsupportedFormat, match="sketch.odg"):
        artifactcheck.load(drawing)
