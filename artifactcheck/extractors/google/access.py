"""Talking to Google: credentials, file references, API calls with retries, typed errors.

Everything that touches the network lives here, so the extractors (``docs``, ``sheets``,
``slides``) stay pure functions of API responses and can be driven offline from a
snapshot bundle or a saved response.

- Credentials, in the order users expect (:func:`load_credentials`): an explicit
  argument (a service-account or authorized-user JSON file, its parsed dict, or a
  ready ``google.auth`` Credentials object); else ``ARTIFACTCHECK_GOOGLE_CREDENTIALS``
  (a path, same rules); else application default credentials (``GOOGLE_APPLICATION_
  CREDENTIALS``, gcloud ADC, the metadata server); else an authorized-user token file
  (``ARTIFACTCHECK_GOOGLE_TOKEN`` or ``~/.config/artifactcheck/token.json``). Read-only
  scopes only.
- The API clients are built from the discovery documents bundled in
  google-api-python-client (``static_discovery=True``): no discovery fetch at run time.
- Every request runs with ``num_retries`` (googleapiclient's own exponential backoff for
  429, 5xx and rate-limit 403s). Failures become :class:`GoogleAPIError` naming the file
  id and saying what to do (share the file, check the id, ...).

See design/google.md.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from ...errors import GoogleAPIError, MissingDependency

GoogleKind = Literal["document", "spreadsheet", "presentation"]

SCOPES: tuple[str, ...] = (
    "https://www.googleapis.com/auth/drive.readonly",
    "https://www.googleapis.com/auth/documents.readonly",
    "https://www.googleapis.com/auth/spreadsheets.readonly",
    "https://www.googleapis.com/auth/presentations.readonly",
)
CREDENTIALS_ENV = "ARTIFACTCHECK_GOOGLE_CREDENTIALS"
TOKEN_ENV = "ARTIFACTCHECK_GOOGLE_TOKEN"
DEFAULT_TOKEN_FILE = Path("~/.config/artifactcheck/token.json")
DEFAULT_NUM_RETRIES = 5
_METADATA_FIELDS = "id,name,mimeType,modifiedTime,version,trashed,webViewLink"

MIME_TO_KIND: dict[str, GoogleKind] = {
    "application/vnd.google-apps.document": "document",
    "application/vnd.google-apps.spreadsheet": "spreadsheet",
    "application/vnd.google-apps.presentation": "presentation",
}
# Office files stored in Drive (uploaded, not converted): the Workspace APIs refuse them,
# so they are downloaded and read by the Office extractors instead.
OFFICE_MIME_TYPES: frozenset[str] = frozenset(
    {
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    }
)

# Drive ids are base64url-ish strings; real ones are 25-44 characters (33 for old
# uploads, 44 for Docs editors files). A shorter string is far more likely a file name.
_ID = r"[A-Za-z0-9_-]{20,}"
_ID_RE = re.compile(rf"^{_ID}$")
_URL_PATTERNS: tuple[tuple[re.Pattern[str], GoogleKind | None], ...] = (
    (re.compile(rf"docs\.google\.com/document/(?:u/\d+/)?d/({_ID})"), "document"),
    (re.compile(rf"docs\.google\.com/spreadsheets/(?:u/\d+/)?d/({_ID})"), "spreadsheet"),
    (re.compile(rf"docs\.google\.com/presentation/(?:u/\d+/)?d/({_ID})"), "presentation"),
    (re.compile(rf"drive\.google\.com/file/(?:u/\d+/)?d/({_ID})"), None),
    (re.compile(rf"drive\.google\.com/(?:open|uc)\?(?:.*&)?id=({_ID})"), None),
    (re.compile(rf"docs\.google\.com/\w+/(?:u/\d+/)?d/({_ID})"), None),
)


@dataclass(frozen=True)
class GoogleFileRef:
    """A Drive file id and, when the URL told it, which editor made the file."""

    file_id: str
    kind: GoogleKind | None = None


def parse_google_ref(text: str) -> GoogleFileRef:
    """A file id or any Docs/Sheets/Slides/Drive URL -> :class:`GoogleFileRef`.

    >>> parse_google_ref("https://docs.google.com/document/d/1AbCdEfGhIjKlMnOpQrStUvWx/edit#h")
    GoogleFileRef(file_id='1AbCdEfGhIjKlMnOpQrStUvWx', kind='document')
    >>> parse_google_ref("1AbCdEfGhIjKlMnOpQrStUvWx").kind is None
    True
    """
    text = text.strip()
    for pattern, kind in _URL_PATTERNS:
        m = pattern.search(text)
        if m:
            return GoogleFileRef(m.group(1), kind)
    if _ID_RE.match(text):
        return GoogleFileRef(text, None)
    raise GoogleAPIError(
        f"{text!r} is neither a Google Docs/Sheets/Slides/Drive URL nor a Drive file id"
    )


def looks_like_google_ref(text: str) -> bool:
    """True for a Google URL, or a bare id that is not an existing path."""
    if "google.com/" in text:
        return True
    return bool(_ID_RE.match(text.strip())) and not Path(text).exists()


# -- credentials ------------------------------------------------------------------------


def _credentials_from_info(info: Mapping[str, Any], origin: str) -> Any:
    kind = info.get("type")
    if kind == "service_account":
        from google.oauth2 import service_account

        return service_account.Credentials.from_service_account_info(dict(info), scopes=SCOPES)  # type: ignore[no-untyped-call]
    if kind == "authorized_user" or "refresh_token" in info:
        from google.oauth2.credentials import Credentials

        return Credentials.from_authorized_user_info(dict(info), scopes=list(SCOPES))  # type: ignore[no-untyped-call]
    raise GoogleAPIError(
        f"{origin} is neither a service-account key nor an authorized-user token "
        f"(its \"type\" is {kind!r})"
    )


def _credentials_from_file(path: Path, origin: str) -> Any:
    try:
        info = json.loads(path.expanduser().read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise GoogleAPIError(f"{origin}: credentials file {path} does not exist") from None
    except (OSError, ValueError) as exc:
        raise GoogleAPIError(f"{origin}: cannot read credentials file {path}: {exc}") from None
    if not isinstance(info, dict):
        raise GoogleAPIError(f"{origin}: credentials file {path} is not a JSON object")
    return _credentials_from_info(info, f"{origin} ({path})")


def load_credentials(credentials: Any = None) -> Any:
    """Find read-only credentials (see the module docstring for the order).

    ``credentials`` may be a path (str/Path), a parsed key/token dict, or a
    ``google.auth.credentials.Credentials``. Raises :class:`GoogleAPIError` listing
    every place looked at when none is found."""
    try:
        import google.auth
        import google.auth.exceptions
        from google.auth.credentials import Credentials as BaseCredentials
    except ImportError:  # pragma: no cover - a declared dependency
        raise MissingDependency("google-auth", hint="pip install google-auth") from None

    if isinstance(credentials, BaseCredentials):
        return credentials
    if isinstance(credentials, Mapping):
        return _credentials_from_info(credentials, "credentials argument")
    if isinstance(credentials, (str, Path)):
        return _credentials_from_file(Path(credentials), "credentials argument")
    if credentials is not None:
        raise GoogleAPIError(f"credentials must be a path, a dict or Credentials, got {type(credentials).__name__}")
    env_path = os.environ.get(CREDENTIALS_ENV)
    if env_path:
        return _credentials_from_file(Path(env_path), CREDENTIALS_ENV)
    try:
        creds, _project = google.auth.default(scopes=list(SCOPES))
        return creds
    except google.auth.exceptions.DefaultCredentialsError:
        pass
    token = Path(os.environ.get(TOKEN_ENV) or DEFAULT_TOKEN_FILE).expanduser()
    if token.is_file():
        return _credentials_from_file(token, TOKEN_ENV if os.environ.get(TOKEN_ENV) else "token file")
    raise GoogleAPIError(
        "no Google credentials found: pass credentials=<service-account.json>, or set "
        f"{CREDENTIALS_ENV}, or configure application default credentials "
        "(GOOGLE_APPLICATION_CREDENTIALS / `gcloud auth application-default login`), or "
        f"put an authorized-user token at {TOKEN_ENV} or {DEFAULT_TOKEN_FILE}"
    )


def _account_of(credentials: Any) -> str | None:
    return getattr(credentials, "service_account_email", None) or getattr(credentials, "account", None) or None


# -- the client -------------------------------------------------------------------------


class GoogleClient:
    """Read-only access to one account's Drive, Docs, Sheets and Slides.

    ``http`` replaces the authorized transport (tests pass googleapiclient's
    ``HttpMockSequence``); otherwise credentials are found with :func:`load_credentials`.
    ``sleep`` is the pause between retries (tests pass a no-op)."""

    def __init__(
        self,
        *,
        credentials: Any = None,
        http: Any = None,
        num_retries: int = DEFAULT_NUM_RETRIES,
        sleep: Callable[[float], None] = time.sleep,
        timeout: float = 120.0,
    ) -> None:
        self.num_retries = num_retries
        self._sleep = sleep
        self._services: dict[str, Any] = {}
        self.account: str | None = None
        if http is None:
            import google_auth_httplib2
            import httplib2

            creds = load_credentials(credentials)
            self.account = _account_of(creds)
            http = google_auth_httplib2.AuthorizedHttp(creds, http=httplib2.Http(timeout=timeout))
        self.http = http

    # -- services ---------------------------------------------------------------------
    def service(self, name: str, version: str) -> Any:
        key = f"{name}.{version}"
        if key not in self._services:
            from googleapiclient.discovery import build

            self._services[key] = build(
                name, version, http=self.http, static_discovery=True, cache_discovery=False
            )
        return self._services[key]

    def execute(self, request: Any, *, what: str, file_id: str) -> Any:
        """Run one API request with retries; map failures to GoogleAPIError."""
        from googleapiclient.errors import HttpError
        from googleapiclient.http import BatchHttpRequest

        request._sleep = self._sleep  # googleapiclient's retry pause (an attribute it reads)
        try:
            if isinstance(request, BatchHttpRequest):
                return request.execute()  # parts that fail are reported to the callback
            return request.execute(num_retries=self.num_retries)
        except HttpError as exc:
            raise self._error(exc.status_code, exc.content, what=what, file_id=file_id) from None
        except GoogleAPIError:
            raise
        except Exception as exc:  # noqa: BLE001 - transport/auth failures become typed errors
            raise GoogleAPIError(f"{what} for file {file_id} failed: {type(exc).__name__}: {exc}") from None

    def _error(self, status: int, content: bytes | None, *, what: str, file_id: str) -> GoogleAPIError:
        detail = ""
        reason = ""
        try:
            body = json.loads((content or b"{}").decode("utf-8"))
            err = body.get("error", {}) if isinstance(body, dict) else {}
            if isinstance(err, dict):
                detail = str(err.get("message", ""))
                errors = err.get("errors") or [{}]
                reason = str(errors[0].get("reason", "")) if isinstance(errors[0], dict) else ""
                reason = reason or str(err.get("status", ""))
        except (ValueError, AttributeError):
            detail = (content or b"")[:200].decode("utf-8", "replace")
        who = f" ({self.account})" if self.account else ""
        if status == 401:
            hint = "the credentials were rejected (expired, revoked or for another project)"
        elif status == 403 and "ratelimit" in reason.lower():
            hint = f"quota exhausted after {self.num_retries} retries; try again later"
        elif status == 403:
            hint = f"access denied: share the file with the account{who} or check the API is enabled"
        elif status == 404:
            hint = "no such file: the id is wrong, the file was deleted, or it is not shared with the account" + who
        elif status == 429:
            hint = f"rate limited after {self.num_retries} retries; try again later"
        elif status >= 500:
            hint = f"Google server error after {self.num_retries} retries"
        else:
            hint = "request refused"
        message = f"{what} for file {file_id} failed with HTTP {status}: {hint}"
        if detail:
            message += f" (Google says: {detail})"
        error = GoogleAPIError(message)
        error.status = status  # type: ignore[attr-defined]
        return error

    # -- calls --------------------------------------------------------------------------
    def metadata(self, file_id: str) -> dict[str, Any]:
        """Drive metadata: name, mimeType, modifiedTime, version, trashed, owners."""
        req = self.service("drive", "v3").files().get(
            fileId=file_id,
            fields=_METADATA_FIELDS,
            supportsAllDrives=True,
        )
        return dict(self.execute(req, what="Drive files.get", file_id=file_id))

    def metadata_many(self, file_ids: list[str]) -> dict[str, dict[str, Any]]:
        """Drive metadata of many files in batched requests (up to 100 per HTTP call,
        Drive's limit). A file whose part of the batch failed transiently (429/5xx) is
        fetched again alone, with retries; a permanent failure raises for that file."""
        from googleapiclient.errors import HttpError

        drive = self.service("drive", "v3")
        out: dict[str, dict[str, Any]] = {}
        retry: list[str] = []
        unique = list(dict.fromkeys(file_ids))
        for start in range(0, len(unique), 100):
            failures: dict[str, HttpError] = {}

            def collect(request_id: str, response: Any, exception: Exception | None,
                        failures: dict[str, HttpError] = failures) -> None:
                if exception is None:
                    out[request_id] = dict(response)
                elif isinstance(exception, HttpError):
                    failures[request_id] = exception
                else:  # pragma: no cover - the batch transport only reports HttpError
                    raise GoogleAPIError(f"Drive files.get for file {request_id} failed: {exception}")

            batch = drive.new_batch_http_request(callback=collect)
            for fid in unique[start:start + 100]:
                batch.add(drive.files().get(fileId=fid, fields=_METADATA_FIELDS, supportsAllDrives=True), request_id=fid)
            self.execute(batch, what="Drive batch files.get", file_id=",".join(unique[start:start + 100]))
            for fid, exc in failures.items():
                if exc.status_code == 429 or exc.status_code >= 500:
                    retry.append(fid)
                else:
                    raise self._error(exc.status_code, exc.content, what="Drive files.get", file_id=fid)
        for fid in retry:
            out[fid] = self.metadata(fid)
        return out

    def get_document(self, file_id: str) -> dict[str, Any]:
        req = self.service("docs", "v1").documents().get(documentId=file_id, includeTabsContent=True)
        return dict(self.execute(req, what="Docs documents.get", file_id=file_id))

    def get_spreadsheet(self, file_id: str) -> dict[str, Any]:
        req = self.service("sheets", "v4").spreadsheets().get(spreadsheetId=file_id, includeGridData=True)
        return dict(self.execute(req, what="Sheets spreadsheets.get", file_id=file_id))

    def get_presentation(self, file_id: str) -> dict[str, Any]:
        req = self.service("slides", "v1").presentations().get(presentationId=file_id)
        return dict(self.execute(req, what="Slides presentations.get", file_id=file_id))

    def get_response(self, kind: GoogleKind, file_id: str) -> dict[str, Any]:
        if kind == "document":
            return self.get_document(file_id)
        if kind == "spreadsheet":
            return self.get_spreadsheet(file_id)
        return self.get_presentation(file_id)

    def export_pdf(self, file_id: str) -> bytes:
        """The file exported by Drive as PDF (Drive caps exports at 10 MB)."""
        req = self.service("drive", "v3").files().export(fileId=file_id, mimeType="application/pdf")
        data = self.execute(req, what="Drive export to PDF", file_id=file_id)
        return bytes(data)

    def download(self, file_id: str) -> bytes:
        """The stored bytes of a non-Google file (an uploaded .docx/.xlsx/.pptx)."""
        req = self.service("drive", "v3").files().get_media(fileId=file_id, supportsAllDrives=True)
        return bytes(self.execute(req, what="Drive download", file_id=file_id))

    def fetch_url(self, url: str, *, file_id: str) -> tuple[bytes, str]:
        """Bytes and content type of a content URL (an image's ``contentUri``), through the
        same authorized transport and the same retry policy as API calls."""
        from googleapiclient.http import HttpRequest

        req = HttpRequest(self.http, lambda resp, content: (resp, content), url, method="GET")
        resp, content = self.execute(req, what=f"image download {url[:60]}...", file_id=file_id)
        return bytes(content), str(resp.get("content-type", "application/octet-stream")).split(";")[0]


def resolve_kind(
    client: GoogleClient, ref: GoogleFileRef, *, metadata: dict[str, Any] | None = None
) -> tuple[GoogleKind | None, dict[str, Any]]:
    """Which API reads this file, from its Drive mimeType (and its metadata). Returns
    (None, metadata) for an Office file stored in Drive; raises for anything else."""
    meta = metadata if metadata is not None else client.metadata(ref.file_id)
    mime = str(meta.get("mimeType", ""))
    if mime in MIME_TO_KIND:
        return MIME_TO_KIND[mime], meta
    if mime in OFFICE_MIME_TYPES:
        return None, meta
    raise GoogleAPIError(
        f"file {ref.file_id} ({meta.get('name')!r}) is a {mime or 'file of unknown type'}, "
        "not a Google Doc, Sheet or Slides deck"
    )
