"""Browsing-trace checks and the trace loader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from artifactcheck import Document, Resources, UnsupportedFormat, run_check
from artifactcheck.checks.trace import load_trace, parse_trace
from tests.checks.office_docs import build_report_docx, load_pair

VISITS = [
    "https://www.example.org/report?utm_source=newsletter&fbclid=xyz",
    "http://example.com/facts/",
    "https://en.wikipedia.org/wiki/Solar_power#History",
]


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_report_docx, tmp_path_factory.mktemp("trace_docx"))


def test_load_trace_formats(tmp_path: Path) -> None:
    want = ["https://a.org/x", "https://b.org/"]
    (tmp_path / "list.json").write_text(json.dumps(want))
    (tmp_path / "objects.json").write_text(
        json.dumps({"visited": [{"url": want[0], "t": 1}, {"href": want[1]}]})
    )
    har = {
        "log": {
            "version": "1.2",
            "entries": [{"request": {"method": "GET", "url": u}} for u in want],
        }
    }
    (tmp_path / "trace.har").write_text(json.dumps(har))
    (tmp_path / "trace.jsonl").write_text("\n".join(json.dumps({"url": u}) for u in want) + "\n")
    (tmp_path / "trace.txt").write_text("# visited\n" + "\n".join(want) + "\n\n")
    for name in ("list.json", "objects.json", "trace.har", "trace.jsonl", "trace.txt"):
        assert load_trace(tmp_path / name) == want, name


def test_load_trace_rejects_garbage(tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text(json.dumps({"nothing": 1}))
    with pytest.raises(UnsupportedFormat, match="bad.json"):
        load_trace(tmp_path / "bad.json")
    with pytest.raises(UnsupportedFormat):
        load_trace(tmp_path / "missing.json")
    with pytest.raises(ValueError):
        parse_trace(42)


def test_visited_with_normalisation_globs_and_regex(report: tuple[Document, Document]) -> None:
    doc = report[0]
    res = Resources(trace=VISITS)
    ok = run_check(
        "visited",
        doc,
        {
            "required": [
                "https://example.org/report",
                "*.wikipedia.org/wiki/solar*",
                "re:wikipedia\\.org/wiki/Solar",
            ]
        },
        res,
    )
    assert ok.status == "pass", ok.explanation
    assert [r["kind"] for r in ok.evidence["required"]] == ["url", "glob", "regex"]
    no = run_check(
        "visited",
        doc,
        {"required": ["https://example.org/report", "https://example.org/pricing"]},
        res,
    )
    assert no.status == "fail" and no.score == 0.5 and "pricing" in no.explanation
    assert (
        run_check(
            "visited",
            doc,
            {"required": ["https://example.org/pricing", "example.com/facts"], "mode": "any"},
            res,
        ).status
        == "pass"
    )
    assert (
        run_check(
            "visited", doc, {"required": ["en.wikipedia.org/wiki"], "match": "prefix"}, res
        ).status
        == "pass"
    )
    assert run_check("visited", doc, {"required": ["en.wikipedia.org/wiki"]}, res).status == "fail"


def test_without_trace_the_outcome_is_needs_trace(report: tuple[Document, Document]) -> None:
    for name, params in (("visited", {"required": ["example.org"]}), ("cited_links_visited", {})):
        r = run_check(name, report[0], params)
        assert r.status == "skipped" and r.needs_trace and r.score is None


def test_every_cited_link_was_visited(report: tuple[Document, Document]) -> None:
    good, _ = report
    ok = run_check(
        "cited_links_visited", good, {}, Resources(trace=VISITS + ["https://example.net/more"])
    )
    assert ok.status == "pass", ok.explanation
    # the hyperlink, the URL bullets and the URL typed in "Sources: see www.example.com/facts"
    assert ok.evidence["cited"] == 3
    no = run_check("cited_links_visited", good, {}, Resources(trace=VISITS))
    assert (
        no.status == "fail"
        and no.score == pytest.approx(2 / 3)
        and "example.net/more" in no.explanation
    )
    links_only = run_check(
        "cited_links_visited", good, {"include_text_urls": False}, Resources(trace=VISITS)
    )
    assert links_only.status == "pass" and links_only.evidence["cited"] == 1
    ignored = run_check(
        "cited_links_visited", good, {"ignore": ["*example.net*"]}, Resources(trace=VISITS)
    )
    assert ignored.status == "pass"


def test_no_cited_links_is_not_a_vacuous_pass() -> None:
    from artifactcheck.checks.examples import document, paragraph

    doc = document(paragraph("p0", "No links here."))
    r = run_check("cited_links_visited", doc, {}, Resources(trace=VISITS))
    assert r.status == "fail" and "cites 0 link" in r.explanation
    assert (
        run_check("cited_links_visited", doc, {"min_links": 0}, Resources(trace=VISITS)).status
        == "pass"
    )
