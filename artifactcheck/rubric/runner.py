"""Run a rubric over a Document: every leaf runs its check through ``run_check`` (which
never raises), inner nodes aggregate (:mod:`.aggregate`), ``requires`` and sequential
strategy skip steps with the reason. The result is a :class:`~artifactcheck.report.Report`.

Order: steps run in rubric (pre-)order, so ``requires`` may only name earlier steps
(enforced by validation). A broken check is one ``error`` step, never a broken run.
"""

from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..checks.registry import Resources, get_check, run_check
from ..checks.result import CheckResult
from ..digest import file_digest
from ..model import Document
from ..report.model import (
    ArtifactRef,
    Outcome,
    OutcomeCounts,
    PageRef,
    Report,
    RubricRef,
    ScoredNode,
    StepReport,
    ToolVersion,
)
from ..version import __version__
from .aggregate import ChildScore, aggregate, earned_points, is_full, needed
from .locate import locate_evidence_nodes
from .model import Rubric, Step

_WORST_FIRST: tuple[Outcome, ...] = ("error", "needs_trace", "skipped")


@dataclass
class ArtifactFailure:
    """Why there is no Document: ``artifact`` (the file is broken: every step fails,
    decided) or ``evaluator`` (our side broke: every step is an error)."""

    kind: str
    message: str


@dataclass
class _Run:
    doc: Document | None
    resources: Resources
    failure: ArtifactFailure | None
    by_id: dict[str, ScoredNode] = field(default_factory=dict)
    steps: list[StepReport] = field(default_factory=list)
    # steps skipped because a *decided* step did not pass (sequential, requires): their
    # parent's outcome is still decided; a skip caused by an error or a missing trace is not
    consequential: set[str] = field(default_factory=set)


def run_rubric(
    doc: Document | None,
    rubric: Rubric,
    *,
    resources: Resources | None = None,
    artifact: ArtifactRef | None = None,
    rubric_path: str | None = None,
    failure: ArtifactFailure | None = None,
) -> Report:
    """Score ``doc`` against ``rubric``. ``doc`` may be None only with ``failure`` set
    (the artifact could not be loaded), which still yields a complete report."""
    if doc is None and failure is None:
        raise ValueError("run_rubric needs a Document or an ArtifactFailure")
    from .validate import validate_rubric

    validate_rubric(rubric, path=rubric_path)
    started = time.perf_counter()
    run = _Run(doc, resources or Resources(), failure)
    root = rubric.root()
    tree = _evaluate(run, root, [], None, None, False)
    counts = _count(run.steps)
    verdict = "PASS" if is_full(tree.score) else ("FAIL" if tree.score <= 0 else "PARTIAL")
    trace = run.resources.trace
    return Report(
        task=rubric.task,
        artifact=artifact or _artifact_ref(doc),
        score=round(tree.score, 6),
        success=is_full(tree.score),
        verdict=verdict,
        requirements_met=counts.passed,
        requirements_total=len(run.steps),
        complete=counts.decided == len(run.steps),
        counts=counts,
        evaluator_errors=counts.error,
        artifact_error=failure.message if failure else None,
        steps=run.steps,
        tree=tree,
        pages=[PageRef(index=p.index, kind=p.kind, width=p.width, height=p.height, name=p.name) for p in (doc.pages if doc else [])],
        rubric=RubricRef(
            path=rubric_path,
            sha256=hashlib.sha256(rubric.model_dump_json().encode()).hexdigest(),
            schema_version=rubric.schema_version,
            params=rubric.params,
        ),
        trace=None if trace is None else {"entries": len(trace)},
        tools=_tools(doc),
        warnings=list(doc.warnings) if doc else [],
        seconds=round(time.perf_counter() - started, 4),
    )


def _evaluate(
    run: _Run, step: Step, path: list[str], inherited_type: str | None, skip: str | None, skip_decided: bool
) -> ScoredNode:
    step_type = step.step_type or inherited_type
    if step.is_leaf and step_type is None:
        assert step.check is not None
        step_type = get_check(step.check).step_type  # neither the leaf nor a group states one
    if skip is None:
        skip, skip_decided = _unmet_requirement(run, step)
    if skip is not None and skip_decided:
        run.consequential.add(step.id)
    if step.is_leaf:
        node = _evaluate_leaf(run, step, path, step_type, skip)
    else:
        children: list[ScoredNode] = []
        rest_skip, rest_decided = skip, skip_decided
        for child in step.steps:
            scored = _evaluate(run, child, [*path, step.id] if step.id != "task" else path, step_type, rest_skip, rest_decided)
            children.append(scored)
            if step.strategy == "sequential" and rest_skip is None and not is_full(scored.score):
                rest_skip = f"sequential: earlier step {child.id!r} scored {scored.score:.2f} < 1"
                rest_decided = _is_decided(run, scored)
        node = _inner_node(run, step, step_type, children, skip)
    run.by_id[step.id] = node
    return node


def _is_decided(run: _Run, node: ScoredNode) -> bool:
    return node.outcome == "decided" or node.id in run.consequential


def _unmet_requirement(run: _Run, step: Step) -> tuple[str | None, bool]:
    """(why the step cannot run, whether that follows from a decided result)."""
    for required in step.requires:
        done = run.by_id.get(required)
        if done is None or done.status != "pass":
            state = "not run" if done is None else f"{done.status} ({done.outcome})"
            return f"requires {required!r} to pass; it is {state}", done is not None and _is_decided(run, done)
    return None, False


def _evaluate_leaf(run: _Run, step: Step, path: list[str], step_type: str | None, skip: str | None) -> ScoredNode:
    assert step.check is not None
    mechanism = get_check(step.check).mechanism_for(step.params)
    evidence: dict[str, Any] = {}
    located: list[dict[str, Any]] = []
    error = None
    check_score: float | None = None
    seconds = 0.0
    params: dict[str, Any] = dict(step.params)
    if skip is not None:
        status, outcome, explanation = "skipped", "skipped", skip
    elif run.failure is not None:
        if run.failure.kind == "artifact":
            status, outcome, check_score = "fail", "decided", 0.0
            explanation = f"the artifact could not be read: {run.failure.message}"
        else:
            status, outcome = "error", "error"
            explanation = f"the evaluator could not load the artifact: {run.failure.message}"
    else:
        assert run.doc is not None
        started = time.perf_counter()
        result = run_check(step.check, run.doc, step.params, run.resources)
        seconds = time.perf_counter() - started
        status, outcome, check_score, explanation = _classify(result)
        mechanism = result.mechanism
        evidence = dict(result.evidence)
        evidence.pop("seconds", None)  # timings live in `seconds`, outside the stable part
        params = dict(result.params) or params
        error = result.error
        located = locate_evidence_nodes(run.doc, evidence)
    contribution = check_score if (outcome == "decided" and check_score is not None) else 0.0
    run.steps.append(
        StepReport(
            id=step.id,
            description=step.description,
            step_type=step_type,
            check=step.check,
            mechanism=mechanism,
            outcome=outcome,
            status=status,
            score=check_score,
            weight=step.weight,
            critical=step.critical,
            path=path,
            explanation=explanation,
            evidence=evidence,
            located=located,
            params=params,
            error=error,
            seconds=round(seconds, 4),
        )
    )
    return ScoredNode(
        id=step.id,
        description=step.description,
        step_type=step_type,
        check=step.check,
        mechanism=mechanism,
        critical=step.critical,
        weight=step.weight,
        requires=step.requires,
        status=status,
        outcome=outcome,
        score=contribution,
        check_score=check_score,
        explanation=explanation,
    )


def _classify(result: CheckResult) -> tuple[str, str, float | None, str]:
    """(status, outcome, check score, explanation) of one check result."""
    if result.status in ("pass", "fail"):
        return result.status, "decided", result.score, result.explanation
    if result.status == "error":
        return "error", "error", None, result.explanation
    return "skipped", "needs_trace" if result.needs_trace else "skipped", None, result.explanation


def _inner_node(run: _Run, step: Step, step_type: str | None, children: list[ScoredNode], skip: str | None) -> ScoredNode:
    inputs = [ChildScore(score=c.score, weight=c.weight, critical=c.critical) for c in children]
    if skip is not None:
        score, status, outcome, explanation = 0.0, "skipped", "skipped", skip
    else:
        score = aggregate(step.aggregation, inputs, k=step.at_least)
        outcome = _inner_outcome(run, step, children, score)
        if is_full(score):
            status = "pass"
        elif outcome == "decided":
            status = "fail"
        else:
            status = "error" if outcome == "error" else "skipped"
        explanation = _inner_explanation(step, children, score)
    return ScoredNode(
        id=step.id,
        description=step.description,
        step_type=step_type,
        aggregation=step.aggregation,
        strategy=step.strategy,
        critical=step.critical,
        weight=step.weight,
        requires=step.requires,
        status=status,
        outcome=outcome,
        score=round(score, 12),
        points=earned_points(inputs),
        explanation=explanation,
        children=children,
    )


def _inner_outcome(run: _Run, step: Step, children: list[ScoredNode], score: float) -> Outcome:
    """``decided`` when the children that were judged already fix the score: all were
    judged (or skipped only because a judged step failed), or (gate) a judged critical
    child failed, or (all) a judged child failed."""
    if is_full(score) or all(_is_decided(run, c) for c in children):
        return "decided"
    failed = [c for c in children if _is_decided(run, c) and not is_full(c.score)]
    if step.aggregation == "gate" and any(c.critical for c in failed):
        return "decided"
    need = needed(step.aggregation, len(children), step.at_least)
    if need is not None and len(children) - len(failed) < need:
        return "decided"  # even if every undecided child passed, too few could
    for kind in _WORST_FIRST:
        if any(c.outcome == kind and not _is_decided(run, c) for c in children):
            return kind
    return "decided"  # pragma: no cover - every outcome is listed above


def _inner_explanation(step: Step, children: list[ScoredNode], score: float) -> str:
    gated = [c.id for c in children if c.critical and not is_full(c.score)]
    if step.aggregation == "gate" and gated:
        return f"critical step {gated[0]!r} did not pass: score 0"
    passed = sum(1 for c in children if is_full(c.score))
    need = needed(step.aggregation, len(children), step.at_least)
    rule = f"at_least {step.at_least}" if step.aggregation == "at_least" else step.aggregation
    if need is not None and step.aggregation != "all":
        return f"{rule}: {passed}/{len(children)} children at full score ({need} needed), score {score:.2f}"
    return f"{rule}: {passed}/{len(children)} children at full score, score {score:.2f}"


def _count(steps: list[StepReport]) -> OutcomeCounts:
    counts = OutcomeCounts()
    for s in steps:
        if s.outcome == "decided":
            counts.decided += 1
            if s.status == "pass":
                counts.passed += 1
            else:
                counts.failed += 1
        elif s.outcome == "needs_trace":
            counts.needs_trace += 1
        elif s.outcome == "error":
            counts.error += 1
        else:
            counts.skipped += 1
    return counts


def _artifact_ref(doc: Document | None) -> ArtifactRef:
    if doc is None:
        return ArtifactRef(path=None, sha256=None, platform=None, format=None)
    a = doc.artifact
    return ArtifactRef(path=a.path, sha256=a.sha256, platform=a.platform, format=a.format, size_bytes=a.size_bytes)


def _tools(doc: Document | None) -> list[ToolVersion]:
    tools = [ToolVersion(name="artifactcheck", version=__version__)]
    if doc is not None:
        tools.extend(ToolVersion(name=t.name, version=t.version) for t in doc.tools)
    return tools


def artifact_ref_for_file(path: str | Path, doc: Document | None) -> ArtifactRef:
    """The artifact reference for a file on disk (or a Google URL/id), as given; the
    file is hashed when loading failed so the report still names the exact bytes."""
    p = Path(path)
    if doc is not None:
        ref = _artifact_ref(doc)
        return ref.model_copy(update={"path": str(path)})
    if not p.is_file():
        fmt = p.suffix.lstrip(".").lower() if p.suffix.lower() in (".docx", ".xlsx", ".pptx") else None
        return ArtifactRef(path=str(path), sha256=None, platform=None, format=fmt)
    digest = file_digest(p)
    fmt = p.suffix.lstrip(".").lower() or None
    return ArtifactRef(path=str(path), sha256=digest.sha256, platform=None, format=fmt, size_bytes=digest.size_bytes)
