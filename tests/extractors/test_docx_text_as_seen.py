""".docx text as a reader of the LibreOffice render sees it, and the text checks on it:
capitals set by formatting, list and heading numbers, footnote marks, links nobody can
see, headers no page prints, pictures deleted with track changes, caption (SEQ) numbers. Each file is built as
an agent builds it (python-docx, with raw XML where python-docx has no API), rendered,
and the page's text is the truth the verdict must agree with."""

from __future__ import annotations

import io
import shutil
import zipfile
from pathlib import Path

import docx
import pytest
from docx.document import Document as DocxDocument
from docx.oxml import parse_xml
from docx.shared import Inches
from docx.text.paragraph import Paragraph
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
W = f'xmlns:w="{W_NS}"'
HYPERLINK_REL = f"{R_NS}/hyperlink"


def _save(d: DocxDocument, path: Path) -> Path:
    d.save(str(path))
    return path


def _printed(path: Path) -> str:
    """The text the rendered pages print, pages joined."""
    return " ".join(w.text for w in read_layout(render_pdf(path).pdf_path).words)


def _status(path: Path, check: str, params: dict[str, object]) -> str:
    return run_check(check, load(path), params).status


def test_capitals_set_by_formatting_match_a_capitals_pattern(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_heading("", 1).add_run("Quarterly Summary").font.all_caps = True
    d.add_paragraph("body text")
    path = _save(d, tmp_path / "caps.docx")
    assert "QUARTERLY SUMMARY" in _printed(path)
    params = {"target": "paragraph[heading_level='1']", "pattern": "^[A-Z ]+$", "full_match": True, "ignore_case": False}
    assert _status(path, "text_regex", params) == "pass"
    assert _status(path, "text_regex", {**params, "pattern": "^[a-z ]+$"}) == "fail"


def test_list_numbers_the_page_prints_match_a_pattern(tmp_path: Path) -> None:
    d = docx.Document()
    for text in ("Download the installer", "Run setup", "Restart"):
        d.add_paragraph(text, style="List Number")
    path = _save(d, tmp_path / "steps.docx")
    assert "2. Run setup" in _printed(path)
    assert _status(path, "text_regex", {"pattern": r"^2\. Run setup$"}) == "pass"
    assert _status(path, "text_regex", {"target": "paragraph", "pattern": r"^\d\. ", "quantifier": "all"}) == "pass"
    assert _status(path, "text_regex", {"pattern": r"^4\. "}) == "fail"


def _with_footnote(path: Path) -> None:
    """Add ``word/footnotes.xml`` with note 1 (python-docx has no footnote API)."""
    notes = (
        f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:footnotes {W}>'
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p></w:footnote>'
        '<w:footnote w:id="1"><w:p><w:r><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r>'
        '<w:r><w:t xml:space="preserve"> Source: annual report.</w:t></w:r></w:p></w:footnote></w:footnotes>'
    )
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "[Content_Types].xml":
                data = data.replace(
                    b"</Types>",
                    b'<Override PartName="/word/footnotes.xml" ContentType="application/'
                    b'vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"/></Types>',
                )
            elif item.filename == "word/_rels/document.xml.rels":
                data = data.replace(
                    b"</Relationships>",
                    b'<Relationship Id="rIdNotes" Type="http://schemas.openxmlformats.org/officeDocument/'
                    b'2006/relationships/footnotes" Target="footnotes.xml"/></Relationships>',
                )
            zout.writestr(item, data)
        zout.writestr("word/footnotes.xml", notes)
    shutil.move(str(tmp), str(path))


def test_a_footnote_mark_does_not_break_the_sentence_it_follows(tmp_path: Path) -> None:
    d = docx.Document()
    p = d.add_paragraph("Revenue grew 15%.")
    p._p.append(parse_xml(f'<w:r {W}><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'))
    p.add_run(" Costs fell.")
    path = _save(d, tmp_path / "noted.docx")
    _with_footnote(path)
    printed = _printed(path)
    assert "Source: annual report." in printed and "15%.1" in printed.replace(" ", "")  # the mark is printed
    assert _status(path, "text_contains", {"phrases": ["Revenue grew 15%. Costs fell."]}) == "pass"
    assert _status(path, "text_equals", {"target": {"text": "Revenue grew"}, "expected": "Revenue grew 15%. Costs fell."}) == "pass"
    assert _status(path, "text_regex", {"pattern": r"15%\. Costs"}) == "pass"
    assert _status(path, "text_equals", {"target": "footnote", "expected": "Source: annual report."}) == "pass"
    assert _status(path, "text_contains", {"phrases": ["Revenue grew 5%."]}) == "fail"  # "15%" is not "5%"


def test_links_nobody_can_see_are_not_present(tmp_path: Path) -> None:
    d = docx.Document()
    p = d.add_paragraph("Links: ")
    gone = d.part.relate_to("https://example.com/deleted", HYPERLINK_REL, is_external=True)
    p._p.append(parse_xml(
        f'<w:del {W} xmlns:r="{R_NS}" w:id="3" w:author="a" w:date="2024-01-01T00:00:00Z">'
        f'<w:hyperlink r:id="{gone}"><w:r><w:delText>old link</w:delText></w:r></w:hyperlink></w:del>'
    ))
    hidden = d.part.relate_to("https://example.com/hidden", HYPERLINK_REL, is_external=True)
    p._p.append(parse_xml(
        f'<w:hyperlink {W} xmlns:r="{R_NS}" r:id="{hidden}"><w:r><w:rPr><w:vanish/></w:rPr><w:t>hidden link</w:t></w:r></w:hyperlink>'
    ))
    shown = d.part.relate_to("https://example.com/shown", HYPERLINK_REL, is_external=True)
    p._p.append(parse_xml(f'<w:hyperlink {W} xmlns:r="{R_NS}" r:id="{shown}"><w:r><w:t>shown link</w:t></w:r></w:hyperlink>'))
    claim = d.add_paragraph("A claim.")
    d.add_comment(claim.runs, text="Check https://example.com/incomment please", author="Rev", initials="R")
    d.sections[0].first_page_header.paragraphs[0].text = "See https://example.com/firsthdr"  # no titlePg: never used
    path = _save(d, tmp_path / "links.docx")
    printed = _printed(path)
    assert "shown link" in printed
    for word in ("old link", "hidden link", "incomment", "firsthdr"):
        assert word not in printed
    doc = load(path)
    assert run_check("link_present", doc, {"url": "https://example.com/shown"}).status == "pass"
    for url in ("deleted", "hidden", "incomment", "firsthdr"):
        assert run_check("link_present", doc, {"url": f"https://example.com/{url}"}).status == "fail", url
    # asked about the comments themselves, their links are there
    assert run_check("link_present", doc, {"url": "https://example.com/incomment", "scope": "comment"}).status == "pass"


def test_numbered_headings_are_named_with_their_numbers(tmp_path: Path) -> None:
    d = docx.Document()
    numbering = d.part.numbering_part.element
    numbering.insert(0, parse_xml(
        f'<w:abstractNum {W} w:abstractNumId="90"><w:multiLevelType w:val="multilevel"/>'
        '<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading1"/><w:lvlText w:val="%1."/><w:lvlJc w:val="left"/></w:lvl>'
        '<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:pStyle w:val="Heading2"/><w:lvlText w:val="%1.%2"/><w:lvlJc w:val="left"/></w:lvl>'
        "</w:abstractNum>"
    ))
    numbering.append(parse_xml(f'<w:num {W} w:numId="90"><w:abstractNumId w:val="90"/></w:num>'))
    for name, level in (("Heading 1", 0), ("Heading 2", 1)):
        d.styles[name].element.get_or_add_pPr().insert(
            0, parse_xml(f'<w:numPr {W}><w:ilvl w:val="{level}"/><w:numId w:val="90"/></w:numPr>')
        )
    d.add_heading("Introduction", 1)
    d.add_heading("Background", 2)
    d.add_heading("Methods", 1)
    path = _save(d, tmp_path / "numbered_headings.docx")
    printed = _printed(path)
    assert "1. Introduction" in printed and "1.1 Background" in printed and "2. Methods" in printed
    doc = load(path)
    assert run_check("heading_structure", doc, {"level": 1, "expected": ["1. Introduction", "2. Methods"], "in_order": True}).status == "pass"
    assert run_check("heading_structure", doc, {"level": 2, "expected": ["1.1 Background"]}).status == "pass"
    assert run_check("heading_structure", doc, {"level": 1, "expected": ["Methods"]}).status == "pass"
    assert run_check("heading_structure", doc, {"level": 1, "expected": ["3. Methods"]}).status == "fail"


def test_a_header_no_page_prints_is_not_in_the_document_text(tmp_path: Path) -> None:
    d = docx.Document()
    section = d.sections[0]
    section.different_first_page_header_footer = True
    section.first_page_header.paragraphs[0].text = "FIRSTONLY"
    section.header.paragraphs[0].text = "LATERNEVER"  # the default header: page 2 on, and there is no page 2
    d.add_paragraph("Only page body.")
    path = _save(d, tmp_path / "one_page.docx")
    printed = _printed(path)
    assert "FIRSTONLY" in printed and "LATERNEVER" not in printed
    doc = load(path)
    assert run_check("text_excludes", doc, {"phrases": ["LATERNEVER"]}).status == "pass"
    assert run_check("text_regex", doc, {"pattern": "LATERNEVER"}).status == "fail"
    assert run_check("text_contains", doc, {"phrases": ["FIRSTONLY", "Only page body"]}).status == "pass"


def _png(colour: str) -> io.BytesIO:
    data = io.BytesIO()
    Image.new("RGB", (60, 40), colour).save(data, "PNG")
    data.seek(0)
    return data


def test_a_picture_deleted_with_track_changes_is_not_counted(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_picture(_png("red"), width=Inches(1))
    d.add_picture(_png("blue"), width=Inches(1))
    p = d.paragraphs[-1]._p
    run = p.find(f"{{{W_NS}}}r")
    deleted = parse_xml(f'<w:del {W} w:id="9" w:author="a" w:date="2024-01-01T00:00:00Z"/>')
    p.remove(run)
    deleted.append(run)
    p.append(deleted)
    path = _save(d, tmp_path / "deleted_picture.docx")
    doc = load(path)
    assert run_check("structure", doc, {"unit": "images", "exactly": 1}).status == "pass"
    assert run_check("count", doc, {"target": "image", "exactly": 1}).status == "pass"
    kept = doc.select("image")[0]
    drawn = [im for im in read_layout(render_pdf(path).pdf_path).images if im.page == 0]
    top_most = min(drawn, key=lambda im: im.top)  # the red picture, first on the page
    assert kept.boxes and abs(kept.boxes[0].top - top_most.top) < 1.0


def _field(paragraph: Paragraph, instr: str, result: str | None = None) -> None:
    """A complex field as python-docx users write one: begin, instruction, [separate,
    result,] end."""
    def char(kind: str) -> None:
        paragraph.add_run()._r.append(parse_xml(f'<w:fldChar {W} w:fldCharType="{kind}"/>'))

    char("begin")
    paragraph.add_run()._r.append(parse_xml(f'<w:instrText {W} xml:space="preserve">{instr}</w:instrText>'))
    if result is not None:
        char("separate")
        paragraph.add_run(result)
    char("end")


def test_caption_numbers_are_counted_as_the_page_prints_them(tmp_path: Path) -> None:
    d = docx.Document()
    for name in ("Sales", "Costs"):  # no stored result: the usual python-docx recipe
        p = d.add_paragraph("Figure ", style="Caption")
        _field(p, r" SEQ Figure \* ARABIC ")
        p.add_run(f": {name}")
    for name in ("North", "South"):  # one caption copied: both store "1"
        p = d.add_paragraph("Table ", style="Caption")
        _field(p, r" SEQ Table \* ARABIC ", "1")
        p.add_run(f": {name}")
    p = d.add_paragraph("Appendix ", style="Caption")
    _field(p, r" SEQ Appendix \* ALPHABETIC ")
    for name in ("left", "right"):  # no switch at all: LibreOffice prints what is stored
        p = d.add_paragraph("Plate ", style="Caption")
        _field(p, " SEQ Plate ", "7")
        p.add_run(f" {name}")
    path = _save(d, tmp_path / "captions.docx")
    printed = _printed(path)
    for shown in ("Figure 1: Sales", "Figure 2: Costs", "Table 1: North", "Table 2: South", "Appendix A", "Plate 7 left", "Plate 7 right"):
        assert shown in printed, shown
    doc = load(path)
    phrases = ["Figure 1: Sales", "Figure 2: Costs", "Table 1: North", "Table 2: South", "Appendix A"]
    assert run_check("text_contains", doc, {"phrases": phrases}).status == "pass"
    captions = {"selector": "paragraph[style_name='Caption']"}
    assert run_check("text_regex", doc, {"target": captions, "pattern": r"^\w+ [A-Z0-9]+\b", "quantifier": "all"}).status == "pass"
    assert run_check("text_excludes", doc, {"phrases": ["Table 1: South"]}).status == "pass"
    assert run_check("text_contains", doc, {"phrases": ["Plate 7 left", "Plate 7 right"]}).status == "pass"
    stored = [r.attrs.get("field_result_stored") for r in doc.select("run") if r.attrs.get("field") == "SEQ"]
    assert stored == ["", "", None, "1", "", None, None]  # what the file held, kept where it differs


def test_a_pattern_pasted_from_the_page_and_a_tab_in_a_pattern_match(tmp_path: Path) -> None:
    d = docx.Document()
    d.add_paragraph("Name:\tJohn\u00a0Smith said \u201chello\u201d \u2014 fine")  # Word's autocorrected text
    path = _save(d, tmp_path / "typography.docx")
    assert "John Smith said \u201chello\u201d \u2014 fine" in _printed(path)
    doc = load(path)
    for pattern in (r"Name:\t+John", "said \u201chello\u201d \u2014 fine", "John\u00a0Smith", 'said "hello" - fine', "Name: John"):
        assert run_check("text_regex", doc, {"pattern": pattern}).status == "pass", pattern
    assert run_check("text_regex", doc, {"pattern": r"Name:\t\t"}).status == "fail"


def test_a_footnote_mark_is_not_part_of_the_number_or_date_it_follows(tmp_path: Path) -> None:
    d = docx.Document()
    mark = f'<w:r {W}><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'
    table = d.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(1, 0).text = "Units", "Signed"
    for row, value in ((0, "350"), (1, "15 March 2024")):
        cell = table.cell(row, 1).paragraphs[0]
        cell.add_run(value)
        cell._p.append(parse_xml(mark))
    path = _save(d, tmp_path / "marked_values.docx")
    _with_footnote(path)
    printed = _printed(path)
    assert "Units 350" in printed and "Source: annual report." in printed
    doc = load(path)
    assert run_check("number_equals", doc, {"target": "row:nth-child(1) cell:nth-child(2)", "expected": 350}).status == "pass"
    assert run_check("number_equals", doc, {"target": "row:nth-child(1) cell:nth-child(2)", "expected": 3501}).status == "fail"
    assert run_check("date_equals", doc, {"target": "row:nth-child(2) cell:nth-child(2)", "expected": "2024-03-15"}).status == "pass"


WATERMARK = (
    '<w:r xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:v="urn:schemas-microsoft-com:vml"'
    ' xmlns:o="urn:schemas-microsoft-com:office:office"><w:pict>'
    '<v:shapetype id="_x0000_t136" coordsize="21600,21600" o:spt="136" adj="10800" path="m@7,l@8,m@5,21600l@6,21600e">'
    '<v:path textpathok="t" o:connecttype="custom"/><v:textpath on="t" fitshape="t"/></v:shapetype>'
    '<v:shape id="PowerPlusWaterMarkObject1" type="#_x0000_t136" style="position:absolute;margin-left:0;margin-top:0;'
    "width:412.4pt;height:247.45pt;rotation:315;z-index:-251657216;mso-position-horizontal:center;"
    'mso-position-horizontal-relative:margin;mso-position-vertical:center;mso-position-vertical-relative:margin"'
    ' fillcolor="silver" stroked="f"><v:textpath style="font-family:&quot;Calibri&quot;;font-size:1pt" string="DRAFTMARK"/>'
    "</v:shape></w:pict></w:r>"
)


def _ink_columns(path: Path) -> int:
    """How many pixel columns of page 1 hold grey ink (the watermark's silver letters)."""
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(render_pdf(path).pdf_path))[0]
    image = page.render(scale=1).to_pil().convert("RGB")
    width, height = image.size
    pixels = image.load()
    grey = {
        x for x in range(width) for y in range(height // 4, 3 * height // 4, 2)
        if 150 <= pixels[x, y][0] <= 235 and abs(pixels[x, y][0] - pixels[x, y][2]) < 12
    }
    return len(grey)


def test_a_word_watermark_is_text_the_document_shows(tmp_path: Path) -> None:
    d = docx.Document()
    d.sections[0].header.paragraphs[0]._p.append(parse_xml(WATERMARK))  # Design > Watermark, as Word writes it
    d.add_paragraph("Body of the draft.")
    path = _save(d, tmp_path / "watermark.docx")
    assert "DRAFTMARK" not in _printed(path)  # drawn as outlines: no text layer
    assert _ink_columns(path) > 150  # ... but the silver letters cross the middle of the page
    doc = load(path)
    assert run_check("text_contains", doc, {"phrases": ["DRAFTMARK"]}).status == "pass"
    shape = next(n for n in doc.iter("shape") if n.attrs.get("wordart"))
    assert shape.text == "DRAFTMARK" and shape.attrs.get("watermark") is True
    # the header is printed on the page though nothing in it could be located: targets find it
    assert run_check("exists", doc, {"target": "shape[watermark]"}).status == "pass"
    assert run_check("exists", doc, {"target": {"selector": "shape", "text": "DRAFTMARK"}}).status == "pass"


def test_an_internal_link_is_its_bookmark(tmp_path: Path) -> None:
    d = docx.Document()
    toc = d.add_paragraph()
    toc._p.append(parse_xml(f'<w:hyperlink {W} w:anchor="_Toc2" w:history="1"><w:r><w:t>Results</w:t></w:r></w:hyperlink>'))
    for n, title in ((1, "Introduction"), (2, "Results")):
        heading = d.add_heading(title, 1)._p
        heading.insert(1, parse_xml(f'<w:bookmarkStart {W} w:id="{n}" w:name="_Toc{n}"/>'))
        heading.append(parse_xml(f'<w:bookmarkEnd {W} w:id="{n}"/>'))
    path = _save(d, tmp_path / "internal_link.docx")
    assert _printed(path).startswith("Results Introduction Results")
    doc = load(path)
    assert run_check("link_present", doc, {"url": "#_Toc2", "text": "Results"}).status == "pass"
    assert run_check("link_present", doc, {"url": "#_Toc1"}).status == "fail"  # only Results is linked


def test_page_number_fields_in_the_body_print_their_page(tmp_path: Path) -> None:
    """"The text says 'Body page 1 of 2'": PAGE and NUMPAGES fields python-docx writes
    into running text store no result, and the tree read "Body page  of " where the
    page prints the numbers (only headers and footers got them)."""
    d = docx.Document()
    d.add_paragraph("Intro paragraph.")
    p = d.add_paragraph("Body page ")
    _field(p, " PAGE ")
    p.add_run(" of ")
    _field(p, " NUMPAGES ")
    d.add_page_break()
    _field(d.add_paragraph("Second page is "), " PAGE ")
    path = _save(d, tmp_path / "page_fields.docx")
    printed = _printed(path)
    assert "Body page 1 of 2" in printed and "Second page is 2" in printed
    assert _status(path, "text_contains", {"phrases": ["Body page 1 of 2", "Second page is 2"]}) == "pass"


def test_comment_text_is_not_a_target_unless_asked_for(tmp_path: Path) -> None:
    """"A paragraph says 'please'": a reviewer's comment is not printed, yet its paragraph
    was a target of every check with a text filter, and counted among the paragraphs."""
    d = docx.Document()
    first = d.add_paragraph("Visible one.")
    d.add_paragraph("Visible two.")
    d.add_comment(first.runs, text="Check this please", author="Reviewer")
    path = _save(d, tmp_path / "comment.docx")
    assert "please" not in _printed(path)
    assert _status(path, "exists", {"target": {"text": "please"}}) == "fail"
    assert _status(path, "count", {"target": "paragraph", "exactly": 2}) == "pass"
    assert _status(path, "exists", {"target": {"selector": "comment paragraph", "text": "please"}}) == "pass"


def test_targets_named_by_their_printed_text(tmp_path: Path) -> None:
    """"The step '2. Run setup' exists", "the heading 'Results' exists": a target's text
    filter read the typed text only, so a numbered item (printed "2. Run setup") and a
    heading carrying a footnote mark (printed "Results¹", text "Results1") were not found."""
    d = docx.Document()
    for text in ("Download the installer", "Run setup"):
        d.add_paragraph(text, style="List Number")
    heading = d.add_heading("Results", 1)
    heading._p.append(parse_xml(f'<w:r {W}><w:rPr><w:vertAlign w:val="superscript"/></w:rPr><w:footnoteReference w:id="1"/></w:r>'))
    path = _save(d, tmp_path / "printed_targets.docx")
    _with_footnote(path)
    printed = _printed(path)
    assert "2. Run setup" in printed and "Results1" in printed.replace(" ", "")
    assert _status(path, "exists", {"target": {"text": "2. Run setup", "match": "equals"}}) == "pass"
    heading_results = {"selector": "paragraph[heading_level='1']", "text": "Results", "match": "equals"}
    assert _status(path, "exists", {"target": heading_results}) == "pass"
    assert _status(path, "exists", {"target": {"text": "3. Run setup", "match": "equals"}}) == "fail"
