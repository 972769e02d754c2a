"""Relationships (``.rels`` parts) of an OPC package: which part a relationship id points
at, resolved to a part name, or the URL of an external target as written."""

from __future__ import annotations

import posixpath
from dataclasses import dataclass

from lxml import etree

RELS_NS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


@dataclass(frozen=True)
class PackageRelationship:
    """One ``Relationship`` of a ``.rels`` part: ``type_uri`` as written, ``target`` a
    part name (no leading slash) or, when ``external``, the URL as written."""

    rel_id: str
    type_uri: str
    target: str
    external: bool


def rels_part_name(part: str) -> str:
    """The relationships part of ``part`` (``word/document.xml`` ->
    ``word/_rels/document.xml.rels``; ``""`` -> ``_rels/.rels``)."""
    folder, name = posixpath.split(part)
    return posixpath.join(folder, "_rels", name + ".rels")


def resolve_target(folder: str, target: str) -> str:
    """A relationship target as a part name: absolute targets (``/ppt/media/x.png``) drop
    the slash; relative ones resolve against the source part's folder."""
    if target.startswith("/"):
        return posixpath.normpath(target.lstrip("/"))
    return posixpath.normpath(posixpath.join(folder, target))


def read_relationships(rels_root: etree._Element, part: str) -> list[PackageRelationship]:
    """The relationships of ``part`` from its parsed ``.rels`` root, in document order;
    internal targets resolved against ``part``'s folder."""
    folder = posixpath.dirname(part)
    out: list[PackageRelationship] = []
    for rel in rels_root.iter(f"{RELS_NS}Relationship"):
        target = rel.get("Target") or ""
        external = rel.get("TargetMode") == "External"
        if not external:
            target = resolve_target(folder, target)
        out.append(PackageRelationship(rel.get("Id") or "", rel.get("Type") or "", target, external))
    return out
