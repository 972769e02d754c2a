"""Aggregation rules: how an inner node's score follows from its children's scores.

Pure functions over (score, weight, critical) triples; the exact rules, with the reasons,
are in design/aggregation.md. Scores are in [0, 1]. A child "reaches full score" when its
score is at least ``1 - FULL_EPSILON`` (float sums of weights must not turn a pass into a
partial).

Children that could not be judged (outcome error, needs_trace, skipped) arrive here with
score 0: no credit is given for what was not shown. They are never reported as "failed";
the report counts them by outcome.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .model import Aggregation

FULL_EPSILON = 1e-9


@dataclass(frozen=True)
class ChildScore:
    """One child's contribution: ``score`` in [0, 1], ``weight`` (points) >= 0."""

    score: float
    weight: float = 1.0
    critical: bool = False


def is_full(score: float) -> bool:
    """True when ``score`` counts as full marks."""
    return score >= 1.0 - FULL_EPSILON


def weighted_average(children: Sequence[ChildScore]) -> float:
    """Sum of weight x score over sum of weights. When every weight is 0 the children
    carry no points, so the node falls back to ``all_pass`` over them (a node must not
    pass by having nothing to lose while its children fail)."""
    total = sum(c.weight for c in children)
    if total <= 0:
        return all_pass(children)
    return _clip(sum(c.weight * c.score for c in children) / total)


def gate(children: Sequence[ChildScore]) -> float:
    """Gate-then-weighted-average (Mind2Web 2 with weights): 0 when any critical child is
    below full score; otherwise the weighted average of the non-critical children, or 1
    when every child is critical.

    >>> gate([ChildScore(1, critical=True), ChildScore(0.5), ChildScore(1)])
    0.75
    >>> gate([ChildScore(0.9, critical=True), ChildScore(1)])
    0.0
    """
    if any(c.critical and not is_full(c.score) for c in children):
        return 0.0
    rest = [c for c in children if not c.critical]
    if not rest:
        return 1.0
    return weighted_average(rest)


def points(children: Sequence[ChildScore]) -> float:
    """KNOWS-style points: every child is worth ``weight`` points and earns
    ``weight x score`` (partial credit inside a step); the node scores earned / total.

    >>> points([ChildScore(1, weight=2), ChildScore(0.5, weight=2), ChildScore(0, weight=1)])
    0.6
    """
    return weighted_average(children)


def all_pass(children: Sequence[ChildScore]) -> float:
    """1 when every child reaches full score, else 0 (no partial credit).

    >>> all_pass([ChildScore(1), ChildScore(0.99)])
    0.0
    """
    return 1.0 if all(is_full(c.score) for c in children) else 0.0


def at_least(children: Sequence[ChildScore], k: int) -> float:
    """1 when at least ``k`` children reach full score, else 0: ``k`` alternatives out of
    several ways to meet one requirement. No partial credit, as ``all`` (a half-met
    alternative does not meet the requirement); weights do not count.

    >>> at_least([ChildScore(0), ChildScore(1), ChildScore(0.5)], 1)
    1.0
    >>> at_least([ChildScore(0), ChildScore(1), ChildScore(0.5)], 2)
    0.0
    """
    if k < 1:
        raise ValueError(f"at_least needs k >= 1, got {k}")
    return 1.0 if sum(1 for c in children if is_full(c.score)) >= k else 0.0


def any_pass(children: Sequence[ChildScore]) -> float:
    """1 when at least one child reaches full score, else 0 (``at_least`` 1).

    >>> any_pass([ChildScore(0.9), ChildScore(1)])
    1.0
    """
    return at_least(children, 1)


def aggregate(rule: Aggregation, children: Sequence[ChildScore], *, k: int | None = None) -> float:
    """Apply ``rule`` (gate | points | all | any | at_least, the last with ``k``) to
    ``children``; a node without children cannot exist (the model forbids it)."""
    if not children:
        raise ValueError("an inner node needs at least one child")
    if rule == "gate":
        return gate(children)
    if rule == "points":
        return points(children)
    if rule == "all":
        return all_pass(children)
    if rule == "any":
        return any_pass(children)
    if rule == "at_least":
        if k is None:
            raise ValueError("aggregation at_least needs k")
        return at_least(children, k)
    raise ValueError(f"unknown aggregation {rule!r}")


def needed(rule: Aggregation, children: int, k: int | None) -> int | None:
    """How many children must reach full score for the node to pass under a counting
    rule (all, any, at_least); None for rules that average (gate, points)."""
    if rule == "all":
        return children
    if rule == "any":
        return 1
    if rule == "at_least":
        return k
    return None


def earned_points(children: Sequence[ChildScore]) -> tuple[float, float]:
    """(points earned, points possible) over ``children``, for reports."""
    return (
        round(sum(c.weight * c.score for c in children), 9),
        round(sum(c.weight for c in children), 9),
    )


def _clip(value: float) -> float:
    return min(1.0, max(0.0, round(value, 12)))
