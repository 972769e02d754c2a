"""The registry contract for every check this layer defines: parameter models forbid
unknown options, summaries and doctests exist, examples validate, wrong artifacts never
raise, and ``artifactcheck checks`` lists everything from the registry."""

from __future__ import annotations

import json

import pytest
from pydantic import BaseModel, ConfigDict
from typer.testing import CliRunner

from artifactcheck import CheckResult, Document, Resources, RubricError, run_check
from artifactcheck.checks.catalog import catalog
from artifactcheck.checks.examples import tiny_doc
from artifactcheck.checks.registry import _REGISTRY, all_checks, register_check
from artifactcheck.cli import app
from tests.checks.office_docs import build_deck_pptx, build_report_docx, build_sheet_xlsx

MINE = (
    "query.selection",
    "query.outline",
    "query.structure",
    "query.tables",
    "text.matching",
    "text.numbers_dates",
    "text.links",
    "text.formulas",
    "formatting",
    "color",
    "trace",
)


def my_checks() -> list:  # type: ignore[type-arg]
    return [s for s in all_checks() if s.function.__module__.removeprefix("artifactcheck.checks.") in MINE]


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    from artifactcheck import load

    path = tmp_path_factory.mktemp("registry")
    files = [
        build_report_docx(path, good=False),
        build_sheet_xlsx(path, good=False),
        build_deck_pptx(path, good=False),
    ]
    return [tiny_doc()] + [load(f, render=False) for f in files]


def test_every_family_is_registered() -> None:
    names = {s.name for s in my_checks()}
    assert {
        "exists",
        "count",
        "order",
        "position",
        "nested_under",
        "heading_structure",
        "structure",
        "header_row",
        "columns_match",
        "rows_grouped_at_top",
        "text_equals",
        "text_regex",
        "text_similar",
        "text_contains",
        "text_excludes",
        "number_equals",
        "date_equals",
        "link_present",
        "formula_present",
        "format_is",
        "only_formatted",
        "color_is",
        "color_classified_as",
        "colors_distinct",
        "visited",
        "cited_links_visited",
    } <= names


@pytest.mark.parametrize("spec", my_checks(), ids=lambda s: s.name)
def test_check_contract(spec) -> None:  # type: ignore[no-untyped-def]
    assert spec.params.model_config.get("extra") == "forbid", spec.name
    assert spec.summary and spec.summary[0].isupper() and len(spec.summary) < 140
    assert ">>>" in (spec.function.__doc__ or ""), f"{spec.name} has no doctest example"
    assert spec.example is not None
    spec.params.model_validate(spec.example)  # the listed example is valid
    bogus = run_check(spec.name, tiny_doc(), {**spec.example, "no_such_option": 1})
    assert bogus.status == "error" and "no_such_option" in bogus.explanation


@pytest.mark.parametrize("spec", my_checks(), ids=lambda s: s.name)
def test_examples_never_error_on_any_artifact(spec, artifacts: list[Document]) -> None:  # type: ignore[no-untyped-def]
    """A wrong artifact gives pass/fail/skipped with an explanation, never an error."""
    for doc in artifacts:
        for res in (Resources(), Resources(trace=["https://example.org/report"])):
            r = run_check(spec.name, doc, spec.example, res)
            assert r.status in ("pass", "fail", "skipped"), (
                spec.name,
                doc.artifact.format,
                r.explanation,
            )
            assert r.explanation
            assert r.params  # the resolved parameters are recorded
            json.dumps(r.model_dump(mode="json"))


def test_bad_parameters_are_explained_as_a_rubric_author_would_fix_them() -> None:
    """run_check words a parameter mistake as rubric loading does, not as pydantic's report."""
    doc = tiny_doc()
    misspelt = run_check("text_contains", doc, {"phrase": ["x"]})
    assert misspelt.status == "error"
    assert misspelt.explanation == "invalid parameters: check 'text_contains' has no parameter 'phrase'; did you mean 'phrases'?"
    assert misspelt.error is not None and misspelt.error["type"] == "ValidationError"  # the details stay
    unknown = run_check("text_contains", doc, {"text": "x"})
    assert "has no parameter 'text'; it takes " in unknown.explanation and "phrases" in unknown.explanation
    wrong_type = run_check("text_contains", doc, {"phrases": "x"})
    assert wrong_type.explanation == (
        "invalid parameters: parameter 'phrases' of check 'text_contains': Input should be a valid list (got 'x')"
    )
    unbounded = run_check("image_size", doc, {"target": "image"})  # every image would pass
    assert unbounded.status == "error" and unbounded.explanation.startswith(
        "invalid parameters: check 'image_size': image_size needs at least one bound"
    ), unbounded.explanation


def test_run_check_turns_exceptions_into_errors() -> None:
    class P(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def boom(doc: Document, params: P, resources: Resources) -> CheckResult:
        """Raises."""
        raise RuntimeError("kaboom")

    register_check("_test_raises", mechanism="exact", params=P, example={})(boom)
    try:
        r = run_check("_test_raises", tiny_doc(), {})
        assert r.status == "error" and r.error is not None and r.error["type"] == "RuntimeError"
        with pytest.raises(ValueError, match="registered twice"):
            register_check("_test_raises", mechanism="exact", params=P)(boom)
    finally:
        _REGISTRY.pop("_test_raises", None)  # other tests list every registered check
    with pytest.raises(RubricError, match="unknown check 'text_contain'; did you mean 'text_contains'"):
        run_check("text_contain", tiny_doc(), {})


def test_evidence_that_is_not_json_is_an_error_of_that_step_only() -> None:
    """A check that writes a tuple into its evidence after building its result (no
    validation then) is that step's ``error``; the rest of the rubric is still scored."""
    from artifactcheck.rubric import check, rubric, score

    class P(BaseModel):
        model_config = ConfigDict(extra="forbid")

    def tuple_evidence(doc: Document, params: P, resources: Resources) -> CheckResult:
        """Measures a size."""
        r = CheckResult(check="_test_tuple_evidence", status="pass", mechanism="exact")
        r.evidence["size"] = (640, 480)  # type: ignore[assignment]
        return r

    register_check("_test_tuple_evidence", mechanism="exact", params=P, example={})(tuple_evidence)
    try:
        r = run_check("_test_tuple_evidence", tiny_doc(), {})
        assert r.status == "error" and r.score is None and "evidence is not JSON" in r.explanation
        report = score(tiny_doc(), rubric("t", [check("size", "_test_tuple_evidence", {}),
                                                check("any", "exists", {"target": "paragraph"})]))
        statuses = {s.id: s.status for s in report.steps}
        assert statuses == {"size": "error", "any": "pass"}, statuses
    finally:
        _REGISTRY.pop("_test_tuple_evidence", None)


def test_catalog_lists_parameters_with_types_and_defaults() -> None:
    entries = {c["name"]: c for c in catalog()}
    fmt = {p["name"]: p for p in entries["format_is"]["parameters"]}
    assert fmt["target"]["required"] and fmt["target"]["type"].startswith("Target")
    assert fmt["size_tolerance"]["default"] == 0.5 and fmt["size_tolerance"]["type"] == "float"
    assert fmt["bold"]["type"] == "bool | null"
    contains = {p["name"]: p for p in entries["text_contains"]["parameters"]}
    assert contains["scope"]["default"] == {"selector": "document"}
    assert contains["mode"]["type"] == '"all" | "any"'
    assert entries["visited"]["mechanism"] == "trace"


def test_cli_checks_command() -> None:
    runner = CliRunner()
    out = runner.invoke(app, ["checks", "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert {c["name"] for c in data} >= {s.name for s in my_checks()}
    assert all(
        {"name", "mechanism", "description", "parameters", "example"} <= set(c) for c in data
    )
    text = runner.invoke(app, ["checks", "format_is"])
    assert text.exit_code == 0
    assert (
        "format_is  [exact; tolerance when size or color or highlight or fill is given]  step type: formatting" in text.output and "size_tolerance: float (default 0.5)" in text.output
    )
    assert "only_formatted" not in text.output


def test_doctests_of_my_modules_pass() -> None:
    """The doctests also run under --doctest-modules; this keeps them honest when the
    suite is run on tests/ only."""
    import doctest
    import importlib

    for name in (
        "query.selection",
        "query.outline",
        "query.structure",
        "query.tables",
        "text.matching",
        "text.numbers_dates",
        "text.links",
        "text.formulas",
        "formatting",
        "color",
        "trace",
        "normalize",
        "target",
        "query.grid",
        "catalog",
    ):
        module = importlib.import_module(f"artifactcheck.checks.{name}")
        result = doctest.testmod(
            module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
        )
        assert result.failed == 0, name
        assert result.attempted > 0 or name == "target", name


CORPUS_SAMPLE = [
    "xlsx/xlsxwriter_comment03.xlsx",  # a cell in XFD1048576: a dense grid ran out of memory
    "docx/tika_testWORD_various.docx",
    "pptx/poi_table_test2.pptx",
    "google/docs/gsgd_tables.json",
    "google/sheets/gspread_test_format_6.json",
]


@pytest.mark.parametrize("name", CORPUS_SAMPLE)
def test_examples_never_error_on_corpus_files(name: str, corpus) -> None:  # type: ignore[no-untyped-def]
    """Other people's files: every check of this layer decides or skips, never errors.
    (A sweep over 116 corpus files found the grid problem above; these are a sample.)"""
    from artifactcheck import load

    path = corpus / name
    if not path.is_file():
        pytest.skip(f"{name} not in this corpus")
    doc = load(path, render=False) if path.suffix == ".docx" else load(path)
    for spec in my_checks():
        r = run_check(spec.name, doc, spec.example, Resources(trace=["https://example.org"]))
        assert r.status in ("pass", "fail", "skipped"), (spec.name, r.explanation)


def test_committed_check_index_is_current() -> None:
    """checks/_index.py names the module of every built-in check (lookups import only
    that module): regenerate with python -m artifactcheck.checks.check_index."""
    from artifactcheck.checks.check_index import INDEX_PATH, current_index, render_index

    assert INDEX_PATH.read_text(encoding="utf-8") == render_index(current_index()), "run python -m artifactcheck.checks.check_index"
