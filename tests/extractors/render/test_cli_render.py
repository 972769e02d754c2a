"""``artifactcheck render FILE --out DIR``: page PNGs with node boxes drawn by kind."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from artifactcheck import load
from artifactcheck.cli import app
from artifactcheck.extractors.render import RenderedPDF, pt_to_px
from artifactcheck.extractors.render.draw import KIND_COLOURS

from .conftest import RENDER_FIXTURES

pytestmark = pytest.mark.slow


def _has_colour_near(img: Image.Image, x: float, y: float, colour: tuple[int, int, int], r: int = 3) -> bool:
    for dx in range(-r, r + 1):
        for dy in range(-r, r + 1):
            if img.getpixel((int(x) + dx, int(y) + dy)) == colour:
                return True
    return False


def test_render_docx_draws_paragraph_boxes(known_layout_pdf: RenderedPDF, tmp_path: Path) -> None:
    out = tmp_path / "pages"
    result = CliRunner().invoke(app, ["render", str(RENDER_FIXTURES / "known_layout.docx"), "--out", str(out), "--dpi", "72"])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.png"))
    assert [f.name for f in files] == ["page-001.png", "page-002.png"]
    img = Image.open(files[0]).convert("RGB")
    assert img.size == (612, 792)
    doc = load(RENDER_FIXTURES / "known_layout.docx")
    para = next(n for n in doc.root.descendants("paragraph") if n.text.startswith("Top margin"))
    box = para.boxes[0]
    # The paragraph's outline is drawn in the paragraph colour at its top-left corner.
    assert _has_colour_near(img, pt_to_px(box.x0, 72), pt_to_px(box.top, 72), KIND_COLOURS["paragraph"])


def test_render_pptx_draws_frames_native_and_text_where_drawn(deck_pdf: RenderedPDF, tmp_path: Path) -> None:
    """The text box's frame is outlined where LibreOffice draws it: the file puts it 1
    inch in, 6 inches wide, but it "resizes to fit its text" (python-pptx's text box), so
    it is drawn around its centred line, 1 inch down; its paragraph where the text is."""
    from artifactcheck import load

    out = tmp_path / "slides"
    result = CliRunner().invoke(app, ["render", str(RENDER_FIXTURES / "deck.pptx"), "--out", str(out), "--dpi", "72"])
    assert result.exit_code == 0, result.output
    (png,) = sorted(out.glob("*.png"))
    img = Image.open(png).convert("RGB")
    doc = load(RENDER_FIXTURES / "deck.pptx")
    doc.ensure_layout()
    frame = doc.select_one("textbox")
    assert frame is not None and frame.box is not None and frame.box.top == 72 and frame.box.x0 > 200
    frame_colour = KIND_COLOURS.get("textbox", _default_colour())
    assert _has_colour_near(img, frame.box.x0, frame.box.top, frame_colour)
    assert not _has_colour_near(img, 72, 72, frame_colour)  # not the file's stated corner
    para = doc.select_one("paragraph")
    assert para is not None and para.box is not None and para.box.origin == "layout" and para.box.x0 > 100
    assert _has_colour_near(img, para.box.x0, para.box.top, KIND_COLOURS["paragraph"])


def _default_colour() -> tuple[int, int, int]:
    from artifactcheck.extractors.render.draw import _DEFAULT_COLOUR

    return _DEFAULT_COLOUR


def test_render_xlsx_writes_pages(book_pdf: RenderedPDF, tmp_path: Path) -> None:
    out = tmp_path / "sheet"
    result = CliRunner().invoke(app, ["render", str(RENDER_FIXTURES / "book.xlsx"), "--out", str(out), "--dpi", "40"])
    assert result.exit_code == 0, result.output
    assert len(list(out.glob("*.png"))) >= 1


def test_render_bad_file_is_one_error_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.docx"
    bad.write_bytes(b"not a document")
    result = CliRunner().invoke(app, ["render", str(bad), "--out", str(tmp_path / "x")])
    assert result.exit_code == 2
    assert "bad.docx" in result.output and "Traceback" not in result.output
