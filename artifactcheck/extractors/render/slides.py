"""Where the text of a slide deck is drawn: ``layout`` boxes for paragraphs, lines and
runs from a PDF with one page per slide (a LibreOffice render of a .pptx, or Drive's PDF
export of a Google Slides deck). design/pptx-geometry.md, "Text where it is drawn".

Per slide, on its PDF page only:

1. The slide's text runs, in drawing order (master and layout shapes, then the slide's
   own shapes in z-order, table cells row by row), are aligned to the page's characters
   with :func:`~artifactcheck.extractors.render.align_text_to_layout`, the machinery
   that gives .docx its boxes.
2. Frames that pass left in doubt — not every character matched, a run's characters
   scattered over the page, or a run drawn away from its frame (short texts such as
   "R" or "5" repeat on a slide and the page-wide pass pairs them in stream order) —
   give their characters back together and are aligned again one by one, paragraph
   by paragraph, each within the stretch of unclaimed characters where its text is:
   its exact occurrence nearest the frame, else rapidfuzz's best partial match on the
   page, else the best partial match among the characters drawn on the frame (right-
   to-left text whose neutral characters the PDF reorders). Paragraph by paragraph,
   because LibreOffice draws bullets and numbers between them.
   A paragraph of date/time fields only takes the characters drawn on its frame: they
   show the date of the render, not the text the file stored.
3. A frame still unmatched that lies exactly over another frame with the same text
   (a layout repeating its master's title) takes its twin's characters: pdfium drops
   text drawn twice at one place (it takes it for fake bold).
4. Runs get the union of their characters; paragraphs the union of their runs plus the
   bullet or number LibreOffice drew before their first line, and ``line_boxes`` (one
   per drawn line); the frame records ``drawn_text_box`` (the union of its paragraphs),
   ``text_overflows`` (drawn more than 1 pt outside the frame) and, when LibreOffice
   drew the text smaller than stated (autofit), ``drawn_font_scale``.

Shapes keep their ``native`` boxes (the frame is where the file puts it), except frames
resized to their text (``spAutoFit``): LibreOffice draws them around it (``grown_frame``),
and the file's box moves to ``stated_box``. Text not found
in the PDF keeps its frame box (``native``) and ``layout_match: 0``; partly found text
gets ``layout_match`` (the share of its characters found). Boxes are points, top-left
origin of the slide, ``origin="layout"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from statistics import median

import numpy as np
from pydantic import JsonValue
from rapidfuzz import fuzz

from ...model import Box, Document, Node, union_all
from .align import TextSpan, align_text_to_layout, normalize_char
from .layout import PdfLayout

__all__ = ["SlideTextStats", "attach_slide_text", "box_attr", "paints_frame", "resizes_to_text", "text_outside"]

_RETRY_BELOW = 0.999  # a frame matched below this share is aligned again alone
_OVERFLOW_PT = 1.0  # drawn text further than this outside its frame overflows it
_SCALE_NOTED = 0.02  # drawn/stated size differing by more than this is recorded
_SHORT_KEYS = 12  # a frame's text this short is looked up exactly, nearest the frame first
_MIN_WINDOW_SCORE = 80.0  # rapidfuzz partial_ratio below which a longer text is not there
_MIN_PARAGRAPH_SHARE = 0.5  # a window match finding less of a paragraph is not kept
_SHORT_DISPLACED_PT = 2.0  # a short text drawn further than this from its frame was mispaired
_DISPLACED_PT = 72.0  # ... a longer one further than this (overflowing text stays closer)
_NEAR_GROWTH = 0.25  # the frame grown by this share of its size holds its text's characters
_TWIN_PT = 1.0  # frames this close with the same text are drawn over each other
_WINDOW_SLACK = 8  # key characters around the fuzzy window (a moved colon, a bullet)


@dataclass
class SlideTextStats:
    """What the alignment found over the whole deck (key characters: the text after the
    alignment's normalisation, whitespace dropped). ``paragraphs``: paragraphs with
    visible text on slides that were rendered; ``paragraphs_boxed``: those whose drawn
    box was found (at least half their characters matched)."""

    key_chars: int = 0
    matched_chars: int = 0
    paragraphs: int = 0
    paragraphs_boxed: int = 0
    slides_rendered: int = 0
    slides_missing: list[int] = field(default_factory=list)


@dataclass
class _RunMatch:
    key_chars: int = 0
    matched: int = 0  # key characters that found a drawn character
    chars: list[int] = field(default_factory=list)  # indices into layout.chars, sorted

    @property
    def ratio(self) -> float:
        return min(1.0, self.matched / self.key_chars) if self.key_chars else 0.0


def text_outside(frame: Box, drawn: Box) -> bool:
    """Is the drawn text more than ``_OVERFLOW_PT`` outside the frame on any side?"""
    outside = max(frame.x0 - drawn.x0, frame.top - drawn.top, drawn.x1 - frame.x1, drawn.bottom - frame.bottom)
    return outside > _OVERFLOW_PT


def attach_slide_text(doc: Document, layout: PdfLayout, pages: dict[int, int]) -> SlideTextStats:
    """Give the text of every slide in ``pages`` (slide index -> PDF page) its drawn
    boxes, in place; see the module docstring. Returns the deck's statistics (also
    written to the document node's ``layout_*`` attributes)."""
    stats = SlideTextStats()
    starts = np.searchsorted(layout.columns.page, np.arange(len(layout.pages) + 1))
    for slide in doc.root.children:
        if slide.kind != "slide":
            continue
        index = int(slide.attrs.get("index", -1))  # type: ignore[arg-type]
        page = pages.get(index)
        if page is None:
            stats.slides_missing.append(index)
            continue
        stats.slides_rendered += 1
        chars = range(int(starts[page]), int(starts[page + 1]))
        _SlideText(layout, slide, chars, index, page).run(stats)
    attrs = doc.root.attrs
    attrs["layout_text_coverage"] = round(stats.matched_chars / stats.key_chars, 5) if stats.key_chars else 1.0
    attrs["layout_key_chars"] = stats.key_chars
    attrs["layout_matched_chars"] = stats.matched_chars
    attrs["layout_paragraphs"] = stats.paragraphs
    attrs["layout_paragraphs_boxed"] = stats.paragraphs_boxed
    return stats


def _text_frames(node: Node) -> Iterator[Node]:
    """Nodes holding paragraphs (shapes, text boxes, cells), in drawing order; not the
    undrawn ones (notes, comments, hidden shapes)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n.attrs.get("rendered") is False or n.attrs.get("hidden") is True or n.kind in ("note", "comment"):
            continue
        if any(c.kind == "paragraph" for c in n.children):
            yield n
        stack.extend(reversed([c for c in n.children if c.kind != "paragraph"]))


def _runs(frame: Node) -> list[Node]:
    return [r for p in frame.children if p.kind == "paragraph" for r in p.children if r.kind == "run" and r.text]


class _SlideText:
    def __init__(self, layout: PdfLayout, slide: Node, chars: range, page: int, pdf_page: int) -> None:
        self.layout = layout
        self.slide = slide
        self.page_chars = chars
        self.page = page  # the Document page (slide index): boxes live there
        self.pdf_page = pdf_page
        self.claimed: set[int] = set()
        self.runs: dict[str, _RunMatch] = {}
        self.frames = list(_text_frames(slide))

    # -- alignment -----------------------------------------------------------------------
    def run(self, stats: SlideTextStats) -> None:
        all_runs = [r for f in self.frames for r in _runs(f)]
        self._align(all_runs)
        # Frames the page-wide pass matched only partly give their claims back together
        # first: a partial match may hold letters of another frame's text.
        retry: list[tuple[Node, list[Node], dict[str, _RunMatch]]] = []
        for frame in self.frames:
            runs = _runs(frame)
            keys = sum(self.runs[r.id].key_chars for r in runs)
            got = sum(self.runs[r.id].matched for r in runs)
            if keys and (
                got / keys < _RETRY_BELOW
                or not all(self._compact(self.runs[r.id]) for r in runs)
                or self._displaced(frame, runs)
            ):
                before = {r.id: self.runs[r.id] for r in runs}
                for m in before.values():
                    self.claimed.difference_update(m.chars)
                retry.append((frame, runs, before))
        for frame, runs, before in retry:
            self._realign(frame, runs, before)
        for frame, runs, _ in retry:
            self._twin(frame, runs)
        self._assign(stats)

    def _twin(self, frame: Node, runs: list[Node]) -> None:
        """A frame drawn exactly over another one with the same text (a layout that
        repeats its master's title) is drawn too, but pdfium drops text drawn twice at
        one place (it takes it for fake bold): such a frame takes its twin's characters."""
        if sum(self.runs[r.id].matched for r in runs) or frame.box is None:
            return
        for other in self.frames:
            if other is frame or other.box is None or other.text != frame.text:
                continue
            a, b = frame.box, other.box
            if max(abs(a.x0 - b.x0), abs(a.top - b.top), abs(a.x1 - b.x1), abs(a.bottom - b.bottom)) > _TWIN_PT:
                continue
            twins = _runs(other)
            if len(twins) != len(runs) or not any(self.runs[t.id].matched for t in twins):
                continue
            for r, t in zip(runs, twins, strict=True):
                m = self.runs[t.id]
                self.runs[r.id] = _RunMatch(m.key_chars, m.matched, list(m.chars))
            return

    def _unclaimed(self, window: range | None = None) -> tuple[PdfLayout, list[int]]:
        """The page's characters nobody claimed (within ``window``, indices into
        ``layout.chars``) as a layout of their own, and their indices."""
        idx = [i for i in (window or self.page_chars) if i not in self.claimed]
        chars = self.layout.chars
        sub = PdfLayout(pages=self.layout.pages, chars=[chars[i] for i in idx], images=[], structure=[], tagged=False)
        return sub, idx

    def _align(self, runs: list[Node], window: range | None = None) -> None:
        sub, idx = self._unclaimed(window)
        result = align_text_to_layout([TextSpan(r.id, r.text) for r in runs], sub)
        for r, span in zip(runs, result.spans, strict=True):
            got = [idx[i] for i in span.pdf_chars if not sub.chars[i].generated]
            self.runs[r.id] = _RunMatch(span.key_chars, min(span.matched_chars, span.key_chars), got)
            self.claimed.update(got)

    def _displaced(self, frame: Node, runs: list[Node]) -> bool:
        """Is a run drawn away from its frame? Short texts ("R", "5") repeat on a slide,
        and the page-wide pass pairs them up in stream order, not by place: one is
        displaced when its characters are outside the frame; a longer one when they are
        more than an inch away (text overflowing its frame stays close)."""
        for r in runs:
            m = self.runs[r.id]
            if m.chars:
                limit = _SHORT_DISPLACED_PT if m.key_chars <= _SHORT_KEYS else _DISPLACED_PT
                if self._distance(frame, m.chars) > limit * limit:
                    return True
        return False

    def _spread(self, frame: Node, runs: list[Node], matches: dict[str, _RunMatch]) -> float:
        """Sum of the (squared) distances of the runs' characters from the frame."""
        return sum(self._distance(frame, matches[r.id].chars) for r in runs if matches[r.id].chars)

    def _compact(self, m: _RunMatch) -> bool:
        """Are a run's matched characters one stretch of the page (a few strays allowed)?
        An alignment can match every letter of a run and still take some from another
        shape's text drawn on the same line ("A) Tiroksin" + "C) Auksin")."""
        if len(m.chars) < 2:
            return True
        cols = self.layout.columns
        lo, hi = m.chars[0], m.chars[-1]
        drawn = int(hi - lo + 1 - cols.generated[lo : hi + 1].sum())
        return drawn - len(m.chars) <= 2 + len(m.chars) // 10

    def _realign(self, frame: Node, runs: list[Node], before: dict[str, _RunMatch]) -> None:
        """Align one frame's text again (its claims already given back), paragraph by
        paragraph, each within the stretch of unclaimed characters where it is; keep the
        earlier match when it found more and its characters are still free. An edit-
        distance alignment of a short text against a whole page may scatter it over
        coincidences, so the stretch is found first: the occurrence of a short text
        nearest the frame, or the best fuzzy window of a longer one. Paragraph by
        paragraph, because LibreOffice draws bullets and numbers between them."""
        for para in frame.children:
            para_runs = [r for r in para.children if r.id in before]
            if not para_runs:
                continue
            if self._clock_fields(frame, para_runs):
                continue
            window = self._window(frame, "".join(r.text for r in para_runs))
            if window is not None:
                self._align(para_runs, window)
                keys = sum(self.runs[r.id].key_chars for r in para_runs)
                if keys and sum(self.runs[r.id].matched for r in para_runs) / keys >= _MIN_PARAGRAPH_SHARE:
                    continue
                for r in para_runs:  # a few coincidences, not this paragraph
                    self.claimed.difference_update(self.runs[r.id].chars)
            for r in para_runs:
                self.runs[r.id] = _RunMatch(before[r.id].key_chars)
        got = sum(m.matched for m in before.values())
        now = sum(self.runs[r.id].matched for r in runs)
        if now > got or (now == got and self._spread(frame, runs, self.runs) <= self._spread(frame, runs, before)):
            return
        old_chars = {i for m in before.values() for i in m.chars}
        new_chars = {i for r in runs for i in self.runs[r.id].chars}
        if old_chars & (self.claimed - new_chars):
            return  # the earlier match's characters went to another frame meanwhile
        self.claimed.difference_update(new_chars)
        self.runs.update(before)
        self.claimed.update(old_chars)

    def _clock_fields(self, frame: Node, runs: list[Node]) -> bool:
        """A paragraph of date/time fields only (a footer's ``datetime1``...): PowerPoint
        and LibreOffice draw the date the deck is opened (rendered), not the text the file
        stored ("12/16/2016" drawn as "12/02/2026"), so its text cannot be looked up. It
        takes the unclaimed characters drawn on its frame when they hold a digit (what
        such a placeholder shows), and counts as found; False when it is not such a
        paragraph or nothing of the kind is drawn there. The frame itself, not grown: a
        date is short, and the footer beside it may still be waiting for its own pass."""
        if not all(str(r.attrs.get("field", "")).startswith("datetime") for r in runs):
            return False
        chars = self.layout.chars
        got = [i for i in self._near(frame, growth=0.0) if i not in self.claimed and not chars[i].generated
               and not chars[i].char.isspace()]
        if not any(chars[i].char.isdigit() for i in got):
            return False
        first, *rest = runs
        self.runs[first.id] = _RunMatch(self.runs[first.id].key_chars or len(got), len(got), got)
        for r in rest:
            self.runs[r.id] = _RunMatch(self.runs[r.id].key_chars)
        self.claimed.update(got)
        return True

    def _window(self, frame: Node, text: str) -> range | None:
        """Indices (a range of ``layout.chars``) of the unclaimed stretch of the page
        that holds ``text``; None when it is not there. Its exact occurrence nearest the
        frame (the same text may be drawn on several shapes), else, unless the text is
        short, rapidfuzz's best partial match on the page. Failing that, the best partial match among the characters drawn on
        the frame (right-to-left text whose neutral characters the PDF reorders:
        "שאלה 8:" is drawn as "שאלה :8")."""
        want = "".join(normalize_char(ch) for ch in text)
        if not want:
            return None
        stream, origin = self._key_stream(self.page_chars)
        hits = []
        at = stream.find(want)
        while at >= 0:
            hits.append(origin[at : at + len(want)])
            at = stream.find(want, at + 1)
        if hits:  # the same text may be drawn more than once: the copy on this frame
            best = min(hits, key=lambda h: self._distance(frame, h))
            return range(best[0], best[-1] + 1)
        if len(want) > _SHORT_KEYS:
            found = _fuzzy_window(want, stream, origin)
            if found is not None:
                return found
        near = self._near(frame)
        if not near:
            return None
        stream, origin = self._key_stream(near)
        return _fuzzy_window(want, stream, origin)

    def _key_stream(self, indices: Iterable[int]) -> tuple[str, list[int]]:
        """The alignment keys of the unclaimed drawn characters among ``indices``, and
        for each key character its index in ``layout.chars``."""
        keys: list[str] = []
        origin: list[int] = []
        chars = self.layout.chars
        for i in indices:
            if i in self.claimed or chars[i].generated:
                continue
            k = normalize_char(chars[i].char)
            keys.append(k)
            origin.extend([i] * len(k))
        return "".join(keys), origin

    def _near(self, frame: Node, growth: float = _NEAR_GROWTH) -> list[int]:
        """The page's characters drawn on the frame's box grown by ``growth`` of its size
        on each side (by default a quarter: text a little too long for its frame spills
        over; centres inside)."""
        box = frame.box
        if box is None:
            return []
        dx, dy = box.width * growth, box.height * growth
        cols = self.layout.columns
        lo, hi = self.page_chars.start, self.page_chars.stop
        cx = (cols.x0[lo:hi] + cols.x1[lo:hi]) / 2
        cy = (cols.top[lo:hi] + cols.bottom[lo:hi]) / 2
        inside = (cx >= box.x0 - dx) & (cx <= box.x1 + dx) & (cy >= box.top - dy) & (cy <= box.bottom + dy)
        return (np.flatnonzero(inside) + lo).tolist()

    def _distance(self, frame: Node, chars: list[int]) -> float:
        """How far characters lie from the frame's box (0 inside; any box when the
        frame has none)."""
        frame_box = frame.box
        if frame_box is None:
            return 0.0
        b = self._box(chars)
        cx, cy = (b.x0 + b.x1) / 2, (b.top + b.bottom) / 2
        dx = max(frame_box.x0 - cx, 0.0, cx - frame_box.x1)
        dy = max(frame_box.top - cy, 0.0, cy - frame_box.bottom)
        return float(dx * dx + dy * dy)

    # -- write back ----------------------------------------------------------------------
    def _assign(self, stats: SlideTextStats) -> None:
        for frame in self.frames:
            para_boxes: list[Box] = []
            scales: list[float] = []
            for para in frame.children:
                if para.kind != "paragraph":
                    continue
                chars: list[int] = []
                keys = matched = 0
                for run in para.children:
                    m = self.runs.get(run.id)
                    if m is None:
                        continue
                    keys += m.key_chars
                    matched += m.matched
                    chars.extend(m.chars)
                    if m.chars:
                        run.boxes = [self._box(m.chars)]
                        scale = self._drawn_scale(run, m.chars)
                        if scale is not None:
                            scales.append(scale)
                    if m.key_chars and m.ratio < _RETRY_BELOW:
                        run.attrs["layout_match"] = round(m.ratio, 3)
                if keys == 0:
                    continue
                stats.key_chars += keys
                stats.matched_chars += matched
                stats.paragraphs += 1
                ratio = min(1.0, matched / keys)
                if ratio >= 0.5:
                    stats.paragraphs_boxed += 1
                if ratio < _RETRY_BELOW:
                    para.attrs["layout_match"] = round(ratio, 3)
                if not chars:
                    continue
                chars = sorted(set(chars) | set(self._label(para, min(chars))))
                lines = self._line_boxes(chars)
                para.boxes = union_all(lines)
                para.attrs["lines"] = len(lines)
                para.attrs["line_boxes"] = [box_attr(b) for b in lines]
                para_boxes.extend(para.boxes)
            if para_boxes:
                self._frame_attrs(frame, union_all(para_boxes)[0], scales)

    def _frame_attrs(self, frame: Node, drawn: Box, scales: list[float]) -> None:
        frame.attrs["drawn_text_box"] = box_attr(drawn)
        native = next((b for b in frame.boxes if b.origin == "native"), None)
        if native is not None:
            frame.attrs["text_overflows"] = text_outside(native, drawn)
            grown = grown_frame(frame, native, drawn)
            if grown is not None:
                grown = self._drawn_outline(frame, drawn, grown)
                frame.attrs["stated_box"] = box_attr(native)
                frame.boxes = [grown]
        if scales:
            scale = median(scales)
            if abs(scale - 1.0) > _SCALE_NOTED:
                frame.attrs["drawn_font_scale"] = round(scale, 3)

    def _drawn_outline(self, frame: Node, drawn: Box, estimate: Box) -> Box:
        """A visible resized frame (filled or outlined) snapped to the path LibreOffice
        painted for it: the page's drawn area around its text nearest the estimate (each
        edge within ``_OUTLINE_SNAP_PT``). The estimate misses by the gap between a line's
        font band and its line height, up to ~3 pt; without a painted path it stands."""
        if not self.layout.areas or not paints_frame(frame):
            return estimate
        best: tuple[float, Box] | None = None
        for a in self.layout.areas:
            if a.page != self.pdf_page:
                continue
            if a.x0 > drawn.x0 + 1 or a.top > drawn.top + 1 or a.x1 < drawn.x1 - 1 or a.bottom < drawn.bottom - 1:
                continue
            edges = (abs(a.x0 - estimate.x0), abs(a.top - estimate.top), abs(a.x1 - estimate.x1), abs(a.bottom - estimate.bottom))
            if max(edges) > _OUTLINE_SNAP_PT:
                continue
            box = Box(page=self.page, x0=a.x0, top=a.top, x1=a.x1, bottom=a.bottom, origin="layout")
            if best is None or sum(edges) < best[0]:
                best = (sum(edges), box)
        return best[1] if best is not None else estimate

    def _drawn_scale(self, run: Node, chars: list[int]) -> float | None:
        """Drawn size / stated size of a run (LibreOffice's autofit shrink shows here)."""
        stated = run.style.size if run.style is not None else None
        sizes = [self.layout.chars[i].size for i in chars if self.layout.chars[i].size > 0]
        if not stated or not sizes:
            return None
        return float(median(sizes)) / stated

    def _label(self, para: Node, first: int) -> list[int]:
        """The bullet or number drawn before a list paragraph's first character: the
        unclaimed drawn characters just before it on the same line."""
        if "bullet" not in para.attrs:
            return []
        cols = self.layout.columns
        out: list[int] = []
        i = first - 1
        while i >= self.page_chars.start and cols.line[i] == cols.line[first] and i not in self.claimed:
            if not cols.generated[i]:
                out.append(i)
            i -= 1
        return out

    def _box(self, chars: list[int]) -> Box:
        c = self.layout.columns
        ix = np.asarray(chars, dtype=np.int64)
        return Box.model_construct(
            page=self.page,
            x0=float(c.x0[ix].min()),
            top=float(c.top[ix].min()),
            x1=float(c.x1[ix].max()),
            bottom=float(c.bottom[ix].max()),
            origin="layout",
            polygon=None,
        )

    def _line_boxes(self, chars: list[int]) -> list[Box]:
        line = self.layout.columns.line
        groups: dict[int, list[int]] = {}
        for i in chars:
            groups.setdefault(int(line[i]), []).append(i)
        return [self._box(g) for _, g in sorted(groups.items())]


def _fuzzy_window(want: str, stream: str, origin: list[int]) -> range | None:
    """The stretch of ``stream`` (as indices of layout characters) that best holds
    ``want`` (rapidfuzz partial_ratio, with a little slack around it), or None."""
    if not stream:
        return None
    found = fuzz.partial_ratio_alignment(want, stream)
    if found is None or found.score < _MIN_WINDOW_SCORE:
        return None
    lo = max(0, found.dest_start - _WINDOW_SLACK)
    hi = min(len(origin), found.dest_end + _WINDOW_SLACK)
    if hi <= lo:
        return None
    return range(origin[lo], origin[hi - 1] + 1)


_DEFAULT_INSETS = (7.2, 3.6, 7.2, 3.6)
_OUTLINE_SNAP_PT = 8.0  # a painted path this close on every edge is the resized frame


def paints_frame(frame: Node) -> bool:
    """The frame itself is painted (a fill or an outline), so the render draws a path
    for it."""
    return bool((frame.style is not None and frame.style.fill) or frame.attrs.get("line_color"))


def resizes_to_text(frame: Node) -> bool:
    """A "resize shape to fit text" frame (``spAutoFit``): LibreOffice draws it around
    its text (:func:`grown_frame`)."""
    return frame.attrs.get("autofit") == "shape"


def grown_frame(frame: Node, stated: Box, drawn: Box) -> Box | None:
    """Where LibreOffice draws a "resize shape to fit text" frame (``spAutoFit``, what
    python-pptx's ``add_textbox`` writes): sized to its drawn text plus the insets, not
    as the file states it. Measured on filled frames: the height fits the text, kept at
    the top, the middle or the bottom edge as the text is anchored; an unwrapped frame's
    width fits its longest line around the stated centre. Within ~1 pt of the fill LibreOffice
    paints (``_SlideText._drawn_outline`` then snaps a visible frame to its painted path).
None for other frames, and for turned ones (not measured)."""
    if not resizes_to_text(frame) or frame.attrs.get("rotation") or frame.style is None:
        return None
    insets = frame.attrs.get("insets_pt")
    stated_insets = [float(v) for v in insets if isinstance(v, (int, float))] if isinstance(insets, list) else []
    left, top, right, bottom = stated_insets if len(stated_insets) == 4 else _DEFAULT_INSETS
    x0, x1 = stated.x0, stated.x1
    if frame.style.wrap is False:
        half = (drawn.x1 - drawn.x0 + left + right) / 2
        centre = (stated.x0 + stated.x1) / 2
        x0, x1 = centre - half, centre + half
    height = drawn.bottom - drawn.top + top + bottom
    anchor = frame.style.valign
    if anchor == "bottom":
        y0 = stated.bottom - height
    elif anchor == "middle":
        y0 = (stated.top + stated.bottom - height) / 2
    else:
        y0 = stated.top
    return Box(page=stated.page, x0=x0, top=y0, x1=x1, bottom=y0 + height, origin="layout")


def box_attr(b: Box) -> dict[str, JsonValue]:
    """A box as an attribute value (points, 2 decimals; its page is the node's page)."""
    return {"x0": round(b.x0, 2), "top": round(b.top, 2), "x1": round(b.x1, 2), "bottom": round(b.bottom, 2)}
