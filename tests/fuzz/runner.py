"""Run untrusted inputs through artifactcheck, each in its own child process with a time
limit, a memory cap and its own scratch TMPDIR, and classify what happened.

Cost: a process that imports artifactcheck takes seconds, so :class:`Runner` starts one
*server* process that imports everything once and then forks a fresh child per input
(tens of milliseconds). In the child, before the input is touched:

- ``RLIMIT_AS`` = what the server already maps + ``memory_mb`` (a multi-GB blow-up ends
  as MemoryError or a kill, never as a swapped machine);
- a new session, so LibreOffice or any other program it starts can be killed with it;
- ``TMPDIR`` = ``scratch/a/b/tmp`` (nested, so a path that climbs out with ``../..``
  still lands inside ``scratch`` where it is seen), cwd ``scratch/a/b/cwd``;
- ``faulthandler.dump_traceback_later`` just before the time limit: a hang reports the
  frame it hung in.

Outcomes: ``ok`` (loaded/scored), ``typed`` (an ArtifactCheckError, or the CLI's one
line and exit 2), ``untyped`` (any other exception, or a CLI traceback), ``memory``
(MemoryError or killed by the cap), ``hang`` (past the time limit), ``crash`` (killed by
a signal). Independently: ``leftovers`` (files left in its TMPDIR), ``escaped`` (files
written in the scratch folder outside its TMPDIR and cwd) and ``processes`` (members of
its session alive after it ended).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Self

from artifactcheck.extractors.render.process_group import group_members

REPO = Path(__file__).resolve().parents[2]
OUTCOMES = ("ok", "typed", "untyped", "memory", "hang", "crash")


@dataclass
class Request:
    """One input: ``op`` is load | rubric | trace | score | cli; ``args`` its arguments
    (paths, or argv for cli); ``limits`` an ARTIFACTCHECK_LIMITS string for this input."""

    op: str
    args: list[str]
    timeout: float = 20.0
    memory_mb: int = 1500
    limits: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Outcome:
    status: str
    error: str = ""  # the exception class (typed/untyped), or what the CLI printed
    message: str = ""
    frame: str = ""  # the last project frame (untyped, hang)
    seconds: float = 0.0
    leftovers: list[str] = field(default_factory=list)
    escaped: list[str] = field(default_factory=list)
    processes: int = 0

    @property
    def clean(self) -> bool:
        """Typed or ok, and nothing left behind."""
        return self.status in ("ok", "typed") and not (self.leftovers or self.escaped or self.processes)


# -- the child side ------------------------------------------------------------------------


def _run_op(request: Request) -> Outcome:
    """In the forked child: do the operation, classify the result."""
    from artifactcheck.errors import ArtifactCheckError

    try:
        if request.op == "cli":
            return _run_cli(request)
        if request.op == "load":
            from artifactcheck import load

            load(request.args[0], **{"render": False, **request.options})
        elif request.op == "rubric":
            from artifactcheck.rubric.loader import load_rubric

            load_rubric(request.args[0], root=request.options.get("root"))
        elif request.op == "trace":
            from artifactcheck.checks.trace import load_trace

            load_trace(request.args[0])
        elif request.op == "score":
            from artifactcheck import score

            report = score(request.args[0], request.args[1], load_options={"render": False, **request.options})
            report.to_json()
            if report.evaluator_errors:
                first = next(s for s in report.steps if s.outcome == "error")
                return Outcome("ok", "evaluator_error", first.explanation or "")
        elif request.op == "misbehave":  # the harness's own test: each failure it must see
            _misbehave(request.args[0])
        else:
            raise ValueError(f"unknown op {request.op}")
        return Outcome("ok")
    except ArtifactCheckError as exc:
        return Outcome("typed", type(exc).__name__, str(exc))
    except MemoryError:
        return Outcome("memory", "MemoryError", "", _project_frame())
    except BaseException as exc:  # noqa: BLE001 - that is what we are looking for
        return Outcome("untyped", type(exc).__name__, " ".join(str(exc).split())[:500], _project_frame())


def _misbehave(how: str) -> None:
    if how == "hang":
        time.sleep(3600)
    elif how == "untyped":
        raise KeyError("boom")
    elif how == "memory":
        _ = bytearray(8 * 1024**3)
    elif how == "leftover":
        Path(tempfile.mkdtemp()).joinpath("left.txt").write_text("x")
    elif how == "escape":
        Path(tempfile.gettempdir(), "..", "..", "escaped.txt").write_text("x")
    elif how == "process":
        subprocess.Popen(["sleep", "60"])


def _run_cli(request: Request) -> Outcome:
    import contextlib
    import io

    from artifactcheck.cli import main

    err = io.StringIO()
    sys.argv = ["artifactcheck", *request.args]
    code: Any = 0
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            main()
        except SystemExit as exc:
            code = exc.code
    text = err.getvalue()
    lines = [line for line in text.splitlines() if line.strip() and not line.startswith("artifactcheck: warning:")]
    if "Traceback" in text:
        return Outcome("untyped", "traceback", text[-800:])
    if code in (0, 1, None):
        return Outcome("ok")
    if code == 2 and len(lines) == 1 and lines[0].startswith(("artifactcheck: error:", "artifactcheck: usage error:")):
        return Outcome("typed", "cli", lines[0])
    return Outcome("untyped", f"exit {code}", text[-800:])


def _project_frame() -> str:
    import traceback

    frames = traceback.extract_tb(sys.exc_info()[2])
    ours = [f for f in frames if "artifactcheck" in f.filename] or frames
    last = ours[-1] if ours else None
    return f"{last.filename}:{last.lineno} in {last.name}" if last else ""


def _child(request: Request, scratch: Path, result_file: Path) -> None:
    import faulthandler
    import resource

    os.setsid()
    work = scratch / "a" / "b"
    os.environ["TMPDIR"] = str(work / "tmp")
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(work / "cache")
    if request.limits:
        os.environ["ARTIFACTCHECK_LIMITS"] = request.limits
    os.environ.update(request.env)
    tempfile.tempdir = None
    os.chdir(work / "cwd")
    mapped = int(Path("/proc/self/statm").read_text().split()[0]) * os.sysconf("SC_PAGE_SIZE")
    cap = mapped + request.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    hang_log = open(scratch / "hang.txt", "w")  # noqa: SIM115 - kept open for faulthandler
    faulthandler.dump_traceback_later(max(0.5, request.timeout - 0.5), exit=True, file=hang_log)
    started = time.perf_counter()
    outcome = _run_op(request)
    outcome.seconds = round(time.perf_counter() - started, 3)
    faulthandler.cancel_dump_traceback_later()
    result_file.write_text(json.dumps(asdict(outcome)))


def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if not p.is_dir()) if root.is_dir() else []


def run_forked(request: Request, base: Path) -> Outcome:
    """Fork a child for ``request`` (call from a process that imported artifactcheck)."""
    scratch = Path(tempfile.mkdtemp(prefix="in-", dir=base))
    work = scratch / "a" / "b"
    for folder in ("tmp", "cwd", "cache"):
        (work / folder).mkdir(parents=True)
    result_file = scratch / "result.json"
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        try:
            _child(request, scratch, result_file)
        finally:
            os._exit(0)
    status = 0
    hard_deadline = started + request.timeout + 3
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > hard_deadline:
            _kill_group(pid)
            _, status = os.waitpid(pid, 0)
            break
        time.sleep(0.005)
    seconds = round(time.monotonic() - started, 3)
    hang_text = (scratch / "hang.txt").read_text(errors="replace") if (scratch / "hang.txt").is_file() else ""
    if result_file.is_file():
        outcome = Outcome(**json.loads(result_file.read_text()))
    elif "Timeout" in hang_text or time.monotonic() > hard_deadline:
        # faulthandler lists the most recent call first: the first frame of ours, else the first
        frames = [line.strip() for line in hang_text.splitlines() if line.strip().startswith("File")]
        ours = [f for f in frames if "/artifactcheck/" in f] or frames
        outcome = Outcome("hang", "timeout", f"more than {request.timeout:g} s", ours[0] if ours else "")
    elif os.WIFSIGNALED(status):
        killed = os.WTERMSIG(status)
        outcome = Outcome("memory" if killed == signal.SIGKILL else "crash", signal.Signals(killed).name)
    else:
        outcome = Outcome("crash", f"exit {os.waitstatus_to_exitcode(status)}", hang_text[-500:])
    outcome.seconds = outcome.seconds or seconds
    members = group_members(pid)
    outcome.processes = len(members)
    _kill_group(pid)
    outcome.leftovers = _files(work / "tmp")
    outcome.escaped = [f for f in _files(scratch) if not f.startswith(("a/b/", "result.json", "hang.txt"))]
    outcome.escaped += [f"a/b/{f}" for f in _files(work) if not f.startswith(("tmp/", "cwd/", "cache/"))]
    shutil.rmtree(scratch, ignore_errors=True)
    return outcome


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def serve() -> None:
    """The server loop: one JSON request per stdin line, one JSON outcome per stdout line."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    import imagehash  # noqa: F401
    import PIL.Image  # noqa: F401

    import artifactcheck
    import artifactcheck.checks.catalog
    import artifactcheck.cli
    import artifactcheck.extractors.docx
    import artifactcheck.extractors.google.docs
    import artifactcheck.extractors.google.sheets
    import artifactcheck.extractors.google.slides
    import artifactcheck.extractors.pptx
    import artifactcheck.extractors.xlsx  # noqa: F401

    base = Path(sys.argv[1])
    out = sys.stdout
    sys.stdout = sys.stderr  # nothing but outcomes on the protocol stream
    for line in sys.stdin:
        if not line.strip():
            continue
        outcome = run_forked(Request(**json.loads(line)), base)
        out.write(json.dumps(asdict(outcome)) + "\n")
        out.flush()


class Runner:
    """A server process; ``run(request)`` -> Outcome. Use as a context manager."""

    def __init__(self, base: Path | None = None) -> None:
        self.base = Path(base or tempfile.mkdtemp(prefix="ac-fuzz-"))
        self.base.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "tests.fuzz.runner", str(self.base)], cwd=REPO, env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
            start_new_session=True,
        )

    def run(self, request: Request) -> Outcome:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(asdict(request)) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the fuzz runner died")
        return Outcome(**json.loads(line))

    def close(self) -> None:
        """Stop the server and remove its scratch folder, also when the server died
        (closing a pipe to a dead process raises BrokenPipeError)."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait(timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            _kill_group(self.proc.pid)
            self.proc.wait()
        finally:
            shutil.rmtree(self.base, ignore_errors=True)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


if __name__ == "__main__":
    serve()
