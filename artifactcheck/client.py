"""A client for ``artifactcheck serve``, for evaluator scripts that have no LibreOffice.

    from artifactcheck.client import Client

    with Client("http://127.0.0.1:8000", token=None) as client:
        report = client.score("out/report.docx", "rubric.yaml", trace="trace.jsonl")
        print(report.verdict, report.score)

``extract`` returns the library's own :class:`~artifactcheck.model.Document` and ``score``
its :class:`~artifactcheck.report.model.Report`, parsed from the same JSON the CLI writes.
A rubric's ``include:`` fragments (literal relative paths) and the ``assets/`` folder next
to the rubric are uploaded with it, as the local ``score`` would read them. Errors come
back as the library's typed errors (``RubricError``, ``CorruptArtifact``, ...) or as
:class:`ServiceError` (status, type) for the service's own (busy, deadline, auth, size);
a 503 is retried after its Retry-After, ``retries`` times.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from types import TracebackType
from typing import Any, Self

import httpx

from . import errors
from .errors import ArtifactCheckError
from .model import Document
from .report.model import Report

__all__ = ["TOKEN_ENV", "Client", "ServiceError", "read_token"]

TOKEN_ENV = "ARTIFACTCHECK_TOKEN"


def read_token(token_file: Path | None) -> str | None:
    """The token from ``token_file`` (first line, stripped, 16+ characters), else
    ``ARTIFACTCHECK_TOKEN`` (used by ``serve`` and by ``--server`` alike)."""
    if token_file is not None:
        try:
            token = token_file.read_text(encoding="utf-8").strip().splitlines()[0].strip()
        except (OSError, UnicodeDecodeError, IndexError) as exc:
            raise ArtifactCheckError(f"cannot read a token from it: {exc}", path=token_file) from None
        if len(token) < 16:
            raise ArtifactCheckError("the token must be at least 16 characters", path=token_file)
        return token
    return os.environ.get(TOKEN_ENV) or None


class ServiceError(ArtifactCheckError):
    """An error answer of the service that is not one of the library's errors."""

    def __init__(self, message: str, *, status: int, kind: str, retry_after: float | None = None) -> None:
        self.status = status
        self.kind = kind
        self.retry_after = retry_after
        super().__init__(f"{kind} (HTTP {status}): {message}")


class Client:
    """``url``: the service's base URL. ``token``: its bearer token (needed when it is not
    on loopback). ``timeout``: seconds per request (scoring a long .docx takes a while)."""

    def __init__(self, url: str, *, token: str | None = None, timeout: float = 600.0, retries: int = 2) -> None:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=url.rstrip("/"), headers=headers, timeout=timeout)
        self.retries = retries

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    # -- endpoints ---------------------------------------------------------------------------
    def health(self) -> dict[str, Any]:
        return dict(self._request("GET", "/v1/health").json())

    def checks(self) -> list[dict[str, Any]]:
        return list(self._request("GET", "/v1/checks").json())

    def extract(self, path: str | Path, *, render: bool = True) -> Document:
        """The artifact's tree, as ``artifactcheck.load`` gives it."""
        path = Path(path)
        with open(path, "rb") as fh:
            response = self._request("POST", "/v1/extract", files=[("artifact", (path.name, fh.read()))],
                                     data={"render": "true" if render else "false"})
        return Document.from_json(response.content)

    def score(
        self,
        path: str | Path,
        rubric: str | Path,
        *,
        trace: str | Path | list[str] | None = None,
        assets: str | Path | list[str | Path] | None = None,
        params: dict[str, Any] | None = None,
    ) -> Report:
        """Score ``path`` against the rubric file ``rubric``, as ``artifactcheck.score``.
        ``trace``: a file or a list of URLs; ``assets``: a folder or files of reference
        images (default: ``assets/`` next to the rubric); ``params``: rubric parameters."""
        return Report.model_validate_json(self._score(path, rubric, trace, assets, params, "json").content)

    def score_html(
        self,
        path: str | Path,
        rubric: str | Path,
        *,
        trace: str | Path | list[str] | None = None,
        assets: str | Path | list[str | Path] | None = None,
        params: dict[str, Any] | None = None,
    ) -> str:
        """The self-contained HTML report (page images rendered on the server)."""
        return self._score(path, rubric, trace, assets, params, "html").text

    def _score(
        self, path: str | Path, rubric: str | Path, trace: str | Path | list[str] | None,
        assets: str | Path | list[str | Path] | None, params: dict[str, Any] | None, fmt: str,
    ) -> httpx.Response:
        return self._request("POST", "/v1/score", params={"format": fmt}, files=self._score_files(path, rubric, trace, assets),
                             data={"params": json.dumps(params)} if params else None)

    # -- plumbing ----------------------------------------------------------------------------
    @staticmethod
    def _score_files(
        path: str | Path, rubric: str | Path, trace: str | Path | list[str] | None, assets: str | Path | list[str | Path] | None
    ) -> list[tuple[str, tuple[str, bytes]]]:
        artifact, rubric = Path(path), Path(rubric)
        files = [("artifact", (artifact.name, artifact.read_bytes())), ("rubric", (rubric.name, rubric.read_bytes()))]
        for relative in _includes(rubric):
            files.append(("includes", (relative, (rubric.parent / relative).read_bytes())))
        if isinstance(trace, list):
            files.append(("trace", ("trace.json", json.dumps(trace).encode())))
        elif trace is not None:
            files.append(("trace", (Path(trace).name, Path(trace).read_bytes())))
        if assets is None and (rubric.parent / "assets").is_dir():
            assets = rubric.parent / "assets"
        if isinstance(assets, (str, Path)) and Path(assets).is_dir():
            assets = sorted(p for p in Path(assets).iterdir() if p.is_file())
        for asset in [assets] if isinstance(assets, (str, Path)) else assets or []:
            files.append(("assets", (Path(asset).name, Path(asset).read_bytes())))
        return files

    def _request(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        for attempt in range(self.retries + 1):
            try:
                response = self._http.request(method, url, **kwargs)
            except httpx.HTTPError as exc:
                raise ServiceError(f"{method} {url}: {type(exc).__name__}: {exc}", status=0, kind="ConnectionError") from None
            if response.status_code < 400:
                return response
            error = _error_from(response)
            if response.status_code == 503 and attempt < self.retries:
                time.sleep(min(30.0, getattr(error, "retry_after", None) or 1.0))
                continue
            raise error
        raise AssertionError("unreachable")  # pragma: no cover


def _error_from(response: httpx.Response) -> ArtifactCheckError:
    """The library's error of the same name, else a ServiceError."""
    try:
        body = response.json()["error"]
        kind, message = str(body["type"]), str(body["message"])
    except (ValueError, KeyError, TypeError):
        kind, message = "HTTPError", response.text[:500]
    retry = response.headers.get("retry-after")
    cls = getattr(errors, kind, None)
    if isinstance(cls, type) and issubclass(cls, ArtifactCheckError):
        try:
            error: ArtifactCheckError = cls(message)
        except TypeError:  # a constructor that wants more than the message (MissingDependency)
            pass
        else:
            error.status = response.status_code  # type: ignore[attr-defined]
            return error
    return ServiceError(message, status=response.status_code, kind=kind,
                        retry_after=float(retry) if retry and retry.isdigit() else None)


def _includes(rubric: Path) -> list[str]:
    """Fragments ``rubric`` includes, as paths relative to its folder (literal paths only;
    one with ``${...}`` cannot be known before the parameters are)."""
    import yaml

    found: list[str] = []
    todo = [rubric]
    base = rubric.parent.resolve()
    while todo:
        current = todo.pop()
        try:
            data = yaml.safe_load(current.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError):
            continue
        for target in _include_targets(data):
            resolved = (current.parent / target).resolve()
            if "${" in target or not resolved.is_file() or not resolved.is_relative_to(base):
                continue
            relative = resolved.relative_to(base).as_posix()
            if relative not in found:
                found.append(relative)
                todo.append(resolved)
    return found


def _include_targets(data: Any) -> list[str]:
    if isinstance(data, dict):
        own = [data["include"]] if isinstance(data.get("include"), str) else []
        return own + [t for v in data.values() for t in _include_targets(v)]
    if isinstance(data, list):
        return [t for v in data for t in _include_targets(v)]
    return []
