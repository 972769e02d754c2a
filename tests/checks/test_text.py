"""Text and number checks on real files, and the normalisers they rest on."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifactcheck import Document, run_check
from artifactcheck.checks.normalize import normalize_text, normalize_url, parse_date, parse_number
from artifactcheck.checks.text.numbers_dates import numbers_in_text
from tests.checks.office_docs import build_report_docx, build_sheet_xlsx, load_pair

H1 = "paragraph[heading_level='1']"


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_report_docx, tmp_path_factory.mktemp("text_docx"))


@pytest.fixture(scope="module")
def sheet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Document, Document]:
    return load_pair(build_sheet_xlsx, tmp_path_factory.mktemp("text_xlsx"))


# -- normalisers -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value", "percent"),
    [
        ("$1,234.50", 1234.5, False),
        ("(3.2)", -3.2, False),
        ("12%", 12.0, True),
        ("\u22125", -5.0, False),
        ("USD 1,000", 1000.0, False),
        ("1.5k", 1500.0, False),
        ("\u20ac 12", 12.0, False),
        ("1\u202f234", 1234.0, False),
        ("  42 ", 42.0, False),
    ],
)
def test_parse_number(text: str, value: float, percent: bool) -> None:
    parsed = parse_number(text)
    assert parsed is not None and parsed.value == value and parsed.percent == percent


@pytest.mark.parametrize("text", ["", "twelve", "1.2.3", "12 apples", "$", "1,23"])
def test_parse_number_rejects(text: str) -> None:
    assert parse_number(text) is None


def test_numbers_in_text() -> None:
    assert numbers_in_text("from 3 to 4.5%, cost $1,200 and (7)") == [3.0, 4.5, 1200.0, -7.0]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("https://www.example.com/a/", "http://example.com/a"),
        ("example.com/a?utm_source=x&utm_medium=y", "example.com/a"),
        ("https://example.com/a?b=2&a=1", "https://example.com/a?a=1&b=2"),
        ("https://example.com/a#section", "https://example.com/a"),
        ("https://EXAMPLE.com:443/%7Euser", "https://example.com/~user"),
        ("https://example.com/?fbclid=abc&gclid=1", "example.com"),
    ],
)
def test_normalize_url_equal(a: str, b: str) -> None:
    assert normalize_url(a) == normalize_url(b)


def test_normalize_url_keeps_what_identifies_the_page() -> None:
    assert normalize_url("example.com/a?id=1") != normalize_url("example.com/a?id=2")
    assert normalize_url("example.com/A") != normalize_url("example.com/a")
    assert normalize_url("https://x.org", keep_scheme=True) != normalize_url(
        "http://x.org", keep_scheme=True
    )
    assert normalize_url("https://x.org/#a", keep_fragment=True).endswith("#a")


@settings(deadline=None)
@given(
    st.decimals(
        min_value=-(10**12), max_value=10**12, places=2, allow_nan=False, allow_infinity=False
    )
)
def test_parse_number_reads_what_format_writes(value: object) -> None:
    """Any amount written with thousands separators, as currency, as an accounting
    negative or as a percentage reads back as the same number."""
    x = float(value)  # type: ignore[arg-type]
    plain = f"{x:,.2f}"
    assert parse_number(plain) is not None and parse_number(plain).value == pytest.approx(x)  # type: ignore[union-attr]
    money = f"${abs(x):,.2f}" if x >= 0 else f"(${abs(x):,.2f})"
    assert parse_number(money).value == pytest.approx(x)  # type: ignore[union-attr]
    pct = parse_number(f"{x:.2f}%")
    assert pct is not None and pct.percent and pct.fraction == pytest.approx(x / 100)


urls = st.builds(
    lambda scheme, www, host, path, query, frag: f"{scheme}://{www}{host}/{path}{query}{frag}",
    st.sampled_from(["http", "https", "HTTPS"]),
    st.sampled_from(["", "www.", "WWW."]),
    st.from_regex(r"[a-z]{1,10}\.(org|com|net)", fullmatch=True),
    st.from_regex(r"([A-Za-z0-9_~-]{1,8}/){0,3}", fullmatch=True),
    st.sampled_from(["", "?a=1", "?b=2&a=1", "?utm_source=x&id=3", "?fbclid=zz"]),
    st.sampled_from(["", "#top"]),
)


@settings(deadline=None)
@given(urls)
def test_normalize_url_is_idempotent_and_scheme_blind(url: str) -> None:
    once = normalize_url(url)
    assert normalize_url(once) == once
    assert normalize_url(url.replace("https://", "http://").replace("HTTPS://", "http://")) == once
    assert (
        "utm_" not in once
        and "fbclid" not in once
        and "#" not in once
        and not once.startswith("www.")
    )


def test_parse_date_formats() -> None:
    want = dt.date(2024, 3, 5)
    for text in (
        "2024-03-05",
        "March 5, 2024",
        "5 March 2024",
        "Mar 5th 2024",
        "03/05/2024",
        "2024-03-05T09:30:00Z",
    ):
        assert parse_date(text) == want, text
    assert parse_date("05/03/2024", dayfirst=True) == want
    assert parse_date("March 2024") is None and parse_date("soon") is None


def test_normalize_text() -> None:
    assert normalize_text("\u201cQuoted\u201d \u2014 text\u2026") == '"quoted" - text...'
    assert normalize_text("Stra\u00dfe") == normalize_text("STRASSE")
    assert normalize_text("A  B", case_sensitive=True) == "A B"


# -- checks -------------------------------------------------------------------------------


def test_text_equals_normalises_smart_quotes(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": H1, "expected": 'energy "report" - 2024'}
    assert run_check("text_equals", good, params).status == "pass"
    strict = run_check("text_equals", good, {**params, "typography": False})
    assert strict.status == "fail"
    no = run_check("text_equals", bad, params)
    assert no.status == "fail" and no.evidence["nodes"][0]["compared"] == "enrgy report 2024"


def test_text_similar_threshold(report: tuple[Document, Document]) -> None:
    _, bad = report
    params = {"target": H1, "expected": "Energy Report 2024", "threshold": 90}
    ok = run_check("text_similar", bad, params)
    assert ok.status == "pass" and 90 <= ok.evidence["nodes"][0]["similarity"] < 100
    no = run_check("text_similar", bad, {**params, "threshold": 99})
    assert no.status == "fail" and no.evidence["threshold"] == 99


def test_text_regex(report: tuple[Document, Document]) -> None:
    good, bad = report
    assert run_check("text_regex", good, {"target": H1, "pattern": r"^energy\b"}).status == "pass"
    assert run_check("text_regex", bad, {"target": H1, "pattern": r"^energy\b"}).status == "fail"
    bad_pattern = run_check("text_regex", good, {"pattern": "("})
    assert bad_pattern.status == "error"


def test_contains_and_excludes(report: tuple[Document, Document]) -> None:
    good, bad = report
    r = run_check(
        "text_contains", good, {"phrases": ["capacity doubled", "prices fell", "geothermal"]}
    )
    assert r.status == "fail" and r.score == pytest.approx(2 / 3)
    assert (
        run_check(
            "text_contains", good, {"phrases": ["geothermal", "prices fell"], "mode": "any"}
        ).status
        == "pass"
    )
    fuzzy = run_check("text_contains", bad, {"phrases": ["Energy Report"], "fuzzy_threshold": 90})
    assert fuzzy.status == "pass" and fuzzy.evidence["phrases"][0]["similarity"] < 100
    assert run_check("text_contains", bad, {"phrases": ["Energy Report"]}).status == "fail"
    assert run_check("text_excludes", good, {"phrases": ["lorem ipsum", "TODO"]}).status == "pass"
    ex = run_check("text_excludes", good, {"phrases": ["solar", "lorem"]})
    assert ex.status == "fail" and ex.score == 0.5
    whole = run_check("text_contains", good, {"phrases": ["sol"], "whole_words": True})
    assert whole.status == "fail"


def test_number_equals_in_text_with_tolerance(report: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"text": "Total"}, "expected": "$1,234.50"}
    ok = run_check("number_equals", good, params)
    assert ok.status == "pass" and ok.evidence["nodes"][0]["read_as"] == "in text"
    assert run_check("number_equals", bad, params).status == "fail"
    assert run_check("number_equals", bad, {**params, "abs_tol": 10}).status == "pass"
    assert run_check("number_equals", bad, {**params, "rel_tol": 0.01}).status == "pass"
    growth = {"target": {"text": "Growth"}, "expected": 0.12}
    assert run_check("number_equals", good, growth).status == "pass"  # 12% read as 0.12
    assert run_check("number_equals", good, {**growth, "expected": "12%"}).status == "pass"
    assert run_check("number_equals", good, {**growth, "expected": "abc"}).status == "error"


def test_number_equals_sheet_cell(sheet: tuple[Document, Document]) -> None:
    good, _ = sheet
    ok = run_check("number_equals", good, {"target": "cell[ref='C2']", "expected": 5})
    assert ok.status == "pass"
    no = run_check("number_equals", good, {"target": "cell[ref='C2']", "expected": 6})
    assert no.status == "fail" and "displayed: 5" in no.evidence["nodes"][0]["compared"]


def test_date_equals(report: tuple[Document, Document], sheet: tuple[Document, Document]) -> None:
    good, bad = report
    params = {"target": {"text": "Signed"}, "expected": "2024-03-05"}
    assert run_check("date_equals", good, params).status == "pass"
    no = run_check("date_equals", bad, params)
    assert no.status == "fail" and no.evidence["nodes"][0]["compared"] == ["in text: 2024-03-06"]
    assert (
        run_check(
            "date_equals", sheet[0], {"target": "cell[ref='D2']", "expected": "March 5, 2024"}
        ).status
        == "pass"
    )
    assert run_check("date_equals", good, {**params, "expected": "March"}).status == "error"


def test_link_present(report: tuple[Document, Document]) -> None:
    good, _ = report
    ok = run_check(
        "link_present", good, {"url": "http://example.org/report", "text": "full report"}
    )
    assert ok.status == "pass", ok.explanation
    assert ok.evidence["matches"][0]["normalized"] == "example.org/report"
    assert (
        run_check("link_present", good, {"url": "example.org/report", "text": "summary"}).status
        == "fail"
    )
    assert run_check("link_present", good, {"url": "example.org/other"}).status == "fail"
    typed = run_check("link_present", good, {"url": "https://example.com/facts"})
    assert typed.status == "pass" and typed.evidence["matches"][0]["kind"] == "text"
    assert (
        run_check(
            "link_present", good, {"url": "https://example.com/facts", "include_text_urls": False}
        ).status
        == "fail"
    )
    assert (
        run_check("link_present", good, {"url": "example.org", "match": "prefix"}).status == "pass"
    )


def test_formula_present(sheet: tuple[Document, Document]) -> None:
    good, bad = sheet
    params = {"target": "cell[ref='C6']", "function": "SUM"}
    ok = run_check("formula_present", good, params)
    assert ok.status == "pass" and ok.evidence["nodes"][0]["formula"] == "SUM(C2:C5)"
    no = run_check("formula_present", bad, params)
    assert no.status == "fail" and "value 11" in no.explanation
    assert (
        run_check("formula_present", bad, {"target": "cell[ref='C6']", "expect": "value"}).status
        == "pass"
    )
    assert run_check("formula_present", good, {**params, "function": "AVERAGE"}).status == "fail"
    assert (
        run_check("formula_present", good, {"target": "cell[ref='C6']", "pattern": r"C2:C5"}).status
        == "pass"
    )


def test_typed_url_split_over_runs_is_one_link() -> None:
    from artifactcheck.checks.examples import document, paragraph, run

    doc = document(
        paragraph(
            "p0",
            run("p0/r0", "see https://exam"),
            run("p0/r1", "ple.org/a", bold=True),
            run("p0/r2", " now"),
        ),
        paragraph(
            "p1",
            run("p1/r0", "linked", hyperlink="https://example.net/"),
            run("p1/r1", " and www.x.org"),
        ),
    )
    found = run_check("link_present", doc, {"url": "example.org/a"})
    assert found.status == "pass" and found.evidence["matches"][0]["ids"] == ["p0"]
    assert run_check("link_present", doc, {"url": "x.org"}).status == "pass"
    assert len(run_check("link_present", doc, {"url": "none.org"}).evidence["links"]) == 3


def test_evidence_is_capped_with_failures_first() -> None:
    from artifactcheck.checks.examples import document, paragraph

    doc = document(*[paragraph(f"p{i}", "match" if i != 700 else "other") for i in range(1000)])
    r = run_check(
        "text_equals", doc, {"target": "paragraph", "expected": "match", "quantifier": "all"}
    )
    assert r.status == "fail" and r.score == pytest.approx(0.999)
    assert r.evidence["nodes_total"] == 1000 and len(r.evidence["nodes"]) == 200
    assert r.evidence["nodes"][0]["id"] == "p700"
