"""Tree queries (mechanism ``tree_query``): existence, counts, order, position in a
container, nesting of list items, heading structure, slide/sheet/table structure, header
rows, columns by header text, and "rows with property P are grouped at the top".

Document order is pre-order of the tree (``Node.order``): a paragraph comes after its
earlier siblings' whole subtrees. Nesting of bullets is read from ``list_level`` (0 = top)
because every source flattens lists into consecutive paragraphs.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..model import Document, Node
from .color import DEFAULT_TOLERANCE, match_color, resolve_color
from .grid import Grid, detect_header_row, grids, row_is_bold
from .normalize import label_similarity, normalize_text
from .registry import Resources, register_check
from .result import CheckResult
from .target import (
    Target,
    TargetSpec,
    cap_rows,
    node_ref,
    select_targets,
    select_union,
    text_matches,
)


def _result(
    name: str, passed: bool, explanation: str, evidence: dict[str, Any], score: float | None = None
) -> CheckResult:
    return CheckResult(
        check=name,
        status="pass" if passed else "fail",
        mechanism="tree_query",
        score=score if score is not None else float(passed),
        explanation=explanation,
        evidence=evidence,
    )


# -- existence and counts --------------------------------------------------------------


class ExistsParams(BaseModel):
    """Parameters of ``exists``."""

    model_config = ConfigDict(extra="forbid")

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
    return _result(
        "exists",
        bool(nodes),
        f"{len(nodes)} node(s) match {params.target.describe()}",
        {"count": len(nodes), "nodes": [node_ref(n) for n in nodes[:20]]},
    )


class CountParams(BaseModel):
    """Parameters of ``count``: any combination of exactly / at_least / at_most."""

    model_config = ConfigDict(extra="forbid")

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

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("count", tiny_doc(), {"target": "table row", "exactly": 3}).status
    'pass'
    """
    nodes = select_targets(doc, params.target)
    ok, bounds = count_ok(len(nodes), params.exactly, params.at_least, params.at_most)
    return _result(
        "count",
        ok,
        f"{len(nodes)} node(s) match {params.target.describe()}; expected {bounds}",
        {
            "count": len(nodes),
            "exactly": params.exactly,
            "at_least": params.at_least,
            "at_most": params.at_most,
            "nodes": [node_ref(n) for n in nodes[:20]],
        },
    )


class CountEachParams(BaseModel):
    """Parameters of ``count_each``."""

    model_config = ConfigDict(extra="forbid")

    each: str = Field(description="selector of the containers, e.g. 'slide' or 'sheet'")
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
    if not containers:
        return _result(
            "count_each", False, f"no container matches {params.each!r}", {"containers": []}
        )
    found = select_targets(doc, params.target)
    # ids of each found node and its ancestors: one pass, then a set lookup per container
    holders: dict[int, int] = {}
    for n in found:
        for a in (n, *n.ancestors()):
            holders[id(a)] = holders.get(id(a), 0) + 1
    rows = []
    for c in containers:
        k = holders.get(id(c), 0)
        ok, bounds = count_ok(k, params.exactly, params.at_least, params.at_most)
        rows.append({**node_ref(c), "count": k, "ok": ok})
    good = sum(1 for r in rows if r["ok"])
    bad = [r for r in rows if not r["ok"]]
    explanation = f"{good}/{len(rows)} {params.each!r} container(s) hold {bounds} of {params.target.describe()}"
    if bad:
        explanation += f"; e.g. {bad[0]['id']} holds {bad[0]['count']}"
    return _result(
        "count_each",
        not bad,
        explanation,
        {"containers": rows[:200]},
        score=good / len(rows),
    )


# -- order and position ------------------------------------------------------------------------


class OrderParams(BaseModel):
    """Parameters of ``order``."""

    model_config = ConfigDict(extra="forbid")

    first: TargetSpec
    then: TargetSpec
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
        return _result("order", False, f"nothing matches {missing}", ev)
    if params.mode == "first":
        x, y = a[0], b[0]
    else:
        x, y = max(a, key=lambda n: n.order), min(b, key=lambda n: n.order)
    ok = x.order < y.order and not y.is_inside(x) and not x.is_inside(y)
    ev.update(compared=[x.id, y.id], positions=[x.order, y.order])
    return _result("order", ok, f"{x.id} is {'before' if ok else 'not before'} {y.id}", ev)


class PositionParams(BaseModel):
    """Parameters of ``position``."""

    model_config = ConfigDict(extra="forbid")

    target: TargetSpec
    where: Literal["start", "end"] = "start"
    container: str = Field(
        default="document",
        description="selector of the container (the innermost one holding the target is used)",
    )
    among: str = Field(
        default="paragraph", description="selector of the items counted inside the container"
    )
    within: int = Field(
        default=1, ge=1, description="the target must be among the first/last N items"
    )
    skip_empty: bool = True


@register_check(
    "position",
    mechanism="tree_query",
    params=PositionParams,
    example={"target": {"text": "Summary"}, "where": "start", "container": "document"},
)
def position(doc: Document, params: PositionParams, resources: Resources) -> CheckResult:
    """The target is at the start (or end) of its container: among its first/last N items.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("position", tiny_doc(), {"target": {"text": "Energy report"}, "where": "start"}).status
    'pass'
    """
    targets = select_targets(doc, params.target)
    if not targets:
        return _result("position", False, f"nothing matches {params.target.describe()}", {})
    node = targets[0]
    containers = {id(c) for c in select_union(doc, params.container)}
    holder = next((a for a in node.ancestors() if id(a) in containers), None)
    if holder is None:
        return _result(
            "position",
            False,
            f"{node.id} is not inside any {params.container!r}",
            {"target": node_ref(node)},
        )
    items = [
        n
        for n in holder.select(params.among)
        if n is not holder and (not params.skip_empty or n.text.strip())
    ]
    # the target counts as the item it is, or the item holding it
    item = next((i for i in items if i is node or node.is_inside(i) or i.is_inside(node)), None)
    if item is None:
        return _result(
            "position",
            False,
            f"{node.id} is not one of the {params.among!r} items of {holder.id}",
            {"target": node_ref(node), "container": holder.id},
        )
    idx = items.index(item)
    rank = idx + 1 if params.where == "start" else len(items) - idx
    ok = rank <= params.within
    return _result(
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


# -- nesting -----------------------------------------------------------------------------------


def _level(node: Node) -> int | None:
    v = node.attrs.get("list_level")
    return v if isinstance(v, int) else None


def sub_items(para: Node) -> list[Node]:
    """The list items nested under a paragraph: the following paragraphs of the same
    container whose ``list_level`` is deeper than the paragraph's (a non-list paragraph
    counts as level -1), up to the first paragraph that is not deeper."""
    base = _level(para)
    base = -1 if base is None else base
    parent = para.parent
    if parent is None:
        return []
    siblings = [c for c in parent.children if c.kind == "paragraph"]
    out = []
    started = False
    for sib in siblings:
        if sib is para:
            started = True
            continue
        if not started:
            continue
        lvl = _level(sib)
        if lvl is None or lvl <= base:
            if not sib.text.strip() and lvl is None:
                continue  # an empty paragraph between items does not end the list
            break
        out.append(sib)
    return out


class NestedParams(BaseModel):
    """Parameters of ``nested_under``."""

    model_config = ConfigDict(extra="forbid")

    parent: TargetSpec = Field(
        description="the item(s) that must have sub-items, e.g. the URL bullet"
    )
    children: list[str] = Field(
        default_factory=list, description="texts that must appear among the sub-items"
    )
    min_children: int = Field(default=1, ge=0)
    direct_only: bool = Field(default=False, description="only the next level down counts")
    each_parent: bool = Field(
        default=True, description="every matched parent must satisfy (else one suffices)"
    )
    match: Literal["contains", "fuzzy"] = "contains"


@register_check(
    "nested_under",
    mechanism="tree_query",
    params=NestedParams,
    example={
        "parent": {"text": "https://example.com/facts"},
        "children": ["Fact one"],
        "min_children": 1,
    },
)
def nested_under(doc: Document, params: NestedParams, resources: Resources) -> CheckResult:
    """Items are nested under a parent item: the following paragraphs with a deeper list level (sub-bullets).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("nested_under", tiny_doc(), {"parent": {"text": "example.com/facts"},
    ...                                        "children": ["fact one"]}).status
    'pass'
    """
    parents = [p for p in select_targets(doc, params.parent)]
    parents = [
        p if p.kind == "paragraph" else next((a for a in p.ancestors() if a.kind == "paragraph"), p)
        for p in parents
    ]
    if not parents:
        return _result(
            "nested_under",
            False,
            f"no parent item matches {params.parent.describe()}",
            {"parents": []},
        )
    probe = Target(text="x", match=params.match)
    rows = []
    for p in parents:
        subs = sub_items(p)
        if params.direct_only and subs:
            first = min(_level(s) or 0 for s in subs)
            subs = [s for s in subs if _level(s) == first]
        found = {
            c: next((s.id for s in subs if text_matches(s.text, c, probe)), None)
            for c in params.children
        }
        ok = len(subs) >= params.min_children and all(v is not None for v in found.values())
        rows.append(
            {
                **node_ref(p),
                "level": _level(p),
                "sub_items": [node_ref(s) for s in subs[:20]],
                "required": found,
                "ok": ok,
            }
        )
    good = sum(r["ok"] for r in rows)
    passed = good == len(rows) if params.each_parent else good > 0
    bad = next((r for r in rows if not r["ok"]), None)
    explanation = f"{good}/{len(rows)} parent item(s) have the required sub-items"
    if bad is not None and not passed:
        missing = [c for c, v in bad["required"].items() if v is None]
        explanation += f"; {bad['id']} has {len(bad['sub_items'])} sub-item(s)" + (
            f", missing {missing}" if missing else ""
        )
    return _result(
        "nested_under",
        passed,
        explanation,
        {"parents": cap_rows(rows), "parents_total": len(rows)},
        score=good / len(rows) if params.each_parent else None,
    )


# -- headings ------------------------------------------------------------------------------------


class HeadingParams(BaseModel):
    """Parameters of ``heading_structure``."""

    model_config = ConfigDict(extra="forbid")

    level: int | None = Field(
        default=None, ge=1, le=9, description="the level the expected headings must have"
    )
    expected: list[str] = Field(
        default_factory=list, description="heading texts that must exist at that level (fuzzy)"
    )
    in_order: bool = False
    threshold: float = Field(
        default=85.0,
        ge=0,
        le=100,
        description="label_similarity (token_set_ratio; numbers must match)",
    )
    no_skipped_levels: bool = Field(
        default=True, description="a heading is at most one level below the previous one"
    )
    top_level: int | None = Field(
        default=None, ge=1, le=9, description="the first heading must have this level"
    )
    min_count: int | None = Field(
        default=None, ge=0, description="at least this many headings at `level`"
    )
    scope: TargetSpec | None = None


def outline(doc: Document, scope: list[Node] | None = None) -> list[tuple[Node, int]]:
    """Headings in document order with their level (``attrs["heading_level"]``; a
    title paragraph with level 0 counts as level 0)."""
    inside = None if scope is None else {id(x) for s in scope for x in s.iter()}
    out = []
    for p in doc.iter("paragraph"):
        lvl = p.attrs.get("heading_level")
        if isinstance(lvl, int) and p.text.strip() and (inside is None or id(p) in inside):
            out.append((p, lvl))
    return out


@register_check(
    "heading_structure",
    mechanism="tree_query",
    params=HeadingParams,
    example={"level": 3, "expected": ["Module 1", "Module 2"], "no_skipped_levels": True},
)
def heading_structure(doc: Document, params: HeadingParams, resources: Resources) -> CheckResult:
    """Headings: the expected ones exist at the given level (e.g. a Heading 3 per module) and levels never skip.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("heading_structure", tiny_doc(), {"level": 1, "expected": ["energy report"]}).status
    'pass'
    """
    scope = select_targets(doc, params.scope) if params.scope is not None else None
    heads = outline(doc, scope)
    problems: list[str] = []
    checks_total = checks_ok = 0
    skips = []
    if params.no_skipped_levels:
        prev = 0
        for node, lvl in heads:
            if lvl > prev + 1 and lvl > 1:
                skips.append(
                    {"id": node.id, "text": node.text[:60], "level": lvl, "after_level": prev}
                )
            prev = lvl
        checks_total += 1
        checks_ok += not skips
        if skips:
            problems.append(
                f"level skipped at {skips[0]['id']} (H{skips[0]['after_level']} -> H{skips[0]['level']})"
            )
    if params.top_level is not None:
        checks_total += 1
        first = heads[0][1] if heads else None
        checks_ok += first == params.top_level
        if first != params.top_level:
            problems.append(f"first heading has level {first}, expected {params.top_level}")
    at_level = [(n, lvl) for n, lvl in heads if params.level is None or lvl == params.level]
    if params.min_count is not None:
        checks_total += 1
        checks_ok += len(at_level) >= params.min_count
        if len(at_level) < params.min_count:
            problems.append(
                f"{len(at_level)} heading(s) at level {params.level}, expected at least {params.min_count}"
            )
    found: list[dict[str, Any]] = []
    last_pos = -1
    for text in params.expected:
        # best score; on a tie the earliest heading (max would take the last)
        best = max(
            ((label_similarity(text, n.text), i) for i, (n, _l) in enumerate(at_level)),
            default=(0.0, -1),
            key=lambda t: (t[0], -t[1]),
        )
        ok = best[0] >= params.threshold
        # a heading at another level is worth naming in the evidence
        elsewhere = None
        if not ok:
            alt = max(
                ((label_similarity(text, n.text), n, lvl) for n, lvl in heads),
                default=None,
                key=lambda t: t[0],
            )
            if alt is not None and alt[0] >= params.threshold:
                elsewhere = {"id": alt[1].id, "level": alt[2]}
        in_order = ok and best[1] > last_pos
        if ok and params.in_order and not in_order:
            ok = False
        if ok:
            last_pos = best[1]
        best_node = at_level[best[1]][0] if best[1] >= 0 else None
        found.append(
            {
                "expected": text,
                "ok": ok,
                "similarity": round(best[0], 1),
                "best": node_ref(best_node) if best_node is not None else None,
                "at_other_level": elsewhere,
            }
        )
        checks_total += 1
        checks_ok += ok
    missing = [f for f in found if not f["ok"]]
    if missing:
        m = missing[0]
        problems.append(
            f"{len(missing)} expected heading(s) missing at level {params.level}, e.g. {m['expected']!r}"
            + (f" (found at level {m['at_other_level']['level']})" if m["at_other_level"] else "")
        )
    if checks_total == 0:
        checks_total, checks_ok = 1, int(bool(heads))
        if not heads:
            problems.append("no headings")
    passed = checks_ok == checks_total
    return _result(
        "heading_structure",
        passed,
        "; ".join(problems) if problems else f"{len(heads)} heading(s); structure as expected",
        {
            "outline": [{"id": n.id, "level": lvl, "text": n.text[:60]} for n, lvl in heads[:100]],
            "expected": found,
            "skips": skips,
        },
        score=checks_ok / checks_total,
    )


# -- slides, sheets, tables ----------------------------------------------------------------------

Unit = Literal["pages", "slides", "sheets", "tables", "images", "rows", "columns", "text_columns"]


class StructureParams(BaseModel):
    """Parameters of ``structure``."""

    model_config = ConfigDict(extra="forbid")

    unit: Unit
    scope: TargetSpec | None = Field(
        default=None, description="for rows/columns: which sheet or table (default: the first)"
    )
    exactly: int | None = Field(default=None, ge=0)
    at_least: int | None = Field(default=None, ge=0)
    at_most: int | None = Field(default=None, ge=0)
    names: list[str] = Field(
        default_factory=list, description="sheets: names that must exist (normalised)"
    )
    ordered: bool = Field(default=False, description="names must appear in this order")
    include_hidden: bool = False


def _hidden(node: Node) -> bool:
    """A hidden slide (``hidden``) or a hidden / very hidden sheet (``state``)."""
    return bool(node.attrs.get("hidden")) or node.attrs.get("state") in ("hidden", "veryHidden")


@register_check(
    "structure",
    mechanism="tree_query",
    params=StructureParams,
    example={"unit": "sheets", "names": ["Data", "Summary"], "ordered": True},
)
def structure(doc: Document, params: StructureParams, resources: Resources) -> CheckResult:
    """Counts and names of slides, pages, sheets, tables, images, or a table's rows and columns.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("structure", tiny_doc(), {"unit": "columns", "exactly": 2}).status
    'pass'
    """
    names: list[str] = []
    items: list[Any]
    if params.unit in ("pages", "slides", "sheets"):
        kind = params.unit[:-1]
        nodes = [n for n in doc.iter(kind) if params.include_hidden or not _hidden(n)]
        pages = [p for p in doc.pages if p.kind == kind and (params.include_hidden or not p.hidden)]
        items = nodes if nodes else pages
        names = [
            str(getattr(x, "attrs", {}).get("name") or getattr(x, "name", None) or "")
            for x in items
        ]
    elif params.unit in ("tables", "images"):
        items = list(doc.iter(params.unit[:-1]))
    elif params.unit == "text_columns":
        values = [v for p in doc.pages if isinstance(v := p.attrs.get("columns"), int)]
        sections = doc.root.attrs.get("sections")
        if not values and isinstance(sections, list):  # docx: columns per section
            values = [
                v
                for sec in sections
                if isinstance(sec, dict) and isinstance(v := sec.get("columns"), int)
            ]
        if not values:
            raise ValueError(
                "this document carries no text-column count (its extractor does not report one)"
            )
        n = max(values)
        ok, bounds = count_ok(n, params.exactly, params.at_least, params.at_most)
        return _result(
            "structure",
            ok,
            f"up to {n} text column(s) per page; expected {bounds}",
            {"columns_per_page_or_section": list(values)},
        )
    else:
        gs = grids(doc, params.scope)
        if not gs:
            return _result("structure", False, "no sheet or table to count rows/columns in", {})
        g = gs[0]
        if params.unit == "rows":
            items = [i for i in range(len(g.cells)) if not g.is_blank(i)]
        else:
            items = [
                j
                for j in range(len(g.col_numbers))
                if any((cell := row[j]) is not None and cell.text.strip() for row in g.cells)
            ]
    n = len(items)
    ok, bounds = count_ok(n, params.exactly, params.at_least, params.at_most)
    problems = [] if ok or not bounds else [f"{n} {params.unit}, expected {bounds}"]
    name_rows = []
    if params.names:
        normed = [normalize_text(x) for x in names]
        last = -1
        for want in params.names:
            w = normalize_text(want)
            idx = normed.index(w) if w in normed else -1
            found = idx >= 0 and (not params.ordered or idx > last)
            if found:
                last = idx
            name_rows.append({"name": want, "index": idx, "ok": found})
        bad = [r["name"] for r in name_rows if not r["ok"]]
        if bad:
            problems.append(f"missing or out of order: {bad}")
    passed = not problems
    parts = 1 + len(name_rows) if (bounds or not name_rows) else len(name_rows)
    good = (1 if (ok or not bounds) and (bounds or not name_rows) else 0) + sum(
        1 for r in name_rows if r["ok"]
    )
    return _result(
        "structure",
        passed,
        "; ".join(problems)
        if problems
        else f"{n} {params.unit}" + (f" named {names}" if names else ""),
        {"count": n, "names": names, "expected_names": name_rows},
        score=good / parts,
    )


# -- sheets and tables: header row, columns, grouped rows -------------------------------------


class HeaderRowParams(BaseModel):
    """Parameters of ``header_row``."""

    model_config = ConfigDict(extra="forbid")

    scope: TargetSpec | None = Field(
        default=None, description="the sheet or table (default: every one)"
    )
    row: int | None = Field(default=None, ge=1, description="the header must be this 1-based row")
    bold: bool | None = Field(default=None, description="the header cells must (not) be bold")
    headers: list[str] = Field(
        default_factory=list, description="labels the header must contain (fuzzy)"
    )
    threshold: float = Field(default=85.0, ge=0, le=100)


@register_check(
    "header_row",
    mechanism="tree_query",
    params=HeaderRowParams,
    example={"scope": "sheet[name='Data']", "row": 1, "bold": True},
)
def header_row(doc: Document, params: HeaderRowParams, resources: Resources) -> CheckResult:
    """A sheet or table has a header row (labels above data rows), optionally at a given row, bold, with given labels.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("header_row", tiny_doc(), {"row": 1, "bold": True, "headers": ["name", "score"]}).status
    'pass'
    """
    gs = grids(doc, params.scope)
    if not gs:
        return _result("header_row", False, "no sheet or table found", {"grids": []})
    rows = []
    for g in gs:
        guess = detect_header_row(g)
        row: dict[str, Any] = {
            "grid": g.name,
            "detected_row": None if guess.index is None else g.row_numbers[guess.index],
            "reason": guess.reason,
            "problems": [],
        }
        if guess.index is None:
            row["problems"].append("no header row")
        else:
            i = guess.index
            row["labels"] = [t for t in g.row_texts(i) if t]
            if params.row is not None and g.row_numbers[i] != params.row:
                row["problems"].append(
                    f"header is row {g.row_numbers[i]}, expected row {params.row}"
                )
            if params.bold is not None and row_is_bold(g, i) != params.bold:
                row["problems"].append(f"header {'is not' if params.bold else 'is'} bold")
            for label in params.headers:
                best = max(
                    (label_similarity(label, t) for t in row["labels"]),
                    default=0,
                )
                if best < params.threshold:
                    row["problems"].append(f"no header like {label!r}")
        row["ok"] = not row["problems"]
        rows.append(row)
    good = sum(r["ok"] for r in rows)
    passed = good == len(rows)
    return _result(
        "header_row",
        passed,
        f"{good}/{len(rows)} sheet(s)/table(s) have the expected header"
        + (
            ""
            if passed
            else f"; {rows[[r['ok'] for r in rows].index(False)]['grid']}: "
            + "; ".join(next(r for r in rows if not r["ok"])["problems"])
        ),
        {"grids": rows},
        score=good / len(rows),
    )


def match_columns(
    grid: Grid, header_index: int, headers: list[str], threshold: float
) -> list[dict[str, Any]]:
    """Map each expected header text to the best column of the header row
    (``normalize.label_similarity``: token_set_ratio, numbers must match; each column is
    used at most once, best pairs first)."""
    labels = grid.row_texts(header_index)
    pairs = sorted(
        (
            (label_similarity(h, t) if t else 0.0, k, j)
            for k, h in enumerate(headers)
            for j, t in enumerate(labels)
        ),
        key=lambda p: (-p[0], p[1], p[2]),  # best first; ties: earlier header, leftmost column
    )
    taken_k: dict[int, tuple[float, int]] = {}
    taken_j: set[int] = set()
    for score, k, j in pairs:
        if k in taken_k or j in taken_j or score < threshold:
            continue
        taken_k[k] = (score, j)
        taken_j.add(j)
    out = []
    for k, h in enumerate(headers):
        if k in taken_k:
            score, j = taken_k[k]
            out.append(
                {
                    "expected": h,
                    "column": grid.col_label(j),
                    "index": j,
                    "actual": labels[j],
                    "similarity": round(score, 1),
                    "ok": True,
                }
            )
        else:
            out.append({"expected": h, "column": None, "index": None, "ok": False})
    return out


class ColumnsParams(BaseModel):
    """Parameters of ``columns_match``."""

    model_config = ConfigDict(extra="forbid")

    scope: TargetSpec | None = None
    headers: list[str] = Field(min_length=1)
    threshold: float = Field(
        default=80.0,
        ge=0,
        le=100,
        description="label_similarity (token_set_ratio; numbers must match)",
    )
    in_order: bool = False
    header_row: int | None = Field(default=None, ge=1, description="1-based; default: detected")


@register_check(
    "columns_match",
    mechanism="tree_query",
    params=ColumnsParams,
    example={"scope": "sheet", "headers": ["Name", "Email", "Phone"], "in_order": True},
)
def columns_match(doc: Document, params: ColumnsParams, resources: Resources) -> CheckResult:
    """The header row has a column for each expected header text (fuzzy), optionally in that order.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("columns_match", tiny_doc(), {"headers": ["score", "names"], "in_order": False}).status
    'pass'
    """
    gs = grids(doc, params.scope)
    if not gs:
        return _result("columns_match", False, "no sheet or table found", {})
    best: tuple[int, Grid, list[dict[str, Any]], int] | None = None
    for g in gs:
        if params.header_row is not None:
            idx = (
                g.row_numbers.index(params.header_row)
                if params.header_row in g.row_numbers
                else None
            )
        else:
            idx = detect_header_row(g).index
        if idx is None:
            continue
        m = match_columns(g, idx, params.headers, params.threshold)
        hits = sum(r["ok"] for r in m)
        if best is None or hits > best[0]:
            best = (hits, g, m, idx)
    if best is None:
        return _result(
            "columns_match", False, "no header row found", {"grids": [g.name for g in gs]}
        )
    hits, g, mapping, idx = best
    order_ok = True
    if params.in_order:
        found = [r["index"] for r in mapping if r["ok"]]
        order_ok = found == sorted(found)
    passed = hits == len(params.headers) and order_ok
    missing = [r["expected"] for r in mapping if not r["ok"]]
    explanation = (
        f"{hits}/{len(params.headers)} header(s) matched in {g.name} row {g.row_numbers[idx]}"
    )
    if missing:
        explanation += f"; missing {missing}; header row is {[t for t in g.row_texts(idx) if t]}"
    if not order_ok:
        explanation += "; columns are out of order"
    return _result(
        "columns_match",
        passed,
        explanation,
        {
            "grid": g.name,
            "header_row": g.row_numbers[idx],
            "mapping": mapping,
            "in_order": order_ok,
        },
        score=hits / len(params.headers) * (1.0 if order_ok else 0.5),
    )


RowProperty = Literal["filled", "highlighted", "bold", "italic", "text"]


class GroupedParams(BaseModel):
    """Parameters of ``rows_grouped_at_top``."""

    model_config = ConfigDict(extra="forbid")

    scope: TargetSpec | None = None
    property: RowProperty = "filled"
    color: str | None = Field(
        default=None,
        description="filled/highlighted: only this colour counts (CIEDE2000 tolerance)",
    )
    color_tolerance: float = Field(default=DEFAULT_TOLERANCE, ge=0)
    column: str | None = Field(default=None, description="text: the header of the column to test")
    text: str | None = Field(default=None, description="text: rows whose cell contains this")
    cells: Literal["all", "any"] = Field(
        default="all", description="the row has P when all (or any) of its filled cells have it"
    )
    header_row: int | None = Field(
        default=None, ge=1, description="1-based; default: detected (0 rows if none)"
    )
    min_rows: int = Field(default=1, ge=0)


def _cell_has(cell: Node, params: GroupedParams, ignore_white: set[str]) -> bool:
    style = cell.style
    if params.property in ("filled", "highlighted"):
        values = []
        if style is not None and style.fill:
            values.append(style.fill)
        if params.property == "highlighted":
            values += [
                r.style.highlight
                for r in cell.descendants("run")
                if r.style is not None and r.style.highlight
            ]
            if style is not None and style.highlight:
                values.append(style.highlight)
        values = [v for v in values if v not in ignore_white]
        if params.color is not None:
            return any(
                match_color(v, params.color, tolerance=params.color_tolerance).ok for v in values
            )
        return bool(values)
    units = [r for r in cell.descendants("run") if r.text.strip()] or [cell]
    flag = params.property
    return all(u.style is not None and bool(getattr(u.style, flag)) for u in units)


@register_check(
    "rows_grouped_at_top",
    mechanism="tree_query",
    params=GroupedParams,
    example={"scope": "sheet", "property": "filled", "color": "yellow"},
)
def rows_grouped_at_top(doc: Document, params: GroupedParams, resources: Resources) -> CheckResult:
    """Rows with a property (filled, highlighted, bold, text in a column) form one block right below the header.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("rows_grouped_at_top", tiny_doc(), {"property": "text", "column": "Name", "text": "Ada"}).status
    'pass'
    """
    if params.property == "text" and (params.column is None or params.text is None):
        raise ValueError("property 'text' needs 'column' and 'text'")
    gs = grids(doc, params.scope)
    if not gs:
        return _result("rows_grouped_at_top", False, "no sheet or table found", {})
    g = gs[0]
    if params.header_row is not None:
        h = g.row_numbers.index(params.header_row) if params.header_row in g.row_numbers else None
    else:
        h = detect_header_row(g).index
    start = 0 if h is None else h + 1
    data = [i for i in range(start, len(g.cells)) if not g.is_blank(i)]
    col_index = None
    if params.property == "text":
        if h is None:
            return _result(
                "rows_grouped_at_top",
                False,
                "no header row to find the column in",
                {"grid": g.name},
            )
        assert params.column is not None
        m = match_columns(g, h, [params.column or ""], 80.0)[0]
        if not m["ok"]:
            return _result(
                "rows_grouped_at_top",
                False,
                f"no column like {params.column!r}",
                {"grid": g.name, "header": g.row_texts(h)},
            )
        col_index = m["index"]
    white = {c.hex for c in resolve_color("white")}
    flags = []
    for i in data:
        if col_index is not None:
            cell = g.cells[i][col_index]
            flags.append(
                cell is not None and text_matches(cell.text, params.text or "", Target(text="x"))
            )
            continue
        cells = [c for c in g.cells[i] if c is not None and (c.text.strip() or c.style is not None)]
        texted = [c for c in cells if c.text.strip()] or cells
        results = [_cell_has(c, params, white) for c in texted]
        flags.append(bool(results) and (all(results) if params.cells == "all" else any(results)))
    marked = [g.row_numbers[i] for i, f in zip(data, flags) if f]
    k = len(marked)
    top_block = all(flags[:k]) if k else True
    stray = [g.row_numbers[i] for i, f in zip(data[k:], flags[k:]) if f]
    passed = k >= params.min_rows and top_block
    explanation = f"{k} row(s) with {params.property} in {g.name}" + (
        f", all directly below the header (rows {marked[0]}-{marked[-1]})" if passed and k else ""
    )
    if not passed:
        if k < params.min_rows:
            explanation += f"; expected at least {params.min_rows}"
        else:
            gap = next(g.row_numbers[i] for i, f in zip(data[:k], flags[:k]) if not f)
            explanation += f"; row {gap} lacks it while rows {stray} below have it"
    in_block = sum(1 for f in flags[:k] if f)
    return _result(
        "rows_grouped_at_top",
        passed,
        explanation,
        {
            "grid": g.name,
            "header_row": None if h is None else g.row_numbers[h],
            "marked_rows": marked,
            "out_of_place_rows": stray,
            "grid_truncated": g.truncated,
            "data_rows": len(data),
        },
        score=(in_block / k if k else float(passed)) if k >= params.min_rows else 0.0,
    )
