"""compare_document: a gold memo built with python-docx and the variants agents make of it
(a paragraph edited, one inserted, two swapped, a run un-bolded, a size changed, a picture
replaced, a table cell edited...), each aspect passing and failing with its location; the
fuzzy boundary; references that cannot be used (error, never fail); an .odt reference
against a .docx artifact; corpus files against themselves re-saved by python-docx."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pptx
import pytest
from docx.enum.section import WD_ORIENT
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.shared import Pt, RGBColor
from PIL import Image, ImageDraw, ImageFont
from rapidfuzz import fuzz

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.checks.result import CheckResult
from tests.conftest import corpus_file

FONT_BOLD = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
ODF = Path(__file__).resolve().parents[2] / "fixtures" / "odf"

PARAGRAPHS = [
    "Revenue grew by twelve percent in the third quarter, led by the northern region.",
    "Costs stayed flat: the new warehouse opened on time and within budget.",
    "We propose to hire two analysts before the end of the year.",
    "Questions can be sent to the finance team at any time.",
]


def logo(word: str = "AC", ring: str = "#f97316") -> Image.Image:
    img = Image.new("RGB", (240, 240), "#ffffff")
    d = ImageDraw.Draw(img)
    d.rectangle((10, 10, 230, 230), fill="#1e3a8a")
    d.ellipse((50, 50, 190, 190), outline=ring, width=18)
    d.text((120, 120), word, fill="#ffffff", font=ImageFont.truetype(FONT_BOLD, 56), anchor="mm")
    return img


def encode(img: Image.Image, fmt: str = "PNG", **options: Any) -> bytes:
    out = io.BytesIO()
    img.save(out, format=fmt, **options)
    return out.getvalue()


def build_memo(path: Path, edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """The gold memo, or a variant: ``edit`` changes the recipe before the file is built."""
    recipe: dict[str, Any] = {
        "title": "Quarterly memo",
        "paragraphs": list(PARAGRAPHS),
        "bold": "twelve percent",
        "size": None,
        "picture": encode(logo()),
        "cells": [["Region", "Revenue", "Change"], ["North", "4.2", "+12%"], ["South", "3.1", "+2%"]],
        "blank_after": [],
        "spacing": None,
        "tab": None,
        "landscape": False,
    }
    if edit is not None:
        edit(recipe)
    d = docx.Document()
    d.add_heading(recipe["title"], 1)
    for k, text in enumerate(recipe["paragraphs"]):
        par = d.add_paragraph()
        bold = recipe["bold"]
        if bold and bold in text:
            before, after = text.split(bold, 1)
            par.add_run(before)
            par.add_run(bold).bold = True
            par.add_run(after)
        else:
            par.add_run(text)
        if recipe["size"] is not None and k == 1:
            for run in par.runs:
                run.font.size = Pt(recipe["size"])
        if k == 2 and recipe["spacing"] is not None:
            par.paragraph_format.line_spacing = recipe["spacing"]
        if k == 3 and recipe["tab"] is not None:
            par.paragraph_format.tab_stops.add_tab_stop(Pt(recipe["tab"]))
        if k in recipe["blank_after"]:
            d.add_paragraph("")
    d.add_picture(io.BytesIO(recipe["picture"]), width=Pt(72))
    cells = recipe["cells"]
    table = d.add_table(rows=len(cells), cols=len(cells[0]))
    for r, row in enumerate(cells):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    if recipe["landscape"]:
        section = d.sections[0]
        section.orientation = WD_ORIENT.LANDSCAPE
        section.page_width, section.page_height = section.page_height, section.page_width
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("gold")
    build_memo(d / "gold.docx")
    return d


def compare(folder: Path, artifact: Path, **params: Any) -> CheckResult:
    doc = load(artifact, render=False)
    return run_check("compare_document", doc, {"reference": "gold.docx", **params}, Resources(assets_dir=str(folder)))


def variant(folder: Path, name: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    return build_memo(folder / f"{name}.docx", edit)


def diffs(result: CheckResult) -> list[dict[str, Any]]:
    found = result.evidence["differences"]
    assert isinstance(found, list)
    return found  # type: ignore[return-value]


def test_the_gold_file_matches_itself_in_every_aspect(folder: Path) -> None:
    every = ["text", "structure", "tables", "images", "runs", "paragraphs", "page_setup"]
    result = compare(folder, folder / "gold.docx", aspects=every)
    assert (result.status, result.score, result.mechanism) == ("pass", 1.0, "exact"), result.explanation
    aspects = result.evidence["aspects"]
    assert isinstance(aspects, dict)
    assert aspects["text"] == {"compared": 5, "different": 0}
    assert aspects["tables"] == {"compared": 10, "different": 0}  # dimensions + 9 cells
    assert aspects["images"] == {"compared": 1, "different": 0}


def test_an_edited_paragraph_is_one_text_difference_at_that_paragraph(folder: Path) -> None:
    art = variant(folder, "edited", lambda r: r["paragraphs"].__setitem__(1, "Costs rose sharply: the warehouse opened late."))
    result = compare(folder, art)
    assert result.status == "fail" and result.score == 0.0
    (only,) = diffs(result)
    assert only["aspect"] == "text"
    assert only["location"] == 'paragraph 3 ("Costs stayed flat: the new warehouse…")'
    assert only["actual"] == "Costs rose sharply: the warehouse opened late."


def test_one_inserted_paragraph_is_one_difference_not_a_cascade(folder: Path) -> None:
    art = variant(folder, "inserted", lambda r: r["paragraphs"].insert(1, "An unexpected remark."))
    result = compare(folder, art)
    (only,) = diffs(result)
    assert (only["aspect"], only["location"], only["expected"]) == (
        "text", 'artifact paragraph 3 ("An unexpected remark.")', None,
    )
    assert result.evidence["aspects"]["text"] == {"compared": 6, "different": 1}  # type: ignore[index,call-overload]


def test_partial_credit_scores_the_share_of_agreeing_items(folder: Path) -> None:
    art = variant(folder, "inserted_pc", lambda r: r["paragraphs"].insert(1, "An unexpected remark."))
    result = compare(folder, art, aspects=["text"], partial_credit=True)
    assert result.status == "fail" and result.score == pytest.approx(5 / 6)


def test_swapped_paragraphs_are_one_order_difference_unless_order_is_ignored(folder: Path) -> None:
    def swap(r: dict[str, Any]) -> None:
        r["paragraphs"][0], r["paragraphs"][1] = r["paragraphs"][1], r["paragraphs"][0]

    art = variant(folder, "swapped", swap)
    result = compare(folder, art)
    (only,) = diffs(result)
    assert only["aspect"] == "order" and only["location"].startswith("paragraph ")
    assert compare(folder, art, ignore_order=True).status == "pass"


def test_formatting_is_opt_in_and_a_bold_run_unbolded_is_located(folder: Path) -> None:
    art = variant(folder, "unbolded", lambda r: r.__setitem__("bold", None))
    assert compare(folder, art).status == "pass"  # same words, same structure: the default
    result = compare(folder, art, aspects=["runs"])
    (only,) = diffs(result)
    assert only["aspect"] == "bold" and (only["expected"], only["actual"]) == (True, False)
    assert only["location"] == 'paragraph 2 ("Revenue grew by twelve percent in…") run "twelve percent"'


def test_a_font_size_change_is_a_size_difference_per_run(folder: Path) -> None:
    art = variant(folder, "bigger", lambda r: r.__setitem__("size", 16))
    result = compare(folder, art, aspects=["runs"], run_properties=["size", "bold"])
    found = diffs(result)
    assert {d["aspect"] for d in found} == {"size"}
    assert all(d["location"].startswith('paragraph 3 ("Costs stayed') and d["actual"] == 16.0 for d in found)


def test_runs_limited_to_headings_by_a_selector(folder: Path) -> None:
    art = variant(folder, "unbolded_sel", lambda r: r.__setitem__("bold", None))
    assert compare(folder, art, aspects=["runs"], select="paragraph[heading_level]").status == "pass"


def test_a_recompressed_copy_of_the_picture_is_the_same_picture_a_look_alike_is_not(folder: Path) -> None:
    copy = encode(logo().resize((200, 200)), "JPEG", quality=80)
    art = variant(folder, "recompressed", lambda r: r.__setitem__("picture", copy))
    assert compare(folder, art).status == "pass"
    strict = compare(folder, art, aspects=["images"], image_match="pixels")
    (only,) = diffs(strict)
    assert only["aspect"] == "images" and only["location"].startswith("image 1")
    look_alike = variant(folder, "look_alike", lambda r: r.__setitem__("picture", encode(logo("XY", ring="#22c55e"))))
    (only,) = diffs(compare(folder, look_alike, aspects=["images"]))
    assert only["location"].startswith("image 1") and "another picture" in only["note"]


def test_a_missing_picture_is_missing(folder: Path) -> None:
    def drop(r: dict[str, Any]) -> None:
        r["picture"] = None

    art = folder / "no_picture.docx"
    build_memo(folder / "tmp_gold_copy.docx")
    d = docx.Document(str(folder / "tmp_gold_copy.docx"))
    for par in d.paragraphs:
        if par._p.xpath(".//w:drawing"):
            par._p.getparent().remove(par._p)
    d.save(str(art))
    (only,) = diffs(compare(folder, art, aspects=["images"]))
    assert only["location"].startswith("image 1") and only["note"] == "missing in the artifact"


def test_an_edited_table_cell_is_located_by_table_row_and_cell(folder: Path) -> None:
    def edit(r: dict[str, Any]) -> None:
        r["cells"] = [list(row) for row in r["cells"]]
        r["cells"][1][2] = "+21%"

    result = compare(folder, variant(folder, "cell", edit))
    (only,) = diffs(result)
    assert (only["aspect"], only["location"], only["expected"], only["actual"]) == ("tables", "table 1 row 2 cell 3", "+12%", "+21%")


def test_a_table_with_another_shape_differs_in_dimensions(folder: Path) -> None:
    result = compare(folder, variant(folder, "wide", lambda r: r.__setitem__("cells", [row + ["x"] for row in r["cells"]])))
    first = diffs(result)[0]
    assert first["location"] == "table 1" and first["actual"] == "3 rows x 4 columns"


def test_fuzzy_boundary_is_inclusive_and_makes_the_mechanism_tolerance(folder: Path) -> None:
    edited = PARAGRAPHS[2].replace("two analysts", "three analysts")
    art = variant(folder, "fuzzy", lambda r: r["paragraphs"].__setitem__(2, edited))
    similarity = fuzz.ratio(PARAGRAPHS[2], edited) / 100
    at = compare(folder, art, fuzzy=similarity)
    assert (at.status, at.mechanism) == ("pass", "tolerance")
    above = compare(folder, art, fuzzy=min(1.0, similarity + 0.005))
    assert above.status == "fail" and diffs(above)[0]["note"] == f"similarity {similarity:.2f}"


def test_blank_paragraphs_case_and_whitespace(folder: Path) -> None:
    blanks = variant(folder, "blanks", lambda r: r.__setitem__("blank_after", [0, 2]))
    assert compare(folder, blanks).status == "pass"
    strict = compare(folder, blanks, ignore_blank=False)
    assert [d["note"] for d in diffs(strict)] == ["not in the reference", "not in the reference"]
    shouting = variant(folder, "upper", lambda r: r.__setitem__("title", "QUARTERLY MEMO"))
    assert compare(folder, shouting).status == "fail"
    assert compare(folder, shouting, ignore_case=True).status == "pass"
    spaced = variant(folder, "spaced", lambda r: r["paragraphs"].__setitem__(0, PARAGRAPHS[0].replace(" ", "  ")))
    assert compare(folder, spaced).status == "pass"
    assert compare(folder, spaced, ignore_whitespace=False).status == "fail"


def test_a_split_paragraph_agrees_when_paragraphs_are_joined(folder: Path) -> None:
    def split(r: dict[str, Any]) -> None:
        first, second = PARAGRAPHS[1].split(": ")
        r["paragraphs"][1:2] = [first + ":", second]

    art = variant(folder, "split", split)
    assert compare(folder, art).status == "fail"
    assert compare(folder, art, join_paragraphs=True).status == "pass"
    other = variant(folder, "joined_edit", lambda r: r["paragraphs"].__setitem__(3, "Questions go to the finance team."))
    (first, *_rest) = diffs(compare(folder, other, join_paragraphs=True))
    assert first["location"].startswith('paragraph 5 ("Questions can be sent')


def test_paragraph_properties_line_spacing_and_tab_stops(folder: Path) -> None:
    art = variant(folder, "spacing", lambda r: r.update(spacing=2.0, tab=144))
    assert compare(folder, art).status == "pass"
    found = diffs(compare(folder, art, aspects=["paragraphs"]))
    by_aspect = {d["aspect"]: d for d in found}
    assert set(by_aspect) == {"line_spacing", "tab_stops"}
    assert by_aspect["line_spacing"]["location"].startswith('paragraph 4 ("We propose')
    assert by_aspect["line_spacing"]["actual"] == "2x"
    assert by_aspect["tab_stops"]["actual"] == [{"position": 144.0, "align": "left", "leader": "none"}]


def test_page_setup_orientation(folder: Path) -> None:
    art = variant(folder, "landscape", lambda r: r.__setitem__("landscape", True))
    found = {d["location"]: d for d in diffs(compare(folder, art, aspects=["page_setup"]))}
    assert found["section 1 orientation"]["actual"] == "landscape"
    assert "section 1 page width" in found


def test_a_heading_turned_into_body_text_is_a_structure_difference(folder: Path, tmp_path: Path) -> None:
    d = docx.Document(str(folder / "gold.docx"))
    d.paragraphs[0].style = d.styles["Normal"]
    d.save(str(tmp_path / "plain.docx"))
    (only,) = diffs(compare(folder, tmp_path / "plain.docx"))
    assert (only["aspect"], only["expected"], only["actual"]) == ("structure", "heading 1", "body text")


def test_a_reference_outside_the_rubric_folders_is_an_error(folder: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere.docx"
    shutil.copy(folder / "gold.docx", outside)
    doc = load(folder / "gold.docx", render=False)
    result = run_check("compare_document", doc, {"reference": str(outside)}, Resources(assets_dir=str(folder)))
    assert result.status == "error" and "outside" in result.explanation
    missing = run_check("compare_document", doc, {"reference": "nope.docx"}, Resources(assets_dir=str(folder)))
    assert missing.status == "error" and missing.score is None


def test_a_corrupt_reference_is_an_error_not_a_fail(folder: Path) -> None:
    (folder / "broken.docx").write_bytes(b"PK\x03\x04 this is not a zip at all")
    doc = load(folder / "gold.docx", render=False)
    result = run_check("compare_document", doc, {"reference": "broken.docx"}, Resources(assets_dir=str(folder)))
    assert result.status == "error" and result.score is None
    assert result.error is not None and "broken.docx" in str(result.error["message"])


def _field_notes(path: Path, last: str) -> Path:
    d = docx.Document()
    d.add_heading("Field Notes", 1)
    d.add_paragraph("The river was high after the storm.")
    d.add_paragraph(last)
    d.save(str(path))
    return path


@pytest.mark.slow
def test_an_odt_reference_against_a_docx_artifact(tmp_path: Path) -> None:
    shutil.copy(ODF / "notes.odt", tmp_path / "notes.odt")
    resources = Resources(assets_dir=str(tmp_path))
    good = load(_field_notes(tmp_path / "notes.docx", "Second paragraph."), render=False)
    result = run_check("compare_document", good, {"reference": "notes.odt"}, resources)
    assert result.status == "pass", result.explanation
    assert result.evidence["reference_format"] == "odt"
    bad = load(_field_notes(tmp_path / "notes_bad.docx", "Third paragraph."), render=False)
    (only,) = diffs(run_check("compare_document", bad, {"reference": "notes.odt"}, resources))
    assert only["location"] == 'paragraph 3 ("Second paragraph.")'


@pytest.mark.parametrize("name", ["docx2python_example.docx", "poi_bug65738.docx", "docling_word_tables.docx", "poi_drawing.docx"])
def test_a_corpus_document_matches_itself_resaved_by_python_docx(name: str, tmp_path: Path) -> None:
    original = corpus_file("docx", name)
    shutil.copy(original, tmp_path / "gold.docx")
    docx.Document(str(original)).save(str(tmp_path / "resaved.docx"))
    every = ["text", "structure", "tables", "images", "runs", "paragraphs", "page_setup"]
    result = compare(tmp_path, tmp_path / "resaved.docx", aspects=every)
    assert result.status == "pass", result.explanation
    assert result.evidence["compared"] > 0  # type: ignore[operator]


def test_alignment_is_centre_for_a_centred_paragraph(folder: Path, tmp_path: Path) -> None:
    d = docx.Document(str(folder / "gold.docx"))
    d.paragraphs[1].alignment = WD_ALIGN_PARAGRAPH.CENTER
    d.save(str(tmp_path / "centred.docx"))
    (only,) = diffs(compare(folder, tmp_path / "centred.docx", aspects=["paragraphs"], paragraph_properties=["alignment"]))
    assert (only["expected"], only["actual"]) == ("left", "center")


def test_pdf_against_a_gold_pdf_like_compare_pdfs_and_compare_pdf_images() -> None:
    folder = Path(__file__).resolve().parents[2] / "fixtures" / "tasks" / "report_pdf"
    resources = Resources(assets_dir=str(folder))

    def run(artifact: str, **params: Any) -> CheckResult:
        return run_check("compare_document", load(folder / artifact), {"reference": "pass.pdf", **params}, resources)

    assert run("pass.pdf").status == "pass"
    (moved,) = diffs(run("fail_title_low.pdf"))  # the title pushed to page 2 reads later
    assert moved["aspect"] == "order" and moved["location"] == 'paragraph 1 ("Quarterly Report 2024")'
    whole_text = run("fail_title_low.pdf", aspects=["text"], join_paragraphs=True, fuzzy=0.9)
    assert (whole_text.status, whole_text.mechanism) == ("pass", "tolerance")
    (chart,) = diffs(run("fail_no_chart.pdf", aspects=["images"], image_match="pixels"))
    assert chart["location"] == "image 1" and chart["note"] == "missing in the artifact"
    assert run("pass.pdf").evidence["not_compared"] == {"structure": "a PDF or image tree has no heading levels or list items"}


def test_a_deck_as_the_reference_of_a_document_is_an_error(folder: Path, tmp_path: Path) -> None:
    pptx.Presentation().save(str(tmp_path / "deck.pptx"))
    doc = load(folder / "gold.docx", render=False)
    result = run_check("compare_document", doc, {"reference": "deck.pptx"}, Resources(assets_dir=str(tmp_path)))
    assert result.status == "error" and "not a document" in result.explanation


def test_trailing_paragraphs_ignored_like_compare_init_lines_but_not_an_insertion(folder: Path) -> None:
    longer = variant(folder, "continued", lambda r: r["paragraphs"].extend(["A postscript.", "And a second one."]))
    assert compare(folder, longer, aspects=["text"]).status == "fail"
    result = compare(folder, longer, aspects=["text"], trailing_paragraphs="ignore")
    assert (result.status, result.score) == ("pass", 1.0), result.explanation
    assert compare(folder, longer, aspects=["text"], trailing_paragraphs="ignore", join_paragraphs=True).status == "pass"
    inserted = variant(folder, "inserted_mid", lambda r: r["paragraphs"].insert(1, "An unexpected remark."))
    (only,) = diffs(compare(folder, inserted, aspects=["text"], trailing_paragraphs="ignore"))
    assert only["location"] == 'artifact paragraph 3 ("An unexpected remark.")'
    shorter = variant(folder, "cut_short", lambda r: r["paragraphs"].pop())
    (gone,) = diffs(compare(folder, shorter, aspects=["text"], trailing_paragraphs="ignore"))
    assert gone["actual"] is None and gone["location"].startswith("paragraph 5")


REFERENCES = [
    "Smith, J. (2019). Warehouses and their discontents. Journal of Logistics, 12(3), 45-67.",
    "Doe, A., & Roe, B. (2021). Quarterly reporting in practice. Finance Review, 8, 1-20.",
    "Lee, K. (2020). Hiring analysts. Cambridge University Press.",
    "Chen, L. (2018). Regional growth patterns. Economic Letters, 160, 33-36.",
]


def build_paper(path: Path, body: list[str], references: list[str]) -> Path:
    d = docx.Document()
    d.add_heading("A short paper", 1)
    for text in body:
        d.add_paragraph(text)
    d.add_heading("References", 2)
    for text in references:
        d.add_paragraph(text)
    d.save(str(path))
    return path


def test_text_after_a_references_paragraph_like_compare_references(tmp_path: Path) -> None:
    build_paper(tmp_path / "gold.docx", PARAGRAPHS[:2], REFERENCES)
    other_body = build_paper(tmp_path / "other_body.docx", ["A body the author rewrote entirely."], REFERENCES)
    typo = [r.replace("Journal", "Jornal") for r in REFERENCES]  # fuzzily equal
    fixed = build_paper(tmp_path / "fixed.docx", PARAGRAPHS[:2], typo)
    resources = Resources(assets_dir=str(tmp_path))

    def run(art: Path, **params: Any) -> CheckResult:
        return run_check("compare_document", load(art, render=False),
                         {"reference": "gold.docx", "aspects": ["text"], "after_paragraph": "References", **params}, resources)

    assert run_check("compare_document", load(other_body, render=False), {"reference": "gold.docx", "aspects": ["text"]},
                     resources).status == "fail"
    assert run(other_body).status == "pass"
    assert run(fixed).status == "fail" and run(fixed, fuzzy=0.8).status == "pass"
    wrong = list(REFERENCES)
    wrong[3] = "Chen, L. (2015). Local decline stories. Economic Review, 99, 1-5."  # paired, similarity 0.63
    result = run(build_paper(tmp_path / "wrong.docx", PARAGRAPHS[:2], wrong), fuzzy=0.8, partial_credit=True, score_floor=0.5)
    assert result.status == "fail"
    assert result.evidence["share_agreeing"] == pytest.approx(3 / 4)
    assert result.score == pytest.approx((3 / 4 - 0.5) / 0.5)
    (only,) = diffs(result)
    assert only["location"].startswith('paragraph 8 ("Chen, L.')  # numbered among all body paragraphs


def test_after_paragraph_absent_from_the_artifact_fails_and_from_the_reference_errors(tmp_path: Path) -> None:
    build_paper(tmp_path / "gold.docx", PARAGRAPHS[:2], REFERENCES)
    bare = tmp_path / "bare.docx"
    d = docx.Document()
    for text in PARAGRAPHS[:2] + REFERENCES:
        d.add_paragraph(text)
    d.save(str(bare))
    resources = Resources(assets_dir=str(tmp_path))
    result = run_check("compare_document", load(bare, render=False),
                       {"reference": "gold.docx", "after_paragraph": "References"}, resources)
    assert result.status == "fail" and diffs(result)[0]["location"] == "the paragraph 'References'"
    shutil.copy(bare, tmp_path / "bare_gold.docx")
    error = run_check("compare_document", load(bare, render=False),
                      {"reference": "bare_gold.docx", "after_paragraph": "References"}, resources)
    assert error.status == "error" and "after_paragraph" in error.explanation
    with pytest.raises(Exception, match="partial_credit"):
        from artifactcheck.checks.compare.document import CompareDocumentParams
        CompareDocumentParams(reference="gold.docx", score_floor=0.5)


def build_illustrated(path: Path, picture_in: int | None, own_paragraph_after: int | None = None) -> Path:
    """Three paragraphs, the logo inline in paragraph ``picture_in`` (0-based), or in a
    paragraph of its own after ``own_paragraph_after``."""
    d = docx.Document()
    for k, text in enumerate(PARAGRAPHS[:3]):
        par = d.add_paragraph(text)
        if k == picture_in:
            par.add_run().add_picture(io.BytesIO(encode(logo())), width=Pt(48))
        if k == own_paragraph_after:
            d.add_picture(io.BytesIO(encode(logo())), width=Pt(48))
    d.save(str(path))
    return path


def test_image_position_paragraph_like_compare_contains_image(tmp_path: Path) -> None:
    build_illustrated(tmp_path / "gold.docx", picture_in=1)
    resources = Resources(assets_dir=str(tmp_path))

    def run(art: Path, **params: Any) -> CheckResult:
        return run_check("compare_document", load(art, render=False),
                         {"reference": "gold.docx", "aspects": ["text", "images"], **params}, resources)

    same = run(build_illustrated(tmp_path / "same.docx", picture_in=1), image_position="paragraph")
    assert same.status == "pass" and same.evidence["aspects"]["image_position"] == {"compared": 1, "different": 0}  # type: ignore[index,call-overload]
    moved = build_illustrated(tmp_path / "moved.docx", picture_in=2)
    assert run(moved).status == "pass"  # in order, the same picture: the default does not look where
    result = run(moved, image_position="paragraph")
    (only,) = diffs(result)
    assert only["aspect"] == "image_position" and only["location"] == "image 1 ('Picture 1')"
    assert only["expected"].startswith("in or after paragraph 2") and only["actual"].startswith("in or after artifact paragraph 3")
    below = build_illustrated(tmp_path / "below.docx", picture_in=None, own_paragraph_after=1)
    assert run(below, image_position="paragraph").status == "pass"  # its own paragraph right after paragraph 2


def _coloured(path: Path, hex_color: str) -> Path:
    d = docx.Document()
    d.add_paragraph().add_run("Revenue grew").font.color.rgb = RGBColor.from_string(hex_color)
    d.save(str(path))
    return path


def test_run_colours_within_a_just_noticeable_difference_are_one_colour(tmp_path: Path) -> None:
    """A colour one unit of rounding away (a tint computed by another program) is the
    gold's colour; #4F88C6 against #4F81BD (CIEDE2000 2.7) is a visible shift and differs,
    as it would for color_is; red against blue differs at any tolerance."""
    gold = _coloured(tmp_path / "gold.docx", "4F81BD")

    def runs(hex_color: str, **params: Any) -> CheckResult:
        art = _coloured(tmp_path / f"{hex_color}.docx", hex_color)
        return run_check("compare_document", load(art), {"reference": "gold.docx", "aspects": ["runs"], **params}, Resources(assets_dir=str(tmp_path)))

    assert runs("4F82BE").status == "pass"
    assert runs("4F82BE", color_tolerance=0).status == "fail"
    shifted = runs("4F88C6")
    assert shifted.status == "fail" and diffs(shifted)[0]["actual"] == "#4f88c6"
    assert runs("4F88C6", color_tolerance=3).status == "pass"
    assert runs("C00000", color_tolerance=10).status == "fail"
    assert gold.exists() and runs("4F81BD").status == "pass"
