"""Gold-file comparisons judged as a reader sees the two files: outputs that LibreOffice
draws alike must not be reported different (shapes added in another order, so that
python-pptx's default names swap; an empty text box; a hidden shape; capitals typed or
set by a run property), and outputs it draws differently must be, with evidence that
names the real difference (a run set in capitals; a table row deleted in the middle is
one missing row, not every cell below it)."""

from __future__ import annotations

import io
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import docx
import pptx
import pytest
from PIL import Image, ImageChops, ImageDraw
from pptx.util import Pt

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.checks.result import CheckResult


def diffs(result: CheckResult) -> list[dict[str, Any]]:
    found = result.evidence["differences"]
    assert isinstance(found, list)
    return found  # type: ignore[return-value]


def evidence(result: CheckResult, key: str) -> Any:
    return result.evidence[key]


# -- decks ------------------------------------------------------------------------------


def _photo(sky: str, sun_x: int) -> bytes:
    img = Image.new("RGB", (400, 300), sky)
    d = ImageDraw.Draw(img)
    d.rectangle((0, 200, 400, 300), fill="#16a34a")
    d.ellipse((sun_x, 40, sun_x + 80, 120), fill="#fde047")
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


def _findings_deck(path: Path, *, reverse: bool = False, extra: Callable[[Any], None] | None = None) -> Path:
    """One slide: two text boxes and two pictures side by side; ``reverse`` creates each
    pair in the other order (same frames, swapped default names)."""
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[5])
    slide.shapes.title.text = "Findings"
    boxes = [(40, "Reef cover rose"), (380, "Bleaching fell")]
    pictures = [(40, _photo("#0ea5e9", 40)), (380, _photo("#f43f5e", 250))]
    for x, text in reversed(boxes) if reverse else boxes:
        slide.shapes.add_textbox(Pt(x), Pt(150), Pt(250), Pt(60)).text_frame.text = text
    for x, data in reversed(pictures) if reverse else pictures:
        slide.shapes.add_picture(io.BytesIO(data), Pt(x), Pt(260), Pt(200), Pt(150))
    if extra is not None:
        extra(slide)
    deck.save(str(path))
    return path


def _compare_deck(folder: Path, artifact: Path, **params: Any) -> CheckResult:
    doc = load(artifact, render=False)
    return run_check("compare_deck", doc, {"reference": "gold.pptx", **params}, Resources(assets_dir=str(folder)))


@pytest.fixture(scope="module")
def deck_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("deck")
    _findings_deck(folder / "gold.pptx")
    return folder


def test_shapes_added_in_another_order_still_match_their_counterparts(deck_folder: Path) -> None:
    art = _findings_deck(deck_folder / "reversed.pptx", reverse=True)
    names = {s.text_frame.text: s.name for s in pptx.Presentation(str(art)).slides[0].shapes if s.has_text_frame}
    assert names["Reef cover rose"] == "TextBox 3"  # the gold's 'TextBox 3' says "Bleaching fell"
    every = ["slides", "shapes", "text", "images", "geometry", "formatting"]
    result = _compare_deck(deck_folder, art, aspects=every)
    assert result.status == "pass", result.explanation
    assert evidence(result, "shapes_matched_by") == {"placeholder": 1, "content": 4}


def test_a_text_box_swapped_for_another_text_in_place_is_one_text_difference(deck_folder: Path) -> None:
    def retype(slide: Any) -> None:
        box = next(s for s in slide.shapes if s.has_text_frame and s.text_frame.text == "Reef cover rose")
        box.text_frame.text = "Reef cover fell"  # retyped in place: paired by its frame, not its swapped name

    result = _compare_deck(deck_folder, _findings_deck(deck_folder / "retyped.pptx", reverse=True, extra=retype))
    assert result.status == "fail"
    (diff,) = diffs(result)
    assert (diff["aspect"], diff["expected"], diff["actual"]) == ("text", "Reef cover rose", "Reef cover fell")


def test_an_empty_text_box_or_a_hidden_shape_is_not_a_difference(deck_folder: Path) -> None:
    def empty_box(slide: Any) -> None:
        slide.shapes.add_textbox(Pt(300), Pt(430), Pt(200), Pt(40))

    def hidden(slide: Any) -> None:
        box = slide.shapes.add_textbox(Pt(300), Pt(430), Pt(200), Pt(40))
        box.text_frame.text = "Draft: do not use"
        box._element.nvSpPr.cNvPr.set("hidden", "1")

    for name, extra in (("empty", empty_box), ("hidden", hidden)):
        result = _compare_deck(deck_folder, _findings_deck(deck_folder / f"{name}.pptx", extra=extra))
        assert result.status == "pass", (name, result.explanation)


def test_an_empty_but_filled_rectangle_is_still_an_extra_shape(deck_folder: Path) -> None:
    from pptx.enum.shapes import MSO_SHAPE

    def rectangle(slide: Any) -> None:
        slide.shapes.add_shape(MSO_SHAPE.RECTANGLE, Pt(300), Pt(430), Pt(200), Pt(40))  # theme fill: drawn

    result = _compare_deck(deck_folder, _findings_deck(deck_folder / "rect.pptx", extra=rectangle))
    assert result.status == "fail"
    assert [d["note"] for d in diffs(result)] == ["not in the reference"]


def _caption_deck(path: Path, text: str, *, caps: bool = False) -> Path:
    deck = pptx.Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    run = slide.shapes.add_textbox(Pt(40), Pt(150), Pt(400), Pt(60)).text_frame.paragraphs[0].add_run()
    run.text = text
    if caps:
        run._r.get_or_add_rPr().set("cap", "all")
    deck.save(str(path))
    return path


def test_deck_text_is_compared_as_drawn_in_capitals(tmp_path: Path) -> None:
    _caption_deck(tmp_path / "gold.pptx", "Reef cover rose")
    shown_in_capitals = _compare_deck(tmp_path, _caption_deck(tmp_path / "caps.pptx", "Reef cover rose", caps=True))
    assert shown_in_capitals.status == "fail"
    (diff,) = diffs(shown_in_capitals)
    assert diff["actual"] == "REEF COVER ROSE" and "letter case" in diff["note"]
    _caption_deck(tmp_path / "typed.pptx", "REEF COVER ROSE")
    typed = run_check("compare_deck", load(tmp_path / "caps.pptx", render=False), {"reference": "typed.pptx"},
                      Resources(assets_dir=str(tmp_path)))
    assert typed.status == "pass", typed.explanation


# -- documents ---------------------------------------------------------------------------

LINES = ["Revenue grew by twelve percent in the third quarter.", "Costs stayed flat: the warehouse opened on time."]
CELLS = [["Region", "Revenue"], ["North", "4.2"], ["East", "3.6"], ["South", "3.1"]]


def _memo(path: Path, *, lines: list[str] | None = None, caps: bool = False, cells: list[list[str]] | None = None) -> Path:
    d = docx.Document()
    for k, text in enumerate(lines or LINES):
        run = d.add_paragraph().add_run(text)
        run.font.all_caps = caps and k == 1
    rows = cells or CELLS
    table = d.add_table(rows=len(rows), cols=len(rows[0]))
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    d.save(str(path))
    return path


def _compare_document(folder: Path, artifact: Path, reference: str = "gold.docx", **params: Any) -> CheckResult:
    doc = load(artifact, render=False)
    return run_check("compare_document", doc, {"reference": reference, **params}, Resources(assets_dir=str(folder)))


@pytest.fixture(scope="module")
def memo_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("memo")
    _memo(folder / "gold.docx")
    return folder


def test_a_paragraph_set_in_capitals_differs_only_in_case(memo_folder: Path) -> None:
    result = _compare_document(memo_folder, _memo(memo_folder / "caps.docx", caps=True))
    assert result.status == "fail"
    (diff,) = diffs(result)
    assert diff["location"].startswith("paragraph 2") and diff["actual"] == LINES[1].upper()
    assert "letter case" in diff["note"]
    assert _compare_document(memo_folder, memo_folder / "caps.docx", ignore_case=True).status == "pass"


def test_capitals_typed_or_set_by_the_run_are_the_same_text(memo_folder: Path) -> None:
    _memo(memo_folder / "typed.docx", lines=[LINES[0], LINES[1].upper()])
    set_by_run = _memo(memo_folder / "set_by_run.docx", caps=True)
    result = _compare_document(memo_folder, set_by_run, reference="typed.docx")
    assert result.status == "pass", result.explanation


@pytest.mark.slow
def test_capitals_are_what_libreoffice_prints(memo_folder: Path) -> None:
    """The truth the two tests above rest on: w:caps prints the paragraph in capitals."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice not installed")
    from artifactcheck.extractors.render import page_image, read_layout, render_pdf

    caps, gold = _memo(memo_folder / "caps_r.docx", caps=True), memo_folder / "gold.docx"
    words = {w.text for w in read_layout(render_pdf(caps).pdf_path).words}
    assert {"COSTS", "STAYED", "FLAT:"} <= words and "Costs" not in words
    typed = _memo(memo_folder / "typed_r.docx", lines=[LINES[0], LINES[1].upper()])
    same = ImageChops.difference(page_image(render_pdf(caps).pdf_path, 0, dpi=72), page_image(render_pdf(typed).pdf_path, 0, dpi=72))
    assert same.getbbox() is None
    differ = ImageChops.difference(page_image(render_pdf(caps).pdf_path, 0, dpi=72), page_image(render_pdf(gold).pdf_path, 0, dpi=72))
    assert differ.getbbox() is not None


def test_a_table_row_deleted_in_the_middle_is_one_missing_row(memo_folder: Path) -> None:
    middle = _compare_document(memo_folder, _memo(memo_folder / "middle.docx", cells=[CELLS[0], CELLS[1], CELLS[3]]),
                               partial_credit=True)
    assert middle.status == "fail"
    assert [(d["location"], d["expected"], d["actual"]) for d in diffs(middle)] == [
        ("table 1", "4 rows x 2 columns", "3 rows x 2 columns"),
        ("table 1 row 3", "East | 3.6", None),
    ]
    last = _compare_document(memo_folder, _memo(memo_folder / "last.docx", cells=CELLS[:3]), partial_credit=True)
    assert [d["location"] for d in diffs(last)] == ["table 1", "table 1 row 4"]
    assert middle.score == last.score  # one row lost costs the same wherever it was


def test_a_table_row_added_is_one_extra_row_and_an_edited_cell_stays_in_its_row(memo_folder: Path) -> None:
    added = _compare_document(memo_folder, _memo(memo_folder / "added.docx", cells=[*CELLS[:2], ["West", "2.0"], *CELLS[2:]]))
    assert [(d["location"], d.get("note", "")) for d in diffs(added)] == [
        ("table 1", ""), ("table 1 artifact row 3", "not in the reference"),
    ]
    edited = _compare_document(memo_folder, _memo(memo_folder / "edited.docx", cells=[CELLS[0], ["North", "4.7"], *CELLS[2:]]))
    assert [(d["location"], d["actual"]) for d in diffs(edited)] == [("table 1 row 2 cell 2", "4.7")]


def test_a_slide_table_row_deleted_in_the_middle_is_one_missing_row(tmp_path: Path) -> None:
    def deck(path: Path, rows: list[list[str]]) -> Path:
        d = pptx.Presentation()
        slide = d.slides.add_slide(d.slide_layouts[6])
        table = slide.shapes.add_table(len(rows), 2, Pt(40), Pt(140), Pt(280), Pt(120)).table
        for r, row in enumerate(rows):
            for c, value in enumerate(row):
                table.cell(r, c).text = value
        d.save(str(path))
        return path

    deck(tmp_path / "gold.pptx", CELLS)
    result = _compare_deck(tmp_path, deck(tmp_path / "art.pptx", [CELLS[0], CELLS[2], CELLS[3]]))
    assert [(d["location"], d["expected"]) for d in diffs(result)] == [
        ("slide 1 shape 'Table 1'", "4 rows x 2 columns"), ("slide 1 shape 'Table 1' row 2", "North | 4.2"),
    ]


def _with_header(path: Path, header: str, footer: str = "Page footer") -> Path:
    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = header
    d.sections[0].footer.paragraphs[0].text = footer
    for text in LINES:
        d.add_paragraph(text)
    d.save(str(path))
    return path


def test_a_header_changed_is_a_difference_every_page_shows(tmp_path: Path) -> None:
    _with_header(tmp_path / "gold.docx", "Acme Corp — internal")
    changed = _compare_document(tmp_path, _with_header(tmp_path / "public.docx", "Acme Corp — public"))
    assert changed.status == "fail"
    (diff,) = diffs(changed)
    assert (diff["aspect"], diff["location"], diff["actual"]) == ("other_text", "section 1 header (default)", "Acme Corp — public")
    footer = _compare_document(tmp_path, _with_header(tmp_path / "footer.docx", "Acme Corp — internal", "Page footer 2"))
    assert [d["location"] for d in diffs(footer)] == ["section 1 footer (default)"]
    same = _compare_document(tmp_path, _with_header(tmp_path / "same.docx", "Acme Corp — internal"))
    assert same.status == "pass" and evidence(same, "aspects")["other_text"] == {"compared": 2, "different": 0}
    body_only = _compare_document(tmp_path, tmp_path / "public.docx", aspects=["text"])
    assert body_only.status == "pass"  # OSWorld's doc.paragraphs: the header is not read


def test_a_header_the_gold_lacks_is_extra_text(tmp_path: Path) -> None:
    d = docx.Document()
    for text in LINES:
        d.add_paragraph(text)
    d.save(str(tmp_path / "gold.docx"))
    result = _compare_document(tmp_path, _with_header(tmp_path / "art.docx", "DRAFT", footer=""))
    assert [(d["location"], d["actual"], d["note"]) for d in diffs(result)] == [
        ("section 1 header (default)", "DRAFT", "not in the reference"),
    ]


RECORDS = ["08:15:00, T102, S4, 2", "08:30:00, T205, S1, 3", "09:00:00, T301, S2, 1", "09:20:00, T404, S3, 4"]
KEY = "[^,]*,([^,]*),[^,]*,[^,]*"


def _records(path: Path, lines: list[str], *, one_paragraph: bool = False) -> Path:
    d = docx.Document()
    for text in ["\n".join(lines)] if one_paragraph else lines:
        d.add_paragraph(text)  # python-docx writes "\n" as a line break (w:br)
    d.save(str(path))
    return path


def test_records_broken_by_line_breaks_are_one_line_each(tmp_path: Path) -> None:
    _records(tmp_path / "gold.docx", RECORDS)
    _records(tmp_path / "initial.docx", [*RECORDS, RECORDS[1]])
    params = {"reference": "gold.docx", "key_pattern": KEY, "lines_from": "initial.docx"}
    joined = load(_records(tmp_path / "joined.docx", RECORDS, one_paragraph=True), render=False)
    result = run_check("compare_records", joined, params, Resources(assets_dir=str(tmp_path)))
    assert result.status == "pass", result.explanation
    assert evidence(result, "lines") == {"reference": 4, "artifact": 4, "lines_from": 5}
    duplicated = load(_records(tmp_path / "dup.docx", [*RECORDS, RECORDS[1]], one_paragraph=True), render=False)
    result = run_check("compare_records", duplicated, params, Resources(assets_dir=str(tmp_path)))
    assert sorted(d["aspect"] for d in diffs(result)) == ["line_count", "unique"]


def _pictured(path: Path, width_pt: float, fmt: str = "PNG") -> Path:
    img = Image.new("RGB", (240, 240), "#ffffff")
    ImageDraw.Draw(img).ellipse((40, 40, 200, 200), fill="#1e3a8a")
    data = io.BytesIO()
    img.save(data, format=fmt, **({"quality": 92} if fmt == "JPEG" else {}))
    d = docx.Document()
    d.add_paragraph(LINES[0])
    d.add_picture(io.BytesIO(data.getvalue()), width=Pt(width_pt))
    d.save(str(path))
    return path


def test_the_same_picture_printed_twice_as_large_differs_and_a_recompressed_copy_does_not(tmp_path: Path) -> None:
    _pictured(tmp_path / "gold.docx", 72)
    larger = _compare_document(tmp_path, _pictured(tmp_path / "larger.docx", 144))
    assert [(d["aspect"], d["expected"], d["actual"]) for d in diffs(larger)] == [("images", "72 x 72 pt", "144 x 144 pt")]
    assert "shown at another size" in diffs(larger)[0]["note"]
    assert evidence(larger, "aspects")["images"] == {"compared": 1, "different": 1}
    recompressed = _compare_document(tmp_path, _pictured(tmp_path / "jpeg.docx", 72.5, fmt="JPEG"))
    assert recompressed.status == "pass", recompressed.explanation  # 0.5 pt: rounding, not another size


def _chart_deck(path: Path, values: list[float]) -> Path:
    from pptx.chart.data import CategoryChartData
    from pptx.enum.chart import XL_CHART_TYPE

    d = pptx.Presentation()
    data = CategoryChartData()  # type: ignore[no-untyped-call]
    data.categories = ["2022", "2023", "2024"]
    data.add_series("Sightings", values)  # type: ignore[no-untyped-call]
    d.slides.add_slide(d.slide_layouts[6]).shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Pt(60), Pt(60), Pt(400), Pt(300), data)
    d.save(str(path))
    return path


def test_chart_values_agree_up_to_float_noise_and_a_changed_point_is_named(tmp_path: Path) -> None:
    _chart_deck(tmp_path / "gold.pptx", [12.0, 15.0, 9.0])
    computed = _compare_deck(tmp_path, _chart_deck(tmp_path / "computed.pptx", [12.0, 15.000000000001, 9.0]))
    assert computed.status == "pass", computed.explanation  # the same bar: the last digits of a sum
    changed = _compare_deck(tmp_path, _chart_deck(tmp_path / "changed.pptx", [12.0, 16.0, 9.0]))
    (diff,) = diffs(changed)
    assert diff["location"].endswith("series 'Sightings' values") and diff["note"] == "point 2 ('2023'): 15.0 -> 16.0"


def _bullets(path: Path, joiner: str | None) -> Path:
    d = pptx.Presentation()
    slide = d.slides.add_slide(d.slide_layouts[1])
    slide.shapes.title.text = "Findings"
    frame = slide.placeholders[1].text_frame
    if joiner is None:
        frame.text = "Reef cover rose"
        frame.add_paragraph().text = "Bleaching fell"
    else:
        frame.text = "Reef cover rose" + joiner + "Bleaching fell"  # python-pptx: "\v" a line break, "\n" a paragraph
    d.save(str(path))
    return path


def test_a_bullet_joined_to_the_one_before_by_a_line_break_loses_its_bullet(tmp_path: Path) -> None:
    _bullets(tmp_path / "gold.pptx", None)
    formatting = ["slides", "shapes", "text", "formatting"]
    joined = _compare_deck(tmp_path, _bullets(tmp_path / "joined.pptx", "\v"), aspects=formatting)
    assert [(d["aspect"], d["expected"], d["actual"]) for d in diffs(joined)] == [("bullet", "•", None)]
    assert "paragraph 2 (\"Bleaching fell\")" in diffs(joined)[0]["location"]
    two_paragraphs = _compare_deck(tmp_path, _bullets(tmp_path / "split.pptx", "\n"), aspects=formatting)
    assert two_paragraphs.status == "pass", two_paragraphs.explanation


def _two_sections(path: Path, second_header: str | None) -> Path:
    from docx.enum.section import WD_SECTION

    d = docx.Document()
    d.sections[0].header.paragraphs[0].text = "Acme Corp"
    d.add_paragraph(LINES[0])
    section = d.add_section(WD_SECTION.NEW_PAGE)
    if second_header is not None:  # restated in section 2, else inherited from section 1
        section.header.is_linked_to_previous = False
        section.header.paragraphs[0].text = second_header
    d.add_paragraph(LINES[1])
    d.save(str(path))
    return path


def test_a_header_inherited_by_a_section_or_restated_there_is_the_same(tmp_path: Path) -> None:
    _two_sections(tmp_path / "gold.docx", None)
    restated = _compare_document(tmp_path, _two_sections(tmp_path / "restated.docx", "Acme Corp"))
    assert restated.status == "pass", restated.explanation
    changed = _compare_document(tmp_path, _two_sections(tmp_path / "changed.docx", "Acme Inc"))
    assert [(d["location"], d["actual"]) for d in diffs(changed)] == [("section 2 header (default)", "Acme Inc")]


def test_two_labels_swapped_in_place_are_two_text_differences(deck_folder: Path) -> None:
    def swap(slide: Any) -> None:
        boxes = [s for s in slide.shapes if s.has_text_frame and s.text_frame.text in ("Reef cover rose", "Bleaching fell")]
        boxes[0].text_frame.text, boxes[1].text_frame.text = boxes[1].text_frame.text, boxes[0].text_frame.text

    result = _compare_deck(deck_folder, _findings_deck(deck_folder / "swapped.pptx", extra=swap))
    assert sorted((d["expected"], d["actual"]) for d in diffs(result)) == [
        ("Bleaching fell", "Reef cover rose"), ("Reef cover rose", "Bleaching fell"),
    ]


def test_a_moved_text_box_is_still_paired_by_its_text(deck_folder: Path) -> None:
    def move(slide: Any) -> None:
        box = next(s for s in slide.shapes if s.has_text_frame and s.text_frame.text == "Reef cover rose")
        box.left += Pt(72)

    result = _compare_deck(deck_folder, _findings_deck(deck_folder / "moved.pptx", extra=move),
                           aspects=["slides", "shapes", "text", "geometry"], tolerance_pt=2)
    (diff,) = diffs(result)
    assert (diff["aspect"], diff["note"]) == ("geometry", "left +72 pt (tolerance 2 pt)")


def test_a_hidden_slide_is_not_shown_so_hiding_one_is_a_missing_slide(tmp_path: Path) -> None:
    def deck(path: Path, hidden: int | None = None, drop: int | None = None) -> Path:
        d = pptx.Presentation()
        for k, title in enumerate(["Coral survey", "Findings", "Numbers"]):
            if k == drop:
                continue
            slide = d.slides.add_slide(d.slide_layouts[5])
            slide.shapes.title.text = title
            if k == hidden:
                slide._element.set("show", "0")
        d.save(str(path))
        return path

    deck(tmp_path / "gold.pptx")
    hid = _compare_deck(tmp_path, deck(tmp_path / "hid.pptx", hidden=1))
    (diff,) = diffs(hid)
    assert (diff["aspect"], diff["location"]) == ("slides", "slide 2") and diff["note"].startswith("hidden in the artifact")
    deck(tmp_path / "gold_hidden.pptx", hidden=1)
    dropped = deck(tmp_path / "dropped.pptx", drop=1)
    result = run_check("compare_deck", load(dropped, render=False), {"reference": "gold_hidden.pptx"}, Resources(assets_dir=str(tmp_path)))
    assert result.status == "pass", result.explanation  # the gold's hidden slide was never shown
    assert evidence(result, "hidden_slides_left_out") == {"reference": 1}


def test_a_transition_speed_without_an_effect_is_not_a_difference(tmp_path: Path) -> None:
    """LibreOffice re-saves every slide with <p:transition spd="slow"/> and no effect."""
    from lxml import etree

    ns = "http://schemas.openxmlformats.org/presentationml/2006/main"

    def deck(path: Path, effect: str | None, speed: str | None) -> Path:
        d = pptx.Presentation()
        slide = d.slides.add_slide(d.slide_layouts[5])
        slide.shapes.title.text = "Findings"
        if speed is not None:
            transition = etree.SubElement(slide._element, f"{{{ns}}}transition", spd=speed)
            if effect is not None:
                etree.SubElement(transition, f"{{{ns}}}{effect}")
        d.save(str(path))
        return path

    deck(tmp_path / "gold.pptx", None, None)
    transitions = ["slides", "transitions"]
    speed_only = _compare_deck(tmp_path, deck(tmp_path / "speed.pptx", None, "slow"), aspects=transitions)
    assert speed_only.status == "pass", speed_only.explanation
    fade = _compare_deck(tmp_path, deck(tmp_path / "fade.pptx", "fade", "slow"), aspects=transitions)
    assert [d["location"] for d in diffs(fade)][:1] == ["slide 1 transition"]


def test_after_paragraph_compares_a_part_of_the_body_not_the_headers(tmp_path: Path) -> None:
    def memo(path: Path, header: str) -> Path:
        d = docx.Document()
        d.sections[0].header.paragraphs[0].text = header
        for text in ["Intro text", "References", "Smith 2020", "Jones 2021"]:
            d.add_paragraph(text)
        d.save(str(path))
        return path

    memo(tmp_path / "gold.docx", "Draft")
    art = memo(tmp_path / "art.docx", "Final")
    part = _compare_document(tmp_path, art, after_paragraph="References")
    assert part.status == "pass" and "other_text" in evidence(part, "not_compared")
    asked = _compare_document(tmp_path, art, after_paragraph="References", aspects=["text", "other_text"])
    assert [d["location"] for d in diffs(asked)] == ["section 1 header (default)"]
