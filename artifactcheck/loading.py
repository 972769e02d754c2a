"""``load``: pick the extractor by the artifact's content and build its Document."""

from __future__ import annotations

import difflib
import zipfile
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from .errors import ArtifactCheckError, CorruptArtifact, UnsupportedFormat, UsageError
from .extractors.office import extract_office
from .extractors.package.sniff import sniff
from .extractors.package.xml import element_budget
from .input_files import read_json_file
from .model import Document
from .model.budget import node_budget

# Names that promise a binary format: plain text under one of them is refused with a
# clear error instead of being read as a one-column CSV.
_BINARY_SUFFIXES = {
    ".docx", ".docm", ".xlsx", ".xlsm", ".pptx", ".pptm", ".doc", ".xls", ".ppt",
    ".pdf", ".odt", ".ods", ".odp", ".epub", ".zip",
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp",
}  # fmt: skip


LOAD_OPTIONS: dict[str, str] = {
    "render": "bool, default True. .docx: lay the document out with LibreOffice (cached by content) and give nodes their printed boxes and pages; False reads the tree only, faster, and page or position checks then end in `error`",
    "timeout": "seconds, default 120. How long LibreOffice may take to render a .docx or recalculate an .xlsx before it is killed (RenderTimeout)",
    "recalculate": "bool, default True. .xlsx: formulas the file never calculated (openpyxl output) get LibreOffice's values; False leaves them unknown (value checks then end in `error`)",
    "today": "date or ISO string, default the day of loading. .xlsx: the day TODAY() and date conditional formats are evaluated against",
    "ocr": "bool, default False. Images and PDFs: add the words tesseract reads as paragraph/line/run nodes",
    "lang": "tesseract language codes, default 'eng' ('eng+deu'). With ocr",
    "ocr_dpi": "int, default 300. PDF: resolution pages without a text layer are OCR'd at",
    "day_first": "bool, default False. CSV/TSV: read d/m/yyyy dates (a European Excel) instead of m/d/yyyy",
    "credentials": "path. Google URL or file id: a service-account key or authorized-user token file (default: ARTIFACTCHECK_GOOGLE_CREDENTIALS, application default credentials, the token file)",
    "client": "GoogleClient. Google URL or file id: the client to fetch with (tests pass one over a recorded HTTP mock)",
    "pdf": "path or bytes. Saved Google Docs response: the Drive PDF export that gives the layout (default: a .pdf with the same name beside the .json)",
    "images": "dict. Saved Google response: content URL -> (bytes, MIME type) of the pictures the response links to",
}
"""Every option :func:`load` takes: name -> type, default and what it does. Options that
do not apply to the artifact's format are ignored; a name not listed here is a TypeError
(with the nearest names), never silently ignored."""


def check_load_options(options: dict[str, Any]) -> None:
    """TypeError naming the first option :func:`load` does not take, and the nearest."""
    unknown = [name for name in options if name not in LOAD_OPTIONS]
    if unknown:
        near = difflib.get_close_matches(unknown[0], list(LOAD_OPTIONS), n=1)
        hint = f"; did you mean {near[0]!r}?" if near else f"; options: {', '.join(LOAD_OPTIONS)}"
        raise TypeError(f"load() got an unknown option {unknown[0]!r}{hint}")


def load(source: str | Path, **options: Any) -> Document:
    """Read an artifact into a Document.

    ``source`` is a path to a .docx/.xlsx/.pptx file, a PDF, a CSV/TSV file, an
    OpenDocument file (.odt/.ods/.odp, read through LibreOffice's OOXML conversion), an
    EPUB (its spine's XHTML as paragraphs, runs, pictures and tables; no render),
    LibreOffice's settings (``registrymodifications.xcu``: ``setting`` nodes), an image (.png/.jpg/.gif/.bmp/.tiff/.webp) — the format told by content, not by the
    file name — a saved Google API response (.json), a saved tree (``artifactcheck
    extract``), a snapshot bundle (.zip from ``artifactcheck snapshot``), or a Google
    Docs/Sheets/Slides/Drive URL or file id (fetched live).

    Options (keyword arguments; those that do not apply to the format are ignored, an
    unknown name is a TypeError naming the nearest ones; :data:`LOAD_OPTIONS`):

    - ``render`` (bool, default True): .docx — lay the document out with LibreOffice
      (cached by content) so nodes get printed boxes and pages; False is faster but page
      and position checks then end in ``error``.
    - ``timeout`` (seconds, default 120): LibreOffice's limit for a .docx render or an
      .xlsx recalculation (``RenderTimeout``).
    - ``recalculate`` (bool, default True): .xlsx — formulas never calculated (openpyxl
      output) get LibreOffice's values; False leaves them unknown.
    - ``today`` (date or ISO string): .xlsx — the day ``TODAY()`` and date conditional
      formats are evaluated against (default: the day of loading).
    - ``ocr`` (bool, default False), ``lang`` (default ``"eng"``), ``ocr_dpi`` (default
      300): images and PDFs — add the words tesseract reads as nodes.
    - ``day_first`` (bool, default False): CSV/TSV — read ``d/m/yyyy`` dates.
    - ``credentials`` (path), ``client`` (GoogleClient): Google URL or id — how to fetch
      (default chain: ``extractors/google/access.py``).
    - ``pdf`` (path or bytes), ``images`` (content URL -> (bytes, MIME)): a saved Google
      response — its Drive PDF export and pictures, for offline layout and image checks.

    >>> load("fixtures/pptx/deck.pptx")                              # doctest: +SKIP
    <Document pptx 'fixtures/pptx/deck.pptx': 5 slides, 81 nodes, 2 images>
    >>> load("fixtures/docx/tree_features.docx", rendr=False)         # doctest: +SKIP
    TypeError: load() got an unknown option 'rendr'; did you mean 'render'?

    Raises an :class:`~artifactcheck.errors.ArtifactCheckError` subclass naming the file
    and the problem when the artifact cannot be read; ``ArtifactTooLarge`` when it
    exceeds a budget of :mod:`artifactcheck.limits` (nodes, XML elements, grid cells...).
    """
    check_load_options(options)
    try:
        with node_budget(source), element_budget():
            return _load(source, **options)
    except ArtifactCheckError as exc:
        named = exc.naming(source)
        if named is exc:
            raise
        raise named from None


def _load(source: str | Path, **options: Any) -> Document:
    if isinstance(source, str) and not Path(source).exists():
        from .extractors.google.access import looks_like_google_ref

        if looks_like_google_ref(source) or "credentials" in options or "client" in options:
            from .snapshot import load_google  # a Google URL or file id: fetch it

            return load_google(source, **options)
    path = Path(source)
    if path.exists() and not path.is_file():
        # A folder, FIFO or device is the caller's mistake, not a missing or broken file:
        # it was "no such file" (a folder in a batch manifest was the agent's FAIL).
        kind_of = "a folder" if path.is_dir() else "not a regular file (a pipe or device)"
        raise UsageError(f"is {kind_of}, not an artifact file; give the file itself", path=path)
    kind = sniff(path) if path.is_file() else "empty"
    if kind == "zip" and not _plainly_ooxml(path):
        from .snapshot import is_bundle, load_bundle

        if is_bundle(path):  # a Google snapshot bundle: offline, no credentials
            return load_bundle(path, **options)
        # the package test only: extractors.odf itself imports the renderer (pypdfium2)
        from .extractors.package.opendocument import odf_mimetype

        if odf_mimetype(path) is not None:
            from .extractors.odf import extract_odf

            return extract_odf(path, **options)
        from .extractors.epub.package import looks_like_epub  # the test only, not the reader

        if looks_like_epub(path):
            from .extractors.epub import extract_epub

            return extract_epub(path, **options)
    elif kind == "pdf":
        from .extractors.pdf import extract_pdf

        return extract_pdf(path, **options)
    elif kind in ("png", "jpeg", "gif", "bmp", "tiff", "webp"):
        from .extractors.image import extract_image

        return extract_image(path, **options)
    elif kind == "json":
        return _load_json(path, **options)
    elif kind == "text":
        from .extractors.settings import extract_xcu, looks_like_xcu

        with path.open("rb") as fh:
            head = fh.read(4096)
        if looks_like_xcu(head) or path.suffix.lower() == ".xcu":
            return extract_xcu(path, **options)
        if path.suffix.lower() in _BINARY_SUFFIXES:
            raise UnsupportedFormat(
                f"named {path.suffix} but holds no {path.suffix} container (its bytes look like plain text)",
                path=path,
            )
        from .extractors.csv import extract_csv

        return extract_csv(path, **options)
    return extract_office(path, **options)


def _plainly_ooxml(path: Path) -> bool:
    """A zip with ``[Content_Types].xml`` and no ``mimetype`` member: an Office Open XML
    package, which none of the other zip formats is (a snapshot bundle and an EPUB have no
    content types, an OpenDocument package and an EPUB declare a ``mimetype``). Lets the
    .docx/.xlsx/.pptx of every evaluator skip three more zip opens and the imports of
    the bundle and EPUB tests; any doubt (or an unreadable zip) goes the long way."""
    try:
        with zipfile.ZipFile(path) as zf:
            names = set(zf.namelist())
    except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError):
        return False
    return "[Content_Types].xml" in names and "mimetype" not in names


def _load_json(path: Path, **options: Any) -> Document:
    data = read_json_file(path, what="JSON artifact (not an Office file)", error=UnsupportedFormat)
    if isinstance(data, dict) and data.get("schema_version") and "root" in data:
        return _saved_tree(data, path)
    from .extractors.google.responses import extract_google_response

    return extract_google_response(data, path=path, **options)


def _saved_tree(data: dict[str, Any], path: Path) -> Document:
    """A tree saved by ``artifactcheck extract``; a malformed one names its first fault
    (its location and pydantic's message, never the offending value)."""
    try:
        return Document.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False, include_input=False)[0]
        where = ".".join(map(str, first["loc"])) or "document"
        raise CorruptArtifact(
            f"not a valid saved document tree: {exc.error_count()} error(s); first at {where}: {first['msg']}",
            path=path,
        ) from None
