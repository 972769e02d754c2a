"""Each aggregation rule of design/aggregation.md on its own, over plain numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from artifactcheck.rubric.aggregate import ChildScore as C
from artifactcheck.rubric.aggregate import aggregate, all_pass, earned_points, gate, is_full, points


def test_gate_a_failing_critical_child_zeroes_the_parent() -> None:
    assert gate([C(0.0, critical=True), C(1.0), C(1.0)]) == 0.0


def test_gate_a_partial_critical_child_also_zeroes_the_parent() -> None:
    assert gate([C(0.99, critical=True), C(1.0)]) == 0.0


def test_gate_non_critical_children_average_by_weight() -> None:
    assert gate([C(1.0, critical=True), C(1.0, weight=3), C(0.0, weight=1)]) == pytest.approx(0.75)


def test_gate_critical_children_do_not_enter_the_average() -> None:
    # the critical child passed; only the non-critical one is averaged
    assert gate([C(1.0, weight=100, critical=True), C(0.5)]) == pytest.approx(0.5)


def test_gate_all_critical_and_passing_scores_one() -> None:
    assert gate([C(1.0, critical=True), C(1.0, critical=True)]) == 1.0


def test_points_sum_partial_credit_over_total() -> None:
    assert points([C(1.0, weight=2), C(0.5, weight=2), C(0.0, weight=1)]) == pytest.approx(0.6)
    assert earned_points([C(1.0, weight=2), C(0.5, weight=2), C(0.0, weight=1)]) == (3.0, 5.0)


def test_all_needs_every_child_at_full_score() -> None:
    assert all_pass([C(1.0), C(1.0)]) == 1.0
    assert all_pass([C(1.0), C(0.999)]) == 0.0


def test_zero_total_weight_falls_back_to_all() -> None:
    assert points([C(1.0, weight=0), C(0.0, weight=0)]) == 0.0
    assert points([C(1.0, weight=0), C(1.0, weight=0)]) == 1.0


def test_float_sums_still_reach_full_score() -> None:
    children = [C(1.0, weight=0.1)] * 3
    assert is_full(points(children))


def test_aggregate_dispatches_and_refuses_empty() -> None:
    assert aggregate("all", [C(0.5)]) == 0.0
    assert aggregate("points", [C(0.5)]) == 0.5
    with pytest.raises(ValueError):
        aggregate("gate", [])


@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 10), st.booleans()), min_size=1, max_size=8))
def test_every_rule_stays_in_unit_interval(items: list[tuple[float, float, bool]]) -> None:
    children = [C(s, weight=w, critical=c) for s, w, c in items]
    for rule in ("gate", "points", "all"):
        assert 0.0 <= aggregate(rule, children) <= 1.0  # type: ignore[arg-type]


def test_any_needs_one_child_at_full_score() -> None:
    from artifactcheck.rubric.aggregate import any_pass

    assert any_pass([C(0.0), C(1.0), C(0.0)]) == 1.0
    assert any_pass([C(0.99), C(0.5)]) == 0.0  # no partial credit: a half-met alternative does not meet it
    assert aggregate("any", [C(0.0), C(1.0)]) == 1.0


def test_at_least_counts_children_at_full_score_whatever_their_weight() -> None:
    from artifactcheck.rubric.aggregate import at_least

    children = [C(1.0, weight=5), C(0.0), C(1.0, weight=0), C(0.9)]
    assert at_least(children, 2) == 1.0
    assert at_least(children, 3) == 0.0
    assert aggregate("at_least", children, k=2) == 1.0
    with pytest.raises(ValueError, match="needs k"):
        aggregate("at_least", children)


@given(st.lists(st.floats(0, 1), min_size=1, max_size=8), st.integers(1, 8))
def test_at_least_is_any_at_one_all_at_n_and_monotonic(scores: list[float], k: int) -> None:
    from artifactcheck.rubric.aggregate import at_least

    children = [C(s) for s in scores]
    assert at_least(children, 1) == aggregate("any", children)
    assert at_least(children, len(children)) == all_pass(children)
    assert at_least(children, k) >= at_least(children, k + 1)
