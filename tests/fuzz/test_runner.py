"""The harness must see each way an input can break a promise; otherwise a clean
campaign proves nothing."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from .runner import Request, Runner


@pytest.fixture(scope="module")
def runner() -> Iterator[Runner]:
    with Runner() as r:
        yield r


@pytest.mark.parametrize(("how", "seen"), [
    ("untyped", lambda o: o.status == "untyped" and o.error == "KeyError" and "runner.py" in o.frame),
    ("hang", lambda o: o.status == "hang" and "_misbehave" in o.frame),
    ("memory", lambda o: o.status == "memory"),
    ("leftover", lambda o: o.status == "ok" and o.leftovers and not o.escaped),
    ("escape", lambda o: o.status == "ok" and o.escaped == ["a/escaped.txt"]),
    ("process", lambda o: o.status == "ok" and o.processes == 1),
])
def test_the_runner_sees_each_failure(runner: Runner, how: str, seen) -> None:  # type: ignore[no-untyped-def]
    outcome = runner.run(Request("misbehave", [how], timeout=2, memory_mb=500))
    assert seen(outcome), outcome
    assert not outcome.clean
