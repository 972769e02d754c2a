"""Sequence alignment of reference and artifact items (paragraphs, slides, pictures):
every item is paired once, one insertion is one unpaired item, a move is one moved pair."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from artifactcheck.checks.compare.sequence_alignment import MAX_BLOCK_CELLS, align

WORDS = ["alpha beta", "gamma delta", "epsilon zeta", "eta theta", "iota kappa", "lambda mu"]


def test_one_insertion_is_one_unpaired_artifact_item() -> None:
    pairs = align(WORDS, [*WORDS[:2], "a brand new paragraph", *WORDS[2:]])
    assert [(p.reference, p.artifact) for p in pairs if p.reference is None or p.artifact is None] == [(None, 2)]


def test_an_edit_pairs_with_its_original() -> None:
    edited = [*WORDS[:3], "eta thetas", *WORDS[4:]]
    pair = next(p for p in align(WORDS, edited) if p.reference == 3)
    assert pair.artifact == 3 and 0.5 < pair.similarity < 1 and not pair.moved


def test_a_swap_is_one_moved_pair() -> None:
    swapped = [WORDS[1], WORDS[0], *WORDS[2:]]
    pairs = align(WORDS, swapped)
    assert [(p.reference, p.artifact) for p in pairs if p.moved] in ([(0, 1)], [(1, 0)])
    assert all(p.reference is not None and p.artifact is not None for p in pairs)


def test_a_huge_gap_is_paired_by_position() -> None:
    side = int(MAX_BLOCK_CELLS**0.5) + 1
    ref = [f"r{k}" for k in range(side)]
    art = [f"a{k}" for k in range(side + 1)]
    pairs = align(ref, art)
    assert sum(p.reference is not None and p.artifact is not None for p in pairs) == side


@given(
    st.lists(st.sampled_from(WORDS + ["x", "y y", ""]), max_size=12),
    st.lists(st.sampled_from(WORDS + ["x", "y y", "zz"]), max_size=12),
)
def test_every_item_is_paired_exactly_once(ref: list[str], art: list[str]) -> None:
    pairs = align(ref, art)
    assert sorted(p.reference for p in pairs if p.reference is not None) == list(range(len(ref)))
    assert sorted(p.artifact for p in pairs if p.artifact is not None) == list(range(len(art)))
    in_order = [p for p in pairs if p.reference is not None and p.artifact is not None and not p.moved]
    assert [p.artifact for p in in_order] == sorted(p.artifact for p in in_order)  # type: ignore[type-var]


@given(st.lists(st.sampled_from(WORDS), max_size=10))
def test_identical_sequences_pair_one_to_one(items: list[str]) -> None:
    assert [(p.reference, p.artifact, p.similarity) for p in align(items, items)] == [(k, k, 1.0) for k in range(len(items))]
