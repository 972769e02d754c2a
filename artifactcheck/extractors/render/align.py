"""``align_text_to_layout``: give text spans of a tree (runs, paragraphs, cells) the boxes
of the rendered characters they became.

Method (design/text-alignment.md): both sides are normalised character by character into
a *key stream* — whitespace dropped, NFKC (so the ligature "ﬁ" becomes "fi"), lower case,
smart quotes and dashes folded, soft hyphens and zero-width characters removed — keeping
for every key character the index of the character it came from. The two key streams are
aligned by

1. anchors: 12-character n-grams that occur exactly once in the PDF stream and once among
   the sampled tree n-grams; the longest chain of anchors increasing in both streams
   (patience LIS, O(k log k)) fixes the global order, which is what makes a 200-page
   document align in about a second;
2. gaps between anchors: aligned with rapidfuzz's Levenshtein opcodes (bit-parallel C++),
   recursing with shorter anchors when a gap is too large; isolated one- or two-character
   coincidences inside unequal gaps are dropped, so a list label or a page number never
   borrows a letter of the text.

Hyphenation ("align-" / "ment"), list labels ("1.", "•"), tabs, field results and
whitespace differences become insertions/deletions and cost nothing but themselves.
Spans marked ``repeated`` (headers, footers) are matched on every page separately before
the body alignment, and their characters are taken out of the body stream.

Spans must not overlap: pass leaves (runs, or a paragraph without runs) in document order
and give containers the union of their children's boxes.
"""

from __future__ import annotations

import bisect
import gc
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import itemgetter

import numpy as np
import numpy.typing as npt
from rapidfuzz.distance import Levenshtein

from ...model.geometry import Box
from ..tree_builder import make_box
from .layout import CharColumns, PdfLayout

__all__ = [
    "AlignmentResult",
    "SpanAlignment",
    "TextSpan",
    "align_text_to_layout",
    "key_text",
    "layout_box",
    "layout_keys",
    "normalize_char",
    "sorted_unique",
]

_ANCHOR_N = 12
_SMALL_ANCHOR_N = 6
_TREE_STRIDE = 3
_MAX_GAP_CELLS = 4_000_000  # len(a) * len(b) above which a gap is anchored again first
_SPARSE_ANCHORS = 2_000  # fewer anchors than one per this many chars: align progressively
_CHUNK = 3_000  # tree characters per step of the progressive alignment

_FOLD = {
    "\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'", "\u2032": "'", "`": "'", "\u00b4": "'",
    "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u201f": '"', "\u2033": '"', "\u00ab": '"', "\u00bb": '"',
    "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-", "\u2014": "-", "\u2015": "-", "\u2212": "-",
    "\u00ad": "", "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": "", "\ufffe": "",
    "\u0002": "",  # pdfium's marker for a hyphen it removed at a line end
}
_norm_cache: dict[str, str] = {}
# The same mapping as str.translate tables, so a whole stream is normalised in C: code
# point -> key characters (None deletes), and code point -> chr(number of key characters).
_KEY_TABLE: dict[int, str | None] = {}
_LEN_TABLE: dict[int, str] = {}


def normalize_char(ch: str) -> str:
    """The key characters for one source character ("" for whitespace and invisibles).

    >>> [normalize_char(c) for c in "ﬁ’ A\\t-"]
    ['fi', "'", '', 'a', '', '-']
    """
    got = _norm_cache.get(ch)
    if got is not None:
        return got
    if ch.isspace():
        out = ""
    elif ch in _FOLD:
        out = _FOLD[ch]
    else:
        out = "".join(_FOLD.get(c, c) for c in unicodedata.normalize("NFKC", ch).lower() if not c.isspace())
    _norm_cache[ch] = out
    return out


@dataclass(frozen=True, slots=True)
class TextSpan:
    """Text of one tree node. ``repeated=True`` for text printed on many pages (headers,
    footers): it is matched on every page, not once in reading order."""

    node_id: str
    text: str
    repeated: bool = False


@dataclass(slots=True)
class SpanAlignment:
    """Where a span landed. ``boxes``: one box per page (union of its matched characters
    on that page, origin ``layout``); ``line_boxes``: one per rendered line; ``ratio``:
    matched key characters / key characters of the span (0 when nothing matched, and
    for a span without visible characters); ``pdf_chars``: indices into
    ``layout.chars``, sorted."""

    node_id: str
    boxes: list[Box] = field(default_factory=list)
    line_boxes: list[Box] = field(default_factory=list)
    ratio: float = 0.0
    key_chars: int = 0
    matched_chars: int = 0
    pdf_chars: list[int] = field(default_factory=list)


@dataclass(slots=True)
class AlignmentResult:
    """Per-span alignments (in input order, also by node id) and the overall share of
    the spans' key characters that found a rendered character."""

    spans: list[SpanAlignment]
    by_id: dict[str, SpanAlignment]
    key_chars: int
    matched_chars: int

    @property
    def aligned_share(self) -> float:
        """Matched / total key characters (1.0 when there is no text at all)."""
        return self.matched_chars / self.key_chars if self.key_chars else 1.0

    def boxes(self, node_id: str) -> list[Box]:
        got = self.by_id.get(node_id)
        return list(got.boxes) if got else []


# The same again for the Basic Multilingual Plane as numpy lookup arrays, filled by
# _learn: a code point's number of key characters, and its key character when it has
# exactly one. ``str.translate`` with a dict table takes a slow path for any text beyond
# ASCII (~30 ns a character: 8 ms for the 290k of a 180-page Russian document, and each
# stream is translated twice); the arrays read the same values in C (_keys_and_lengths).
_BMP = 0x10000
_LEN_ARRAY = np.zeros(_BMP, dtype=np.uint8)
_KEY_ARRAY = np.zeros(_BMP, dtype=np.uint32)


def _learn(text: str) -> None:
    """Make sure every distinct character of ``text`` is in the translate tables."""
    for ch in set(text):
        if ord(ch) not in _LEN_TABLE:
            k = normalize_char(ch)
            _KEY_TABLE[ord(ch)] = k or None
            _LEN_TABLE[ord(ch)] = chr(len(k))  # NFKC expands one character to <= 18
            if ord(ch) < _BMP:
                _LEN_ARRAY[ord(ch)] = len(k)
                _KEY_ARRAY[ord(ch)] = ord(k) if len(k) == 1 else 0


def _keys_and_lengths(text: str) -> tuple[str, npt.NDArray[np.uint8]]:
    """``(text.translate(_KEY_TABLE), _key_lengths(text))`` (after :func:`_learn`): from
    the lookup arrays when every character is in the BMP (the same string and numbers),
    else by the translate tables. A character with several key characters ("№" -> "no",
    a ligature) has them written in per distinct character."""
    codes = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if not codes.size or int(codes.max()) >= _BMP:
        return text.translate(_KEY_TABLE), _key_lengths(text)
    lens = _LEN_ARRAY[codes]
    out = np.repeat(_KEY_ARRAY[codes], lens)  # a several-key character's slots hold 0 here
    several = np.flatnonzero(lens > 1)
    if several.size:
        starts = np.cumsum(lens, dtype=np.int64) - lens  # where each character's keys go
        of = codes[several]
        for code in np.unique(of).tolist():
            at = starts[several[of == code]]
            for j, ch in enumerate(_KEY_TABLE[code] or ""):
                out[at + j] = ord(ch)
    return out.tobytes().decode("utf-32-le", "surrogatepass"), lens


def key_text(text: str) -> str:
    """The key string of ``text``: ``"".join(normalize_char(c) for c in text)``, in one
    ``str.translate`` pass."""
    _learn(text)
    return text.translate(_KEY_TABLE)


def layout_keys(layout: PdfLayout, indices: npt.NDArray[np.int64]) -> tuple[str, npt.NDArray[np.int64]]:
    """The key string of the drawn characters among ``layout.chars[i] for i in indices``
    (in that order; generated characters are skipped) and, per key character, the index
    of the character it came from."""
    idx = np.asarray(indices, dtype=np.int64)
    idx = idx[~layout.columns.generated[idx]]
    if len(layout.text) == len(layout.columns.page):  # one code point per character
        text = layout.codes[idx].tobytes().decode("utf-32-le", "surrogatepass") if idx.size else ""
        _learn(text)
        key_string, key_lengths = _keys_and_lengths(text)
        return key_string, np.repeat(idx, key_lengths)
    keys = [normalize_char(layout.chars[i].char) for i in idx.tolist()]
    lens = np.fromiter(map(len, keys), dtype=np.int64, count=len(keys))
    return "".join(keys), np.repeat(idx, lens)


def _key_lengths(text: str) -> npt.NDArray[np.uint8]:
    """Number of key characters of each character of ``text`` (after :func:`_learn`)."""
    return np.frombuffer(text.translate(_LEN_TABLE).encode("latin-1"), dtype=np.uint8)


def _key_stream(texts: Sequence[str]) -> tuple[str, list[int]]:
    """Concatenated key string and, per text, the end offset of its keys in that string.

    One ``str.translate`` over the joined texts instead of a Python step per character.
    """
    joined = "".join(texts)
    _learn(joined)
    keys, lens = _keys_and_lengths(joined)
    before = np.zeros(len(joined) + 1, dtype=np.int64)  # key chars before each position
    np.cumsum(lens, out=before[1:])
    text_ends = np.cumsum(np.fromiter(map(len, texts), dtype=np.int64, count=len(texts)))
    return keys, before[text_ends].tolist()


def _pdf_key_stream(layout: PdfLayout) -> tuple[str, npt.NDArray[np.int64]]:
    """The PDF's key string and, per key character, its index in ``layout.chars``.
    Characters pdfium generated (inferred spaces, line ends) contribute nothing. Works on
    ``layout.text`` and ``layout.columns`` (no ``PdfChar`` tuples) in the common case."""
    text = layout.text
    cols = layout.columns
    n = len(cols.page)
    if len(text) == n:
        _learn(text)
        key_string, lens = _keys_and_lengths(text)
        if not lens[cols.generated].any():  # generated chars are whitespace: no keys
            origin = np.repeat(np.arange(n, dtype=np.int64), lens)
            return key_string, origin  # kept an array: used as one
    # Unusual characters (several code points, or a generated one with a key): one by one.
    keys: list[str] = []
    origin_list: list[int] = []
    for i, c in enumerate(layout.chars):
        if c.generated:
            continue
        k = normalize_char(c.char)
        keys.append(k)
        origin_list.extend([i] * len(k))
    return "".join(keys), np.asarray(origin_list, dtype=np.int64)


def _lis(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest chain of pairs increasing in both coordinates (pairs sorted by the first)."""
    tails: list[int] = []  # p value at the end of the best chain of each length
    tails_idx: list[int] = []
    back: list[int] = [-1] * len(pairs)
    for i, (_, p) in enumerate(pairs):
        j = bisect.bisect_left(tails, p)
        if j == len(tails):
            tails.append(p)
            tails_idx.append(i)
        else:
            tails[j] = p
            tails_idx[j] = i
        back[i] = tails_idx[j - 1] if j > 0 else -1
    chain: list[tuple[int, int]] = []
    k = tails_idx[-1] if tails_idx else -1
    while k >= 0:
        chain.append(pairs[k])
        k = back[k]
    chain.reverse()
    return chain


_GRAM_BASE = np.uint64(0x100000001B3)  # odd multiplier of the polynomial n-gram hash


def _gram_hashes(s: str, n: int) -> npt.NDArray[np.uint64]:
    """The hash of the n-gram of ``s`` at every position (``len(s) >= n``): a 64-bit
    polynomial hash over the code points, computed for all positions at once (numpy wraps
    uint64 arithmetic modulo 2**64), no Python step and no slice per position."""
    codes = np.frombuffer(s.encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)
    m = len(codes) - n + 1
    h = codes[:m].copy()
    for k in range(1, n):
        h *= _GRAM_BASE
        h += codes[k : k + m]
    return h


def _unique_grams(s: str, n: int, stride: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int64]]:
    """Hashes (sorted) and start positions of the n-grams of ``s`` at positions
    0, stride, 2*stride ... that occur exactly once among those positions.

    Equal n-grams have equal hashes (:func:`_gram_hashes`); a collision between different
    ones can only make a unique n-gram look repeated (one anchor fewer), and the caller
    checks every pair it keeps by comparing the strings.
    """
    h = _gram_hashes(s, n)[::stride]
    # Sorted once, unstably, and the runs of equal hashes found by comparing neighbours:
    # only hashes that occur once are kept, so their position is the same whatever the
    # sort's order of equal values. np.unique with return_index sorts stably (a merge
    # sort): 4x slower on a 400-page stream (0.28 s against 0.06 s for 1.6M characters).
    order = np.argsort(h)
    hs = h[order]
    edge = np.empty(hs.size + 1, dtype=np.bool_)  # edge[i]: hs[i] differs from hs[i - 1]
    edge[0] = edge[-1] = True
    np.not_equal(hs[1:], hs[:-1], out=edge[1:-1])
    once = edge[:-1] & edge[1:]
    return hs[once], order[once].astype(np.int64) * stride


def _anchors(t: str, p: str, t_off: int, p_off: int, n: int) -> list[tuple[int, int]]:
    """Unique-n-gram anchor pairs (absolute positions), chained monotonically: n-grams
    that occur once in ``p`` and once among the sampled n-grams of ``t``."""
    if len(t) < n or len(p) < n:
        return []
    p_hash, p_pos = _unique_grams(p, n, 1)
    t_hash, t_pos = _unique_grams(t, n, _TREE_STRIDE if n == _ANCHOR_N else 1)
    _, ti, pi = np.intersect1d(t_hash, p_hash, assume_unique=True, return_indices=True)
    order = np.argsort(t_pos[ti], kind="stable")
    pairs = [
        (a, b)
        for a, b in zip(t_pos[ti][order].tolist(), p_pos[pi][order].tolist(), strict=True)
        if t[a : a + n] == p[b : b + n]
    ]
    return [(a + t_off, b + p_off) for a, b in _lis(pairs)]


def _common_prefix(a: str, i: int, b: str, j: int) -> int:
    """Length of the common prefix of ``a[i:]`` and ``b[j:]`` (slice compares, not a
    Python loop per character: anchor runs are thousands of characters long)."""
    k = 0
    step = 1024
    while step:
        while i + k + step <= len(a) and j + k + step <= len(b) and a[i + k : i + k + step] == b[j + k : j + k + step]:
            k += step
        step //= 4
    return k


def _align_gap(t: str, p: str, t0: int, p0: int, match: list[int], depth: int = 0) -> None:
    """Fill ``match[t0 + i] = p0 + j`` for characters of ``t`` aligned to ``p``."""
    if not t or not p:
        return
    cells = len(t) * len(p)
    if cells > _MAX_GAP_CELLS:
        if depth < 3:
            n = _ANCHOR_N if depth == 0 else _SMALL_ANCHOR_N
            chain = _anchors(t, p, 0, 0, n)
            if chain and len(chain) * _SPARSE_ANCHORS >= len(t):
                _align_chain(t, p, t0, p0, chain, n, match, depth + 1)
                return
        if cells > 50 * _MAX_GAP_CELLS:
            _align_progressive(t, p, t0, p0, match)
            return
    unequal_gap = len(t) != len(p)
    for op in Levenshtein.opcodes(t, p):
        if op.tag != "equal":
            continue
        a0, a1, b0 = op.src_start, op.src_end, op.dest_start
        # A one- or two-letter coincidence in a gap of different lengths is noise (a
        # letter of a list label or a page number), not evidence.
        if unequal_gap and a1 - a0 < 3 and (len(t) > 8 or len(p) > 8):
            continue
        match[t0 + a0 : t0 + a1] = range(p0 + b0, p0 + b0 + a1 - a0)


def _align_progressive(t: str, p: str, t0: int, p0: int, match: list[int]) -> None:
    """Banded alignment for long stretches without enough unique anchors (a document
    that repeats the same phrases and passages).

    Walk ``t`` in overlapping chunks: align a chunk against a window of ``p`` that starts
    after the last committed match, but commit only the matches in the first two thirds
    of the chunk — an edit-distance alignment against a longer window scatters the
    chunk's tail over the window as coincidences, so the tail is re-aligned as the head
    of the next chunk. A chunk that finds nothing jumps ahead to where a probe from it
    occurs in ``p`` (a block only the PDF has, e.g. a long table of contents).
    """
    ti = pi = 0
    while ti < len(t) and pi < len(p):
        chunk = t[ti : ti + _CHUNK]
        final = ti + len(chunk) >= len(t)
        commit = len(chunk) if final else (2 * len(chunk)) // 3
        last = _align_window(chunk, p, pi, commit, t0 + ti, p0, match)
        if last is None:
            probe = chunk[: 32]
            hit = p.find(probe, pi) if len(probe) == 32 else -1
            if hit > pi:
                last = _align_window(chunk, p, hit, commit, t0 + ti, p0, match)
        if last is None:
            ti += commit  # nothing here in the PDF: skip this part of the tree text
            continue
        ta, pb = last
        if final:
            return
        ti, pi = ti + ta + 1, pb + 1


def _align_window(
    chunk: str, p: str, start: int, commit: int, t_abs: int, p0: int, match: list[int]
) -> tuple[int, int] | None:
    """Align ``chunk`` to ``p[start:...]`` and record matches of its first ``commit``
    characters. Returns the last committed pair (chunk offset, position in ``p``), or None
    when no block of >= 8 characters matched."""
    window = p[start : start + int(len(chunk) * 1.1) + 200]
    blocks = [
        (op.src_start, min(op.src_end, commit), op.dest_start)
        for op in Levenshtein.opcodes(chunk, window)
        if op.tag == "equal" and op.src_end - op.src_start >= 3 and op.src_start < commit
    ]
    if not any(a1 - a0 >= 8 for a0, a1, _ in blocks):
        return None
    for a0, a1, b0 in blocks:
        match[t_abs + a0 : t_abs + a1] = range(p0 + start + b0, p0 + start + b0 + a1 - a0)
    a0, a1, b0 = blocks[-1]
    return a1 - 1, start + b0 + (a1 - a0) - 1


def _align_chain(
    t: str, p: str, t0: int, p0: int, chain: list[tuple[int, int]], n: int, match: list[int], depth: int
) -> None:
    """Mark anchor runs as matched and align the gaps between them (positions relative)."""
    ti, pi = 0, 0
    for ta, pa in chain:
        if ta < ti or pa < pi:
            continue  # overlaps the previous anchor's run
        _align_gap(t[ti:ta], p[pi:pa], t0 + ti, p0 + pi, match, depth)
        # Extend the anchor as far as both strings agree.
        k = n + _common_prefix(t, ta + n, p, pa + n)
        match[t0 + ta : t0 + ta + k] = range(p0 + pa, p0 + pa + k)
        ti, pi = ta + k, pa + k
    _align_gap(t[ti:], p[pi:], t0 + ti, p0 + pi, match, depth)


def align_text_to_layout(
    spans: Sequence[TextSpan], layout: PdfLayout, *, boxes: bool = True
) -> AlignmentResult:
    """Align ``spans`` (document order, non-overlapping) to ``layout``'s characters.

    Never raises for text that is not in the PDF: such spans get no boxes and ratio 0.
    ``boxes=False`` leaves ``boxes`` and ``line_boxes`` empty (for callers that make
    their own boxes from ``pdf_chars``); everything else is the same.
    """
    # The cyclic GC would run every 700 new objects (boxes, spans, the key-stream lists)
    # and traverse everything alive each time it reaches the old generation: 10-40% of
    # this function at 400 pages. Nothing here makes reference cycles (as in read_layout).
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _align(spans, layout, boxes)
    finally:
        if gc_was_enabled:
            gc.enable()


def _align(spans: Sequence[TextSpan], layout: PdfLayout, boxes: bool) -> AlignmentResult:
    cols = layout.columns
    # PDF key stream; every key char remembers its index in layout.chars.
    p_text, p_origin = _pdf_key_stream(layout)
    taken = bytearray(len(p_text))  # PDF key chars claimed by repeated spans

    results = [SpanAlignment(s.node_id) for s in spans]
    span_pdf: list[list[int] | npt.NDArray[np.int64]] = [[] for _ in spans]

    # 1. Repeated spans (headers/footers): every exact occurrence, on any page.
    for idx, span in enumerate(spans):
        if not span.repeated:
            continue
        key, _ = _key_stream([span.text])
        results[idx].key_chars = len(key)
        if not key:
            continue
        found = 0
        hits: list[int] = []
        start = p_text.find(key)
        while start >= 0:
            taken[start : start + len(key)] = b"\x01" * len(key)
            hits.extend(p_origin[start : start + len(key)].tolist())
            found = len(key)
            start = p_text.find(key, start + len(key))
        span_pdf[idx] = hits
        results[idx].matched_chars = found

    # 2. Body spans: one global alignment over the PDF stream minus repeated text.
    body = [i for i, s in enumerate(spans) if not s.repeated]
    t_text, t_ends = _key_stream([spans[i].text for i in body])
    if any(taken):
        keep = [m for m in range(len(p_text)) if not taken[m]]
        p_body = "".join(p_text[m] for m in keep)
        p_body_origin = p_origin[np.asarray(keep, dtype=np.int64)]
    else:
        p_body, p_body_origin = p_text, p_origin
    match = [-1] * len(t_text)
    _align_gap(t_text, p_body, 0, 0, match)

    # Tree key char -> layout.chars index (-1: unmatched), then per span a slice of the
    # matched ones: numpy over all characters instead of a Python step per character.
    t_match = np.asarray(match, dtype=np.int64)
    matched_mask = t_match >= 0
    origin_arr = np.asarray(p_body_origin, dtype=np.int64)
    hits_all = origin_arr[t_match[matched_mask]]
    hits_before = np.zeros(len(t_match) + 1, dtype=np.int64)
    np.cumsum(matched_mask, out=hits_before[1:])
    bounds = hits_before[np.asarray([0, *t_ends], dtype=np.int64)].tolist()
    start = 0
    for which, idx in enumerate(body):
        end = t_ends[which]
        results[idx].key_chars = end - start
        results[idx].matched_chars = bounds[which + 1] - bounds[which]
        span_pdf[idx] = hits_all[bounds[which] : bounds[which + 1]]
        start = end

    # 3. Per span its characters (sorted, unique, plus the hyphens LibreOffice printed at
    # its line ends) and boxes: all body spans at once, repeated spans one by one.
    hyphen_next = _hyphen_before_break(layout)
    total_keys = 0
    total_matched = 0
    for res in results:
        total_keys += res.key_chars
        total_matched += min(res.matched_chars, res.key_chars)
        res.ratio = min(1.0, res.matched_chars / res.key_chars) if res.key_chars else 0.0
    chars_all, starts = _span_chars(hits_all, np.asarray(bounds, dtype=np.int64), hyphen_next)
    chars_list = chars_all.tolist()
    start_list = starts.tolist()
    for which, idx in enumerate(body):
        if start_list[which] < start_list[which + 1]:
            results[idx].pdf_chars = chars_list[start_list[which] : start_list[which + 1]]
    if boxes and not (cols.page[1:] < cols.page[:-1]).any():  # pages in order: runs are pages
        _all_boxes(cols, chars_all, starts, [results[idx] for idx in body])
    elif boxes:  # a hand-built layout with pages out of order: group by page per span
        for idx in body:
            if results[idx].pdf_chars:
                results[idx].line_boxes = _boxes(cols, np.asarray(results[idx].pdf_chars, dtype=np.int64))
                results[idx].boxes = _merge_per_page(results[idx].line_boxes)
    for idx, span in enumerate(spans):
        if not span.repeated or len(span_pdf[idx]) == 0:
            continue
        res = results[idx]
        indices = np.unique(np.asarray(span_pdf[idx], dtype=np.int64))
        extra = indices[hyphen_next[indices]] + 1
        if extra.size:
            indices = np.union1d(indices, extra)
        res.pdf_chars = indices.tolist()
        if boxes:
            res.line_boxes = _boxes(cols, indices)
            res.boxes = _merge_per_page(res.line_boxes)
    return AlignmentResult(results, {r.node_id: r for r in results}, total_keys, total_matched)


def _span_chars(
    hits: npt.NDArray[np.int64], bounds: npt.NDArray[np.int64], hyphen_next: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Per span (``hits[bounds[k]:bounds[k + 1]]``): its characters sorted and unique, with
    ``i + 1`` added for every ``i`` whose ``hyphen_next`` is set. Returned concatenated,
    with the new bounds: one sort over (span, index) keys instead of three numpy calls
    per span (a long document has tens of thousands of spans)."""
    n_spans = len(bounds) - 1
    if not hits.size:
        return hits, np.zeros(n_spans + 1, dtype=np.int64)
    span = np.repeat(np.arange(n_spans, dtype=np.int64), np.diff(bounds))
    extra = hyphen_next[hits]
    values = np.concatenate((hits, hits[extra] + 1))
    owner = np.concatenate((span, span[extra]))
    width = np.int64(len(hyphen_next) + 1)
    keys = sorted_unique(owner * width + values)
    owner = keys // width
    starts = np.searchsorted(owner, np.arange(n_spans + 1, dtype=np.int64))
    return keys % width, starts


def sorted_unique(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """``np.unique(values)`` for integer arrays, by a stable sort (linear on the nearly
    sorted arrays met here) and a neighbour comparison: numpy 2.4's ``np.unique`` without
    ``return_index`` took 1.2 s for 700k integers, sorted or not, where this takes ms."""
    out = np.sort(values, kind="stable")
    if out.size > 1:
        out = out[np.concatenate(([True], out[1:] != out[:-1]))]
    return out


def _all_boxes(
    cols: CharColumns, chars: npt.NDArray[np.int64], starts: npt.NDArray[np.int64], results: list[SpanAlignment]
) -> None:
    """:func:`_boxes` and :func:`_merge_per_page` for every span at once: ``results[k]``
    gets the line boxes and per-page boxes of ``chars[starts[k]:starts[k + 1]]``."""
    if not chars.size:
        return
    span = np.repeat(np.arange(len(results), dtype=np.int64), np.diff(starts))
    page = cols.page[chars]
    line = cols.line[chars]
    x0, top, x1, bottom = cols.x0[chars], cols.top[chars], cols.x1[chars], cols.bottom[chars]
    new_span_or_page = np.ones(chars.size, dtype=np.bool_)
    new_span_or_page[1:] = (span[1:] != span[:-1]) | (page[1:] != page[:-1])
    new_line = new_span_or_page.copy()
    new_line[1:] |= line[1:] != line[:-1]
    for starts_at, attr in ((np.flatnonzero(new_line), "line_boxes"), (np.flatnonzero(new_span_or_page), "boxes")):
        a = np.minimum.reduceat(x0, starts_at)
        b = np.minimum.reduceat(top, starts_at)
        c = np.maximum.reduceat(x1, starts_at)
        d = np.maximum.reduceat(bottom, starts_at)
        # Character boxes are well-formed, so their unions are; if one is not, the
        # validating constructor raises as it would for that box alone.
        valid = bool(np.isfinite(a).all() and np.isfinite(b).all() and np.isfinite(c).all()
                     and np.isfinite(d).all() and (c >= a).all() and (d >= b).all())
        make = layout_box if valid else _validated_box
        owner = span[starts_at].tolist()
        for k, p, x_0, t, x_1, btm in zip(owner, page[starts_at].tolist(), a.tolist(), b.tolist(),
                                          c.tolist(), d.tolist(), strict=True):
            getattr(results[k], attr).append(make(p, x_0, t, x_1, btm))


def _validated_box(page: int, x0: float, top: float, x1: float, bottom: float) -> Box:
    return Box(page=page, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")


def layout_box(page: int, x0: float, top: float, x1: float, bottom: float) -> Box:
    """A ``layout`` box from character extents, which are well-formed by construction
    (finite, x0 <= x1, top <= bottom), built without pydantic's per-call work."""
    return make_box(page, x0, top, x1, bottom, "layout")


_HYPHENS = frozenset("-\u00ad\u2010\ufffe\u0002")
_HYPHEN_CODES = np.array(sorted(map(ord, _HYPHENS)), dtype=np.uint32)


def _hyphen_before_break(layout: PdfLayout) -> npt.NDArray[np.bool_]:
    """``out[i]``: character ``i + 1`` is a hyphen and ``i + 2`` a line end — the hyphen
    LibreOffice printed where it broke a word across lines. It is in no tree text, but it
    is ink inside the line of the span that owns character ``i``, so the span gets it."""
    cols = layout.columns
    n = len(cols.page)
    out = np.zeros(n, dtype=np.bool_)
    if n >= 3:
        if len(layout.text) == n:  # one code point per character: text[i] is chars[i].char
            hyphen = np.isin(layout.codes, _HYPHEN_CODES)
        else:
            chars = map(itemgetter(1), layout.chars)
            hyphen = np.fromiter(map(_HYPHENS.__contains__, chars), dtype=np.bool_, count=n)
        out[: n - 2] = hyphen[1 : n - 1] & cols.newline[2:]
    return out


def _boxes(cols: CharColumns, indices: npt.NDArray[np.int64]) -> list[Box]:
    """One box per (page, line) over the given characters (sorted, non-empty), in stream
    order: the union of each run of consecutive indices on the same page and line."""
    page = cols.page[indices]
    line = cols.line[indices]
    breaks = np.flatnonzero((page[1:] != page[:-1]) | (line[1:] != line[:-1])) + 1
    starts = np.concatenate((np.zeros(1, dtype=np.int64), breaks))
    x0 = np.minimum.reduceat(cols.x0[indices], starts).tolist()
    top = np.minimum.reduceat(cols.top[indices], starts).tolist()
    x1 = np.maximum.reduceat(cols.x1[indices], starts).tolist()
    bottom = np.maximum.reduceat(cols.bottom[indices], starts).tolist()
    return [
        Box(page=p, x0=a, top=b, x1=c, bottom=d, origin="layout")
        for p, a, b, c, d in zip(page[starts].tolist(), x0, top, x1, bottom, strict=True)
    ]


def _merge_per_page(boxes: list[Box]) -> list[Box]:
    by_page: dict[int, Box] = {}
    for b in boxes:
        by_page[b.page] = by_page[b.page].union(b) if b.page in by_page else b
    return [by_page[p] for p in sorted(by_page)]
