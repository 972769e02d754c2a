"""Partial ``a:xfrm`` on placeholders: position and size are inherited independently.

python-pptx writes a lone ``<a:off>`` when an agent moves an inherited placeholder
(``shape.top = ...``) and a lone ``<a:ext>`` when it resizes one. Every combination of
the slide's and the layout's xfrm parts is built, and the frame the extractor reports is
compared with the expected one and with where LibreOffice draws the text."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from pptx import Presentation
from pptx.util import Inches

from artifactcheck.extractors.pptx.extract import extract_pptx
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.model import Document, Node

from .agent_decks import A, XfrmCase, build_xfrm_deck, png_bytes, save, xfrm_cases

EMU_PER_PT = 12700.0
P = "http://schemas.openxmlformats.org/presentationml/2006/main"
CASES = xfrm_cases()


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[XfrmCase]]:
    path = tmp_path_factory.mktemp("xfrm") / "xfrm.pptx"
    return path, build_xfrm_deck(path)


@pytest.fixture(scope="module")
def doc(deck: tuple[Path, list[XfrmCase]]) -> Document:
    return extract_pptx(deck[0])


def _body(doc: Document, index: int) -> Node:
    slide = doc.root.children[index]
    return next(n for n in slide.children if n.attrs.get("placeholder_idx") == "1")


@pytest.mark.parametrize("index", range(len(CASES)), ids=[f"{c.layout}-{c.slide}-{c.anchor}" for c in CASES])
def test_frame_takes_position_and_size_independently(doc: Document, index: int) -> None:
    case = CASES[index]
    body = _body(doc, index)
    x, y, cx, cy = (v / EMU_PER_PT for v in case.expected)
    box = body.box
    assert box is not None, body.attrs
    assert (box.x0, box.top, box.width, box.height) == pytest.approx((x, y, cx, cy), abs=0.01)
    # Where each part came from, when not from the slide.
    slide_off = case.slide in ("off", "both")
    slide_ext = case.slide in ("ext", "both")
    assert body.attrs.get("position_from") == (None if slide_off else "layout" if case.layout in ("off", "both") else "master")
    assert body.attrs.get("size_from") == (None if slide_ext else "layout" if case.layout in ("ext", "both") else "master")


@pytest.mark.slow
def test_libreoffice_draws_every_combination_where_the_tree_says(deck: tuple[Path, list[XfrmCase]], doc: Document) -> None:
    """Anchor ``t`` + left: the text starts at the frame's top-left plus the insets
    (7.2 pt, 3.6 pt); anchor ``b`` + centred: the text is centred on the frame and ends
    at its bottom inset."""
    layout = read_layout(render_pdf(deck[0]).pdf_path)
    lines = {ln.text.strip(): ln for ln in layout.lines}
    wrong = []
    for index, case in enumerate(CASES):
        line = lines[case.marker]
        assert line.page == index
        box = _body(doc, index).box
        assert box is not None
        if case.anchor == "t":
            drawn, want = (line.x0, line.top), (box.x0 + 7.2, box.top + 3.6)
        else:
            drawn, want = ((line.x0 + line.x1) / 2, line.bottom), ((box.x0 + box.x1) / 2, box.bottom - 3.6)
        if abs(drawn[0] - want[0]) > 1.0 or abs(drawn[1] - want[1]) > 3.0:
            wrong.append(f"{case}: drawn at {drawn}, tree frame says {want}")
    assert not wrong, "\n".join(wrong)


def test_title_moved_to_the_bottom_reads_as_at_the_bottom(tmp_path: Path) -> None:
    """The bug report: ``title.top = Inches(6)`` used to keep the layout's position."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    slide.shapes.title.text = "Quarterly Review"
    slide.shapes.title.top = Inches(6)
    path = tmp_path / "moved.pptx"
    save(prs, path)
    title = extract_pptx(path).select_one("shape[placeholder_type=title]")
    assert title is not None and title.box is not None
    # python-pptx writes <a:off x="0" y="5486400"/>: x is 0, the size is the layout's.
    assert (title.box.x0, title.box.top) == (0.0, 432.0)
    assert title.box.width == pytest.approx(8229600 / EMU_PER_PT)
    # The template's "Title and Content" title has no xfrm of its own: the master's size.
    assert title.attrs["size_from"] == "master" and "position_from" not in title.attrs


def _group_deck(path: Path) -> Path:
    """One slide per entry of :data:`GROUP_MEMBER`: a group whose own xfrm is cut down
    to those parts (chOff/chExt kept), holding a wrapping text box at (2 in, 1 in),
    2 x 1 in."""
    prs = Presentation()
    for parts in GROUP_MEMBER:
        slide = prs.slides.add_slide(prs.slide_layouts[6])
        group = slide.shapes.add_group_shape()
        member = group.shapes.add_textbox(Inches(2), Inches(1), Inches(2), Inches(1))
        member.text = "member"
        member.text_frame.word_wrap = True
        xfrm = group._element.grpSpPr.find(f"{{{A}}}xfrm")
        for name in ("off", "ext"):
            if name not in parts:
                xfrm.remove(xfrm.find(f"{{{A}}}{name}"))
    return save(prs, path)


# Where LibreOffice draws the member (x0, top, x1, bottom, pt): a missing off is (0, 0),
# a missing ext is 0 x 0 (the member squeezed to nothing at the group's offset).
GROUP_MEMBER = {
    "off+ext": (144.0, 72.0, 288.0, 144.0),
    "off": (144.0, 72.0, 144.0, 72.0),
    "ext": (0.0, 0.0, 144.0, 72.0),
    "": (0.0, 0.0, 0.0, 0.0),
}


@pytest.fixture(scope="module")
def group_deck(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _group_deck(tmp_path_factory.mktemp("groups") / "groups.pptx")


@pytest.mark.parametrize("index", range(len(GROUP_MEMBER)), ids=[p or "none" for p in GROUP_MEMBER])
def test_group_without_part_of_its_xfrm_takes_the_default(group_deck: Path, index: int) -> None:
    """A group has nothing to inherit: a missing off/ext is CT_Transform2D's default."""
    member = extract_pptx(group_deck).root.children[index].select_one("group textbox")
    assert member is not None and member.box is not None
    b = member.box
    assert (b.x0, b.top, b.x1, b.bottom) == pytest.approx(list(GROUP_MEMBER.values())[index])


@pytest.mark.slow
def test_libreoffice_draws_group_members_where_the_tree_says(group_deck: Path) -> None:
    lines = read_layout(render_pdf(group_deck).pdf_path).lines
    for index, (parts, (x0, top, _x1, _bottom)) in enumerate(GROUP_MEMBER.items()):
        line = next(ln for ln in lines if ln.page == index)
        # The text starts ~4 pt below the member's top (inset and band); at its left
        # inset (7.2 pt), or at its edge when it is squeezed to zero width.
        assert abs(line.top - (top + 4.0)) < 1.0, (parts, line)
        assert abs(line.x0 - x0) < 8.0, (parts, line)


def test_picture_placeholder_with_a_lone_offset(tmp_path: Path) -> None:
    """A picture inserted into a picture placeholder, then moved: the same rule."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[8])  # Picture with Caption
    ph = next(p for p in slide.placeholders if p.placeholder_format.idx == 1)
    picture = ph.insert_picture(png_bytes())
    # insert_picture gives the picture a full xfrm; cut it to a lone offset as .top does.
    xfrm = picture._element.spPr.find(f"{{{A}}}xfrm")
    if xfrm is not None:
        picture._element.spPr.remove(xfrm)
    picture.top = Inches(5)
    path = tmp_path / "picture.pptx"
    save(prs, path)
    image = extract_pptx(path).select_one("image")
    assert image is not None and image.box is not None
    assert image.box.top == 360.0 and image.box.width == pytest.approx(5486400 / EMU_PER_PT)
    assert image.attrs["size_from"] == "layout"


def test_graphic_frame_placeholder_with_a_lone_offset(tmp_path: Path) -> None:
    """A table in the content placeholder (as PowerPoint writes one: a graphic frame
    with the placeholder's idx), moved down with only ``p:xfrm/a:off`` left."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[1])
    ph = next(p for p in slide.placeholders if p.placeholder_format.idx == 1)
    ph._element.getparent().remove(ph._element)
    frame = slide.shapes.add_table(2, 2, Inches(1), Inches(4), Inches(3), Inches(1))
    nv_pr = frame._element.find(f"{{{P}}}nvGraphicFramePr/{{{P}}}nvPr")
    nv_pr.insert(0, etree.Element(f"{{{P}}}ph", idx="1"))
    xfrm = frame._element.find(f"{{{P}}}xfrm")
    xfrm.remove(xfrm.find(f"{{{A}}}ext"))
    path = tmp_path / "table.pptx"
    save(prs, path)
    table = extract_pptx(path).select_one("table")
    assert table is not None and table.box is not None
    assert (table.box.x0, table.box.top) == (72.0, 288.0)
    assert table.box.width == pytest.approx(8229600 / EMU_PER_PT)
    assert table.attrs["size_from"] == "master"  # the layout's content placeholder has no xfrm either
    first = table.select_one("cell")
    assert first is not None and first.box is not None and first.box.top == 288.0


@pytest.mark.parametrize(
    ("cut", "want"),
    [("ext", (144.0, 216.0, 144.0, 216.0)), ("xfrm", (0.0, 0.0, 0.0, 0.0))],
)
def test_non_placeholder_without_position_or_size_takes_the_default(tmp_path: Path, cut: str, want: tuple[float, ...]) -> None:
    """LibreOffice draws a text box without a:ext as a zero-size frame at its offset,
    and one without any xfrm at (0, 0), its text growing around that point."""
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    box = slide.shapes.add_textbox(Inches(2), Inches(3), Inches(2), Inches(1))
    box.text = "sizeless"
    xfrm = box._element.spPr.find(f"{{{A}}}xfrm")
    if cut == "ext":
        xfrm.remove(xfrm.find(f"{{{A}}}ext"))
    else:
        box._element.spPr.remove(xfrm)
    path = tmp_path / "sizeless.pptx"
    save(prs, path)
    node = extract_pptx(path).select_one("textbox")
    assert node is not None and node.box is not None
    assert (node.box.x0, node.box.top, node.box.x1, node.box.bottom) == want
    assert node.attrs["size_from"] == "default"
    assert node.attrs.get("position_from") == (None if cut == "ext" else "default")


def test_placeholder_without_position_anywhere_has_no_box(corpus: Path) -> None:
    """unstructured's malformed deck: LibreOffice draws that placeholder 10 m off the
    slide; the tree says it is not drawn rather than invent a place."""
    doc = extract_pptx(corpus / "bad" / "unstructured_fake-power-point-malformed.pptx")
    date = doc.get("s0/sh0")
    assert date.boxes == [] and date.attrs["rendered"] is False
