"""Links: ``link_present`` finds a URL among the hyperlinks and typed-in URLs of an
artifact, compared after URL normalisation (``normalize.normalize_url``). The link list
(``document_links``) and the URL switches (``UrlOptions``) are shared with ``trace``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node
from ..normalize import normalize_text, normalize_url, urls_in_text
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import (
    UNPRINTED_KINDS,
    LinkGroup,
    TargetSpec,
    cached,
    hyperlink_groups,
    in_never_shown_part,
    select_targets,
)
from ._common import excerpt

# -- links ---------------------------------------------------------------------------------


class UrlOptions(BaseModel):
    """URL normalisation switches (see ``normalize.normalize_url``)."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
    unprinted_asked = scope is not None and any(_unprinted(s) for s in scope)
    links: list[dict[str, Any]] = []
    for g in hyperlink_groups(doc):
        if inside is not None and id(g.runs[0]) not in inside:
            continue
        if not _link_seen(doc, g, unprinted_asked=unprinted_asked):
            continue
        links.append(
            {"url": g.url, "text": g.text, "ids": [r.id for r in g.runs], "kind": "hyperlink"}
        )
    if include_text_urls:
        for node, text in cached(doc, "unlinked_texts", _unlinked_texts):
            if inside is not None and id(node) not in inside:
                continue
            if not unprinted_asked and (_unprinted(node) or in_never_shown_part(doc, node)):
                continue
            for url in urls_in_text(text):
                links.append({"url": url, "text": url, "ids": [node.id], "kind": "text"})
    return links


def _unprinted(node: Node) -> bool:
    """``node`` is, or lies in, something the document holds but never prints (a comment)."""
    return node.kind in UNPRINTED_KINDS or any(a.kind in UNPRINTED_KINDS for a in node.ancestors())


def _link_seen(doc: Document, group: LinkGroup, *, unprinted_asked: bool) -> bool:
    """A reader can see and follow this link: some of its anchor text is shown (not all
    of it a tracked deletion or hidden text, whose runs keep no text), and it is not in a
    comment or in a header no page shows, unless the scope asks for those. A linked
    picture or shape (no runs with text to lose) counts as seen."""
    runs = group.runs
    if (
        all(r.kind == "run" for r in runs)
        and not any(r.text.strip() for r in runs)
        and any(r.attrs.get("rendered") is False for r in runs)
    ):
        return False
    if unprinted_asked:
        return True
    first = runs[0]
    return not _unprinted(first) and not in_never_shown_part(doc, first)


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
    if params.url.strip().startswith("#") and not params.keep_fragment:
        # A link inside the document ("#_Toc1", a bookmark) is nothing but its fragment:
        # dropped, it would be "" and any internal link would do.
        params = params.model_copy(update={"keep_fragment": True})
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
                    "text": excerpt(link["text"]),
                }
                for link in links[:50]
            ],
        },
    )
