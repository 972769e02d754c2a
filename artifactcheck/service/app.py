"""The ASGI app: versioned JSON endpoints over the library (design/service.md).

    GET  /v1/health    status, version, renderer pool state (no token needed)
    GET  /v1/checks    the check catalog, the JSON of ``artifactcheck checks --json``
    POST /v1/extract   multipart ``artifact`` (+ ``render``) -> the tree JSON of ``extract``
    POST /v1/score     multipart ``artifact``, ``rubric``, ``includes``, ``trace``, ``assets``,
                       ``params`` -> the report JSON of ``score --json``; ``?format=html``
    GET  /metrics      Prometheus text
    GET  /docs         OpenAPI (Swagger UI); /openapi.json

Work runs in a thread pool of ``max_concurrent`` threads; at most ``max_queue`` more
requests wait; past that 503 with Retry-After. A request's deadline counts from its
arrival; past it the answer is 504 and the work (which cannot be interrupted inside a
thread) finishes in the background, still holding its slot, and then removes its files.
Server paths never reach a client: the request directory is cut from every answer.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import json
import logging
import threading
import time
from collections.abc import Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import ArtifactCheckError
from ..extractors.render.renderer import Renderer
from ..model import Document
from ..report.model import Report
from ..version import __version__
from .http_errors import RETRY_AFTER_S, ErrorBody, ServiceError, status_for
from .metrics import ServiceMetrics
from .settings import ServiceSettings
from .uploads import (
    BodyLimit,
    extract_assets_zip,
    remove_dir,
    request_dir,
    safe_name,
    safe_relative,
)

__all__ = ["create_app"]

log = logging.getLogger("artifactcheck.service")
T = TypeVar("T")
_CHUNK = 1 << 20
_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text}
    for code, text in (
        (401, "missing or wrong bearer token"),
        (408, "the request body stopped arriving"),
        (413, "upload over the size limit"),
        (422, "the input is at fault (corrupt artifact, bad rubric, bad params)"),
        (503, "busy or stopping: retry after the Retry-After header's seconds"),
        (504, "the request's deadline passed"),
    )
}


class _Gate:
    """Admission: ``max_concurrent`` requests working, ``max_queue`` more waiting (in
    threads, on a semaphore, so the event loop stays free), the rest refused with 503."""

    def __init__(self, settings: ServiceSettings) -> None:
        self.settings = settings
        self.slots = threading.BoundedSemaphore(settings.max_concurrent)
        self.admitted = 0
        self.lock = threading.Lock()
        self.pending: set[concurrent.futures.Future[Any]] = set()
        self.executor: concurrent.futures.ThreadPoolExecutor | None = None
        self.stopping_at: float | None = None

    def begin_stop(self) -> None:
        """The server is stopping (SIGTERM): requests still waiting for their work
        ``shutdown_grace_s`` from now get a typed 503 instead of being cancelled by
        uvicorn (whose answer is a text/plain 500)."""
        if self.stopping_at is None:
            self.stopping_at = time.monotonic()

    def start(self) -> None:
        self.executor = concurrent.futures.ThreadPoolExecutor(
            self.settings.max_concurrent + self.settings.max_queue, thread_name_prefix="artifactcheck-request"
        )

    async def run(self, work: Callable[[float], T], *, started: float, cleanup: Callable[[], None]) -> T:
        """Run ``work(seconds_left)`` in a worker thread within the request's deadline;
        ``cleanup`` runs exactly once, when the work ends or when it never starts."""
        assert self.executor is not None, "the app's lifespan has not started"
        with self.lock:
            if self.admitted >= self.settings.max_concurrent + self.settings.max_queue:
                cleanup()
                raise ServiceError(503, "ServerBusy", "too many requests in flight; retry later",
                                   headers={"Retry-After": str(RETRY_AFTER_S)})
            self.admitted += 1
        deadline = started + self.settings.deadline_s
        abandoned = threading.Event()

        def run_in_thread() -> T:
            left = deadline - time.monotonic()
            if abandoned.is_set() or left <= 0 or not self.slots.acquire(timeout=left):
                raise ServiceError(504, "DeadlinePassed", f"no free slot within the {self.settings.deadline_s:g} s deadline")
            try:
                if abandoned.is_set():  # the client got its 504 while we waited: do not start
                    raise ServiceError(504, "DeadlinePassed", "abandoned")
                return work(max(1.0, deadline - time.monotonic()))
            finally:
                self.slots.release()

        def finished(future: concurrent.futures.Future[Any]) -> None:
            with self.lock:
                self.admitted -= 1
                self.pending.discard(future)
            cleanup()

        future = self.executor.submit(run_in_thread)
        with self.lock:
            self.pending.add(future)
        future.add_done_callback(finished)
        try:
            return await self._result(asyncio.wrap_future(future), deadline)
        except ServiceError:
            abandoned.set()
            raise

    async def _result(self, work: asyncio.Future[T], deadline: float) -> T:
        """``work``'s result, or 504 at the deadline, or 503 once a stop began
        ``shutdown_grace_s`` ago (checked every quarter second)."""
        while True:
            now = time.monotonic()
            stop_by = self.stopping_at + self.settings.shutdown_grace_s if self.stopping_at is not None else None
            if now >= deadline:
                raise ServiceError(504, "DeadlinePassed", f"not done within the {self.settings.deadline_s:g} s deadline")
            if stop_by is not None and now >= stop_by:
                raise ServiceError(503, "ShuttingDown", "the server is stopping and this work did not finish in its "
                                   f"{self.settings.shutdown_grace_s:g} s grace; send it again",
                                   headers={"Retry-After": str(RETRY_AFTER_S)})
            try:
                return await asyncio.wait_for(asyncio.shield(work), min(0.25, deadline - now))
            except TimeoutError:
                continue

    def wait_idle(self, timeout: float) -> bool:
        """Wait until no work is running (graceful shutdown); True when idle in time."""
        with self.lock:
            pending = list(self.pending)
        _, not_done = concurrent.futures.wait(pending, timeout=timeout)
        return not not_done

    def close(self) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)


def create_app(settings: ServiceSettings | None = None, *, renderer: Renderer | None = None) -> FastAPI:
    """The app. ``renderer`` is the warm pool the server runs (shown in /v1/health and
    /metrics); rendering itself goes through ``render_pdf``'s default renderer, which
    ``serve`` sets to the same pool."""
    settings = settings or ServiceSettings()
    gate = _Gate(settings)

    def pool_state() -> dict[str, Any] | None:
        state = getattr(renderer, "state", None)
        return state() if callable(state) else None

    metrics = ServiceMetrics(pool_state)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> Any:
        gate.start()
        try:
            yield
        finally:
            # uvicorn has stopped taking requests and waited for the open ones (up to its
            # graceful timeout); work abandoned after a 504 may still run: give it the same.
            await asyncio.get_running_loop().run_in_executor(None, gate.wait_idle, settings.shutdown_grace_s)
            gate.close()

    app = FastAPI(
        title="artifactcheck",
        version=__version__,
        summary="Extract and score .docx/.xlsx/.pptx artifacts: the artifactcheck library over HTTP.",
        lifespan=lifespan,
    )
    app.state.gate = gate
    app.add_middleware(BodyLimit, max_bytes=int(settings.max_upload_mb * 1024 * 1024), idle_s=settings.upload_idle_s,
                       deadline_s=settings.deadline_s)

    # -- errors ------------------------------------------------------------------------------
    def error_response(status: int, kind: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
        metrics.errors.labels(kind).inc()
        return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status, headers=headers)

    @app.exception_handler(ServiceError)
    async def on_service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return error_response(exc.status, exc.kind, str(exc), exc.headers)

    @app.exception_handler(ArtifactCheckError)
    async def on_library_error(request: Request, exc: ArtifactCheckError) -> JSONResponse:
        status, headers = status_for(exc)
        return error_response(status, type(exc).__name__, _scrub(str(exc), request), headers)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = [f"{'.'.join(str(p) for p in e.get('loc', ()))}: {_plain(str(e.get('msg')))}" for e in exc.errors()]
        return error_response(422, "InvalidRequest", "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        cause = exc.__cause__
        if isinstance(cause, ServiceError):  # raised while FastAPI read the multipart body
            return error_response(cause.status, cause.kind, str(cause), cause.headers)
        kinds = {404: "NotFound", 405: "MethodNotAllowed", 401: "Unauthorized"}
        return error_response(exc.status_code, kinds.get(exc.status_code, "InvalidRequest"), str(exc.detail),
                              dict(exc.headers or {}))

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return error_response(500, "InternalError", f"{type(exc).__name__} (details are in the server log)")

    # -- auth and accounting -------------------------------------------------------------
    open_paths = {"/v1/health", "/docs", "/openapi.json", "/docs/oauth2-redirect"}

    @app.middleware("http")
    async def authenticate_and_count(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        started = time.monotonic()
        request.state.started = started
        path = request.url.path
        route = path if path.startswith(("/v1/", "/metrics")) else "other"
        if settings.token and path not in open_paths and not _authorized(request, settings.token):
            response: Response = error_response(401, "Unauthorized", "a valid bearer token is required",
                                                {"WWW-Authenticate": "Bearer"})
        else:
            try:
                # in flight from the headers on (the body is read below): what a graceful
                # stop waits for, and what an operator watches during a drain
                with metrics.in_flight.labels(route).track_inprogress():
                    response = await call_next(request)
            except ServiceError as exc:  # raised by BodyLimit below the routing layer
                response = error_response(exc.status, exc.kind, str(exc), exc.headers)
        metrics.requests.labels(route, str(response.status_code)).inc()
        metrics.latency.labels(route).observe(time.monotonic() - started)
        return response

    # -- endpoints -----------------------------------------------------------------------
    @app.get("/v1/health", summary="Liveness, version and the renderer pool's state")
    async def health() -> dict[str, Any]:
        state = pool_state()
        status = "ok" if state is None or state.get("processes", 0) > 0 or state.get("starting", 0) > 0 else "degraded"
        return {"status": status, "version": __version__, "renderer": state if state is not None else {"mode": "cold"}}

    @app.get("/v1/checks", summary="The check catalog (same JSON as `artifactcheck checks --json`)")
    async def checks() -> Response:
        from ..checks.catalog import catalog

        return Response(json.dumps(catalog(), indent=2) + "\n", media_type="application/json")

    @app.post(
        "/v1/extract",
        summary="An artifact's normalized tree (same JSON as `artifactcheck extract`)",
        responses={200: {"model": Document, "description": "the tree JSON"}, **_ERRORS},
        response_class=Response,
    )
    async def extract(
        request: Request,
        artifact: Annotated[UploadFile, File(description=".docx/.xlsx/.pptx file or a saved Google API response")],
        render: Annotated[bool, Form(description=".docx: attach layout boxes from a LibreOffice render")] = True,
    ) -> Response:
        await _refuse_repeated(request, ("artifact", "render"))
        workdir = request_dir()
        request.state.workdir = workdir
        try:
            path = await _save(artifact, workdir / "artifact", "artifact")
        except BaseException:
            remove_dir(workdir)
            raise

        def work(seconds_left: float) -> str:
            from ..loading import load

            options: dict[str, Any] = {"timeout": min(120.0, seconds_left)}
            if not render:
                options["render"] = False
            return load(path, **options).to_json(indent=2) + "\n"

        text = await gate.run(work, started=request.state.started, cleanup=lambda: remove_dir(workdir))
        return Response(_scrub(text, request), media_type="application/json")

    @app.post(
        "/v1/score",
        summary="Score an artifact against a rubric (same JSON as `artifactcheck score --json`)",
        responses={200: {"model": Report, "description": "the report JSON (or HTML with ?format=html)"}, **_ERRORS},
        response_class=Response,
    )
    async def score(
        request: Request,
        artifact: Annotated[UploadFile, File(description="the artifact: .docx/.xlsx/.pptx or a saved Google API response")],
        rubric: Annotated[UploadFile, File(description="the rubric, YAML or JSON")],
        includes: Annotated[list[UploadFile] | None, File(description="fragments the rubric includes (by file name)")] = None,
        trace: Annotated[UploadFile | None, File(description="browsing trace: JSON list, JSONL, HAR or one URL per line")] = None,
        assets: Annotated[list[UploadFile] | None, File(description="reference images (repeatable), or one .zip of them")] = None,
        params: Annotated[str | None, Form(description="rubric parameters as a JSON object")] = None,
        format: Annotated[Literal["json", "html"], Query(description="json (default) or html")] = "json",
    ) -> Response:
        parsed_params = _parse_params(params)
        await _refuse_repeated(request, ("artifact", "rubric", "trace", "params"))
        workdir = request_dir()
        request.state.workdir = workdir
        try:
            artifact_path = await _save(artifact, workdir / "artifact", "artifact")
            rubric_path = await _save(rubric, workdir / "rubric", "rubric.yaml")
            for fragment in includes or []:
                await _save(fragment, workdir / "rubric", "fragment.yaml", keep_folders=True)
            trace_path = await _save(trace, workdir / "trace", "trace.json") if trace is not None else None
            assets_dir = workdir / "rubric" / "assets"
            assets_dir.mkdir(parents=True)
            for asset in assets or []:
                saved = await _save(asset, assets_dir, "asset")
                if saved.suffix.lower() == ".zip" and len(assets or []) == 1:
                    extract_assets_zip(saved, assets_dir, max_bytes=int(settings.max_upload_mb * 1024 * 1024) * 4)
                    saved.unlink()
        except BaseException:
            remove_dir(workdir)
            raise

        def work(seconds_left: float) -> str:
            from ..checks.resource_files import ASSETS_ONLY
            from ..report.html import write_report_html
            from ..rubric.loader import includes_confined_to
            from ..rubric.scoring import score as score_artifact

            with includes_confined_to(workdir / "rubric"):
                report = score_artifact(
                    artifact_path, rubric_path, trace=trace_path, assets=assets_dir, params=parsed_params,
                    load_options={"timeout": min(120.0, seconds_left)}, extras={ASSETS_ONLY: True},
                )
            if format == "html":
                return write_report_html(report, workdir / "report.html", artifact=artifact_path).read_text(encoding="utf-8")
            return report.to_json()

        text = await gate.run(work, started=request.state.started, cleanup=lambda: remove_dir(workdir))
        if format == "html":
            return HTMLResponse(_scrub(text, request))
        return Response(_scrub(text, request), media_type="application/json")

    @app.get("/metrics", summary="Prometheus metrics", response_class=PlainTextResponse)
    async def prometheus() -> Response:
        return Response(metrics.render(), media_type="text/plain; version=0.0.4; charset=utf-8")

    return app


def _plain(message: str) -> str:
    """FastAPI's message for a file field that came as text (a part without a filename,
    or a form field) names a Python class; say what to send instead."""
    if "Expected UploadFile" in message:
        return "expected a file (a multipart part with a filename), got a text field"
    return message


def _authorized(request: Request, token: str) -> bool:
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip().encode(), token.encode())


def _parse_params(raw: str | None) -> dict[str, Any] | None:
    """The ``params`` field: strict JSON (finite numbers, bounded nesting: json.loads
    alone let ``[[[...`` 100,000 deep out as a RecursionError, a 500)."""
    from ..errors import UsageError
    from ..input_files import parse_json

    if raw is None or not raw.strip():
        return None
    try:
        value = parse_json(raw, what="params field", error=UsageError)
    except ArtifactCheckError as exc:
        raise ServiceError(422, "InvalidRequest", f"params: {exc}") from None
    if not isinstance(value, dict):
        raise ServiceError(422, "InvalidRequest", "params must be a JSON object")
    return value


async def _refuse_repeated(request: Request, fields: tuple[str, ...]) -> None:
    """A field sent twice (two ``artifact`` parts) is refused: FastAPI keeps one of them
    silently, so the report would score a file the client did not mean."""
    form = await request.form()  # parsed (and cached) by FastAPI already
    repeated = [name for name in fields if len(form.getlist(name)) > 1]
    if repeated:
        raise ServiceError(422, "InvalidRequest", f"{', '.join(repeated)}: given more than once; send one")


async def _save(upload: UploadFile, folder: Path, default: str, *, keep_folders: bool = False) -> Path:
    """Copy an upload into ``folder`` under its safe name (streamed, 1 MiB at a time);
    ``keep_folders`` keeps safe relative folders (``fragments/logo.yaml``) for includes."""
    target = folder / (safe_relative(upload.filename, default) if keep_folders else safe_name(upload.filename, default))
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "wb") as out:  # noqa: ASYNC230 - a local temp file, written 1 MiB at a time
        while chunk := await upload.read(_CHUNK):
            out.write(chunk)
    await upload.close()
    return target


def _scrub(text: str, request: Request) -> str:
    """Cut the request directory out of an answer: clients see their own file names."""
    workdir = getattr(request.state, "workdir", None)
    if workdir is None:
        return text
    for sub in ("artifact", "rubric", "trace", ""):
        prefix = str(workdir / sub) if sub else str(workdir)
        text = text.replace(prefix + "/", "").replace(prefix, "")
    return text
