"""One picture file placed several times: a logo and the same file as a watermark, the
logo in both top corners. Every copy has the same pixels, so the render alone cannot say
which placement is which; LibreOffice draws floating pictures in its own order, and the
copies got each other's boxes (the logo was "centred at (306, 396)", the watermark's
place). The truth is the same document with each copy's pixels made unique by one pixel:
there every placement is told apart, and the repeated file must be boxed the same."""

from __future__ import annotations

import copy
from pathlib import Path

import docx
import pytest
from docx.oxml.ns import qn
from docx.shared import Inches
from lxml import etree
from PIL import Image

from artifactcheck import load, run_check

pytestmark = pytest.mark.slow

WP = "http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"


def _float(run, picture: Path, width: float, horizontal: tuple[str, str], vertical: tuple[str, str], behind: bool = False) -> None:  # type: ignore[no-untyped-def]
    """add_picture, then the wp:inline rebuilt as a wp:anchor by hand (what agents do:
    python-docx has no floating pictures). ``horizontal``/``vertical``: (relativeFrom,
    align)."""
    run.add_picture(str(picture), width=Inches(width))
    inline = run._r.findall(".//" + qn("wp:inline"))[-1]
    anchor = etree.fromstring(
        f'<wp:anchor xmlns:wp="{WP}" distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="251659264" '
        f'behindDoc="{int(behind)}" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
        f'<wp:positionH relativeFrom="{horizontal[0]}"><wp:align>{horizontal[1]}</wp:align></wp:positionH>'
        f'<wp:positionV relativeFrom="{vertical[0]}"><wp:align>{vertical[1]}</wp:align></wp:positionV></wp:anchor>'
    )
    anchor.append(copy.deepcopy(inline.find(qn("wp:extent"))))
    anchor.append(etree.fromstring(f'<wp:wrapNone xmlns:wp="{WP}"/>'))
    for tag in ("wp:docPr", "wp:cNvGraphicFramePr", "a:graphic"):
        element = inline.find(qn(tag))
        if element is not None:
            anchor.append(copy.deepcopy(element))
    inline.getparent().replace(inline, anchor)


def _letterhead(folder: Path, *, unique: bool) -> Path:
    """The logo inline at the top, the same file as a centred watermark and in both top
    corners; ``unique``: each copy differs from the others by one pixel."""
    def copy_of(n: int) -> Path:
        img = Image.new("RGB", (200, 100), (20, 70, 150))
        img.paste((240, 200, 40), (20, 20, 80, 80))
        if unique:
            img.putpixel((199, 99), (n, n, n))
        path = folder / f"logo{n if unique else ''}.png"
        img.save(path)
        return path

    d = docx.Document()
    d.add_paragraph().add_run().add_picture(str(copy_of(1)), width=Inches(1.5))
    _float(d.add_paragraph("Annual letter").add_run(), copy_of(2), 5.0, ("page", "center"), ("page", "center"), behind=True)
    corners = d.add_paragraph()
    _float(corners.add_run(), copy_of(3), 1.0, ("margin", "left"), ("margin", "bottom"))
    _float(corners.add_run(), copy_of(4), 1.0, ("margin", "right"), ("margin", "bottom"))
    for _ in range(4):
        d.add_paragraph("Thank you for a wonderful year together. " * 4)
    path = folder / ("unique.docx" if unique else "repeated.docx")
    d.save(str(path))
    return path


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("repeated")
    return _letterhead(folder, unique=True), _letterhead(folder, unique=False)


def test_each_copy_of_one_file_is_boxed_where_it_is_drawn(pair: tuple[Path, Path]) -> None:
    unique, repeated = (load(p) for p in pair)
    truth = {im.id: im.box for im in unique.select("image")}
    got = {im.id: im.box for im in repeated.select("image")}
    assert len(truth) == 4 and set(got) == set(truth)
    xs = sorted(round(b.x0) for b in truth.values())
    assert len(set(xs)) == 4, xs  # four different places: a swap would show
    for node_id, box in truth.items():
        other = got[node_id]
        assert (other.page, round(other.x0, 1), round(other.top, 1), round(other.width, 1)) == (
            box.page, round(box.x0, 1), round(box.top, 1), round(box.width, 1)
        ), node_id


def test_the_logo_is_upper_left_though_its_file_is_also_the_watermark(pair: tuple[Path, Path]) -> None:
    doc = load(pair[1])
    verdict = run_check("in_region", doc, {"target": {"selector": "image", "nth": 0}, "region": "upper-left", "page": 0})
    assert verdict.status == "pass", verdict.explanation
