"""How many nodes one document tree may hold, counted as the nodes are made.

Extraction costs memory and time per node (a .pptx shape ~5 KB and ~110 us), so the
budget is counted where nodes are born (``Node`` construction, and the fast cell
constructor of big sheets), while a document is being loaded: a 26 KB deck asking for
584k shapes is refused at the first node past the budget, not after 3 GB. Outside a
load (a check or a test building nodes) nothing is counted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from ..errors import ArtifactTooLarge
from ..limits import current_limits


@dataclass
class _NodeCount:
    limit: int
    path: str | None
    made: int = 0


_COUNT: ContextVar[_NodeCount | None] = ContextVar("artifactcheck_node_count", default=None)


@contextmanager
def node_budget(path: str | Path | None) -> Iterator[None]:
    """Count the nodes made in this block against the ``tree_nodes`` budget. Nested
    blocks (a bundle holding an Office file) share the outermost count."""
    if _COUNT.get() is not None:
        yield
        return
    count = _NodeCount(current_limits().tree_nodes, str(path) if path is not None else None)
    token = _COUNT.set(count)
    try:
        yield
    finally:
        _COUNT.reset(token)
    if count.made > count.limit:
        # An extractor that catches exceptions per shape or per paragraph may have
        # swallowed the refusal: the budget still decides.
        raise _too_large(count)


def count_node() -> None:
    """One more node; ArtifactTooLarge past the budget (only inside ``node_budget``)."""
    count = _COUNT.get()
    if count is None:
        return
    count.made += 1
    if count.made > count.limit:
        raise _too_large(count)


def _too_large(count: _NodeCount) -> ArtifactTooLarge:
    return ArtifactTooLarge(
        f"the document tree needs more than {count.limit} nodes ({current_limits().describe('tree_nodes')})",
        path=count.path,
    )
