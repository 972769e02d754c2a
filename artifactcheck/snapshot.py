"""Snapshot bundles: everything scoring needs from a Google file, captured once.

Google files change after the agent stops, and content URLs of images expire within
minutes, so scoring from the live file is neither reproducible nor possible later.
``artifactcheck snapshot URL -o bundle.zip`` captures:

    manifest.json     what was captured: file id, kind, Drive metadata, time, member list,
                      content URL -> image member map
    response.json     the documents.get / spreadsheets.get / presentations.get response
    export.pdf        Drive's PDF export (Docs geometry, Slides' drawn text, page images for OCR)
    images/<sha256>.<ext>   bytes of every content URL in the response

``load(bundle.zip)`` then builds the tree offline, with no credentials, through the very
same function the online path uses (:func:`document_from_capture`), so both give
identical Documents. An Office file stored in Drive (not converted) is captured as its
bytes (``original.<ext>``) and read by the Office extractors.
"""

from __future__ import annotations

import functools
import hashlib
import json
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ArtifactCheckError, ArtifactTooLarge, CorruptArtifact, GoogleAPIError
from .input_files import parse_json
from .model import Document

MANIFEST = "manifest.json"
BUNDLE_FORMAT = "artifactcheck-google-snapshot"
BUNDLE_VERSION = 1
_OFFICE_EXT = {
    "application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
}
_MIME_EXT = {"image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp",
             "image/svg+xml": "svg", "image/bmp": "bmp", "image/tiff": "tiff"}
_KIND_URL = {"document": "document", "spreadsheet": "spreadsheets", "presentation": "presentation"}


@dataclass
class Capture:
    """One Google file as fetched: the API response, its PDF export, image bytes."""

    file_id: str
    kind: str  # document | spreadsheet | presentation | office
    metadata: dict[str, Any]
    response: dict[str, Any] | None = None
    pdf: bytes | None = None
    images: dict[str, tuple[bytes, str]] = field(default_factory=dict)
    office_bytes: bytes | None = None
    captured_at: str = ""
    warnings: list[str] = field(default_factory=list)

    @property
    def source_url(self) -> str:
        if self.kind in _KIND_URL:
            return f"https://docs.google.com/{_KIND_URL[self.kind]}/d/{self.file_id}"
        return f"https://drive.google.com/file/d/{self.file_id}"


def content_urls(response: Any) -> list[str]:
    """Every image content URL in a response (``contentUri`` in Docs, ``contentUrl`` in
    Slides images, Sheets charts and picture backgrounds), in document order, once."""
    seen: dict[str, None] = {}
    stack = [response]
    while stack:
        value = stack.pop()
        if isinstance(value, Mapping):
            for key in ("contentUri", "contentUrl"):
                url = value.get(key)
                if isinstance(url, str) and url.startswith("http"):
                    seen.setdefault(url, None)
            stack.extend(reversed(list(value.values())))
        elif isinstance(value, list):
            stack.extend(reversed(value))
    return list(seen)


def canonical_json(response: Any) -> bytes:
    """The bytes a response is stored and hashed as (sorted keys, UTF-8): the online and
    the bundle path hash the same bytes, so artifact hashes agree."""
    return json.dumps(response, ensure_ascii=False, sort_keys=True, indent=1).encode("utf-8")


def capture(source: str, *, credentials: Any = None, client: Any = None, pdf: bool = True,
            metadata: dict[str, Any] | None = None) -> Capture:
    """Fetch one Google file (URL or id) with everything scoring needs. ``metadata`` is
    its Drive metadata when already fetched (``capture_many`` batches those)."""
    from .extractors.google.access import GoogleClient, parse_google_ref, resolve_kind

    ref = parse_google_ref(source)
    client = client or GoogleClient(credentials=credentials)
    kind, meta = resolve_kind(client, ref, metadata=metadata)
    now = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if kind is None:
        return Capture(ref.file_id, "office", meta, office_bytes=client.download(ref.file_id), captured_at=now)
    cap = Capture(ref.file_id, kind, meta, captured_at=now)
    if meta.get("trashed"):
        cap.warnings.append(f"file {ref.file_id} is in the Drive trash")
    cap.response = client.get_response(kind, ref.file_id)
    for url in content_urls(cap.response):
        try:
            cap.images[url] = client.fetch_url(url, file_id=ref.file_id)
        except GoogleAPIError as exc:
            cap.warnings.append(f"image not fetched: {exc}")
    if pdf:
        try:
            cap.pdf = client.export_pdf(ref.file_id)
        except GoogleAPIError as exc:
            if kind == "document":
                raise
            cap.warnings.append(f"PDF export failed: {exc}")
    return cap


def capture_many(sources: list[str], *, credentials: Any = None, client: Any = None, pdf: bool = True) -> list[Capture]:
    """Capture several files; their Drive metadata comes in batched requests."""
    from .extractors.google.access import GoogleClient, parse_google_ref

    client = client or GoogleClient(credentials=credentials)
    refs = [parse_google_ref(s) for s in sources]
    metas = client.metadata_many([r.file_id for r in refs])
    return [capture(r.file_id, client=client, pdf=pdf, metadata=metas[r.file_id]) for r in refs]


def snapshot_many(sources: list[str], directory: str | Path, *, credentials: Any = None, client: Any = None) -> list[Path]:
    """Capture several files into ``directory/<file id>.zip``."""
    out = Path(directory)
    return [write_bundle(cap, out / f"{cap.file_id}.zip")
            for cap in capture_many(sources, credentials=credentials, client=client)]


def document_from_capture(cap: Capture, *, origin: str | Path | None = None, **options: Any) -> Document:
    """The tree of a capture: the one function both online loading and bundles use.
    ``origin`` is what errors name (the bundle file; default: the Google URL)."""
    try:
        return _document_from_capture(cap, **options)
    except ArtifactCheckError as exc:
        if origin is None:
            raise
        raise type(exc)(exc.message, path=origin) if type(exc).__init__ is ArtifactCheckError.__init__ else exc from None


def _document_from_capture(cap: Capture, **options: Any) -> Document:
    if cap.kind == "office":
        from .extractors.office import extract_office

        ext = _OFFICE_EXT.get(str(cap.metadata.get("mimeType")), "bin")
        with tempfile.TemporaryDirectory(prefix="artifactcheck-office-") as tmp:
            # A fixed name: the file id comes from the bundle's manifest (untrusted), and a
            # path built from it (``../../x``, ``/etc/x``) would write outside ``tmp``.
            path = Path(tmp) / f"original.{ext}"
            path.write_bytes(cap.office_bytes or b"")
            doc = extract_office(path, **options)
        if doc.layout_pending:
            # The deferred layout (a .pptx's drawn text) must not render the temp file,
            # gone by then: it writes the same bytes again when it runs.
            doc.defer_layout(functools.partial(_office_layout, data=cap.office_bytes or b"", ext=ext,
                                               timeout=float(options.get("timeout", 120))))
        doc.artifact.path = cap.source_url
        return doc
    from .extractors.google.responses import extract_google_response

    if cap.response is None:
        raise CorruptArtifact("capture holds no API response", path=cap.source_url)
    pdf = cap.pdf if cap.kind in ("document", "presentation") else None
    doc = extract_google_response(cap.response, path=cap.source_url, pdf=pdf, images=cap.images,
                                  raw=canonical_json(cap.response), **options)
    doc.warnings[:0] = cap.warnings
    if cap.metadata.get("name") and isinstance(doc.root.attrs, dict):
        doc.root.attrs.setdefault("drive_name", cap.metadata.get("name"))
    if cap.pdf is not None and isinstance(doc.root.attrs, dict):
        # Page images for OCR come from Drive's export; the tree names it by hash (stable
        # across machines) and export_pdf_path() finds the bytes in the local cache.
        doc.root.attrs["pdf_export_sha256"] = _store_export(cap.pdf)
    return doc


def _office_layout(doc: Document, *, data: bytes, ext: str, timeout: float) -> None:
    """Lay out an Office file of a capture from its bytes (only .pptx defers a layout)."""
    from .extractors.pptx.layout import attach_pptx_layout

    with tempfile.TemporaryDirectory(prefix="artifactcheck-office-") as tmp:
        path = Path(tmp) / f"original.{ext}"
        path.write_bytes(data)
        attach_pptx_layout(doc, path, timeout=timeout)


def _exports_dir() -> Path:
    from .caches import cache_root

    return cache_root() / "google-exports"


def _store_export(pdf: bytes) -> str:
    sha = hashlib.sha256(pdf).hexdigest()
    path = _exports_dir() / f"{sha}.pdf"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pdf)
        tmp.replace(path)  # atomic: parallel workers never see half a PDF
    return sha


def export_pdf_path(doc: Document) -> Path | None:
    """The Drive PDF export of a Google Document loaded online or from a bundle (for page
    images and OCR: ``Resources.extras["pdf_path"]``), or None."""
    sha = doc.root.attrs.get("pdf_export_sha256") if isinstance(doc.root.attrs, dict) else None
    if not isinstance(sha, str):
        return None
    path = _exports_dir() / f"{sha}.pdf"
    return path if path.is_file() else None


def write_bundle(cap: Capture, output: str | Path) -> Path:
    """Write a capture as a bundle zip (deterministic member order)."""
    out = Path(output)
    members: dict[str, bytes] = {}
    image_map: dict[str, dict[str, str]] = {}
    if cap.response is not None:
        members["response.json"] = canonical_json(cap.response)
    if cap.pdf is not None:
        members["export.pdf"] = cap.pdf
    if cap.office_bytes is not None:
        members[f"original.{_OFFICE_EXT.get(str(cap.metadata.get('mimeType')), 'bin')}"] = cap.office_bytes
    for url, (data, mime) in cap.images.items():
        name = f"images/{hashlib.sha256(data).hexdigest()}.{_MIME_EXT.get(mime, 'bin')}"
        members[name] = data
        image_map[url] = {"member": name, "mime": mime}
    manifest = {
        "format": BUNDLE_FORMAT, "version": BUNDLE_VERSION, "file_id": cap.file_id, "kind": cap.kind,
        "source_url": cap.source_url, "captured_at": cap.captured_at, "drive": cap.metadata,
        "members": {name: hashlib.sha256(data).hexdigest() for name, data in sorted(members.items())},
        "images": image_map, "warnings": cap.warnings,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(MANIFEST, json.dumps(manifest, indent=1, sort_keys=True))
        for name in sorted(members):
            zf.writestr(name, members[name])
    return out


def snapshot(source: str, output: str | Path, *, credentials: Any = None, client: Any = None) -> Path:
    """Capture a Google file and write it as a bundle zip."""
    return write_bundle(capture(source, credentials=credentials, client=client), output)


def is_bundle(path: str | Path) -> bool:
    """A zip that holds ``manifest.json`` and no ``[Content_Types].xml`` (an Office file
    never has the former, a bundle never the latter). Whether the manifest is sound is
    :func:`read_bundle`'s question: a damaged bundle is a CorruptArtifact, not "an
    Office file without content types"."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
    except (OSError, zipfile.BadZipFile, ValueError, EOFError):
        return False
    return MANIFEST in names and "[Content_Types].xml" not in names


class _ImageEntry(BaseModel):
    # Built on first validation (design/startup.md): every .zip load imports this module
    # for is_bundle, few read a bundle.
    model_config = ConfigDict(extra="ignore", defer_build=True)

    member: str
    mime: str


class _Manifest(BaseModel):
    """What a bundle's manifest must hold (extra keys are ignored: newer writers)."""

    model_config = ConfigDict(extra="ignore", defer_build=True)

    format: Literal["artifactcheck-google-snapshot"]
    file_id: str = ""
    kind: Literal["document", "spreadsheet", "presentation", "office"]
    drive: dict[str, Any] = Field(default_factory=dict)
    captured_at: str = ""
    members: dict[str, str] = Field(default_factory=dict)
    images: dict[str, _ImageEntry] = Field(default_factory=dict)
    warnings: list[str] = Field(default_factory=list)


def read_bundle(path: str | Path) -> Capture:
    """A bundle zip back into a Capture (offline). Every member is read through the
    package reader's guarded reads (damaged deflate, encryption flag, size limits) and
    every JSON member through the strict JSON reader (depth, NaN); a malformed manifest
    or member is a CorruptArtifact naming the bundle."""
    from .extractors.package.inspection import MAX_PACKAGE_BYTES, read_part

    p = Path(path)
    try:
        zf = zipfile.ZipFile(p)
    except (OSError, zipfile.BadZipFile, ValueError, EOFError) as exc:
        raise CorruptArtifact(f"not a readable snapshot bundle: {exc}", path=p) from None
    with zf:
        if sum(i.file_size for i in zf.infolist()) > MAX_PACKAGE_BYTES:
            raise ArtifactTooLarge("snapshot bundle is larger than the package size limit", path=p)
        raw = parse_json(read_part(zf, MANIFEST, path=p), what=f"bundle {MANIFEST}", error=CorruptArtifact, path=p)
        try:
            manifest = _Manifest.model_validate(raw)
        except ValidationError as exc:
            first = exc.errors(include_url=False, include_input=False)[0]
            where = ".".join(map(str, first["loc"])) or "manifest"
            raise CorruptArtifact(f"bundle {MANIFEST} is malformed at {where}: {first['msg']}", path=p) from None

        def member(name: str) -> bytes:
            data = read_part(zf, name, path=p)
            want = manifest.members.get(name)
            if want is not None and hashlib.sha256(data).hexdigest() != want:
                raise CorruptArtifact(f"bundle member {name} does not match its manifest hash", path=p)
            return data

        names = set(zf.namelist())
        response = None
        if "response.json" in names:
            response = parse_json(member("response.json"), what="bundle response.json", error=CorruptArtifact, path=p)
            if not isinstance(response, dict):
                raise CorruptArtifact("bundle response.json is not a JSON object", path=p)
        elif manifest.kind != "office":
            raise CorruptArtifact(f"a {manifest.kind} bundle without response.json", path=p)
        pdf = member("export.pdf") if "export.pdf" in names else None
        office = next((member(n) for n in sorted(names) if n.startswith("original.")), None)
        images = {url: (member(entry.member), entry.mime) for url, entry in manifest.images.items()}
    return Capture(
        file_id=manifest.file_id, kind=manifest.kind, metadata=manifest.drive, response=response, pdf=pdf,
        images=images, office_bytes=office, captured_at=manifest.captured_at, warnings=manifest.warnings,
    )


def load_bundle(path: str | Path, **options: Any) -> Document:
    """Build the tree from a snapshot bundle, offline. Errors name the bundle file (the
    tree's ``artifact.path`` is still the Google URL it was captured from)."""
    return document_from_capture(read_bundle(path), origin=path, **options)


def load_google(source: str, *, credentials: Any = None, client: Any = None, **options: Any) -> Document:
    """Build the tree of a live Google file (URL or id)."""
    return document_from_capture(capture(source, credentials=credentials, client=client), **options)
