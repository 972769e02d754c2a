"""The fast paths of the .docx layout give what the plain code gave: ``PageRules.enclosure``
(one loop per direction, unvalidated Box) against the filtered-list-and-max/min form it
replaced, and ``_joined`` against ``np.concatenate([_EMPTY] + parts)``."""

from __future__ import annotations

import random

import numpy as np
import pytest

from artifactcheck.extractors.docx.layout import _EMPTY, _joined
from artifactcheck.extractors.docx.table_borders import _TOLERANCE_PT, PageRules
from artifactcheck.extractors.render.layout import PdfRule
from artifactcheck.model import Box


def _reference_enclosure(rules: PageRules, text: Box) -> Box | None:
    """The enclosure as it was written before the fast path (the slow, obvious form)."""
    t = _TOLERANCE_PT
    across = [v for v in rules.vertical if v[1] <= text.top + t and v[2] >= text.bottom - t]
    left = max((v[0] for v in across if v[0] <= text.x0 + t / 2), default=None)
    right = min((v[0] for v in across if v[0] >= text.x1 - t / 2), default=None)
    along = [h for h in rules.horizontal if h[1] <= text.x0 + t and h[2] >= text.x1 - t]
    top = max((h[0] for h in along if h[0] <= text.top + t / 2), default=None)
    bottom = min((h[0] for h in along if h[0] >= text.bottom - t / 2), default=None)
    if left is None or right is None or top is None or bottom is None or right <= left or bottom <= top:
        return None
    return Box(page=text.page, x0=left, top=top, x1=right, bottom=bottom, origin="layout")


def _grid_rules(rng: random.Random, page: int) -> list[PdfRule]:
    """A ruled grid on a coarse lattice (so centres tie and boxes sit on rule lines), with
    some rules cut short and some doubled."""
    xs = sorted(rng.sample(range(50, 550, 10), 6))
    ys = sorted(rng.sample(range(50, 750, 10), 8))
    out: list[PdfRule] = []
    for x in xs:
        y0, y1 = ys[0] - rng.choice((0, 2)), ys[-1] - rng.choice((0, 0, 40))
        out.append(PdfRule(page, x - 0.25, float(y0), x + 0.25, float(y1)))
        if rng.random() < 0.2:
            out.append(PdfRule(page, x - 0.5, float(y0), x + 0.5, float(y1)))  # same centre
    for y in ys:
        x0, x1 = xs[0] - rng.choice((0, 1)), xs[-1] - rng.choice((0, 0, 30))
        out.append(PdfRule(page, float(x0), y - 0.25, float(x1), y + 0.25))
    return out


@pytest.mark.parametrize("seed", range(20))
def test_enclosure_fast_path_gives_the_reference_box(seed: int) -> None:
    rng = random.Random(seed)
    rules = PageRules(_grid_rules(rng, 3))
    for _ in range(300):
        x0, top = rng.uniform(40, 560), rng.uniform(40, 760)
        x1, bottom = x0 + rng.choice((0.0, 0.5, rng.uniform(1, 120))), top + rng.uniform(0, 40)
        text = Box(page=3, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout")
        want, got = _reference_enclosure(rules, text), rules.enclosure(text)
        assert got == want
        if got is not None and want is not None:
            # as serialised (fields-set differs: every field set, as for make_box's boxes)
            assert got.model_dump_json() == want.model_dump_json()


@pytest.mark.parametrize("seed", range(20))
def test_enclosures_of_a_page_are_each_box_s_enclosure(seed: int) -> None:
    rng = random.Random(seed)
    rules = PageRules(_grid_rules(rng, 3))
    texts = []
    for _ in range(300):
        x0, top = rng.uniform(40, 560), rng.uniform(40, 760)
        x1, bottom = x0 + rng.choice((0.0, 0.5, rng.uniform(1, 120))), top + rng.uniform(0, 40)
        texts.append(Box(page=3, x0=x0, top=top, x1=x1, bottom=bottom, origin="layout"))
    texts += [Box(page=3, x0=float(x), top=float(y), x1=float(x) + 5, bottom=float(y) + 5, origin="layout")
              for x in range(40, 560, 10) for y in range(40, 760, 70)]  # on rule lines: ties
    got = rules.enclosures(texts)
    want = [rules.enclosure(t) for t in texts]
    assert [g.model_dump_json() if g else None for g in got] == [w.model_dump_json() if w else None for w in want]
    assert any(got) and not all(got)


def test_enclosures_without_rules_or_texts() -> None:
    text = Box(page=0, x0=10, top=10, x1=20, bottom=20, origin="layout")
    assert PageRules([]).enclosures([text, text]) == [None, None]
    assert PageRules([PdfRule(0, 0.0, 0.0, 1.0, 100.0)]).enclosures([]) == []


def test_enclosure_without_rules_is_none() -> None:
    text = Box(page=0, x0=10, top=10, x1=20, bottom=20, origin="layout")
    assert PageRules([]).enclosure(text) is None


def test_joined_is_the_concatenation() -> None:
    a = np.array([3, 4, 9], dtype=np.int64)
    b = np.array([1, 2], dtype=np.int64)
    for parts in ([], [a], [a, b], [_EMPTY, a], [a, _EMPTY, b]):
        want = np.concatenate([_EMPTY, *parts])
        got = _joined(parts)
        assert got.dtype == want.dtype
        assert got.tolist() == want.tolist()
