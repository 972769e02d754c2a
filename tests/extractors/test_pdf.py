"""The PDF extractor on PDFs made the way agents make them (python-docx -> LibreOffice
export): the tree holds what the page shows — checked against the source document's
text and the render's geometry, not against our own tree — and every kind of check
(text, geometry, image, OCR) runs on it. Bad PDFs get typed errors."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import artifactcheck
from artifactcheck import errors
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.model import Document

from .pdf_docs import (
    BODY,
    LINK_URL,
    chart_picture,
    encrypted_pdf,
    export_pdf,
    report_docx,
    with_links,
)

pytestmark = pytest.mark.slow  # LibreOffice exports the PDFs (once per machine: cached)


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("pdf")
    exported = export_pdf(report_docx(tmp / "report.docx"), tmp / "exported.pdf")
    out = {
        "report": with_links(exported, tmp / "report.pdf", uri=("full results", LINK_URL), internal_over="Details:"),
        "heading_low": export_pdf(report_docx(tmp / "low.docx", heading_at_bottom=True), tmp / "low.pdf"),
    }
    chart_picture().save(tmp / "chart.png")
    out["chart"] = tmp / "chart.png"
    return out


@pytest.fixture(scope="module")
def report(pdfs: dict[str, Path]) -> Document:
    return artifactcheck.load(pdfs["report"])


def _words(text: str) -> list[str]:
    return text.split()


def test_pages_and_artifact_info(report: Document, pdfs: dict[str, Path]) -> None:
    assert report.artifact.format == "pdf" and report.artifact.path == str(pdfs["report"])
    assert "LibreOffice" in (report.artifact.producer or "")
    assert [(p.kind, round(p.width), round(p.height)) for p in report.pages] == [("page", 612, 792)]  # US Letter
    assert [n.id for n in report.select("page")] == ["p0"]
    assert report.warnings == []


def test_every_attribute_is_declared(report: Document) -> None:
    from tests.model.test_attributes import undeclared

    assert undeclared(report, "report.pdf") == []


def test_text_is_the_source_documents_text_in_reading_order(report: Document) -> None:
    # What python-docx wrote, paragraph by paragraph (the table's cells read row by row).
    expected = ["Quarterly Report 2024", f"{BODY} {BODY}", "Details: full results", "Region Sales", "North 1,200"]
    assert _words(report.text) == _words("\n".join(expected))


def test_lines_group_into_the_paragraphs_the_page_shows(report: Document) -> None:
    paras = report.select("paragraph")
    heading, body = paras[0], paras[1]
    assert heading.text == "Quarterly Report 2024"
    assert _words(body.text) == _words(f"{BODY} {BODY}")
    assert body.attrs["lines"] == len(body.children) >= 3  # the body wraps onto several lines
    lines = body.children
    for upper, lower in itertools.pairwise(lines):  # lines stacked, tops increasing, inside the paragraph box
        assert upper.box is not None and lower.box is not None and body.box is not None
        assert upper.box.bottom <= lower.box.top + 0.5
        assert body.box.x0 <= lower.box.x0 and lower.box.bottom <= body.box.bottom
    assert all(line.kind == "line" for line in lines) and all(r.kind == "run" for r in lines[0].children)


def test_words_carry_boxes_and_the_style_of_their_font(report: Document) -> None:
    heading_words = report.select("paragraph")[0].select("run")
    assert [w.text for w in heading_words] == ["Quarterly", "Report", "2024"]
    xs = [w.box.x0 for w in heading_words if w.box is not None]
    assert xs == sorted(xs)  # left to right
    style = heading_words[0].style
    assert style is not None and style.bold is True and style.size == 14  # python-docx's Heading 1
    body_word = report.select("paragraph")[1].select_one("run")
    assert body_word is not None and body_word.style is not None
    assert body_word.style.bold is False and body_word.style.size == 11
    assert body_word.style.font  # the embedded font's family (LibreOffice's substitute)


def test_link_annotation_reaches_the_words_it_covers(report: Document) -> None:
    linked = [r for r in report.select("run[hyperlink]") if r.attrs["hyperlink"] == LINK_URL]
    assert [r.text for r in linked] == ["full", "results"]
    assert report.select_one("run[hyperlink='#page=1']").text == "Details:"  # type: ignore[union-attr]
    links = report.pages[0].attrs["links"]
    assert isinstance(links, list)
    assert [(k["kind"], k["url"], k["target_page"]) for k in links] == [("uri", LINK_URL, None), ("goto", "#page=1", 0)]  # type: ignore[index]
    r = run_check("link_present", report, {"url": LINK_URL, "text": "full results"})
    assert r.status == "pass", r.explanation


def test_image_has_its_box_and_matches_the_original_picture(report: Document, pdfs: dict[str, Path]) -> None:
    (image,) = report.images()
    assert image.box is not None
    assert image.box.width == pytest.approx(216, abs=1)  # 3 inches, as python-docx placed it
    assert image.box.height == pytest.approx(108, abs=1)
    blob = report.blob(image.attrs["blob"])
    assert (blob.width_px, blob.height_px) == (600, 300) and blob.phash
    res = Resources(assets_dir=str(pdfs["chart"].parent))
    ok = run_check("image_matches", report, {"reference": "chart.png"}, res)
    assert ok.status == "pass" and ok.evidence["candidates"][0]["method"] in ("sha256", "pixels"), ok.explanation


def test_geometry_checks_pass_and_fail_on_where_the_text_is(report: Document, pdfs: dict[str, Path]) -> None:
    params = {"target": {"selector": "paragraph", "text": "Quarterly Report"}, "region": "top 20%", "page": 0}
    assert run_check("in_region", report, params).status == "pass"
    low = artifactcheck.load(pdfs["heading_low"])
    failed = run_check("in_region", low, params)
    assert failed.status == "fail", failed.explanation


def test_text_checks_run_on_the_pdf(report: Document) -> None:
    assert run_check("text_contains", report, {"phrases": ["new product line that launched in March"]}).status == "pass"
    assert run_check("text_contains", report, {"phrases": ["launched in April"]}).status == "fail"


def test_ocr_reads_the_pdf_page_itself(report: Document) -> None:
    from artifactcheck.extractors.ocr import OcrEngine

    res = Resources(extras={"ocr_engine": OcrEngine()})
    found = run_check("ocr_text_in_region", report, {"text": "SALES UP", "region": "top half", "page": 0}, res)
    assert found.status == "pass", found.explanation
    missing = run_check("ocr_text_in_region", report, {"text": "SALES DOWN", "region": "page", "page": 0, "min_score": 90}, res)
    assert missing.status == "fail"


def test_encrypted_pdf_is_a_typed_error(pdfs: dict[str, Path], tmp_path: Path) -> None:
    locked = encrypted_pdf(pdfs["report"], tmp_path / "locked.pdf")
    with pytest.raises(errors.EncryptedArtifact, match="locked.pdf.*password"):
        artifactcheck.load(locked)


def test_truncated_and_junk_pdfs_are_corrupt(pdfs: dict[str, Path], tmp_path: Path) -> None:
    data = pdfs["report"].read_bytes()
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(errors.CorruptArtifact, match="truncated"):
        artifactcheck.load(cut)
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"%PDF-1.7\n" + bytes(range(256)) * 40 + b"\n%%EOF\n")
    with pytest.raises(errors.CorruptArtifact, match="junk.bin"):
        artifactcheck.load(junk)


def test_a_scan_without_text_layer_says_so(tmp_path: Path) -> None:
    scan = tmp_path / "scan.pdf"
    chart_picture().save(scan, format="PDF", resolution=100)  # Pillow writes an image-only PDF
    doc = artifactcheck.load(scan)
    assert doc.text == "" and len(doc.images()) == 1
    assert any("no text layer" in w for w in doc.warnings)
    read = artifactcheck.load(scan, ocr=True)  # the words tesseract reads become nodes
    assert [w.text for w in read.select("run")] == ["SALES", "UP"]
    (image,) = read.images()
    words = read.select("line")[0].box
    assert words is not None and words.origin == "ocr" and image.box is not None
    assert image.box.x0 < words.x0 < words.x1 < image.box.x1  # the text sits inside the picture
