"""How text is compared with a reference's: the options every text-bearing comparison
(documents, decks) shares, and the normalisation they mean.

Defaults are what a reader means by "the same text": whitespace runs and Unicode forms do
not count (a double space, a non-breaking space, NFC vs NFD), case and order do.
"""

from __future__ import annotations

import re
import unicodedata

from pydantic import Field

from .diff import CompareParams
from .sequence_alignment import ratio

_SPACES = re.compile(r"\s+")


class TextCompareParams(CompareParams):
    """Comparison parameters plus the text options of documents and decks."""

    ignore_blank: bool = Field(
        default=True, description="paragraphs (and shapes) holding only whitespace are left out on both sides"
    )
    ignore_case: bool = Field(default=False, description="letter case does not count (Unicode case folding)")
    ignore_whitespace: bool = Field(
        default=True,
        description="runs of whitespace count as one space and leading/trailing whitespace is dropped "
        "(false: tabs, double and non-breaking spaces count)",
    )
    ignore_order: bool = Field(
        default=False,
        description="paragraphs (decks: slides) may come in any order; false: one that moved is an 'order' difference",
    )
    fuzzy: float | None = Field(
        default=None,
        gt=0,
        le=1,
        description="two texts agree when their similarity (rapidfuzz ratio, 0..1) is at least this "
        "(mechanism tolerance); none: they must be equal after normalisation",
    )
    color_tolerance: float = Field(
        default=2.0,
        ge=0,
        description="runs and formatting: text colours and highlights closer than this CIEDE2000 distance are "
        "one colour (the default is color_is's: above the rounding of tints and theme colours, below a "
        "just-noticeable difference); 0: the same #rrggbb",
    )


def normalize_text(text: str, p: TextCompareParams) -> str:
    """``text`` as compared: NFC, whitespace collapsed (``ignore_whitespace``), case
    folded (``ignore_case``)."""
    out = unicodedata.normalize("NFC", text)
    if p.ignore_whitespace:
        out = _SPACES.sub(" ", out).strip()
    if p.ignore_case:
        out = out.casefold()
    return out


def pairing_similarity(a: str, b: str) -> float:
    """How alike two normalised texts are when pairing paragraphs, slides or rows: the
    ratio, or nearly 1 when they differ only in letter case (a line set in capitals is
    still that line, compared and reported as differing in case)."""
    plain = ratio(a, b)
    return plain if plain >= CASE_ONLY_SIMILARITY else max(plain, CASE_ONLY_SIMILARITY * ratio(a.casefold(), b.casefold()))


CASE_ONLY_SIMILARITY = 0.95


def difference_note(expected: str, actual: str, similarity: float) -> str:
    """What a text difference is, in words: case only, else the similarity."""
    if expected != actual and expected.casefold() == actual.casefold():
        return "differs only in letter case (set in capitals, or retyped)"
    return f"similarity {similarity:.2f}" if similarity < 1 else ""


def is_blank(text: str) -> bool:
    return not text.strip()


def texts_agree(expected: str, actual: str, p: TextCompareParams) -> tuple[bool, float]:
    """Whether two normalised texts agree, and their similarity (1.0 when equal)."""
    if expected == actual:
        return True, 1.0
    similarity = ratio(expected, actual)
    return (p.fuzzy is not None and similarity >= p.fuzzy), similarity


def snippet(text: str, words: int = 6, limit: int = 40) -> str:
    """The first words of ``text`` for a location (``"Quarterly results for…"``)."""
    flat = _SPACES.sub(" ", text).strip()
    parts = flat.split(" ")
    short = " ".join(parts[:words])
    if len(short) > limit:
        short = short[: limit - 1].rstrip()
    return short + ("…" if len(short) < len(flat) else "")
