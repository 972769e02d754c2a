"""A saved Google API response -> Document, the API recognised from the JSON's shape.

Harnesses often already hold the response of ``documents.get``, ``spreadsheets.get`` or
``presentations.get``; ``artifactcheck extract RESPONSE.json`` and ``load(RESPONSE.json)``
come here. Recognition (first match wins):

- Slides: ``presentationId``, or ``slides``/``masters``/``layouts`` beside ``pageSize``.
- Sheets: ``spreadsheetId``, or a ``sheets`` list whose items have ``properties``/``data``.
- Docs: ``documentId``, or ``body.content`` / ``tabs`` (legacy and tabbed responses).
- A VCR cassette (``interactions``, as recorded by vcrpy/gspread tests): the last
  successful response of a ``get`` on one of the three APIs is used.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from ...errors import ArtifactCheckError, CorruptArtifact, UnsupportedFormat
from ...input_files import parse_json
from ...model import Document

ApiKind = Literal["document", "spreadsheet", "presentation"]

_GET_PATHS = ("/v1/documents/", "/v4/spreadsheets/", "/v1/presentations/")


def detect_api(data: Any) -> ApiKind | None:
    """Which Google API produced this JSON, or None."""
    if not isinstance(data, Mapping):
        return None
    if "presentationId" in data or (
        "pageSize" in data and any(k in data for k in ("slides", "masters", "layouts"))
    ):
        return "presentation"
    if "spreadsheetId" in data:
        return "spreadsheet"
    sheets = data.get("sheets")
    if isinstance(sheets, list) and all(
        isinstance(s, Mapping) and ("properties" in s or "data" in s) for s in sheets
    ):
        return "spreadsheet"
    if "documentId" in data or "tabs" in data:
        return "document"
    body = data.get("body")
    if isinstance(body, Mapping) and "content" in body:
        return "document"
    return None


def response_from_cassette(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """The Docs/Sheets/Slides ``get`` response recorded in a VCR cassette: the last
    full-metadata response, with the grid data of a later field-masked response of the
    same spreadsheet merged in (gspread fetches metadata and cells separately).

    A cassette is untrusted JSON: interactions of the wrong shape are skipped; a body
    that is not strict JSON (NaN, nesting past the budget) is a CorruptArtifact."""
    meta: dict[str, Any] | None = None
    grid: dict[str, Any] | None = None
    interactions = data.get("interactions")
    for interaction in interactions if isinstance(interactions, list) else []:
        if not isinstance(interaction, Mapping):
            continue
        req, resp = _mapping(interaction.get("request")), _mapping(interaction.get("response"))
        if str(req.get("method", "")).upper() != "GET":
            continue
        uri = str(req.get("uri", "")).split("?")[0]
        if not any(p in uri for p in _GET_PATHS) or "/values" in uri:
            continue
        if _mapping(resp.get("status")).get("code") not in (200, "200"):
            continue
        body = resp.get("body") or {}
        text = body.get("string", "") if isinstance(body, Mapping) else body
        if not isinstance(text, (str, bytes)):
            continue
        if not text.lstrip()[:1] in ("{", b"{"):
            continue  # not a JSON object (an HTML error page): not a get response
        parsed = parse_json(text, what="recorded response body", error=CorruptArtifact)
        if detect_api(parsed) is None:
            continue
        if "properties" in parsed or "documentId" in parsed or "presentationId" in parsed:
            meta = parsed
        elif any(isinstance(s, Mapping) and s.get("data") for s in _list(parsed.get("sheets"))):
            grid = parsed
    if meta is not None and grid is not None and isinstance(meta.get("sheets"), list):
        for sheet, with_data in zip(meta["sheets"], _list(grid.get("sheets")), strict=False):
            if isinstance(sheet, dict) and isinstance(with_data, Mapping) and with_data.get("data"):
                sheet["data"] = with_data["data"]
    return meta if meta is not None else grid


def _mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def extract_google_response(
    data: dict[str, Any],
    *,
    path: str | Path | None = None,
    pdf: str | Path | bytes | None = None,
    raw: bytes | None = None,
    **options: Any,
) -> Document:
    """Build the tree of a saved Google API response (see the module docstring).

    ``pdf`` is an optional Drive PDF export (Docs geometry, Slides' drawn text; a ``.pdf``
    with the same name beside a ``.json`` response is used when not given); ``images`` (in options) maps
    content URLs to (bytes, mime). Raises UnsupportedFormat for JSON of another shape."""
    try:
        return _extract(data, path=path, pdf=pdf, raw=raw, **options)
    except ArtifactCheckError as exc:
        named = exc.naming(path)
        if named is exc:
            raise
        raise named from None
    except (KeyError, TypeError, AttributeError, ValueError, IndexError, OverflowError, RecursionError) as exc:
        # A response of the right API whose fields have the wrong shapes or values
        # (hand-edited, truncated, another API version, an infinite colour component):
        # say so, never a traceback. RecursionError: a response nested past what the
        # extractors walk (JSON read by us is depth-checked first; a dict handed in by
        # a caller is not).
        kind = detect_api(data) or "Google API"
        raise CorruptArtifact(
            f"malformed {kind} response: {type(exc).__name__}: {_one_line(exc)}", path=path
        ) from None


def _one_line(exc: BaseException, limit: int = 200) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _extract(
    data: Any,
    *,
    path: str | Path | None,
    pdf: str | Path | bytes | None,
    raw: bytes | None,
    **options: Any,
) -> Document:
    if raw is None and path is not None and Path(path).is_file():
        raw = Path(path).read_bytes()  # hash the file as given, not a re-serialisation
    if isinstance(data, Mapping) and "interactions" in data:
        inner = response_from_cassette(data)
        if inner is None:
            raise UnsupportedFormat(
                "a recorded cassette without a Docs/Sheets/Slides get response", path=path
            )
        data, raw = inner, None
    kind = detect_api(data)
    if kind in ("document", "presentation") and pdf is None and path is not None:
        beside = Path(path).with_suffix(".pdf")
        if beside.is_file() and Path(path).suffix.lower() == ".json":
            pdf = beside  # doc.json + doc.pdf: the Drive export saved beside the response
    if kind is not None:
        from .docs import extract_gdoc
        from .sheets import extract_gsheet
        from .slides import extract_gslides

        extractors: dict[str, Callable[..., Document]] = {
            "document": extract_gdoc, "spreadsheet": extract_gsheet, "presentation": extract_gslides,
        }
        return extractors[kind](data, path=path, pdf=pdf, raw=raw, **options)
    keys = sorted(data)[:8] if isinstance(data, Mapping) else type(data).__name__
    raise UnsupportedFormat(
        f"JSON is not a documents.get, spreadsheets.get or presentations.get response (keys: {keys})",
        path=path,
    )
