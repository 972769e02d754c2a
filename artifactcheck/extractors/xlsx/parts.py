"""Reading the parts of an (already inspected, size-checked) .xlsx package: bytes, safely
parsed XML, and relationships resolved to absolute part names. Every failure becomes a
``CorruptArtifact`` naming the file and the part."""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Self

from lxml import etree

from ...errors import CorruptArtifact
from ..package.inspection import open_part, read_part
from ..package.relationships import read_relationships, rels_part_name
from ..package.xml import parse_xml

CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"

_MIME_BY_EXT = {
    "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
    "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff", "emf": "image/x-emf",
    "wmf": "image/x-wmf", "svg": "image/svg+xml", "webp": "image/webp",
}


@dataclass(frozen=True)
class Rel:
    id: str
    type: str  # the last path segment of the relationship type URI ("worksheet", "image")
    target: str  # absolute part name, or the URL when external
    external: bool


class Parts:
    """An open package. Use as a context manager."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.zip = zipfile.ZipFile(path)
        except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
            raise CorruptArtifact(f"cannot open the zip container: {exc}", path=path) from None
        self.names = set(self.zip.namelist())
        self._rels: dict[str, dict[str, Rel]] = {}

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.zip.close()

    def has(self, name: str) -> bool:
        return name in self.names

    def read(self, name: str) -> bytes:
        return read_part(self.zip, name, path=self.path)

    def open(self, name: str) -> IO[bytes]:
        """A stream over one part (sheets are parsed streamed); its read errors are typed."""
        return open_part(self.zip, name, path=self.path)

    def xml(self, name: str) -> etree._Element:
        return parse_xml(self.read(name), path=self.path, part=name)

    def xml_or_none(self, name: str | None) -> etree._Element | None:
        if name is None or name not in self.names:
            return None
        return self.xml(name)

    def rels(self, part: str) -> dict[str, Rel]:
        """Relationships of ``part`` by id (empty when it has none)."""
        if part in self._rels:
            return self._rels[part]
        rels_name = rels_part_name(part)
        out: dict[str, Rel] = {}
        if rels_name in self.names:
            for r in read_relationships(self.xml(rels_name), part):
                out[r.rel_id] = Rel(r.rel_id, r.type_uri.rsplit("/", 1)[-1], r.target, r.external)
        self._rels[part] = out
        return out

    def rels_of_type(self, part: str, type_: str) -> list[Rel]:
        return [r for r in self.rels(part).values() if r.type == type_]

    def mime(self, name: str) -> str:
        ext = name.rsplit(".", 1)[-1].lower()
        return _MIME_BY_EXT.get(ext, "application/octet-stream")
