"""Benchmark: the first selector queries on a freshly loaded Document, beside its extraction.

For every corpus file (/work/shared/corpus/{docx,pptx,xlsx}, or ARTIFACTCHECK_CORPUS):

All times are CPU seconds of this process (the machine is shared; nothing here waits on
another process).

- extract: ``artifactcheck.load`` (docx with ``render=False``, xlsx with
  ``recalculate=False``: extraction proper, no LibreOffice, the smallest denominator);
- first: a typical rubric's selector set run once through ``doc.select`` on that
  Document with no selector index yet (the default engine: the Python fast path, which
  builds its one-pass index on the first query); median of ``--repeat`` runs, the index
  dropped before each;
- lxml: the same set on the same Document after ``selection.invalidate()``, forced
  through the lxml mirror (what every first query cost before the fast path).

Prints per file the node count, the three times, first/extract (the target: <= 10%)
and lxml/first, then the worst ratio. Run: ``.venv/bin/python bench/bench_first_query.py
[--only NAME_PART] [--kinds docx,pptx,xlsx]`` (~2-4 minutes on the shared machine).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import artifactcheck
from artifactcheck.model.select import select_nodes

CORPUS = Path(os.environ.get("ARTIFACTCHECK_CORPUS", "/work/shared/corpus"))
SELECTORS = (
    "paragraph",
    "run[bold]",
    "cell",
    "image",
    "sheet cell[value]",
    "slide shape",
    "paragraph[heading_level]",
    "table row:first-child cell",
    "run[italic]:not([underline])",
    "paragraph:contains('the')",
)
SUFFIXES = {"docx": (".docx", ".docm"), "pptx": (".pptx", ".pptm"), "xlsx": (".xlsx", ".xlsm")}


def _cpu() -> float:
    # CPU time of this process, not wall time: with six engineers on two cores a process
    # is descheduled for whole milliseconds at a time, which swamped the small files.
    # Neither extraction (docx without render, xlsx without recalculation) nor queries
    # wait on another process, so CPU time is all of their cost.
    return time.process_time()


def _median_of(repeats: int, run: Callable[[], float]) -> float:
    return statistics.median(run() for _ in range(repeats))


Row = tuple[float, str, int, float, float, float]


def measure(label: str, path: Path, repeat: int) -> Row | None:
    """(first/extract, label, nodes, extract s, first s, lxml s) for one file."""
    docs: list[artifactcheck.Document] = []
    found: list[list[list[str]]] = []

    def extract() -> float:
        gc.collect()
        started = _cpu()
        docs.append(artifactcheck.load(path, render=False, recalculate=False))
        return _cpu() - started

    def first() -> float:
        doc = docs[-1]
        doc.selection.invalidate()
        gc.collect()  # the extraction's garbage is not the query's to collect
        started = _cpu()
        found.append([[n.id for n in doc.select(s)] for s in SELECTORS])
        return _cpu() - started

    def lxml() -> float:
        doc = docs[-1]
        doc.selection.invalidate()
        index = doc.selection
        gc.collect()
        started = _cpu()
        found.append([[n.id for n in select_nodes(doc.root, s, index, engine="lxml")] for s in SELECTORS])
        return _cpu() - started

    try:
        seconds = extract()
        if seconds < 0.5:
            seconds = statistics.median([seconds, extract(), extract()])
    except artifactcheck.ArtifactCheckError as exc:
        print(f"{label:44} refused: {type(exc).__name__}")
        return None
    fast = _median_of(repeat, first)
    slow = _median_of(1 if seconds > 1 else 3, lxml)
    assert all(f == found[0] for f in found), f"{label}: the engines disagree"
    nodes = sum(1 for _ in docs[-1].root.iter())
    return (fast / seconds, label, nodes, seconds, fast, slow)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", default="", help="only files whose name contains this")
    parser.add_argument("--kinds", default="docx,pptx,xlsx")
    parser.add_argument("--repeat", type=int, default=5, help="first-query repeats (median; the index is dropped before each)")
    args = parser.parse_args()
    rows: list[Row] = []
    print("CPU seconds; extract once (median of 3 under 0.5 s), first = median of --repeat fresh indexes")
    print(f"{'file':44} {'nodes':>7} {'extract s':>10} {'first s':>9} {'lxml s':>8} {'first/extract':>13} {'lxml/first':>10}")
    for kind in args.kinds.split(","):
        for path in sorted((CORPUS / kind).iterdir()):
            if path.suffix.lower() not in SUFFIXES[kind] or args.only not in path.name:
                continue
            row = measure(f"{kind}/{path.name}", path, args.repeat)
            if row is None:
                continue
            rows.append(row)
            ratio, label, nodes, seconds, fast, slow = row
            print(f"{label:44.44} {nodes:7d} {seconds:10.3f} {fast:9.4f} {slow:8.3f} {ratio:12.1%} {slow / max(fast, 1e-6):9.0f}x", flush=True)
    if not rows:
        print("no corpus files found")
        return
    worst = max(rows)
    biggest = max(rows, key=lambda r: r[2])
    print(f"\nworst first/extract: {worst[0]:.1%} ({worst[1]}, {worst[2]} nodes, first {worst[4] * 1000:.1f} ms, extract {worst[3] * 1000:.0f} ms)")
    print(f"largest tree: {biggest[1]}, {biggest[2]} nodes: first {biggest[4] * 1000:.1f} ms vs lxml {biggest[5] * 1000:.0f} ms, extract {biggest[3] * 1000:.0f} ms")
    print(f"files: {len(rows)}; over 10%: {sum(1 for r in rows if r[0] > 0.10)}; median first/extract {statistics.median(r[0] for r in rows):.1%}")


if __name__ == "__main__":
    main()
