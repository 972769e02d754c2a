"""read_layout and page images on the known-layout fixture rendered by LibreOffice.

Known positions come from the fixture's construction (fixtures/build_render.py): Letter
612 x 792 pt, 1-inch (72 pt) margins, Carlito 11 pt, a 2 x 1 inch inline picture.
"""

from __future__ import annotations

import io
import itertools
import zipfile

import imagehash
import pytest
from PIL import Image

from artifactcheck.extractors.render import (
    PdfChar,
    PdfLayout,
    RenderedPDF,
    page_image,
    page_images,
    pt_to_px,
    px_to_pt,
    read_layout,
)

from .conftest import RENDER_FIXTURES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def layout(known_layout_pdf: RenderedPDF) -> PdfLayout:
    return read_layout(known_layout_pdf.pdf_path, structure=True)


def _line(layout: PdfLayout, startswith: str, page: int = 0):  # type: ignore[no-untyped-def]
    for line in layout.lines:
        if line.page == page and line.text.startswith(startswith):
            return line
    raise AssertionError(f"no line starting {startswith!r} on page {page}: {[l.text for l in layout.lines]}")


def test_page_sizes_are_letter(layout: PdfLayout) -> None:
    assert [(p.index, p.width, p.height) for p in layout.pages] == [(0, 612.0, 792.0), (1, 612.0, 792.0)]


def test_first_paragraph_sits_at_the_top_margin(layout: PdfLayout) -> None:
    line = _line(layout, "Top margin paragraph")
    assert line.top == pytest.approx(72, abs=1.0)
    assert line.x0 == pytest.approx(72, abs=1.5)
    assert line.bottom - line.top == pytest.approx(11 * 1.22, abs=0.5)  # Carlito single spacing
    first = layout.chars[line.start]
    assert first.char == "T" and first.font == "Carlito" and first.size == pytest.approx(11)


def test_second_page_paragraph_at_top_of_page_two(layout: PdfLayout) -> None:
    line = _line(layout, "Second page paragraph", page=1)
    assert line.top == pytest.approx(72, abs=1.0)


def test_header_is_printed_above_the_margin_on_every_page(layout: PdfLayout) -> None:
    for page in (0, 1):
        line = _line(layout, "Header text", page=page)
        assert line.top == pytest.approx(0.4 * 72, abs=1.0)  # header distance 0.4 inch


def test_lines_of_a_paragraph_tile_without_overlap(layout: PdfLayout) -> None:
    lines = [l for l in layout.lines if l.page == 0 and l.x0 > 300]  # the narrow, hyphenated one
    assert len(lines) >= 4  # pdfium joins hyphenated lines; read_layout splits them again
    for above, below in itertools.pairwise(lines):
        assert below.top >= above.bottom - 0.01


def test_words_index_into_chars(layout: PdfLayout) -> None:
    word = next(w for w in layout.words if w.text == "margin")
    assert "".join(c.char for c in layout.chars[word.start : word.end]) == "margin"
    assert word.top == pytest.approx(72, abs=1.0)


def test_inline_picture_box_and_content_hash(layout: PdfLayout) -> None:
    (img,) = layout.images
    assert img.page == 0
    assert (img.x1 - img.x0, img.bottom - img.top) == (pytest.approx(144, abs=0.5), pytest.approx(72, abs=0.5))
    assert 72 <= img.x0 <= 90  # left margin (LibreOffice adds a small indent on this paragraph)
    assert (img.width_px, img.height_px) == (200, 100)
    with zipfile.ZipFile(RENDER_FIXTURES / "known_layout.docx") as zf:
        original = Image.open(io.BytesIO(zf.read("word/media/image1.png"))).convert("RGB")
    assert img.phash is not None
    assert imagehash.hex_to_hash(img.phash) - imagehash.phash(original) <= 4
    assert img.top > _line(layout, "\uf0b7 Bullet beta").bottom - 1  # below the lists


def test_default_render_is_untagged(layout: PdfLayout) -> None:
    assert not layout.tagged
    assert layout.structure == [[], []]


def test_tagged_structure_lists_paragraphs_in_order(known_layout_tagged_pdf: RenderedPDF) -> None:
    layout = read_layout(known_layout_tagged_pdf.pdf_path, structure=True)
    assert layout.tagged
    roles = [e.raw_type for root in layout.structure[0] for e in root.iter()]
    assert roles[:2] == ["Document", "Standard"]
    assert "List Number" in roles and "List Bullet" in roles
    # The first paragraph's marked content holds exactly its characters.
    first_p = layout.structure[0][0].children[0]
    text = "".join(c.char for c in layout.chars_with_mcid(0, first_p.mcids[0]) if not c.generated)
    assert text == "Top margin paragraph starts here."


def test_tagging_does_not_move_text(known_layout_tagged_pdf: RenderedPDF, layout: PdfLayout) -> None:
    """Plain export is the default because tagging changes no position (only adds marks)."""
    tagged = read_layout(known_layout_tagged_pdf.pdf_path)
    assert [c[:6] for c in tagged.chars] == [c[:6] for c in layout.chars]


def test_column_reader_equals_the_per_character_loop(known_layout_pdf: RenderedPDF, layout: PdfLayout) -> None:
    """read_layout's column-wise character reader gives exactly what the one-character-
    at-a-time fallback gives (positions, bands, fonts, inferred spaces, line ends)."""
    import pypdfium2 as pdfium

    from artifactcheck.extractors.render.layout import _read_chars_loop

    doc = pdfium.PdfDocument(str(known_layout_pdf.pdf_path))
    try:
        slow: list[PdfChar] = []
        for index in range(len(doc)):
            page = doc[index]
            left, _, _, top = page.get_cropbox()
            _read_chars_loop(page, index, left, top, slow)
            page.close()
    finally:
        doc.close()
    assert len(layout.chars) > 300 and any(c.generated for c in layout.chars)
    assert layout.chars == slow
    # The numpy columns read_layout keeps from the reader = those computed from the chars.
    fresh = PdfLayout(layout.pages, list(layout.chars), [], [], False).columns
    for name in ("page", "x0", "top", "x1", "bottom", "generated", "newline", "line"):
        assert getattr(layout.columns, name).tolist() == getattr(fresh, name).tolist(), name


def _read_ctypes(pdf, sparse=None):  # type: ignore[no-untyped-def]
    """read_layout through the ctypes loop (the compiled one switched off), with the
    sampled text-object lookup replaced by ``sparse`` when given."""
    from artifactcheck.extractors.render import layout as layout_mod

    native, sparse_fn = layout_mod._NATIVE, layout_mod._object_addresses_sparse
    layout_mod._NATIVE = None
    layout_mod._object_addresses_sparse = sparse or sparse_fn
    try:
        return read_layout(pdf)
    finally:
        layout_mod._NATIVE, layout_mod._object_addresses_sparse = native, sparse_fn


def _layout_asking_every_character(pdf):  # type: ignore[no-untyped-def]
    """The ctypes loop with the sampled text-object lookup switched off (pdfium asked
    about every character, as before the sampling)."""
    return _read_ctypes(pdf, lambda tp_arg, d_list: None)


def _sampled_pages(pdf) -> int:  # type: ignore[no-untyped-def]
    from artifactcheck.extractors.render import layout as layout_mod

    sparse = layout_mod._object_addresses_sparse
    used = []

    def counting(tp_arg, d_list):  # type: ignore[no-untyped-def]
        out = sparse(tp_arg, d_list)
        used.append(out is not None)
        return out

    _read_ctypes(pdf, counting)
    return sum(used)


def _native_built() -> bool:
    from artifactcheck.extractors.render import layout as layout_mod

    return layout_mod._NATIVE is not None


def _same_layout(a: PdfLayout, b: PdfLayout) -> None:
    assert a.text == b.text
    assert a.chars == b.chars  # positions, bands, fonts, sizes, mcids
    for name in ("page", "x0", "top", "x1", "bottom", "generated", "newline", "line"):
        assert getattr(a.columns, name).tolist() == getattr(b.columns, name).tolist(), name
    assert a.images == b.images


def test_sampled_text_objects_equal_asking_every_character(known_layout_pdf: RenderedPDF) -> None:
    """The sampled lookup of each character's text object (design/rendering.md) took
    effect on the fixture and changed nothing."""
    pdf = known_layout_pdf.pdf_path
    assert _sampled_pages(pdf) >= 1
    truth = _layout_asking_every_character(pdf)
    _same_layout(_read_ctypes(pdf), truth)
    _same_layout(read_layout(pdf), truth)  # the C loop (test_c_loop_is_built)


def test_c_loop_is_built() -> None:
    """scripts/setup.sh installs a C compiler, so the README's install builds the optional
    ``_pdfium_loops`` (setup.py); without it every read takes the ctypes loop, ~0.6 ms a
    page slower, and the equality tests here compare that loop with itself."""
    assert _native_built()


@pytest.mark.parametrize(
    ("folder", "name", "sampled"),
    [
        ("docx", "tika_017097.docx", True),  # 15 dense pages
        ("docx", "poi_bug57031.docx", True),  # 14 pages
        ("pptx", "poi_stress021.pptx", False),  # right-to-left text on every page
        ("xlsx", "poi_right-to-left.xlsx", False),
    ],
)
def test_sampled_text_objects_on_corpus_renders(folder: str, name: str, sampled: bool, render_cache) -> None:  # type: ignore[no-untyped-def]
    from artifactcheck.extractors.render import render_pdf

    from ...conftest import corpus_file

    pdf = render_pdf(corpus_file(folder, name)).pdf_path
    assert (_sampled_pages(pdf) > 0) is sampled
    truth = _layout_asking_every_character(pdf)
    _same_layout(_read_ctypes(pdf), truth)
    _same_layout(read_layout(pdf), truth)  # the C loop


def test_sparse_lookup_reconstructs_runs_and_refuses_a_split_object(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bisection finds runs shorter than the sampling stride, and gives up (None:
    ask every character) when an object shows up in two runs."""
    import numpy as np

    from artifactcheck.extractors.render import layout as layout_mod

    truth = [7] * 40 + [8] * 3 + [9] * 1 + [10] * 100 + [11] * 33 + [12]
    monkeypatch.setattr(layout_mod, "_FAST_TEXT_OBJECT_ADDR", lambda tp, i: truth[i])
    got = layout_mod._object_addresses_sparse(0, list(range(len(truth))))
    assert got is not None and got.tolist() == truth
    split = [7] * 40 + [8] * 40 + [7] * 40  # bidi reordering can do this
    monkeypatch.setattr(layout_mod, "_FAST_TEXT_OBJECT_ADDR", lambda tp, i: split[i])
    assert layout_mod._object_addresses_sparse(0, list(range(len(split)))) is None
    assert layout_mod._has_rtl(np.array([ord(c) for c in "abc \u05d0"], dtype=np.uint32))
    assert not layout_mod._has_rtl(np.array([ord(c) for c in "abc \u0416\u4e2d"], dtype=np.uint32))


def test_page_image_pixel_mapping(known_layout_pdf: RenderedPDF, layout: PdfLayout) -> None:
    dpi = 100
    img = page_image(known_layout_pdf.pdf_path, 0, dpi=dpi)
    assert img.size == (round(pt_to_px(612, dpi)), round(pt_to_px(792, dpi)))
    assert px_to_pt(pt_to_px(123.4, dpi), dpi) == pytest.approx(123.4)
    # The picture's red square (left half) is where its box says.
    pic = layout.images[0]
    x = pt_to_px(pic.x0 + 0.25 * (pic.x1 - pic.x0), dpi)
    y = pt_to_px((pic.top + pic.bottom) / 2, dpi)
    r, g, b = img.getpixel((int(x), int(y)))
    assert r > 150 and g < 100 and b < 100
    # Blank margin is white.
    assert img.getpixel((5, 5)) == (255, 255, 255)


def test_page_images_for_pptx_and_xlsx(deck_pdf: RenderedPDF, book_pdf: RenderedPDF) -> None:
    slides = list(page_images(RENDER_FIXTURES / "deck.pptx", dpi=72))
    assert [s.size for s in slides] == [(720, 540)]  # 10 x 7.5 inch slide at 72 dpi
    pages = list(page_images(RENDER_FIXTURES / "book.xlsx", dpi=50))
    assert len(pages) >= 1
    assert read_layout(book_pdf.pdf_path).text.count("North") == 1


def test_numbers_in_cells_one_above_the_other_are_separate_words(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """pdfium puts no break between two right-aligned numbers in consecutive rows: the
    second starts below the first without moving left. They were one word ("45291.57");
    both character readers now start a line there."""
    import openpyxl
    import pypdfium2 as pdfium

    from artifactcheck.extractors.render import render_pdf
    from artifactcheck.extractors.render.layout import _read_chars_loop

    wb = openpyxl.Workbook()
    ws = wb.active
    values = [112.33333333333333, 2 / 3, -1 / 7, 1234567.891, 98765.4321, 0.000123456, 1e15, 123456789012, -0.5,
              33.333333333333336, 1 / 3 * 100, 45291.5, 7.0000001, 2.675]  # fmt: skip
    for row, value in enumerate(values, start=1):
        ws.cell(row, 1, value)  # 7.0000001 shows "7"
    for row, value in enumerate([10, 20, 7], start=1):
        ws.cell(row, 3, value)
    path = tmp_path / "column.xlsx"
    wb.save(path)
    pdf = render_pdf(path).pdf_path
    layout = read_layout(pdf)
    words = [w.text for w in layout.words]
    assert "45291.5" in words and "7" in words and "45291.57" not in words
    doc = pdfium.PdfDocument(str(pdf))
    try:
        slow: list[PdfChar] = []
        page = doc[0]
        left, _, _, top = page.get_cropbox()
        _read_chars_loop(page, 0, left, top, slow)
        page.close()
    finally:
        doc.close()
    assert layout.chars == slow
