"""Properties of any rubric run, over random trees of fixed-score checks: scores stay in
[0, 1], every leaf is counted once, sequential skipping and critical gating hold."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rubric_docs import letter_doc

from artifactcheck.report.model import ScoredNode
from artifactcheck.rubric import Rubric, run_rubric
from artifactcheck.rubric.aggregate import is_full

pytestmark = pytest.mark.usefixtures("test_checks")
DOC = letter_doc()


@st.composite
def group(draw: Any, ids: Any, depth: int = 0) -> dict[str, Any]:
    """An inner node's data: aggregation, strategy and 1-4 children."""
    aggregation = draw(st.sampled_from(["gate", "points", "all"]))
    children = []
    for _ in range(draw(st.integers(1, 4))):
        child: dict[str, Any]
        if depth < 2 and draw(st.booleans()):
            child = draw(group(ids, depth + 1))
        else:
            child = {"check": "t_fixed", "params": {"score": draw(st.sampled_from([0.0, 0.25, 0.5, 1.0, 1.0]))}}
        child["id"] = f"s{next(ids)}"
        child["weight"] = draw(st.sampled_from([0.0, 0.5, 1.0, 2.0]))
        child["critical"] = aggregation == "gate" and draw(st.booleans())
        children.append(child)
    return {"aggregation": aggregation, "strategy": draw(st.sampled_from(["parallel", "sequential"])), "children": children}


def walk(node: ScoredNode) -> list[ScoredNode]:
    return [node, *itertools.chain.from_iterable(walk(c) for c in node.children)]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_invariants_of_any_run(data: Any) -> None:
    top = data.draw(group(itertools.count()))
    rubric = Rubric.model_validate(
        {"task": "t", "aggregation": top["aggregation"], "strategy": top["strategy"],
         "steps": [{**s, "step_type": "content"} for s in top["children"]]}
    )
    report = run_rubric(DOC, rubric)
    assert 0.0 <= report.score <= 1.0
    c = report.counts
    assert c.decided + c.needs_trace + c.error + c.skipped == report.requirements_total == len(rubric.leaves())
    assert c.passed + c.failed == c.decided and report.requirements_met == c.passed
    assert report.success == (report.verdict == "PASS")
    for node in walk(report.tree):
        assert 0.0 <= node.score <= 1.0
        kids = node.children
        if node.strategy == "sequential" and node.status != "skipped":
            first_short = next((i for i, k in enumerate(kids) if not is_full(k.score)), None)
            if first_short is not None:
                assert all(k.status == "skipped" for k in kids[first_short + 1 :])
        if node.aggregation == "gate" and node.status != "skipped" and any(k.critical and not is_full(k.score) for k in kids):
            assert node.score == 0.0
        if node.aggregation == "all" and node.status != "skipped":
            assert node.score in (0.0, 1.0)
