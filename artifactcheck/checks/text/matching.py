"""Text checks: normalised equality, regex, fuzzy similarity, contains / excludes.

Each check reads the text of the nodes its target names (``target.py``). Evidence always
holds the text actually compared (normalised), so a failure shows what was there.
Numbers and dates read from displayed text are in ``numbers_dates``, links in ``links``,
spreadsheet formulas in ``formulas``.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from ...model import Document, Node
from ..normalize import TYPOGRAPHY, normalize_text  # one typographic map for every text check
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import (
    Target,
    TargetSpec,
    labelled_text,
    never_printed,
    no_match,
    node_ref,
    note_marks,
    printed_text,
    rewrite_parts,
    select_targets,
    shown_text,
    unmarked,
)
from ._common import EXCERPT, excerpt, guard_unknown_values, verdict


class TextOptions(BaseModel):
    """How text is normalised before comparing (see ``normalize.normalize_text``)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    case_sensitive: bool = False
    collapse_whitespace: bool = True
    typography: bool = Field(default=True, description="smart quotes, dashes, ellipsis, odd spaces")
    unicode_forms: bool = Field(default=True, description="Unicode NFKC")

    def text_of(self, node: Node, text: str | None = None) -> str:
        """The node's text (or ``text``, a reading of it) as compared: as typed, or, when
        letter case counts, as shown (runs set in capitals read in capitals: "is the
        heading in capitals?"); without comments, which the page does not print (unless
        the node is one) and without the headers, footers and notes no page prints
        (:func:`unshown_removed`)."""
        text = unshown_removed(node, node.text if text is None else text)
        return printed_text(node, shown_text(node, text) if self.case_sensitive else text)

    def readings(self, node: Node) -> list[str]:
        """The normalised texts a phrase may be found in: the node's text, and the same
        with the list labels the page prints ("1. Download the installer" on a numbered
        item whose text is "Download the installer"); each also without its note marks
        when it has some ("Revenue grew 5%. Costs fell." on a page that prints
        "Revenue grew 5%.¹ Costs fell.", the footnote "Source: ..." printed "¹ Source: ...")."""
        with_labels = labelled_text(node)  # labels are placed by the typed text, then shown
        typed = [node.text] if with_labels == node.text else [node.text, with_labels]
        out = [self.norm(self.text_of(node, text)) for text in typed]
        marks = note_marks(node)
        if marks:
            out += [
                self.norm(printed_text(node, unmarked(node, unshown_removed(node, text), marks, caps=self.case_sensitive)))
                for text in typed
            ]
        return out

    def norm(self, text: str) -> str:
        return normalize_text(
            text,
            case_sensitive=self.case_sensitive,
            collapse_whitespace=self.collapse_whitespace,
            typography=self.typography,
            unicode_forms=self.unicode_forms,
        )


# Parts of a document that may be in the file and on no page: a header or footer no page
# uses (a first-page header without "different first page", the default header of a
# one-page document that has one), a note nothing refers to. The extractor marks them
# ``rendered: false``.
_PARTS_MAYBE_UNSHOWN = frozenset({"header", "footer", "footnote"})


def unshown_removed(node: Node, text: str) -> str:
    """``text`` (the node's text or a reading of it) without the text of the node's
    header, footer and note children that no page prints: a document whose one page
    shows the first-page header "FIRSTONLY" does not say what its unused default header
    says. (Selecting targets already leaves such parts out; a document-wide scope reads
    the document's own text, which holds them.)"""
    unshown = [c for c in node.children if c.kind in _PARTS_MAYBE_UNSHOWN and c.text and never_printed(c)]
    if not unshown:
        return text
    gone = {id(c) for c in unshown}
    return rewrite_parts(text, node.children, lambda c: "" if id(c) in gone else c.text)


def _document_target() -> Target:
    return Target(selector="document")


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
            "compared": excerpt(params.norm(params.text_of(n))),
            "ok": want in params.readings(n),
        }
        for n in nodes
    ]
    return guard_unknown_values(
        verdict("text_equals", "exact", rows, params.quantifier, f"equal {want!r}", expected=want),
        nodes,
    )


class TextRegexParams(BaseModel):
    """Parameters of ``text_regex``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
    regex = re.compile(
        params.pattern.translate(_PATTERN_TYPOGRAPHY), (re.IGNORECASE if params.ignore_case else 0) | re.MULTILINE
    )
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("text_regex", params.target, "exact", nodes=[])
    rows = []
    for n in nodes:
        m = _regex_match(regex, n, full_match=params.full_match)
        rows.append(
            {**node_ref(n), "ok": m is not None, "matched": m.group(0)[:EXCERPT] if m else None}
        )
    return guard_unknown_values(
        verdict("text_regex", "exact", rows, params.quantifier, f"match /{params.pattern}/", pattern=params.pattern),
        nodes,
    )


def regex_readings(node: Node) -> list[str]:
    """The texts a pattern is tried on, as the page shows them: runs set in capitals
    (``w:caps``) in capitals, so ``^[A-Z ]+$`` holds on a heading typed "Quarterly
    Summary" and drawn "QUARTERLY SUMMARY"; comments left out; and the same with the
    list labels the page prints ("1. Run setup" on a numbered item), so ``^\\d+\\.``
    finds the numbers a person reads; each also without its footnote marks. Typography
    is normalised (see ``_TEXT_TYPOGRAPHY``), whitespace kept."""
    readings = [node.text]
    labelled = labelled_text(node)
    if labelled != node.text:
        readings.append(labelled)
    readings = [unshown_removed(node, text) for text in readings]
    shown = [printed_text(node, shown_text(node, text)) for text in readings]
    marks = note_marks(node)
    if marks:
        shown += [printed_text(node, unmarked(node, text, marks, caps=True)) for text in readings]
    out = []
    for text in shown:
        kept = normalize_text(text, case_sensitive=True, collapse_whitespace=False, typography=False)
        out.append(kept.translate(_TEXT_TYPOGRAPHY))
        if "\t" in kept:
            out.append(kept.translate(TYPOGRAPHY))  # tabs as spaces: "Name: John" on "Name:\tJohn"
    return out


# What text_regex compares: the text checks' typographic map (smart quotes, dashes, odd
# spaces) on the text AND on the pattern's literal characters, so a pattern pasted from
# the page ('said “hello” — fine', 'John\u00a0Smith') matches the text it was pasted
# from; a text with tabs is read twice, tabs kept (``Name:\t+John`` asks for a tab,
# which the phrase map turns into a space) and as spaces (the old reading: a literal
# space still matches the gap a tab draws). An ellipsis in a pattern is three literal dots.
_TEXT_TYPOGRAPHY = {k: v for k, v in TYPOGRAPHY.items() if k != ord("\t")}
_PATTERN_TYPOGRAPHY = {**_TEXT_TYPOGRAPHY, ord("\u2026"): r"\.\.\."}


def _regex_match(regex: re.Pattern[str], node: Node, *, full_match: bool) -> re.Match[str] | None:
    """The first match of ``regex`` in a reading of ``node`` (:func:`regex_readings`)."""
    for text in regex_readings(node):
        m = regex.fullmatch(text.strip()) if full_match else regex.search(text)
        if m is not None:
            return m
    return None


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
        got = params.norm(params.text_of(n))
        sim = float(scorer(want, got))
        rows.append(
            {
                **node_ref(n),
                "compared": excerpt(got),
                "similarity": round(sim, 2),
                "ok": sim >= params.threshold,
            }
        )
    result = verdict(
        "text_similar",
        "tolerance",
        rows,
        params.quantifier,
        f"score >= {params.threshold} ({params.scorer}) against {want!r}",
        threshold=params.threshold,
        scorer=params.scorer,
    )
    return guard_unknown_values(result, nodes)


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


def _node_count(texts: list[tuple[Node, str]]) -> int:
    return len({id(n) for n, _t in texts})  # a node may be read twice (with its list labels)


def _scope_texts(doc: Document, params: TextContainsParams) -> list[tuple[Node, str]]:
    return [(n, text) for n in select_targets(doc, params.scope) for text in params.readings(n)]


@register_check(
    "text_contains",
    mechanism="exact",
    mechanism_when={"fuzzy_threshold": "tolerance"},
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
    return guard_unknown_values(_contains_result(params, texts, found), [n for n, _t in texts])


def _contains_result(params: TextContainsParams, texts: list[tuple[Node, str]], found: list[dict[str, Any]]) -> CheckResult:
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
        explanation=f"{hits}/{n} phrase(s) found in {_node_count(texts)} node(s)"
        + (f"; missing: {missing[:5]}" if missing else ""),
        evidence={"phrases": found, "scope_nodes": _node_count(texts)},
    )


@register_check(
    "text_excludes",
    mechanism="exact",
    mechanism_when={"fuzzy_threshold": "tolerance"},
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
    # A pass says "absent": a value nobody computed could hold the phrase.
    return guard_unknown_values(_excludes_result(params, texts, found), [n for n, _t in texts], also_on_pass=True)


def _excludes_result(params: TextContainsParams, texts: list[tuple[Node, str]], found: list[dict[str, Any]]) -> CheckResult:
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
        evidence={"phrases": found, "scope_nodes": _node_count(texts)},
    )
