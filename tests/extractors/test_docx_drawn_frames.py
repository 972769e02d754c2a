"""Word text boxes and shapes are boxed by the frame drawn for them. Agents paste
DrawingML (``wps:wsp``) into a run for a banner or a pair of "fact boxes"; their boxes
were the union of their text (two 180 x 108 pt boxes "differed in size") or nothing at
all (a banner "covered 0%" of the page, a circle off the page "lay within" it). The truth
is the page image: the fill colour inside each box, and the page outside it."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from lxml import etree

from artifactcheck import load, run_check
from artifactcheck.extractors.render import render_pdf
from artifactcheck.model import Box
from tests.extractors.rendered_look import background, same_color

pytestmark = pytest.mark.slow

EMU = 914400
NS = (
    'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"'
)


def _drawing(n: int, x: float, y: float, w: float, h: float, fill: str, *, geometry: str = "rect", text: str | None = None) -> etree._Element:
    """A floating wps shape placed against the page (inches), as agents paste it."""
    cx, cy = int(w * EMU), int(h * EMU)
    body = (
        f"<wps:txbx><w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent></wps:txbx>" if text else ""
    )
    tx_box = ' txBox="1"' if text else ""
    line = '<a:ln w="12700"><a:solidFill><a:srgbClr val="1F3864"/></a:solidFill></a:ln>' if text else "<a:ln><a:noFill/></a:ln>"
    return etree.fromstring(
        f'<w:r {NS}><w:drawing><wp:anchor distT="0" distB="0" distL="0" distR="0" simplePos="0" relativeHeight="{251650000 + n}" '
        f'behindDoc="{0 if text else 1}" locked="0" layoutInCell="1" allowOverlap="1"><wp:simplePos x="0" y="0"/>'
        f'<wp:positionH relativeFrom="page"><wp:posOffset>{int(x * EMU)}</wp:posOffset></wp:positionH>'
        f'<wp:positionV relativeFrom="page"><wp:posOffset>{int(y * EMU)}</wp:posOffset></wp:positionV>'
        f'<wp:extent cx="{cx}" cy="{cy}"/><wp:effectExtent l="0" t="0" r="0" b="0"/><wp:wrapNone/>'
        f'<wp:docPr id="{900 + n}" name="Shape {n}"/><wp:cNvGraphicFramePr/><a:graphic>'
        '<a:graphicData uri="http://schemas.microsoft.com/office/word/2010/wordprocessingShape"><wps:wsp>'
        f'<wps:cNvSpPr{tx_box}/><wps:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="{cx}" cy="{cy}"/></a:xfrm>'
        f'<a:prstGeom prst="{geometry}"><a:avLst/></a:prstGeom><a:solidFill><a:srgbClr val="{fill}"/></a:solidFill>{line}</wps:spPr>'
        f'{body}<wps:bodyPr><a:noAutofit/></wps:bodyPr></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></w:r>'
    )


@pytest.fixture(scope="module")
def flyer(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = docx.Document()
    title = d.add_paragraph("Quarterly Review")
    title._p.append(_drawing(0, 0, 0, 8.5, 1.2, "1F4E79"))  # the banner behind the title
    facts = d.add_paragraph("Highlights")
    facts._p.append(_drawing(1, 1.0, 1.5, 2.5, 1.5, "DDEEFF", text="Revenue up"))
    facts._p.append(_drawing(2, 4.5, 1.5, 2.5, 1.5, "DDEEFF", text="Customers: 1,204 new accounts this quarter, a record"))
    facts._p.append(_drawing(3, 3.0, 10.3, 2.0, 2.0, "C00000", geometry="ellipse"))  # hangs off the bottom
    for _ in range(4):
        d.add_paragraph("Body text of the review. " * 12)
    path = tmp_path_factory.mktemp("frames") / "flyer.docx"
    d.save(str(path))
    return path


def test_each_frame_is_boxed_where_its_fill_is_drawn(flyer: Path) -> None:
    doc = load(flyer)
    pdf = render_pdf(flyer).pdf_path
    frames = doc.select("shape, textbox")
    assert len(frames) == 4
    fills = {"Shape 0": "#1f4e79", "Shape 1": "#ddeeff", "Shape 2": "#ddeeff", "Shape 3": "#c00000"}
    for node in frames:
        fill = fills[node.attrs["name"]]
        assert node.boxes, (node.id, node.attrs)
        b = node.box
        middle = Box(page=b.page, x0=(b.x0 + b.x1) / 2 - 3, top=b.top + 3, x1=(b.x0 + b.x1) / 2 + 3, bottom=b.top + 6)
        assert same_color(background(pdf, middle), fill, tolerance=4), (node.id, background(pdf, middle))
        if b.bottom < 780:  # the page just below the frame is white
            below = Box(page=b.page, x0=b.x0 + 4, top=b.bottom + 2, x1=b.x0 + 12, bottom=b.bottom + 5)
            assert same_color(background(pdf, below), "#ffffff", tolerance=4), (node.id, background(pdf, below))
        assert abs(b.width - node.attrs["width"]) < 2.5 and abs(b.height - node.attrs["height"]) < 2.5


def test_placement_checks_judge_the_frames(flyer: Path) -> None:
    doc = load(flyer)
    same = run_check("same_size", doc, {"target": {"selector": "textbox", "text": "Revenue|Customers", "match": "regex"}})
    assert same.status == "pass", same.explanation
    banner = run_check("page_coverage", doc, {"target": {"selector": "shape", "nth": 0}, "page": 0, "min_fraction": 0.1, "max_fraction": 0.12})
    assert banner.status == "pass", banner.explanation  # 612 x 86.4 of 612 x 792: 10.9%
    top = run_check("in_region", doc, {"target": {"selector": "shape", "nth": 0}, "region": "top 15%", "page": 0})
    assert top.status == "pass", top.explanation
    off = run_check("within_page", doc, {"target": "shape"})
    assert off.status == "fail" and off.evidence["outside"][0]["beyond_pt"]["bottom"] > 80, off.explanation
