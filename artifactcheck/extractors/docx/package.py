"""The parts of a .docx package, found through relationships (never by fixed names).

A WordprocessingML package names its main part in ``_rels/.rels``; styles, numbering,
theme, headers, footers, notes and comments hang off the main part's relationships.
Files saved by Office 365 put the body in ``word/document2.xml`` and some tools rename
it freely, so every part is located by relationship type, never by a guessed path.

XML is parsed with :func:`~artifactcheck.extractors.package.xml.parse_xml` (entities and
network off): an XXE entity in the body stays an unresolved reference.
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree

from ...errors import CorruptArtifact, UnsupportedFormat
from ..package.inspection import inspect_package, read_part
from ..package.relationships import read_relationships, rels_part_name
from ..package.xml import parse_xml

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
STRICT_W_NS = "http://purl.oclc.org/ooxml/wordprocessingml/main"
REL_BASE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
_W = f"{{{W_NS}}}"
STRICT_REL_BASE = "http://purl.oclc.org/ooxml/officeDocument/relationships/"


def find_child(el: etree._Element, tag: str) -> etree._Element | None:
    """``el.find(tag)`` for one namespaced tag (the first child with it), at a third of
    its cost: ``find`` goes through ElementPath on every call, and the walker asks each
    paragraph, run and cell for its property element (~100k calls in a 180-page file).
    Property elements come first in their parent, so that child is tried first."""
    if not len(el):
        return None
    first = el[0]
    if first.tag == tag:
        return first
    for found in el.iterchildren(tag):
        return found
    return None


def is_on(el: etree._Element | None) -> bool | None:
    """A WordprocessingML on/off property: absent -> None, ``w:val`` absent/true -> True."""
    if el is None:
        return None
    val = el.get(f"{_W}val")
    return val is None or val.lower() not in ("0", "false", "off", "none")


@dataclass(frozen=True)
class Relationship:
    """One relationship: ``type`` is the short name (``styles``, ``image``...),
    ``target`` a package part name (no leading slash) or, when ``external``, a URL."""

    rel_id: str
    type: str
    target: str
    external: bool
    type_uri: str = ""


@dataclass
class DocxPackage:
    """An opened .docx: the zip, its main part name and per-part relationship maps."""

    path: Path
    zf: zipfile.ZipFile
    main_part: str
    _rels: dict[str, dict[str, Relationship]] = field(default_factory=dict)
    _xml: dict[str, etree._Element | None] = field(default_factory=dict)

    def close(self) -> None:
        self.zf.close()

    # -- raw access ---------------------------------------------------------------
    def has(self, part: str) -> bool:
        try:
            self.zf.getinfo(part)
        except KeyError:
            return False
        return True

    def read(self, part: str) -> bytes:
        return read_part(self.zf, part, path=self.path)

    def xml(self, part: str) -> etree._Element:
        """The parsed part (cached). A missing or broken part is a CorruptArtifact."""
        if part not in self._xml:
            self._xml[part] = parse_xml(self.read(part), path=self.path, part=part)
        root = self._xml[part]
        assert root is not None
        return root

    def optional_xml(self, part: str | None) -> etree._Element | None:
        """The parsed part, or None when ``part`` is None or absent from the zip."""
        if part is None or not self.has(part):
            return None
        return self.xml(part)

    # -- relationships --------------------------------------------------------------
    def rels(self, part: str) -> dict[str, Relationship]:
        """Relationships of ``part`` keyed by rId ({} when it has none)."""
        if part in self._rels:
            return self._rels[part]
        rels_part = rels_part_name(part)
        found: dict[str, Relationship] = {}
        if self.has(rels_part):
            root = parse_xml(self.read(rels_part), path=self.path, part=rels_part)
            for rel in read_relationships(root, part):
                short = rel.type_uri.rsplit("/", 1)[-1]
                found[rel.rel_id] = Relationship(rel.rel_id, short, rel.target, rel.external, rel.type_uri)
        self._rels[part] = found
        return found

    def rel_target(self, part: str, rel_id: str | None) -> Relationship | None:
        if not rel_id:
            return None
        return self.rels(part).get(rel_id)

    def first_of_type(self, part: str, rtype: str) -> str | None:
        """Target part of the first internal relationship of short type ``rtype``."""
        for rel in self.rels(part).values():
            if rel.type == rtype and not rel.external:
                return rel.target
        return None


def open_docx(path: str | Path) -> DocxPackage:
    """Open and vet a .docx. Raises the typed errors of ``inspect_package`` for broken,
    encrypted or foreign files, and ``UnsupportedFormat`` for Strict OOXML (same
    content types as Transitional, so only the namespaces tell)."""
    p = Path(path)
    info = inspect_package(p)
    if info.format != "docx":
        raise UnsupportedFormat(f"expected a Word document, found a {info.format} package", path=p)
    try:
        zf = zipfile.ZipFile(p)
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise CorruptArtifact(f"cannot read the zip container: {exc}", path=p) from None
    pkg = DocxPackage(path=p, zf=zf, main_part=info.main_part)
    try:
        root_rels = pkg.rels("")  # _rels/.rels
        main = None
        for rel in root_rels.values():
            if rel.type == "officeDocument" and not rel.external:
                main = rel.target
                break
        if main is not None and pkg.has(main):
            pkg.main_part = main
        if not pkg.has(pkg.main_part):
            raise CorruptArtifact(f"main document part {pkg.main_part} is missing", path=p)
        ns = etree.QName(pkg.xml(pkg.main_part)).namespace
        if ns == STRICT_W_NS or any(
            rel.type_uri.startswith(STRICT_REL_BASE) for rel in root_rels.values()
        ):
            raise UnsupportedFormat(
                "Strict Office Open XML (ISO/IEC 29500 Strict) is not supported; "
                "save it as a Transitional .docx",
                path=p,
            )
        if ns != W_NS:
            raise UnsupportedFormat(
                f"main part {pkg.main_part} is not WordprocessingML (namespace {ns})", path=p
            )
    except BaseException:
        zf.close()
        raise
    return pkg
