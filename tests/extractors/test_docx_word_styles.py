"""Styles as Word resolves them, checked against what LibreOffice draws: table styles and
their conditional parts (fills sampled from the rendered page, bold read from the PDF's
fonts), table/row/cell geometry, paragraph geometry (positions of the rendered text),
character styles, underline kinds, theme colours, undefined styles, list labels (the
PDF's text), headers and footers per page of a multi-section document, linked pictures.

Fixtures: fixtures/build_docx_styles.py (python-docx edits, as agents make documents).
Each fixture is rendered once (render cache) and read once per module."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import etree

from artifactcheck.extractors.docx.extract import extract_docx
from artifactcheck.extractors.docx.table_styles import TableLook, cell_parts
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Document, Node
from tests.conftest import FIXTURES
from tests.extractors.rendered_look import (
    background,
    drawn_bold,
    drawn_italic,
    ink,
    line_tops,
    margin_lines,
    page_texts,
    same_color,
)

DOCX = FIXTURES / "docx"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def styled() -> Document:
    return extract_docx(DOCX / "word_styles.docx")


@pytest.fixture(scope="module")
def styled_pdf() -> Path:
    return render_pdf(DOCX / "word_styles.docx").pdf_path


@pytest.fixture(scope="module")
def sections() -> Document:
    return extract_docx(DOCX / "sections_headers.docx")


def para(doc: Document, text: str) -> Node:
    found = [p for p in doc.iter("paragraph") if p.text.startswith(text)]
    assert len(found) == 1, (text, [p.text for p in found])
    return found[0]


def table(doc: Document, style_name: str, index: int = 0) -> Node:
    return [t for t in doc.iter("table") if t.attrs.get("style_name") == style_name][index]


# -- table styles -------------------------------------------------------------------------
def assert_cells_look_rendered(doc: Document, pdf: Path, tbl: Node) -> int:
    """Every cell of ``tbl`` with text: the fill the tree says is the fill behind its
    text on the rendered page (white when None), and its runs are bold exactly when
    the PDF draws them in a bold face. Returns the number of cells compared."""
    compared = 0
    for cell in tbl.descendants("cell"):
        runs = [r for r in cell.descendants("run") if r.text.strip() and r.boxes]
        if not runs or not cell.boxes:
            continue
        compared += 1
        want = (cell.style.fill if cell.style else None) or "#ffffff"
        seen = background(pdf, cell.boxes[0])
        assert same_color(seen, want), (cell.id, cell.attrs.get("table_style_parts"), want, seen)
        for run in runs:
            assert bool(run.style and run.style.bold) == drawn_bold(pdf, run.boxes[0]), (run.id, run.text)
    return compared


def test_medium_grid_2_header_row_fill_and_bold(styled: Document, styled_pdf: Path) -> None:
    grid = table(styled, "Medium Grid 2")
    header = grid.children[0].children
    assert [c.attrs["table_style_parts"] for c in header] == [
        ["firstCol", "firstRow", "nwCell"],
        ["firstRow"],
        ["firstRow"],
    ]
    assert header[1].style.fill == "#e6e6e6"  # text1, themeFillTint 19
    assert (header[1].style.fill_theme, header[1].style.fill_theme_mods) == ("dk1", "themeFillTint=19")
    assert header[0].style.fill == "#ffffff"  # the nwCell corner is white in this style
    assert all(r.style.bold for c in header for r in c.descendants("run"))
    body = grid.children[1].children
    assert body[1].style.fill == "#808080" and not body[1].children[0].children[0].style.bold
    assert grid.children[2].children[1].style.fill == "#c0c0c0"  # band2: the whole-table fill
    assert assert_cells_look_rendered(styled, styled_pdf, grid) == 12


def test_grid_table_4_header_row_fill_white_bold_text(styled: Document, styled_pdf: Path) -> None:
    grid = table(styled, "Grid Table 4 Accent 1")
    for cell in grid.children[0].children:
        assert (cell.style.fill, cell.style.fill_theme) == ("#4f81bd", "accent1")
        (run,) = cell.descendants("run")
        assert run.style.bold and (run.style.color, run.style.color_theme) == ("#ffffff", "lt1")
        assert same_color(ink(styled_pdf, run.boxes[0]), "#ffffff")
    assert grid.children[1].children[1].style.fill_theme_mods == "themeFillTint=33"
    assert grid.children[2].children[1].style.fill is None  # band 2 has no fill in this style
    assert assert_cells_look_rendered(styled, styled_pdf, grid) == 12


def test_legacy_hex_table_look_switches_parts(styled: Document, styled_pdf: Path) -> None:
    legacy = table(styled, "Grid Table 4 Accent 1", 1)
    assert legacy.attrs["table_look"] == {
        "first_row": False,
        "last_row": False,
        "first_column": False,
        "last_column": False,
        "banded_rows": True,
        "banded_columns": True,
    }
    parts = [[c.attrs.get("table_style_parts") for c in row.children] for row in legacy.children]
    assert parts[1] == [["band1Vert"], None, ["band1Vert"]]
    assert not any(r.style.bold for r in legacy.descendants("run"))
    assert assert_cells_look_rendered(styled, styled_pdf, legacy) == 9


@pytest.mark.parametrize(
    ("xml", "first_row", "last_row", "row_bands", "col_bands"),
    [
        ('<w:tblLook xmlns:w="{W}" w:val="04A0"/>', True, False, True, False),
        ('<w:tblLook xmlns:w="{W}" w:val="0060"/>', True, True, True, True),
        # Word 2010+ attributes win over a stale hex value
        ('<w:tblLook xmlns:w="{W}" w:val="04A0" w:firstRow="0" w:lastRow="1" w:noVBand="1"/>', False, True, True, False),
        ('<w:tblLook xmlns:w="{W}" w:firstRow="1" w:noHBand="1"/>', True, False, False, True),
        (None, True, False, True, False),  # no tblLook: Word's and LibreOffice's 04A0
    ],
)
def test_table_look_both_forms(
    xml: str | None, first_row: bool, last_row: bool, row_bands: bool, col_bands: bool
) -> None:
    look = TableLook.parse(etree.fromstring(xml.format(W=W)) if xml else None)
    assert (look.first_row, look.last_row, look.row_bands, look.col_bands) == (
        first_row,
        last_row,
        row_bands,
        col_bands,
    )


def test_cell_parts_order_and_banding() -> None:
    look = TableLook.from_bits(0x01E0)  # first/last row, first/last column, both bands
    assert cell_parts(look, row=0, rows=4, cell=0, cells=3) == ("firstCol", "firstRow", "nwCell")
    assert cell_parts(look, row=3, rows=4, cell=2, cells=3) == ("lastCol", "lastRow", "seCell")
    assert cell_parts(look, row=1, rows=4, cell=1, cells=3) == ("band1Horz", "band1Vert")
    assert cell_parts(look, row=2, rows=4, cell=1, cells=3) == ("band2Horz", "band1Vert")
    # band size 2: rows 1-2 are band 1, rows 3-4 band 2
    assert cell_parts(look, row=3, rows=6, cell=1, cells=3, row_band_size=2)[0] == "band2Horz"
    # a repeated header row in the middle looks like the first row
    assert "firstRow" in cell_parts(look, row=1, rows=4, cell=1, cells=3, header_row=True)


def test_table_alignment_widths_row_height_and_cell_valign(styled: Document) -> None:
    grid = table(styled, "Grid Table 4 Accent 1")
    assert grid.attrs["align"] == "center"
    assert grid.attrs["column_widths"] == [86.4, 72.0, 72.0]
    row0 = grid.children[0]
    assert (row0.attrs["height_pt"], row0.attrs["height_rule"]) == (40.0, "exact")
    assert [c.attrs["width"] for c in row0.children] == [86.4, 72.0, 72.0]
    assert [c.style.valign for c in row0.children] == ["top", "middle", "bottom"]
    # where LibreOffice draws them: the table centred between the 1.25" margins ...
    width = sum(grid.attrs["column_widths"])  # type: ignore[arg-type]
    left_edge = (612 - width) / 2
    first = row0.children[0]
    assert grid.attrs["box_from"] == "borders"  # a grid style: cells are boxed by their drawn borders
    assert abs(first.boxes[0].x0 - left_edge) < 1.5 and abs(first.boxes[0].x1 - (left_edge + 86.4)) < 1.5
    first_text = first.children[0].boxes[0]
    assert abs(first_text.x0 - (left_edge + 5.4)) < 1.5  # the text: + the style's 0.075" cell margin
    # ... the row exactly 40 pt tall, its cells' text at the top, middle and bottom
    assert 39 <= first.boxes[0].height <= 41
    top_text, mid, bottom_text = (c.children[0].boxes[0] for c in row0.children)
    next_row = grid.children[1].children[0].children[0].boxes[0]
    assert 37 <= next_row.top - top_text.top <= 41
    assert abs((mid.top + mid.bottom) / 2 - (top_text.top + bottom_text.bottom) / 2) < 2.5
    assert bottom_text.bottom > mid.bottom + 8 > top_text.bottom + 16


def test_table_without_or_with_unknown_style_gets_default_table_style(styled: Document) -> None:
    plain = para(styled, "Plain left").parent
    missing = para(styled, "Missing left").parent
    assert plain is not None and missing is not None
    for tbl in (plain.parent.parent, missing.parent.parent):  # type: ignore[union-attr]
        assert tbl is not None and tbl.attrs["style_name"] == "Normal Table"
        assert all(c.style.fill is None for c in tbl.descendants("cell"))


# -- paragraph geometry -------------------------------------------------------------------
def test_paragraph_geometry_attrs(styled: Document) -> None:
    p = para(styled, "Indented paragraph")
    assert {k: p.attrs[k] for k in (
        "space_before", "space_after", "line_spacing", "line_spacing_rule",
        "indent_left", "indent_right", "indent_first_line", "indent_hanging",
    )} == {
        "space_before": 18.0, "space_after": 6.0, "line_spacing": 1.5,
        "line_spacing_rule": "multiple", "indent_left": 36.0, "indent_right": 18.0,
        "indent_first_line": 18.0, "indent_hanging": 0.0,
    }  # fmt: skip
    assert p.attrs["keep_with_next"] and p.attrs["keep_lines"] and p.attrs["widow_control"]
    h = para(styled, "Hanging paragraph")
    assert (h.attrs["line_spacing"], h.attrs["line_spacing_rule"]) == (24.0, "exact")
    assert (h.attrs["indent_left"], h.attrs["indent_hanging"]) == (36.0, 36.0)
    tabs = para(styled, "Name").attrs["tab_stops"]
    assert tabs == [
        {"position": 216.0, "align": "center", "leader": "dot"},
        {"position": 432.0, "align": "right", "leader": "none"},
    ]
    # a style's spacing, one attribute overridden directly: the other is the style's
    custom = para(styled, "Custom style")
    assert custom.attrs["style_name"] == "Spaced Body"
    assert (custom.attrs["space_before"], custom.attrs["space_after"]) == (12.0, 3.0)
    assert custom.attrs["indent_left"] == 18.0
    # the document defaults (python-docx's template: 10 pt after, 1.15 lines)
    plain = para(styled, "A centred table")
    assert (plain.attrs["space_after"], plain.attrs["line_spacing"]) == (10.0, 1.15)
    assert "keep_with_next" not in plain.attrs and "tab_stops" not in plain.attrs


def test_paragraph_geometry_where_libreoffice_draws_it(styled: Document, styled_pdf: Path) -> None:
    margin = 90.0  # python-docx's template: 1.25" left and right margins
    (box,) = para(styled, "Indented paragraph").boxes
    assert abs(box.x0 - (margin + 36 + 18)) < 1.0  # left indent + first-line indent
    (box,) = para(styled, "Hanging paragraph").boxes
    assert abs(box.x0 - margin) < 1.0  # first line hangs back to the margin
    tops = line_tops(styled_pdf, box)
    assert len(tops) == 2 and abs(tops[1] - tops[0] - 24.0) < 0.6  # exactly 24 pt apart
    name = para(styled, "Name")
    right = name.boxes[0]
    assert abs(right.x1 - (margin + 432)) < 1.0  # right tab stop at 6"
    custom = para(styled, "Custom style").boxes[0]
    assert abs(custom.x0 - (margin + 18)) < 1.0
    # spacing: above "Custom style" the previous paragraph's 10 pt after meets its 12 pt
    # before, below it its 3 pt after meets 0. LibreOffice keeps the larger of the two
    # (this file has no Word 2013 compatibility mode); the leading is the same both times.
    below = para(styled, "Strong words").boxes[0]
    gap_above = custom.top - right.bottom
    gap_below = below.top - custom.bottom
    assert abs((gap_above - gap_below) - (max(10, 12) - max(3, 0))) < 1.0


# -- runs: character style, underline kind, theme colours -----------------------------
def test_character_style_and_underline_kind(styled: Document, styled_pdf: Path) -> None:
    runs = {r.text: r for r in para(styled, "Strong words").children}
    strong = runs["Strong words"]
    assert strong.attrs["character_style"] == "Strong" and strong.style.bold
    assert drawn_bold(styled_pdf, strong.boxes[0])
    assert runs["double underline"].attrs["underline_style"] == "double"
    assert runs["wavy underline"].attrs["underline_style"] == "wave"
    assert runs["double underline"].style.underline and "underline_style" not in runs[" then "].attrs


def test_theme_colours_keep_slot_and_shade(styled: Document, styled_pdf: Path) -> None:
    runs = {r.text: r for r in para(styled, "Accent two text").children}
    plain, darker = runs["Accent two text"], runs["darker accent"]
    assert (plain.style.color, plain.style.color_theme, plain.style.color_theme_mods) == (
        "#c0504d",
        "accent2",
        None,
    )
    assert (darker.style.color, darker.style.color_theme, darker.style.color_theme_mods) == (
        "#953735",
        "accent2",
        "themeShade=BF",
    )
    # Word paints the theme colour and ignores w:val (ECMA-376 17.3.2.6); LibreOffice 7
    # paints w:val. Word writes the two equal, so the render shows the darker accent ...
    assert same_color(ink(styled_pdf, darker.boxes[0]), darker.style.color, 4.0)
    # ... but python-docx's theme_color leaves w:val="000000": LibreOffice draws black
    # where Word shows accent 2. The tree says what Word shows (design/docx-tree.md).
    assert same_color(ink(styled_pdf, plain.boxes[0]), "#000000", 4.0)
    shaded = para(styled, "Shaded with a theme colour")
    assert (shaded.style.fill, shaded.style.fill_theme, shaded.style.fill_theme_mods) == (
        "#f2dcdb",
        "accent2",
        "themeFillTint=33",
    )
    assert same_color(background(styled_pdf, shaded.boxes[0]), shaded.style.fill)


def test_undefined_paragraph_style_is_the_default_style(styled: Document, styled_pdf: Path) -> None:
    copied = para(styled, "Copied from another memo.")
    assert copied.attrs["style_name"] == "Normal"
    (run,) = copied.children
    assert not run.style.italic and not drawn_italic(styled_pdf, run.boxes[0])


# -- numbering ----------------------------------------------------------------------------
def test_list_labels_are_what_libreoffice_prints(styled: Document, styled_pdf: Path) -> None:
    printed = {re.sub(r"\s+", " ", line).strip() for page in page_texts(styled_pdf) for line in page.split("\n")}
    items = [p for p in styled.iter("paragraph") if p.attrs.get("list_id") == "90"]
    labels = [p.attrs["list_label"] for p in items]
    assert labels == ["1.", "1.1.1.", "1.1.2.", "2.", "2.1.1.", "2.2.", "3.", "3.1.", "3.2.", "4.", "4.1.1."]
    for p in items:
        assert f"{p.attrs['list_label']} {p.text}" in printed, p.text
    # the list level's indents reach the paragraph
    assert (items[1].attrs["indent_left"], items[1].attrs["indent_hanging"]) == (108.0, 36.0)


# -- sections: headers and footers per page ------------------------------------------------
def assert_headers_per_page_as_rendered(doc: Document, pdf: Path) -> int:
    """On every page, the header and footer lines LibreOffice drew in the margins are
    exactly the texts of the header/footer nodes the tree boxes on that page, and those
    boxes lie in the margins. Returns how many (page, line) pairs were compared."""
    sections: list[dict[str, object]] = doc.root.attrs["sections"]  # type: ignore[assignment]
    compared = 0
    for page in doc.pages:
        sec = sections[int(page.attrs.get("section", 0))]  # type: ignore[arg-type]
        margins: dict[str, float] = sec["margins"]  # type: ignore[assignment]
        top, bottom = margins["top"], page.height - margins["bottom"]
        drawn = margin_lines(pdf, page.index, top=top, bottom=bottom)
        boxed: set[str] = set()
        for hf in doc.root.children:
            if hf.kind not in ("header", "footer"):
                continue
            for b in hf.boxes:
                if b.page == page.index:
                    assert b.bottom <= top + 1 or b.top >= bottom - 1, (hf.id, b)
                    boxed |= {" ".join(p.text.split()) for p in hf.descendants("paragraph") if p.text.strip()}
        assert boxed == drawn, (page.index, boxed, drawn)
        compared += len(drawn)
    return compared


def test_each_page_shows_its_sections_header_and_footer(sections: Document) -> None:
    pdf = render_pdf(DOCX / "sections_headers.docx").pdf_path
    assert len(sections.pages) == len(page_texts(pdf)) == 6
    assert assert_headers_per_page_as_rendered(sections, pdf) == 9
    shown = {
        hf.id: sorted({b.page for b in hf.boxes})
        for hf in sections.root.children
        if hf.kind in ("header", "footer") and hf.boxes
    }
    # One node per header part: a section that inherits a header shows the same one.
    assert shown == {
        "s0/header-default": [0, 2],  # section 1 inherits it for its second page
        "s0/footer-default": [0, 2],
        "s1/header-first": [1, 3, 5],  # section 1's own first-page header; titlePg copied by add_section
        "s3/header-default": [4],  # a continuous section: its second page is its own
        "s3/footer-default": [4],
    }
    assert sections.get("s1/header-first").attrs["sections"] == [1, 2, 3, 4]
    # the body keeps its words: "Alpha body one" is boxed on its line, not on the header's
    (alpha,) = sections.get("p0/r0").boxes
    assert alpha.page == 0 and alpha.top >= 72 and "layout_match" not in sections.get("p0/r0").attrs


# -- linked pictures --------------------------------------------------------------------------
def test_linked_pictures_keep_their_url() -> None:
    doc = extract_docx(DOCX / "linked_pictures.docx", render=False)
    both, linked = list(doc.images())
    assert both.attrs["linked_url"] == "https://example.org/logo.png" and both.attrs.get("blob")
    assert linked.attrs["linked_url"] == "https://example.org/chart.png"
    assert "blob" not in linked.attrs and "missing_image" not in linked.attrs
