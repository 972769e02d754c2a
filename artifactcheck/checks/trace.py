"""Browsing-trace checks (mechanism ``trace``): did the agent visit the required pages,
and did it visit every page its artifact cites?

A trace is the list of URLs the agent's browser requested (``Resources.trace``);
``load_trace`` reads one from a file. Without a trace the check is ``skipped`` with
``needs_trace=True``: an absent trace is not the agent's failure.

URLs are compared after ``normalize.normalize_url`` (scheme, ``www.``, trailing slash,
tracking parameters and fragment dropped). A required entry may be a URL, a glob with
``*`` (``*.wikipedia.org/wiki/*``, case-insensitive) or a regular expression prefixed
``re:`` (searched in the raw URL, case-insensitive).
"""

from __future__ import annotations

import fnmatch
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from ..errors import UnsupportedFormat
from ..input_files import parse_json, read_input_bytes
from ..model import Document
from .registry import Resources, register_check
from .result import CheckResult
from .target import TargetSpec, select_targets
from .text.links import UrlOptions, document_links

_URL_KEYS = ("url", "URL", "href", "uri", "link", "page", "location")
_LIST_KEYS = (
    "visited",
    "urls",
    "trace",
    "history",
    "pages",
    "visits",
    "entries",
    "steps",
    "actions",
)


def parse_trace(data: Any) -> list[str]:
    """URLs from a decoded trace, in visit order: a list of strings; a list of objects
    with a ``url`` (or ``href``/``uri``/``link``/``page``) key, or a HAR-like request
    (``{"request": {"url": ...}}``); a HAR file (``log.entries[].request.url``); or an
    object holding such a list under ``visited``/``urls``/``trace``/``history``/....

    >>> parse_trace({"log": {"entries": [{"request": {"url": "https://a.org/"}}]}})
    ['https://a.org/']
    >>> parse_trace(["https://a.org", {"url": "https://b.org", "title": "B"}])
    ['https://a.org', 'https://b.org']
    """
    if isinstance(data, dict):
        log = data.get("log")
        if isinstance(log, dict) and isinstance(log.get("entries"), list):
            return parse_trace(log["entries"])
        for key in _LIST_KEYS:
            if isinstance(data.get(key), list):
                return parse_trace(data[key])
        url = _url_of(data)
        if url is not None:
            return [url]
        raise ValueError(f"no URL list in the trace object (keys: {sorted(data)[:10]})")
    if isinstance(data, list):
        out = []
        for item in data:
            if isinstance(item, str):
                if item.strip():
                    out.append(item.strip())
            elif isinstance(item, dict):
                url = _url_of(item)
                if url is not None:
                    out.append(url)
        return out
    raise ValueError(f"a trace is a JSON list or object, not {type(data).__name__}")


def _url_of(item: dict[str, Any]) -> str | None:
    request = item.get("request")
    if isinstance(request, dict) and isinstance(request.get("url"), str):
        return str(request["url"])
    for key in _URL_KEYS:
        value = item.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None


def load_trace(path: str | Path) -> list[str]:
    """Read a browsing trace file: JSON (see ``parse_trace``), JSON Lines (one URL
    string or object per line) or plain text (one URL per line; ``#`` comments).
    Raises UnsupportedFormat naming the file when it holds no readable trace; the file
    must be a regular file within the ``input_file_bytes`` budget, and its JSON strict
    (finite numbers, nesting within the budget)."""
    p = Path(path)
    data = read_input_bytes(p, what="browsing trace", error=UnsupportedFormat)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnsupportedFormat(f"the browsing trace is not UTF-8 text ({exc.reason} at byte {exc.start})", path=p) from None
    stripped = text.strip()
    try:
        if stripped.startswith(("[", "{")):
            lines = [line for line in stripped.splitlines() if line.strip()]
            try:
                value = parse_json(stripped, what="browsing trace", error=UnsupportedFormat, path=p)
            except UnsupportedFormat:
                if len(lines) < 2:
                    raise
                # JSON Lines: one object or string per line
                value = [parse_json(line, what=f"browsing trace (line {n})", error=UnsupportedFormat, path=p)
                         for n, line in enumerate(lines, 1)]
            return parse_trace(value)
        return [
            line.strip()
            for line in stripped.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
    except ValueError as exc:
        raise UnsupportedFormat(f"not a browsing trace: {exc}", path=p) from None


def _needs_trace(name: str) -> CheckResult:
    return CheckResult(
        check=name,
        status="skipped",
        mechanism="trace",
        needs_trace=True,
        explanation="no browsing trace was given; this step needs one (outcome needs_trace)",
    )


class PatternMatcher:
    """One required entry: a URL (normalised equality, or prefix), a ``*`` glob on the
    normalised URL, or ``re:`` + a regular expression searched in the raw URL."""

    def __init__(self, pattern: str, options: UrlOptions, *, prefix: bool) -> None:
        self.pattern = pattern
        self.kind: str
        if pattern.startswith("re:"):
            self.kind, self.regex = "regex", re.compile(pattern[3:], re.IGNORECASE)
        elif "*" in pattern:
            self.kind = "glob"
            # normalise the pattern like a URL, with the stars hidden behind a token that
            # survives lower-casing and percent-encoding
            normed = options.norm(pattern.replace("*", "0glob0")).replace("0glob0", "*")
            # globs are case-insensitive (a rubric author types lower case); exact URLs are not
            self.regex = re.compile(fnmatch.translate(normed), re.IGNORECASE)
        else:
            self.kind, self.want = ("prefix" if prefix else "url"), options.norm(pattern)
        self.options = options

    def matches(self, url: str) -> bool:
        if self.kind == "regex":
            return self.regex.search(url) is not None
        norm = self.options.norm(url)
        if self.kind == "glob":
            return self.regex.match(norm) is not None
        if self.kind == "prefix":
            return norm == self.want or norm.startswith(self.want.rstrip("/") + "/")
        return norm == self.want


class VisitedParams(UrlOptions):
    """Parameters of ``visited``."""

    required: list[str] = Field(min_length=1, description="URLs, * globs, or re:regex")
    mode: Literal["all", "any"] = "all"
    match: Literal["equals", "prefix"] = Field(
        default="equals", description="prefix: any page under a required URL"
    )


@register_check(
    "visited",
    mechanism="trace",
    params=VisitedParams,
    example={"required": ["https://en.wikipedia.org/wiki/Solar_power", "re:arxiv\\.org/abs/"]},
)
def visited(doc: Document, params: VisitedParams, resources: Resources) -> CheckResult:
    """The browsing trace visits the required URLs or patterns (normalised).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check, Resources
    >>> run_check("visited", tiny_doc(), {"required": ["example.org/report"]},
    ...           Resources(trace=["https://www.example.org/report/?utm_source=x"])).status
    'pass'
    >>> run_check("visited", tiny_doc(), {"required": ["example.org/report"]}).needs_trace
    True
    """
    if resources.trace is None:
        return _needs_trace("visited")
    trace = list(resources.trace)
    rows = []
    for pattern in params.required:
        m = PatternMatcher(pattern, params, prefix=params.match == "prefix")
        hit = next((u for u in trace if m.matches(u)), None)
        rows.append({"required": pattern, "kind": m.kind, "visited": hit is not None, "by": hit})
    hits = sum(1 for r in rows if r["visited"])
    passed = hits == len(rows) if params.mode == "all" else hits > 0
    missing = [r["required"] for r in rows if not r["visited"]]
    return CheckResult(
        check="visited",
        status="pass" if passed else "fail",
        mechanism="trace",
        score=hits / len(rows) if params.mode == "all" else float(passed),
        explanation=f"{hits}/{len(rows)} required page(s) visited in a trace of {len(trace)} URL(s)"
        + (f"; not visited: {missing[:5]}" if missing else ""),
        evidence={
            "required": rows,
            "trace_length": len(trace),
            "trace_sample": [params.norm(u) for u in trace[:30]],
        },
    )


class CitedParams(UrlOptions):
    """Parameters of ``cited_links_visited``."""

    scope: TargetSpec | None = None
    include_text_urls: bool = Field(default=True, description="also URLs typed as plain text")
    ignore: list[str] = Field(
        default_factory=lambda: ["re:^(mailto|tel):"],
        description="cited links to ignore (URL, glob or re:)",
    )
    min_links: int = Field(
        default=1, ge=0, description="fewer cited links than this is a failure, not a vacuous pass"
    )
    match: Literal["equals", "prefix"] = "equals"


@register_check(
    "cited_links_visited",
    mechanism="trace",
    params=CitedParams,
    example={"include_text_urls": True, "min_links": 1},
)
def cited_links_visited(doc: Document, params: CitedParams, resources: Resources) -> CheckResult:
    """Every link cited in the artifact (hyperlinks and typed URLs) appears in the browsing trace.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check, Resources
    >>> r = run_check("cited_links_visited", tiny_doc(), {},
    ...               Resources(trace=["https://example.org/report", "http://example.com/facts/"]))
    >>> r.status, r.evidence["cited"]
    ('pass', 2)
    """
    if resources.trace is None:
        return _needs_trace("cited_links_visited")
    scope = select_targets(doc, params.scope) if params.scope is not None else None
    ignore = [PatternMatcher(p, params, prefix=False) for p in params.ignore]
    links = [
        link
        for link in document_links(doc, include_text_urls=params.include_text_urls, scope=scope)
        if not any(m.matches(link["url"]) for m in ignore)
    ]
    # one row per distinct normalised URL: a link cited twice needs one visit
    by_url: dict[str, dict[str, Any]] = {}
    for link in links:
        key = params.norm(link["url"])
        row = by_url.setdefault(
            key, {"url": link["url"], "normalized": key, "ids": [], "visited": False}
        )
        row["ids"].extend(link["ids"])
    visited_norm = {params.norm(u) for u in resources.trace}
    for key, row in by_url.items():
        if params.match == "prefix":
            row["visited"] = any(
                v == key or v.startswith(key.rstrip("/") + "/") for v in visited_norm
            )
        else:
            row["visited"] = key in visited_norm
    rows = list(by_url.values())
    hits = sum(r["visited"] for r in rows)
    if len(rows) < params.min_links:
        return CheckResult(
            check="cited_links_visited",
            status="fail",
            mechanism="trace",
            score=0.0,
            explanation=f"the artifact cites {len(rows)} link(s); at least {params.min_links} expected",
            evidence={"links": rows, "cited": len(rows)},
        )
    missing = [r["url"] for r in rows if not r["visited"]]
    passed = not missing
    return CheckResult(
        check="cited_links_visited",
        status="pass" if passed else "fail",
        mechanism="trace",
        score=hits / len(rows) if rows else 1.0,
        explanation=f"{hits}/{len(rows)} cited link(s) visited"
        + (f"; never visited: {missing[:5]}" if missing else ""),
        evidence={"links": rows, "cited": len(rows), "trace_length": len(resources.trace)},
    )
