"""LibreOffice's user registry, ``registrymodifications.xcu``: every setting the user
changed from the default, as ``<item oor:path="/org.openoffice.Office.Common/Save/Document">
<prop oor:name="AutoSaveTimeIntervall" oor:op="fuse"><value>3</value></prop></item>``
(set members nest as ``<node oor:name="...">`` inside the item).

Tree: ``document > setting``, one node per ``prop``, id and ``path`` the full registry path
(item path, the names of the nodes around the prop, the prop's name:
``/org.openoffice.Office.Common/Save/Document/AutoSaveTimeIntervall``), ``text`` the value
as written (a list value's items joined by spaces, also in ``items``), ``value_type``
(``xs:int``...) when stated, ``op`` (``fuse``, ``replace``, ``remove``), ``nil`` for an
``xsi:nil`` value. A path written twice keeps both nodes, in file order: LibreOffice
applies them in order, so the last is in effect. No layout: a settings file has no pages.
"""

from __future__ import annotations

from importlib import metadata
from pathlib import Path
from typing import Any

from lxml import etree

from ...digest import file_digest
from ...errors import CorruptArtifact
from ...input_files import read_input_bytes
from ...model import ArtifactInfo, Document, Node, ToolInfo
from ..package.xml import parse_xml
from ..tree_builder import fill_container_text, make_node

__all__ = ["REGISTRY_NS", "extract_xcu", "looks_like_xcu"]

REGISTRY_NS = "http://openoffice.org/2001/registry"
_OOR = f"{{{REGISTRY_NS}}}"
_XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"


def looks_like_xcu(head: bytes) -> bool:
    """Whether a text file's first bytes are a LibreOffice registry document (XML in the
    ``oor`` namespace)."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") and REGISTRY_NS.encode() in head


def extract_xcu(path: str | Path, **options: Any) -> Document:
    """Read a ``registrymodifications.xcu`` into a Document of ``setting`` nodes (see the
    module docstring). Raises CorruptArtifact for malformed XML or another XML document."""
    p = Path(path)
    data = read_input_bytes(p, what="LibreOffice registry file", error=CorruptArtifact)
    root = parse_xml(data, path=p, part="registrymodifications.xcu")
    if root.tag != f"{_OOR}items":
        raise CorruptArtifact(
            f"not a LibreOffice registry file: the root element is {etree.QName(root.tag).localname!r}, "
            "not oor:items", path=p,
        )
    settings: list[Node] = []
    seen: set[str] = set()
    for item in root.iter("item"):
        base = (item.get(f"{_OOR}path") or "").rstrip("/")
        for prop in item.iter("prop"):
            names = [n.get(f"{_OOR}name") or "" for n in prop.iterancestors("node")][::-1]
            full = "/".join([base, *names, prop.get(f"{_OOR}name") or ""])
            node_id = full if full not in seen else f"{full}#{len(settings)}"  # ids are unique
            seen.add(full)
            settings.append(_setting(node_id, full, prop))
    doc_root = make_node("doc", "document", children=settings)
    fill_container_text(doc_root)
    digest = file_digest(p)
    return Document(
        artifact=ArtifactInfo(format="xcu", platform="office", sha256=digest.sha256, size_bytes=digest.size_bytes,
                              path=str(p), layout="none"),
        pages=[],
        root=doc_root,
        tools=[ToolInfo(name="lxml", version=metadata.version("lxml"))],
    )


def _setting(node_id: str, full_path: str, prop: etree._Element) -> Node:
    value = prop.find("value")
    attrs: dict[str, Any] = {"path": full_path}
    if prop.get(f"{_OOR}type"):
        attrs["value_type"] = prop.get(f"{_OOR}type")
    if prop.get(f"{_OOR}op"):
        attrs["op"] = prop.get(f"{_OOR}op")
    text = ""
    if value is not None:
        items = [it.text or "" for it in value.iter("it")]
        if items:
            attrs["items"] = items
            text = " ".join(items)
        else:
            text = value.text or ""
        if value.get(_XSI_NIL) == "true":
            attrs["nil"] = True
    return make_node(node_id, "setting", text=text, attrs=attrs, source=full_path)
