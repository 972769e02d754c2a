"""A python-pptx table's header text: bold or not is what LibreOffice draws. python-pptx
writes an empty tableStyles.xml, so LibreOffice draws the default style from its own
predefined copy, header text regular; a deck that carries PowerPoint's definition
(``a:tcTxStyle b="on"`` in firstRow, as PowerPoint writes it) is drawn with the header
bold. Read from the fonts of the render's characters, not from our tree."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from pptx import Presentation
from pptx.util import Inches

from artifactcheck import load, run_check
from artifactcheck.extractors.drawingml.color import A_NS
from artifactcheck.extractors.render import read_layout, render_pdf

from .agent_decks import save

pytestmark = pytest.mark.slow

STYLE_ID = "{5C22544A-7EE6-4342-B048-85BDC9FD1C3A}"  # Medium Style 2 - Accent 1
# PowerPoint's firstRow of that style, as it writes it into tableStyles.xml.
POWERPOINT_STYLES = (
    f'<a:tblStyleLst xmlns:a="{A_NS}" def="{STYLE_ID}"><a:tblStyle styleId="{STYLE_ID}" styleName="Medium Style 2 - Accent 1">'
    '<a:wholeTbl><a:tcTxStyle><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="dk1"/></a:tcTxStyle>'
    '<a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"><a:tint val="20000"/></a:schemeClr></a:solidFill></a:fill></a:tcStyle></a:wholeTbl>'
    '<a:firstRow><a:tcTxStyle b="on"><a:fontRef idx="minor"><a:prstClr val="black"/></a:fontRef><a:schemeClr val="lt1"/></a:tcTxStyle>'
    '<a:tcStyle><a:tcBdr/><a:fill><a:solidFill><a:schemeClr val="accent1"/></a:solidFill></a:fill></a:tcStyle></a:firstRow>'
    "</a:tblStyle></a:tblStyleLst>"
)


def _deck(path: Path, *, with_definition: bool) -> Path:
    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    table = slide.shapes.add_table(3, 2, Inches(1), Inches(1), Inches(6), Inches(2)).table
    for r in range(3):
        for c in range(2):
            table.cell(r, c).text = f"Head{c}" if r == 0 else f"v{r}{c}"
    save(prs, path)
    if with_definition:
        plain = path.read_bytes()
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(plain)
        with zipfile.ZipFile(tmp) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
            for item in zin.infolist():
                data = POWERPOINT_STYLES.encode() if item.filename == "ppt/tableStyles.xml" else zin.read(item.filename)
                zout.writestr(item, data)
        tmp.unlink()
    return path


@pytest.mark.parametrize("with_definition", [False, True], ids=["python-pptx", "powerpoint-definition"])
def test_header_bold_is_what_the_render_draws(tmp_path: Path, with_definition: bool) -> None:
    path = _deck(tmp_path / "table.pptx", with_definition=with_definition)
    chars = read_layout(render_pdf(path).pdf_path, images=False).chars
    header_fonts = {c.font for c in chars if c.char in "Head" and not c.generated}
    body_fonts = {c.font for c in chars if c.char == "v" and not c.generated}
    drawn_bold = all("bold" in f.lower() for f in header_fonts)
    assert header_fonts and drawn_bold == with_definition, header_fonts
    assert not any("bold" in f.lower() for f in body_fonts)

    doc = load(path)
    head = [r for r in doc.iter("run") if r.text.startswith("Head")]
    assert len(head) == 2 and all(r.style is not None and r.style.bold is drawn_bold for r in head)
    verdict = run_check("format_is", doc, {"target": {"selector": "run", "text": "Head"}, "bold": True}).status
    assert verdict == ("pass" if drawn_bold else "fail")
