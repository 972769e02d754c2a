"""Boxes for a .docx tree from its LibreOffice rendering (design/docx-tree.md).

1. Render (cached) and read the PDF layout; one ``Page(kind="page")`` per PDF page.
2. Body runs (body, tables, text boxes) are aligned to the PDF text in one global pass
   (:func:`~artifactcheck.extractors.render.align_text_to_layout`).
3. Runs that found (almost) nothing are aligned again, grouped between the nearest
   matched neighbours, against the characters nobody claimed on the pages between them
   (floating text boxes and footnotes are drawn out of reading order).
4. Headers and footers are aligned page by page against the unclaimed characters of that
   page, using the header/footer the page's section shows there (first/even/default).
5. Pictures are matched by content: the decoded pixels' sha256, else (no exact copy)
   perceptual hash distance, preferring the page where the surrounding text landed;
   header/footer pictures first take the copy in their own margin; cropped pictures are
   boxed by their visible part; vector pictures (EMF/WMF) are drawn as paths and get no
   box.
6. Containers (paragraph, cell, row, table, text box, header, footer, note) get the union
   of their children's boxes per page; floating pictures do not widen their paragraph.
7. Every node left without a box gets ``rendered=False`` and a reason.

Boxes are ``origin="layout"``, points, top-left origin of each PDF page.
"""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...model import Blob, Box, Document, Node, Page, ToolInfo
from ...model.blobs import decode_image, phash_as_stored
from ...model.crop import crop_fractions
from ...model.geometry import unchecked_box, union_all
from ..render import PdfLayout, TextSpan, align_text_to_layout, read_layout, render_pdf
from ..render.align import key_text, layout_keys, sorted_unique
from ..render.layout import CharColumns, PdfArea, PdfRule, mean_colour
from ..tree_builder import set_leaf_text
from .body import PAGE_NUMBER_FIELDS, TRACKED_DELETION
from .numbering import format_number
from .table_borders import PageRules, box_table_by_borders

_RETRY_BELOW = 0.999  # a run matched below this share is aligned again in pass 2
_ACCEPT_PASS2 = 0.6  # pass-2 / header matches below this share are not trusted
_CHUNK_KEYS = 3000  # key characters per pass-2 alignment chunk
_WINDOW_PAGES = 3  # pages ahead of the last match a pass-2 chunk may land on
_GAP_FILL_MAX_KEYS = 8  # runs up to this many key characters are looked up exactly (pass 3)
_GAP_FILL_SPAN = 400  # ... within at most this many PDF characters between their neighbours
_GAP_FILL_EDGE = 60  # ... or this many next to their only matched neighbour
_PHASH_MAX = 10  # Hamming distance of 64-bit phashes that still counts as the same picture
_PHASH_RESAMPLED_MAX = 20  # ... for a turned picture drawn at its stated size (resampled)
_CONTAINERS = {
    "paragraph",
    "table",
    "row",
    "cell",
    "textbox",
    "header",
    "footer",
    "footnote",
    "group",
}


_Idx = npt.NDArray[np.int64]  # indices into layout.chars
_EMPTY: _Idx = np.zeros(0, dtype=np.int64)
_EMPTY.flags.writeable = False  # shared by every empty match: never written in place


@dataclass
class _RunMatch:
    """Where one run landed. ``pdf_chars``: sorted, unique indices into ``layout.chars``
    (replaced, never modified in place); ``pages``: the pages its drawn characters are on
    (sorted per match; a header run matched page by page lists each match's pages in
    turn). Boxes are made from ``pdf_chars`` at the end (:func:`_fragments_many`)."""

    pages: list[int] = field(default_factory=list)
    key_chars: int = 0
    matched: int = 0
    pdf_chars: _Idx = field(default_factory=lambda: _EMPTY)

    @property
    def ratio(self) -> float:
        return self.matched / self.key_chars if self.key_chars else 0.0


def _key_len(text: str) -> int:
    return len(key_text(text))


def attach_layout(doc: Document, path: Path, *, timeout: float = 120, deletions: bool = True) -> None:
    """Render ``path`` and give ``doc``'s nodes their layout boxes (in place).
    ``deletions``: the file's view shows tracked deletions (:func:`deletions_drawn`)."""
    rendered = render_pdf(path, timeout=timeout)
    layout = read_layout(rendered.pdf_path, rules=True)  # bordered tables are boxed by rules
    doc.tools.append(ToolInfo(name=rendered.renderer_name, version=rendered.renderer_version))
    doc.pages = [
        Page(index=p.index, kind="page", width=p.width, height=p.height) for p in layout.pages
    ]
    # Boxes come from text alignment only; the renderer exports an untagged PDF by default
    # (nothing reads the structure tree), so there is nothing to warn about.
    _Layouter(doc, layout, deletions=deletions).run()
    doc.selection.invalidate()  # the selector mirror caches pages per node: rebuild it lazily


class _Layouter:
    def __init__(self, doc: Document, layout: PdfLayout, *, deletions: bool = True) -> None:
        self.doc = doc
        self.layout = layout
        self.deletions = deletions  # LibreOffice draws the tracked deletions (struck through)
        # Everything below works on the layout's numpy columns (no PdfChar tuples): a
        # 430-page document has 680k characters, and a Python step per character per
        # pass was most of the extraction time (design/docx-tree.md).
        self.cols: CharColumns = layout.columns
        self.n_chars = len(self.cols.page)
        self.claimed = np.zeros(self.n_chars, dtype=np.bool_)  # characters some run took
        self.runs: dict[str, _RunMatch] = {}
        self.body_runs: list[Node] = []
        self.note_runs: list[Node] = []
        self.hf_nodes: list[Node] = []
        self.textboxes: list[Node] = []
        self.page_chars: dict[int, range] = {}
        self.rules_by_page: dict[int, PageRules] | None = None
        # (body block, _runs(block)): the runs of each top-level body block, text boxes'
        # too, for _page_sections (found by the same walk as body_runs and textboxes)
        self.top_runs: list[tuple[Node, list[Node]]] = []
        page = self.cols.page
        if self.n_chars:  # chars come page by page
            starts = np.flatnonzero(np.concatenate(([True], page[1:] != page[:-1])))
            ends = np.append(starts[1:], self.n_chars)
            for start, end in zip(starts.tolist(), ends.tolist(), strict=True):
                self.page_chars[int(page[start])] = range(start, end)
        for top in doc.root.children:
            if top.kind in ("header", "footer"):
                if top.attrs.get("rendered") is not False:
                    self.hf_nodes.append(top)
            elif top.kind == "footnote":
                if top.attrs.get("rendered") is not False:
                    self.note_runs.extend(_runs(top, deletions=self.deletions))
            elif top.kind != "comment":
                outside, every, boxes = _body_content(top, deletions=self.deletions)
                if top.kind != "textbox":  # a text box is a sibling of its anchor paragraph
                    self.body_runs.extend(outside)
                self.textboxes.extend(boxes)
                self.top_runs.append((top, every))

    # -- text ----------------------------------------------------------------------------
    def run(self) -> None:
        self._align(self.body_runs, self.layout, accept=0.0, index_map=None, labels=True)
        self.page_section = self._page_sections()
        self.page_numbers = self._page_numbers()
        # Headers/footers need the page -> section map the body pass gives; once their
        # characters are claimed, body runs they disturbed (text next to a page turn)
        # are aligned again without them.
        self._headers_footers()
        self._write_page_numbers()
        self._retry_unmatched(self.body_runs)
        self._fill_gaps(self.body_runs)
        self._repeated_header_rows()
        self._textboxes()
        self._align_subset(self.note_runs, pages=None)
        self._fill_gaps(self.note_runs)
        for tb in self.textboxes:
            self._fill_gaps(_runs(tb, skip_textboxes=True, deletions=self.deletions))
        self._images()
        self._assign()

    def _align(
        self, runs: list[Node], layout: PdfLayout, *, accept: float, index_map: _Idx | None, labels: bool = False
    ) -> None:
        """Align ``runs`` to ``layout`` and record each run's characters. ``labels`` (the
        first, global pass): each labelled paragraph's list label takes part too, before
        its first run, and claims the characters it matches; it is printed text no run
        owns, and left out a run "1" in an item labelled "1." was matched to the label."""
        if not runs:
            return
        owners: list[Node | None] = list(runs)
        texts = [_drawn(r) for r in runs]
        if labels:
            owners, texts = _with_labels(runs, texts)
        result = align_text_to_layout(
            [TextSpan(r.id if r is not None else f"{_LABEL_ID}{k}", t) for k, (r, t) in enumerate(zip(owners, texts))],
            layout,
            boxes=False,
        )
        spans = result.spans
        accepted = [k for k, span in enumerate(spans) if not (span.ratio < accept or not span.pdf_chars)]
        # Without an index map the characters are the span's own, and their arrays and
        # pages can be made for every accepted span at once (~12k spans in the body pass).
        bulk = self._chars_and_pages([spans[k].pdf_chars for k in accepted]) if index_map is None else None
        # No run matched before (the first pass) and no id twice: every claim below only
        # sets characters, in any order the same, so they are set at once after the loop.
        fresh = (
            bulk is not None
            and not any(r.id in self.runs for r in runs)
            and len({r.id for r in runs}) == len(runs)
        )
        at = 0
        for k, (r, span) in enumerate(zip(owners, spans)):
            if at < len(accepted) and accepted[at] == k:
                at += 1
            else:
                if r is None:  # a label that matched nothing claims nothing
                    continue
                kept = self.runs.setdefault(r.id, _RunMatch(key_chars=span.key_chars))
                if not fresh:  # fresh: a new match, no characters
                    self.claimed[kept.pdf_chars] = True
                continue
            if bulk is not None:
                chars, pages = bulk[1][at - 1], bulk[2][at - 1]
            else:
                got = np.asarray(span.pdf_chars, dtype=np.int64)
                chars = sorted_unique(index_map[got]) if index_map is not None else got
                pages = None
            if r is None:  # a list label: its characters are claimed, no run has them
                if not fresh:
                    self.claimed[chars] = True
                continue
            prev = self.runs.get(r.id)
            if prev is not None and prev.matched >= span.matched_chars:
                self.claimed[prev.pdf_chars] = True  # keep the earlier, better match
                continue
            if prev is not None:
                self.claimed[prev.pdf_chars] = False
            self.runs[r.id] = _RunMatch(
                pages=pages if pages is not None else self._pages(chars),
                key_chars=span.key_chars,
                matched=min(span.matched_chars, span.key_chars),
                pdf_chars=chars,
            )
            if not fresh:
                self.claimed[chars] = True
        if fresh and bulk is not None:
            self.claimed[bulk[0]] = True  # every accepted run's characters

    def _chars_and_pages(
        self, groups: list[list[int]]
    ) -> tuple[_Idx, list[_Idx], list[list[int] | None]] | None:
        """For each group of character indices (sorted, unique), its array and
        ``self._pages`` of it, made for all groups at once (and first, all the groups'
        characters as one array): the arrays are slices of that one, the pages read where
        a group's page changes. None (ask ``_pages`` one by
        one) when some group's drawn characters do not come in page order, where
        ``_pages`` takes sorted_unique (not met in a rendered PDF, whose characters come
        page by page)."""
        sizes = np.fromiter(map(len, groups), dtype=np.int64, count=len(groups))
        flat = np.fromiter(itertools.chain.from_iterable(groups), dtype=np.int64, count=int(sizes.sum()))
        bounds = np.zeros(len(groups) + 1, dtype=np.int64)
        np.cumsum(sizes, out=bounds[1:])
        edges = bounds.tolist()
        arrays = [flat[a:b] for a, b in itertools.pairwise(edges)]
        owner = np.repeat(np.arange(len(groups), dtype=np.int64), sizes)
        drawn = ~self.cols.generated[flat]
        owner, page = owner[drawn], self.cols.page[flat[drawn]]
        same_owner = owner[1:] == owner[:-1]
        if (same_owner & (page[1:] < page[:-1])).any():
            return None
        new_page = np.ones(page.size, dtype=np.bool_)
        new_page[1:] = ~same_owner | (page[1:] != page[:-1])
        page_owner, pages_flat = owner[new_page], page[new_page].tolist()
        cuts = np.searchsorted(page_owner, np.arange(len(groups) + 1, dtype=np.int64)).tolist()
        pages: list[list[int] | None] = [pages_flat[a:b] for a, b in itertools.pairwise(cuts)]
        return flat, arrays, pages

    def _pages(self, chars: _Idx) -> list[int]:
        """The pages (sorted) of the drawn characters among ``chars`` (sorted indices)."""
        pages = self.cols.page[chars[~self.cols.generated[chars]]]
        if pages.size and pages[0] == pages[-1]:  # pages come in index order: one page
            return [int(pages[0])]
        return sorted_unique(pages).tolist()  # type: ignore[no-any-return]

    def _unclaimed(self, pages: set[int] | None, *, only: _Idx | None = None) -> _Idx:
        """Indices (ascending) of the unclaimed characters on ``pages`` (or all), among
        ``only`` (sorted indices) when given."""
        if pages is None:
            idx = np.flatnonzero(~self.claimed)
        else:
            ranges = [self.page_chars.get(p, range(0)) for p in sorted(pages)]
            idx = np.concatenate([np.arange(r.start, r.stop, dtype=np.int64) for r in ranges] or [_EMPTY])
            idx = idx[~self.claimed[idx]]
        if only is not None:
            idx = idx[np.isin(idx, only, assume_unique=True)]
        return idx.astype(np.int64, copy=False)

    def _sublayout(
        self, pages: set[int] | None, *, only: _Idx | None = None
    ) -> tuple[PdfLayout, _Idx]:
        """The unclaimed characters (on ``pages``, or all; among ``only`` when given) as
        a layout of their own, and their indices."""
        idx = self._unclaimed(pages, only=only)
        return self.layout.subset(idx), idx

    def _align_subset(self, runs: list[Node], pages: set[int] | None) -> None:
        todo = [r for r in runs if _key_len(_drawn(r)) > 0]
        if not todo:
            return
        sub, idx = self._sublayout(pages)
        if not idx.size:
            for r in todo:
                self.runs.setdefault(r.id, _RunMatch(key_chars=_key_len(_drawn(r))))
            return
        self._align(todo, sub, accept=_ACCEPT_PASS2 if pages is not None else 0.3, index_map=idx)

    def _retry_unmatched(self, runs: list[Node]) -> None:
        """Pass 2: stretches of consecutive poorly-matched body runs, aligned again
        against the unclaimed characters, streaming forward from the page where the
        last matched text before them landed, a few pages at a time. Local windows
        are what rescue repeated content (a handbook that prints the same chapter
        twice has no unique anchors for the global pass)."""
        n = len(runs)
        last_page = len(self.layout.pages) - 1
        i = 0
        while i < n:
            m = self.runs.get(runs[i].id)
            if m is None or m.ratio >= _RETRY_BELOW or _key_len(_drawn(runs[i])) < 3:
                i += 1
                continue
            j = i
            while j < n and (
                self.runs.get(runs[j].id) is None or self.runs[runs[j].id].ratio < _RETRY_BELOW
            ):
                j += 1
            before = next(
                (
                    self.runs[runs[k].id]
                    for k in range(i - 1, -1, -1)
                    if self.runs[runs[k].id].pages
                ),
                None,
            )
            cur = before.pages[-1] if before else 0
            group = runs[i:j]
            for r in group:  # give back partial claims so the group can take them again
                prev = self.runs.get(r.id)
                if prev is not None:
                    self.claimed[prev.pdf_chars] = False
            for chunk in _chunks(group, _CHUNK_KEYS):
                self._align_subset(chunk, set(range(cur, min(cur + _WINDOW_PAGES, last_page) + 1)))
                pages = [pg for r in chunk for pg in self.runs.get(r.id, _RunMatch()).pages]
                if pages:
                    cur = max(cur, min(max(pages), cur + _WINDOW_PAGES))
            i = j

    def _fill_gaps(self, runs: list[Node]) -> None:
        """Pass 3: short runs ("Is", "42", a footnote number) that the fuzzy passes
        drop as coincidences are looked up exactly in the unclaimed characters between
        the PDF positions of their matched neighbours, when that stretch is short."""
        matched = [self.runs.get(r.id) for r in runs]
        n = len(runs)
        for i, r in enumerate(runs):
            m = matched[i]
            if m is not None and m.ratio >= 0.999:
                continue
            key = key_text(_drawn(r))
            if not key or len(key) > _GAP_FILL_MAX_KEYS:
                continue
            lo = next(
                (
                    int(x.pdf_chars[-1]) + 1
                    for k in range(i - 1, -1, -1)
                    if (x := matched[k]) is not None and x.pdf_chars.size
                ),
                None,
            )
            hi = next(
                (
                    int(x.pdf_chars[0])
                    for k in range(i + 1, n)
                    if (x := matched[k]) is not None and x.pdf_chars.size
                ),
                None,
            )
            # With one neighbour only, look just next to it (a note's number sits right
            # before the note's text): the nearest occurrence on that side wins.
            from_end = lo is None
            if lo is None and hi is None:
                continue
            if lo is None:
                lo = max(0, hi - _GAP_FILL_EDGE)  # type: ignore[operator]
            if hi is None:
                hi = min(self.n_chars, lo + _GAP_FILL_EDGE)
            if not 0 < hi - lo <= _GAP_FILL_SPAN:
                continue
            window = np.arange(lo, hi, dtype=np.int64)
            free = ~self.claimed[window]
            if m is not None and m.pdf_chars.size:
                # its own partial match is free to it: "Heading2" matched as "ding2" (the
                # global pass took "Hea" from the page's header) is found whole
                free |= np.isin(window, m.pdf_chars, assume_unique=True)
            keys, origin = layout_keys(self.layout, window[free])
            at = keys.rfind(key) if from_end else keys.find(key)
            if at < 0:
                continue
            chars = sorted_unique(origin[at : at + len(key)])
            if m is not None:
                self.claimed[m.pdf_chars] = False
            self.runs[r.id] = matched[i] = _RunMatch(
                pages=self._pages(chars),
                key_chars=len(key),
                matched=len(key),
                pdf_chars=chars,
            )
            self.claimed[chars] = True

    def _textboxes(self) -> None:
        """Text boxes float: LibreOffice draws them apart from the flowing text, not
        always in anchor order. Each is first looked up exactly (its whole text is
        usually one contiguous stretch) near its anchor; the rest are aligned together
        against what the body left unclaimed, and a box that still matches poorly is
        aligned alone against the pages around its anchor paragraph."""
        last = len(self.layout.pages) - 1
        per_box = []
        for tb in self.textboxes:
            runs = _runs(tb, skip_textboxes=True, deletions=self.deletions)  # nested boxes take their own turn
            if not runs:
                continue
            pages = self._anchor_pages(str(tb.attrs.get("anchor_paragraph") or ""))
            window = (
                set(range(max(0, min(pages) - 1), min(last, max(pages) + 1) + 1)) if pages else None
            )
            if not self._claim_exact(runs, window):
                per_box.append((runs, window))
        self._align_subset([r for runs, _ in per_box for r in runs], None)
        for runs, window in per_box:
            keys = sum(self.runs.get(r.id, _RunMatch()).key_chars for r in runs)
            got = sum(self.runs.get(r.id, _RunMatch()).matched for r in runs)
            if keys and got / keys >= _RETRY_BELOW:
                continue
            for r in runs:
                prev = self.runs.get(r.id)
                if prev is not None:
                    self.claimed[prev.pdf_chars] = False
            self._align_subset(runs, window)

    def _claim_exact(self, runs: list[Node], pages: set[int] | None) -> bool:
        """Find the runs' concatenated key text verbatim among the unclaimed characters
        (on ``pages``, or all) and claim it run by run. False when it is not there."""
        keys = [key_text(_drawn(r)) for r in runs]
        whole = "".join(keys)
        if len(whole) < 4:
            return False
        stream, origin = layout_keys(self.layout, self._unclaimed(pages))
        at = stream.find(whole)
        if at < 0:
            return False
        for r, k in zip(runs, keys):
            chars = sorted_unique(origin[at : at + len(k)])
            at += len(k)
            if not k:
                continue
            self.runs[r.id] = _RunMatch(
                pages=self._pages(chars),
                key_chars=len(k),
                matched=len(k),
                pdf_chars=chars,
            )
            self.claimed[chars] = True
        return True

    def _anchor_pages(self, anchor_id: str) -> list[int]:
        try:
            anchor = self.doc.get(anchor_id)
        except KeyError:
            return []
        pages = [
            pg
            for r in _runs(anchor, skip_textboxes=True, deletions=self.deletions)
            for pg in self.runs.get(r.id, _RunMatch()).pages
        ]
        if pages:
            return pages
        best: list[int] = []
        for r in self.body_runs:  # an empty anchor paragraph: the last matched text before it
            if r.order > anchor.order:
                break
            m = self.runs.get(r.id)
            if m is not None and m.pages:
                best = [m.pages[-1]]
        return best

    def _page_numbers(self) -> list[str]:
        """The number each page prints for a PAGE field: counting on from the previous page,
        restarting at a section's ``page_number_start`` on the first page it is shown on,
        in its ``page_number_format`` (decimal when it states none; a format we cannot
        spell prints decimal too). As LibreOffice 7.4 renders it (design/docx-tree.md)."""
        shown: list[str] = []
        number = 0
        for page, sec in enumerate(self.page_section):
            attrs = self._section_on(page) or {}
            start = attrs.get("page_number_start")
            first = page == 0 or self.page_section[page - 1] != sec
            number = start if first and isinstance(start, int) else number + 1
            shown.append(_page_label(number, str(attrs.get("page_number_format") or "decimal")))
        return shown

    def _page_sections(self) -> list[int]:
        """Section shown on each page: the section of the first body block drawn there."""
        n = len(self.layout.pages)
        first: dict[int, int] = {}
        for top, top_runs in self.top_runs:  # every top-level block but headers, footers, notes, comments
            sec = top.attrs.get("section")
            if not isinstance(sec, int):
                continue
            for r in top_runs:
                m = self.runs.get(r.id)
                if m is not None:
                    for pg in m.pages:
                        first.setdefault(pg, sec)
        out: list[int] = []
        current = 0
        for p in range(n):
            current = first.get(p, current)
            out.append(current)
        return out

    def _headers_footers(self) -> None:
        if not self.hf_nodes:
            return
        even_odd = bool(self.doc.root.attrs.get("even_and_odd_headers"))
        by_key: dict[tuple[int, str, str], Node] = {}
        for hf in self.hf_nodes:
            served = hf.attrs.get("sections")
            for sec in served if isinstance(served, list) else [hf.attrs["section"]]:
                by_key[(int(sec), hf.kind, str(hf.attrs["type"]))] = hf  # type: ignore[arg-type]
        self.hf_pages: dict[str, set[int]] = {}
        self._body_bounds()
        text_runs: dict[str, list[Node]] = {}  # per header/footer, its runs with key text
        for page, sec in enumerate(self.page_section):
            first_of_section = page == 0 or self.page_section[page - 1] != sec
            sec_attrs = self._section_on(page) or {}
            title_page = bool(sec_attrs.get("title_page"))
            # a continuous section has no first page of its own (the page began earlier)
            if sec_attrs.get("start") == "continuous" and page > 0:
                first_of_section = False
            shown: dict[str, list[Node]] = {}
            for kind in ("header", "footer"):
                htype = "default"
                if first_of_section and title_page:
                    htype = "first"
                elif even_odd and page % 2 == 1:
                    htype = "even"  # no even header part: Word shows none on even pages
                node = by_key.get((sec, kind, htype))
                if node is None:
                    continue
                self.hf_pages.setdefault(node.id, set()).add(page)
                if node.id not in text_runs:
                    text_runs[node.id] = [
                        r for r in _runs(node, deletions=self.deletions) if _key_len(_drawn(r)) > 0 or r.attrs.get("field") in PAGE_NUMBER_FIELDS
                    ]
                shown[kind] = text_runs[node.id]
            if not any(shown.values()):
                continue
            top_zone, bottom_zone = self._margin_chars(page, sec_attrs)
            zones = np.union1d(top_zone, bottom_zone)
            released = zones[self.claimed[zones]]
            self.claimed[released] = False
            taken: list[_Idx] = []
            # Each against its own margin first (a header word is not taken by the same
            # word in the body or the footer), then what is left against the whole page
            # (a header taller than the top margin pushes the body down).
            left: list[Node] = []
            for kind, zone in (("header", top_zone), ("footer", bottom_zone)):
                left += self._align_page_runs(shown.get(kind, []), page, zone, taken)
            self._align_page_runs(left, page, None, taken)
            self._settle_released(released, taken)
        for hf in self.hf_nodes:
            if hf.id in self.hf_pages:
                continue
            # Not shown on any page: its runs are not expected in the PDF at all.
            hf.attrs["rendered"] = False
            hf.attrs["not_rendered_reason"] = (
                f"no rendered page shows section {hf.attrs['section']}'s {hf.attrs['type']} {hf.kind}"
            )
            for r in _runs(hf, deletions=self.deletions):
                self.runs.pop(r.id, None)
                r.attrs["rendered"] = False
                r.attrs["not_rendered_reason"] = hf.attrs["not_rendered_reason"]

    def _margin_chars(self, page: int, section: dict[str, Any]) -> tuple[_Idx, _Idx]:
        """The page's characters in its top and in its bottom margin (by their middle),
        where Word and LibreOffice draw the header and the footer. The body pass may
        have claimed some of them: it matches a body word to the first place the word
        occurs, which can be the same word in the header ("Alpha header" above "Alpha
        body"); the caller releases them so the header keeps its words and its box."""
        top, bottom = self._margin_lines(page, section)
        rng = self.page_chars.get(page, range(0))
        idx = np.arange(rng.start, rng.stop, dtype=np.int64)
        middle = (self.cols.top[idx] + self.cols.bottom[idx]) / 2
        above = middle < top
        return idx[above], idx[~above & (middle > bottom)]

    def _margin_lines(self, page: int, section: dict[str, Any]) -> tuple[float, float]:
        """(y where the top margin ends, y where the bottom margin starts) on ``page``,
        from its section's margins (1 inch when the section states none)."""
        raw = section.get("margins")
        margins: dict[str, Any] = raw if isinstance(raw, dict) else {}
        return float(margins.get("top", 72.0)), self.layout.pages[page].height - float(margins.get("bottom", 72.0))

    def _repeated_header_rows(self) -> None:
        """Give a table's repeated header rows (``w:tblHeader``: "repeat as header row")
        their boxes on every later page the table continues on: the render draws them at
        the top of each, and a reader sees the column titles (and a logo in them) there.
        The row's runs are aligned again on each such page, against the unclaimed text
        above the first of the table's own rows drawn there; ``header_row_pages`` keeps
        the pages for the row's pictures."""
        self.header_row_pages: dict[str, list[int]] = {}
        cols = self.cols
        for table in self.doc.root.children:
            if table.kind != "table":
                continue
            rows = [r for r in table.children if r.kind == "row"]
            lead = 0
            while lead < len(rows) and rows[lead].attrs.get("header"):
                lead += 1
            if lead == 0 or lead == len(rows):
                continue
            head_runs = [r for row in rows[:lead] for r in _runs(row, deletions=self.deletions)]
            head_pages = {pg for r in head_runs for pg in self.runs.get(r.id, _RunMatch()).pages}
            if not head_pages:
                continue
            first_top: dict[int, float] = {}  # per page, the top of the table's own first row there
            for row in rows[lead:]:
                for r in _runs(row, deletions=self.deletions):
                    m = self.runs.get(r.id)
                    if m is None or not len(m.pdf_chars):
                        continue
                    for pg in np.unique(cols.page[m.pdf_chars]).tolist():
                        on = m.pdf_chars[cols.page[m.pdf_chars] == pg]
                        first_top[pg] = min(first_top.get(pg, math.inf), float(cols.top[on].min()))
            for page in sorted(pg for pg in first_top if pg > min(head_pages)):
                # characters are in page order: the page's are one slice
                lo, hi = np.searchsorted(cols.page, [page, page + 1])
                on_page = np.arange(lo, hi, dtype=np.int64)
                zone = on_page[cols.top[on_page] < first_top[page] - 0.5]
                if not zone.size:
                    continue
                self._align_page_runs(head_runs, page, zone.astype(np.int64), [])
                for row in rows[:lead]:
                    self.header_row_pages.setdefault(row.id, []).append(page)

    def _align_page_runs(
        self, runs: list[Node], page: int, only: _Idx | None, taken: list[_Idx]
    ) -> list[Node]:
        """Align header/footer ``runs`` to the unclaimed characters of ``page`` (among
        ``only``); page numbers are matched as the number the page prints. Adds what
        they claim to ``taken``; returns the runs that did not match."""
        if not runs:
            return []
        sub, idx = self._sublayout({page}, only=only)
        if not idx.size:
            return list(runs)
        result = align_text_to_layout(
            [TextSpan(r.id, self._field_text(r, page)) for r in runs], sub, boxes=False
        )
        missed: list[Node] = []
        for r, span in zip(runs, result.spans):
            m = self.runs.setdefault(r.id, _RunMatch(key_chars=span.key_chars))
            if not span.pdf_chars or (span.ratio < _ACCEPT_PASS2 and r.attrs.get("field") is None):
                missed.append(r)
                continue
            chars = sorted_unique(idx[np.asarray(span.pdf_chars, dtype=np.int64)])
            m.pages.extend(self._pages(chars))
            m.matched = max(m.matched, min(span.matched_chars, span.key_chars))
            if not m.pdf_chars.size or chars[0] > m.pdf_chars[-1]:
                # the common case, page after page: appending keeps it sorted (union1d
                # re-sorted the growing array of a header matched on 430 pages each time)
                m.pdf_chars = np.concatenate((m.pdf_chars, chars))
            else:
                m.pdf_chars = np.union1d(m.pdf_chars, chars)
            self.claimed[chars] = True
            taken.append(chars)
        return missed

    def _body_bounds(self) -> None:
        """First and last character index of every body run's match (n, -1 when none):
        :meth:`_settle_released` only removes characters from body runs, so these stay
        bounds and pick the few runs a page's header can have taken characters from."""
        first = np.full(len(self.body_runs), self.n_chars, dtype=np.int64)
        last = np.full(len(self.body_runs), -1, dtype=np.int64)
        for k, run in enumerate(self.body_runs):
            m = self.runs.get(run.id)
            if m is not None and m.pdf_chars.size:
                first[k] = m.pdf_chars[0]
                last[k] = m.pdf_chars[-1]
        self.body_first, self.body_last = first, last

    def _settle_released(self, released: _Idx, taken: list[_Idx]) -> None:
        """After a page's header/footer took ``taken``: released characters nobody took
        go back to their body runs; body runs lose the ones the header took (they are
        aligned again in pass 2, since their match ratio dropped)."""
        took = sorted_unique(np.concatenate(taken)) if taken else _EMPTY
        lost = np.intersect1d(released, took, assume_unique=True)
        self.claimed[np.setdiff1d(released, took, assume_unique=True)] = True
        if not lost.size:
            return
        # Only the body pass has claimed characters so far; of its runs, only those whose
        # match spans a lost character can have lost one.
        near = np.flatnonzero((self.body_first <= lost[-1]) & (self.body_last >= lost[0]))
        for k in near.tolist():
            m = self.runs.get(self.body_runs[k].id)
            if m is None:
                continue
            gone = np.intersect1d(m.pdf_chars, lost, assume_unique=True)
            if not gone.size:
                continue
            m.pdf_chars = np.setdiff1d(m.pdf_chars, gone, assume_unique=True)
            m.matched = max(0, m.matched - len(gone))
            m.pages = self._pages(m.pdf_chars)

    def _write_page_numbers(self) -> None:
        """A PAGE / NUMPAGES run shows what the first page it is printed on prints
        ("Page 1 of 3"), not the file's stale result ("Page 1 of 1") nor nothing (a field
        python-docx wrote without a result: "Page  of "). In a header or footer the run's
        own match says which page; in the body (a python-docx field in running text) an
        empty run has no characters to match, so its paragraph's other runs say it (the
        new text is then located by the gap filling that follows)."""
        for hf in self.hf_nodes:
            for run in _runs(hf, deletions=self.deletions):
                if run.attrs.get("field") in PAGE_NUMBER_FIELDS:
                    self._show_page_number(run, self._printed_page(run, neighbours=False))
        for run in self.body_runs:
            if run.attrs.get("field") in PAGE_NUMBER_FIELDS:
                self._show_page_number(run, self._printed_page(run, neighbours=True))

    def _printed_page(self, run: Node, *, neighbours: bool) -> int | None:
        """The first page ``run`` is drawn on: its own match, else (``neighbours``) the
        nearest run of its paragraph that was matched, before it or else after it."""
        match = self.runs.get(run.id)
        if match is not None and match.pages:
            return match.pages[0]
        para = run.parent
        if not neighbours or para is None:
            return None
        siblings = [r for r in para.descendants("run") if r is not run]
        at = next((i for i, r in enumerate(para.descendants("run")) if r is run), 0)
        ordered = list(reversed(siblings[:at])) + siblings[at:]
        for other in ordered:
            found = self.runs.get(other.id)
            if found is not None and found.pages:
                return found.pages[0]
        return None

    def _show_page_number(self, run: Node, page: int | None) -> None:
        if page is None:
            return
        shown = self._field_text(run, page)
        if shown != run.text:
            run.attrs["field_result_stored"] = run.text
            set_leaf_text(run, shown)

    def _field_text(self, run: Node, page: int) -> str:
        """What a page-number field shows on ``page``: the file stores one stale result
        ("1") for a field that prints 1, 2, 3... (or i, ii, then 1 where a section
        restarts: :meth:`_page_numbers`)."""
        field_kind = run.attrs.get("field")
        if field_kind == "PAGE":
            return self.page_numbers[page] if 0 <= page < len(self.page_numbers) else str(page + 1)
        if field_kind == "NUMPAGES":
            return str(len(self.layout.pages))
        return run.text

    # -- pictures ------------------------------------------------------------------------
    def _images(self) -> None:
        used: set[int] = set()
        self.image_boxes: dict[str, list[Box]] = {}
        self.image_reason: dict[str, str] = {}
        self.image_cut: dict[str, dict[str, float]] = {}  # edges of a body picture its clip hides
        self.blob_colour: dict[str, tuple[int, int, int] | None] = {}  # average colour per blob sha256
        pixel_sha: dict[str, str | None] = {}
        self._last_image_page = 0
        # Header and footer pictures claim, on each page their header shows on, a copy
        # drawn in their own margin first, so the same logo in the body keeps its own
        # place (the body picture took the first copy pdfium listed: the header's); body
        # pictures next; then header pictures drawn outside the margin (a watermark, a
        # logo taller than the margin) take what is left.
        nodes = list(self._image_nodes())
        in_headers = [(n, o) for n, o in nodes if o is not None]
        for node, hf in in_headers:
            self._header_image(node, hf, used, pixel_sha, in_margin=True)
        for node, owner in nodes:
            if owner is None:
                self._body_image(node, used, pixel_sha)
                self._repeated_image(node, used, pixel_sha)
        for node, hf in in_headers:
            self._header_image(node, hf, used, pixel_sha, in_margin=False)

    def _picture_hashes(
        self, node: Node, pixel_sha: dict[str, str | None]
    ) -> tuple[str | None, str, tuple[int, int, int] | None] | None:
        """(pixel sha256, phash, average colour) of a picture's data, or None (its reason
        recorded). The colour is None for a turned picture (its file is not decoded)."""
        blob = self._file_blob(node)
        if blob is None:
            self.image_reason[node.id] = "no image data (linked or missing picture)"
            return None
        if blob.phash is None:
            self.image_reason[node.id] = "vector picture (EMF/WMF) is drawn as paths, not located"
            return None
        turn = node.attrs.get("rotation") or 0
        flips = (bool(node.attrs.get("flip_h")), bool(node.attrs.get("flip_v")))
        if (turn or any(flips)) and isinstance(turn, (int, float)):
            # LibreOffice embeds a turned (or mirrored) picture as the turned bitmap: its
            # pixels, not the file's, are what the PDF holds
            key = f"{blob.sha256}/{turn}/{flips}"
            if key not in pixel_sha:
                pixel_sha[key], pixel_sha[key + "/phash"] = _turned_hashes(blob.data, float(turn), flips)
            return pixel_sha[key], pixel_sha[key + "/phash"] or blob.phash, None
        if blob.sha256 not in pixel_sha:
            pixel_sha[blob.sha256], self.blob_colour[blob.sha256] = _pixel_facts(blob.data)
            pixel_sha[blob.sha256 + "/phash"] = phash_as_stored(blob)
        # the PDF's images are hashed as stored: a transparent picture is matched so too
        return pixel_sha[blob.sha256], pixel_sha[blob.sha256 + "/phash"] or blob.phash, self.blob_colour[blob.sha256]

    def _file_blob(self, node: Node) -> Blob | None:
        """The picture the file stores, which LibreOffice embeds (and clips to a crop): a
        cropped picture's ``original_blob``, else its ``blob``; None when it has neither."""
        blob_id = node.attrs.get("original_blob") or node.attrs.get("blob")
        return self.doc.blobs.get(str(blob_id)) if blob_id else None

    def _tilted_on_white(self, node: Node, pixel_sha: dict[str, str | None]) -> str | None:
        """The phash of a picture turned by other than a right angle with white corners
        (see :func:`_turned_hashes`); None for other pictures."""
        turn = node.attrs.get("rotation") or 0
        blob = self._file_blob(node)
        if not isinstance(turn, (int, float)) or not turn % 90 or blob is None:
            return None
        flips = (bool(node.attrs.get("flip_h")), bool(node.attrs.get("flip_v")))
        key = f"{blob.sha256}/{turn}/{flips}/white"
        if key not in pixel_sha:
            pixel_sha[key] = _turned_hashes(blob.data, float(turn), flips, corners=(255, 255, 255))[1]
        return pixel_sha[key]

    def _body_image(self, node: Node, used: set[int], pixel_sha: dict[str, str | None]) -> None:
        hashes = self._picture_hashes(node, pixel_sha)
        if hashes is None:
            return
        pdf_images = self.layout.images
        cands = self._image_candidates(*hashes, used) or self._resampled_candidates(node, hashes[1], hashes[2], used)
        if not cands and (on_white := self._tilted_on_white(node, pixel_sha)) is not None:
            cands = self._image_candidates(None, on_white, None, used)
        if not cands:
            self.image_reason[node.id] = _missing_picture_reason(node)
            return
        expected = self._expected_page(node, self._last_image_page)
        crop = _crop_fractions(node)
        stated_x = self._stated_x(node, expected)
        drawn = _drawn_size(node)
        # the text around an inline picture breaks ties only (it costs a walk of the runs)
        in_row = any(a.kind == "row" for a in node.ancestors())
        inline = (node.attrs.get("placement") != "floating" or in_row) and len(cands) > 1

        def mismatch(i: int) -> tuple[float, float, float]:
            # One file drawn twice (a logo and its watermark, a logo in both corners),
            # or plain pictures LibreOffice downsampled (one perceptual hash for every
            # solid colour), give placements alike: the one of the picture's stated
            # size, then of its stated place, then (inline) on its own text's lines is
            # this picture's. LibreOffice draws floating pictures in its own order,
            # not the document's, so the PDF's order cannot decide.
            box = _image_box(pdf_images[i], crop)
            size = 0.0
            if drawn is not None:
                size = round((abs(box.width - drawn[0]) + abs(box.height - drawn[1])) / _SIZE_SLACK_PT)
            place = round(abs(box.x0 - stated_x) / _SIZE_SLACK_PT) if stated_x is not None else 0.0
            outside = round(self._off_text(node, box) / _SIZE_SLACK_PT) if inline else 0.0
            return size, place, outside

        _, best = min(
            cands,
            key=lambda c: (abs(pdf_images[c[1]].page - expected), *mismatch(c[1]), c[0], c[1]),
        )
        used.add(best)
        self.image_boxes[node.id] = [_turned_outline(node, _image_box(pdf_images[best], crop, clipped=True))]
        if cut := _cut_edges(pdf_images[best], crop):
            self.image_cut[node.id] = cut
        self._last_image_page = pdf_images[best].page

    def _repeated_image(self, node: Node, used: set[int], pixel_sha: dict[str, str | None]) -> None:
        """A picture in a repeated table header row: its copy drawn on each later page the
        row repeats on (the one nearest the top of the page)."""
        row = next((a for a in node.ancestors() if a.kind == "row"), None)
        pages = self.header_row_pages.get(row.id) if row is not None else None
        if not pages or node.id not in self.image_boxes:
            return
        hashes = self._picture_hashes(node, pixel_sha)
        if hashes is None:
            return
        pdf_images = self.layout.images
        cands = self._image_candidates(*hashes, used)
        crop = _crop_fractions(node)
        for page in pages:
            on_page = [(pdf_images[i].top, i) for _, i in cands if pdf_images[i].page == page and i not in used]
            if not on_page:
                continue
            pick = min(on_page)[1]
            used.add(pick)
            self.image_boxes[node.id].append(_image_box(pdf_images[pick], crop, clipped=True))

    def _stated_x(self, node: Node, page: int) -> float | None:
        return _stated_start(node, self._section_on(page), "h")

    def _stated_y(self, node: Node, page: int) -> float | None:
        return _stated_start(node, self._section_on(page), "v")

    def _section_on(self, page: int) -> dict[str, Any] | None:
        """The section (its ``sections`` attrs entry) page ``page`` shows."""
        sections = self.doc.root.attrs.get("sections")
        if not isinstance(sections, list) or not sections:
            return None
        k = self.page_section[page] if 0 <= page < len(self.page_section) else 0
        section = sections[k] if k < len(sections) else None
        return section if isinstance(section, dict) else None

    def _off_text(self, node: Node, box: Box) -> float:
        """How far (pt) an inline picture's candidate ``box`` is from where its text says
        it is drawn: away from the lines of its paragraph's text (a tall picture rises
        above its line; sharing more of their height is nearer: negative), or, alone in
        its paragraph, out of the space between the text drawn before and after it. 0 when
        no text on the page says."""
        band = self._text_band(node, box.page)
        if band is None:
            return 0.0
        (top, bottom), own = band
        if own:  # apart from the lines, or (negative) how far it shares their height
            apart = max(0.0, top - box.bottom) + max(0.0, box.top - bottom)
            return apart if apart > 0 else -(min(bottom, box.bottom) - max(top, box.top))
        return max(0.0, top - box.top) + max(0.0, box.bottom - bottom)

    def _text_band(self, node: Node, page: int) -> tuple[tuple[float, float], bool] | None:
        """((top, bottom), own) on ``page``: the lines of the picture's paragraph's text
        (own), or the space between the text drawn before and after it; None when no
        text on the page says."""
        cols = self.cols
        row = next((a for a in node.ancestors() if a.kind == "row"), None)
        # in a table, the picture is within its row: the text of the row's other cells says
        # where (the next cell's text is beside it, not below)
        if row is not None:
            runs = list(row.descendants("run"))
        else:
            runs = [c for c in node.parent.children if c.kind == "run"] if node.parent is not None else []
        own = [self.runs[r.id].pdf_chars for r in runs if r.id in self.runs]
        chars = np.concatenate(own) if own else _EMPTY
        chars = chars[cols.page[chars] == page] if len(chars) else chars
        if len(chars):
            return (float(cols.top[chars].min()), float(cols.bottom[chars].max())), True
        if row is not None:
            return None  # a row without text: the text around the table says nothing
        above, below = 0.0, math.inf
        for r in self.body_runs:
            m = self.runs.get(r.id)
            if m is None or not len(m.pdf_chars):
                continue
            on = m.pdf_chars[cols.page[m.pdf_chars] == page]
            if not len(on):
                continue
            if r.order < node.order:
                above = max(above, float(cols.bottom[on].max()))
            else:
                below = min(below, float(cols.top[on].min()))
                break
        return ((above, below), False) if above > 0 or below < math.inf else None

    def _header_image(
        self, node: Node, owner: Node, used: set[int], pixel_sha: dict[str, str | None], *, in_margin: bool
    ) -> None:
        """Box a header/footer picture on every page its header shows on and that has no
        box for it yet; ``in_margin``: only copies drawn in the header's own margin."""
        hashes = self._picture_hashes(node, pixel_sha)
        if hashes is None:
            return
        pdf_images = self.layout.images
        boxes = self.image_boxes.setdefault(node.id, [])
        done = {b.page for b in boxes}
        cands = self._image_candidates(*hashes, used)
        for page in sorted(self.hf_pages.get(owner.id, set()) - done):
            from_margin = self._margin_distance(owner.kind, page)
            on_page = [(from_margin(pdf_images[i]), d, i) for d, i in cands if pdf_images[i].page == page]
            if in_margin:
                on_page = [c for c in on_page if c[0] == 0]
            if not on_page:
                continue
            pick = min(on_page)[2]
            used.add(pick)
            boxes.append(_image_box(pdf_images[pick], _crop_fractions(node), clipped=True))
        boxes.sort(key=lambda b: b.page)

    def _resampled_candidates(
        self, node: Node, phash: str, colour: tuple[int, int, int] | None, used: set[int]
    ) -> list[tuple[int, int]]:
        """Placements a resampled picture may be drawn as when nothing matched:
        LibreOffice resamples a turned bitmap (a 400 x 300 photo turned 90 degrees was
        embedded 450 x 600, 12 phash bits away) and downsamples a big picture shown small
        to about 300 dpi (a 2400 x 1600 picture at 2 in moved 12 bits), so a looser phash
        is accepted when the placement has the picture's stated size, turned as stated,
        and is resampled (turned, or fewer pixels than the file)."""
        drawn = _drawn_size(node)
        if drawn is None:
            return []
        blob = self._file_blob(node)
        turned = bool(node.attrs.get("rotation"))
        width, height = drawn
        out = []
        for i, im in enumerate(self.layout.images):
            if i in used or im.phash is None or not _same_colour(colour, im.mean_rgb):
                continue
            smaller = blob is not None and blob.width_px is not None and im.width_px * im.height_px < blob.width_px * (blob.height_px or 0)
            if not (turned or smaller):
                continue
            sized = abs(im.x1 - im.x0 - width) <= _SIZE_SLACK_PT and abs(im.bottom - im.top - height) <= _SIZE_SLACK_PT
            dist = _hamming(im.phash, phash)
            if sized and dist <= _PHASH_RESAMPLED_MAX:
                out.append((dist, i))
        return out

    def _image_candidates(
        self, pixel_sha: str | None, phash: str, colour: tuple[int, int, int] | None, used: set[int]
    ) -> list[tuple[int, int]]:
        """(distance, index) of the unclaimed PDF images that show the picture: those with
        its exact pixels when there are any, else the perceptually alike of its average
        ``colour``. Only then: two plain pictures (a red and a blue square) have the same
        phash, and an exact match tied with a phash distance of 0 lost to the lower PDF
        index; the phash reads brightness only, so the colour tells them apart."""
        exact: list[tuple[int, int]] = []
        alike: list[tuple[int, int]] = []
        for i, im in enumerate(self.layout.images):
            if i in used:
                continue
            if pixel_sha is not None and im.pixel_sha256 == pixel_sha:
                exact.append((0, i))
            elif im.phash is not None and _same_colour(colour, im.mean_rgb):
                dist = _hamming(im.phash, phash)
                if dist <= _PHASH_MAX:
                    alike.append((dist, i))
        return exact or alike

    def _margin_distance(self, kind: str, page: int) -> Callable[[Any], float]:
        """How far a PDF image starts outside the page's header (top) or footer (bottom)
        margin: 0 when its top (footer: its bottom) is inside. A header picture taller
        than the margin starts in the header and pushes the body down; its middle is past
        the margin line, so the middle missed the 40 pt logo of a 30 pt margin's header and
        the same logo on the cover took its place."""
        top, bottom = self._margin_lines(page, self._section_on(page) or {})
        if kind == "header":
            return lambda im: max(0.0, im.top - top)
        return lambda im: max(0.0, bottom - im.bottom)

    def _image_nodes(self) -> Iterable[tuple[Node, Node | None]]:
        for top in self.doc.root.children:
            if top.kind == "comment" or top.attrs.get("rendered") is False:
                continue
            owner = top if top.kind in ("header", "footer") else None
            for n in _of_kind(top, "image"):
                yield n, owner

    def _box_by_frame(self, node: Node, claimed: set[int]) -> None:
        """Box a floating text box or shape by the frame drawn for it: the filled or
        stroked path of its stated size (within ``_FRAME_SLACK_PT``), at its stated
        place when it states one against the page or margins, around its text when it
        has some. Text boxes were boxed by their text (two 180 x 108 pt boxes "differed
        in size"), and a shape without text had no box at all."""
        attrs = node.attrs
        width, height = attrs.get("width"), attrs.get("height")
        if attrs.get("placement") != "floating" or not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
            return
        inner = list(node.boxes)
        pages = {b.page for b in inner} or {self._expected_page(node, self._last_image_page)}
        first = min(pages)
        stated_x, stated_y = self._stated_x(node, first), self._stated_y(node, first)
        if not inner and stated_x is None and stated_y is None:
            return  # nothing says which of the page's frames is this one
        slack = _FRAME_SLACK_PT
        best: tuple[float, int] | None = None
        for i, area in enumerate(self.layout.areas):
            if i in claimed or area.page not in pages:
                continue
            off = abs(area.x1 - area.x0 - width) + abs(area.bottom - area.top - height)
            if off > 2 * slack:
                continue
            if stated_x is not None:
                off += abs(area.x0 - stated_x)
            if stated_y is not None:
                off += abs(area.top - stated_y)
            if off > 4 * slack or not all(
                b.page != area.page
                or (b.x0 >= area.x0 - slack and b.x1 <= area.x1 + slack and b.top >= area.top - slack and b.bottom <= area.bottom + slack)
                for b in inner
            ):
                continue
            if best is None or off < best[0]:
                best = (off, i)
        if best is None:
            return
        claimed.add(best[1])
        area = self.layout.areas[best[1]]
        node.boxes = [Box(page=area.page, x0=area.x0, top=area.top, x1=area.x1, bottom=area.bottom, origin="layout")]
        attrs["box_from"] = "frame"
        if attrs.get("rendered") is False:
            attrs.pop("rendered")
            attrs.pop("not_rendered_reason", None)

    def _expected_page(self, node: Node, fallback: int) -> int:
        """The page of the text around a picture: its paragraph's runs, else ``fallback``."""
        parent_id = node.id.rsplit("/", 1)[0]
        try:
            parent = self.doc.get(parent_id)
        except KeyError:
            return fallback
        pages = [
            pg
            for r in parent.children
            if r.kind == "run"
            for pg in self.runs.get(r.id, _RunMatch()).pages
        ]
        if pages:
            return pages[0]
        # an image-only paragraph: look at the nearest matched run before it
        best = fallback
        for r in self.body_runs:
            if r.order > node.order:
                break
            m = self.runs.get(r.id)
            if m is not None and m.pages:
                best = m.pages[-1]
        return best

    def _paragraph_boxes(self, para: Node, text_boxes: list[Box]) -> list[Box]:
        """Text fragments of the paragraph's runs (``text_boxes``, see
        :func:`_fragments_many`), widened by its inline pictures; floating objects do
        not count."""
        boxes = list(text_boxes)
        for c in para.children:
            if c.kind != "run" and c.attrs.get("placement") != "floating":
                for b in c.boxes:
                    boxes = _merge_into(boxes, b)
        if len(boxes) < 2:  # most paragraphs: one fragment, nothing to order
            return boxes
        return sorted(boxes, key=lambda b: b.page)  # stable: reading order within a page

    # -- write back ----------------------------------------------------------------------
    def _page_rules(self) -> dict[int, PageRules]:
        """The render's thin drawn lines and filled areas by page (table borders and
        shading among them), built once."""
        if self.rules_by_page is None:
            grouped: dict[int, list[PdfRule]] = {}
            for rule in self.layout.rules:
                grouped.setdefault(rule.page, []).append(rule)
            areas: dict[int, list[PdfArea]] = {}
            for area in self.layout.areas:
                areas.setdefault(area.page, []).append(area)
            self.rules_by_page = {
                page: PageRules(grouped.get(page, []), areas.get(page)) for page in grouped.keys() | areas.keys()
            }
        return self.rules_by_page

    def _assign(self) -> None:
        key_total = 0
        matched_total = 0
        order = _post_order(self.doc.root)
        runs_of = dict(self.runs)
        # Every run's and every paragraph's text fragments in one vectorised pass.
        groups: list[_Idx] = []
        slot: dict[str, int] = {}
        for n in order:
            kind = n.kind
            if kind == "run":
                if _drawn_deletion(n):  # its characters stay claimed; no box, no coverage
                    runs_of.pop(n.id, None)  # (post-order: before its paragraph is grouped)
                    continue
                m = runs_of.get(n.id)
                if m is not None:
                    slot[n.id] = len(groups)
                    groups.append(m.pdf_chars)
            elif kind == "paragraph":
                slot[n.id] = len(groups)
                runs = [runs_of[c.id].pdf_chars for c in n.children if c.kind == "run" and c.id in runs_of]
                groups.append(_joined(runs))
        fragments = _fragments_many(self.cols, groups)
        claimed_frames: set[int] = set()  # layout.areas given to a text box or shape
        # One pass over every node (41k in a 180-page file): the kind read once per node.
        for n in order:
            kind = n.kind
            if kind == "run":
                m = runs_of.get(n.id)
                if m is not None:
                    n.boxes = fragments[slot[n.id]]
                    key_total += m.key_chars
                    matched_total += min(m.matched, m.key_chars)
                    if 0 < m.ratio < 0.999:
                        n.attrs["layout_match"] = round(m.ratio, 3)
            elif kind == "image":
                n.boxes = self.image_boxes.get(n.id, [])
                if n.id in self.image_cut:
                    n.attrs["cut_off_pt"] = self.image_cut[n.id]  # type: ignore[assignment]
                if not n.boxes and n.attrs.get("rendered") is not False:
                    n.attrs["rendered"] = False
                    n.attrs["not_rendered_reason"] = self.image_reason.get(
                        n.id, "picture not located"
                    )
            elif kind == "paragraph":
                n.boxes = self._paragraph_boxes(n, fragments[slot[n.id]])
            elif kind in _CONTAINERS:
                boxes = [
                    b
                    for c in n.children
                    if not (
                        c.kind in ("image", "group", "shape", "chart")
                        and c.attrs.get("placement") == "floating"
                    )
                    for b in c.boxes
                ]
                n.boxes = union_all(boxes)
                if kind == "table" and n.boxes and (self.layout.rules or self.layout.areas):
                    box_table_by_borders(n, self._page_rules())
                if kind == "textbox":
                    self._box_by_frame(n, claimed_frames)
            elif kind == "shape":
                self._box_by_frame(n, claimed_frames)
            if (
                not n.boxes
                and kind not in ("document", "comment")
                and n.attrs.get("rendered") is not False
            ):
                n.attrs["rendered"] = False
                n.attrs["not_rendered_reason"] = _reason(n)
        self.doc.root.attrs["layout_text_coverage"] = (
            round(matched_total / key_total, 5) if key_total else 1.0
        )
        self.doc.root.attrs["layout_key_chars"] = key_total
        self.doc.root.attrs["layout_matched_chars"] = matched_total
        for page in self.doc.pages:
            if page.index < len(self.page_section):
                page.attrs["section"] = self.page_section[page.index]
                page.attrs["page_number"] = self.page_numbers[page.index]


def _joined(parts: list[_Idx]) -> _Idx:
    """``np.concatenate([_EMPTY] + parts)`` without the copy for none or one part (most
    paragraphs have one run): the arrays are never written in place, and
    :func:`_fragments_many` concatenates every group again as int64, so only the values
    count. Runs without a match had contributed ``_EMPTY``, i.e. nothing."""
    if not parts:
        return _EMPTY
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts)


def _fragments_many(cols: CharColumns, groups: list[_Idx]) -> list[list[Box]]:
    """Per group of character indices, boxes over its drawn characters in index (reading)
    order: one per page, and a new one where the text jumps back up the page by more
    than max(30 pt, twice the character's line band) — it continues in the next column —
    so a paragraph split across two columns gets two boxes on that page instead of one
    box covering the other column too. A group without drawn characters gets [].

    All groups at once: a fragment starts at a group's first drawn character, a page
    change or a jump; its extent is a ``reduceat`` over the run of characters it covers
    (the min/max of the same floats a loop would take)."""
    out: list[list[Box]] = [[] for _ in groups]
    if not groups:
        return out
    n = len(cols.page) + 1
    gid = np.repeat(np.arange(len(groups), dtype=np.int64), [len(g) for g in groups])
    idx = np.concatenate(groups).astype(np.int64, copy=False)
    key = gid * n + idx
    if key.size > 1 and not bool(np.all(key[1:] > key[:-1])):  # unsorted or repeated
        key = sorted_unique(key)
        gid, idx = key // n, key % n
    drawn = ~cols.generated[idx]
    idx, gid = idx[drawn], gid[drawn]
    if not idx.size:
        return out
    page = cols.page[idx]
    top = cols.top[idx]
    bottom = cols.bottom[idx]
    jump = 2 * (bottom[1:] - top[1:])
    start = np.ones(idx.size, dtype=np.bool_)
    start[1:] = (
        (gid[1:] != gid[:-1])
        | (page[1:] != page[:-1])
        | (top[1:] < top[:-1] - np.where(jump > 30.0, jump, 30.0))  # as max(30.0, jump)
    )
    at = np.flatnonzero(start)
    x0 = np.minimum.reduceat(cols.x0[idx], at).tolist()
    y0 = np.minimum.reduceat(top, at).tolist()
    x1 = np.maximum.reduceat(cols.x1[idx], at).tolist()
    y1 = np.maximum.reduceat(bottom, at).tolist()
    for g, p, a, b, c, d in zip(gid[at].tolist(), page[at].tolist(), x0, y0, x1, y1, strict=True):
        out[g].append(unchecked_box(p, a, b, c, d, "layout"))  # layout_box's box: extents of characters
    return out


def _merge_into(boxes: list[Box], extra: Box) -> list[Box]:
    """Add ``extra`` to the box on its page that it overlaps vertically (else keep it apart)."""
    for k, b in enumerate(boxes):
        if b.page == extra.page and b.top <= extra.bottom and extra.top <= b.bottom:
            boxes[k] = b.union(extra)
            return boxes
    boxes.append(extra)
    return boxes


def _chunks(runs: list[Node], max_keys: int) -> list[list[Node]]:
    out: list[list[Node]] = [[]]
    size = 0
    for r in runs:
        k = _key_len(_drawn(r))
        if out[-1] and size + k > max_keys:
            out.append([])
            size = 0
        out[-1].append(r)
        size += k
    return out


def _missing_picture_reason(image: Node) -> str:
    """Why a picture of the tree is not among the rendered ones."""
    if str(image.attrs.get("ole_prog_id", "")).lower().startswith("equation.3"):
        # LibreOffice imports an Equation Editor 3 object as a formula instead of drawing the
        # preview, and draws nothing when it cannot (no Math module, unreadable object data);
        # MathType objects (Equation.DSMT4) show their preview (design/evaluator-parity.md).
        return "Equation Editor 3 object: LibreOffice converts it to a formula rather than drawing its preview picture"
    return "picture drawn but not located among the rendered images"


def _reason(n: Node) -> str:
    if n.kind == "run" and not n.text.strip():
        return "whitespace only"
    if n.kind in ("shape", "chart"):
        return f"{n.kind} is drawn as vector graphics; not located"
    if n.kind in ("cell", "row", "table", "textbox"):
        return f"empty {n.kind}: boxes come from rendered content, and there is none (borders are not read)"
    if n.kind == "run" and n.attrs.get("math"):
        # Without LibreOffice's Math module (libreoffice-math) a formula is not drawn at all.
        return "equation: its characters were not found in the rendered PDF (LibreOffice draws formulas with its Math module)"
    if n.kind == "run":
        return "text not found in the rendered PDF"
    return "no rendered content found"



# Page-number formats LibreOffice 7.4 prints as format_number spells them (measured);
# others print decimal there: numberInDash and decimalFullWidth too ("9", not "- 9 -" or
# full-width digits). cardinalText ("Nine") and chicago ("***") are not spelt: decimal.
_PAGE_FORMATS = frozenset({"decimal", "decimalZero", "ordinal", "lowerRoman", "upperRoman", "lowerLetter", "upperLetter"})


def _page_label(number: int, fmt: str) -> str:
    """``number`` as a PAGE field in ``fmt`` prints it; LibreOffice prints page 0 in
    letters or Roman numerals as nothing (measured), in decimal as "0"."""
    if fmt not in _PAGE_FORMATS:
        return str(number)
    if number == 0:
        return "0" if fmt == "decimal" else ""
    return format_number(number, fmt)


_LABEL_ID = "\x00label:"  # alignment span ids of list labels (never a node id)


def _with_labels(runs: list[Node], texts: list[str]) -> tuple[list[Node | None], list[str]]:
    """``runs`` and their texts with each labelled paragraph's list label (None as its
    owner) inserted before the paragraph's first run."""
    owners: list[Node | None] = []
    out: list[str] = []
    seen: set[int] = set()  # paragraphs whose first run went by
    for r, text in zip(runs, texts, strict=True):
        paragraph = r.parent
        while paragraph is not None and paragraph.kind != "paragraph":  # a link's or field's run
            paragraph = paragraph.parent
        if paragraph is not None and id(paragraph) not in seen:
            seen.add(id(paragraph))
            label = paragraph.attrs.get("list_label")
            if isinstance(label, str) and label:
                owners.append(None)
                out.append(label)
        owners.append(r)
        out.append(text)
    return owners, out


def _drawn_deletion(n: Node) -> bool:
    """A run of tracked-deleted text: not the document's text, but LibreOffice draws it,
    struck through, where it stood (the file's changes are shown, as Word's markup view
    shows them). Left out of the alignment, its characters were taken by the next run:
    a one-line paragraph after a deleted one sharing the word "paragraph" got a box two
    lines tall. It is aligned (its characters claimed) and gets no box (``_assign``)."""
    return n.attrs.get("not_rendered_reason") == TRACKED_DELETION and bool(n.attrs.get("deleted_text"))


def _drawn(r: Node) -> str:
    """The text the page draws for run ``r``: its text, or a tracked deletion's deleted text."""
    return r.text or (str(r.attrs.get("deleted_text") or "") if _drawn_deletion(r) else "")


def _aligned(n: Node, deletions: bool) -> bool:
    """Run ``n`` takes part in the alignment: printed text, a page-number field that
    stored no result (it prints a number), or a deletion when the file's view shows
    them (``deletions``: :func:`deletions_drawn`)."""
    if n.attrs.get("rendered") is not False:
        return bool(n.text) or n.attrs.get("field") in PAGE_NUMBER_FIELDS
    return deletions and _drawn_deletion(n)


def _runs(node: Node, *, skip_textboxes: bool = False, deletions: bool) -> list[Node]:
    """Runs with text under ``node`` in document order (optionally not those inside
    text boxes, which are drawn out of reading order)."""
    out: list[Node] = []
    stack = list(reversed(node.children)) if node.kind == "textbox" else [node]
    while stack:
        n = stack.pop()
        if n.kind == "run":
            # Equations too: LibreOffice's Math draws a formula's characters as text (a/b=c
            # as "a", "b", "=c"), and left unclaimed they were taken by the next run.
            # (and page-number fields that stored no result: they print a number)
            if _aligned(n, deletions):
                out.append(n)
            continue
        if skip_textboxes and n.kind == "textbox":
            continue
        stack.extend(reversed(n.children))
    return out


def _body_content(top: Node, *, deletions: bool) -> tuple[list[Node], list[Node], list[Node]]:
    """``(_runs(top, skip_textboxes=True), _runs(top), _of_kind(top, "textbox"))`` from
    one walk of ``top`` (each list in the order its own walk gives: all three are
    ``top.iter()``'s pre-order, filtered): the layout asked for each of them in turn, and
    a long document's blocks hold 41k nodes."""
    outside: list[Node] = []
    every: list[Node] = []
    boxes: list[Node] = []
    # (node, inside a text box, inside a run: _runs stops at a run, _of_kind goes on)
    stack: list[tuple[Node, bool, bool]] = [(top, False, False)]
    while stack:
        n, in_box, in_run = stack.pop()
        kind = n.kind
        if kind == "textbox":
            boxes.append(n)
            in_box = n is not top  # _runs of a text box reads its own runs, not nested boxes'
        elif kind == "run" and not in_run:
            if _aligned(n, deletions):
                every.append(n)
                if not in_box:
                    outside.append(n)
            in_run = True
        children = n.children
        if children:
            stack.extend(zip(reversed(children), itertools.repeat(in_box), itertools.repeat(in_run)))
    return outside, every, boxes


def _of_kind(root: Node, kind: str) -> list[Node]:
    """The nodes of ``kind`` under ``root`` (itself included) in ``root.iter()``'s
    order, by a plain loop: the layout looks for text boxes and pictures among every
    node (41k in a 180-page file), and the generator's step per node cost more."""
    out: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.kind == kind:
            out.append(n)
        children = n.children
        if children:
            stack.extend(reversed(children))
    return out


def _post_order(root: Node) -> list[Node]:
    out: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(n.children)
    out.reverse()
    return out


def _stated_start(node: Node, section: object, axis: str) -> float | None:
    """Where a floating object says its left (``axis`` "h") or top ("v") edge is, in
    points from the page's, when it is placed against the page or the margins of its
    ``section`` (or, across, against the column of a one-column section: the space
    between the margins); None otherwise (inline objects, places against a column of
    several, a character or a paragraph)."""
    attrs = node.attrs
    if attrs.get("placement") != "floating" or not isinstance(section, dict):
        return None
    size = attrs.get("width" if axis == "h" else "height")
    page = section.get("page_width" if axis == "h" else "page_height")
    if not isinstance(page, (int, float)) or not isinstance(size, (int, float)):
        return None
    margins = section.get("margins") or {}
    near, far = ("left", "right") if axis == "h" else ("top", "bottom")
    relative = attrs.get(f"position_{axis}_relative_from")
    # in a table cell, Word's "column" is the cell (layoutInCell), which the tree does not place
    in_cell = any(a.kind == "cell" for a in node.ancestors())
    one_column = (section.get("columns") or 1) == 1 and not in_cell
    if relative == "page":
        low, high = 0.0, float(page)
    elif relative == "margin" or (relative == "column" and axis == "h" and one_column):
        low, high = float(margins.get(near, 0.0)), float(page) - float(margins.get(far, 0.0))
    else:
        return None
    offset, align = attrs.get(f"position_{axis}_offset"), attrs.get(f"position_{axis}_align")
    if isinstance(offset, (int, float)):
        return low + float(offset)
    return {near: low, far: high - size, "center": (low + high - size) / 2}.get(str(align))


def _drawn_size(node: Node) -> tuple[float, float] | None:
    """(width, height) of the area a picture is drawn in: its stated size, or the box
    around it turned as stated (a quarter turn swaps the two); None when it states none."""
    width, height, turn = node.attrs.get("width"), node.attrs.get("height"), node.attrs.get("rotation") or 0
    if not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
        return None
    if isinstance(turn, (int, float)) and turn % 180:
        cos, sin = abs(math.cos(math.radians(turn))), abs(math.sin(math.radians(turn)))
        return width * cos + height * sin, width * sin + height * cos
    return float(width), float(height)


def _turned_outline(node: Node, box: Box) -> Box:
    """A turned picture's box with its outline: the stated rectangle turned about the
    drawn box's centre (``Box.around``), so that its width and height, and so its aspect,
    are the picture's and not the turned bounding box's (a 216 x 108 pt picture turned a
    quarter is drawn in a 108 x 216 pt box, which read as a picture squeezed to a quarter
    of its aspect). Unturned pictures, or ones without a stated size, keep ``box``."""
    width, height, turn = node.attrs.get("width"), node.attrs.get("height"), node.attrs.get("rotation") or 0
    if not turn or not isinstance(turn, (int, float)) or turn % 180 == 0:
        return box
    if not isinstance(width, (int, float)) or not isinstance(height, (int, float)):
        return box
    cx, cy = (box.x0 + box.x1) / 2, (box.top + box.bottom) / 2
    cos, sin = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    corners = [(-width / 2, -height / 2), (width / 2, -height / 2), (width / 2, height / 2), (-width / 2, height / 2)]
    # clockwise on the page (y down), from the unturned top-left corner
    return Box.around(box.page, [(cx + x * cos - y * sin, cy + x * sin + y * cos) for x, y in corners], origin="layout")


# Sizes and places within this are one (rounding of twips, EMU and the PDF's matrix)
_SIZE_SLACK_PT = 2.0
# A frame's drawn path is its stated size, or that grown by its outline's width
_FRAME_SLACK_PT = 2.5


def _image_box(im: Any, crop: tuple[float, float, float, float] | None = None, *, clipped: bool = False) -> Box:
    """The drawn part of a PDF image: its bounds are the whole picture, and a cropped
    picture (``a:srcRect``) is drawn clipped to its frame, the crop's share of each edge
    in. ``clipped``: also cut to the area the PDF clips it to (a picture wider than its
    table cell, taller than the page's body), which is what a reader sees of it."""
    x0, top, x1, bottom = im.x0, im.top, im.x1, im.bottom
    if crop is not None:
        left, up, right, down = crop
        w, h = x1 - x0, bottom - top
        x0, x1 = x0 + left * w, x1 - right * w
        top, bottom = top + up * h, bottom - down * h
    clip = getattr(im, "clip", None) if clipped else None
    if clip is not None:
        cx0, ctop, cx1, cbottom = clip
        if cx0 < x1 and ctop < bottom and cx1 > x0 and cbottom > top:  # else the clip is not this picture's frame
            x0, top, x1, bottom = max(x0, cx0), max(top, ctop), min(x1, cx1), min(bottom, cbottom)
    return Box(page=im.page, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")


def _cut_edges(im: Any, crop: tuple[float, float, float, float] | None) -> dict[str, float]:
    """How many points of each edge of the picture (as placed, cropped) its clip hides."""
    whole, shown = _image_box(im, crop), _image_box(im, crop, clipped=True)
    cut = {"left": shown.x0 - whole.x0, "top": shown.top - whole.top, "right": whole.x1 - shown.x1, "bottom": whole.bottom - shown.bottom}
    return {edge: round(pt, 2) for edge, pt in cut.items() if pt > _SIZE_SLACK_PT / 2}


def _crop_fractions(node: Node) -> tuple[float, float, float, float] | None:
    """(left, top, right, bottom) shares the picture is cropped by (padding counts as 0:
    the bounds are then the frame already), None when it is not cropped or the crop
    leaves nothing."""
    crop = crop_fractions(node.attrs)
    edges = (crop.get("left", 0.0), crop.get("top", 0.0), crop.get("right", 0.0), crop.get("bottom", 0.0))
    if not crop or edges[0] + edges[2] >= 1 or edges[1] + edges[3] >= 1:
        return None
    return edges


def _hamming(a: str, b: str) -> int:
    try:
        return (int(a, 16) ^ int(b, 16)).bit_count()
    except ValueError:
        return 64


def _turned_hashes(
    data: bytes | None, turn: float, flips: tuple[bool, bool], *, corners: tuple[int, int, int] = (0, 0, 0)
) -> tuple[str | None, str | None]:
    """(pixel sha256, phash) of a picture as drawn: mirrored, then turned ``turn``
    degrees clockwise. At other than a right angle LibreOffice embeds the turned bitmap
    in its bounding box with ``corners`` filled: masked out (the mask is not read by
    ``read_layout``, so black), or white when it resamples the picture (measured at 15
    degrees: phash distance 0 and 2 with the right fill, 24 and 20 with the other)."""
    if data is None:
        return None, None
    import imagehash
    from PIL import Image

    try:
        img = decode_image(data)
        if flips[0]:
            img = img.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
        if flips[1]:
            img = img.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
        steps = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}
        if turn % 360 in steps:
            img = img.transpose(steps[int(turn % 360)])  # PIL turns counter-clockwise
        elif turn % 360:
            img = img.rotate(-turn, expand=True, resample=Image.Resampling.BICUBIC, fillcolor=corners)
        return hashlib.sha256(img.tobytes()).hexdigest(), str(imagehash.phash(img))
    except Exception:  # noqa: BLE001 - undecodable: no exact match possible
        return None, None


_COLOUR_SLACK = 40.0  # RGB distance of averages still one picture (JPEG, downsampling: < 10)


def _same_colour(a: tuple[int, int, int] | None, b: tuple[int, int, int] | None) -> bool:
    """Two average colours close enough to be one picture's (unknown: no objection)."""
    if a is None or b is None:
        return True
    return math.dist(a, b) <= _COLOUR_SLACK


def _pixel_facts(data: bytes | None) -> tuple[str | None, tuple[int, int, int] | None]:
    """sha256 of the decoded RGB pixels (as ``read_layout`` hashes PDF images) and their
    average colour."""
    if data is None:
        return None, None
    try:
        img = decode_image(data)
    except Exception:  # noqa: BLE001 - undecodable: no exact match possible, phash decides
        return None, None
    return hashlib.sha256(img.tobytes()).hexdigest(), mean_colour(img)
