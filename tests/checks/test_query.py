"""Tree-query checks on real .docx/.xlsx/.pptx files written by python-docx, openpyxl and
python-pptx."""

from __future__ import annotations

from pathlib import Path

import pytest

from artifactcheck import Document, run_check
from artifactcheck.checks.examples import document, paragraph
from artifactcheck.checks.query.grid import build_grid, detect_header_row
from tests.checks.office_docs import build_deck_pptx, build_report_docx, build_sheet_xlsx, load_pair


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_report_docx, tmp_path_factory.mktemp("q_docx"))


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_sheet_xlsx, tmp_path_factory.mktemp("q_xlsx"))


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_deck_pptx, tmp_path_factory.mktemp("q_pptx"))


def test_exists_and_count(
    report: tuple[Document, Document], deck: tuple[Document, Document]
) -> None:
    good, _ = report
    assert (
        run_check(
            "exists",
            good,
            {"target": {"selector": "paragraph[heading_level='3']", "text": "module 2"}},
        ).status
        == "pass"
    )
    no = run_check("exists", good, {"target": {"text": "appendix"}})
    assert no.status == "fail" and no.evidence["count"] == 0
    assert (
        run_check("count", good, {"target": "paragraph[list_level]", "exactly": 4}).status == "pass"
    )
    c = run_check("count", good, {"target": "paragraph[list_level]", "at_least": 5})
    assert c.status == "fail" and c.evidence["count"] == 4
    assert (
        run_check("count", deck[0], {"target": "slide", "at_least": 3, "at_most": 3}).status
        == "pass"
    )
    assert run_check("count", deck[1], {"target": "slide", "at_least": 3}).status == "fail"
    assert run_check("count", good, {"target": "slide"}).status == "error"  # no bound given


def test_order(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"first": {"text": "Module 1"}, "then": {"text": "Module 2"}}
    assert run_check("order", good, params).status == "pass"
    assert (
        run_check("order", good, {"first": params["then"], "then": params["first"]}).status
        == "fail"
    )
    # every bullet before every heading 3
    assert (
        run_check(
            "order",
            good,
            {
                "first": "paragraph[list_level]",
                "then": "paragraph[heading_level='3']",
                "mode": "all",
            },
        ).status
        == "pass"
    )
    missing = run_check("order", bad, {"first": {"text": "Appendix"}, "then": {"text": "Module 1"}})
    assert missing.status == "fail" and "nothing matches" in missing.explanation


def test_position_start_and_end(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"text": "Summary of findings"}, "where": "start"}
    assert run_check("position", good, params).status == "pass"
    no = run_check("position", bad, params)
    assert no.status == "fail" and no.evidence["index"] == 1
    assert run_check("position", bad, {**params, "within": 2}).status == "pass"
    assert (
        run_check("position", good, {"target": {"text": "Sources:"}, "where": "end"}).status
        == "pass"
    )


def test_position_in_a_sheet_counts_rows(sheet: tuple[Document, Document]) -> None:
    """A workbook has no paragraphs: "the total is at the end" counts the sheet's rows."""
    good, _ = sheet
    end = run_check("position", good, {"target": {"text": "Total"}, "where": "end"})
    assert end.status == "pass", end.explanation
    assert end.evidence["items"] == 6  # the header, four tasks, the total
    start = run_check("position", good, {"target": {"text": "Total"}, "where": "start"})
    assert start.status == "fail" and start.evidence["index"] == 5
    assert run_check("position", good, {"target": {"text": "Fix login"}, "where": "start", "within": 2}).status == "pass"


def test_facts_nested_under_url_bullet(
    report: tuple[Document, Document], deck: tuple[Document, Document]
) -> None:
    good, bad = report
    params = {
        "parent": {"text": "https://example.com/facts"},
        "children": ["capacity doubled", "prices fell"],
        "min_children": 2,
    }
    ok = run_check("nested_under", good, params)
    assert ok.status == "pass", ok.explanation
    assert [s["id"] for s in ok.evidence["parents"][0]["sub_items"]] == ["p6", "p7"]
    no = run_check("nested_under", bad, params)
    assert no.status == "fail" and no.evidence["parents"][0]["sub_items"] == []
    # every URL bullet must have sub-bullets: the second has none
    each = run_check(
        "nested_under",
        good,
        {
            "parent": {
                "selector": "paragraph[list_level='0']",
                "text": "https://",
                "match": "startswith",
            }
        },
    )
    assert each.status == "fail" and each.score == 0.5
    d_ok = run_check(
        "nested_under",
        deck[0],
        {"parent": {"text": "example.com/wind"}, "children": ["costs fell"]},
    )
    assert d_ok.status == "pass"
    assert (
        run_check(
            "nested_under",
            deck[1],
            {"parent": {"text": "example.com/wind"}, "children": ["costs fell"]},
        ).status
        == "fail"
    )


def test_heading_structure(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"level": 3, "expected": ["Module 1 Basics", "Module 2 Advanced"], "in_order": True}
    ok = run_check("heading_structure", good, params)
    assert ok.status == "pass", ok.explanation
    no = run_check("heading_structure", bad, {**params, "no_skipped_levels": True})
    assert no.status == "fail"
    assert no.evidence["skips"][0] == {
        "id": "p10",
        "text": "Module 1: Basics",
        "level": 3,
        "after_level": 1,
    }
    assert no.evidence["expected"][1]["at_other_level"]["level"] == 4
    assert no.score == pytest.approx(1 / 3)
    assert (
        run_check("heading_structure", good, {"top_level": 1, "min_count": 2, "level": 3}).status
        == "pass"
    )
    assert run_check("heading_structure", good, {"top_level": 2}).status == "fail"
    # "Module 1 is a Heading 3" asks about the module headings, not the outline around them
    asked = run_check("heading_structure", bad, params)
    assert asked.status == "fail" and asked.evidence["skips"] == [] and asked.score == pytest.approx(1 / 2)


def test_heading_3_does_not_require_the_document_to_start_at_heading_1(tmp_path: Path) -> None:
    """A document whose headings are all Heading 3 (python-docx's built-in style, as an
    agent writes "one Heading 3 per module"): each module is a Heading 3."""
    import docx

    import artifactcheck

    word = docx.Document()
    word.add_paragraph("Course outline", style="Title")
    for i in (1, 2):
        word.add_heading(f"Module {i}", level=3)
        word.add_paragraph(f"Reading for module {i}.")
    path = tmp_path / "modules.docx"
    word.save(str(path))
    doc = artifactcheck.load(path)
    r = run_check("heading_structure", doc, {"level": 3, "expected": ["Module 1", "Module 2"], "in_order": True})
    assert r.status == "pass", r.explanation
    # the outline rule, asked for explicitly, still sees Title -> Heading 3
    strict = run_check("heading_structure", doc, {"level": 3, "expected": ["Module 1"], "no_skipped_levels": True})
    assert strict.status == "fail" and "H0 -> H3" in strict.explanation
    # a document that simply starts at Heading 3 does not skip; H3 -> H1 -> H3 does
    word = docx.Document()
    for text, level in (("Module 1", 3), ("Module 2", 3), ("Appendix", 1), ("Notes", 3)):
        word.add_heading(text, level=level)
    word.save(str(tmp_path / "starts_at_h3.docx"))
    starts = artifactcheck.load(tmp_path / "starts_at_h3.docx")
    outline_only = run_check("heading_structure", starts, {})
    assert outline_only.status == "fail" and [s["id"] for s in outline_only.evidence["skips"]] == ["p3"]


def test_structure_slides_sheets_columns(
    deck: tuple[Document, Document], sheet: tuple[Document, Document]
) -> None:
    assert run_check("structure", deck[0], {"unit": "slides", "exactly": 3}).status == "pass"
    assert run_check("structure", deck[1], {"unit": "slides", "exactly": 3}).status == "fail"
    good, _ = sheet
    names = run_check(
        "structure", good, {"unit": "sheets", "names": ["Tasks", "Notes"], "ordered": True}
    )
    assert names.status == "pass" and names.evidence["names"] == ["Tasks", "Notes"]
    wrong = run_check(
        "structure", good, {"unit": "sheets", "names": ["Notes", "Tasks"], "ordered": True}
    )
    assert wrong.status == "fail" and wrong.score == 0.5
    assert (
        run_check(
            "structure", good, {"unit": "columns", "scope": "sheet[name='Tasks']", "exactly": 4}
        ).status
        == "pass"
    )
    assert (
        run_check(
            "structure", good, {"unit": "rows", "scope": "sheet[name='Tasks']", "exactly": 6}
        ).status
        == "pass"
    )


def test_structure_text_columns(report: tuple[Document, Document]) -> None:
    good, _ = report
    assert run_check("structure", good, {"unit": "text_columns", "exactly": 1}).status == "pass"
    assert run_check("structure", good, {"unit": "text_columns", "at_least": 2}).status == "fail"


def test_header_row(sheet: tuple[Document, Document]) -> None:
    good, bad = sheet
    params = {"scope": "sheet[name='Tasks']", "row": 1, "bold": True, "headers": ["task", "owner"]}
    ok = run_check("header_row", good, params)
    assert ok.status == "pass", ok.explanation
    assert ok.evidence["grids"][0]["detected_row"] == 1
    no = run_check("header_row", bad, params)
    assert no.status == "fail" and "not bold" in no.explanation
    assert run_check("header_row", bad, {"scope": "sheet[name='Tasks']", "row": 1}).status == "pass"


def test_header_row_below_a_title() -> None:
    from artifactcheck.model import Node

    cells = [
        ("A1", 1, 1, "Quarterly sales"),
        ("A2", 2, 1, "Region"),
        ("B2", 2, 2, "Sales"),
        ("C2", 2, 3, "Growth"),
        ("A3", 3, 1, "North"),
        ("B3", 3, 2, "1,200"),
        ("C3", 3, 3, "5%"),
    ]
    sheet = Node(
        id="S",
        kind="sheet",
        attrs={"name": "S"},
        children=[
            Node(id=f"S!{ref}", kind="cell", text=t, attrs={"row": r, "col": c})
            for ref, r, c, t in cells
        ],
    )
    doc = document(sheet, fmt="xlsx")
    g = build_grid(doc.get("S"))
    assert g.row_numbers[detect_header_row(g).index or 0] == 2
    assert (
        run_check("header_row", doc, {"row": 2, "headers": ["region", "sales", "growth"]}).status
        == "pass"
    )


def test_columns_match(sheet: tuple[Document, Document]) -> None:
    good, bad = sheet
    params = {"headers": ["Owner", "task", "hours"]}
    ok = run_check("columns_match", good, params)
    assert ok.status == "pass", ok.explanation
    assert {m["expected"]: m["column"] for m in ok.evidence["mapping"]} == {
        "Owner": "B",
        "task": "A",
        "hours": "C",
    }
    assert run_check("columns_match", good, {**params, "in_order": True}).status == "fail"
    no = run_check("columns_match", bad, params)
    assert no.status == "fail" and "hours" in no.explanation and no.score == pytest.approx(2 / 3)


def test_rows_grouped_at_top(sheet: tuple[Document, Document]) -> None:
    good, bad = sheet
    params = {"scope": "sheet[name='Tasks']", "property": "filled", "color": "yellow"}
    ok = run_check("rows_grouped_at_top", good, params)
    assert ok.status == "pass", ok.explanation
    assert ok.evidence["marked_rows"] == [2, 3]
    no = run_check("rows_grouped_at_top", bad, params)
    assert no.status == "fail"
    assert no.evidence["out_of_place_rows"] == [4] and "row 3 lacks it" in no.explanation
    assert (
        run_check("rows_grouped_at_top", good, {**params, "color": "light blue 3"}).status == "fail"
    )  # min_rows 1
    by_text = run_check(
        "rows_grouped_at_top", good, {"property": "text", "column": "Owner", "text": "Ada"}
    )
    assert by_text.status == "pass"


def test_selector_error_is_status_error(report: tuple[Document, Document]) -> None:
    r = run_check("exists", report[0], {"target": "paragraph[["})
    assert r.status == "error" and "cannot parse selector" in r.explanation


def test_sub_items_skip_empty_paragraphs() -> None:
    doc = document(
        paragraph("a", "https://x.org", list_level=0),
        paragraph("gap", ""),
        paragraph("b", "fact", list_level=1),
        paragraph("c", "next", list_level=0),
        paragraph("d", "other"),
    )
    r = run_check("nested_under", doc, {"parent": {"text": "x.org"}, "children": ["fact"]})
    assert r.status == "pass"
    r2 = run_check("nested_under", doc, {"parent": {"text": "next"}})
    assert r2.status == "fail"


def test_google_docs_nested_lists_from_the_corpus(corpus: Path) -> None:
    from artifactcheck import load

    doc = load(corpus / "google" / "docs" / "gsgd_lists.json")
    item3 = {"text": "List item 3", "match": "equals"}
    deep = run_check(
        "nested_under",
        doc,
        {"parent": item3, "children": ["Sub list item 1", "Sub sub list item 1"]},
    )
    assert deep.status == "pass", deep.explanation
    assert len(deep.evidence["parents"][0]["sub_items"]) == 5
    direct = run_check(
        "nested_under",
        doc,
        {"parent": item3, "children": ["Sub sub list item 1"], "direct_only": True},
    )
    assert direct.status == "fail"
    assert (
        run_check(
            "nested_under", doc, {"parent": {"text": "List item 2", "match": "equals"}}
        ).status
        == "fail"
    )
    fmt = run_check(
        "format_is",
        doc,
        {"target": {"text": "Sublist item 2"}, "list": "numbered", "list_format": "lowerLetter"},
    )
    assert fmt.status == "pass"


def test_google_sheet_header_and_columns_from_the_corpus(corpus: Path) -> None:
    from artifactcheck import load

    doc = load(corpus / "google" / "sheets" / "sheetfu_table_values.json")
    ok = run_check("header_row", doc, {"row": 1, "headers": ["name", "surname", "age"]})
    assert ok.status == "pass", ok.explanation
    assert (
        run_check("header_row", doc, {"row": 1, "bold": True}).status == "fail"
    )  # not bold in this file
    cols = run_check("columns_match", doc, {"headers": ["Age", "Name"]})
    assert cols.status == "pass" and [m["column"] for m in cols.evidence["mapping"]] == ["C", "A"]


def test_count_each_slide_and_module(
    deck: tuple[Document, Document], report: tuple[Document, Document]
) -> None:
    good, _ = deck
    titles = {"each": "slide", "target": "shape[placeholder_type='title']", "exactly": 1}
    only_title = run_check("count_each", good, titles)
    assert (
        only_title.status == "fail" and only_title.evidence["containers"][0]["count"] == 0
    )  # a ctrTitle
    titles["target"] = "shape[placeholder_type='title'], shape[placeholder_type='ctrTitle']"
    assert run_check("count_each", good, titles).status == "pass"
    images = run_check("count_each", good, {"each": "slide", "target": "image", "at_least": 1})
    assert (
        images.status == "fail"
        and images.score == 0.0
        and images.evidence["containers"][0]["count"] == 0
    )
    bullets = run_check(
        "count_each", good, {"each": "slide", "target": "paragraph[list_level]", "at_least": 1}
    )
    assert bullets.status == "fail" and bullets.score == pytest.approx(1 / 3)
    assert (
        run_check(
            "count_each", report[0], {"each": "slide", "target": "paragraph", "at_least": 1}
        ).status
        == "fail"
    )


def test_sheet_checks_without_scope_skip_empty_sheets(sheet: tuple[Document, Document]) -> None:
    good, _ = sheet  # has an empty "Notes" sheet after "Tasks"
    r = run_check("header_row", good, {"row": 1, "bold": True})
    assert r.status == "pass" and [g["grid"] for g in r.evidence["grids"]] == ["Tasks"]
    empty = run_check("header_row", good, {"scope": "sheet[name='Notes']"})
    assert empty.status == "fail" and empty.evidence["grids"][0]["problems"] == ["no header row"]


def test_far_away_cell_does_not_blow_up_the_grid() -> None:
    from artifactcheck.model import Node

    cells = [
        ("A1", 1, 1, "Name"),
        ("B1", 1, 2, "Score"),
        ("A2", 2, 1, "Ada"),
        ("B2", 2, 2, "91"),
        ("XFD1048576", 1048576, 16384, "x"),
    ]
    sheet = Node(
        id="S",
        kind="sheet",
        attrs={"name": "S"},
        children=[
            Node(id=f"S!{ref}", kind="cell", text=t, attrs={"row": r, "col": c})
            for ref, r, c, t in cells
        ],
    )
    doc = document(sheet, fmt="xlsx")
    g = build_grid(doc.get("S"))
    assert g.row_numbers == [1, 2, 1048576] and g.col_numbers == [1, 2, 16384]
    assert g.col_label(2) == "XFD"
    r = run_check("columns_match", doc, {"headers": ["name", "score"]})
    assert r.status == "pass", r.explanation


def test_selector_groups_are_merged_in_document_order(report: tuple[Document, Document]) -> None:
    from artifactcheck.checks.target import select_union

    good, _ = report
    merged = select_union(good, "table, paragraph[heading_level='3'], paragraph[heading_level='1']")
    assert merged == good.select(
        "table, paragraph[heading_level='3'], paragraph[heading_level='1']"
    )
    assert [n.order for n in merged] == sorted(n.order for n in merged)
    assert select_union(good, "run[text*='a, b'], paragraph:contains('Thank you')") == good.select(
        "paragraph:contains('Thank you')"
    )
    bad = run_check("exists", good, {"target": "paragraph,,"})
    assert bad.status == "error" and "cannot parse selector" in bad.explanation


def test_numbers_in_labels_must_match() -> None:
    """'Module 2' is not 'Module 1: Basics', 'Sales 2024' is not 'Sales 2023'."""
    from artifactcheck.model import Node

    doc = document(
        paragraph("h1", "Module 1: Basics", heading_level=3),
        paragraph("h2", "Module 3: Extras", heading_level=3),
        Node(
            id="S",
            kind="sheet",
            attrs={"name": "S"},
            children=[
                Node(id=f"S!{ref}", kind="cell", text=t, attrs={"row": r, "col": c})
                for ref, r, c, t in [
                    ("A1", 1, 1, "Region"),
                    ("B1", 1, 2, "Sales 2023"),
                    ("A2", 2, 1, "North"),
                    ("B2", 2, 2, "5"),
                ]
            ],
        ),
    )
    r = run_check("heading_structure", doc, {"level": 3, "expected": ["Module 1", "Module 2"]})
    assert r.status == "fail" and [e["ok"] for e in r.evidence["expected"]] == [True, False]
    assert run_check("columns_match", doc, {"headers": ["sales 2023"]}).status == "pass"
    assert run_check("columns_match", doc, {"headers": ["sales 2024"]}).status == "fail"


@pytest.mark.slow
def test_count_page_on_a_docx_counts_the_printed_pages(tmp_path: Path) -> None:
    """"The document has 2 pages" written as ``count page``: a .docx tree has no page
    nodes, so this counted nothing and failed; it counts the rendered pages (how many
    the PDF has, read by pdfium, not by our tree), and is an ``error`` without a render."""
    import docx
    import pypdfium2

    from artifactcheck import load
    from artifactcheck.extractors.render import render_pdf

    d = docx.Document()
    d.add_paragraph("First page")
    d.add_page_break()
    d.add_paragraph("Second page")
    path = tmp_path / "two_pages.docx"
    d.save(str(path))
    printed = len(pypdfium2.PdfDocument(str(render_pdf(path).pdf_path)))
    assert printed == 2
    doc = load(path)
    assert run_check("count", doc, {"target": "page", "exactly": printed}).status == "pass"
    assert run_check("count", doc, {"target": "page", "exactly": 3}).status == "fail"
    assert run_check("count", doc, {"target": {"selector": "page", "text": "x"}, "at_least": 1}).status == "fail"
    unrendered = load(path, render=False)
    assert run_check("count", unrendered, {"target": "page", "exactly": 2}).status == "error"
