"""XML parts parsed safely: entity resolution, DTD loading and network access off (XML
bombs, XXE); a malformed part is a typed error naming the file and the part."""

from __future__ import annotations

from pathlib import Path

from lxml import etree

from ...errors import CorruptArtifact

SAFE_XML_PARSER = etree.XMLParser(
    resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False
)


def parse_xml(data: bytes, *, path: str | Path, part: str) -> etree._Element:
    """Parse one part with entities and network off; a typed error names the part."""
    try:
        root = etree.fromstring(data, parser=SAFE_XML_PARSER)
    except etree.XMLSyntaxError as exc:
        raise CorruptArtifact(f"part {part} is not well-formed XML: {exc}", path=path) from None
    if root is None:
        raise CorruptArtifact(f"part {part} is empty", path=path)
    return root
