"""The mechanism a check is listed under (``artifactcheck checks``) is the mechanism its
results carry, in ``run_check`` results, rubric reports and batch tables alike: an audit
over the whole registry, running every check's own function on its example."""

from __future__ import annotations

from typing import Any

import pytest

from artifactcheck import Document, Resources, load, run_check
from artifactcheck.checks.catalog import catalog
from artifactcheck.checks.examples import tiny_doc
from artifactcheck.checks.registry import CheckSpec, all_checks
from artifactcheck.rubric import check, rubric, score
from tests.checks.office_docs import build_deck_pptx


def _get(params: dict[str, Any], dotted: str) -> Any:
    value: Any = params
    for part in dotted.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def _set(params: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """A copy with ``dotted`` (``values.abs_tol``: an option inside an option model) set,
    or removed when ``value`` is None; a level that is not a mapping (``values: true``)
    becomes one."""
    head, _, rest = dotted.partition(".")
    out = dict(params)
    if rest:
        inner = out.get(head) if isinstance(out.get(head), dict) else {}
        out[head] = _set(inner, rest, value)
    elif value is None:
        out.pop(head, None)
    else:
        out[head] = value
    return out


def variants(spec: CheckSpec) -> list[dict[str, Any]]:
    """The example, and the example with each mechanism-changing parameter given."""
    example = dict(spec.example or {})
    out = [example]
    for name, _ in spec.mechanism_when:
        if _get(example, name) is None:
            leaf = name.rsplit(".", 1)[-1]
            value: Any = {"fuzzy_threshold": 80.0, "size": 12, "color": "black", "highlight": "yellow", "fill": "white"}.get(leaf, 1)
            out.append(_set(example, name, value))
        else:
            out.append(_set(example, name, None))
    return out


CASES = [(spec, params) for spec in all_checks() for params in variants(spec)]


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> list[Document]:
    """The in-memory example, and a deck (native boxes without rendering), so geometric
    checks decide instead of reporting "no layout"."""
    deck = build_deck_pptx(tmp_path_factory.mktemp("mechanisms"), good=True)
    return [tiny_doc(), load(deck)]


@pytest.fixture(scope="module")
def listed() -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in catalog()}


@pytest.mark.parametrize(("spec", "params"), CASES, ids=[f"{s.name}-{i}" for i, (s, _) in enumerate(CASES)])
def test_results_carry_the_listed_mechanism(spec: CheckSpec, params: dict[str, Any], docs: list[Document], listed: dict[str, dict[str, Any]]) -> None:
    entry = listed[spec.name]
    assert entry["mechanism"] == spec.mechanism
    expected = spec.mechanism_for(params)
    assert expected == spec.mechanism or expected in entry["mechanism_when"].values()
    parsed = spec.params.model_validate(params)
    for doc in docs:
        # the check's own function, before run_check stamps anything: the code must not
        # say something else than the listing
        try:
            own = spec.function(doc, parsed, Resources())
        except Exception:  # noqa: BLE001 - a check that needs resources raises; run_check turns it into error
            own = None
        if own is not None:
            assert own.mechanism == expected, f"{spec.name} returns {own.mechanism!r} ({own.status}), listed as {expected!r}"
        assert run_check(spec.name, doc, params).mechanism == expected


def test_reports_and_batch_rows_use_the_same_mechanism() -> None:
    built = rubric(
        "t",
        [
            check("fuzzy", "text_contains", {"phrases": ["Energy reprot"], "fuzzy_threshold": 80}),
            check("plain", "text_contains", {"phrases": ["Energy report"]}),
            check("sized", "format_is", {"target": "run", "size": 12}),
            check("bold", "format_is", {"target": "run", "bold": True}),
            check("skipped", "text_contains", {"phrases": ["x"], "fuzzy_threshold": 80}, requires=["bold"]),
        ],
    )
    report = score(tiny_doc(), built)
    assert {s.id: s.mechanism for s in report.steps} == {
        "fuzzy": "tolerance",
        "plain": "exact",
        "sized": "tolerance",
        "bold": "exact",
        "skipped": "tolerance",  # not run (bold fails), still listed under its mechanism
    }
