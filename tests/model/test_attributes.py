"""The attribute reference (model/attributes.py) is complete and current: every attribute
the extractors emit on our fixtures and on a sample of the corpus is declared for its kind,
with a type and sources that cover what was emitted; design/attributes.md is the rendering
of the declarations; ``artifactcheck attrs`` prints them.

Set ARTIFACTCHECK_ATTRS_FULL_CORPUS=1 to check every corpus file instead of the sample.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import artifactcheck
from artifactcheck.cli import app
from artifactcheck.model.attribute_reference import MARKDOWN_PATH, describe, render_markdown
from artifactcheck.model.attributes import (
    ATTRIBUTES,
    EVERY_SOURCE,
    JSON_TYPES,
    PAGES,
    Attribute,
    sources_of,
)
from artifactcheck.model.node import NODE_KINDS
from tests.conftest import CORPUS, FIXTURES

DECLARATIONS = "artifactcheck/model/attributes.py"
REGENERATE = ".venv/bin/python -m artifactcheck.model.attribute_reference"

# Chosen (greedily, by new kind.attribute pairs per second of loading) to reach the
# attributes the fixtures do not; together ~9 s on one core (the three slowest files,
# adding one rare attribute each, were left out). Add a file here when a new
# attribute shows only in the corpus.
CORPUS_SAMPLE = [
    "docx/tika_testWORD_2006ml.docx",
    "docx/docling_textbox.docx",
    "docx/docx2python_run_styles.docx",
    "docx/poi_Bug54849.docx",
    "docx/pydocx_shp-inline-shape-access.docx",
    "docx/tika_testInstrLink.docx",
    "docx/poi_bug57031.docx",
    "docx/tika_017091.docx",
    "pptx/tika_testPPT_various2.pptx",
    "pptx/poi_EmbeddedVideo.pptx",
    "pptx/unstructured_sample-presentation.pptx",
    "pptx/pptx_ph-populated-placeholders.pptx",
    "pptx/pptx_shp-common-props.pptx",
    "pptx/poi_themes.pptx",
    "pptx/poi_shapes.pptx",
    "pptx/poi_stress022.pptx",
    "pptx/poi_smartart-simple.pptx",
    "pptx/poi_60810.pptx",
    "pptx/poi_au_asn_aes_Maloney.pptx",
    "xlsx/poi_simple-monthly-budget.xlsx",
    "xlsx/xlsxwriter_textbox01.xlsx",
    "xlsx/xlsxwriter_embed_image01.xlsx",
    "xlsx/xlsxwriter_unicode_shift_jis.xlsx",
    "xlsx/xlsxwriter_hyperlink04.xlsx",
    "xlsx/xlsxwriter_panes01.xlsx",
    "xlsx/poi_ConditionalFormattingSamples.xlsx",
    "xlsx/poi_stress024.xlsx",
    "xlsx/calamine_issue_261_fixed_by_excel.xlsx",
    "google/slides/mgs_presentations.get.json",
    "google/docs/gsgd_french.json",
    "google/docs/gsgd_breaks.json",
    "google/docs/gsgd_horizontal-rule.json",
    "google/sheets/gspread_test_hide_gridlines_7.json",
]
_OFFICE = (".docx", ".xlsx", ".pptx", ".xlsm", ".docm", ".pptm")
_OTHER_INPUTS = (".pdf", ".csv", ".odt", ".png")  # the task fixtures of the other inputs


def _fixture_files() -> list[Path]:
    found = [p for p in FIXTURES.rglob("*") if p.suffix in _OFFICE and "expected" not in p.parts]
    found += [p for p in FIXTURES.glob("tasks/*/*") if p.suffix in _OTHER_INPUTS]
    found += sorted((FIXTURES / "google").glob("*.json"))
    return sorted(found)


def _corpus_files() -> list[Path]:
    if not CORPUS.is_dir():
        return []
    if os.environ.get("ARTIFACTCHECK_ATTRS_FULL_CORPUS"):
        office = [p for p in CORPUS.rglob("*") if p.suffix in _OFFICE and "bad" not in p.parts]
        return sorted(office + sorted((CORPUS / "google").rglob("*.json")))
    return [CORPUS / name for name in CORPUS_SAMPLE if (CORPUS / name).is_file()]


def json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def _type_ok(value: object, declared: frozenset[str]) -> bool:
    t = json_type(value)
    return t in declared or (t == "integer" and "number" in declared)


def _declaration(kind: str, name: str, value: object, source: str) -> str:
    example = json.dumps(value, ensure_ascii=False, default=str)
    if len(example) > 60:
        example = "..."
    return (
        f'_a("{name}", "{json_type(value)}", "<one line: what it means to a rubric author>", '
        f"{example}, ({source.upper()},), unit=None),"
    )


def undeclared(doc: artifactcheck.Document, origin: str) -> list[str]:
    """One instruction per attribute of ``doc`` that the reference does not cover."""
    sources = sources_of(doc.artifact.format, doc.artifact.extracted_as)
    source = sources[-1]  # named in instructions: the extractor that built the node
    problems: dict[tuple[str, str], str] = {}
    items: list[tuple[str, str, dict[str, Any]]] = [(n.kind, n.id, n.attrs) for n in doc]
    items += [(PAGES, f"page {p.index}", p.attrs) for p in doc.pages]
    declared = {kind: {a.name: a for a in attrs} for kind, attrs in ATTRIBUTES.items()}
    for kind, where, attrs in items:
        for name, value in attrs.items():
            if (kind, name) in problems:
                continue
            attr: Attribute | None = declared.get(kind, {}).get(name)
            seen = f"{kind}.{name} = {json.dumps(value, default=str)[:80]} on {where} of {origin} ({source})"
            if attr is None:
                problems[kind, name] = (
                    f"{seen}: not declared. Add to the {kind!r} block of ATTRIBUTES in {DECLARATIONS}:\n"
                    f"        {_declaration(kind, name, value, source)}"
                )
            elif not _type_ok(value, attr.types):
                problems[kind, name] = (
                    f"{seen}: declared type is {attr.type!r}. In {DECLARATIONS}, {kind}.{name}: "
                    f'type="{attr.type}|{json_type(value)}" (or fix the extractor)'
                )
            elif not set(sources) & set(attr.sources):
                problems[kind, name] = (
                    f"{seen}: {source!r} is not among its sources {attr.sources}. In {DECLARATIONS}, "
                    f"add {source.upper()} to the sources of {kind}.{name}"
                )
    return list(problems.values())


def _load(path: Path) -> artifactcheck.Document:
    # Corpus documents without rendering (a cold LibreOffice run each would cost minutes
    # in CI); the fixtures render, so layout attributes are covered there.
    if CORPUS in path.parents and path.suffix == ".docx":
        return artifactcheck.load(path, render=False)
    return artifactcheck.load(path)


def _label(path: Path) -> str:
    for base in (FIXTURES, CORPUS):
        if base in path.parents:
            return f"{base.name}/{path.relative_to(base)}"
    return str(path)


@pytest.mark.parametrize("path", _fixture_files() + _corpus_files(), ids=_label)
def test_every_emitted_attribute_is_declared(path: Path) -> None:
    problems = undeclared(_load(path), _label(path))
    assert not problems, (
        f"{len(problems)} attribute(s) emitted but not in the attribute reference:\n  "
        + "\n  ".join(problems)
        + f"\nThen regenerate design/attributes.md: {REGENERATE}"
    )


def test_the_sample_reaches_the_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"corpus not found at {CORPUS}")
    missing = [n for n in CORPUS_SAMPLE if not (CORPUS / n).is_file()]
    assert not missing, f"corpus sample files gone: {missing}"


def test_a_new_attribute_gets_an_instruction_naming_file_block_and_line() -> None:
    doc = artifactcheck.load(FIXTURES / "google" / "sheets_parity.json")
    cell = next(doc.iter("cell"))
    cell.attrs["brand_new_flag"] = True
    (problem,) = undeclared(doc, "sheets_parity.json")
    assert "cell.brand_new_flag" in problem
    assert f"'cell' block of ATTRIBUTES in {DECLARATIONS}" in problem
    assert '_a("brand_new_flag", "boolean",' in problem and "(GSHEET,)" in problem


def test_a_wrong_type_and_a_new_source_are_reported() -> None:
    doc = artifactcheck.load(FIXTURES / "google" / "sheets_parity.json")
    cell = next(doc.iter("cell"))
    cell.attrs["ref"] = 3
    cell.attrs["merged_into"] = "x"  # declared for pptx only
    problems = "\n".join(undeclared(doc, "sheets_parity.json"))
    assert "cell.ref" in problems and "declared type is 'string'" in problems
    assert "cell.merged_into" in problems and "add GSHEET to the sources" in problems


# -- the declarations themselves ------------------------------------------------------
def _all() -> list[tuple[str, Attribute]]:
    return [(kind, a) for kind, attrs in ATTRIBUTES.items() for a in attrs]


def test_declared_kinds_are_node_kinds_or_pages() -> None:
    assert set(ATTRIBUTES) <= set(NODE_KINDS) | {PAGES}


def test_no_attribute_is_declared_twice_for_a_kind() -> None:
    for kind, attrs in ATTRIBUTES.items():
        names = [a.name for a in attrs]
        assert len(names) == len(set(names)), (kind, sorted({n for n in names if names.count(n) > 1}))


@pytest.mark.parametrize(("kind", "attr"), _all(), ids=lambda v: v if isinstance(v, str) else v.name)
def test_each_declaration_is_well_formed(kind: str, attr: Attribute) -> None:
    assert attr.types <= set(JSON_TYPES), attr.type
    assert _type_ok(attr.example, attr.types), f"{kind}.{attr.name}: example {attr.example!r} is not {attr.type}"
    assert attr.sources and set(attr.sources) <= set(EVERY_SOURCE)
    assert attr.meaning and "\n" not in attr.meaning
    assert attr.meaning.endswith("...") or not attr.meaning.endswith("."), "a meaning is one line, no full stop"


def test_design_attributes_md_is_current() -> None:
    assert MARKDOWN_PATH.read_text(encoding="utf-8") == render_markdown(), (
        f"design/attributes.md is stale: run {REGENERATE}"
    )


def test_the_reference_names_what_authors_look_for() -> None:
    text = MARKDOWN_PATH.read_text(encoding="utf-8")
    for wanted in ('run[field="PAGE"]', 'sheet[frozen_rows="1"]', 'cell[number_format="0.00%"]'):
        assert wanted in text


# -- the command ----------------------------------------------------------------------
runner = CliRunner()


def test_attrs_lists_every_kind() -> None:
    result = runner.invoke(app, ["attrs"])
    assert result.exit_code == 0, result.output
    assert "sheet (" in result.output and "frozen_rows" in result.output
    assert result.output.count("\n") > len(ATTRIBUTES)


def test_attrs_kind_prints_types_units_and_examples() -> None:
    result = runner.invoke(app, ["attrs", "cell"])
    assert result.exit_code == 0, result.output
    assert "cell.number_format: string  [xlsx, gsheet]" in result.output
    assert 'e.g. cell[number_format="0.00%"]' in result.output
    assert "cell.text_width_pt: number, pt" in result.output


def test_attrs_name_finds_it_in_every_kind() -> None:
    result = runner.invoke(app, ["attrs", "hyperlink"])
    assert result.exit_code == 0, result.output
    assert "run.hyperlink" in result.output and "cell.hyperlink" in result.output
    assert describe("run.field").startswith("run.field: string")


def test_attrs_json_is_the_reference_as_data() -> None:
    result = runner.invoke(app, ["attrs", "--json"])
    data = json.loads(result.output)
    assert {row["name"] for row in data["sheet"]} >= {"frozen_rows", "freeze_panes", "merges"}
    assert next(r for r in data["sheet"] if r["name"] == "merges")["selectable"] is False


def test_attrs_misspelt_says_did_you_mean() -> None:
    result = runner.invoke(app, ["attrs", "frozen_row"])
    assert result.exit_code == 2
    assert "did you mean frozen_rows" in result.output
