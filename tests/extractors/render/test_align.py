"""align_text_to_layout: on the real rendered fixture (ligatures, soft-hyphen breaks,
list labels, a header on every page) and on hand-built layouts for the cases a fixture
cannot pin down cheaply (a paragraph across a page break, identical paragraphs)."""

from __future__ import annotations

import docx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from artifactcheck.extractors.render import (
    PageLayout,
    PdfChar,
    PdfLayout,
    RenderedPDF,
    TextSpan,
    align_text_to_layout,
    read_layout,
)
from artifactcheck.extractors.render.align import normalize_char

from .conftest import RENDER_FIXTURES


def make_layout(lines: list[tuple[int, str]]) -> PdfLayout:
    """A layout with one 6-pt-wide char per letter, lines 14 pt apart from y=72."""
    chars: list[PdfChar] = []
    row: dict[int, int] = {}
    pages = max(p for p, _ in lines) + 1
    for page, text in lines:
        k = row.get(page, 0)
        row[page] = k + 1
        top = 72 + 14 * k
        for i, ch in enumerate(text):
            x = 72 + 6 * i
            gen = ch == " "
            chars.append(PdfChar(page, ch, x, top, x if gen else x + 6, top + 12, "Carlito", 11, -1, gen))
        chars.append(PdfChar(page, "\n", 72 + 6 * len(text), top, 72 + 6 * len(text), top + 12, "Carlito", 11, -1, True))
    return PdfLayout([PageLayout(i, 612, 792) for i in range(pages)], chars, [], [[] for _ in range(pages)], False)


def test_normalization_folds_what_rendering_changes() -> None:
    assert normalize_char("\ufb01") == "fi"
    assert normalize_char("\u201c") == '"' and normalize_char("\u2019") == "'"
    assert normalize_char("\u2014") == "-" and normalize_char("\u00ad") == ""
    assert normalize_char("\t") == "" and normalize_char("\u00a0") == ""
    assert normalize_char("A") == "a"


def test_paragraph_across_a_page_break_gets_one_box_per_page() -> None:
    layout = make_layout([(0, "intro line"), (0, "a paragraph that runs"), (1, "onto the next page"), (1, "outro")])
    result = align_text_to_layout(
        [TextSpan("p0", "intro line"), TextSpan("p1", "a paragraph that runs onto the next page"), TextSpan("p2", "outro")],
        layout,
    )
    boxes = result.boxes("p1")
    assert [b.page for b in boxes] == [0, 1]
    assert boxes[0].top == 86 and boxes[1].top == 72
    assert all(b.origin == "layout" for b in boxes)
    assert result.by_id["p1"].ratio == 1.0
    assert result.aligned_share == 1.0


def test_identical_paragraphs_map_in_order() -> None:
    text = "Same words in every paragraph"
    layout = make_layout([(0, text)] * 20)
    result = align_text_to_layout([TextSpan(f"p{i}", text) for i in range(20)], layout)
    tops = [result.boxes(f"p{i}")[0].top for i in range(20)]
    assert tops == [72 + 14 * i for i in range(20)]


def test_quotes_dashes_tabs_and_spacing_differences() -> None:
    layout = make_layout([(0, 'He said "hi" - then left.')])
    result = align_text_to_layout([TextSpan("p", "He  said \u201chi\u201d\t\u2014 then left.")], layout)
    assert result.by_id["p"].ratio == 1.0


def test_field_result_differs_but_the_rest_aligns() -> None:
    layout = make_layout([(0, "Report title"), (0, "Page 3 of 7")])
    result = align_text_to_layout([TextSpan("t", "Report title"), TextSpan("f", "Page 1 of 1")], layout)
    assert result.by_id["t"].ratio == 1.0
    assert 0.5 < result.by_id["f"].ratio < 1.0
    assert result.boxes("f")[0].top == 86


def test_text_not_rendered_gets_no_box() -> None:
    layout = make_layout([(0, "Visible paragraph text here")])
    result = align_text_to_layout(
        [TextSpan("v", "Visible paragraph text here"), TextSpan("h", "hidden words never drawn"), TextSpan("e", "")],
        layout,
    )
    assert result.boxes("h") == [] and result.by_id["h"].ratio == 0.0
    assert result.boxes("e") == [] and result.by_id["e"].key_chars == 0
    assert result.by_id["v"].ratio == 1.0
    assert result.aligned_share == pytest.approx(24 / (24 + 21))


# --- the real fixture --------------------------------------------------------------


@pytest.fixture(scope="module")
def fixture_alignment(known_layout_pdf: RenderedPDF):  # type: ignore[no-untyped-def]
    layout = read_layout(known_layout_pdf.pdf_path)
    d = docx.Document(str(RENDER_FIXTURES / "known_layout.docx"))
    spans = [TextSpan("header", d.sections[0].header.paragraphs[0].text, repeated=True)]
    spans += [TextSpan(f"p{i}", p.text) for i, p in enumerate(d.paragraphs)]
    return layout, align_text_to_layout(spans, layout), d


@pytest.mark.slow
def test_every_fixture_paragraph_aligns_fully(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    _, result, d = fixture_alignment
    for i, p in enumerate(d.paragraphs):
        if p.text.strip():
            assert result.by_id[f"p{i}"].ratio == 1.0, p.text
    assert result.aligned_share == 1.0


@pytest.mark.slow
def test_top_paragraph_box(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    _, result, _ = fixture_alignment
    (box,) = result.boxes("p0")
    assert (box.page, box.x0, box.top) == (0, pytest.approx(72, abs=1.5), pytest.approx(72, abs=1.0))


@pytest.mark.slow
def test_ligature_paragraph_written_with_fi_character(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    _, result, d = fixture_alignment
    assert "\ufb01" in d.paragraphs[1].text
    assert result.by_id["p1"].ratio == 1.0


@pytest.mark.slow
def test_soft_hyphenated_paragraph_covers_all_its_lines(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    layout, result, _ = fixture_alignment
    res = result.by_id["p2"]
    narrow = [l for l in layout.lines if l.page == 0 and l.x0 > 300]
    assert len(res.line_boxes) == len(narrow) >= 4
    (box,) = res.boxes
    assert box.top == pytest.approx(narrow[0].top) and box.bottom == pytest.approx(narrow[-1].bottom)
    assert box.x0 == pytest.approx(4.5 * 72 + 72, abs=1.5)


@pytest.mark.slow
def test_list_labels_are_not_part_of_the_item_box(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    layout, result, _ = fixture_alignment
    label = next(l for l in layout.lines if l.text.startswith("1."))
    (box,) = result.boxes("p3")
    assert box.top == pytest.approx(label.top)
    assert box.x0 > layout.chars[label.start + 1].x1  # starts after "1."


@pytest.mark.slow
def test_header_matches_on_every_page(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    _, result, _ = fixture_alignment
    boxes = result.boxes("header")
    assert [b.page for b in boxes] == [0, 1]
    assert all(b.top == pytest.approx(28.8, abs=1.0) for b in boxes)


def test_repetitive_text_without_unique_anchors_still_aligns_in_order() -> None:
    import random

    rng = random.Random(7)
    # Two-letter words from a tiny vocabulary: every 12-gram occurs many times, so the
    # anchor chain is too sparse and the banded (progressive) alignment does the work.
    lines = [" ".join(rng.choice(["ab", "cd"]) for _ in range(12)) for _ in range(600)]
    pages = [(k // 50, line) for k, line in enumerate(lines)]
    # The PDF also prints a footer on every page that the tree does not have as body text.
    with_footers: list[tuple[int, str]] = []
    for page in range(12):
        with_footers += [p for p in pages if p[0] == page] + [(page, f"footer of page {page + 1}")]
    layout = make_layout(with_footers)
    spans = [TextSpan(f"l{k}", line) for k, line in enumerate(lines)]
    result = align_text_to_layout(spans, layout)
    assert result.aligned_share > 0.99
    for k in (0, 123, 377, 599):
        (box,) = result.boxes(f"l{k}")
        assert (box.page, box.top) == (k // 50, 72 + 14 * (k % 50))


@pytest.mark.slow
def test_line_end_hyphen_is_inside_the_box(fixture_alignment) -> None:  # type: ignore[no-untyped-def]
    layout, result, _ = fixture_alignment
    res = result.by_id["p2"]
    hyphens = [i for i, c in enumerate(layout.chars) if c.char in "-\u00ad\ufffe" and layout.chars[i + 1].char == "\n"]
    assert hyphens  # the narrow paragraph breaks at soft hyphens
    assert set(hyphens) <= set(res.pdf_chars)
    (box,) = res.boxes
    assert all(box.x1 >= layout.chars[i].x1 for i in hyphens)


@pytest.mark.slow
def test_alignment_needs_no_char_tuples_and_equals_the_tuple_built_layout(
    known_layout_pdf: RenderedPDF,
) -> None:
    """read_layout builds ``PdfChar`` tuples only on demand: aligning reads ``text`` and
    ``columns`` alone, and gives exactly what a layout built from the tuples gives (chars,
    boxes, line boxes, ratios, matched indices)."""
    lazy = read_layout(known_layout_pdf.pdf_path)
    d = docx.Document(str(RENDER_FIXTURES / "known_layout.docx"))
    spans = [TextSpan("header", d.sections[0].header.paragraphs[0].text, repeated=True)]
    spans += [TextSpan(f"p{i}", p.text) for i, p in enumerate(d.paragraphs)]
    fast = align_text_to_layout(spans, lazy)
    assert lazy._chars is None  # alignment did not build the tuples
    chars = lazy.chars
    assert len(chars) == len(lazy.text) == len(lazy.columns.page) > 300
    assert "".join(c.char for c in chars) == lazy.text
    eager = PdfLayout(lazy.pages, list(chars), [], [], False)
    slow = align_text_to_layout(spans, eager)
    assert [(s.node_id, s.boxes, s.line_boxes, s.ratio, s.key_chars, s.matched_chars, s.pdf_chars)
            for s in fast.spans] == [
        (s.node_id, s.boxes, s.line_boxes, s.ratio, s.key_chars, s.matched_chars, s.pdf_chars)
        for s in slow.spans
    ]
    assert any(s.boxes for s in fast.spans)
    assert lazy.lines == eager.lines and lazy.words == eager.words


@pytest.mark.slow
def test_subset_layout_equals_one_built_from_its_tuples(known_layout_pdf: RenderedPDF) -> None:
    """``layout.subset(idx)`` (what the docx layout aligns its leftovers against) takes
    text and columns from the parent without building tuples, and equals a layout built
    from ``[chars[i] for i in idx]``: text, every column, the characters, and the
    alignment against it (with ``boxes=False`` the same matches, no boxes)."""
    import numpy as np

    from artifactcheck.extractors.render.align import layout_keys

    lazy = read_layout(known_layout_pdf.pdf_path)
    n = len(lazy.text)
    # Every third character dropped, a whole line break among them: lines renumber.
    idx = np.array([i for i in range(n) if i % 3 != 1], dtype=np.int64)
    sub = lazy.subset(idx)
    assert lazy._chars is None and sub._chars is None
    built = PdfLayout(lazy.pages, [lazy.chars[i] for i in idx.tolist()], [], [], False)
    assert sub.text == built.text
    for name in ("page", "x0", "top", "x1", "bottom", "generated", "newline", "line"):
        assert getattr(sub.columns, name).tolist() == getattr(built.columns, name).tolist(), name
    assert sub.chars == built.chars
    d = docx.Document(str(RENDER_FIXTURES / "known_layout.docx"))
    spans = [TextSpan(f"p{i}", p.text) for i, p in enumerate(d.paragraphs)]
    got = align_text_to_layout(spans, lazy.subset(idx), boxes=False)
    want = align_text_to_layout(spans, built)
    assert [(s.ratio, s.key_chars, s.matched_chars, s.pdf_chars) for s in got.spans] == [
        (s.ratio, s.key_chars, s.matched_chars, s.pdf_chars) for s in want.spans
    ]
    assert any(s.pdf_chars for s in got.spans) and not any(s.boxes or s.line_boxes for s in got.spans)
    # layout_keys: the key characters of the drawn characters, each with its index.
    keys, origin = layout_keys(lazy, idx)
    drawn = [i for i in idx.tolist() if not lazy.chars[i].generated]
    assert keys == "".join(normalize_char(lazy.chars[i].char) for i in drawn)
    assert origin.tolist() == [i for i in drawn for _ in normalize_char(lazy.chars[i].char)]


def test_subset_of_a_hand_built_layout_with_multi_code_point_chars() -> None:
    """A hand-built layout whose chars hold several code points (so ``text[i]`` is not
    ``chars[i].char``) still subsets correctly, through its tuples."""
    import numpy as np

    from artifactcheck.extractors.render.align import layout_keys

    base = make_layout([(0, "one two"), (0, "three")])
    chars = list(base.chars)
    chars[0] = chars[0]._replace(char="\ufb01x")  # two code points in one character
    layout = PdfLayout(base.pages, chars, [], [], False)
    idx = np.array([0, 1, 2, 8, 9], dtype=np.int64)
    sub = layout.subset(idx)
    assert sub.chars == [chars[i] for i in idx.tolist()]
    assert sub.text == "".join(chars[i].char for i in idx.tolist())
    assert sub.columns.x0.tolist() == [chars[i].x0 for i in idx.tolist()]
    keys, origin = layout_keys(layout, idx)
    assert keys == "fixneth"  # "\ufb01x" -> "fix" (3 keys), then n, e, t, h
    assert origin.tolist() == [0, 0, 0, 1, 2, 8, 9]


def test_layout_box_equals_the_validated_box() -> None:
    """The fast constructor the alignment and the docx layout use makes what pydantic makes."""
    from artifactcheck.extractors.render.align import layout_box
    from artifactcheck.model import Box

    fast = layout_box(2, 72.0, 90.5, 144.25, 103.9)
    slow = Box(page=2, x0=72.0, top=90.5, x1=144.25, bottom=103.9, origin="layout")
    assert fast == slow and fast.model_dump() == slow.model_dump()
    assert Box.model_construct(**slow.model_dump()).model_dump() == fast.model_dump()
    assert Box.model_validate(fast.model_dump()) == fast and fast.width == slow.width


@given(st.text(alphabet="ab c\u00e9\u4e2d", max_size=300), st.integers(1, 6), st.sampled_from([1, 2, 4]))
@settings(max_examples=300, deadline=None)
def test_unique_grams_are_those_np_unique_finds(s: str, n: int, stride: int) -> None:
    """The sort-and-compare-neighbours reading of the n-grams that occur once gives what
    np.unique's counts and first indices give (hashes sorted, their start positions)."""
    import numpy as np

    from artifactcheck.extractors.render.align import _gram_hashes, _unique_grams

    if len(s) < n:
        return
    uniq, first, counts = np.unique(_gram_hashes(s, n)[::stride], return_index=True, return_counts=True)
    hashes, starts = _unique_grams(s, n, stride)
    assert hashes.tolist() == uniq[counts == 1].tolist()
    assert starts.tolist() == (first[counts == 1] * stride).tolist()
