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
from itertools import pairwise

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
    # The words' indexes in reading order; empty means start..end. A match read down a
    # column is not a slice of tesseract's order (which runs across the columns).
    indexes: tuple[int, ...] = ()

    def words(self, result: OcrResult) -> tuple[OcrWord, ...]:
        if self.indexes:
            return tuple(result.words[i] for i in self.indexes)
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


MIN_AFFIX = 2  # letters added to (or cut from) an edge word that make another word; a plural's "s" does not


def extends_edge_word(phrase_words: list[str], window_words: list[str]) -> bool:
    """Whether the window's first word is the phrase's first word with letters put in
    front or cut from its front, or its last word the phrase's last with letters added
    or cut at its end: another word, often the opposite one, or a word the page shows
    only in part (a picture cropped through "Revenue" shows "venue"), that a similarity
    score still passes ("UNAPPROVED" scores 89 against "Approved", "Subtotal $1,000" 88
    against "Total $1,000", "venue" 83 against "Revenue").

    >>> extends_edge_word(["approved"], ["unapproved"]), extends_edge_word(["total", "$1,000"], ["subtotal", "$1,000"])
    (True, True)
    >>> extends_edge_word(["revenue"], ["venue"]), extends_edge_word(["net", "income"], ["net", "inco"])
    (True, True)
    >>> extends_edge_word(["revenue"], ["revenues"]), extends_edge_word(["revenue"], ["evenue"]), extends_edge_word(["q1"], ["ql"])
    (False, False, False)
    """
    first, last = (w.translate(_OCR_FOLD) for w in (phrase_words[0], phrase_words[-1]))
    head, tail = (w.translate(_OCR_FOLD) for w in (window_words[0], window_words[-1]))
    return _affixed(head, first, at_start=True) or _affixed(tail, last, at_start=False)


def _affixed(got: str, want: str, *, at_start: bool) -> bool:
    """``got`` is ``want`` with MIN_AFFIX or more letters added, or cut, at one end."""
    longer, shorter = (got, want) if len(got) > len(want) else (want, got)
    if len(longer) - len(shorter) < MIN_AFFIX or not shorter:
        return False
    return longer.endswith(shorter) if at_start else longer.startswith(shorter)


def find_phrase(
    result: OcrResult, phrase: str, *, min_score: float = 80.0, min_conf: float = 0.0, exact_facts: bool = True
) -> list[PhraseMatch]:
    """Non-overlapping runs of consecutive words that read like ``phrase``, best first.

    Windows of n-1..n+1 words (n = words in the phrase) slide over the words in reading
    order, across line breaks, so a phrase wrapped onto two lines is still one match; when
    tesseract reads rows across text columns, the words are also read column by column
    (:func:`reading_orders`). A
    window scores the better of rapidfuzz ``ratio`` on the space-joined words and on the
    words glued together (OCR splits "Quarterly" into "Quar terly" and merges
    "side by" into "sideby"), after folding OCR's digit/letter confusions; a window whose
    digits or one-character words differ from the phrase's, or whose edge word is the
    phrase's with letters added or cut off ("Unapproved" or "proved" for "Approved"),
    is never a match
    (:func:`changes_facts`, :func:`extends_edge_word`; ``exact_facts=False`` keeps it). Words below ``min_conf``
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
    >>> cols = [("Revenue", 0, "1"), ("grew", 80, "1"), ("Costs", 300, "1"), ("strongly", 0, "2"), ("Sharply", 300, "2")]
    >>> two = tuple(OcrWord(t, 95, x, 20 * int(ln), 70, 10, ln) for t, x, ln in cols)
    >>> [m.text for m in find_phrase(OcrResult(two, 400, 60, "eng", 3, "k", 0), "revenue grew strongly")]
    ['Revenue grew strongly']
    """
    wanted = [w for w in (normalize_word(t) for t in phrase.split()) if w]
    if not wanted:
        return []
    target = " ".join(wanted).translate(_OCR_FOLD)
    candidates: dict[tuple[int, ...], float] = {}
    for order in reading_orders(result):
        kept = [i for i in order if result.words[i].conf >= min_conf or result.words[i].conf < 0]
        for indexes, score in _windows(result, kept, wanted, target, min_score=min_score, exact_facts=exact_facts):
            candidates[indexes] = max(score, candidates.get(indexes, 0.0))
    ranked = sorted(candidates.items(), key=lambda c: (-c[1], len(c[0]), c[0]))
    taken: set[int] = set()
    out: list[PhraseMatch] = []
    for indexes, score in ranked:
        if taken.intersection(indexes):
            continue
        taken.update(indexes)
        text = " ".join(result.words[i].text for i in indexes)
        out.append(PhraseMatch(min(indexes), max(indexes) + 1, text, round(score, 2), indexes))
    return out


def _windows(
    result: OcrResult, kept: list[int], wanted: list[str], target: str, *, min_score: float, exact_facts: bool
) -> list[tuple[tuple[int, ...], float]]:
    """Windows of n-1..n+1 consecutive words of ``kept`` (word indexes in one reading
    order) that read like the phrase, with their scores."""
    glued_target = target.replace(" ", "")
    norm = [normalize_word(result.words[i].text) for i in kept]
    n = len(wanted)
    out: list[tuple[tuple[int, ...], float]] = []
    for size in range(max(1, n - 1), n + 2):
        for s in range(len(kept) - size + 1):
            window = [t for t in norm[s : s + size] if t]
            if not window:
                continue
            spaced = " ".join(window).translate(_OCR_FOLD)
            score = max(fuzz.ratio(spaced, target), fuzz.ratio(spaced.replace(" ", ""), glued_target))
            if score >= min_score and not (exact_facts and (changes_facts(wanted, window) or extends_edge_word(wanted, window))):
                out.append((tuple(kept[s : s + size]), score))
    return out


COLUMN_GAP = 2.0
"""A gap between two words of one tesseract line wider than this many times the line's
text height separates columns. Word spaces are 0.3-0.6 of the height; the two-column
picture of the OCR sweep had 4.5, and tesseract still read it as one line per row."""


def reading_orders(result: OcrResult) -> list[list[int]]:
    """Word index sequences to search: tesseract's own order (row by row, which reads a
    table's row "Total  $1,250" as a phrase), and, when some line has a column-wide gap,
    each column on its own (text set in two columns: "Revenue grew" / "strongly"
    continues down the left column, not into the right one). A column is not joined to
    the next: read one after the other, a receipt's labels and amounts would make
    "Total $1,000" of the last label and the first amount."""
    natural = list(range(len(result.words)))
    lines = _lines(result)
    segments = [seg for line in lines for seg in _split_at_gaps(result, line)]
    if len(segments) == len(lines):
        return [natural]
    return [natural, *_columns(result, segments)]


def _lines(result: OcrResult) -> list[list[int]]:
    lines: list[list[int]] = []
    for i, w in enumerate(result.words):
        if lines and result.words[lines[-1][-1]].line == w.line:
            lines[-1].append(i)
        else:
            lines.append([i])
    return lines


def _split_at_gaps(result: OcrResult, line: list[int]) -> list[list[int]]:
    words = result.words
    heights = sorted(words[i].height for i in line)
    limit = COLUMN_GAP * max(1, heights[len(heights) // 2])
    out = [[line[0]]]
    for prev, i in pairwise(line):
        if words[i].left - (words[prev].left + words[prev].width) > limit:
            out.append([i])
        else:
            out[-1].append(i)
    return out


def _columns(result: OcrResult, segments: list[list[int]]) -> list[list[int]]:
    """Segments (runs of words without a column gap, in tesseract's order) gathered into
    columns, each a word index sequence: a segment continues the column whose latest
    segment (on an earlier line) it overlaps most horizontally, else starts a column."""
    words = result.words
    columns: list[list[list[int]]] = []

    def extent(seg: list[int]) -> tuple[int, int]:
        return words[seg[0]].left, max(words[i].left + words[i].width for i in seg)

    for seg in segments:
        x0, x1 = extent(seg)
        best, best_overlap = None, 0
        for col in columns:
            c0, c1 = extent(col[-1])
            overlap = min(x1, c1) - max(x0, c0)
            if overlap > best_overlap and words[col[-1][0]].line != words[seg[0]].line:
                best, best_overlap = col, overlap
        if best is None:
            columns.append([seg])
        else:
            best.append(seg)
    return [[i for seg in col for i in seg] for col in columns]


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
