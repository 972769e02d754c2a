"""The ``artifactcheck`` command: a thin typer app over the library. Every command turns
an ArtifactCheckError into one line on stderr and a non-zero exit (2), never a traceback."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import wraps
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer

from .errors import ArtifactCheckError, UsageError

app = typer.Typer(
    name="artifactcheck",
    help="Score agent-produced documents, spreadsheets and slide decks.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    # Plain click help: typer's rich panels import rich for every --help, 0.08 s of CPU,
    # half of the command's start-up (bench/bench_startup.py, design/startup.md).
    rich_markup_mode=None,
)

F = TypeVar("F", bound=Callable[..., Any])
RubricRootOption = Annotated[Path | None, typer.Option("--rubric-root", help="Folder that a rubric's include: fragments and reference images must stay inside (default: the parent of the rubric's folder).")]

ServerOption = Annotated[
    str | None,
    typer.Option("--server", help="Do it on an `artifactcheck serve` at this URL instead of here (token: --token-file or ARTIFACTCHECK_TOKEN)."),
]
TokenFileOption = Annotated[Path | None, typer.Option("--token-file", help="File holding the service's bearer token.")]

RendererOption = Annotated[
    str | None,
    typer.Option(
        "--renderer",
        help="LibreOffice for .docx layout: auto (a running pool, else cold), cold (one soffice per "
        "file) or warm (a pool of running LibreOffice for this command). Env: ARTIFACTCHECK_RENDERER.",
    ),
]


@app.callback()
def budgets(
    limit: Annotated[list[str] | None, typer.Option("--limit", metavar="NAME=N", help="Raise (or lower) a budget for untrusted input, e.g. --limit image_pixels=2e8 (repeatable; names and defaults: design/safe-loading.md).")] = None,
) -> None:
    """Options that apply to every command."""
    if not limit:
        return
    from .limits import ENV_VAR, parse_overrides

    try:
        parse_overrides(",".join(limit))  # refuse a typo here, with the list of budgets
    except ArtifactCheckError as exc:
        typer.echo(f"artifactcheck: error: --limit: {exc}", err=True)
        raise typer.Exit(code=2) from None
    # Through the environment, so batch workers and every child process see it too.
    earlier = os.environ.get(ENV_VAR, "")
    os.environ[ENV_VAR] = ",".join([earlier, *limit]) if earlier else ",".join(limit)


def reports_errors(function: F) -> F:
    """Turn our typed errors (and the operating system's refusals: a full disk, a
    permission) into one clear stderr line and exit code 2."""

    @wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return function(*args, **kwargs)
        except ArtifactCheckError as exc:
            _fail(str(exc))
        except BrokenPipeError:  # the reader went away (``| head``): nothing to say to it
            raise typer.Exit(code=1) from None
        except OSError as exc:
            _fail(f"{exc.filename}: {exc.strerror}" if exc.filename and exc.strerror else f"{type(exc).__name__}: {exc}")

    return wrapper  # type: ignore[return-value]


def _fail(message: str) -> None:
    typer.echo(f"artifactcheck: error: {' '.join(message.split())}", err=True)
    raise typer.Exit(code=2) from None


def output_file(path: Path | None, option: str) -> None:
    """Refuse, before any work, an output file that cannot be written: a directory, or
    one whose folder does not exist (never created on the user's behalf: a typo in a
    path must not leave a tree of folders behind)."""
    if path is None:
        return
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory; give a file name")
    if not path.parent.is_dir():
        raise UsageError(f"{option} {path}: folder {path.parent} does not exist")


def input_dir(path: Path | None, option: str) -> None:
    """Refuse an input folder that does not exist or is a file (``--assets``): otherwise
    every reference image would be "not found" at scoring time, far from the typo."""
    if path is not None and not path.is_dir():
        raise UsageError(f"{option} {path}: {'is not a folder' if path.exists() else 'does not exist'}")


def input_file(value: str | Path, what: str) -> None:
    """Refuse an existing path that is not a regular file (a folder, a FIFO, a device)
    as the artifact: reading a FIFO blocks, and a folder was scored as the agent's
    failure ("no such file"), though it is the caller's mistake. A path that does not
    exist is left to the command (it may be a Google URL or file id)."""
    path = Path(value)
    if path.exists() and not path.is_file():
        raise UsageError(f"{what} {path}: is not a regular file (a folder, pipe or device); give the file itself")


def output_dir(path: Path | None, option: str) -> None:
    """Refuse an output folder that is an existing file, or whose parent does not exist."""
    if path is None:
        return
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option} {path}: is a file; give a folder")
    if not path.exists() and not path.parent.is_dir():
        raise UsageError(f"{option} {path}: folder {path.parent} does not exist")


@app.command()
@reports_errors
def extract(
    file: Annotated[str, typer.Argument(help="A .docx/.xlsx/.pptx file, a saved Google API response, a snapshot bundle, or a Google URL/file id.")],
    output: Annotated[Path | None, typer.Option("-o", "--output", help="Write the tree JSON here instead of stdout.")] = None,
    assets: Annotated[Path | None, typer.Option("--assets", help="Write image blobs to this directory.")] = None,
    compact: Annotated[bool, typer.Option("--compact", help="One-line JSON.")] = False,
    credentials: Annotated[Path | None, typer.Option("--credentials", help="Google service-account or authorized-user JSON (for a URL/id).")] = None,
    layout: Annotated[bool, typer.Option("--layout", help="Slide decks: box paragraphs, lines and runs where the text is drawn (a LibreOffice render; Google: the PDF export) instead of their frames.")] = False,
    renderer: RendererOption = None,
    server: ServerOption = None,
    token_file: TokenFileOption = None,
) -> None:
    """Print the normalized document tree as JSON."""
    from .extractors.render.selection import renderer_mode
    from .loading import load

    output_file(output, "--output")
    output_dir(assets, "--assets")
    input_file(file, "artifact")
    if server is not None and layout:
        raise UsageError("--layout renders here; with --server, leave it out (the server returns frame boxes)")
    if server is not None:
        with _client(server, token_file) as client:
            doc = client.extract(file)
    else:
        with renderer_mode(renderer):
            doc = load(file, credentials=credentials) if credentials is not None else load(file)
            if layout:
                doc.ensure_layout()
    text = doc.to_json(indent=None if compact else 2)
    if output is None:
        sys.stdout.write(text + "\n")
    else:
        output.write_text(text + "\n", encoding="utf-8")
    if assets is not None:
        written = doc.write_assets(assets)
        typer.echo(f"wrote {len(written)} image(s) to {assets}", err=True)
    for warning in doc.warnings:
        typer.echo(f"artifactcheck: warning: {warning}", err=True)


@app.command()
@reports_errors
def score(
    artifact: Annotated[str, typer.Argument(help="A .docx/.xlsx/.pptx file, a snapshot bundle, a saved Google response, or a Google URL/id.")],
    rubric: Annotated[Path, typer.Option("--rubric", "-r", help="Rubric file (YAML or JSON).")],
    trace: Annotated[Path | None, typer.Option("--trace", help="Browsing trace: JSON list, JSONL or one URL per line.")] = None,
    assets: Annotated[Path | None, typer.Option("--assets", help="Directory of reference images the rubric names.")] = None,
    json_out: Annotated[Path | None, typer.Option("--json", help="Write the report JSON here.")] = None,
    html_out: Annotated[Path | None, typer.Option("--html", help="Write the self-contained HTML report here.")] = None,
    param: Annotated[list[str] | None, typer.Option("--param", "-p", help="Rubric parameter name=value (repeatable).")] = None,
    renderer: RendererOption = None,
    server: ServerOption = None,
    token_file: TokenFileOption = None,
    rubric_root: RubricRootOption = None,
) -> None:
    """Score an artifact against a rubric. Exit 0 PASS, 1 PARTIAL/FAIL, 2 error."""
    from .commands import emit_report, parse_params, score_command
    from .extractors.render.selection import renderer_mode

    output_file(json_out, "--json")
    output_file(html_out, "--html")
    input_file(artifact, "artifact")
    input_dir(assets, "--assets")
    if server is not None:
        with _client(server, token_file) as client:
            options: dict[str, Any] = {"trace": trace, "assets": assets, "params": parse_params(param or []) or None}
            report = client.score(artifact, rubric, **options)
            html_text = client.score_html(artifact, rubric, **options) if html_out is not None else None
        raise typer.Exit(code=emit_report(report, json_out=json_out, html_out=html_out, html_text=html_text))
    with renderer_mode(renderer):
        code = score_command(artifact, rubric, trace=trace, assets=assets, json_out=json_out, html_out=html_out,
                             params=parse_params(param or []), rubric_root=rubric_root)
    raise typer.Exit(code=code)


@app.command()
@reports_errors
def batch(
    manifest: Annotated[Path, typer.Argument(help="CSV or JSONL rows: artifact, rubric, trace, task, run.")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Output directory (default: <manifest>.out next to it).")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1, help="Parallel worker processes.")] = 2,
    html: Annotated[bool, typer.Option("--html/--no-html", help="Also write an HTML report per row.")] = False,
    force: Annotated[bool, typer.Option("--force", help="Re-score rows whose report already exists.")] = False,
    renderer: Annotated[str | None, typer.Option("--renderer", help="auto (default: a warm LibreOffice pool of up to --jobs processes while rows need rendering), warm or cold. Env: ARTIFACTCHECK_RENDERER.")] = None,
    rubric_root: RubricRootOption = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Score on a Dask cluster: tcp://HOST:8786 (a running `dask scheduler`) or local:N (N worker processes here). Needs the cluster extra: pip install artifactcheck\\[cluster]. Default: local worker processes (--jobs).")] = None,
    ship_artifacts: Annotated[bool, typer.Option("--ship-artifacts", help="With --scheduler: send each row's files to the workers as bytes (no shared file system needed).")] = False,
    cache_dir: Annotated[Path | None, typer.Option("--cache-dir", help="Render cache folder for this batch and its workers (shared storage shares renders). Env: ARTIFACTCHECK_CACHE_DIR.")] = None,
) -> None:
    """Score many rows with a progress bar; resumable; writes per-row reports and summary tables."""
    from .batch.run import batch_command

    output_dir(out, "--out")
    # dask is imported only inside batch_command's --scheduler path (start-up time)
    raise typer.Exit(code=batch_command(manifest, out=out, jobs=jobs, html=html, force=force, renderer=renderer,
                                        rubric_root=rubric_root, scheduler=scheduler, ship_artifacts=ship_artifacts,
                                        cache_dir=cache_dir))


@app.command("checks")
@reports_errors
def list_checks(
    json_output: Annotated[bool, typer.Option("--json", help="Print the catalog as JSON (with each parameter JSON Schema).")] = False,
    name: Annotated[str | None, typer.Argument(help="Show only checks whose name contains this.")] = None,
) -> None:
    """List every registered check: name, mechanism, description, parameters, example;
    then the fields of a Target object (``artifactcheck checks target`` shows only those)."""
    import json

    from .checks.catalog import catalog, target_fields

    entries = [c for c in catalog() if name is None or name in c["name"]]
    if json_output:
        sys.stdout.write(json.dumps(entries, indent=2) + "\n")
        return
    if name is not None and name.lower() in ("target", "targets"):
        entries = []
    for c in entries:
        by_mechanism: dict[str, list[str]] = {}
        for param, mech in c["mechanism_when"].items():
            by_mechanism.setdefault(mech, []).append(param)
        when = "".join(f"; {m} when {' or '.join(ps)} is given" for m, ps in by_mechanism.items())
        typer.echo(f"{c['name']}  [{c['mechanism']}{when}]  step type: {c['step_type']}\n    {c['description']}")
        for p in c["parameters"]:
            default = "required" if p["required"] else f"default {json.dumps(p.get('default'))}"
            desc = f" - {p['description']}" if p.get("description") else ""
            typer.echo(f"    {p['name']}: {p['type']} ({default}){desc}")
            for o in p.get("options", []):
                o_default = f"default {json.dumps(o['default'])}" if "default" in o else "required"
                o_desc = f" - {o['description']}" if o.get("description") else ""
                typer.echo(f"      .{o['name']}: {o['type']} ({o_default}){o_desc}")
        if c["example"] is not None:
            typer.echo(f"    example: {json.dumps(c['example'])}")
        typer.echo("")
    if name is None or name.lower() in ("target", "targets"):
        typer.echo("Target  (the value of target, scope, a, b, first, then, ...: a selector string, or an object)")
        typer.echo("    fields apply in this order: selector, exclude, link, text/match, where, skip_empty, nth")
        for f in target_fields():
            typer.echo(f"    {f['name']}: {f['type']} (default {json.dumps(f['default'])}) - {f['description']}")
            for example in f["examples"]:
                typer.echo(f"        e.g. {json.dumps(example)}")


@app.command("attrs")
@reports_errors
def list_attributes(
    query: Annotated[str | None, typer.Argument(help="A node kind (cell, run, sheet, ...), `pages`, or an attribute name (frozen_rows, cell.ref).")] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print the whole reference as JSON.")] = False,
) -> None:
    """The attributes each node kind carries (name, type, unit, sources, meaning, example):
    what selectors and checks can test. Also in design/attributes.md."""
    import json

    from .model.attribute_reference import as_json, describe

    if json_output:
        sys.stdout.write(json.dumps(as_json(), indent=2, ensure_ascii=False) + "\n")
        return
    try:
        typer.echo(describe(query))
    except LookupError as exc:
        typer.echo(f"artifactcheck: error: {exc.args[0]}", err=True)
        raise typer.Exit(code=2) from None


@app.command()
@reports_errors
def render(
    file: Annotated[Path, typer.Argument(help="A .docx/.xlsx/.pptx file.")],
    out: Annotated[Path, typer.Option("--out", help="Directory for the page PNGs.")],
    dpi: Annotated[int, typer.Option("--dpi", min=10, max=600, help="Pixels per inch.")] = 100,
    renderer: RendererOption = None,
) -> None:
    """Write page PNGs with every node's box drawn on them (colour by kind)."""
    from .extractors.render.draw import write_box_pages
    from .extractors.render.selection import renderer_mode
    from .loading import load

    output_dir(out, "--out")
    input_file(file, "file")
    with renderer_mode(renderer):
        written = write_box_pages(load(file), file, out, dpi=dpi)
    typer.echo(f"wrote {len(written)} page image(s) to {out}", err=True)


@app.command()
@reports_errors
def snapshot(
    sources: Annotated[list[str], typer.Argument(help="Google Docs/Sheets/Slides/Drive URLs or file ids.")],
    output: Annotated[Path, typer.Option("-o", "--output", help="The bundle zip to write (a directory for several sources).")],
    credentials: Annotated[Path | None, typer.Option("--credentials", help="Service-account or authorized-user JSON (default: ARTIFACTCHECK_GOOGLE_CREDENTIALS, then ADC, then the token file).")] = None,
) -> None:
    """Capture Google files (API response, PDF export, images) into bundles that
    `extract`/`score` read offline, without credentials."""
    from .snapshot import snapshot as take_snapshot
    from .snapshot import snapshot_many

    if len(sources) == 1:
        typer.echo(f"wrote {take_snapshot(sources[0], output, credentials=credentials)}", err=True)
    else:
        written = snapshot_many(sources, output, credentials=credentials)
        typer.echo(f"wrote {len(written)} bundle(s) to {output}", err=True)


@app.command()
@reports_errors
def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on; anything but loopback needs a token.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    renderers: Annotated[int, typer.Option("--renderers", min=0, help="Warm LibreOffice processes (0: cold soffice per file).")] = 2,
    token_file: Annotated[Path | None, typer.Option("--token-file", help="Bearer token (first line); else ARTIFACTCHECK_TOKEN.")] = None,
    max_upload_mb: Annotated[float, typer.Option("--max-upload-mb", help="Largest request body, MiB (413 above).")] = 50.0,
    max_concurrent: Annotated[int, typer.Option("--max-concurrent", min=1, help="Requests worked on at once.")] = 2,
    max_queue: Annotated[int, typer.Option("--max-queue", min=0, help="Requests waiting; more get 503 + Retry-After.")] = 16,
    deadline: Annotated[float, typer.Option("--deadline", help="Seconds per request, queueing included (504 after).")] = 300.0,
    shutdown_grace: Annotated[float, typer.Option("--shutdown-grace", help="Seconds in-flight requests get on SIGTERM.")] = 30.0,
    upload_idle_timeout: Annotated[float, typer.Option("--upload-idle-timeout", help="Seconds a request body may send nothing before 408.")] = 60.0,
) -> None:
    """Run the HTTP service (JSON API, OpenAPI at /docs) with a warm LibreOffice pool."""
    from .client import read_token
    from .service import ServiceSettings
    from .service import serve as run_service

    run_service(ServiceSettings(
        host=host, port=port, renderers=renderers, token=read_token(token_file), max_upload_mb=max_upload_mb,
        max_concurrent=max_concurrent, max_queue=max_queue, deadline_s=deadline, shutdown_grace_s=shutdown_grace,
        upload_idle_s=upload_idle_timeout,
    ))


def _client(server: str, token_file: Path | None) -> Any:
    from .client import Client, read_token

    return Client(server, token=read_token(token_file))


def main() -> None:
    """The console script: click's usage errors (a missing option, a bad value) become
    one line and exit 2, like every other error of this command."""
    from typer.exceptions import TyperException

    try:
        code = app(standalone_mode=False, prog_name="artifactcheck")
    except TyperException as exc:  # click's UsageError/BadParameter (exit_code 2) and kin
        ctx = getattr(exc, "ctx", None)
        where = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
        message = " ".join(exc.format_message().split())
        if message:  # empty after help was printed for a bare command
            typer.echo(f"artifactcheck: usage error: {message}{where}", err=True)
        sys.exit(getattr(exc, "exit_code", 2))
    except typer.Abort:
        typer.echo("artifactcheck: interrupted", err=True)
        sys.exit(130)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
