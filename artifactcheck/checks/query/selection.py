"""Tree queries (mechanism ``tree_query``): existence, counts (overall and per
container), order, and position in a container.

Document order is pre-order of the tree (``Node.order``): a paragraph comes after its
earlier siblings' whole subtrees. The other tree queries live beside this module:
``outline.py`` (list nesting, headings), ``structure.py`` (counts and names of
slides, sheets, tables, rows, columns) and ``tables.py`` (header rows, columns, grouped
rows of sheets and tables).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...model import Document, Node
from ...model.selector_lint import Selector
from ..layout import ensure_layout_for, extracted_without_layout, without_layout
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec, flow_of, is_empty, node_ref, select_targets, select_union
from ._result import query_result

# -- existence and counts --------------------------------------------------------------


class ExistsParams(BaseModel):
    """Parameters of ``exists``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec


@register_check(
    "exists",
    mechanism="tree_query",
    params=ExistsParams,
    example={"target": {"selector": "paragraph[heading_level='1']", "text": "Energy"}},
)
def exists(doc: Document, params: ExistsParams, resources: Resources) -> CheckResult:
    """At least one node matches the target.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("exists", tiny_doc(), {"target": "table"}).status
    'pass'
    """
    nodes = select_targets(doc, params.target)
    return query_result(
        "exists",
        bool(nodes),
        f"{len(nodes)} node(s) match {params.target.describe()}",
        {"count": len(nodes), "nodes": [node_ref(n) for n in nodes[:20]]},
    )


class CountParams(BaseModel):
    """Parameters of ``count``: any combination of exactly / at_least / at_most."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec
    exactly: int | None = Field(default=None, ge=0)
    at_least: int | None = Field(default=None, ge=0)
    at_most: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _bounds(self) -> CountParams:
        if self.exactly is None and self.at_least is None and self.at_most is None:
            raise ValueError("give exactly, at_least or at_most")
        return self


def count_ok(
    n: int, exactly: int | None, at_least: int | None, at_most: int | None
) -> tuple[bool, str]:
    """Is ``n`` within the bounds, and the bounds as words."""
    words = []
    ok = True
    if exactly is not None:
        ok &= n == exactly
        words.append(f"exactly {exactly}")
    if at_least is not None:
        ok &= n >= at_least
        words.append(f"at least {at_least}")
    if at_most is not None:
        ok &= n <= at_most
        words.append(f"at most {at_most}")
    return ok, " and ".join(words)


@register_check(
    "count",
    mechanism="tree_query",
    params=CountParams,
    example={"target": "slide", "at_least": 5, "at_most": 10},
)
def count(doc: Document, params: CountParams, resources: Resources) -> CheckResult:
    """The number of nodes matching the target is exactly / at least / at most N.

    ``target: page`` on a tree without page nodes (a .docx) counts the printed pages of
    its render (``error`` when it was loaded without one), like ``structure`` with
    ``unit: pages``.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("count", tiny_doc(), {"target": "table row", "exactly": 3}).status
    'pass'
    """
    printed = _printed_pages(doc, params)
    if printed is not None:
        return printed
    nodes = select_targets(doc, params.target)
    return _count_result(
        params, len(nodes), f"node(s) match {params.target.describe()}", {"nodes": [node_ref(n) for n in nodes[:20]]}
    )


def _count_result(params: CountParams, n: int, counted: str, evidence: dict[str, Any]) -> CheckResult:
    ok, bounds = count_ok(n, params.exactly, params.at_least, params.at_most)
    return query_result(
        "count",
        ok,
        f"{n} {counted}; expected {bounds}",
        {"count": n, "exactly": params.exactly, "at_least": params.at_least, "at_most": params.at_most, **evidence},
    )


def _printed_pages(doc: Document, params: CountParams) -> CheckResult | None:
    """``count`` of a bare ``page`` target on a tree without page nodes (a .docx: its
    printed pages are the render's, in ``Document.pages``, not nodes): those pages, or
    the ``error`` of a document read without layout - not "0 nodes match". None for
    every other target, and for trees with page nodes (PDF, images)."""
    target = params.target
    if target.model_fields_set != {"selector"} or (target.selector or "").strip() != "page":
        return None
    if any(True for _ in doc.iter("page")):
        return None
    if extracted_without_layout(doc):
        return without_layout("count", "tree_query", "the page count")
    pages = [p for p in doc.pages if p.kind == "page"]
    if not pages:
        return None  # slides or sheets: "page" names no node of theirs, as the selector says
    return _count_result(
        params, len(pages), "printed page(s) in the render (this tree has no page nodes)", {"counted": "rendered pages"}
    )


class CountEachParams(BaseModel):
    """Parameters of ``count_each``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    each: Selector = Field(description="selector of the containers, e.g. 'slide' or 'sheet'")
    target: TargetSpec = Field(description="what to count inside each container")
    exactly: int | None = Field(default=None, ge=0)
    at_least: int | None = Field(default=None, ge=0)
    at_most: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _bounds(self) -> CountEachParams:
        if self.exactly is None and self.at_least is None and self.at_most is None:
            raise ValueError("give exactly, at_least or at_most")
        return self


@register_check(
    "count_each",
    mechanism="tree_query",
    params=CountEachParams,
    example={
        "each": "slide",
        "target": "shape[placeholder_type='title'], shape[placeholder_type='ctrTitle']",
        "exactly": 1,
    },
)
def count_each(doc: Document, params: CountEachParams, resources: Resources) -> CheckResult:
    """Every container (each slide, sheet, table ...) holds exactly / at least / at most N matching nodes.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("count_each", tiny_doc(), {"each": "table row", "target": "cell", "exactly": 2}).status
    'pass'
    """
    containers = select_union(doc, params.each)
    if not containers and params.each.strip() == "page":
        printed = _count_each_printed_page(doc, params)
        if printed is not None:
            return printed
    if not containers:
        return query_result(
            "count_each", False, f"no container matches {params.each!r}", {"containers": []}
        )
    found = select_targets(doc, params.target)
    # ids of each found node and its ancestors: one pass, then a set lookup per container
    holders: dict[int, int] = {}
    for n in found:
        for a in (n, *n.ancestors()):
            holders[id(a)] = holders.get(id(a), 0) + 1
    return _per_container(
        params,
        [(node_ref(c), c.id, holders.get(id(c), 0)) for c in containers],
        f"{params.each!r} container(s) hold",
        params.target.describe(),
        {},
    )


def _per_container(
    params: CountEachParams,
    counted: list[tuple[dict[str, Any], str, int]],
    holds: str,
    what: str,
    evidence: dict[str, Any],
) -> CheckResult:
    """``count_each``'s verdict from each container's (evidence row, name, count):
    "N/M {holds} {bounds} of {what}"."""
    rows, names = [], []
    bounds = ""
    for ref, name, k in counted:
        ok, bounds = count_ok(k, params.exactly, params.at_least, params.at_most)
        rows.append({**ref, "count": k, "ok": ok})
        names.append(name)
    good = sum(1 for r in rows if r["ok"])
    bad = [i for i, r in enumerate(rows) if not r["ok"]]
    explanation = f"{good}/{len(rows)} {holds} {bounds} of {what}"
    if bad:
        explanation += f"; e.g. {names[bad[0]]} holds {rows[bad[0]]['count']}"
    return query_result("count_each", not bad, explanation, {"containers": rows[:200], **evidence}, score=good / len(rows))


def _count_each_printed_page(doc: Document, params: CountEachParams) -> CheckResult | None:
    """``count_each`` with ``each: page`` on a tree without page nodes (a .docx): each
    printed page of the render holds the targets drawn on it ("every page shows the
    logo": a header picture is boxed on each page it is printed on). ``error`` without
    layout; None for slides and sheets, whose pages are not printed pages."""
    if extracted_without_layout(doc):
        return without_layout("count_each", "tree_query", "what each printed page holds")
    pages = [i for i, p in enumerate(doc.pages) if p.kind == "page"]
    if not pages:
        return None
    found = select_targets(doc, params.target)
    ensure_layout_for(doc, found)
    per_page = dict.fromkeys(pages, 0)
    for n in found:
        for page in {b.page for b in n.boxes}:
            if page in per_page:
                per_page[page] += 1
    return _per_container(
        params,
        [({"page": page}, f"page {page}", k) for page, k in per_page.items()],
        "printed page(s) hold",
        f"{params.target.describe()} drawn on them",
        {"counted": "rendered pages"},
    )


# -- order and position ------------------------------------------------------------------------


class OrderParams(BaseModel):
    """Parameters of ``order``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    first: TargetSpec = Field(description="A: what must come first")
    then: TargetSpec = Field(description="B: what must come after A")
    mode: Literal["first", "all"] = Field(
        default="first", description="first: first A before first B; all: every A before every B"
    )


@register_check(
    "order",
    mechanism="tree_query",
    params=OrderParams,
    example={"first": {"text": "Introduction"}, "then": {"text": "Conclusion"}},
)
def order(doc: Document, params: OrderParams, resources: Resources) -> CheckResult:
    """A comes before B in document order.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("order", tiny_doc(), {"first": {"text": "Solar"}, "then": {"text": "Wind"}}).status
    'pass'
    >>> run_check("order", tiny_doc(), {"first": {"text": "Wind"}, "then": {"text": "Solar"}}).status
    'fail'
    """
    a, b = select_targets(doc, params.first), select_targets(doc, params.then)
    ev: dict[str, Any] = {
        "first": [node_ref(n) for n in a[:10]],
        "then": [node_ref(n) for n in b[:10]],
    }
    if not a or not b:
        missing = params.first.describe() if not a else params.then.describe()
        return query_result("order", False, f"nothing matches {missing}", ev)
    if params.mode == "first":
        x, y = a[0], b[0]
    else:
        x, y = max(a, key=lambda n: n.order), min(b, key=lambda n: n.order)
    ok = x.order < y.order and not y.is_inside(x) and not x.is_inside(y)
    ev.update(compared=[x.id, y.id], positions=[x.order, y.order])
    return query_result("order", ok, f"{x.id} is {'before' if ok else 'not before'} {y.id}", ev)


class PositionParams(BaseModel):
    """Parameters of ``position``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec = Field(description="the node whose position is checked (the first match)")
    where: Literal["start", "end"] = Field(default="start", description="start: among the first items; end: among the last")
    container: Selector = Field(
        default="document",
        description="selector of the container (the innermost one holding the target is used)",
    )
    among: Selector | None = Field(
        default=None,
        description="selector of the items counted inside the container (default: 'row' for a "
        "target in a worksheet's cells, 'paragraph' otherwise)",
    )
    within: int = Field(
        default=1, ge=1, description="the target must be among the first/last N items"
    )
    skip_empty: bool = Field(
        default=True,
        description="items with no text and no image, shape, chart or table do not count "
        "(a paragraph holding only a picture is not empty)",
    )


def _default_items(node: Node) -> str:
    """What "at the start/end" counts when the author does not say: a worksheet has no
    paragraphs, and "the totals are at the end of the sheet" is about its rows."""
    in_sheet = any(a.kind == "sheet" for a in node.ancestors())
    in_row = node.kind in ("row", "cell") or any(a.kind == "row" for a in node.ancestors())
    return "row" if in_sheet and in_row else "paragraph"


@register_check(
    "position",
    mechanism="tree_query",
    params=PositionParams,
    example={"target": {"text": "Summary"}, "where": "start", "container": "document"},
)
def position(doc: Document, params: PositionParams, resources: Resources) -> CheckResult:
    """The target is at the start (or end) of its container: among its first/last N items.

    Items are the container's ``among`` nodes in document order; with ``skip_empty`` an
    item with no text and no non-text content (image, shape, chart, table) is not
    counted, so a trailing empty paragraph does not push the last paragraph away, and a
    paragraph holding the signature picture is an item like any other. Only items in the
    target's own flow count: a body paragraph is at the end of the document when no body
    paragraph follows it, whatever the footer holds (and a footer line is judged among the
    footer's).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("position", tiny_doc(), {"target": {"text": "Energy report"}, "where": "start"}).status
    'pass'
    """
    targets = select_targets(doc, params.target)
    if not targets:
        return query_result("position", False, f"nothing matches {params.target.describe()}", {})
    node = targets[0]
    containers = {id(c) for c in select_union(doc, params.container)}
    holder = next((a for a in node.ancestors() if id(a) in containers), None)
    if holder is None:
        return query_result(
            "position",
            False,
            f"{node.id} is not inside any {params.container!r}",
            {"target": node_ref(node)},
        )
    # Items are counted in the target's own flow: "the date is the last paragraph" is about
    # the body, and the footer's "Confidential" comes after it in the tree, not in the text.
    flow = flow_of(node)
    among = params.among or _default_items(node)
    items = [
        n
        for n in holder.select(among)
        if n is not holder
        and (not params.skip_empty or not is_empty(n))
        and (flow_of(n) is flow or n.is_inside(node) or node.is_inside(n))
    ]
    # the target counts as the item it is, or the item holding it
    item = next((i for i in items if i is node or node.is_inside(i) or i.is_inside(node)), None)
    if item is None:
        return query_result(
            "position",
            False,
            f"{node.id} is not one of the {among!r} items of {holder.id}",
            {"target": node_ref(node), "container": holder.id},
        )
    idx = items.index(item)
    rank = idx + 1 if params.where == "start" else len(items) - idx
    ok = rank <= params.within
    return query_result(
        "position",
        ok,
        f"{node.id} is item {idx + 1} of {len(items)} in {holder.id}; must be within the "
        f"{'first' if params.where == 'start' else 'last'} {params.within}",
        {
            "target": node_ref(node),
            "container": holder.id,
            "index": idx,
            "items": len(items),
            "neighbours": [
                node_ref(n) for n in (items[:3] if params.where == "start" else items[-3:])
            ],
        },
    )
