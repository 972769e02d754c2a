"""An EPUB package, opened safely: the zip (the OOXML limits on parts, sizes and
compression ratios: zip bombs), ``META-INF/container.xml`` -> the package document (OPF)
-> its manifest, spine and metadata (EPUB 3.3 sections 4-5; EPUB 2's OPF has the same
shape). Every fault is a typed error naming the file and the part.

Told by content (:func:`looks_like_epub`): the ``mimetype`` member says
``application/epub+zip``, or, without one, the zip has a ``META-INF/container.xml`` and
is no OOXML package.
"""

from __future__ import annotations

import posixpath
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from lxml import etree

from ...errors import CorruptArtifact, EncryptedArtifact, UnsupportedFormat
from ..package.inspection import PART_READ_ERRORS, check_zip_limits, read_part
from ..package.xml import parse_xml

__all__ = ["EPUB_MIMETYPE", "EpubPackage", "SpineItem", "looks_like_epub", "open_epub"]

EPUB_MIMETYPE = "application/epub+zip"
CONTAINER = "META-INF/container.xml"
_CONTAINER_NS = "{urn:oasis:names:tc:opendocument:xmlns:container}"
_OPF_NS = "{http://www.idpf.org/2007/opf}"
_DC_NS = "{http://purl.org/dc/elements/1.1/}"
_ENC_NS = "{http://www.w3.org/2001/04/xmlenc#}"
XHTML_TYPES = frozenset({"application/xhtml+xml", "text/html", "application/x-dtbook+xml"})
"""Spine media types read as content documents (``text/html``: EPUB 2 files in the wild)."""


@dataclass(frozen=True)
class SpineItem:
    """One content document in reading order: its manifest id, zip member and media type."""

    idref: str
    part: str
    media_type: str
    linear: bool


@dataclass
class EpubPackage:
    """The open zip, the OPF's location and what it declares."""

    zf: zipfile.ZipFile
    path: Path
    opf_part: str
    version: str | None
    title: str | None
    language: str | None
    spine: list[SpineItem] = field(default_factory=list)

    def read(self, part: str) -> bytes:
        """The bytes of one member (bounded; a missing one is CorruptArtifact naming it)."""
        return read_part(self.zf, part, path=self.path)

    def has(self, part: str) -> bool:
        return part in self._names

    def __post_init__(self) -> None:
        self._names = set(self.zf.namelist())


def looks_like_epub(path: Path) -> bool:
    """Whether the zip at ``path`` is an EPUB (see the module docstring); never raises."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
            if "mimetype" in names:
                info = zf.getinfo("mimetype")
                if info.file_size <= 256:
                    return zf.read(info).decode("ascii", "replace").strip() == EPUB_MIMETYPE
            return CONTAINER in names and "[Content_Types].xml" not in names
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return False


def resolve(base_part: str, href: str) -> str:
    """The zip member an ``href`` written in ``base_part`` points at (percent-decoded,
    fragment dropped, ``..`` resolved; never above the zip's root).

    >>> resolve("OEBPS/text/ch1.xhtml", "../images/a%20b.png#x")
    'OEBPS/images/a b.png'
    """
    target = unquote(href.split("#", 1)[0])
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base_part), target))
    return joined.lstrip("/") if not joined.startswith("..") else joined


def open_epub(path: Path) -> EpubPackage:
    """Open and check ``path``; the caller closes ``package.zf``.

    Raises CorruptArtifact (broken zip, no container or package document, malformed XML,
    an empty spine, a spine item missing from the manifest or the zip),
    EncryptedArtifact (spine items listed in ``META-INF/encryption.xml``: DRM),
    ArtifactTooLarge (the zip limits), UnsupportedFormat (a spine of no XHTML)."""
    try:
        zf = zipfile.ZipFile(path)
    except zipfile.BadZipFile as exc:
        raise CorruptArtifact(f"broken or truncated EPUB zip: {exc}", path=path) from None
    except PART_READ_ERRORS as exc:
        raise CorruptArtifact(f"cannot read the EPUB zip: {exc}", path=path) from None
    try:
        return _read_package(zf, path)
    except BaseException:
        zf.close()
        raise


def _read_package(zf: zipfile.ZipFile, path: Path) -> EpubPackage:
    infos = zf.infolist()
    check_zip_limits(infos, path=path)
    names = {i.filename for i in infos}
    if CONTAINER not in names:
        raise CorruptArtifact(f"the EPUB has no {CONTAINER} (the file that names its package document)", path=path)
    container = parse_xml(read_part(zf, CONTAINER, path=path), path=path, part=CONTAINER)
    rootfile = next(
        (r for r in container.iter(f"{_CONTAINER_NS}rootfile")
         if (r.get("media-type") or "application/oebps-package+xml") == "application/oebps-package+xml"),
        None,
    )
    if rootfile is None or not rootfile.get("full-path"):
        raise CorruptArtifact(f"{CONTAINER} names no package document (rootfile full-path)", path=path)
    opf_part = resolve("", rootfile.get("full-path", ""))
    if opf_part not in names:
        raise CorruptArtifact(f"the package document {opf_part} named by {CONTAINER} is missing", path=path)
    opf = parse_xml(read_part(zf, opf_part, path=path), path=path, part=opf_part)
    manifest = {
        item.get("id", ""): (resolve(opf_part, item.get("href", "")), item.get("media-type", ""))
        for item in opf.iter(f"{_OPF_NS}item")
        if item.get("id") and item.get("href")
    }
    spine_el = opf.find(f"{_OPF_NS}spine")
    refs = [] if spine_el is None else list(spine_el.iter(f"{_OPF_NS}itemref"))
    if not refs:
        raise CorruptArtifact(f"the package document {opf_part} has an empty spine (no reading order)", path=path)
    spine: list[SpineItem] = []
    for ref in refs:
        idref = ref.get("idref", "")
        if idref not in manifest:
            raise CorruptArtifact(f"spine item {idref!r} of {opf_part} is not in the manifest", path=path)
        part, media_type = manifest[idref]
        if part not in names:
            raise CorruptArtifact(f"spine item {idref!r} ({part}) is missing from the package", path=path)
        spine.append(SpineItem(idref, part, media_type, ref.get("linear", "yes") != "no"))
    if not any(s.media_type in XHTML_TYPES for s in spine):
        raise UnsupportedFormat(f"the EPUB's spine holds no XHTML content document ({opf_part})", path=path)
    _refuse_drm(zf, path, names, {s.part for s in spine})
    return EpubPackage(
        zf=zf, path=path, opf_part=opf_part, version=opf.get("version"),
        title=_metadata(opf, "title"), language=_metadata(opf, "language"), spine=spine,
    )


def _metadata(opf: etree._Element, name: str) -> str | None:
    el = opf.find(f"{_OPF_NS}metadata/{_DC_NS}{name}")
    text = " ".join((el.text or "").split()) if el is not None else ""
    return text or None


def _refuse_drm(zf: zipfile.ZipFile, path: Path, names: set[str], spine_parts: set[str]) -> None:
    """Content documents listed as encrypted cannot be read (fonts obfuscated by the IDPF
    algorithm are listed there too, and are harmless)."""
    enc = "META-INF/encryption.xml"
    if enc not in names:
        return
    root = parse_xml(read_part(zf, enc, path=path), path=path, part=enc)
    for ref in root.iter(f"{_ENC_NS}CipherReference"):
        if resolve("", ref.get("URI", "")) in spine_parts:
            raise EncryptedArtifact(
                f"the EPUB's content documents are encrypted ({enc} lists {ref.get('URI')}): DRM", path=path
            )
