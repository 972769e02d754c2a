"""EPUB input: the tree (the kinds a .docx gives), text checks and compare_document over
it, no layout (and checks that need one say so), and typed errors for bad packages.
Files are written with zipfile (tests/extractors/epub_files.py)."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest

import artifactcheck
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.errors import (
    ArtifactTooLarge,
    CorruptArtifact,
    EncryptedArtifact,
    UnsupportedFormat,
)
from artifactcheck.model import Document
from tests.conftest import corpus_file
from tests.extractors.epub_files import (
    CHAPTER_1,
    CHAPTER_2,
    CONTAINER,
    book_members,
    build_book,
    opf,
    write_epub,
)


@pytest.fixture
def book(tmp_path: Path) -> Document:
    return artifactcheck.load(build_book(tmp_path / "book.epub"))


def test_tree_has_document_kinds(book: Document) -> None:
    assert book.artifact.format == "epub" and book.artifact.layout == "none" and book.pages == []
    assert book.root.attrs == {"title": "A Test Book", "language": "en", "epub_version": "3.0"}
    headings = [(p.text, p.attrs["heading_level"]) for p in book.select("paragraph[heading_level]")]
    assert headings == [("Chapter One", 1), ("Chapter Two", 2)]
    para = book.select_one('paragraph:contains("bright cold")')
    assert para.text == "It was a bright cold day in April, and the clocks were striking thirteen."  # whitespace collapsed
    assert [r.text for r in book.select("run[bold]") if r.parent is para] == ["bright"]
    assert [r.text for r in book.select("run[italic]")] == ["April"]
    (link,) = book.select("run[hyperlink]")
    assert (link.text, link.attrs["hyperlink"]) == ("the notes", "https://example.org/notes")
    assert book.select_one('run[baseline="subscript"]').text == "2"
    items = [(p.text, p.attrs["list_level"], p.attrs["list_ordered"]) for p in book.select("paragraph[list_level]")]
    assert items == [("First point", 0, False), ("Second point", 0, False), ("Nested step", 1, True)]
    (img,) = book.select("image")
    assert img.attrs["alt_text"] == "Publisher logo" and book.blobs[img.attrs["blob"]].width_px == 40
    assert book.select_one('paragraph:contains("Line one")').text == "Line one\nline two & more."
    (table,) = book.select("table")
    assert (table.attrs["rows"], table.attrs["cols"]) == (2, 2) and table.text == "Name\tScore\nAnn\t12"
    assert {p.attrs["part"] for p in book.select("document > paragraph")} == {"OEBPS/text/ch1.xhtml", "OEBPS/text/ch2.xhtml"}
    assert all(not n.boxes for n in book.iter())


def test_text_checks_and_no_layout(book: Document) -> None:
    assert run_check("text_contains", book, {"phrases": ["striking thirteen", "Nested step"]}).status == "pass"
    assert run_check("format_is", book, {"target": "paragraph[heading_level] run", "bold": True}).status == "pass"
    where = run_check("in_region", book, {"target": "image", "region": "upper-left", "page": 0})
    assert where.status == "error" and "without layout" in where.explanation


def test_compare_document_epub_against_epub_and_docx(tmp_path: Path, book: Document) -> None:
    # the same text packaged as one chapter file agrees; a changed word is located
    build_book(tmp_path / "one_file.epub", [CHAPTER_1 + CHAPTER_2])
    resources = Resources(assets_dir=str(tmp_path))
    same = run_check("compare_document", book, {"reference": "one_file.epub"}, resources)
    assert same.status == "pass", same.explanation
    build_book(tmp_path / "edited.epub", [CHAPTER_1.replace("thirteen", "twelve"), CHAPTER_2])
    edited = run_check("compare_document", book, {"reference": "edited.epub", "aspects": ["text"]}, resources)
    assert edited.status == "fail" and "twelve" in str(edited.evidence["differences"])
    gold = docx.Document()
    for p in book.select("document > paragraph"):
        if p.text:
            gold.add_paragraph(p.text)
    gold.save(str(tmp_path / "gold.docx"))
    vs_docx = run_check("compare_document", book, {"reference": "gold.docx", "aspects": ["text"]}, resources)
    assert vs_docx.status == "pass", vs_docx.explanation


def test_told_by_content_not_name(tmp_path: Path) -> None:
    renamed = build_book(tmp_path / "book.zip")
    assert artifactcheck.load(renamed).artifact.format == "epub"
    members = book_members()
    del members["mimetype"]
    assert artifactcheck.load(write_epub(tmp_path / "no_mimetype.epub", members)).artifact.format == "epub"


def test_lenient_content_documents(tmp_path: Path) -> None:
    xhtml11 = (
        '<?xml version="1.0"?><!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.1//EN" '
        '"http://www.w3.org/TR/xhtml11/DTD/xhtml11.dtd"><html xmlns="http://www.w3.org/1999/xhtml">'
        "<body><p>a&nbsp;b</p></body></html>"
    )
    members = book_members()
    members["OEBPS/text/ch1.xhtml"] = xhtml11
    members["OEBPS/text/ch2.xhtml"] = "<html><body><p>unclosed <b>tag soup<p>next &nbsp;one</body></html>"
    doc = artifactcheck.load(write_epub(tmp_path / "lenient.epub", members))
    assert [p.text for p in doc.select("document > paragraph")] == ["a\xa0b", "unclosed tag soup", "next \xa0one"]
    assert any("HTML parser" in w for w in doc.warnings)


def _broken(tmp_path: Path, name: str, members: dict[str, bytes | str]) -> Path:
    return write_epub(tmp_path / f"{name}.epub", members)


def _bad_cases(tmp_path: Path) -> dict[str, tuple[Path, type[Exception], str]]:
    good = book_members()
    cases: dict[str, tuple[dict[str, bytes | str], type[Exception], str]] = {}
    cases["no container"] = ({k: v for k, v in good.items() if k != "META-INF/container.xml"}, CorruptArtifact, "container.xml")
    cases["container to nowhere"] = ({**good, "META-INF/container.xml": CONTAINER.format(opf="OEBPS/missing.opf")}, CorruptArtifact, "missing.opf")
    cases["broken container xml"] = ({**good, "META-INF/container.xml": "<container><rootfiles>"}, CorruptArtifact, "well-formed")
    cases["spine item missing"] = ({k: v for k, v in good.items() if k != "OEBPS/text/ch2.xhtml"}, CorruptArtifact, "ch2.xhtml")
    bad_ref = opf([("ch1", "text/ch1.xhtml", "application/xhtml+xml")], ["ch1", "ghost"])
    cases["idref not in manifest"] = ({**good, "OEBPS/content.opf": bad_ref}, CorruptArtifact, "'ghost'")
    cases["empty spine"] = ({**good, "OEBPS/content.opf": opf([], [])}, CorruptArtifact, "empty spine")
    no_xhtml = opf([("logo", "images/logo.png", "image/png")], ["logo"])
    cases["no xhtml in spine"] = ({**good, "OEBPS/content.opf": no_xhtml}, UnsupportedFormat, "no XHTML")
    drm = ('<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">'
           '<enc:EncryptedData><enc:CipherData><enc:CipherReference URI="OEBPS/text/ch1.xhtml"/></enc:CipherData>'
           "</enc:EncryptedData></encryption>")
    cases["drm"] = ({**good, "META-INF/encryption.xml": drm}, EncryptedArtifact, "DRM")
    cases["zip bomb"] = ({**good, "OEBPS/text/ch1.xhtml": b" " * (6 * 1024 * 1024)}, ArtifactTooLarge, "zip bomb")
    return {name: (_broken(tmp_path, name.replace(" ", "_"), m), err, msg) for name, (m, err, msg) in cases.items()}


@pytest.mark.parametrize(
    "case",
    ["no container", "container to nowhere", "broken container xml", "spine item missing", "idref not in manifest",
     "empty spine", "no xhtml in spine", "drm", "zip bomb"],
)
def test_bad_packages_are_typed_errors_naming_the_file(tmp_path: Path, case: str) -> None:
    path, error, message = _bad_cases(tmp_path)[case]
    with pytest.raises(error) as info:
        artifactcheck.load(path)
    assert message in str(info.value) and path.name in str(info.value)


def test_truncated_zip(tmp_path: Path) -> None:
    path = build_book(tmp_path / "book.epub")
    data = path.read_bytes()
    cut = tmp_path / "cut.epub"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(CorruptArtifact) as info:
        artifactcheck.load(cut)
    assert "cut.epub" in str(info.value)


def test_a_missing_picture_is_recorded_not_fatal(tmp_path: Path) -> None:
    members = book_members()
    del members["OEBPS/images/logo.png"]
    doc = artifactcheck.load(write_epub(tmp_path / "nopic.epub", members))
    (img,) = doc.select("image")
    assert img.attrs["missing_image"] is True and "blob" not in img.attrs
    assert any("logo.png" in w for w in doc.warnings)


def test_every_emitted_attribute_is_declared(tmp_path: Path) -> None:
    from tests.model.test_attributes import undeclared

    members = book_members()
    del members["OEBPS/images/logo.png"]  # missing_image too
    for path in (build_book(tmp_path / "book.epub"), write_epub(tmp_path / "nopic.epub", members)):
        assert undeclared(artifactcheck.load(path), path.name) == []


@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "aspects"),
    [("tika_testWORD_various.docx", ["text", "tables"]), ("docling_docx_lists.docx", ["text"]),
     ("docx2python_example.docx", ["text"])],
)
def test_an_epub_libreoffice_wrote_reads_as_its_docx(tmp_path: Path, name: str, aspects: list[str]) -> None:
    """A real writer's EPUB: LibreOffice's EPUB export of a corpus .docx has the .docx's
    body text (and tables), its footnotes (`<aside epub:type="footnote">`) as notes, not
    body text. Headings and lists are not compared: LibreOffice writes them as styled
    `<p class=...>`, which without CSS are body paragraphs."""
    from artifactcheck.extractors.render.renderer import LibreOfficeRenderer

    src = corpus_file("docx", name)
    epub = LibreOfficeRenderer().convert(src, tmp_path, target="epub", timeout=120)
    doc = artifactcheck.load(epub)
    assert doc.artifact.format == "epub" and doc.warnings == []
    from tests.model.test_attributes import undeclared

    assert undeclared(doc, epub.name) == []
    if name == "docx2python_example.docx":
        notes = doc.select("footnote")
        assert [n.attrs["note_type"] for n in notes] == ["footnote"] * 4
        assert {r.attrs["footnote_ref"] for r in doc.select("run[footnote_ref]")} == {n.attrs["note_id"] for n in notes}
        assert doc.select("table[nested]")
    result = run_check("compare_document", doc, {"reference": str(src), "aspects": aspects}, Resources(assets_dir=str(src.parent)))
    assert result.status == "pass", result.explanation
