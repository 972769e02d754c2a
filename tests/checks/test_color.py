"""Colour parsing, CIEDE2000 distance, classification and the colour checks, on real
.docx/.xlsx files written by python-docx/openpyxl and read back with artifactcheck.load."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifactcheck import Document, load, run_check
from artifactcheck.checks.color import (
    delta_e,
    format_color,
    match_color,
    nearest_named,
    palette,
    resolve_color,
    to_hex,
)
from artifactcheck.checks.palettes import GOOGLE_PALETTE
from tests.checks.office_docs import build_report_docx, build_sheet_xlsx, load_pair


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_report_docx, tmp_path_factory.mktemp("color_docx"))


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_sheet_xlsx, tmp_path_factory.mktemp("color_xlsx"))


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("#ABC", "#aabbcc"),
        ("#45818E", "#45818e"),
        ("45818e", "#45818e"),
        ("rgb(0, 139, 139)", "#008b8b"),
        ("rgb(0 139 139)", "#008b8b"),
        ("darkcyan", "#008b8b"),
        ("dark cyan 1", "#45818e"),
        ("Dark Cyan 1", "#45818e"),
        ("dark-cyan-1", "#45818e"),
        ("light red 2", "#ea9999"),
        ("dark grey 4", "#434343"),
        ("dark gray 4", "#434343"),
        ("light cornflower blue 3", "#c9daf8"),
        ("red berry", "#980000"),
        ("accent 1", "#4472c4"),
        ("Accent1", "#4472c4"),
        ("Blue, Accent 1", "#4472c4"),
        ("Orange, Accent 2, Darker 25%", "#c55a11"),  # as Word shows it
        ("text 2", "#44546a"),
        ("office2007:accent 1", "#4f81bd"),
        ("office2023:accent 1", "#156082"),
        ("office:dark red", "#c00000"),
        ("word:dark cyan", "#008080"),
        ("css:green", "#008000"),
        ("google:green", "#00ff00"),
    ],
)
def test_resolve_color_reads_every_vocabulary(spec: str, expected: str) -> None:
    assert to_hex(spec) == expected


def test_swapped_light_yellow_pair_accepts_both_spellings() -> None:
    # The Docs tooltip calls #ffe599 "light yellow 1" and #ffd966 "light yellow 2";
    # the grid order says the opposite. Both names match both swatches.
    for name in ("light yellow 1", "light yellow 2"):
        hexes = {c.hex for c in resolve_color(name)}
        assert hexes == {"#ffe599", "#ffd966"}
        assert match_color("#ffe599", name).ok and match_color("#ffd966", name).ok
    assert not match_color("#fff2cc", "light yellow 2").ok  # light yellow 3 is not either


def test_office_lighter_tint_is_close_to_word_palette() -> None:
    # Word shows "Blue, Accent 1, Lighter 80%" as #D9E2F3.
    assert delta_e(to_hex("Blue, Accent 1, Lighter 80%"), "#d9e2f3") < 1.0


def test_unknown_colour_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown colour"):
        resolve_color("dark cyan 9")
    with pytest.raises(ValueError):
        resolve_color("css:dark cyan 1")


def test_google_palette_is_complete() -> None:
    assert len(GOOGLE_PALETTE) == 10 * 7 + 10
    assert {
        "dark cyan 1",
        "light red 2",
        "light gray 3",
        "dark magenta 3",
        "cornflower blue",
    } <= set(GOOGLE_PALETTE)


def test_nearest_named_classifies_to_palette_entries() -> None:
    for name, hex_value in GOOGLE_PALETTE.items():
        found, distance = nearest_named(hex_value)
        assert distance == 0.0
        assert found.hex == hex_value, name
    near, d = nearest_named("#0000f0", vocabulary="css")
    assert near.name == "blue" and 0 < d < 5


rgb = st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255))


@settings(deadline=None)  # coloraide's first call is slow on a loaded machine
@given(rgb)
def test_parse_of_format_is_identity(c: tuple[int, int, int]) -> None:
    hex_value = "#{:02x}{:02x}{:02x}".format(*c)
    assert format_color(hex_value) == hex_value
    assert to_hex("rgb({}, {}, {})".format(*c)) == hex_value
    assert to_hex(hex_value.upper()) == hex_value


@settings(deadline=None)
@given(rgb, rgb)
def test_delta_e_is_symmetric_nonnegative_and_zero_on_identity(
    a: tuple[int, int, int], b: tuple[int, int, int]
) -> None:
    x, y = "#{:02x}{:02x}{:02x}".format(*a), "#{:02x}{:02x}{:02x}".format(*b)
    assert delta_e(x, x) == 0.0
    assert delta_e(x, y) == delta_e(y, x)
    assert delta_e(x, y) >= 0.0
    if x != y:
        assert delta_e(x, y) > 0.0


def test_palette_vocabularies() -> None:
    assert len(palette("google")) == 80
    assert any(c.name == "darkcyan" for c in palette("css"))
    with pytest.raises(ValueError):
        palette("pantone")


# -- checks on real files ---------------------------------------------------------------


def test_color_is_hyperlink_dark_cyan_1(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"link": "example.org/report"}, "expected": "dark cyan 1"}
    ok = run_check("color_is", good, params)
    assert ok.status == "pass", ok.explanation
    assert ok.evidence["tolerance"] == 2.0
    assert ok.evidence["nodes"][0]["delta_e2000"] == 0.0
    no = run_check("color_is", bad, params)
    assert no.status == "fail"
    assert no.score == 0.0
    assert no.evidence["nodes"][0]["actual"] == "#000000"
    assert no.evidence["nodes"][0]["delta_e2000"] > 2.0


def test_color_is_tolerance_is_a_parameter(report: tuple[Document, Document]) -> None:
    good, _ = report
    # light cyan 1 is 13 dE2000 away from dark cyan 1
    near = {"target": {"link": "example.org"}, "expected": "light cyan 1"}
    assert run_check("color_is", good, near).status == "fail"
    assert run_check("color_is", good, {**near, "tolerance": 15}).status == "pass"


def test_colors_distinct_topics(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": "paragraph", "topics": ["Solar", "Wind"], "property": "highlight"}
    ok = run_check("colors_distinct", good, params)
    assert ok.status == "pass", ok.explanation
    assert [t["actual"] for t in ok.evidence["topics"]] == ["#fff2cc", "#d0e0e3"]
    no = run_check("colors_distinct", bad, params)
    assert no.status == "fail"
    assert no.evidence["clashes"][0]["delta_e2000"] == 0.0
    missing = run_check("colors_distinct", good, {**params, "topics": ["Solar", "Wind", "Hydro"]})
    assert missing.status == "fail" and "Hydro" not in [c["a"] for c in missing.evidence["clashes"]]
    assert missing.score == pytest.approx(2 / 3)


def test_color_classified_as_fill_family(sheet: tuple[Document, Document]) -> None:
    good, _ = sheet
    ok = run_check(
        "color_classified_as",
        good,
        {"target": "cell[row='2']", "property": "fill", "expected": "yellow"},
    )
    assert ok.status == "pass", ok.explanation
    no = run_check(
        "color_classified_as",
        good,
        {"target": "cell[row='2']", "property": "fill", "expected": "orange"},
    )
    assert no.status == "fail"
    unfilled = run_check(
        "color_classified_as",
        good,
        {"target": "cell[row='5']", "property": "fill", "expected": "yellow"},
    )
    assert unfilled.status == "fail" and unfilled.evidence["nodes"][0]["reason"] == "no fill set"


def test_color_family_and_unknown_expected(report: tuple[Document, Document]) -> None:
    good, _ = report
    fam = run_check(
        "color_classified_as",
        good,
        {"target": {"link": "example.org"}, "expected": "cyan", "family": True},
    )
    assert fam.status == "pass"
    bad_spec = run_check("color_is", good, {"target": "run", "expected": "not-a-colour"})
    assert bad_spec.status == "error" and "unknown colour" in bad_spec.explanation


def test_google_docs_link_colour_from_the_corpus(corpus: Path) -> None:
    """Google Docs draws links in its palette's dark cornflower blue 2 (#1155cc)."""
    from artifactcheck import load

    doc = load(corpus / "google" / "docs" / "gsgd_links.json")
    link = {"target": {"link": "docs.google.com/document/d/unknown"}}
    ok = run_check("color_is", doc, {**link, "expected": "dark cornflower blue 2"})
    assert ok.status == "pass", ok.explanation
    assert run_check("color_is", doc, {**link, "expected": "dark cyan 1"}).status == "fail"
    every = run_check(
        "format_is",
        doc,
        {"target": {"link": "docs.google.com"}, "underline": True, "color": "#15c"},
    )
    assert every.status == "pass" and len(every.evidence["units"]) == 5


def test_alpha_is_dropped_and_css_functions_parse() -> None:
    assert to_hex("#45818eff") == "#45818e"
    assert to_hex("#abcd") == "#aabbcc"
    assert to_hex("rgb(100% 0% 0%)") == "#ff0000"
    assert match_color(to_hex("hsl(191 35% 41%)"), "dark cyan 1").ok


def test_colors_distinct_scales_with_colours_not_topics() -> None:
    from artifactcheck.checks.examples import document, paragraph, run

    paras = [
        paragraph(
            f"p{i}", run(f"p{i}/r0", f"topic {i}", highlight="#ffff00" if i % 2 else "#00ffff")
        )
        for i in range(3000)
    ]
    r = run_check("colors_distinct", document(*paras), {"target": "paragraph"})
    assert r.status == "fail" and r.score == 0.0
    assert r.evidence["clash_pairs"] == 2 * (1500 * 1499 // 2)
    assert len(r.evidence["clashes"]) == 2 and r.evidence["clashes"][0]["topics_sharing"] == 1500


def test_family_accepts_every_swatch_and_light_excludes_dark(tmp_path: Path) -> None:
    """Rows filled (openpyxl, as an agent fills "light grey" rows) with each gray swatch of
    the Google palette: "gray" is the whole row, "light gray" only light gray 1-3."""
    import openpyxl
    from openpyxl.styles import PatternFill

    from artifactcheck import load

    swatches = {name: hex_ for name, hex_ in GOOGLE_PALETTE.items() if name.endswith(("gray", "gray 1", "gray 2", "gray 3", "gray 4"))}
    wb = openpyxl.Workbook()
    ws = wb.active
    for row, (name, hex_) in enumerate(swatches.items(), start=1):
        ws.cell(row=row, column=1, value=name).fill = PatternFill("solid", fgColor=hex_[1:].upper())
    ws.cell(row=row + 1, column=1, value="light yellow 1").fill = PatternFill("solid", fgColor="FFE599")
    ws.cell(row=row + 2, column=1, value="dark yellow 2").fill = PatternFill("solid", fgColor="BF9000")
    wb.save(str(tmp_path / "swatches.xlsx"))
    doc = load(tmp_path / "swatches.xlsx")

    def verdict(text: str, expected: str) -> str:
        target = {"selector": "cell", "text": text, "match": "equals"}
        params = {"target": target, "property": "fill", "expected": expected, "family": True}
        return run_check("color_classified_as", doc, params).status

    for name in swatches:
        assert verdict(name, "gray") == "pass", name
        assert verdict(name, "grey") == "pass", name
        light = name.startswith("light ")
        assert verdict(name, "light gray") == ("pass" if light else "fail"), name
    assert verdict("light gray 1", "light grey") == "pass"  # #d9d9d9, the case
    assert verdict("light yellow 1", "light yellow") == "pass"
    assert verdict("dark yellow 2", "light yellow") == "fail"
    assert verdict("dark yellow 2", "yellow") == "pass"


def test_colors_distinct_takes_the_deepest_node_per_topic(tmp_path: Path) -> None:
    """A python-docx table whose cells are shaded per topic; the target "table, cell"
    matches the table (which contains every topic) and each cell: each topic is its cell."""
    import docx
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    from artifactcheck import load

    word = docx.Document()
    table = word.add_table(rows=1, cols=2)
    for cell, (text, fill) in zip(table.rows[0].cells, (("Solar", "FFF2CC"), ("Wind", "D0E0E3")), strict=True):
        cell.text = text
        shd = OxmlElement("w:shd")
        shd.set(qn("w:val"), "clear")
        shd.set(qn("w:fill"), fill)
        cell._tc.get_or_add_tcPr().append(shd)
    word.save(str(tmp_path / "topics.docx"))
    doc = load(tmp_path / "topics.docx")
    r = run_check("colors_distinct", doc, {"target": "table, cell", "topics": ["Solar", "Wind"], "property": "fill"})
    assert [t["kind"] for t in r.evidence["topics"]] == ["cell", "cell"]
    assert r.status == "pass", r.explanation
    assert [t["actual"] for t in r.evidence["topics"]] == ["#fff2cc", "#d0e0e3"]


# -- the file's own theme ---------------------------------------------------------------------
def _theme_runs(tmp_path: Path, theme_shade: str | None) -> Path:
    """A python-docx report whose title is set in theme colour accent 2 (python-docx's
    template has the Office 2007 theme: accent 2 is #c0504d, not 2013's #ed7d31)."""
    import docx
    from docx.enum.dml import MSO_THEME_COLOR
    from docx.oxml.ns import qn

    d = docx.Document()
    run = d.add_paragraph().add_run("Quarterly results")
    run.font.color.theme_color = MSO_THEME_COLOR.ACCENT_2
    if theme_shade:
        run._r.rPr.find(qn("w:color")).set(qn("w:themeShade"), theme_shade)
    d.add_paragraph().add_run("Body text")
    path = tmp_path / f"theme_{theme_shade}.docx"
    d.save(str(path))
    return path


def test_color_is_against_the_files_own_theme(tmp_path: Path) -> None:
    from artifactcheck import load

    plain = load(_theme_runs(tmp_path, None), render=False)
    darker = load(_theme_runs(tmp_path, "BF"), render=False)
    title = {"text": "Quarterly"}
    for spec in ("theme:accent 2", "theme:Accent2", "theme: accent_2", "#c0504d"):
        r = run_check("color_is", plain, {"target": title, "expected": spec})
        assert r.status == "pass", (spec, r.explanation)
    row = run_check("color_is", plain, {"target": title, "expected": "theme:accent 2"}).evidence["nodes"][0]
    assert row["actual_theme"] == "accent2" and row["vocabulary"] == "theme"
    # Office's default theme (2013-2022) has another accent 2: that is not what this file shows
    assert run_check("color_is", plain, {"target": title, "expected": "accent 2"}).status == "fail"
    # "Darker 25%" is themeShade BF; the plain accent is not darker
    r = run_check("color_is", darker, {"target": title, "expected": "theme:Accent 2, Darker 25%"})
    assert r.status == "pass" and r.evidence["nodes"][0]["actual_theme"] == "accent2 (themeShade=BF)"
    assert run_check("color_is", plain, {"target": title, "expected": "theme:accent 2, darker 25%"}).status == "fail"
    # body text is theme text 1 only by default ("auto" is black, not a theme colour)
    assert run_check("color_is", plain, {"target": {"text": "Body"}, "expected": "theme:text 1"}).status == "pass"
    # format_is reads the same specs
    r = run_check("format_is", darker, {"target": title, "color": "theme:accent 2, darker 25%", "bold": False})
    assert r.status == "pass", r.explanation


def test_theme_spec_without_a_theme_is_an_error(report: tuple[Document, Document]) -> None:
    from artifactcheck.checks.examples import tiny_doc

    r = run_check("color_is", tiny_doc(), {"target": "run[hyperlink]", "expected": "theme:accent 1"})
    assert r.status == "error" and "theme" in r.explanation
    with pytest.raises(ValueError, match="unknown theme colour"):
        resolve_color("theme:sky blue", theme={"accent1": "#4472c4"})


def test_color_is_slide_background_like_fill_to_rgb_distance(tmp_path: Path) -> None:
    import pptx
    from pptx.dml.color import RGBColor

    def deck(name: str, backgrounds: list[str | None]) -> Document:
        prs = pptx.Presentation()
        for hex_value in backgrounds:
            slide = prs.slides.add_slide(prs.slide_layouts[6])
            if hex_value is not None:
                slide.background.fill.solid()
                slide.background.fill.fore_color.rgb = RGBColor.from_string(hex_value)
        prs.save(str(tmp_path / name))
        return load(tmp_path / name, render=False)

    step = {"target": "slide", "property": "background", "expected": "#1e3a8a", "tolerance": 3}
    near = deck("near.pptx", ["1E3A8A", "22408F", "1E3A8A"])  # dE2000 1.9 for the second
    ok = run_check("color_is", near, step)
    assert (ok.status, ok.score) == ("pass", 1.0), ok.explanation
    assert run_check("color_is", near, {**step, "tolerance": 1.5}).status == "fail"
    one_left = deck("one_left.pptx", ["1E3A8A", None, "1E3A8A"])  # the second keeps the master's white
    r = run_check("color_is", one_left, step)
    assert r.status == "fail" and r.score == pytest.approx(2 / 3)
    (bad,) = [row for row in r.evidence["nodes"] if not row["ok"]]
    assert bad["actual"] == "#ffffff" and bad["background_from"] != "slide"
    not_slides = run_check("color_is", near, {**step, "target": "document"})
    assert not_slides.status == "fail" and "no background" in not_slides.evidence["nodes"][0]["reason"]


def test_blue_and_red_families_take_the_rows_a_person_calls_by_that_name() -> None:
    """Word's standard "Blue" (#0070c0) is nearest Google's dark cornflower blue 1 and
    red berry (#980000) is its own row: asking for blue or red accepts them; asking for
    the narrower row does not widen it."""
    from artifactcheck.checks.color import in_family

    assert in_family("#0070c0", "blue")[0] and in_family("#1155cc", "blue")[0]
    assert in_family("#980000", "red")[0]
    assert not in_family("#0000ff", "cornflower blue")[0]
    assert not in_family("#0070c0", "red")[0] and not in_family("#ff9900", "red")[0]
