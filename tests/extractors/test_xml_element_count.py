"""``element_count`` reads the element count off the bytes only where that is exact: it
must say what the XPath count says for every part, whichever way it counts."""

from __future__ import annotations

import sys
import zipfile
from pathlib import Path

import numpy  # noqa: F401  (element_count reads the bytes only with numpy loaded)
import pytest
from lxml import etree

from artifactcheck.extractors.package.xml import SAFE_XML_PARSER, element_count

REPO = Path(__file__).resolve().parents[2]

# Each case parses; those with '<' that is not a tag (comments, CDATA, a DOCTYPE, other
# processing instructions), other encodings or a BOM check that the shortcut stands aside
# or still counts right. Every root has an end tag, for _padded.
CASES = [
    b"<a></a>",
    b"<a><b/><c>text</c></a>",
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="urn:w"><w:p/></w:document>',
    b'<?xml version="1.0" encoding="utf-8"?><a x="1 &lt; 2">&lt;b/&gt;</a>',
    b'\xef\xbb\xbf<?xml version="1.0"?><a><b/></a>',
    b"<a><!-- <b/><c/> --><d/></a>",
    b"<a><![CDATA[<b/></c><d>]]><e/></a>",
    b'<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x "<b/>">]><a>&x;</a>',
    b'<?xml version="1.0"?><?pi <b/>?><a></a>',
    b"<?pi <b/><c/>?><a></a>",
    b"<a><?pi <b/>?></a>",
    b'<?xml-stylesheet href="<x>"?><a></a>',
    '<?xml version="1.0" encoding="UTF-16"?><a><b/></a>'.encode("utf-16"),
    '<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9<b/></a>'.encode("latin-1"),
    "<a>\u043f\u0440\u0438\u0432\u0435\u0442<b/></a>".encode(),
]


@pytest.mark.parametrize("data", CASES, ids=range(len(CASES)))
def test_the_count_is_the_xpath_count(data: bytes) -> None:
    for part in (data, _padded(data)):  # small: the XPath; large: the bytes where exact
        root = etree.fromstring(part, parser=SAFE_XML_PARSER)
        assert element_count(root, part) == int(root.xpath("count(descendant-or-self::*)"))


def _padded(data: bytes) -> bytes:
    """``data`` with 70k characters of text before the root's end tag, in its encoding:
    past the size from which element_count reads the bytes."""
    if data.startswith(b"\xff\xfe"):
        text = data.decode("utf-16")
        at = text.rindex("</")
        return (text[:at] + "x" * 70_000 + text[at:]).encode("utf-16")
    at = data.rindex(b"</")
    return data[:at] + b"x" * 70_000 + data[at:]


def test_the_bytes_are_read_when_numpy_is_loaded() -> None:
    # The shortcut runs only with numpy imported (it is not imported for it): here it is.
    assert "numpy" in sys.modules


def test_every_xml_part_of_the_fixtures_counts_as_the_xpath_does() -> None:
    checked = 0
    for path in sorted((REPO / "fixtures").rglob("*.[dpx][opl][cts]x")):
        with zipfile.ZipFile(path) as zf:
            for name in zf.namelist():
                if not name.endswith((".xml", ".rels")):
                    continue
                data = zf.read(name)
                root = etree.fromstring(data, parser=SAFE_XML_PARSER)
                assert element_count(root, data) == int(root.xpath("count(descendant-or-self::*)")), (path, name)
                checked += 1
    assert checked > 100
