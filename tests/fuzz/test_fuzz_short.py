"""A short, bounded fuzz campaign in the suite: hypothesis draws a seed (the repository's
fixtures and, when present, the corpus's smaller files) and a mutation, and every mutant
must end typed or loaded, within its time and memory caps, leaving nothing behind. The
long campaign is ``scripts/fuzz.sh`` (same mutations, same runner)."""

from __future__ import annotations

import random
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from .campaign import Summary, default_seeds, run_mutant
from .mutate import Mutant, Seed, mutate
from .runner import Runner

SEEDS: list[Seed] = default_seeds(max_bytes=120_000)
EXAMPLES = 30  # ~20 s on a loaded 2-core machine


def mutants() -> st.SearchStrategy[Mutant]:
    """A mutant of one seed; hypothesis controls the seed choice and the mutation's
    random numbers (``st.randoms``), so a failure shrinks and replays."""
    return st.builds(mutate, st.sampled_from(SEEDS), st.randoms(use_true_random=False))


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    with Runner() as r:
        yield r


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="ac-fuzz-short-"))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def summary() -> Summary:
    return Summary()


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(mutant=mutants())
def test_mutants_are_typed_or_load_and_leave_nothing(runner: Runner, folder: Path, summary: Summary, mutant: Mutant) -> None:
    # Lower node budget than the default: the same refusal, a quarter of the cost per
    # input (a flood of 300k empty paragraphs is refused at 50k nodes in ~3 s).
    outcome = run_mutant(mutant, runner, folder, summary.tried, timeout=45, memory_mb=1500, limits="tree_nodes=50000")
    summary.add(mutant, outcome)
    assert outcome.clean, f"{mutant.seed} {mutant.mutation}: {outcome}"


def test_the_campaign_reports_what_it_tried(summary: Summary) -> None:
    """Runs after the campaign above (same module): its counts add up."""
    report = summary.report()
    assert summary.tried >= 1 and report.startswith(f"inputs tried: {summary.tried}")
    assert sum(summary.statuses.values()) == summary.tried


def test_mutations_are_reproducible() -> None:
    seed = SEEDS[0]
    assert mutate(seed, random.Random(5)) == mutate(seed, random.Random(5))
