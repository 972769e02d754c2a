"""Geometry checks on a real python-pptx deck with shapes at known positions (native
boxes), plus the pure relation core: boundary behaviour, inverse pairs, area invariants."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import box as sbox

from artifactcheck.checks.registry import get_check, run_check
from artifactcheck.checks.result import CheckResult
from artifactcheck.checks.spatial import INVERSE, RELATIONS, coverage, relate, shape_of
from artifactcheck.model import Box, Document
from tests.checks.geometry_docs import Item, build_deck, load_deck, picture_bytes, plain_doc

LOGO = picture_bytes(1)


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """Slide 0: logo upper-left, title top band, two images side by side at the bottom,
    a full-bleed background on slide 1, a rotated shape on slide 2, a stacked column and
    three evenly spaced boxes on slide 3, and an overlapping pair plus an off-slide box on
    slide 4."""
    path = tmp_path_factory.mktemp("geom") / "deck.pptx"
    slides = [
        [
            Item("picture", 20, 15, 100, 60, name="Logo", image=LOGO),
            Item("box", 150, 20, 420, 70, name="Title", text="Quarterly report"),
            Item("picture", 60, 380, 250, 140, name="Left photo", image=picture_bytes(2)),
            Item("picture", 400, 390, 250, 130, name="Right photo", image=picture_bytes(3)),
        ],
        [
            Item("picture", 0, 0, 720, 540, name="Background", image=picture_bytes(4)),
            Item("box", 200, 220, 320, 100, name="Caption", text="Welcome"),
        ],
        [Item("box", 260, 220, 200, 100, name="Tilted", rotation=45)],
        [
            Item("box", 100, 50, 200, 80, name="Step 1", text="one"),
            Item("box", 100, 160, 200, 80, name="Step 2", text="two"),
            Item("box", 110, 270, 180, 80, name="Step 3", text="three"),
            Item("box", 400, 50, 60, 60, name="A"),
            Item("box", 500, 50, 60, 60, name="B"),
            Item("box", 600, 50, 60, 60, name="C"),
            Item("box", 400, 200, 60, 60, name="D"),
            Item("box", 480, 200, 60, 60, name="E"),
            Item("box", 600, 200, 60, 60, name="F"),
        ],
        [
            Item("box", 100, 100, 200, 100, name="Under"),
            Item("box", 250, 150, 200, 100, name="Over"),
            Item("box", 650, 400, 150, 100, name="Hanging"),
        ],
    ]
    return load_deck(build_deck(path, slides))


def sel(name: str) -> str:
    return f'[name="{name}"]'


def check(name: str, doc: Document, **params: object) -> object:
    result = run_check(name, doc, params)
    assert result.status in ("pass", "fail"), result.explanation
    assert result.explanation
    assert result.evidence
    # Evidence is plain JSON: the result survives a strict round trip.
    assert CheckResult.model_validate_json(result.model_dump_json()) == result
    return result


# -- in_region --------------------------------------------------------------------------


def test_logo_in_upper_left_passes_and_bottom_right_fails(deck: Document) -> None:
    ok = check("in_region", deck, target=sel("Logo"), region="upper-left", page=0)
    assert ok.status == "pass" and ok.score == 1.0
    row = ok.evidence["nodes"][0]
    assert row["region_pt"] == {"page": 0, "x0": 0.0, "top": 0.0, "x1": 240.0, "bottom": 180.0}
    assert row["boxes"][0]["x0"] == 20.0 and row["fraction_inside"] == 1.0
    bad = check("in_region", deck, target=sel("Logo"), region="bottom-right", page=0)
    assert bad.status == "fail" and bad.score == 0.0
    assert "centre at (70, 45) pt is outside bottom-right = x>=480, y>=360" in bad.explanation
    assert bad.evidence["criterion"] == "center" and bad.evidence["nodes"][0]["centre_pt"] == [70.0, 45.0]


def test_title_in_top_20_percent(deck: Document) -> None:
    assert check("in_region", deck, target=sel("Title"), region="top 20%").status == "pass"
    assert check("in_region", deck, target=sel("Title"), region="top 10%").status == "fail"
    # The title spans y 20..90; the top 10% ends at y 54: 34 of its 70 pt are inside.
    partly = check("in_region", deck, target=sel("Title"), region="top 10%", min_fraction=0.45)
    assert partly.status == "pass" and partly.evidence["nodes"][0]["fraction_inside"] == pytest.approx(34 / 70, abs=1e-4)
    assert check("in_region", deck, target=sel("Title"), region="top 10%", min_fraction=0.5).status == "fail"


def test_last_page_in_region_text_and_negative_index(deck: Document) -> None:
    # Slide 4 (last): "Under" sits in the upper-left half, "Hanging" in the lower right.
    assert check("in_region", deck, target=sel("Under"), region="last slide top half").status == "pass"
    assert check("in_region", deck, target=sel("Under"), region="top half", page=-1).status == "pass"
    missing = check("in_region", deck, target=sel("Logo"), region="last page top half")
    assert missing.status == "fail" and "not drawn on page 4" in missing.evidence["nodes"][0]["reason"]
    gone = check("in_region", deck, target=sel("Logo"), region="top", page=9)
    assert gone.status == "fail" and "does not exist" in gone.explanation


def test_edge_touching_box_is_inside_and_tolerance() -> None:
    doc = plain_doc({"edge": (0, 0, 0, 240, 180), "near": (0, 0, 0, 242, 180)})
    contained = {"region": "upper-left", "criterion": "contained"}
    assert check("in_region", doc, target="#edge", **contained).status == "pass"
    assert check("in_region", doc, target="#near", **contained).status == "fail"
    assert check("in_region", doc, target="#near", tolerance_pt=2, **contained).status == "pass"
    # by default only the centre must be inside: a box 2 pt over the line is still upper-left
    assert check("in_region", doc, target="#near", region="upper-left").status == "pass"


def test_explicit_region_box_and_quantifier(deck: Document) -> None:
    photos = '[name$="photo"]'
    r = check("in_region", deck, target=photos, region={"x0": 0, "top": 370, "x1": 720, "bottom": 540, "units": "pt"})
    assert r.status == "pass" and len(r.evidence["nodes"]) == 2
    left = check("in_region", deck, target=photos, region="left half")
    assert left.status == "fail" and left.score == 0.5
    assert check("in_region", deck, target=photos, region="left half", quantifier="any").status == "pass"


def test_bad_region_text_is_a_parameter_error(deck: Document) -> None:
    r = run_check("in_region", deck, {"target": "image", "region": "uper left"})
    assert r.status == "error" and "unknown word 'uper'" in r.explanation
    r = run_check("in_region", deck, {"target": "image", "region": "top", "colour": "red"})
    assert r.status == "error" and "colour" in r.explanation


def test_no_match_fails_and_no_boxes_is_error(deck: Document) -> None:
    r = check("in_region", deck, target="chart", region="top")
    assert r.status == "fail" and "no node matches" in r.explanation
    doc = plain_doc({})
    from artifactcheck.model import Node

    doc.root.children[0].children.append(Node(id="loose", kind="image"))
    doc._link()
    r = run_check("in_region", doc, {"target": "image", "region": "top"})
    assert r.status == "error" and "without layout" in r.explanation


# -- rotated shapes ------------------------------------------------------------------


def test_rotated_shape_is_a_polygon(deck: Document) -> None:
    tilted = deck.select(sel("Tilted"))[0]
    assert tilted.box is not None and tilted.box.polygon is not None
    # The 200x100 box turned 45 degrees: its bounding box is ~212 pt square around (360, 270).
    assert tilted.box.width == pytest.approx(212.13, abs=0.5)
    # The polygon, not its bounding box, decides: the upper-left corner of the bounding box is empty.
    corner = {"x0": 254, "top": 164, "x1": 274, "bottom": 184, "units": "pt"}
    r = check("in_region", deck, target=sel("Tilted"), region=corner, min_fraction=0.01, page=2)
    assert r.status == "fail" and r.evidence["nodes"][0]["fraction_inside"] == 0.0
    assert check("in_region", deck, target=sel("Tilted"), region="center 50%", page=2).status == "pass"


# -- spatial_relation --------------------------------------------------------------------


def test_relation_covered_by_and_inverse(deck: Document) -> None:
    assert check("spatial_relation", deck, a=sel("Caption"), b=sel("Background"), relation="covered_by").status == "pass"
    assert check("spatial_relation", deck, a=sel("Background"), b=sel("Caption"), relation="covers").status == "pass"
    assert check("spatial_relation", deck, a=sel("Background"), b=sel("Caption"), relation="covered_by").status == "fail"
    r = check("spatial_relation", deck, a=sel("Logo"), b=sel("Title"), relation="disjoint")
    assert r.status == "pass" and r.evidence["distance_pt"] == 30.0
    assert check("spatial_relation", deck, a=sel("Logo"), b=sel("Title"), relation="intersects").status == "fail"


def test_relation_across_pages_never_touches(deck: Document) -> None:
    # The background (slide 1) spans the same coordinates as the logo (slide 0).
    r = check("spatial_relation", deck, a=sel("Logo"), b=sel("Background"), relation="disjoint")
    assert r.status == "pass"


def test_overlaps_vs_touches() -> None:
    doc = plain_doc({"a": (0, 0, 0, 100, 100), "b": (0, 100, 0, 200, 100), "c": (0, 50, 50, 150, 150)})
    assert check("spatial_relation", doc, a="#a", b="#b", relation="touches").status == "pass"
    assert check("spatial_relation", doc, a="#a", b="#b", relation="overlaps").status == "fail"
    assert check("spatial_relation", doc, a="#a", b="#b", relation="intersects").status == "pass"
    r = check("spatial_relation", doc, a="#a", b="#c", relation="overlaps")
    assert r.status == "pass" and r.evidence["overlap_area_pt2"] == 2500.0


# -- page_coverage -----------------------------------------------------------------------


def test_background_covers_the_slide(deck: Document) -> None:
    r = check("page_coverage", deck, target=sel("Background"), min_fraction=0.7)
    assert r.status == "pass" and r.evidence["coverage"] == 1.0 and r.evidence["page"] == 1
    small = check("page_coverage", deck, target=sel("Logo"), min_fraction=0.7)
    assert small.status == "fail" and 0 < small.score < 0.05
    assert small.evidence["coverage"] == pytest.approx(100 * 60 / (720 * 540), abs=1e-4)


def test_coverage_counts_overlaps_once_and_ignores_off_page(deck: Document) -> None:
    r = check("page_coverage", deck, target="shape", page=4, min_fraction=0.0)
    under, over, hanging = 200 * 100, 200 * 100, 70 * 100  # hanging: only 70 pt lie on the slide
    shared = 50 * 50
    assert r.evidence["coverage"] == pytest.approx((under + over - shared + hanging) / (720 * 540), abs=1e-4)


# -- relative_position -------------------------------------------------------------------


def test_relative_position(deck: Document) -> None:
    assert check("relative_position", deck, a=sel("Logo"), b=sel("Title"), relation="left_of").status == "pass"
    assert check("relative_position", deck, a=sel("Title"), b=sel("Left photo"), relation="above").status == "pass"
    r = check("relative_position", deck, a=sel("Left photo"), b=sel("Title"), relation="above")
    assert r.status == "fail" and r.evidence["measured_pt"] < 0
    assert check("relative_position", deck, a=sel("Right photo"), b=sel("Left photo"), relation="right_of").status == "pass"
    # Overlapping boxes: edges say no, centres say yes.
    assert check("relative_position", deck, a=sel("Under"), b=sel("Over"), relation="left_of").status == "fail"
    assert check("relative_position", deck, a=sel("Under"), b=sel("Over"), relation="left_of", mode="centers").status == "pass"
    assert check("relative_position", deck, a=sel("Under"), b=sel("Over"), relation="left_of", tolerance_pt=50).status == "pass"


def test_relative_position_across_pages(deck: Document) -> None:
    assert check("relative_position", deck, a=sel("Logo"), b=sel("Caption"), relation="above").status == "pass"
    r = check("relative_position", deck, a=sel("Logo"), b=sel("Caption"), relation="left_of")
    assert r.status == "fail" and "needs one page" in r.explanation


# -- arrangements ------------------------------------------------------------------------


def test_side_by_side(deck: Document) -> None:
    r = check("side_by_side", deck, target='[name$="photo"]')
    assert r.status == "pass" and r.evidence["order"][0].endswith(deck.select(sel("Left photo"))[0].id.split("/")[-1])
    stacked_steps = check("side_by_side", deck, target='[name^="Step"]')
    assert stacked_steps.status == "fail" and "share only" in stacked_steps.explanation
    overlap = check("side_by_side", deck, target=f'{sel("Under")}, {sel("Over")}')
    assert overlap.status == "fail" and "overlap by 50.0 pt" in overlap.explanation
    one = check("side_by_side", deck, target=sel("Logo"))
    assert one.status == "fail" and "need at least 2" in one.explanation
    apart = check("side_by_side", deck, target=f'{sel("Logo")}, {sel("Background")}')
    assert apart.status == "fail" and "different pages" in apart.explanation


def test_stacked(deck: Document) -> None:
    assert check("stacked", deck, target='[name^="Step"]').status == "pass"
    assert check("stacked", deck, target='[name$="photo"]').status == "fail"


def test_aligned(deck: Document) -> None:
    steps = '[name^="Step"]'
    r = check("aligned", deck, target=steps, edge="center_x")
    assert r.status == "pass" and r.evidence["spread_pt"] == 0.0
    left = check("aligned", deck, target=steps, edge="left")
    assert left.status == "fail" and left.evidence["spread_pt"] == 10.0
    assert check("aligned", deck, target=steps, edge="left", tolerance_pt=10).status == "pass"
    assert check("aligned", deck, target='[name="A"], [name="B"], [name="C"]', edge="top").status == "pass"


def test_evenly_spaced(deck: Document) -> None:
    r = check("evenly_spaced", deck, target='[name="A"], [name="B"], [name="C"]')
    assert r.status == "pass" and r.evidence["gaps_pt"] == [40.0, 40.0]
    bad = check("evenly_spaced", deck, target='[name="D"], [name="E"], [name="F"]')
    assert bad.status == "fail" and bad.evidence["gaps_pt"] == [20.0, 60.0]
    assert check("evenly_spaced", deck, target='[name^="Step"]', axis="vertical").status == "pass"


def test_centered_on_page(deck: Document) -> None:
    r = check("centered_on_page", deck, target=sel("Caption"), axis="both")
    assert r.status == "pass" and r.evidence["nodes"][0]["offset_x_pt"] == 0.0
    bad = check("centered_on_page", deck, target=sel("Logo"))
    assert bad.status == "fail" and bad.evidence["nodes"][0]["offset_x_pt"] == -290.0
    assert check("centered_on_page", deck, target=sel("Tilted"), axis="both").status == "pass"


def test_no_overlap(deck: Document) -> None:
    assert check("no_overlap", deck, target="slide:nth-of-type(1) > *").status == "pass"
    r = check("no_overlap", deck, target="slide:nth-of-type(5) > *")
    assert r.status == "fail" and r.evidence["overlapping"][0]["overlap_area_pt2"] == 2500.0
    assert check("no_overlap", deck, target="slide:nth-of-type(5) > *", tolerance_pt=50).status == "pass"


def test_within_page(deck: Document) -> None:
    r = check("within_page", deck, target="slide:nth-of-type(5) > *")
    assert r.status == "fail" and r.evidence["outside"][0]["beyond_pt"]["right"] == 80.0
    assert check("within_page", deck, target="slide:nth-of-type(1) > *").status == "pass"


def test_every_geometry_check_is_documented() -> None:
    for name in ("in_region", "spatial_relation", "page_coverage", "relative_position", "aligned", "side_by_side", "stacked", "centered_on_page", "evenly_spaced", "no_overlap", "within_page"):
        spec = get_check(name)
        assert spec.mechanism == "geometric" and spec.summary and spec.example
        assert spec.params.model_config.get("extra") == "forbid"


# -- the pure core: properties ---------------------------------------------------------

# Coordinates at micro-point resolution: sub-normal offsets are not geometry, and GEOS
# predicates are not exact there.
coord = st.floats(-500, 1500, allow_nan=False, allow_infinity=False).map(lambda v: round(v, 6))


@st.composite
def boxes(draw: st.DrawFn) -> Box:
    x, y = draw(coord), draw(coord)
    # Sizes are 0 or at least a millionth of a point: GEOS loses subnormal areas (a box
    # 3e-234 pt wide became "not covered" in shapely while the arithmetic is exact).
    size = st.one_of(st.just(0.0), st.floats(1e-6, 400))
    w, h = draw(size), draw(size)
    return Box.from_xywh(0, x, y, w, h)


@given(boxes(), boxes(), st.sampled_from(RELATIONS), st.sampled_from([0.0, 0.5, 3.0]))
def test_inverse_pairs(a: Box, b: Box, relation: str, tol: float) -> None:
    ga, gb = shape_of(a), shape_of(b)
    assert relate(relation, ga, gb, tolerance=tol) == relate(INVERSE[relation], gb, ga, tolerance=tol)
    assert relate("disjoint", ga, gb, tolerance=tol) != relate("intersects", ga, gb, tolerance=tol)


@given(boxes(), boxes())
def test_covered_by_implies_intersects_and_full_fraction(a: Box, b: Box) -> None:
    from artifactcheck.checks.spatial import fraction_inside

    ga, gb = shape_of(a), shape_of(b)
    if relate("covered_by", ga, gb):
        assert relate("intersects", ga, gb)
        assert fraction_inside(ga, gb) == pytest.approx(1.0)


@given(st.lists(boxes(), min_size=1, max_size=6))
def test_coverage_union_invariants(items: list[Box]) -> None:
    """Coverage is in [0, 1], never exceeds the sum of the parts on the page, and never
    shrinks when a box is added."""
    shapes = [shape_of(b) for b in items]
    page = sbox(0, 0, 720, 540)
    total = coverage(shapes, 720, 540)
    assert 0.0 <= total <= 1.0
    parts = sum(s.intersection(page).area for s in shapes) / page.area
    assert total <= parts + 1e-9
    assert coverage(shapes[:-1], 720, 540) <= total + 1e-9


def test_contains_is_not_used_for_inside() -> None:
    page = shape_of(Box(page=0, x0=0, top=0, x1=720, bottom=540))
    rule = shape_of(Box(page=0, x0=0, top=0, x1=100, bottom=0))
    assert relate("covered_by", rule, page) and not page.contains(rule)


def test_fixtures_dir_untouched(tmp_path: Path) -> None:
    """The deck is built in a temp dir, never in the repository."""
    assert not (Path(__file__).parent / "deck.pptx").exists()


# -- text_fits -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fit_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document, Document]:
    import openpyxl

    import artifactcheck

    d = tmp_path_factory.mktemp("fit")
    deck = load_deck(
        build_deck(
            d / "fit.pptx",
            [[
                Item("box", 60, 30, 300, 60, name="Fits", text="Short title", font_size=18),
                Item("box", 60, 200, 150, 40, name="Overflows", text="This is a very long sentence that cannot possibly fit in this small box", font_size=18),
            ]],
        )
    )
    from lxml import etree
    from pptx import Presentation

    from tests.extractors.agent_decks import save

    shrunk = d / "shrunk.pptx"
    build_deck(shrunk, [[Item("box", 60, 200, 150, 40, name="Shrunk", text="This is a very long sentence that cannot possibly fit in this small box", font_size=18)]])
    prs = Presentation(str(shrunk))
    body_pr = prs.slides[0].shapes[0].text_frame._txBody.bodyPr
    for old in list(body_pr):
        body_pr.remove(old)
    body_pr.append(etree.SubElement(body_pr, "{http://schemas.openxmlformats.org/drawingml/2006/main}normAutofit", fontScale="25000"))
    save(prs, shrunk)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "A long text that is cut off by B1"
    ws["B1"] = "x"
    ws["A3"] = "Spills over its empty neighbours"
    wb.save(d / "fit.xlsx")
    return deck, artifactcheck.load(d / "fit.xlsx"), artifactcheck.load(shrunk)


@pytest.mark.slow
def test_text_fits_shapes(fit_files: tuple[Document, Document, Document]) -> None:
    """The deck is rendered (the check asks for the layout): the drawn text decides."""
    deck, _, shrunk = fit_files
    assert check("text_fits", deck, target=sel("Fits")).status == "pass"
    r = check("text_fits", deck, target="shape")
    bad = r.evidence["overflowing"]
    assert r.status == "fail" and r.score == 0.5 and len(bad) == 1
    frame, drawn = bad[0]["frame"], bad[0]["drawn_text_box"]
    assert bad[0]["measured"] == "drawn" and drawn["top"] < frame["top"] and drawn["bottom"] > frame["bottom"]
    # The same text in a frame that shrinks it (normAutofit): LibreOffice draws it smaller, inside.
    r = check("text_fits", shrunk, target="shape")
    row = r.evidence["fitting_sample"][0]
    assert r.status == "pass" and row["autofit"] == "shrink" and row["drawn_font_scale"] < 0.9


def test_text_fits_shapes_measured_without_layout(fit_files: tuple[Document, Document, Document]) -> None:
    """Without a layout (render=False) the text is measured with the font's metrics."""
    deck, _, shrunk = fit_files
    deck = load_deck(Path(str(deck.artifact.path)), render=False)
    r = check("text_fits", deck, target="shape")
    bad = r.evidence["overflowing"]
    assert r.status == "fail" and r.score == 0.5 and len(bad) == 1
    assert bad[0]["needed_height_pt"] > bad[0]["available_height_pt"] and bad[0]["lines"] >= 4
    # The same text shrunk to 25% by PowerPoint (normAutofit fontScale) fits.
    r = check("text_fits", load_deck(Path(str(shrunk.artifact.path)), render=False), target="shape")
    assert r.status == "pass" and r.evidence["fitting_sample"][0]["font_scale"] == 0.25


def test_text_fits_cells(fit_files: tuple[Document, Document, Document]) -> None:
    _, book, _ = fit_files
    r = check("text_fits", book, target="cell")
    assert r.status == "fail" and [b["id"] for b in r.evidence["overflowing"]] == ["Sheet!A1"]
    assert check("text_fits", book, target='cell[id="Sheet!A3"]').status == "pass"  # spilling text is visible


@given(boxes(), boxes())
def test_rectangle_fast_paths_agree_with_shapely(a: Box, b: Box) -> None:
    from artifactcheck.checks.spatial import fraction_inside, rect_covered_by, rect_fraction_inside

    ra, rb = (a.x0, a.top, a.x1, a.bottom), (b.x0, b.top, b.x1, b.bottom)
    assert rect_covered_by(ra, rb) == relate("covered_by", shape_of(a), shape_of(b))
    if min(a.width, a.height, b.width, b.height) > 1e-6:  # GEOS loses subnormal areas
        assert rect_fraction_inside(ra, rb) == pytest.approx(fraction_inside(shape_of(a), shape_of(b)), abs=1e-9)


@st.composite
def paged_boxes(draw: st.DrawFn) -> list[Box]:
    out = []
    for _ in range(draw(st.integers(1, 3))):
        page = draw(st.integers(0, 2))
        out.append(Box.from_xywh(page, draw(st.floats(0, 300)), draw(st.floats(0, 300)), draw(st.floats(1, 200)), draw(st.floats(1, 200))))
    return out


@given(paged_boxes(), paged_boxes(), st.sampled_from(RELATIONS))
def test_pages_are_separate_planes(a: list[Box], b: list[Box], relation: str) -> None:
    """relate_pages equals relate on one plane where page p is moved far to the right."""
    from shapely.affinity import translate

    from artifactcheck.checks.spatial import relate_pages, union_of

    def per_page(boxes: list[Box]) -> dict[int, object]:
        pages: dict[int, list[object]] = {}
        for x in boxes:
            pages.setdefault(x.page, []).append(shape_of(x))
        return {k: union_of(v) for k, v in pages.items()}  # type: ignore[arg-type]

    def plane(boxes: list[Box]) -> object:
        return union_of(translate(shape_of(x), xoff=x.page * 1e6) for x in boxes)

    assert relate_pages(relation, per_page(a), per_page(b)) == relate(relation, plane(a), plane(b))  # type: ignore[arg-type]
    assert relate_pages(relation, per_page(a), per_page(b)) == relate_pages(INVERSE[relation], per_page(b), per_page(a))  # type: ignore[arg-type]


# -- a rendered .docx: layout boxes from LibreOffice -------------------------------------


@pytest.fixture(scope="module")
def rendered_docx(tmp_path_factory: pytest.TempPathFactory) -> Document:
    import io
    import shutil

    from docx import Document as WordDocument
    from docx.enum.text import WD_BREAK
    from docx.shared import Inches

    import artifactcheck

    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice not installed")
    word = WordDocument()
    word.add_heading("Annual report", level=1)
    for i in range(3):
        word.add_paragraph(f"Paragraph {i}. " * 30)
    word.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    for i in range(22):
        word.add_paragraph(f"Filler line {i}")
    photos = word.add_paragraph()
    photos.add_run().add_picture(io.BytesIO(picture_bytes(1)), width=Inches(2))
    photos.add_run("   ")
    photos.add_run().add_picture(io.BytesIO(picture_bytes(2)), width=Inches(2))
    path = tmp_path_factory.mktemp("docx") / "report.docx"
    word.save(str(path))
    return artifactcheck.load(path, render=True)


@pytest.mark.slow
def test_images_side_by_side_at_the_bottom_of_the_last_page(rendered_docx: Document) -> None:
    images = rendered_docx.select("image")
    assert len(images) == 2 and all(b.origin == "layout" for n in images for b in n.boxes)
    r = check("in_region", rendered_docx, target="image", region="last page bottom half")
    assert r.status == "pass" and r.evidence["nodes"][0]["page"] == len(rendered_docx.pages) - 1
    assert check("side_by_side", rendered_docx, target="image").status == "pass"
    assert check("in_region", rendered_docx, target="image", region="top half", page="first").status == "fail"
    title = check("in_region", rendered_docx, target="paragraph[heading_level='1']", region="top 20%", page=0)
    assert title.status == "pass"
    assert check("relative_position", rendered_docx, a="paragraph[heading_level='1']", b="image", relation="above").status == "pass"


# -- "the logo is in the upper-left corner": letters built as agents build them -----------


@pytest.fixture(scope="module")
def letter_logos(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, list[tuple[str, bool]]]:
    """A Letter .docx with one logo per page (2.5 in wordmark): aligned left
    (a reader says "upper-left"), centred, right; then a 2 in square mark at the left
    margin (python-docx's template: 1.25 in). Each page's truth is read from where LibreOffice drew the picture."""
    import io
    import shutil

    from docx import Document as WordDocument
    from docx.enum.section import WD_SECTION
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches

    import artifactcheck
    from artifactcheck.extractors.render import read_layout, render_pdf

    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice not installed")
    word = WordDocument()
    cases = [("left", 2.5, (200, 80)), ("center", 2.5, (200, 80)), ("right", 2.5, (200, 80)), ("left", 2.0, (120, 120))]
    for i, (align, width, size) in enumerate(cases):
        if i:
            word.add_section(WD_SECTION.NEW_PAGE)
        para = word.add_paragraph()
        para.alignment = getattr(WD_ALIGN_PARAGRAPH, align.upper())
        para.add_run().add_picture(io.BytesIO(picture_bytes(i, size)), width=Inches(width))
        word.add_paragraph("Dear Dr. Rivera,")
    path = tmp_path_factory.mktemp("letter") / "letter.docx"
    word.save(str(path))
    layout = read_layout(render_pdf(path).pdf_path)
    truth = []
    for (align, _, _), page in zip(cases, layout.pages, strict=True):
        drawn = next(im for im in layout.images if im.page == page.index)
        nearer_left = drawn.x0 < min(abs((drawn.x0 + drawn.x1) / 2 - page.width / 2), page.width - drawn.x1)
        truth.append((align, nearer_left and drawn.top < page.height / 4))
    return artifactcheck.load(path, render=True), truth


@pytest.mark.slow
def test_upper_left_default_follows_the_reader_on_rendered_letters(letter_logos: tuple[Document, list[tuple[str, bool]]]) -> None:
    doc, truth = letter_logos
    assert [t for _, t in truth] == [True, False, False, True]  # the render agrees with the intent
    images = doc.select("image")
    for page, (align, upper_left) in enumerate(truth):
        node = next(n for n in images if n.pages == [page])
        r = check("in_region", doc, target=f"[id='{node.id}']", region="upper-left", page=page)
        assert (r.status == "pass") == upper_left, (align, r.explanation)
        assert re.search(r"centre at \(\d+(\.\d)?, \d+(\.\d)?\) pt is (inside|outside) upper-left = x<=204, y<=264", r.explanation)
    # the old default (the whole box inside the top-left third cell) failed the 2.5 in logo
    old = check("in_region", doc, target=f"[id='{images[0].id}']", region="upper-left", page=0, criterion="contained")
    assert old.status == "fail"
