"""EPUB files written with zipfile, the way an EPUB 3 writer lays them out (the
``mimetype`` member first and stored, ``META-INF/container.xml``, an OPF with manifest
and spine, XHTML chapters, an EPUB 2 ``toc.ncx``), and broken variants of them."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

from PIL import Image

CONTAINER = """<?xml version="1.0" encoding="UTF-8"?>
<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles><rootfile full-path="{opf}" media-type="application/oebps-package+xml"/></rootfiles>
</container>"""

XHTML = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" lang="en">
<head><title>{title}</title><style>p {{ margin: 0 }}</style></head>
<body>
{body}
</body></html>"""

CHAPTER_1 = """<h1>Chapter One</h1>
<p>It was a <b>bright</b> cold day in <i>April</i>, and the clocks
   were striking thirteen.</p>
<p>See <a href="https://example.org/notes">the notes</a> and H<sub>2</sub>O.</p>
<ul><li>First point</li><li>Second point<ol><li>Nested step</li></ol></li></ul>
<p><img src="../images/logo.png" alt="Publisher logo"/></p>"""

CHAPTER_2 = """<section epub:type="chapter"><h2>Chapter Two</h2>
<p>Line one<br/>line two &amp; more.</p>
<table><tr><th>Name</th><th>Score</th></tr><tr><td>Ann</td><td>12</td></tr></table>
</section>"""


def png(colour: tuple[int, int, int] = (30, 90, 200)) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (40, 20), colour).save(buf, "PNG")
    return buf.getvalue()


def opf(items: list[tuple[str, str, str]], spine: list[str], *, title: str = "A Test Book") -> str:
    manifest = "\n".join(f'<item id="{i}" href="{h}" media-type="{t}"/>' for i, h, t in items)
    refs = "\n".join(f'<itemref idref="{i}"/>' for i in spine)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="uid">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="uid">urn:uuid:12345678-1234-1234-1234-123456789abc</dc:identifier>
    <dc:title>{title}</dc:title><dc:language>en</dc:language>
  </metadata>
  <manifest>{manifest}</manifest>
  <spine toc="ncx">{refs}</spine>
</package>"""


def book_members(chapters: list[str] | None = None, *, title: str = "A Test Book") -> dict[str, bytes | str]:
    """The members of a good EPUB 3 (``OEBPS/`` layout), mimetype first."""
    chapters = chapters if chapters is not None else [CHAPTER_1, CHAPTER_2]
    items = [(f"ch{k + 1}", f"text/ch{k + 1}.xhtml", "application/xhtml+xml") for k in range(len(chapters))]
    items += [("logo", "images/logo.png", "image/png"), ("ncx", "toc.ncx", "application/x-dtbncx+xml")]
    members: dict[str, bytes | str] = {
        "mimetype": "application/epub+zip",
        "META-INF/container.xml": CONTAINER.format(opf="OEBPS/content.opf"),
        "OEBPS/content.opf": opf(items, [f"ch{k + 1}" for k in range(len(chapters))], title=title),
        "OEBPS/toc.ncx": '<?xml version="1.0"?><ncx xmlns="http://www.daisy.org/z3986/2005/ncx/" version="2005-1"><navMap/></ncx>',
        "OEBPS/images/logo.png": png(),
    }
    for k, body in enumerate(chapters):
        members[f"OEBPS/text/ch{k + 1}.xhtml"] = XHTML.format(title=f"Chapter {k + 1}", body=body)
    return members


def write_epub(path: Path, members: dict[str, bytes | str]) -> Path:
    """Write ``members`` in order; ``mimetype`` stored (uncompressed), as OCF requires."""
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            raw = data.encode("utf-8") if isinstance(data, str) else data
            zf.writestr(name, raw, compress_type=zipfile.ZIP_STORED if name == "mimetype" else zipfile.ZIP_DEFLATED)
    return path


def build_book(path: Path, chapters: list[str] | None = None, **kw: str) -> Path:
    return write_epub(path, book_members(chapters, **kw))
