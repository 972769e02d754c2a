"""Text and number checks: normalised equality, regex, fuzzy similarity, contains /
excludes, numbers and dates read from displayed text, links with URL normalisation, and
"formula, not a typed-in value" for spreadsheet cells.

Each check reads the text of the nodes its target names (``target.py``). Evidence always
holds the text actually compared (normalised), so a failure shows what was there.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from ..model import Document, Node
from .normalize import (
    ParsedNumber,
    excel_serial_to_date,
    normalize_text,
    normalize_url,
    numbers_close,
    parse_date,
    parse_number,
    urls_in_text,
)
from .registry import Resources, register_check
from .result import CheckResult
from .target import (
    Target,
    TargetSpec,
    cached,
    cap_rows,
    hyperlink_groups,
    no_match,
    node_ref,
    select_targets,
)

_EXCERPT = 120


def _excerpt(text: str) -> str:
    return text if len(text) <= _EXCERPT else text[: _EXCERPT - 3] + "..."


class TextOptions(BaseModel):
    """How text is normalised before comparing (see ``normalize.normalize_text``)."""

    model_config = ConfigDict(extra="forbid")

    case_sensitive: bool = False
    collapse_whitespace: bool = True
    typography: bool = Field(default=True, description="smart quotes, dashes, ellipsis, odd spaces")
    unicode_forms: bool = Field(default=True, description="Unicode NFKC")

    def norm(self, text: str) -> str:
        return normalize_text(
            text,
            case_sensitive=self.case_sensitive,
            collapse_whitespace=self.collapse_whitespace,
            typography=self.typography,
            unicode_forms=self.unicode_forms,
        )


def _document_target() -> Target:
    return Target(selector="document")


def _verdict(
    name: str,
    mechanism: Any,
    rows: list[dict[str, Any]],
    quantifier: str,
    what: str,
    **evidence: Any,
) -> CheckResult:
    """Pass/fail over per-node rows with an ``ok`` key; ``any``: one suffices (score 0/1),
    ``all``: every node (score = fraction)."""
    ok = sum(1 for r in rows if r["ok"])
    if quantifier == "all":
        passed, score = ok == len(rows), ok / len(rows)
    else:
        passed, score = ok > 0, float(ok > 0)
    explanation = f"{ok}/{len(rows)} target node(s) {what}"
    if not passed:
        bad = next(r for r in rows if not r["ok"])
        explanation += f"; e.g. {bad['id']}: {bad.get('compared', bad.get('text'))!r}"
    return CheckResult(
        check=name,
        status="pass" if passed else "fail",
        mechanism=mechanism,
        score=score,
        explanation=explanation,
        evidence={"nodes": cap_rows(rows), "nodes_total": len(rows), **evidence},
    )


# -- equality, regex, similarity -----------------------------------------------------------


class TextEqualsParams(TextOptions):
    """Parameters of ``text_equals``."""

    target: TargetSpec
    expected: str
    quantifier: Literal["any", "all"] = "any"


@register_check(
    "text_equals",
    mechanism="exact",
    params=TextEqualsParams,
    example={"target": "paragraph[heading_level='1']", "expected": "Energy Report"},
)
def text_equals(doc: Document, params: TextEqualsParams, resources: Resources) -> CheckResult:
    """The target's text equals the expected text after normalisation (case, whitespace, Unicode, smart quotes).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("text_equals", tiny_doc(), {"target": "paragraph[heading_level='1']",
    ...                                       "expected": "ENERGY  report"}).status
    'pass'
    """
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("text_equals", params.target, "exact", nodes=[])
    want = params.norm(params.expected)
    rows = [
        {
            **node_ref(n),
            "compared": _excerpt(params.norm(n.text)),
            "ok": params.norm(n.text) == want,
        }
        for n in nodes
    ]
    return _verdict(
        "text_equals", "exact", rows, params.quantifier, f"equal {want!r}", expected=want
    )


class TextRegexParams(BaseModel):
    """Parameters of ``text_regex``."""

    model_config = ConfigDict(extra="forbid")

    target: TargetSpec = Field(default_factory=_document_target)
    pattern: str
    ignore_case: bool = True
    full_match: bool = False
    quantifier: Literal["any", "all"] = "any"


@register_check(
    "text_regex",
    mechanism="exact",
    params=TextRegexParams,
    example={
        "target": "cell",
        "pattern": r"^\d{4}-\d{2}-\d{2}$",
        "full_match": True,
        "quantifier": "all",
    },
)
def text_regex(doc: Document, params: TextRegexParams, resources: Resources) -> CheckResult:
    """The target's text matches a regular expression (Python syntax; search unless full_match).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("text_regex", tiny_doc(), {"pattern": r"report\\b"}).status
    'pass'
    """
    regex = re.compile(params.pattern, (re.IGNORECASE if params.ignore_case else 0) | re.MULTILINE)
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("text_regex", params.target, "exact", nodes=[])
    rows = []
    for n in nodes:
        text = normalize_text(n.text, case_sensitive=True, collapse_whitespace=False)
        m = regex.fullmatch(text.strip()) if params.full_match else regex.search(text)
        rows.append(
            {**node_ref(n), "ok": m is not None, "matched": m.group(0)[:_EXCERPT] if m else None}
        )
    return _verdict(
        "text_regex",
        "exact",
        rows,
        params.quantifier,
        f"match /{params.pattern}/",
        pattern=params.pattern,
    )


Scorer = Literal["ratio", "partial_ratio", "token_sort_ratio", "token_set_ratio", "WRatio"]


class TextSimilarParams(TextOptions):
    """Parameters of ``text_similar``."""

    target: TargetSpec
    expected: str
    threshold: float = Field(default=85.0, ge=0, le=100, description="rapidfuzz score, 0-100")
    scorer: Scorer = "ratio"
    quantifier: Literal["any", "all"] = "any"


@register_check(
    "text_similar",
    mechanism="tolerance",
    params=TextSimilarParams,
    example={
        "target": "paragraph[heading_level='1']",
        "expected": "Energy reprot",
        "threshold": 85,
    },
)
def text_similar(doc: Document, params: TextSimilarParams, resources: Resources) -> CheckResult:
    """The target's text is similar to the expected text (rapidfuzz score >= threshold, 0-100).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> r = run_check("text_similar", tiny_doc(), {"target": "paragraph[heading_level='1']",
    ...                                            "expected": "Energy reprot"})
    >>> r.status, r.evidence["nodes"][0]["similarity"]
    ('pass', 92.31)
    """
    scorer = getattr(fuzz, params.scorer)
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("text_similar", params.target, "tolerance", nodes=[])
    want = params.norm(params.expected)
    rows = []
    for n in nodes:
        got = params.norm(n.text)
        sim = float(scorer(want, got))
        rows.append(
            {
                **node_ref(n),
                "compared": _excerpt(got),
                "similarity": round(sim, 2),
                "ok": sim >= params.threshold,
            }
        )
    result = _verdict(
        "text_similar",
        "tolerance",
        rows,
        params.quantifier,
        f"score >= {params.threshold} ({params.scorer}) against {want!r}",
        threshold=params.threshold,
        scorer=params.scorer,
    )
    return result


# -- contains / excludes ----------------------------------------------------------------------


class TextContainsParams(TextOptions):
    """Parameters of ``text_contains`` and ``text_excludes``."""

    scope: TargetSpec = Field(
        default_factory=_document_target, description="where to look (default: the whole document)"
    )
    phrases: list[str] = Field(min_length=1)
    mode: Literal["all", "any"] = "all"
    fuzzy_threshold: float | None = Field(
        default=None,
        ge=0,
        le=100,
        description="accept near matches (rapidfuzz partial_ratio) at this score",
    )
    whole_words: bool = False


def _find_phrase(
    phrase: str, texts: list[tuple[Node, str]], params: TextContainsParams
) -> dict[str, Any]:
    want = params.norm(phrase)
    best: dict[str, Any] = {"phrase": phrase, "found": False}
    for node, text in texts:
        if params.whole_words:
            hit = re.search(r"(?<!\w)" + re.escape(want) + r"(?!\w)", text) is not None
        else:
            hit = want in text
        if hit:
            return {"phrase": phrase, "found": True, "node": node.id, "similarity": 100.0}
        if params.fuzzy_threshold is not None and want:
            al = fuzz.partial_ratio_alignment(want, text)
            if (
                al is not None
                and al.score >= params.fuzzy_threshold
                and al.score > best.get("similarity", -1)
            ):
                best = {
                    "phrase": phrase,
                    "found": True,
                    "node": node.id,
                    "similarity": round(al.score, 2),
                    "matched": text[al.dest_start : al.dest_end],
                }
    return best


def _scope_texts(doc: Document, params: TextContainsParams) -> list[tuple[Node, str]]:
    return [(n, params.norm(n.text)) for n in select_targets(doc, params.scope)]


@register_check(
    "text_contains",
    mechanism="exact",
    params=TextContainsParams,
    example={"phrases": ["solar", "wind"], "mode": "all"},
)
def text_contains(doc: Document, params: TextContainsParams, resources: Resources) -> CheckResult:
    """The scope's text contains the phrases (all or any), optionally with fuzzy matching.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> r = run_check("text_contains", tiny_doc(), {"phrases": ["solar", "geothermal"]})
    >>> r.status, r.score
    ('fail', 0.5)
    """
    texts = _scope_texts(doc, params)
    found = [_find_phrase(p, texts, params) for p in params.phrases]
    hits = sum(1 for f in found if f["found"])
    n = len(found)
    passed = hits == n if params.mode == "all" else hits > 0
    missing = [f["phrase"] for f in found if not f["found"]]
    mech: Any = "tolerance" if params.fuzzy_threshold is not None else "exact"
    return CheckResult(
        check="text_contains",
        status="pass" if passed else "fail",
        mechanism=mech,
        score=hits / n if params.mode == "all" else float(passed),
        explanation=f"{hits}/{n} phrase(s) found in {len(texts)} node(s)"
        + (f"; missing: {missing[:5]}" if missing else ""),
        evidence={"phrases": found, "scope_nodes": len(texts)},
    )


@register_check(
    "text_excludes",
    mechanism="exact",
    params=TextContainsParams,
    example={"phrases": ["lorem ipsum", "TODO"]},
)
def text_excludes(doc: Document, params: TextContainsParams, resources: Resources) -> CheckResult:
    """The scope's text contains none of the phrases (mode all) or not every one of them (mode any).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("text_excludes", tiny_doc(), {"phrases": ["lorem ipsum"]}).status
    'pass'
    """
    texts = _scope_texts(doc, params)
    found = [_find_phrase(p, texts, params) for p in params.phrases]
    present = [f for f in found if f["found"]]
    n = len(found)
    passed = not present if params.mode == "all" else len(present) < n
    mech: Any = "tolerance" if params.fuzzy_threshold is not None else "exact"
    return CheckResult(
        check="text_excludes",
        status="pass" if passed else "fail",
        mechanism=mech,
        score=(n - len(present)) / n if params.mode == "all" else float(passed),
        explanation=(
            f"none of {n} phrase(s) present"
            if not present
            else f"{len(present)}/{n} phrase(s) present: "
            + ", ".join(f"{f['phrase']!r} in {f['node']}" for f in present[:5])
        ),
        evidence={"phrases": found, "scope_nodes": len(texts)},
    )


# -- numbers and dates ---------------------------------------------------------------------

_NUMBER_TOKEN = re.compile(
    r"\(?[-+\u2212]?(?:[A-Z]{3}\s?|[$€£¥₹])?[-\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:\s?%|[kKmMbB]\b)?\)?"
    r"|\(?[-+\u2212]?\.\d+%?\)?"
)


def numbers_in_text(text: str) -> list[float]:
    """Every number written in a sentence, as written (``12%`` -> 12.0).

    >>> numbers_in_text("Revenue rose 12.5% to $1,234 (from (3.2))")
    [12.5, 1234.0, -3.2]
    """
    return [p.value for p in parsed_numbers_in_text(text)]


def parsed_numbers_in_text(text: str) -> list[ParsedNumber]:
    """Like ``numbers_in_text``, keeping the percent and currency flags."""
    out = []
    for m in _NUMBER_TOKEN.finditer(text):
        token = m.group(0)
        if token.startswith("(") and not token.endswith(")"):
            token = token[1:]
        elif token.endswith(")") and not token.startswith("("):
            token = token[:-1]
        parsed = parse_number(token)
        if parsed is not None:
            out.append(parsed)
    return out


def _readings(node: Node) -> list[tuple[str, float]]:
    """Numbers a reader (or a formula) would take from a node: the whole displayed text
    as one number (and as a fraction when it is a percentage), the cell's stored value,
    else every number in the text."""
    out: list[tuple[str, float]] = []
    parsed = parse_number(node.text) if node.text.strip() else None
    if parsed is not None:
        out.append(("displayed", parsed.value))
        if parsed.percent:
            out.append(("displayed as fraction", parsed.fraction))
    value = node.attrs.get("value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        out.append(("stored value", float(value)))
    if not out:
        for p in parsed_numbers_in_text(node.text):
            out.append(("in text", p.value))
            if p.percent:
                out.append(("in text as fraction", p.fraction))
    return out


class NumberEqualsParams(BaseModel):
    """Parameters of ``number_equals``."""

    model_config = ConfigDict(extra="forbid")

    target: TargetSpec
    expected: float | str = Field(
        description="a number, or displayed text such as '$1,234.50' or '12%'"
    )
    abs_tol: float = Field(default=0.0, ge=0)
    rel_tol: float = Field(default=1e-9, ge=0, description="relative to the expected value")
    quantifier: Literal["any", "all"] = "any"


@register_check(
    "number_equals",
    mechanism="tolerance",
    params=NumberEqualsParams,
    example={"target": {"selector": "cell", "text": "91"}, "expected": 91, "abs_tol": 0.5},
)
def number_equals(doc: Document, params: NumberEqualsParams, resources: Resources) -> CheckResult:
    """A number read from the target's displayed text (or stored cell value) equals the expected one within tolerance.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("number_equals", tiny_doc(), {"target": "table row:nth-child(2) cell:nth-child(2)",
    ...                                         "expected": "91.2", "abs_tol": 0.5}).status
    'pass'
    """
    if isinstance(params.expected, str):
        parsed = parse_number(params.expected)
        if parsed is None:
            raise ValueError(f"expected {params.expected!r} is not a number")
        expected_values = [parsed.value] + ([parsed.fraction] if parsed.percent else [])
    else:
        expected_values = [float(params.expected)]
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("number_equals", params.target, "tolerance", nodes=[])
    rows = []
    for n in nodes:
        readings = _readings(n)
        hit = next(
            (
                (how, v, e)
                for how, v in readings
                for e in expected_values
                if numbers_close(v, e, abs_tol=params.abs_tol, rel_tol=params.rel_tol)
            ),
            None,
        )
        row: dict[str, Any] = {
            **node_ref(n),
            "compared": [f"{how}: {v:g}" for how, v in readings][:10],
            "ok": hit is not None,
        }
        if hit is not None:
            row.update(read_as=hit[0], value=hit[1], difference=abs(hit[1] - hit[2]))
        elif not readings:
            row["reason"] = "no number in the text"
        rows.append(row)
    return _verdict(
        "number_equals",
        "tolerance",
        rows,
        params.quantifier,
        f"hold {params.expected} (abs_tol {params.abs_tol}, rel_tol {params.rel_tol})",
        expected=expected_values,
        abs_tol=params.abs_tol,
        rel_tol=params.rel_tol,
    )


class DateEqualsParams(BaseModel):
    """Parameters of ``date_equals``."""

    model_config = ConfigDict(extra="forbid")

    target: TargetSpec
    expected: str = Field(description="a date in any common format; ISO 2024-03-05 is unambiguous")
    dayfirst: bool = Field(
        default=False,
        description="read 05/03/2024 as 5 March (applies to the artifact and expected)",
    )
    quantifier: Literal["any", "all"] = "any"


_DATE_TOKEN = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|"
    r"(?:\d{1,2}\s+)?[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?,?\s+\d{4}"
)


def dates_in_node(node: Node, *, dayfirst: bool) -> list[tuple[str, Any]]:
    """Dates a node shows: its whole text as a date, a date-typed stored value (ISO text
    or an Excel serial with a date number format), or date-looking substrings."""
    out: list[tuple[str, Any]] = []
    whole = parse_date(node.text, dayfirst=dayfirst) if node.text.strip() else None
    if whole is not None:
        out.append(("displayed", whole))
    value = node.attrs.get("value")
    if isinstance(value, str):
        d = parse_date(value, dayfirst=False)
        if d is not None:
            out.append(("stored value", d))
    elif isinstance(value, (int, float)) and node.attrs.get("data_type") == "date":
        out.append(("stored serial", excel_serial_to_date(float(value))))
    if not out:
        for m in _DATE_TOKEN.finditer(node.text):
            d = parse_date(m.group(0), dayfirst=dayfirst)
            if d is not None:
                out.append(("in text", d))
    return out


@register_check(
    "date_equals",
    mechanism="exact",
    params=DateEqualsParams,
    example={"target": "paragraph", "expected": "2024-03-05"},
)
def date_equals(doc: Document, params: DateEqualsParams, resources: Resources) -> CheckResult:
    """The target shows the expected calendar date, in whatever format it is written.

    >>> from artifactcheck.checks.examples import document, paragraph
    >>> from artifactcheck import run_check
    >>> d = document(paragraph("p0", "Signed on March 5th, 2024 in Paris"))
    >>> run_check("date_equals", d, {"target": "paragraph", "expected": "2024-03-05"}).status
    'pass'
    """
    want = parse_date(params.expected, dayfirst=params.dayfirst)
    if want is None:
        raise ValueError(f"expected {params.expected!r} is not a full date (day, month and year)")
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("date_equals", params.target, "exact", nodes=[])
    rows = []
    for n in nodes:
        dates = dates_in_node(n, dayfirst=params.dayfirst)
        rows.append(
            {
                **node_ref(n),
                "compared": [f"{how}: {d.isoformat()}" for how, d in dates],
                "ok": any(d == want for _how, d in dates),
            }
        )
    return _verdict(
        "date_equals",
        "exact",
        rows,
        params.quantifier,
        f"show {want.isoformat()}",
        expected=want.isoformat(),
    )


# -- links ---------------------------------------------------------------------------------


class UrlOptions(BaseModel):
    """URL normalisation switches (see ``normalize.normalize_url``)."""

    model_config = ConfigDict(extra="forbid")

    keep_scheme: bool = False
    keep_www: bool = False
    keep_fragment: bool = False
    keep_tracking: bool = False

    def norm(self, url: str) -> str:
        return normalize_url(
            url,
            keep_scheme=self.keep_scheme,
            keep_www=self.keep_www,
            keep_fragment=self.keep_fragment,
            keep_tracking=self.keep_tracking,
        )


class LinkPresentParams(UrlOptions):
    """Parameters of ``link_present``."""

    url: str
    text: str | None = Field(
        default=None, description="the link's anchor text must contain this (normalised)"
    )
    match: Literal["equals", "prefix"] = Field(
        default="equals", description="prefix: any page under the URL"
    )
    include_text_urls: bool = Field(
        default=True, description="count URLs written as plain text, not only hyperlinks"
    )
    scope: TargetSpec | None = None


def document_links(
    doc: Document, *, include_text_urls: bool, scope: list[Node] | None = None
) -> list[dict[str, Any]]:
    """Every link the artifact cites: hyperlinks (with anchor text and run ids) and, when
    asked, URLs typed as text. ``scope`` restricts to links inside those nodes."""
    inside: set[int] | None = None
    if scope is not None:
        inside = {id(x) for s in scope for x in s.iter()}
    links: list[dict[str, Any]] = []
    for g in hyperlink_groups(doc):
        if inside is not None and id(g.runs[0]) not in inside:
            continue
        links.append(
            {"url": g.url, "text": g.text, "ids": [r.id for r in g.runs], "kind": "hyperlink"}
        )
    if include_text_urls:
        for node, text in cached(doc, "unlinked_texts", _unlinked_texts):
            if inside is not None and id(node) not in inside:
                continue
            for url in urls_in_text(text):
                links.append({"url": url, "text": url, "ids": [node.id], "kind": "text"})
    return links


def _unlinked_texts(doc: Document) -> list[tuple[Node, str]]:
    """Text where typed URLs may be: each paragraph's runs joined (a URL split over two
    runs by a spell-checker stays whole), hyperlinked runs blanked out; and the text of
    leaves outside paragraphs (spreadsheet cells)."""
    linked = {id(r) for g in hyperlink_groups(doc) for r in g.runs}
    out: list[tuple[Node, str]] = []
    for n in doc.iter():
        if n.kind == "paragraph":
            text = (
                "".join(" " if id(c) in linked else c.text for c in n.children)
                if n.children
                else n.text
            )
            if text.strip():
                out.append((n, text))
        elif (
            not n.children
            and n.text
            and id(n) not in linked
            and not any(a.kind == "paragraph" for a in n.ancestors())
        ):
            out.append((n, n.text))
    return out


@register_check(
    "link_present",
    mechanism="exact",
    params=LinkPresentParams,
    example={"url": "https://example.org/report", "text": "full report"},
)
def link_present(doc: Document, params: LinkPresentParams, resources: Resources) -> CheckResult:
    """The artifact links to the URL (normalised: scheme, www, trailing slash, tracking parameters, fragment).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("link_present", tiny_doc(), {"url": "http://www.example.org/report/?utm_source=x"}).status
    'pass'
    """
    scope = select_targets(doc, params.scope) if params.scope is not None else None
    links = document_links(doc, include_text_urls=params.include_text_urls, scope=scope)
    want = params.norm(params.url)
    hits = []
    for link in links:
        got = params.norm(link["url"])
        same = got == want or (params.match == "prefix" and got.startswith(want.rstrip("/") + "/"))
        if same and (
            params.text is None or normalize_text(params.text) in normalize_text(link["text"])
        ):
            hits.append({**link, "normalized": got})
    passed = bool(hits)
    return CheckResult(
        check="link_present",
        status="pass" if passed else "fail",
        mechanism="exact",
        explanation=(
            f"found {len(hits)} link(s) to {want}"
            if passed
            else f"no link to {want}"
            + (f" with text {params.text!r}" if params.text else "")
            + f" among {len(links)} link(s)"
        ),
        evidence={
            "expected": want,
            "matches": hits[:20],
            "links": [
                {
                    "url": link["url"],
                    "normalized": params.norm(link["url"]),
                    "text": _excerpt(link["text"]),
                }
                for link in links[:50]
            ],
        },
    )


# -- formulas ------------------------------------------------------------------------------


class FormulaParams(BaseModel):
    """Parameters of ``formula_present``."""

    model_config = ConfigDict(extra="forbid")

    target: TargetSpec
    expect: Literal["formula", "value"] = Field(
        default="formula", description="value: a typed-in constant, no formula"
    )
    function: str | None = Field(
        default=None, description="the formula must call this function, e.g. SUM"
    )
    pattern: str | None = Field(
        default=None, description="regex the formula must match (case-insensitive)"
    )
    quantifier: Literal["any", "all"] = "all"


def cell_formula(node: Node) -> str | None:
    """The formula of a spreadsheet cell (``attrs["formula"]``), without the leading ``=``."""
    f = node.attrs.get("formula")
    if not isinstance(f, str) or not f.strip():
        return None
    return f.strip().removeprefix("=")


@register_check(
    "formula_present",
    mechanism="exact",
    params=FormulaParams,
    example={"target": "sheet[name='Data'] cell[ref='B10']", "function": "SUM"},
)
def formula_present(doc: Document, params: FormulaParams, resources: Resources) -> CheckResult:
    """Spreadsheet cells hold a formula (optionally calling a function), or a hard-coded value when expect=value.

    >>> from artifactcheck.checks.examples import document
    >>> from artifactcheck.model import Node
    >>> from artifactcheck import run_check
    >>> d = document(Node(id="Sheet1!B4", kind="cell", text="169", attrs={"formula": "=SUM(B2:B3)", "value": 169}))
    >>> run_check("formula_present", d, {"target": "cell", "function": "sum"}).status
    'pass'
    """
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("formula_present", params.target, "exact", nodes=[])
    rows = []
    for n in nodes:
        formula = cell_formula(n)
        row: dict[str, Any] = {**node_ref(n), "formula": formula, "value": n.attrs.get("value")}
        if params.expect == "value":
            row["ok"] = formula is None
        else:
            ok = formula is not None
            if ok and params.function:
                ok = (
                    re.search(
                        r"(?<![A-Za-z0-9_.])" + re.escape(params.function) + r"\s*\(",
                        formula or "",
                        re.IGNORECASE,
                    )
                    is not None
                )
            if ok and params.pattern:
                ok = re.search(params.pattern, formula or "", re.IGNORECASE) is not None
            row["ok"] = ok
        rows.append(row)
    what = (
        "hold a typed-in value"
        if params.expect == "value"
        else (
            "hold a formula"
            + (f" calling {params.function}" if params.function else "")
            + (f" matching /{params.pattern}/" if params.pattern else "")
        )
    )
    result = _verdict("formula_present", "exact", rows, params.quantifier, what)
    if result.status == "fail":
        bad = next(r for r in rows if not r["ok"])
        result.explanation = result.explanation.rsplit("; e.g.", 1)[0] + (
            f"; e.g. {bad['id']} has formula {bad['formula']!r}, value {bad['value']!r}"
        )
    return result
