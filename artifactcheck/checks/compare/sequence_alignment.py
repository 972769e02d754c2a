"""Pairing the items of a reference sequence (paragraphs, slides, pictures) with the
artifact's, so that one inserted paragraph is one difference and not a cascade.

Three passes:

1. exact anchors: ``difflib.SequenceMatcher`` (no junk heuristic) finds the longest runs
   of identical keys, in order;
2. between anchors, a small dynamic programme pairs the remaining items in order,
   maximising the summed similarity of the pairs it makes (rapidfuzz ratio), pairing
   nothing below ``min_pair``: an edited paragraph is paired with its edit, a new one is
   left over;
3. what is still unpaired on both sides is paired by equal (or, with ``min_moved``,
   similar) keys out of order: a paragraph or slide that moved is one ``moved`` pair.

Pure code over strings: no Document.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

MAX_BLOCK_CELLS = 250_000
"""Largest gap (reference items x artifact items) paired by the dynamic programme; a
larger one (two unrelated 500-paragraph documents) is paired position by position."""

Similarity = Callable[[str, str], float]


def ratio(a: str, b: str) -> float:
    """Similarity in [0, 1]: rapidfuzz's normalised Indel ratio (1 = identical)."""
    return float(fuzz.ratio(a, b)) / 100.0


@dataclass(frozen=True)
class Pair:
    """One reference item and its artifact counterpart (indexes into the key lists):
    ``artifact`` None = missing from the artifact, ``reference`` None = only in the
    artifact; ``moved`` = paired out of order; ``similarity`` of the two keys."""

    reference: int | None
    artifact: int | None
    similarity: float
    moved: bool = False


def align(
    reference: Sequence[str],
    artifact: Sequence[str],
    *,
    similarity: Similarity = ratio,
    min_pair: float = 0.5,
    min_moved: float = 1.0,
) -> list[Pair]:
    """Pairs covering every item of both lists once, in reference order (items only in
    the artifact are placed after the reference item they follow)."""
    matcher = difflib.SequenceMatcher(None, list(reference), list(artifact), autojunk=False)
    pairs: list[Pair] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs.extend(Pair(i1 + k, j1 + k, 1.0) for k in range(i2 - i1))
        else:
            pairs.extend(_pair_gap(reference, artifact, range(i1, i2), range(j1, j2), similarity, min_pair))
    return _pair_moved(pairs, reference, artifact, similarity, min_moved)


def _pair_gap(
    reference: Sequence[str],
    artifact: Sequence[str],
    refs: range,
    arts: range,
    similarity: Similarity,
    min_pair: float,
) -> list[Pair]:
    """Order-preserving pairing of one gap maximising the summed similarity."""
    n, m = len(refs), len(arts)
    if n == 0 or m == 0:
        return [Pair(i, None, 0.0) for i in refs] + [Pair(None, j, 0.0) for j in arts]
    if n * m > MAX_BLOCK_CELLS:
        positional = [Pair(refs[k], arts[k], similarity(reference[refs[k]], artifact[arts[k]])) for k in range(min(n, m))]
        return positional + [Pair(i, None, 0.0) for i in refs[m:]] + [Pair(None, j, 0.0) for j in arts[n:]]
    sim = [[similarity(reference[i], artifact[j]) for j in arts] for i in refs]
    # best[a][b]: the best total over refs[a:] x arts[b:]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for a in range(n - 1, -1, -1):
        for b in range(m - 1, -1, -1):
            take = sim[a][b] + best[a + 1][b + 1] if sim[a][b] >= min_pair else -1.0
            best[a][b] = max(take, best[a + 1][b], best[a][b + 1])
    out: list[Pair] = []
    a = b = 0
    while a < n and b < m:
        if sim[a][b] >= min_pair and best[a][b] == sim[a][b] + best[a + 1][b + 1]:
            out.append(Pair(refs[a], arts[b], sim[a][b]))
            a, b = a + 1, b + 1
        elif best[a][b] == best[a + 1][b]:
            out.append(Pair(refs[a], None, 0.0))
            a += 1
        else:
            out.append(Pair(None, arts[b], 0.0))
            b += 1
    out += [Pair(refs[k], None, 0.0) for k in range(a, n)] + [Pair(None, arts[k], 0.0) for k in range(b, m)]
    return out


def _pair_moved(
    pairs: list[Pair], reference: Sequence[str], artifact: Sequence[str], similarity: Similarity, min_moved: float
) -> list[Pair]:
    """Pair leftover reference items with leftover artifact items whose key is equal (or
    at least ``min_moved`` similar): the item is there, elsewhere."""
    extra = [p.artifact for p in pairs if p.reference is None and p.artifact is not None]
    if not extra:
        return pairs
    taken: set[int] = set()
    out: list[Pair] = []
    for p in pairs:
        if p.artifact is None and p.reference is not None:
            key = reference[p.reference]
            best_j, best_s = None, -1.0
            for j in extra:
                if j in taken:
                    continue
                s = 1.0 if artifact[j] == key else (similarity(key, artifact[j]) if min_moved < 1.0 else 0.0)
                if s >= min_moved and s > best_s:
                    best_j, best_s = j, s
            if best_j is not None:
                taken.add(best_j)
                out.append(Pair(p.reference, best_j, best_s, moved=True))
                continue
        out.append(p)
    return [p for p in out if not (p.reference is None and p.artifact in taken)]
