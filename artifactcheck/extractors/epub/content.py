"""One EPUB content document (XHTML) as the nodes a .docx body gives: paragraphs (with
heading level and list item), runs (character formatting the HTML states, link),
pictures and tables.

What is a paragraph: every block element that holds text directly (``p``, ``h1``-``h6``,
``li``, ``blockquote``, ``pre``, ``dt``/``dd``, ``figcaption``, a ``div`` with text...);
text between blocks becomes a paragraph of its own, as a reader sees it. Whitespace
collapses as HTML lays it out (not in ``pre``); ``br`` is a line break (``\\n``).

Formatting is the HTML's own meaning and the browsers' default style sheet (``b``,
``strong``, headings and ``th`` bold; ``i``, ``em``, ``cite`` italic; ``u``/``ins``
underlined; ``s``/``del`` struck; ``sub``/``sup``): CSS is not applied, so a
``<span class="bold">`` is not bold and fonts, sizes and colours are unknown (None).
"""

from __future__ import annotations

import html.entities
import re
from dataclasses import dataclass, field
from typing import Any

from lxml import etree
from lxml import html as lxml_html

from ...errors import CorruptArtifact
from ...model import Blob, Node, Style, describe_image
from ...model.style import Baseline
from ..package.xml import charge_elements, parse_xml
from ..tree_builder import make_node
from .package import EpubPackage, resolve

__all__ = ["ContentReader"]

_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCKS = frozenset({
    "p", "div", "li", "blockquote", "pre", "dt", "dd", "figcaption", "caption", "address", "section", "article",
    "aside", "header", "footer", "nav", "main", "figure", "ul", "ol", "dl", "table", "hr", "body", "center",
    *_HEADINGS,
})  # fmt: skip
_SKIP = frozenset({"head", "script", "style", "template", "title", "noscript"})
_BOLD = frozenset({"b", "strong", "th", *_HEADINGS})
_ITALIC = frozenset({"i", "em", "cite", "var", "dfn"})
_UNDERLINE = frozenset({"u", "ins"})
_STRIKE = frozenset({"s", "strike", "del"})
_SPACES = re.compile(r"[ \t\n\r\f]+")
_XLINK_HREF = "{http://www.w3.org/1999/xlink}href"
_EPUB_TYPE = "{http://www.idpf.org/2007/ops}type"
_NOTE_TYPES = {"footnote": "footnote", "note": "footnote", "endnote": "endnote", "rearnote": "endnote"}
_HTML_PARSER = lxml_html.HTMLParser(no_network=True, remove_comments=True, remove_pis=True)


def _local(el: etree._Element) -> str:
    tag = el.tag
    return etree.QName(tag).localname.lower() if isinstance(tag, str) else ""


@dataclass(frozen=True)
class _Format:
    bold: bool = False
    italic: bool = False
    underline: bool = False
    strike: bool = False
    baseline: Baseline | None = None
    link: str | None = None
    noteref: str | None = None
    pre: bool = False

    def style(self) -> Style:
        return Style(
            bold=self.bold or None, italic=self.italic or None, underline=self.underline or None,
            strike=self.strike or None, baseline=self.baseline,
        )

    def entering(self, el: etree._Element) -> _Format:
        name = _local(el)
        changes: dict[str, Any] = {}
        if name in _BOLD:
            changes["bold"] = True
        if name in _ITALIC:
            changes["italic"] = True
        if name in _UNDERLINE:
            changes["underline"] = True
        if name in _STRIKE:
            changes["strike"] = True
        if name in ("sub", "sup"):
            changes["baseline"] = "subscript" if name == "sub" else "superscript"
        if name == "a" and el.get("href"):
            if "noteref" in _epub_types(el):  # a note mark: the note's id, as a .docx run has it
                changes["noteref"] = str(el.get("href")).split("#", 1)[-1]
            else:
                changes["link"] = el.get("href")
        if name == "pre":
            changes["pre"] = True
        return _Format(**{**self.__dict__, **changes}) if changes else self


@dataclass
class _Paragraph:
    """A paragraph being collected: ``(text, format)`` pieces and pictures in order."""

    attrs: dict[str, Any]
    pieces: list[tuple[str, _Format] | Node] = field(default_factory=list)


class ContentReader:
    """Reads the spine's documents of one package into top-level nodes, ids ``c{k}/...``."""

    def __init__(self, package: EpubPackage, blobs: dict[str, Blob], warnings: list[str]) -> None:
        self.package = package
        self.blobs = blobs
        self.warnings = warnings

    # -- one content document ------------------------------------------------------------
    def read(self, index: int, part: str) -> list[Node]:
        root = self._parse(part)
        body = next((e for e in root.iter() if _local(e) == "body"), root)
        self.part, self.prefix = part, f"c{index}"
        self.out: list[Node] = []
        self.counter = 0
        self.current: _Paragraph | None = None
        self.list_stack: list[bool] = []
        self._block(body, _Format(), {})
        self._flush()
        return self.out

    def _parse(self, part: str) -> etree._Element:
        data = self.package.read(part)
        try:
            return parse_xml(data, path=self.package.path, part=part)
        except CorruptArtifact:
            pass  # not well-formed XHTML: read as HTML, as reading systems do
        try:
            root = lxml_html.document_fromstring(data, parser=_HTML_PARSER)
        except (etree.ParserError, ValueError) as exc:
            raise CorruptArtifact(f"content document {part} is neither XHTML nor HTML: {exc}", path=self.package.path) from None
        charge_elements(int(root.xpath("count(descendant-or-self::*)")), path=self.package.path, part=part)
        self.warnings.append(f"{part} is not well-formed XHTML; read with the HTML parser")
        return root

    def _id(self, kind: str) -> str:
        self.counter += 1
        return f"{self.prefix}/{kind}{self.counter}"

    # -- blocks ----------------------------------------------------------------------------
    def _block(self, el: etree._Element, fmt: _Format, para_attrs: dict[str, Any]) -> None:
        """Walk a block element's content: text and inline elements go into the current
        paragraph, nested blocks start new ones."""
        if el.text:
            self._text(el.text, fmt, para_attrs)
        for child in el:
            name = _local(child)
            if isinstance(child, etree._Entity):
                self._text(_entity(child), fmt, para_attrs)
            elif not isinstance(child.tag, str) or name in _SKIP:
                pass
            elif name == "table":
                self._flush()
                self.out.append(self._table(child, fmt))
            elif _note_type(child) is not None:
                self._flush()
                self.out.append(self._note(child, fmt))
            elif name in ("ul", "ol"):
                self._flush()
                self.list_stack.append(name == "ol")
                self._block(child, fmt, {})
                self.list_stack.pop()
                self._flush()
            elif name in _BLOCKS:
                self._flush()
                listed = {k: v for k, v in para_attrs.items() if k in ("list_level", "list_ordered")}
                self._block(child, fmt.entering(child), {**listed, **self._attrs_of(child)})
                self._flush()
            else:
                self._inline(child, fmt, para_attrs)
            if child.tail:
                self._text(child.tail, fmt, para_attrs)

    def _attrs_of(self, el: etree._Element) -> dict[str, Any]:
        name = _local(el)
        attrs: dict[str, Any] = {"part": self.part}
        if name in _HEADINGS:
            attrs["heading_level"] = _HEADINGS[name]
        if name == "li" and self.list_stack:
            attrs["list_level"] = len(self.list_stack) - 1
            attrs["list_ordered"] = self.list_stack[-1]
        return attrs

    def _inline(self, el: etree._Element, fmt: _Format, para_attrs: dict[str, Any]) -> None:
        name = _local(el)
        if name == "br":
            if self.current is None:
                return  # a line break between blocks makes no paragraph
            self._text("\n", fmt.entering(el) if fmt.pre else _Format(**{**fmt.__dict__, "pre": True}), para_attrs)
            return
        if name in ("img", "image"):
            self._picture(el, fmt, para_attrs)
            return
        inner = fmt.entering(el)
        if el.text:
            self._text(el.text, inner, para_attrs)
        for child in el:
            if isinstance(child, etree._Entity):
                self._text(_entity(child), inner, para_attrs)
            elif isinstance(child.tag, str) and _local(child) not in _SKIP:
                if _local(child) in _BLOCKS:  # a block inside an inline (invalid, common): its own paragraph
                    self._flush()
                    self._block(child, inner.entering(child), self._attrs_of(child))
                    self._flush()
                else:
                    self._inline(child, inner, para_attrs)
            if child.tail:
                self._text(child.tail, inner, para_attrs)

    def _paragraph(self, para_attrs: dict[str, Any]) -> _Paragraph:
        if self.current is None:
            self.current = _Paragraph(attrs=dict(para_attrs) or {"part": self.part})
        return self.current

    def _text(self, text: str, fmt: _Format, para_attrs: dict[str, Any]) -> None:
        if not text:
            return
        if self.current is None and not fmt.pre and not text.strip():
            return  # whitespace between blocks
        self._paragraph(para_attrs).pieces.append((text, fmt))

    def _picture(self, el: etree._Element, fmt: _Format, para_attrs: dict[str, Any]) -> None:
        src = el.get("src") or el.get(_XLINK_HREF) or el.get("href") or ""
        attrs: dict[str, Any] = {}
        alt = (el.get("alt") or "").strip()
        if alt:
            attrs["alt_text"] = alt
        if fmt.link:
            attrs["hyperlink"] = fmt.link
        member = resolve(self.part, src) if src and ":" not in src.split("/", 1)[0] else None
        if member is None:
            attrs["linked_url"] = src or None
        elif not self.package.has(member):
            attrs["missing_image"] = True
            attrs["image_part"] = member
            self.warnings.append(f"picture {member} referenced by {self.part} is missing from the package")
        else:
            data = self.package.read(member)
            mime = _MIME.get(member.rsplit(".", 1)[-1].lower(), "application/octet-stream")
            blob = describe_image(data, mime=mime, name=member)
            self.blobs.setdefault(blob.sha256, blob)
            attrs["blob"] = blob.sha256
            attrs["image_part"] = member
        node = make_node(self._id("img"), "image", attrs={k: v for k, v in attrs.items() if v is not None}, source=self.part)
        self._paragraph(para_attrs).pieces.append(node)

    # -- paragraphs and runs -----------------------------------------------------------
    def _flush(self) -> None:
        para, self.current = self.current, None
        if para is None:
            return
        pid = self._id("p")
        children: list[Node] = []
        runs = _collapse(para.pieces)
        for k, item in enumerate(runs):
            if isinstance(item, Node):
                children.append(item)
                continue
            text, fmt = item
            attrs = {"hyperlink": fmt.link} if fmt.link else {}
            if fmt.noteref:
                attrs["footnote_ref"] = fmt.noteref
            children.append(make_node(f"{pid}/r{k}", "run", text=text, style=fmt.style(), attrs=attrs, source=self.part))
        if not children:
            return
        text = "".join(c.text for c in children if c.kind == "run")
        self.out.append(make_node(pid, "paragraph", text=text, attrs=para.attrs, source=self.part, children=children))

    # -- notes and tables --------------------------------------------------------------
    def _contained(self, el: etree._Element, fmt: _Format) -> list[Node]:
        """The blocks inside ``el``, read apart from the body's flow."""
        saved = (self.out, self.current, self.list_stack)
        self.out, self.current, self.list_stack = [], None, []
        self._block(el, fmt, {"part": self.part})
        self._flush()
        content = self.out
        self.out, self.current, self.list_stack = saved
        return content

    def _note(self, el: etree._Element, fmt: _Format) -> Node:
        """An EPUB 3 note (``<aside epub:type="footnote">``): a ``footnote`` node, not body
        text, as a .docx's notes are."""
        attrs = {"note_type": _note_type(el), "note_id": el.get("id")}
        return make_node(
            self._id("fn"), "footnote", attrs={k: v for k, v in attrs.items() if v}, source=self.part,
            children=self._contained(el, fmt.entering(el)),
        )

    def _table(self, el: etree._Element, fmt: _Format) -> Node:
        tid = self._id("t")
        rows: list[Node] = []
        trs = [tr for tr in el.iter() if _local(tr) == "tr" and _nearest_table(tr) is el]
        width = 0
        for r, tr in enumerate(trs):
            cells: list[Node] = []
            for c, td in enumerate(x for x in tr if _local(x) in ("td", "th")):
                content = self._contained(td, fmt.entering(td))
                attrs: dict[str, Any] = {"row": r, "col": c}
                for span, key in (("rowspan", "row_span"), ("colspan", "col_span")):
                    value = _int(td.get(span))
                    if value is not None and value > 1:
                        attrs[key] = value
                cells.append(make_node(f"{tid}/r{r}/c{c}", "cell", attrs=attrs, source=self.part, children=content))
            width = max(width, len(cells))
            rows.append(make_node(f"{tid}/r{r}", "row", attrs={"index": r}, source=self.part, children=cells))
        attrs = {"rows": len(rows), "cols": width, "part": self.part}
        if _nearest_table(el) is not None:
            attrs["nested"] = True  # inside another table's cell (compare_document pairs top-level tables)
        return make_node(tid, "table", attrs=attrs, source=self.part, children=rows)


_MIME = {
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "svg": "image/svg+xml",
    "webp": "image/webp", "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff",
}  # fmt: skip


def _epub_types(el: etree._Element) -> list[str]:
    """The ``epub:type`` words of an element (``epub:type`` as a plain name when the
    document was read with the HTML parser)."""
    return str(el.get(_EPUB_TYPE) or el.get("epub:type") or "").split()


def _note_type(el: etree._Element) -> str | None:
    """``footnote``/``endnote`` for an ``aside`` (or any element) typed as a note."""
    return next((_NOTE_TYPES[t] for t in _epub_types(el) if t in _NOTE_TYPES), None)


def _nearest_table(el: etree._Element) -> etree._Element | None:
    return next((a for a in el.iterancestors() if _local(a) == "table"), None)


def _int(value: str | None) -> int | None:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None


def _entity(el: etree._Element) -> str:
    """An undeclared entity an XHTML 1.1 file uses (``&nbsp;``), as its character; one
    not in HTML's table stays as written."""
    name = str(el.text or "").strip("&;")
    code = html.entities.name2codepoint.get(name)
    return chr(code) if code is not None else f"&{name};"


def _collapse(pieces: list[tuple[str, _Format] | Node]) -> list[tuple[str, _Format] | Node]:
    """HTML whitespace: runs of spaces collapse to one across pieces, the paragraph's
    leading and trailing space go (``pre`` text and line breaks are kept); adjacent pieces
    of one format merge into one run."""
    out: list[tuple[str, _Format] | Node] = []
    last_space = True  # at the paragraph's start, a space is dropped
    for item in pieces:
        if isinstance(item, Node):
            out.append(item)
            last_space = False
            continue
        text, fmt = item
        if not fmt.pre:
            text = _SPACES.sub(" ", text)
            if last_space and text.startswith(" "):
                text = text[1:]
        if not text:
            continue
        last_space = text.endswith((" ", "\n"))
        prev = out[-1] if out else None
        if isinstance(prev, tuple) and prev[1] == fmt:
            out[-1] = (prev[0] + text, fmt)
        else:
            out.append((text, fmt))
    while out and isinstance(out[-1], tuple):  # the trailing space
        text, fmt = out[-1]
        stripped = text if fmt.pre else text.rstrip(" ")
        if stripped:
            out[-1] = (stripped, fmt)
            break
        out.pop()
    return out
