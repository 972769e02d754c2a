"""Opening an OOXML package safely, and telling .docx/.xlsx/.pptx apart by content.

Every extractor opens its file through :func:`open_package`, which checks, before any
library parses a byte: that the file is a zip (or says it is an encrypted or legacy
binary Office file), that the zip is complete, that the declared uncompressed sizes and
compression ratios are sane (zip bombs), and which main part the package declares
(``[Content_Types].xml``), so a .docx renamed .pptx is recognised, not misread.
XML is parsed with entity resolution and network access off (XML bombs, XXE): ``xml.py``.
"""

from __future__ import annotations

import io
import lzma
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Literal

from ...errors import (
    ArtifactTooLarge,
    CorruptArtifact,
    EncryptedArtifact,
    UnsupportedFormat,
)
from .relationships import RELS_NS
from .xml import parse_xml

OfficeFormat = Literal["docx", "xlsx", "pptx"]

CFB_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK"
MAX_PACKAGE_BYTES = 512 * 1024 * 1024  # total uncompressed size of all parts
MAX_PART_BYTES = 256 * 1024 * 1024
MAX_RATIO = 200  # uncompressed/compressed of one part; text XML rarely exceeds ~30
RATIO_FLOOR_BYTES = 4 * 1024 * 1024  # the ratio rule applies only to parts above this
MAX_PARTS = 20_000

_MAIN_CONTENT_TYPES: dict[str, OfficeFormat] = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml": "docx",
    "application/vnd.ms-word.document.macroEnabled.main+xml": "docx",
    "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml": "docx",
    "application/vnd.ms-word.template.macroEnabledTemplate.main+xml": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml": "xlsx",
    "application/vnd.ms-excel.sheet.macroEnabled.main+xml": "xlsx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml": "xlsx",
    "application/vnd.ms-excel.template.macroEnabled.main+xml": "xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml": "pptx",
    "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml": "pptx",
    "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml": "pptx",
    "application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml": "pptx",
    "application/vnd.openxmlformats-officedocument.presentationml.template.main+xml": "pptx",
    "application/vnd.ms-powerpoint.template.macroEnabled.main+xml": "pptx",
}
_CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"

@dataclass(frozen=True)
class PackageInfo:
    format: OfficeFormat
    main_part: str
    content_type: str
    parts: tuple[str, ...]


def read_head(path: Path, n: int = 8) -> bytes:
    with path.open("rb") as fh:
        return fh.read(n)


def inspect_package(path: str | Path) -> PackageInfo:
    """Check the container and return which Office format it holds.

    Raises ``CorruptArtifact`` (empty, truncated, not a zip, broken XML),
    ``EncryptedArtifact`` (password-protected OOXML), ``ArtifactTooLarge`` (zip bomb
    limits) or ``UnsupportedFormat`` (legacy binary Office, Strict OOXML, other zips).
    """
    p = Path(path)
    if not p.is_file():
        raise CorruptArtifact("no such file", path=p)
    st = p.stat()
    if st.st_size == 0:
        raise CorruptArtifact("the file is empty (0 bytes)", path=p)
    # load() inspects to choose the extractor, the extractor inspects what it was given,
    # and the renderer inspects before starting soffice: remember the verdict for an
    # unchanged file so the zip directory and [Content_Types].xml are read once.
    key = (str(p.resolve()), st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    info = _INSPECTED.get(key)
    if info is None:
        info = _inspect(p)
        _INSPECTED[key] = info
        if len(_INSPECTED) > _INSPECTED_MAX:
            _INSPECTED.pop(next(iter(_INSPECTED)))
    return info


_INSPECTED: dict[tuple[str, int, int, int, int], PackageInfo] = {}
_INSPECTED_MAX = 64


def _inspect(p: Path) -> PackageInfo:
    head = read_head(p)
    if head.startswith(CFB_MAGIC):
        if _cfb_has_encrypted_package(p):
            raise EncryptedArtifact(
                "the file is a password-protected (encrypted) Office document; "
                "save it without a password first",
                path=p,
            )
        raise UnsupportedFormat(
            "legacy binary Office file (.doc/.xls/.ppt, OLE compound file); "
            "save it as .docx/.xlsx/.pptx",
            path=p,
        )
    if not head.startswith(ZIP_MAGIC):
        raise UnsupportedFormat(
            f"not an Office Open XML file (starts with {head[:4]!r}, expected a zip)", path=p
        )
    try:
        zf = zipfile.ZipFile(p)
    except zipfile.BadZipFile as exc:
        raise CorruptArtifact(f"broken or truncated zip container: {exc}", path=p) from None
    except (OSError, ValueError, EOFError) as exc:
        raise CorruptArtifact(f"cannot read the zip container: {exc}", path=p) from None
    with zf:
        infos = zf.infolist()
        check_zip_limits(infos, path=p)
        names = tuple(i.filename for i in infos)
        if "[Content_Types].xml" not in names:
            raise CorruptArtifact(
                "zip has no [Content_Types].xml, so it is not an Office Open XML package", path=p
            )
        ct_root = parse_xml(_read(zf, "[Content_Types].xml", path=p), path=p, part="[Content_Types].xml")
        main_part, strict = _main_part_from_rels(zf, names, path=p)
    if strict:
        raise UnsupportedFormat(
            "Strict Office Open XML (ISO/IEC 29500 Strict) is not supported; "
            "save it as a Transitional .docx/.xlsx/.pptx",
            path=p,
        )
    overrides = {
        o.get("PartName", "").lstrip("/"): o.get("ContentType", "")
        for o in ct_root.iter(f"{_CT_NS}Override")
    }
    defaults = {
        d.get("Extension", "").lower(): d.get("ContentType", "")
        for d in ct_root.iter(f"{_CT_NS}Default")
    }
    if main_part is not None:
        ctype = overrides.get(main_part) or defaults.get(main_part.rsplit(".", 1)[-1].lower(), "")
        fmt = _MAIN_CONTENT_TYPES.get(ctype)
        if fmt is not None and main_part in names:
            return PackageInfo(format=fmt, main_part=main_part, content_type=ctype, parts=names)
        if main_part not in names:
            raise CorruptArtifact(
                f"the package's main part {main_part} (named in _rels/.rels) is missing", path=p
            )
    # No usable relationship: fall back to the first declared main part.
    for part, ctype in overrides.items():
        fmt = _MAIN_CONTENT_TYPES.get(ctype)
        if fmt is not None and part in names:
            return PackageInfo(format=fmt, main_part=part, content_type=ctype, parts=names)
    raise UnsupportedFormat(
        "the package declares no Word, Excel or PowerPoint main part", path=p
    )


_OFFICE_DOCUMENT_REL = "/officeDocument/2006/relationships/officeDocument"
_STRICT_OFFICE_DOCUMENT_REL = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"


def _main_part_from_rels(
    zf: zipfile.ZipFile, names: tuple[str, ...], *, path: Path
) -> tuple[str | None, bool]:
    """The main part named by the package relationships, and whether it is Strict."""
    if "_rels/.rels" not in names:
        return None, False
    rels = parse_xml(_read(zf, "_rels/.rels", path=path), path=path, part="_rels/.rels")
    for rel in rels.iter(f"{RELS_NS}Relationship"):
        rtype = rel.get("Type", "")
        target = rel.get("Target", "").lstrip("/")
        if rtype == _STRICT_OFFICE_DOCUMENT_REL:
            return target, True
        if rtype.endswith(_OFFICE_DOCUMENT_REL):
            return target, False
    return None, False


PART_READ_ERRORS: tuple[type[Exception], ...] = (
    zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, RuntimeError,
    zlib.error, lzma.LZMAError,
)  # fmt: skip
"""What reading one member of a damaged zip raises: a bad CRC or truncated stream
(BadZipFile, EOFError), an unknown compression method (NotImplementedError), the
encryption flag (RuntimeError: "password required"), a corrupt deflate, LZMA or bzip2
stream (zlib.error, LZMAError, OSError). :func:`read_part` and :func:`open_part` turn
them into CorruptArtifact naming the part; every package reader goes through them."""


def read_part(zf: zipfile.ZipFile, name: str | zipfile.ZipInfo, *, path: Path, limit: int = MAX_PART_BYTES) -> bytes:
    """The bytes of one member, at most ``limit`` of them (declared or real). A missing
    member, a damaged one or one over the limit is a typed error naming the part."""
    with open_part(zf, name, path=path, limit=limit) as fh:
        return fh.read()


def open_part(zf: zipfile.ZipFile, name: str | zipfile.ZipInfo, *, path: Path, limit: int = MAX_PART_BYTES) -> IO[bytes]:
    """A binary stream over one member (for streamed XML): reading it raises only
    CorruptArtifact (damaged) or ArtifactTooLarge (past ``limit``), naming the part."""
    part = name.filename if isinstance(name, zipfile.ZipInfo) else name
    try:
        info = name if isinstance(name, zipfile.ZipInfo) else zf.getinfo(name)
    except KeyError:
        raise CorruptArtifact(f"part {part} is referenced but missing from the package", path=path) from None
    if info.file_size > limit:
        raise ArtifactTooLarge(f"part {part} is {info.file_size} bytes (limit {limit})", path=path)
    if info.flag_bits & 0x1:
        raise CorruptArtifact(f"part {part} is zip-encrypted (Office files never encrypt zip members; "
                              "a password-protected Office file is not a zip)", path=path)
    try:
        raw = zf.open(info)
    except PART_READ_ERRORS as exc:
        raise CorruptArtifact(f"cannot decompress part {part}: {_one_line(exc)}", path=path) from None
    return io.BufferedReader(_GuardedMember(raw, part=part, path=path, limit=limit))


class _GuardedMember(io.RawIOBase):
    """A zip member stream whose failures are typed and whose size is bounded (the
    declared size is checked before opening; this catches a member that inflates past
    what it declares)."""

    def __init__(self, raw: IO[bytes], *, part: str, path: Path, limit: int) -> None:
        self._raw, self._part, self._path, self._left = raw, part, path, limit

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        try:
            data = self._raw.read(min(len(view), self._left + 1))
        except PART_READ_ERRORS as exc:
            raise CorruptArtifact(f"cannot decompress part {self._part}: {_one_line(exc)}", path=self._path) from None
        if len(data) > self._left:
            raise ArtifactTooLarge(f"part {self._part} inflates past its limit", path=self._path)
        self._left -= len(data)
        view[: len(data)] = data
        return len(data)

    def close(self) -> None:
        self._raw.close()
        super().close()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def _read(zf: zipfile.ZipFile, name: str, *, path: Path) -> bytes:
    return read_part(zf, name, path=path)


def check_zip_limits(infos: list[zipfile.ZipInfo], *, path: Path) -> None:
    """Refuse a zip whose parts are too many, too large or expand too much (zip bombs):
    the limits every zip container we read shares (OOXML, OpenDocument, EPUB)."""
    if len(infos) > MAX_PARTS:
        raise ArtifactTooLarge(f"{len(infos)} parts in the zip (limit {MAX_PARTS})", path=path)
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > MAX_PART_BYTES:
            raise ArtifactTooLarge(
                f"part {info.filename} declares {info.file_size} bytes uncompressed "
                f"(limit {MAX_PART_BYTES})",
                path=path,
            )
        if (
            info.file_size > RATIO_FLOOR_BYTES
            and info.compress_size > 0
            and info.file_size / info.compress_size > MAX_RATIO
        ):
            raise ArtifactTooLarge(
                f"part {info.filename} expands {info.file_size / info.compress_size:.0f}x "
                f"(limit {MAX_RATIO}x): a zip bomb",
                path=path,
            )
    if total > MAX_PACKAGE_BYTES:
        raise ArtifactTooLarge(
            f"parts total {total} bytes uncompressed (limit {MAX_PACKAGE_BYTES})", path=path
        )


def _cfb_has_encrypted_package(path: Path) -> bool:
    """An encrypted OOXML file is a CFB container with an ``EncryptedPackage`` stream.
    The stream name is stored UTF-16LE in the directory; a byte search is enough to
    tell it from a legacy .doc/.xls/.ppt without a CFB parser."""
    with path.open("rb") as fh:
        data = fh.read(4 * 1024 * 1024)  # the directory sits near the start; never read it all
    return "EncryptedPackage".encode("utf-16-le") in data

