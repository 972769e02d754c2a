"""Every real Google API response of the corpus extracts, and the trees say what the
responses say. Skips when the corpus is absent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifactcheck import Document, load
from artifactcheck.extractors.google.responses import detect_api, response_from_cassette
from tests.conftest import CORPUS, corpus_files

FILES = (corpus_files("google/docs", ".json") + corpus_files("google/sheets", ".json")
         + corpus_files("google/slides", ".json") + corpus_files("google/sheets/cassettes", ".json"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_corpus_response_extracts_and_round_trips(path: Path) -> None:
    doc = load(path)
    assert doc.artifact.platform == "google"
    assert doc.root.kind == "document"
    again = Document.from_json(doc.to_json())
    assert [n.id for n in again] == [n.id for n in doc]
    expected = {"docs": "gdoc", "sheets": "gsheet", "slides": "gslides", "cassettes": "gsheet"}[path.parent.name]
    assert doc.artifact.format == expected


def _corpus(rel: str) -> Path:
    path = CORPUS / rel
    if not path.is_file():
        pytest.skip(f"{rel} not in the corpus")
    return path


def test_docs_lists_have_levels_and_glyph_kinds() -> None:
    doc = load(_corpus("google/docs/gsgd_lists.json"))
    items = doc.select("paragraph[list_level]")
    assert [p.attrs["list_level"] for p in items[:4]] == [0, 1, 1, 1]
    assert items[0].attrs["list_ordered"] is False and items[1].attrs["list_ordered"] is True
    bold = doc.select_one("run[bold=true]")
    assert bold is not None and bold.text == "item"
    assert doc.select("image")[0].attrs["width"] == pytest.approx(82.92, abs=0.01)


def test_docs_footnotes_and_headings() -> None:
    doc = load(_corpus("google/docs/gsgd_footnotes.json"))
    notes = doc.select("footnote")
    assert [n.text.strip() for n in notes] == ["Footnote 1 description", "Footnote 2 description"]
    refs = doc.select("run[footnote_ref]")
    assert [r.text for r in refs] == ["1", "2"]
    texts = load(_corpus("google/docs/gsgd_texts.json"))
    headings = texts.select("paragraph[heading_level]")
    assert headings and all(isinstance(h.attrs["heading_level"], int) for h in headings)
    links = texts.select("run[hyperlink]")
    assert links and all(str(r.attrs["hyperlink"]).startswith(("http", "#", "mailto")) for r in links)


def test_slides_geometry_groups_tables_charts_video_line() -> None:
    doc = load(_corpus("google/slides/mgs_presentations.get.json"))
    assert len(doc.pages) == 5 and doc.pages[0].width == pytest.approx(720) and doc.pages[0].height == pytest.approx(405)
    group = doc.select_one("group")
    assert group is not None and len(group.children) == 2
    kid_union = group.children[0].box.union(group.children[1].box)  # type: ignore[union-attr]
    assert group.box == kid_union
    # translateX 311700 EMU = 24.54 pt; 3000000 EMU * 2.8402 = 670.9 pt wide
    title = doc.get("s1/g3d3c9b9f9a_0_7")
    assert title.box is not None and title.box.x0 == pytest.approx(24.543, abs=0.01)
    assert title.box.width == pytest.approx(3000000 * 2.8402 / 12700, abs=0.01)
    table = doc.select_one("table")
    assert table is not None and table.attrs["rows"] == 4
    merged = doc.select_one("cell[col_span='2']")
    assert merged is not None and merged.text == "Merged cells 0.0, 0.1"
    assert len(doc.select("chart")) == 2 and doc.select_one("media[video_source='YOUTUBE']") is not None
    line = doc.select_one("shape[shape_type='line']")
    assert line is not None and line.box is not None and line.box.polygon is not None  # sheared
    # theme colour resolved through the master: the body text is DARK2-ish grey, not None
    body = doc.get("s1/g3d3c9b9f9a_0_8/p0/r0")
    assert body.style is not None and body.style.color == "#434343" and body.style.size == 14


def test_slides_placeholders_inherit_from_layout_and_master() -> None:
    doc = load(_corpus("google/slides/mgs_presentations.get.json"))
    title = doc.get("s0/i0/p0/r0")  # CENTERED_TITLE, no size of its own: 52 pt from the layout
    assert title.style is not None and title.style.size == 52 and title.style.font == "Arial"
    number = doc.select_one("shape[placeholder_type='sldNum'] run")
    assert number is not None and number.style is not None and number.style.size == 10


def test_sheets_grid_data_values_formats_sizes() -> None:
    doc = load(_corpus("google/sheets/timmit147_includeGridData.json"))
    a1 = doc.get("Hoofdpagina!A1")
    assert a1.text == "Title" and a1.attrs["value"] == "Title" and a1.attrs["ref"] == "A1"
    assert a1.style is not None and a1.style.font == "Arial" and a1.style.size == 10
    assert a1.box is not None and a1.box.width == pytest.approx(100 * 0.75) and a1.box.height == pytest.approx(21 * 0.75)


def test_sheets_metadata_merges_frozen_hidden_protected_filters() -> None:
    merged = load(_corpus("google/sheets/gspread_test_get_merge_cells_and_unmerge_cells_10.json"))
    assert merged.select_one("sheet").attrs["merges"][0] == "A1:B2"  # type: ignore[union-attr]
    frozen = load(_corpus("google/sheets/gspread_test_freeze_8.json")).select_one("sheet")
    assert frozen is not None and (frozen.attrs["frozen_rows"], frozen.attrs["frozen_cols"]) == (2, 1)
    hidden = load(_corpus("google/sheets/gspread_test_hide_show_worksheet_9.json"))
    assert [p.hidden for p in hidden.pages] == [False, True]
    prot = load(_corpus("google/sheets/gspread_test_add_protected_range_warning_5.json")).select_one("sheet")
    assert prot is not None and prot.attrs["protected_ranges"][0]["warning_only"] is True  # type: ignore[index]
    filt = load(_corpus("google/sheets/gspread_test_basic_filters_7.json")).select_one("sheet")
    assert filt is not None and filt.attrs["filter"] == "A1:T20"
    named = load(_corpus("google/sheets/gspread_test_get_values_merge_cells_with_named_range_10.json"))
    assert named.root.attrs["named_ranges"]


def test_cassettes_hold_usable_spreadsheets_get_responses() -> None:
    files = corpus_files("google/sheets/cassettes", ".json")
    if not files:
        pytest.skip("no cassettes in the corpus")
    for path in files:
        inner = response_from_cassette(json.loads(path.read_text(encoding="utf-8")))
        assert inner is not None and detect_api(inner) == "spreadsheet", path.name
    fmt = load(_corpus("google/sheets/cassettes/gspread_WorksheetTest.test_format.json"))
    cell = fmt.select_one("cell")
    assert cell is not None and cell.style is not None and cell.style.bold is True and cell.style.size == 12


@pytest.mark.parametrize("data", [
    {"documentId": "x", "body": {"content": [{"paragraph": {"elements": [5]}}]}},
    {"documentId": "x", "body": {"content": [{"table": {"tableRows": [{"tableCells": [None]}]}}]}},
    {"spreadsheetId": "x", "sheets": [{"properties": {"gridProperties": {"rowCount": "many"}}}]},
    {"spreadsheetId": "x", "sheets": [{"data": [{"rowData": [{"values": [{"effectiveValue": {"numberValue": "n/a"}}]}]}]}]},
    {"presentationId": "x", "slides": [{"pageElements": [{"size": {"width": {"magnitude": "wide"}}, "shape": {}}]}]},
    {"presentationId": "x", "pageSize": 5, "slides": []},
])
def test_malformed_responses_are_corrupt_artifacts_not_tracebacks(data: dict, tmp_path: Path) -> None:
    from artifactcheck.errors import CorruptArtifact

    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CorruptArtifact, match=r"bad\.json: malformed (document|spreadsheet|presentation) response"):
        load(path)
