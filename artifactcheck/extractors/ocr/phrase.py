"""Fuzzy search for a phrase in OCR words, strict where the words state facts.

OCR misreads letters, so a phrase is found by rapidfuzz similarity over windows of words.
But a similarity score cannot tell "Figure 1" from "Figure 2" or "$1,750.00" from
"$1,250.00": one character costs a long phrase a few points. A window is therefore kept
only when its *facts* are exactly the phrase's: every digit, and every one-character word
("Table A", "Plan B"), lines up with the same character. The two confusions tesseract makes
with digits on clean renders (``1``/``l``/``I`` and ``0``/``O``) are folded to one
character before comparing, so "Ql" still reads as "Q1" and "Quarter1y" as "quarterly".
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from .engine import OcrResult, OcrWord

_EDGE_PUNCT = re.compile(r"^[^\w]+|[^\w]+$")
# Characters tesseract swaps for each other on rendered text; folded before every comparison.
_OCR_FOLD = str.maketrans({"1": "l", "i": "l", "|": "l", "0": "o"})


@dataclass(frozen=True)
class PhraseMatch:
    """A phrase found in OCR words: the words it spans (indexes into the result), the
    text they read, and the rapidfuzz score (0..100) against the phrase."""

    start: int
    end: int  # exclusive
    text: str
    score: float

    def words(self, result: OcrResult) -> tuple[OcrWord, ...]:
        return result.words[self.start : self.end]


def normalize_word(text: str) -> str:
    """Case-folded NFKC text without leading/trailing punctuation ("Report," -> "report")."""
    return _EDGE_PUNCT.sub("", unicodedata.normalize("NFKC", text).casefold())


def _strict_chars(words: list[str], *, short_words: bool) -> list[bool]:
    """Per character of ``"".join(words)``: must it be read exactly? Digits always; with
    ``short_words``, also the character of a one-character word (a label such as "A")."""
    flags: list[bool] = []
    for word in words:
        label = short_words and len(word) == 1
        flags.extend(label or ch.isdigit() for ch in word)
    return flags


def changes_facts(phrase_words: list[str], window_words: list[str]) -> bool:
    """Whether the window differs from the phrase in a digit or a one-character word.

    Both sides are glued (OCR splits and merges words) and folded for OCR confusions, then
    aligned by Levenshtein; any edit touching a strict character of the phrase, or a digit
    of the window, changes a fact.

    >>> changes_facts(["figure", "1"], ["figure", "2"]), changes_facts(["figure", "1"], ["figure"])
    (True, True)
    >>> changes_facts(["q1"], ["ql"]), changes_facts(["quarterly"], ["quarter1y"])
    (False, False)
    >>> changes_facts(["table", "a"], ["table", "b"]), changes_facts(["1,250.00"], ["1.250,00"])
    (True, False)
    """
    want_flags = _strict_chars(phrase_words, short_words=True)
    got_flags = _strict_chars(window_words, short_words=False)
    want = "".join(phrase_words).translate(_OCR_FOLD)
    got = "".join(window_words).translate(_OCR_FOLD)
    for op in Levenshtein.opcodes(want, got):
        if op.tag == "equal":
            continue
        if any(want_flags[op.src_start : op.src_end]) or any(got_flags[op.dest_start : op.dest_end]):
            return True
    return False


def find_phrase(
    result: OcrResult, phrase: str, *, min_score: float = 80.0, min_conf: float = 0.0, exact_facts: bool = True
) -> list[PhraseMatch]:
    """Non-overlapping runs of consecutive words that read like ``phrase``, best first.

    Windows of n-1..n+1 words (n = words in the phrase) slide over the words in reading
    order, across line breaks, so a phrase wrapped onto two lines is still one match. A
    window scores the better of rapidfuzz ``ratio`` on the space-joined words and on the
    words glued together (OCR splits "Quarterly" into "Quar terly" and merges
    "side by" into "sideby"), after folding OCR's digit/letter confusions; a window whose
    digits or one-character words differ from the phrase's is never a match
    (:func:`changes_facts`; ``exact_facts=False`` keeps it). Words below ``min_conf``
    confidence are ignored.

    >>> words = tuple(OcrWord(t, 95, 10 * i, 0, 9, 10, "1.1.1") for i, t in enumerate("Total: Quarter1y report, 2024".split()))
    >>> m = find_phrase(OcrResult(words, 100, 20, "eng", 3, "k", 0), "quarterly report")[0]
    >>> (m.start, m.end, m.text, m.score >= 90)
    (1, 3, 'Quarter1y report,', True)
    >>> find_phrase(OcrResult(words, 100, 20, "eng", 3, "k", 0), "quarterly report 2025")
    []
    >>> ticks = tuple(OcrWord(t, 90, 10 * i, 0, 9, 10, "1.1.1") for i, t in enumerate("Ql Q2 Q3".split()))
    >>> [m.text for m in find_phrase(OcrResult(ticks, 100, 20, "eng", 3, "k", 0), "Q1")]
    ['Ql']
    """
    wanted = [w for w in (normalize_word(t) for t in phrase.split()) if w]
    if not wanted:
        return []
    target = " ".join(wanted).translate(_OCR_FOLD)
    glued_target = target.replace(" ", "")
    kept = [(i, w) for i, w in enumerate(result.words) if w.conf >= min_conf or w.conf < 0]
    norm = [normalize_word(w.text) for _, w in kept]
    n = len(wanted)
    candidates: list[tuple[float, int, int]] = []
    for size in range(max(1, n - 1), n + 2):
        for s in range(len(kept) - size + 1):
            window = [t for t in norm[s : s + size] if t]
            if not window:
                continue
            spaced = " ".join(window).translate(_OCR_FOLD)
            score = max(fuzz.ratio(spaced, target), fuzz.ratio(spaced.replace(" ", ""), glued_target))
            if score >= min_score and not (exact_facts and changes_facts(wanted, window)):
                candidates.append((score, s, s + size))
    candidates.sort(key=lambda c: (-c[0], c[2] - c[1]))
    taken: list[tuple[int, int]] = []
    out: list[PhraseMatch] = []
    for score, s, e in candidates:
        if any(s < te and ts < e for ts, te in taken):
            continue
        taken.append((s, e))
        first, last = kept[s][0], kept[e - 1][0]
        out.append(PhraseMatch(first, last + 1, " ".join(w.text for _, w in kept[s:e]), round(score, 2)))
    return out


def closest_reading(result: OcrResult, phrase: str) -> PhraseMatch | None:
    """The window of words that reads most like ``phrase`` whatever its score or facts:
    what OCR read where a miss was (a chart tick "Q1" read as "qu"), for the explanation of
    a failure; None when OCR read no words.

    >>> words = tuple(OcrWord(t, 90, 10 * i, 0, 9, 10, "1.1.1") for i, t in enumerate("Fy2024 qu Q2".split()))
    >>> closest_reading(OcrResult(words, 100, 20, "eng", 3, "k", 0), "Q1").text
    'qu'
    >>> closest_reading(OcrResult(words, 100, 20, "eng", 3, "k", 0), "FY2025").text  # not a match: another year
    'Fy2024'
    """
    found = find_phrase(result, phrase, min_score=0.0, exact_facts=False)
    return found[0] if found else None
