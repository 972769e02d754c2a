"""XML parts parsed safely: entity resolution, DTD loading and network access off (XML
bombs, XXE); a malformed part is a typed error naming the file and the part; the number
of elements is bounded per part and per document (``xml_part_elements``,
``xml_document_elements`` in :mod:`artifactcheck.limits`) before a tree is built from
them (a 26 KB deck can hold a 3.9 MiB part of 584k empty shapes)."""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from ...errors import ArtifactTooLarge, CorruptArtifact
from ...limits import current_limits

SAFE_XML_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False
)


def parse_xml(data: bytes, *, path: str | Path, part: str) -> etree._Element:
    """Parse one part with entities and network off; a typed error names the part."""
    limit = current_limits().xml_part_elements
    # Every element has a '<', so the count of '<' bounds the elements from above (2 ms
    # for 4 MB): only a part that might exceed the budget is counted exactly, streamed,
    # stopping at the budget, before the whole tree is allocated.
    if data.count(b"<") > limit and _count_elements(data, stop_after=limit, path=path, part=part) > limit:
        raise ArtifactTooLarge(
            f"part {part} holds more than {limit} XML elements "
            f"({current_limits().describe('xml_part_elements')})",
            path=path,
        )
    try:
        root = etree.fromstring(data, parser=SAFE_XML_PARSER)
    except etree.XMLSyntaxError as exc:
        raise CorruptArtifact(f"part {part} is not well-formed XML: {one_line(exc)}", path=path) from None
    if root is None:
        raise CorruptArtifact(f"part {part} is empty", path=path)
    charge_elements(element_count(root, data), path=path, part=part)
    return root


# The XML declaration, the one processing instruction element_count allows (its
# pseudo-attributes cannot hold a '<'), after an optional UTF-8 byte order mark.
_XML_DECLARATION = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml[ \t\r\n]")
_LT, _SLASH, _BANG, _QUESTION = b"</!?"
_READ_BYTES_FROM = 64 * 1024  # below, numpy's fixed costs outweigh the XPath's (measured)


def element_count(root: etree._Element, data: bytes) -> int:
    """The number of elements in ``root``'s tree, parsed from ``data``: what
    ``root.xpath("count(descendant-or-self::*)")`` says, read off the bytes when that is
    exact, at a tenth of its cost (the XPath builds a node set of every element: 43 ms
    for the 370k of a 12 MB document.xml, the bytes 5 ms).

    Exact for a well-formed UTF-8 document without ``<!`` (comments, CDATA sections, a
    DOCTYPE) and without processing instructions other than the XML declaration: there
    a '<' starts a tag and nothing else (text and attribute values cannot hold one, and
    in UTF-8 the byte is never part of another character), so the elements are the
    '<' that do not start an end tag ``</``. Any other document is counted by the XPath,
    and so are small ones, and every one while numpy is not loaded: importing it for
    this would cost more than it saves (a .docx render loads it anyway).
    """
    np = sys.modules.get("numpy")
    if np is None or len(data) < _READ_BYTES_FROM:
        return int(root.xpath("count(descendant-or-self::*)"))
    encoding = root.getroottree().docinfo.encoding or ""
    if encoding.upper() == "UTF-8" and b"\x00" not in data:
        octets = np.frombuffer(data, dtype=np.uint8)
        opens = np.flatnonzero(octets[:-1] == _LT)  # a '<' cannot be the last byte
        after = np.bincount(octets[opens + 1], minlength=256)  # the byte after each '<'
        instructions = int(after[_QUESTION])
        if not after[_BANG] and (
            instructions == 0 or (instructions == 1 and _XML_DECLARATION.match(data) is not None)
        ):
            return int(opens.size) - int(after[_SLASH]) - instructions
    return int(root.xpath("count(descendant-or-self::*)"))


def one_line(exc: BaseException) -> str:
    """An exception's message on one line: libxml2's may hold a newline
    ("Char 0x0 out of allowed range\\n, line 2, column 5718")."""
    return " ".join(str(exc).split()) or type(exc).__name__


def _count_elements(data: bytes, *, stop_after: int, path: str | Path, part: str) -> int:
    count = 0
    try:
        for _event, element in etree.iterparse(
            io.BytesIO(data), events=("end",), resolve_entities=False, no_network=True,
            load_dtd=False, huge_tree=False,
        ):
            count += 1
            if count > stop_after:
                break
            element.clear(keep_tail=True)  # keep memory flat while counting
            parent = element.getparent()
            while parent is not None and element.getprevious() is not None:
                del parent[0]
    except etree.XMLSyntaxError as exc:
        raise CorruptArtifact(f"part {part} is not well-formed XML: {one_line(exc)}", path=path) from None
    return count


@dataclass
class _ElementCount:
    limit: int
    parsed: int = 0


_DOCUMENT: ContextVar[_ElementCount | None] = ContextVar("artifactcheck_xml_elements", default=None)


@contextmanager
def element_budget() -> Iterator[None]:
    """Count the XML elements parsed in this block (one document's load) against the
    ``xml_document_elements`` budget; nested blocks share the outermost count."""
    if _DOCUMENT.get() is not None:
        yield
        return
    token = _DOCUMENT.set(_ElementCount(current_limits().xml_document_elements))
    try:
        yield
    finally:
        _DOCUMENT.reset(token)


def charge_elements(count: int, *, path: str | Path | None, part: str) -> None:
    """Add ``count`` parsed elements of ``part`` to the document's total (also called by
    the streamed sheet reader, which does not go through :func:`parse_xml`)."""
    total = _DOCUMENT.get()
    if total is None:
        return
    total.parsed += count
    if total.parsed > total.limit:
        raise ArtifactTooLarge(
            f"the package holds more than {total.limit} XML elements (at part {part}; "
            f"{current_limits().describe('xml_document_elements')})",
            path=path,
        )
