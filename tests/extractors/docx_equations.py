""".docx files with equations, built the way agents build them: python-docx for the text,
then XML injected for what python-docx cannot write — an OMML equation (``m:oMathPara``)
and a legacy OLE equation object (``w:object`` holding a VML shape whose ``v:imagedata``
is the preview picture, and an ``o:OLEObject`` naming the program and its embedded part).

The preview is a solid colour block (``PREVIEW_RGB``) so a test can find where the
render draws it on the page image, independently of our own layout code.
"""

from __future__ import annotations

import io
from pathlib import Path

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from PIL import Image

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
M_NS = "http://schemas.openxmlformats.org/officeDocument/2006/math"
NSDECL = (
    f'xmlns:w="{W_NS}" xmlns:m="{M_NS}" xmlns:v="urn:schemas-microsoft-com:vml" '
    'xmlns:o="urn:schemas-microsoft-com:office:office" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'
)
PREVIEW_RGB = (220, 20, 60)
PREVIEW_PT = (72.0, 36.0)  # width, height the VML shape states
OLE_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.oleObject"


def _preview_png() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (144, 72), PREVIEW_RGB).save(buf, "PNG")
    return buf.getvalue()


def omml_paragraph() -> object:
    """A display equation a/b = c, as Word writes it."""
    return parse_xml(
        f"<w:p {NSDECL}><m:oMathPara><m:oMath>"
        "<m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:r><m:t>b</m:t></m:r></m:den></m:f>"
        "<m:r><m:t>=c</m:t></m:r>"
        "</m:oMath></m:oMathPara></w:p>"
    )


def add_ole_object(document: docx.document.Document, paragraph: object, prog_id: str, index: int) -> None:
    """Append to ``paragraph`` a run holding an embedded object of ``prog_id``, drawn by a
    preview picture: the markup Word 2003-2019 writes for Equation Editor 3 / MathType."""
    part = document.part
    image_rid, _ = part.get_or_add_image(io.BytesIO(_preview_png()))
    ole = Part(
        PackURI(f"/word/embeddings/oleObject{index}.bin"),
        OLE_CONTENT_TYPE,
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504,  # a CFB header: the object's data is not read
        part.package,
    )
    ole_rid = part.relate_to(ole, RT.OLE_OBJECT)
    shape_id = f"_x0000_i10{25 + index}"
    width, height = PREVIEW_PT
    run = parse_xml(
        f'<w:r {NSDECL}><w:object w:dxaOrig="{int(width * 20)}" w:dyaOrig="{int(height * 20)}">'
        f'<v:shape id="{shape_id}" type="#_x0000_t75" style="width:{width:g}pt;height:{height:g}pt" o:ole="">'
        f'<v:imagedata r:id="{image_rid}" o:title=""/></v:shape>'
        f'<o:OLEObject Type="Embed" ProgID="{prog_id}" ShapeID="{shape_id}" DrawAspect="Content" '
        f'ObjectID="_17000000{index}" r:id="{ole_rid}"/>'
        "</w:object></w:r>"
    )
    paragraph._p.append(run)  # type: ignore[attr-defined]


def build_equations_docx(path: Path, *, ole_prog_id: str | None = "Equation.3", omml: bool = True) -> Path:
    """Text, an OMML equation paragraph (``omml``), a paragraph with an OLE object of
    ``ole_prog_id`` (None: none), and closing text."""
    document = docx.Document()
    document.add_paragraph("The ratio is defined below.")
    if omml:
        anchor = document.add_paragraph("")
        anchor._p.addnext(omml_paragraph())
        anchor._p.getparent().remove(anchor._p)
    if ole_prog_id is not None:
        para = document.add_paragraph("Legacy: ")
        add_ole_object(document, para, ole_prog_id, 1)
    document.add_paragraph("The proof follows.")
    document.save(str(path))
    return path
