"""Tree queries on a document's outline (mechanism ``tree_query``): items nested under
a list item (``nested_under``) and heading levels (``heading_structure``).

Nesting of bullets is read from ``list_level`` (0 = top) because every source flattens
lists into consecutive paragraphs. Heading levels come from ``attrs["heading_level"]``.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node
from ..normalize import label_similarity
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import (
    Target,
    TargetSpec,
    cap_rows,
    labelled_text,
    node_ref,
    select_targets,
    text_matches,
)
from ._result import query_result

# -- nesting -----------------------------------------------------------------------------------


def _level(node: Node) -> int | None:
    v = node.attrs.get("list_level")
    return v if isinstance(v, int) else None


# A list item indented at least this much further than the one before it is drawn as
# its sub-item even at the same list level (python-docx's "List Bullet 2" style is level
# 0 of its own list, indented 0.25 in deeper than "List Bullet").
_DEEPER_INDENT_PT = 3.0


def _depth(node: Node) -> tuple[int, float]:
    """(list level, left indent in points) of a paragraph; a non-list paragraph is level -1."""
    level = _level(node)
    indent = node.attrs.get("indent_left")
    return (-1 if level is None else level, float(indent) if isinstance(indent, (int, float)) else 0.0)


def _deeper(node: Node, than: tuple[int, float]) -> bool:
    level, indent = _depth(node)
    if level != than[0]:
        return level > than[0]
    return level >= 0 and indent > than[1] + _DEEPER_INDENT_PT


def sub_items(para: Node) -> list[Node]:
    """The list items nested under a paragraph: the following paragraphs of the same
    container that are deeper than it, up to the first that is not. Deeper is a greater
    ``list_level`` (a non-list paragraph counts as level -1), or the same level drawn
    further in (``indent_left``): a reader sees "List Bullet 2" items under a "List
    Bullet" one although both are level 0 of their own lists."""
    base = _depth(para)
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
        if not _deeper(sib, base):
            if not sib.text.strip() and _level(sib) is None:
                continue  # an empty paragraph between items does not end the list
            break
        out.append(sib)
    return out


class NestedParams(BaseModel):
    """Parameters of ``nested_under``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
        return query_result(
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
            # the direct sub-items: those no deeper than the shallowest; an item deeper
            # than the one before it belongs to that one
            first = min(_depth(s) for s in subs)
            subs = [s for s in subs if not _deeper(s, first)]
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
    return query_result(
        "nested_under",
        passed,
        explanation,
        {"parents": cap_rows(rows), "parents_total": len(rows)},
        score=good / len(rows) if params.each_parent else None,
    )


# -- headings ------------------------------------------------------------------------------------


class HeadingParams(BaseModel):
    """Parameters of ``heading_structure``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
    no_skipped_levels: bool | None = Field(
        default=None,
        description="a heading is at most one level below the previous heading (the first "
        "heading may have any level; use top_level for that). Default: checked only when "
        "the check asks about the outline itself (no expected, no min_count)",
    )
    top_level: int | None = Field(
        default=None, ge=1, le=9, description="the first heading (below a title) must have this level"
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


def _heading_similarity(expected: str, heading: Node) -> float:
    """How well ``expected`` names ``heading``: its text as typed, or as the page prints
    it with its number ("1.1 Background" on a Heading 2 numbered by its style's list,
    whose text is "Background"), whichever is closer."""
    score = label_similarity(expected, heading.text)
    shown = labelled_text(heading)
    return score if shown == heading.text else max(score, label_similarity(expected, shown))


@register_check(
    "heading_structure",
    mechanism="tree_query",
    params=HeadingParams,
    example={"level": 3, "expected": ["Module 1", "Module 2"], "no_skipped_levels": True},
)
def heading_structure(doc: Document, params: HeadingParams, resources: Resources) -> CheckResult:
    """Headings: the expected ones exist at the given level (e.g. a Heading 3 per module) and levels never skip.

    ``level`` + ``expected`` answer "X is a Heading 3": each expected text (fuzzy) is a
    heading of that level, wherever the outline starts. ``no_skipped_levels`` checks the
    outline itself: no heading is more than one level below the heading before it (a
    title, level 0, counts as level 1; the first heading may have any level, so a document
    whose first heading is a Heading 3 is not "skipping"). It defaults to on only when the
    check asks about the outline (no ``expected``, no ``min_count``); set it to true to
    check both. ``top_level`` requires the first heading's level, a title (level 0) above
    it aside.

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
    check_skips = params.no_skipped_levels
    if check_skips is None:
        # "X is a Heading 3" asks about X, not about the outline around it
        check_skips = not params.expected and params.min_count is None
    if check_skips:
        prev: int | None = None
        for node, lvl in heads:
            if prev is not None and lvl > max(prev, 1) + 1:
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
        # The document's title (level 0: python-docx's add_heading(text, 0)) sits above the
        # outline: "the outline starts at Heading 1" is about the first heading below it.
        first = next((lvl for _n, lvl in heads if lvl > 0), None)
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
            ((_heading_similarity(text, n), i) for i, (n, _l) in enumerate(at_level)),
            default=(0.0, -1),
            key=lambda t: (t[0], -t[1]),
        )
        ok = best[0] >= params.threshold
        # a heading at another level is worth naming in the evidence
        elsewhere = None
        if not ok:
            alt = max(
                ((_heading_similarity(text, n), n, lvl) for n, lvl in heads),
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
    return query_result(
        "heading_structure",
        passed,
        "; ".join(problems) if problems else f"{len(heads)} heading(s); structure as expected",
        {
            "outline": [{"id": n.id, "level": lvl, "text": n.text[:60]} for n, lvl in heads[:100]],
            "expected": found,
            "skips": skips,
            "no_skipped_levels": check_skips,
        },
        score=checks_ok / checks_total,
    )
