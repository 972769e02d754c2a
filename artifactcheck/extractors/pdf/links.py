"""A PDF page's link annotations: where each is (page space: points, top-left origin,
y down) and where it points (a URI, or a page of the same document).

Read with pypdfium2's raw pdfium bindings (``FPDFLink_Enumerate``), the engine the rest
of the PDF reading uses. Links that are neither (launch actions, remote files) are kept
with ``url=None`` and their action type, so nothing is silently dropped.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

__all__ = ["PdfLink", "read_links"]

_ACTION_TYPES = {
    pdfium_c.PDFACTION_GOTO: "goto",
    pdfium_c.PDFACTION_REMOTEGOTO: "remote_goto",
    pdfium_c.PDFACTION_URI: "uri",
    pdfium_c.PDFACTION_LAUNCH: "launch",
}
MAX_LINKS_PER_PAGE = 10_000  # a page with more is hostile; the rest are not read


@dataclass(frozen=True, slots=True)
class PdfLink:
    """One link annotation. ``url`` is the URI (``uri`` actions) or ``#page=N`` (1-based,
    for links into the same document, as PDF viewers spell it); ``target_page`` is the
    0-based page of an internal link."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    kind: str
    url: str | None
    target_page: int | None


def read_links(doc: pdfium.PdfDocument, page: pdfium.PdfPage, index: int, left: float, top: float) -> list[PdfLink]:
    """Every link annotation of ``page`` (0-based ``index``), in annotation order.
    ``left``/``top`` are the crop box's left and top edges in PDF space."""
    out: list[PdfLink] = []
    pos = ctypes.c_int(0)
    link = pdfium_c.FPDF_LINK()
    rect = pdfium_c.FS_RECTF()
    while len(out) < MAX_LINKS_PER_PAGE and pdfium_c.FPDFLink_Enumerate(page.raw, ctypes.byref(pos), ctypes.byref(link)):
        if not pdfium_c.FPDFLink_GetAnnotRect(link, ctypes.byref(rect)):
            continue
        kind, url, target = "none", None, None
        dest = pdfium_c.FPDFLink_GetDest(doc.raw, link)
        action = pdfium_c.FPDFLink_GetAction(link)
        if action:
            kind = _ACTION_TYPES.get(pdfium_c.FPDFAction_GetType(action), "unsupported")
            if kind == "uri":
                url = _uri(doc, action)
            elif kind == "goto":
                dest = pdfium_c.FPDFAction_GetDest(doc.raw, action)
        if dest:
            kind = "goto"
            n = pdfium_c.FPDFDest_GetDestPageIndex(doc.raw, dest)
            if n >= 0:
                target = int(n)
                url = f"#page={target + 1}"
        x0, x1 = sorted((rect.left - left, rect.right - left))
        y0, y1 = sorted((top - rect.top, top - rect.bottom))
        out.append(PdfLink(index, x0, y0, x1, y1, kind, url, target))
    return out


def _uri(doc: pdfium.PdfDocument, action: object) -> str | None:
    n = pdfium_c.FPDFAction_GetURIPath(doc.raw, action, None, 0)
    if n <= 1 or n > 64 * 1024:
        return None
    buf = ctypes.create_string_buffer(n)
    pdfium_c.FPDFAction_GetURIPath(doc.raw, action, buf, n)
    # The URI is 7-bit ASCII by the spec; writers that put UTF-8 in it are decoded kindly.
    return buf.raw[: n - 1].decode("utf-8", "replace") or None
