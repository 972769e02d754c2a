"""Formatting checks on the effective style of real .docx/.pptx/.xlsx files."""

from __future__ import annotations

import pytest

from artifactcheck import Document, run_check
from artifactcheck.checks.formatting import fonts_match
from tests.checks.office_docs import build_deck_pptx, build_report_docx, build_sheet_xlsx, load_pair

LINK = {"link": "example.org/report"}


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_report_docx, tmp_path_factory.mktemp("fmt_docx"))


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_deck_pptx, tmp_path_factory.mktemp("fmt_pptx"))


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_sheet_xlsx, tmp_path_factory.mktemp("fmt_xlsx"))


def test_every_run_of_the_hyperlink(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": LINK, "bold": True, "italic": True, "color": "dark cyan 1", "size": 12}
    ok = run_check("format_is", good, params)
    assert ok.status == "pass", ok.explanation
    assert ok.score == 1.0 and ok.evidence["total"] == 4
    assert ok.evidence["tolerances"]["color_delta_e2000"] == 2.0
    assert ok.evidence["expected"]["color"] == "dark cyan 1"
    no = run_check("format_is", bad, params)
    assert no.status == "fail"
    # the bad link is split in two runs: both black, the second also not italic
    units = no.evidence["units"]
    assert len(units) == 2
    failed = [[f["property"] for f in u["failed"]] for u in units]
    assert failed == [["color"], ["italic", "color"]]
    assert no.score == pytest.approx(5 / 8)
    assert "italic" in no.explanation and "color" in no.explanation


def test_link_text_spanning_runs_is_one_target(report: tuple[Document, Document]) -> None:
    _, bad = report
    r = run_check(
        "format_is",
        bad,
        {"target": {"link": "example.org", "text": "full report", "match": "equals"}, "bold": True},
    )
    assert r.status == "pass" and len(r.evidence["units"]) == 2


def test_only_the_hyperlink_is_bold(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"property": "bold", "allowed": LINK, "scope": "paragraph:not([heading_level])"}
    ok = run_check("only_formatted", good, params)
    assert ok.status == "pass", ok.explanation
    no = run_check("only_formatted", bad, params)
    assert no.status == "fail"
    assert [i["text"] for i in no.evidence["intruders"]] == [" online"]
    assert no.score == 0.5  # the link itself is bold; something else is too
    # the default scope leaves out headings (bold by their style)
    assert run_check("only_formatted", good, {"property": "bold", "allowed": LINK}).status == "pass"
    with_headings = run_check(
        "only_formatted", good, {"property": "bold", "allowed": LINK, "scope": "paragraph"}
    )
    assert with_headings.status == "fail" and with_headings.evidence["intruders"][0][
        "text"
    ].startswith("Energy")


def test_font_aliases_and_size_tolerance(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"text": "Sources:"}, "font": "Calibri", "size": 10.4}
    assert run_check("format_is", good, params).status == "pass"  # Carlito ~ Calibri, 10 ~ 10.4
    no = run_check("format_is", bad, params)
    assert no.status == "fail" and no.evidence["units"][0]["failed"][0]["actual"] == "Arial"
    strict = run_check("format_is", good, {**params, "font_aliases": False})
    assert strict.status == "fail"
    tight = run_check("format_is", good, {**params, "font": "Carlito", "size_tolerance": 0.1})
    assert tight.status == "fail" and tight.evidence["units"][0]["failed"][0]["property"] == "size"


def test_text_colour_by_office_theme_name(report: tuple[Document, Document]) -> None:
    good, _ = report
    assert (
        run_check(
            "format_is", good, {"target": {"text": "Sources:"}, "color": "Blue, Accent 1"}
        ).status
        == "pass"
    )
    assert (
        run_check("format_is", good, {"target": {"text": "Sources:"}, "color": "accent 2"}).status
        == "fail"
    )


def test_alignment(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"text": "Thank you"}, "align": "center"}
    assert run_check("format_is", good, params).status == "pass"
    no = run_check("format_is", bad, params)
    assert no.status == "fail" and no.evidence["units"][0]["failed"][0]["actual"] == "left"


def test_list_style(report: tuple[Document, Document], deck: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"text": "Fact one"}, "list": "bullet", "list_level": 1}
    # python-docx's default template numbers level 2 of 'List Bullet' as decimal
    r = run_check("format_is", good, params)
    assert r.status == "fail" and r.evidence["units"][0]["failed"][0]["actual"] == "numbered"
    assert run_check("format_is", good, {**params, "list": "numbered"}).status == "pass"
    assert run_check("format_is", bad, {**params, "list": "numbered"}).status == "fail"
    deck_good, deck_bad = deck
    assert (
        run_check(
            "format_is",
            deck_good,
            {"target": {"text": "Costs fell"}, "list": "bullet", "list_level": 1},
        ).status
        == "pass"
    )
    assert (
        run_check(
            "format_is",
            deck_bad,
            {"target": {"text": "Costs fell"}, "list": "bullet", "list_level": 1},
        ).status
        == "fail"
    )
    assert (
        run_check("format_is", good, {"target": {"text": "Thank you"}, "list": "none"}).status
        == "pass"
    )


def test_highlight_and_none(report: tuple[Document, Document]) -> None:
    good, _ = report
    assert (
        run_check(
            "format_is", good, {"target": {"selector": "paragraph", "text": "Solar"}, "highlight": "light yellow 3"}
        ).status
        == "fail"
    )  # the paragraph's " is growing fast." is not highlighted
    assert (
        run_check("format_is", good, {"target": {"text": "Solar"}, "highlight": "light yellow 3"}).status
        == "pass"
    )  # a text target names the words: "Solar" is highlighted
    assert (
        run_check(
            "format_is", good, {"target": "run:contains('Solar')", "highlight": "light yellow 3"}
        ).status
        == "pass"
    )
    assert (
        run_check("format_is", good, {"target": {"text": "Thank you"}, "highlight": "none"}).status
        == "pass"
    )


def test_pptx_hyperlink_run(deck: tuple[Document, Document]) -> None:
    good, _ = deck
    ok = run_check(
        "format_is",
        good,
        {"target": {"link": "example.org/more"}, "bold": True, "size": 20, "underline": True},
    )
    assert ok.status == "pass", ok.explanation
    assert (
        run_check(
            "format_is", good, {"target": {"link": "example.org/more"}, "italic": True}
        ).status
        == "fail"
    )


def test_sheet_cells_fill_and_bold(sheet: tuple[Document, Document]) -> None:
    good, bad = sheet
    header = {"target": "cell[row='1']", "bold": True}
    assert run_check("format_is", good, header).status == "pass"
    no = run_check("format_is", bad, header)
    assert no.status == "fail" and no.score == 0.0
    assert (
        run_check("format_is", good, {"target": "cell[row='2']", "fill": "yellow"}).status == "pass"
    )
    assert (
        run_check("format_is", good, {"target": "cell[row='5']", "fill": "yellow"}).status == "fail"
    )


def test_parameter_errors_are_status_error(report: tuple[Document, Document]) -> None:
    good, _ = report
    typo = run_check("format_is", good, {"target": LINK, "bodl": True})
    assert typo.status == "error" and "bodl" in typo.explanation
    nothing = run_check("format_is", good, {"target": LINK})
    assert nothing.status == "error"
    missing = run_check("format_is", good, {"target": {"text": "no such text"}, "bold": True})
    assert missing.status == "fail" and "no node matches" in missing.explanation


def test_fonts_match_is_case_and_space_insensitive() -> None:
    assert fonts_match("times  new roman", "Liberation Serif")
    assert fonts_match("CALIBRI", "calibri", aliases=False)
    assert not fonts_match(None, "Calibri")
