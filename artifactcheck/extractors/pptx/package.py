"""Reading a .pptx package's parts and relationships, with size limits, without python-pptx.

Why not python-pptx's package layer: it refuses a presentation whose main part declares the
slideshow (.ppsx) or template content type, and it raises on some parts we only want to skip.
The zip container was already vetted by :func:`~artifactcheck.extractors.package.inspection.inspect_package`
(zip bombs, encryption, part count); here every read is still bounded.

Part names are zip member names without a leading slash (``ppt/slides/slide1.xml``).
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from lxml import etree

from ...errors import CorruptArtifact
from ..package.inspection import read_part
from ..package.relationships import read_relationships, rels_part_name
from ..package.xml import parse_xml

MAX_XML_PART_BYTES = 64 * 1024 * 1024  # one XML part; the biggest real slide is ~2 MB
MAX_MEDIA_PART_BYTES = 128 * 1024 * 1024  # one image or other binary part

R_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"


@dataclass(frozen=True)
class Relationship:
    """One relationship: ``target`` is a part name, or the raw URL when ``external``."""

    rid: str
    type: str
    target: str
    external: bool

    @property
    def kind(self) -> str:
        """The last segment of the relationship type (``slideLayout``, ``image``, ...)."""
        return self.type.rsplit("/", 1)[-1]


class PptxPackage:
    """An open .pptx zip. Use as a context manager; parsed XML parts are cached."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError) as exc:
            raise CorruptArtifact(f"cannot open the zip container: {exc}", path=path) from None
        self._names = {i.filename: i for i in self._zip.infolist()}
        self._xml: dict[str, etree._Element | None] = {}
        self._rels: dict[str, dict[str, Relationship]] = {}
        self.content_types = self._read_content_types()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._zip.close()

    # -- raw parts ---------------------------------------------------------------------
    def has(self, part: str) -> bool:
        return part in self._names

    def size(self, part: str) -> int:
        info = self._names.get(part)
        return info.file_size if info is not None else 0

    def read(self, part: str, *, limit: int = MAX_MEDIA_PART_BYTES) -> bytes:
        """The bytes of ``part``; ``ArtifactTooLarge`` above ``limit`` (declared or real)."""
        return read_part(self._zip, self._names.get(part) or part, path=self.path, limit=limit)

    def xml(self, part: str, *, cache: bool = True) -> etree._Element:
        """Parse ``part``. Raises CorruptArtifact naming the part when missing. Shared
        parts (layouts, masters, themes) are cached; parts read once (slides, notes,
        charts: ``cache=False``) are not kept, so peak memory stays one slide deep."""
        root = self._xml.get(part)
        if root is None:
            root = parse_xml(self.read(part, limit=MAX_XML_PART_BYTES), path=self.path, part=part)
            if cache:
                self._xml[part] = root
        return root

    def content_type(self, part: str) -> str:
        ct = self.content_types.get("/" + part)
        if ct is None:
            ext = part.rsplit(".", 1)[-1].lower()
            ct = self.content_types.get(f"ext:{ext}", "")
        return ct

    # -- relationships -------------------------------------------------------------------
    def rels(self, part: str) -> dict[str, Relationship]:
        """Relationships of ``part`` by rId (empty when the part has no .rels, which
        happens in real files: see corpus bad/pptx_missing_rels_item.pptx)."""
        if part in self._rels:
            return self._rels[part]
        rels_part = rels_part_name(part)
        result: dict[str, Relationship] = {}
        if rels_part in self._names:
            root = self.xml(rels_part, cache=False)
            for rel in read_relationships(root, part):
                result[rel.rel_id] = Relationship(rel.rel_id, rel.type_uri, rel.target, rel.external)
        self._rels[part] = result
        return result

    def related(self, part: str, rid: str | None) -> Relationship | None:
        if not rid:
            return None
        return self.rels(part).get(rid)

    def first_related(self, part: str, kind: str) -> str | None:
        """The first internal target of ``part`` whose relationship type ends in ``kind``,
        if that part exists."""
        for rel in self.rels(part).values():
            if rel.kind == kind and not rel.external and rel.target in self._names:
                return rel.target
        return None

    def _read_content_types(self) -> dict[str, str]:
        root = self.xml("[Content_Types].xml")
        result: dict[str, str] = {}
        for el in root.iter(f"{_CT_NS}Override"):
            result[el.get("PartName", "")] = el.get("ContentType", "")
        for el in root.iter(f"{_CT_NS}Default"):
            result[f"ext:{el.get('Extension', '').lower()}"] = el.get("ContentType", "")
        return result


