"""``within_page`` on a .docx: a full-page background is drawn from y -0.05 (one twip of
LibreOffice's placement) and stays on the page; a shape the layout could not locate is
not "within" anything: the check cannot see it, and says so (``error``), instead of
passing "all 0 boxes"."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from tests.extractors.test_docx_drawn_frames import _drawing
from tests.extractors.test_docx_repeated_pictures import _float

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def certificate(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("within")
    Image.new("RGB", (85, 110), (250, 240, 200)).save(folder / "paper.png")
    d = docx.Document()
    _float(d.add_paragraph().add_run(), folder / "paper.png", 8.5, ("page", "left"), ("page", "top"), behind=True)
    d.add_paragraph("Certificate of Completion")
    path = folder / "certificate.docx"
    d.save(str(path))
    return path


def test_a_full_page_background_stays_on_the_page(certificate: Path) -> None:
    (placement,) = read_layout(render_pdf(certificate).pdf_path).images
    assert -0.1 < placement.top < 0 or 792 < placement.bottom < 792.1 or placement.x1 > 612  # drawn a twip off
    verdict = run_check("within_page", load(certificate), {"target": "image"})
    assert verdict.status == "pass", verdict.explanation


def test_a_shape_that_was_not_located_is_an_error(tmp_path: Path) -> None:
    d = docx.Document()
    p = d.add_paragraph("A note")
    shape = _drawing(7, 1.0, 1.0, 2.0, 1.0, "C00000", geometry="ellipse")
    # placed against the character it follows: nothing states where, so nothing locates it
    for tag in ("positionH", "positionV"):
        pos = shape.find(".//{http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing}" + tag)
        pos.set("relativeFrom", "character" if tag == "positionH" else "line")
    p._p.append(shape)
    path = tmp_path / "note.docx"
    d.save(str(path))
    doc = load(path)
    (node,) = doc.select("shape")
    if node.boxes:
        pytest.skip("the shape was located after all")
    verdict = run_check("within_page", doc, {"target": "shape"})
    assert verdict.status == "error" and "not located" in verdict.explanation, verdict.explanation
    placed = run_check("in_region", doc, {"target": "shape", "region": "top half", "page": 0})
    assert placed.status == "error", placed.explanation
