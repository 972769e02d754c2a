"""compare_deck: a gold deck built with python-pptx and the variants agents make of it (a
shape moved 30 pt, a slide missing, slides swapped, notes edited, a title retyped, a run
bolded, a picture replaced, a table cell or a chart value changed, a background
recoloured, a transition added), each aspect passing and failing with its location;
references that cannot be used; an .odp reference and a Google Slides response; corpus
decks against themselves re-saved by python-pptx."""

from __future__ import annotations

import copy
import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pptx
import pytest
from lxml import etree
from PIL import Image, ImageDraw
from pptx.chart.data import CategoryChartData
from pptx.dml.color import RGBColor
from pptx.enum.chart import XL_CHART_TYPE
from pptx.util import Pt

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.checks.result import CheckResult
from artifactcheck.extractors.google.responses import extract_google_response
from tests.conftest import corpus_file
from tests.google.conftest import GOOGLE, LOGO_URL, fixture_json

ODF = Path(__file__).resolve().parents[2] / "fixtures" / "odf"
EVERY = ["slides", "shapes", "text", "tables", "charts", "images", "geometry", "formatting", "notes", "background", "transitions"]


def photo(sky: str = "#0ea5e9", sun_x: int = 40) -> Image.Image:
    img = Image.new("RGB", (400, 300), sky)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 200, 400, 300), fill="#16a34a")
    d.ellipse((sun_x, 40, sun_x + 80, 120), fill="#fde047")
    return img


def encode(img: Image.Image, fmt: str = "PNG", **options: Any) -> bytes:
    out = io.BytesIO()
    img.save(out, format=fmt, **options)
    return out.getvalue()


def gold_recipe() -> dict[str, Any]:
    return {
        "slides": [
            {"layout": 0, "title": "Coral survey 2024", "body": ["Field team report"], "notes": "Welcome everyone."},
            {"layout": 1, "title": "Findings", "body": ["Reef cover rose", "Bleaching fell"], "picture": encode(photo()),
             "picture_at": (420, 150), "notes": "Mention the drone survey."},
            {"layout": 5, "title": "Numbers", "table": [["Site", "Cover"], ["North", "41%"], ["South", "37%"]],
             "chart": [12.0, 15.0, 9.0]},
        ],
        "bold_first_bullet": False,
        "background": None,
        "transition": False,
    }


def build_deck(path: Path, edit: Callable[[dict[str, Any]], None] | None = None) -> Path:
    recipe = gold_recipe()
    if edit is not None:
        edit(recipe)
    deck = pptx.Presentation()
    for spec in recipe["slides"]:
        slide = deck.slides.add_slide(deck.slide_layouts[spec["layout"]])
        slide.shapes.title.text = spec["title"]
        if "body" in spec:
            frame = slide.placeholders[1].text_frame
            frame.text = spec["body"][0]
            for line in spec["body"][1:]:
                frame.add_paragraph().text = line
            if recipe["bold_first_bullet"] and spec["layout"] == 1:
                frame.paragraphs[0].runs[0].font.bold = True
        if "picture" in spec:
            x, y = spec["picture_at"]
            slide.shapes.add_picture(io.BytesIO(spec["picture"]), Pt(x), Pt(y), width=Pt(200), height=Pt(150))
        if "table" in spec:
            rows = spec["table"]
            table = slide.shapes.add_table(len(rows), len(rows[0]), Pt(40), Pt(140), Pt(280), Pt(120)).table
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    table.cell(r, c).text = value
        if "chart" in spec:
            data = CategoryChartData()
            data.categories = ["2022", "2023", "2024"]
            data.add_series("Sightings", spec["chart"])
            slide.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Pt(360), Pt(140), Pt(320), Pt(240), data)
        if spec.get("notes"):
            slide.notes_slide.notes_text_frame.text = spec["notes"]
        if recipe["background"] is not None:
            fill = slide.background.fill
            fill.solid()
            fill.fore_color.rgb = RGBColor.from_string(recipe["background"])
        if recipe["transition"]:
            ns = "http://schemas.openxmlformats.org/presentationml/2006/main"
            transition = etree.SubElement(slide._element, f"{{{ns}}}transition", spd="slow")
            etree.SubElement(transition, f"{{{ns}}}fade")
    deck.save(str(path))
    return path


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("gold_deck")
    build_deck(d / "gold.pptx")
    return d


def compare(folder: Path, artifact: Path, **params: Any) -> CheckResult:
    doc = load(artifact, render=False)
    return run_check("compare_deck", doc, {"reference": "gold.pptx", **params}, Resources(assets_dir=str(folder)))


def variant(folder: Path, name: str, edit: Callable[[dict[str, Any]], None]) -> Path:
    return build_deck(folder / f"{name}.pptx", edit)


def diffs(result: CheckResult) -> list[dict[str, Any]]:
    found = result.evidence["differences"]
    assert isinstance(found, list)
    return found  # type: ignore[return-value]


def test_the_gold_deck_matches_itself_in_every_aspect(folder: Path) -> None:
    result = compare(folder, folder / "gold.pptx", aspects=EVERY)
    assert (result.status, result.mechanism) == ("pass", "exact"), result.explanation
    aspects = result.evidence["aspects"]
    assert isinstance(aspects, dict)
    assert aspects["slides"] == {"compared": 3, "different": 0}
    assert aspects["tables"] == {"compared": 7, "different": 0}
    assert aspects["images"] == {"compared": 1, "different": 0}
    assert aspects["notes"] == {"compared": 3, "different": 0}


def test_a_shape_moved_30_pt_fails_geometry_within_a_smaller_tolerance_only(folder: Path) -> None:
    art = variant(folder, "moved", lambda r: r["slides"][1].__setitem__("picture_at", (450, 150)))
    assert compare(folder, art).status == "pass"  # geometry is opt-in
    result = compare(folder, art, aspects=["geometry"], tolerance_pt=5)
    (only,) = diffs(result)
    assert (only["aspect"], only["location"]) == ("geometry", "slide 2 shape 'Picture 3'")
    assert only["note"] == "left +30 pt (tolerance 5 pt)" and result.mechanism == "tolerance"
    assert compare(folder, art, aspects=["geometry"], tolerance_pt=30).status == "pass"


def test_a_missing_slide_is_one_difference(folder: Path) -> None:
    art = variant(folder, "missing", lambda r: r["slides"].pop(1))
    result = compare(folder, art, aspects=EVERY)
    (only,) = diffs(result)
    assert (only["aspect"], only["location"], only["note"]) == ("slides", "slide 2", "missing in the artifact")
    assert result.evidence["slides"] == {"reference": 3, "artifact": 2}


def test_swapped_slides_are_an_order_difference_unless_order_is_ignored(folder: Path) -> None:
    def swap(r: dict[str, Any]) -> None:
        r["slides"][1], r["slides"][2] = r["slides"][2], r["slides"][1]

    art = variant(folder, "swapped", swap)
    result = compare(folder, art)
    (only,) = diffs(result)
    assert only["aspect"] == "slides" and only["note"] == "the slide is elsewhere in the artifact"
    assert compare(folder, art, ignore_order=True).status == "pass"


def test_edited_notes_fail_only_when_notes_are_compared(folder: Path) -> None:
    art = variant(folder, "notes", lambda r: r["slides"][1].__setitem__("notes", "Skip the drone survey."))
    assert compare(folder, art).status == "pass"
    (only,) = diffs(compare(folder, art, aspects=["notes"]))
    assert (only["location"], only["actual"]) == ("slide 2 notes", "Skip the drone survey.")


def test_a_retyped_title_is_a_text_difference_at_its_placeholder(folder: Path) -> None:
    art = variant(folder, "title", lambda r: r["slides"][2].__setitem__("title", "Figures"))
    (only,) = diffs(compare(folder, art))
    assert (only["aspect"], only["location"], only["expected"], only["actual"]) == (
        "text", "slide 3 shape 'Title 1'", "Numbers", "Figures",
    )


def test_fuzzy_text_boundary(folder: Path) -> None:
    art = variant(folder, "typo", lambda r: r["slides"][0].__setitem__("title", "Coral survey 2025"))
    assert compare(folder, art).status == "fail"
    assert compare(folder, art, fuzzy=0.9).status == "pass"
    assert compare(folder, art, fuzzy=0.99).status == "fail"


def test_formatting_bold_run_is_located_by_shape_paragraph_and_run(folder: Path) -> None:
    art = variant(folder, "bold", lambda r: r.__setitem__("bold_first_bullet", True))
    assert compare(folder, art).status == "pass"
    (only,) = diffs(compare(folder, art, aspects=["formatting"]))
    assert only["aspect"] == "bold"
    assert only["location"] == "slide 2 shape 'Content Placeholder 2' paragraph 1 (\"Reef cover rose\") run \"Reef cover rose\""


def test_pictures_identity_copy_passes_other_picture_fails(folder: Path) -> None:
    copy_ = encode(photo().resize((300, 225)), "JPEG", quality=85)
    same = variant(folder, "recompressed", lambda r: r["slides"][1].__setitem__("picture", copy_))
    assert compare(folder, same).status == "pass"
    assert compare(folder, same, image_match="pixels").status == "fail"
    other = variant(folder, "other_picture", lambda r: r["slides"][1].__setitem__("picture", encode(photo("#7c3aed", 250))))
    (only,) = diffs(compare(folder, other))
    assert (only["aspect"], only["location"]) == ("images", "slide 2 shape 'Picture 3'")


def test_table_cell_and_chart_value(folder: Path) -> None:
    def edit(r: dict[str, Any]) -> None:
        r["slides"][2]["table"] = copy.deepcopy(r["slides"][2]["table"])
        r["slides"][2]["table"][2][1] = "73%"
        r["slides"][2]["chart"] = [12.0, 15.0, 10.0]

    found = {d["location"]: d for d in diffs(compare(folder, variant(folder, "numbers", edit)))}
    assert set(found) == {"slide 3 shape 'Table 2' row 3 cell 2", "slide 3 shape 'Chart 3' series 'Sightings' values"}
    assert found["slide 3 shape 'Table 2' row 3 cell 2"]["actual"] == "73%"


def test_background_and_transition(folder: Path) -> None:
    art = variant(folder, "dressed", lambda r: r.update(background="FFEEDD", transition=True))
    assert compare(folder, art).status == "pass"
    found = diffs(compare(folder, art, aspects=["background", "transitions"]))
    locations = {d["location"] for d in found}
    assert "slide 1 background colour" in locations and "slide 1 transition" in locations
    assert {d["aspect"] for d in found} == {"background", "transitions"}


def test_a_missing_text_box_is_reported_even_when_shapes_are_not_compared(folder: Path, tmp_path: Path) -> None:
    deck = pptx.Presentation(str(folder / "gold.pptx"))
    slide = deck.slides[2]
    box = slide.shapes.add_textbox(Pt(40), Pt(300), Pt(200), Pt(30))
    box.text_frame.text = "Source: survey log"
    deck.save(str(tmp_path / "extra.pptx"))
    (only,) = diffs(compare(folder, tmp_path / "extra.pptx", aspects=["text"]))
    assert only["aspect"] == "text" and only["location"].startswith("artifact slide 3 shape ")


def test_references_that_cannot_be_used_are_errors(folder: Path, tmp_path: Path) -> None:
    doc = load(folder / "gold.pptx", render=False)
    outside = tmp_path / "gold.pptx"
    shutil.copy(folder / "gold.pptx", outside)
    res = Resources(assets_dir=str(folder))
    assert run_check("compare_deck", doc, {"reference": str(outside)}, res).status == "error"
    (folder / "corrupt.pptx").write_bytes(b"PK\x03\x04" + b"\x00" * 40)
    corrupt = run_check("compare_deck", doc, {"reference": "corrupt.pptx"}, res)
    assert corrupt.status == "error" and corrupt.score is None


@pytest.mark.slow
def test_an_odp_reference_against_a_pptx_artifact(tmp_path: Path) -> None:
    shutil.copy(ODF / "plan.odp", tmp_path / "plan.odp")

    def build(title: str) -> Path:
        deck = pptx.Presentation()
        slide = deck.slides.add_slide(deck.slide_layouts[5])
        slide.shapes.title.text = title
        slide.shapes.add_textbox(Pt(72), Pt(200), Pt(300), Pt(40)).text_frame.text = "Ship in May"
        path = tmp_path / f"{title}.pptx"
        deck.save(str(path))
        return path

    res = Resources(assets_dir=str(tmp_path))
    good = run_check("compare_deck", load(build("Launch Plan"), render=False), {"reference": "plan.odp"}, res)
    assert good.status == "pass", good.explanation
    assert good.evidence["reference_format"] == "odp"
    bad = run_check("compare_deck", load(build("Launch Plans"), render=False), {"reference": "plan.odp"}, res)
    (only,) = diffs(bad)
    assert only["location"] == "slide 1 shape 'PlaceHolder 1'"


def test_a_google_slides_response_matches_its_office_twin_in_every_aspect() -> None:
    logo = (GOOGLE / "logo.png").read_bytes()
    google = extract_google_response(fixture_json("slides_parity.json"), images={LOGO_URL: (logo, "image/png")})
    result = run_check(
        "compare_deck", google, {"reference": "slides_parity.pptx", "aspects": EVERY, "tolerance_pt": 0.5},
        Resources(assets_dir=str(GOOGLE)),
    )
    assert result.status == "pass", result.explanation
    assert result.evidence["compared"] >= 40  # type: ignore[operator]


@pytest.mark.parametrize(
    "name", ["docling_powerpoint_sample.pptx", "pptx_cht-chart-type.pptx", "poi_table_test2.pptx", "pptx_shp-picture.pptx", "poi_60810.pptx"]
)
def test_a_corpus_deck_matches_itself_resaved_by_python_pptx(name: str, tmp_path: Path) -> None:
    original = corpus_file("pptx", name)
    shutil.copy(original, tmp_path / "gold.pptx")
    pptx.Presentation(str(original)).save(str(tmp_path / "resaved.pptx"))
    result = compare(tmp_path, tmp_path / "resaved.pptx", aspects=EVERY)
    assert result.status == "pass", result.explanation


def test_select_limits_the_comparison_to_titles(folder: Path) -> None:
    art = variant(folder, "body_edit", lambda r: r["slides"][1].__setitem__("body", ["Reef cover fell", "Bleaching fell"]))
    titles = '[placeholder_type="title"], [placeholder_type="ctrTitle"]'
    assert compare(folder, art, aspects=["text"]).status == "fail"
    result = compare(folder, art, aspects=["text"], select=titles)
    assert result.status == "pass" and result.evidence["aspects"] == {"text": {"compared": 3, "different": 0}}


def test_a_bullet_removed_is_a_bullet_difference(folder: Path, tmp_path: Path) -> None:
    deck = pptx.Presentation(str(folder / "gold.pptx"))
    paragraph = deck.slides[1].placeholders[1].text_frame.paragraphs[1]
    etree.SubElement(paragraph._p.get_or_add_pPr(), "{http://schemas.openxmlformats.org/drawingml/2006/main}buNone")
    deck.save(str(tmp_path / "no_bullet.pptx"))
    # a bullet removed is drawn: the default formatting properties see it
    (only,) = diffs(compare(folder, tmp_path / "no_bullet.pptx", aspects=["formatting"]))
    assert (only["aspect"], only["expected"], only["actual"]) == ("bullet", "•", None)
    assert only["location"] == "slide 2 shape 'Content Placeholder 2' paragraph 2 (\"Bleaching fell\")"


def test_a_bullet_moved_a_level_in_is_a_formatting_difference(folder: Path, tmp_path: Path) -> None:
    """LibreOffice draws a level-1 paragraph indented further; "formatting" with its
    defaults must see it (the level was compared only when named)."""
    deck = pptx.Presentation(str(folder / "gold.pptx"))
    deck.slides[1].placeholders[1].text_frame.paragraphs[1].level = 1
    deck.save(str(tmp_path / "nested.pptx"))
    found = {d["aspect"]: (d["expected"], d["actual"]) for d in diffs(compare(folder, tmp_path / "nested.pptx", aspects=["formatting"]))}
    # the second level of the default master draws a dash at 28 pt: all three are on the slide
    assert found == {"level": (0, 1), "bullet": ("•", "–"), "size": (32.0, 28.0)}
    assert compare(folder, tmp_path / "nested.pptx").status == "pass"  # formatting is opt-in


def test_formatting_inside_table_cells_and_a_non_deck_reference(folder: Path, tmp_path: Path) -> None:
    deck = pptx.Presentation(str(folder / "gold.pptx"))
    table = next(s for s in deck.slides[2].shapes if s.has_table).table
    table.cell(1, 0).text_frame.paragraphs[0].runs[0].font.italic = True
    deck.save(str(tmp_path / "italic_cell.pptx"))
    (only,) = diffs(compare(folder, tmp_path / "italic_cell.pptx", aspects=["formatting"]))
    assert (only["aspect"], only["actual"]) == ("italic", True)
    assert only["location"] == "slide 3 shape 'Table 2' row 2 cell 1 paragraph 1 (\"North\") run \"North\""
    docx.Document().save(str(tmp_path / "memo.docx"))
    result = run_check("compare_deck", load(folder / "gold.pptx", render=False), {"reference": "memo.docx"}, Resources(assets_dir=str(tmp_path)))
    assert result.status == "error" and "not a deck" in result.explanation


def test_geometry_measures_both_decks_alike(tmp_path: Path) -> None:
    """A python-pptx text box resizes to its text: LibreOffice draws it narrower than the
    file states. A laid-out artifact against a gold read from the file differed from
    itself; both sides are now measured where they are drawn, and a real move still shows."""
    def boxed(path: Path, left_pt: float) -> Path:
        deck = pptx.Presentation()
        slide = deck.slides.add_slide(deck.slide_layouts[6])
        slide.shapes.add_textbox(Pt(left_pt), Pt(100), Pt(280), Pt(40)).text_frame.text = "Growth"
        deck.save(str(path))
        return path

    boxed(tmp_path / "gold.pptx", 56.7)
    res = Resources(assets_dir=str(tmp_path))
    params = {"reference": "gold.pptx", "aspects": ["slides", "geometry"]}
    itself = load(boxed(tmp_path / "same.pptx", 56.7), render=True)
    assert run_check("compare_deck", itself, params, res).status == "pass"
    moved = run_check("compare_deck", load(boxed(tmp_path / "moved.pptx", 113.4)), params, res)
    assert moved.status == "fail" and "left +56.7" in moved.evidence["differences"][0]["note"]
