"""The service under load, beside the same workload through the library in one process.

    .venv/bin/python bench/bench_service.py [--clients 50] [--per-client 2] [--renderers 2]

A real ``artifactcheck serve`` on a free 127.0.0.1 port (its own temp and cache dirs);
``clients`` threads each send ``per-client`` /v1/score requests, cycling through the task
fixtures' .docx, .pptx and .xlsx with their rubrics. Every .docx upload gets a unique zip
comment, so its bytes (and render-cache key) are new and each one is rendered: the
render cache is in effect off for the .docx. Printed: requests/s, p50/p95 latency,
errors (target 0), the server's RSS after the first ``clients`` requests and after all
(target growth < 20%), the most LibreOffice processes seen at once (target <= the pool
size), and the same requests scored in-process (``score()`` in ``--max-concurrent``
threads over a warm pool of the same size) as a ratio.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import io
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from itertools import count
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "fixtures" / "tasks"
WORKLOAD = [
    (TASKS / "lesson_plan" / "pass.docx", TASKS / "lesson_plan" / "rubric.yaml"),
    (TASKS / "slide_deck" / "pass.pptx", TASKS / "slide_deck" / "rubric.yaml"),
    (TASKS / "paper_tracker" / "pass.xlsx", TASKS / "paper_tracker" / "rubric.yaml"),
    (TASKS / "formal_letter" / "pass.docx", TASKS / "formal_letter" / "rubric.yaml"),
    (TASKS / "slide_deck" / "fail_title_low.pptx", TASKS / "slide_deck" / "rubric.yaml"),
    (TASKS / "paper_tracker" / "fail_rows_scattered.xlsx", TASKS / "paper_tracker" / "rubric.yaml"),
]
_unique = count()


def _bytes(path: Path) -> bytes:
    """The file's bytes; a .docx gets a unique zip comment (same document, new cache key)."""
    data = path.read_bytes()
    if path.suffix != ".docx":
        return data
    buffer = io.BytesIO(data)
    with zipfile.ZipFile(buffer, "a") as zf:
        zf.comment = f"bench {next(_unique)} {time.time_ns()}".encode()
    return buffer.getvalue()


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _office_count(marker: str) -> tuple[int, int]:
    """(LibreOffice instances, soffice.bin processes) whose command line names ``marker``.
    An instance is a soffice.bin whose parent is not one: soffice.bin forks short-lived
    helpers that carry its command line until they exec."""
    found: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmd = (entry / "cmdline").read_bytes()
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if b"soffice.bin" in cmd and marker.encode() in cmd:
                found[int(entry.name)] = int(stat[stat.rfind(")") + 2 :].split()[1])
    return sum(parent not in found for parent in found.values()), len(found)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def through_service(args: argparse.Namespace, work: Path) -> tuple[float, list[float], int]:
    tmp, cache = work / "server-tmp", work / "server-cache"
    tmp.mkdir()
    port = _free_port()
    env = dict(os.environ, TMPDIR=str(tmp), ARTIFACTCHECK_CACHE_DIR=str(cache))
    env.pop("ARTIFACTCHECK_RENDERER", None)
    log = open(work / "server.log", "wb")  # noqa: SIM115 - closed below
    server = subprocess.Popen(
        [sys.executable, "-m", "artifactcheck.cli", "serve", "--port", str(port), "--renderers", str(args.renderers),
         "--max-concurrent", str(args.max_concurrent), "--max-queue", str(args.clients * args.per_client)],
        stdout=log, stderr=log, env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                if httpx.get(f"{url}/v1/health", timeout=2).json()["renderer"]["processes"] >= args.renderers:
                    break
            except (httpx.HTTPError, KeyError, TypeError):
                pass
            if server.poll() is not None:
                raise SystemExit(f"server exited: {(work / 'server.log').read_text()[-2000:]}")
            time.sleep(0.2)
        peak = [0, 0]
        stop = threading.Event()

        def sample() -> None:
            while not stop.is_set():
                instances, processes = _office_count(str(tmp))
                peak[0], peak[1] = max(peak[0], instances), max(peak[1], processes)
                time.sleep(0.1)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        latencies: list[float] = []
        errors: list[str] = []
        done = count(1)
        rss_first: list[float] = []
        lock = threading.Lock()

        def client(index: int) -> None:
            with httpx.Client(timeout=600) as http:
                for k in range(args.per_client):
                    artifact, rubric = WORKLOAD[(index + k) % len(WORKLOAD)]
                    files = [("artifact", (artifact.name, _bytes(artifact))), ("rubric", (rubric.name, rubric.read_bytes()))]
                    started = time.monotonic()
                    response = http.post(f"{url}/v1/score", files=files)
                    elapsed = time.monotonic() - started
                    with lock:
                        latencies.append(elapsed)
                        if response.status_code != 200:
                            errors.append(f"{response.status_code} {response.text[:200]}")
                        if next(done) == args.clients:
                            rss_first.append(_rss_mb(server.pid))

        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(args.clients) as pool:
            list(pool.map(client, range(args.clients)))
        wall = time.monotonic() - started
        rss_end = _rss_mb(server.pid)
        stop.set()
        sampler.join()
        total = args.clients * args.per_client
        state = httpx.get(f"{url}/v1/health").json()["renderer"]
        print(f"service: {total} requests from {args.clients} clients in {wall:.1f} s = {total / wall:.2f} requests/s; "
              f"p50 {statistics.median(latencies):.2f} s, p95 {_percentile(latencies, 0.95):.2f} s; errors {len(errors)}")
        for e in errors[:5]:
            print(f"  error: {e}")
        growth = (rss_end - rss_first[0]) / rss_first[0] if rss_first else float("nan")
        print(f"  server RSS after the first {args.clients}: {rss_first[0] if rss_first else float('nan'):.0f} MiB, "
              f"after all: {rss_end:.0f} MiB ({growth:+.1%}; target < +20%)")
        print(f"  LibreOffice instances at most {peak[0]} (pool size {args.renderers}; soffice.bin processes incl. "
              f"forked helpers at most {peak[1]}); pool: conversions "
              f"{state.get('conversions')}, fallbacks {state.get('fallbacks')}, restarts {state.get('restarts')}")
        return wall, latencies, len(errors)
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=120)
        log.close()


def in_process(args: argparse.Namespace, work: Path) -> float:
    """The same requests through ``score()`` in this process: files written to disk (as
    the service does), ``max_concurrent`` threads, a warm pool of the same size."""
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(work / "local-cache")
    from artifactcheck.extractors.render.pool import PoolSettings
    from artifactcheck.extractors.render.selection import use_renderer
    from artifactcheck.extractors.render.warm import WarmRenderer
    from artifactcheck.rubric.scoring import score

    jobs = [WORKLOAD[(i + k) % len(WORKLOAD)] for i in range(args.clients) for k in range(args.per_client)]

    def one(job: tuple[Path, Path]) -> None:
        artifact, rubric = job
        folder = Path(tempfile.mkdtemp(dir=work))
        try:
            copy = folder / artifact.name
            copy.write_bytes(_bytes(artifact))
            score(copy, rubric)
        finally:
            shutil.rmtree(folder, ignore_errors=True)

    with WarmRenderer.start(PoolSettings(size=args.renderers)) as warm, use_renderer(warm):
        warm.pool.start(wait="all")
        started = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(args.max_concurrent) as pool:
            list(pool.map(one, jobs))
        wall = time.monotonic() - started
    print(f"in-process: {len(jobs)} requests in {wall:.1f} s = {len(jobs) / wall:.2f} requests/s "
          f"({args.max_concurrent} threads, warm pool of {args.renderers})")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--per-client", type=int, default=2)
    parser.add_argument("--renderers", type=int, default=2)
    parser.add_argument("--max-concurrent", type=int, default=2)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-service-"))
    try:
        service_wall, _, _ = through_service(args, work)
        local_wall = in_process(args, work)
        print(f"service throughput is {local_wall / service_wall:.2f}x the in-process library's (same requests, same pool size)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
