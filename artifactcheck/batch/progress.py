"""The batch's progress bar (rich): rows done out of all rows (resumed ones count as done
from the start), and beside it how many were not scored and how many a worker had to
start again after another worker died under them."""

from __future__ import annotations

import threading
from types import TracebackType
from typing import Self

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from .row_scoring import RowOutcome

__all__ = ["BatchProgress"]


class BatchProgress:
    """``with BatchProgress(total, resumed, enabled=...) as bar: bar.done(outcome)``.
    Thread-safe: the Dask engine reports retries from its event thread."""

    def __init__(self, total: int, resumed: int, *, enabled: bool) -> None:
        columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
        self._bar = Progress(*columns, disable=not enabled, transient=False)
        self._resumed = resumed
        self._failed = 0
        self._retried = 0
        self._lock = threading.Lock()
        self._task = self._bar.add_task(self._description(), total=total, completed=resumed)

    def _description(self) -> str:
        return f"scoring ({self._resumed} resumed, {self._failed} failed, {self._retried} retried)"

    def __enter__(self) -> Self:
        self._bar.__enter__()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self._bar.__exit__(kind, exc, tb)

    def done(self, outcome: RowOutcome) -> None:
        """One row finished (scored or not)."""
        with self._lock:
            self._failed += outcome.state == "error"
            self._bar.update(self._task, advance=1, description=self._description())

    def retried(self) -> None:
        """A row was started again on another worker."""
        with self._lock:
            self._retried += 1
            self._bar.update(self._task, description=self._description())
