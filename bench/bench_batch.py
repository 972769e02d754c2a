"""The local engine against Dask (a LocalCluster of 2 worker processes), same manifest,
side by side in one run, interleaved; prints rows/s of each and the ratio.

    .venv/bin/python bench/bench_batch.py [--rows 500] [--repeat 1] [--corpus ../shared/corpus]

The manifest mixes every fixture row (fixtures/tasks/manifest.csv: .docx, .xlsx, .pptx,
PDF, CSV, .odt, images; OCR, traces, includes, reference images) with corpus files under
200 KB (.docx, .xlsx, .pptx, each scored against a fixture rubric of its format), cycled
to ``--rows`` rows. The render cache is warmed first (one batch over each distinct row),
so both engines measure scoring, not LibreOffice start-ups. Target: Dask overhead <= 15%.

Measured per run: wall time of ``run_batch`` (local ``-j 2``: its forkserver pool;
Dask: a running LocalCluster, as a batch on a cluster started with ``dask scheduler``
sees it, plus the ``local:2`` start-up measured once on its own), and, for the paper
simulation in design/batch.md, the coordinator's own costs: a resume scan of the full
output (every row checked, none scored), ``write_summary`` alone, the mean report size,
and the Dask workers' resident memory after the batch.
"""

from __future__ import annotations

import argparse
import csv
import itertools
import json
import os
import shutil
import statistics
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
TASKS = REPO / "fixtures" / "tasks"
RUBRIC_FOR = {"docx": TASKS / "lesson_plan" / "rubric.yaml", "xlsx": TASKS / "paper_tracker" / "rubric.yaml",
              "pptx": TASKS / "slide_deck" / "rubric.yaml"}


def manifest_rows(corpus: Path, count: int) -> list[dict[str, str]]:
    base: list[dict[str, str]] = []
    with open(TASKS / "manifest.csv", encoding="utf-8") as fh:
        for record in csv.DictReader(fh):
            base.append({"task": record["task"], "artifact": str(TASKS / record["artifact"]),
                         "rubric": str(TASKS / record["rubric"]), "trace": str(TASKS / record["trace"]) if record["trace"] else ""})
    for fmt, rubric in RUBRIC_FOR.items():
        for path in sorted((corpus / fmt).glob(f"*.{fmt}")) if (corpus / fmt).is_dir() else []:
            if path.stat().st_size < 200_000:
                base.append({"task": f"corpus_{fmt}", "artifact": str(path), "rubric": str(rubric), "trace": ""})
    rows = []
    for number, row in zip(range(count), itertools.cycle(base)):
        rows.append({**row, "run": str(number)})
    return rows


def write_manifest(path: Path, rows: list[dict[str, str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=["task", "run", "artifact", "rubric", "trace"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def worker_rss_mb(client: Any) -> list[float]:
    def rss() -> float:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    return sorted(client.run(rss).values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=1, help="interleaved runs of each engine")
    parser.add_argument("--corpus", type=Path, default=REPO.parent.parent / "shared" / "corpus")
    args = parser.parse_args()

    import distributed

    from artifactcheck.batch.dask_engine import DaskSettings, dask_session
    from artifactcheck.batch.row_scoring import RowResult, write_row
    from artifactcheck.batch.run import run_batch, write_summary

    work = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    rows = manifest_rows(args.corpus, args.rows)
    manifest = write_manifest(work / "manifest.csv", rows)
    distinct = {(r["artifact"], r["rubric"]): r for r in rows}
    warm = write_manifest(work / "warm.csv", [{**r, "run": str(i)} for i, r in enumerate(distinct.values())])
    formats = sorted({Path(r["artifact"]).suffix for r in rows})
    print(f"{len(rows)} rows ({len(distinct)} distinct artifact/rubric pairs; {', '.join(formats)}); load {os.getloadavg()[0]:.1f}")
    started = time.monotonic()
    run_batch(warm, work / "warm-out", jobs=2, progress=False)
    print(f"render cache warmed in {time.monotonic() - started:.1f} s")

    started = time.monotonic()
    with dask_session(DaskSettings(scheduler="local:2")):
        startup = time.monotonic() - started
    print(f"LocalCluster(2) start + plugin + shutdown, no rows: {startup:.1f} s")

    seconds: dict[str, list[float]] = {"local -j 2": [], "dask LocalCluster(2)": []}
    folder = work / "cluster"
    import dask

    with dask.config.set({"temporary-directory": str(folder)}), \
            distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", scheduler_port=0,
                                     dashboard_address=None, local_directory=str(folder), silence_logs=40) as cluster, \
            distributed.Client(cluster, set_as_default=False) as client:
        for attempt in range(args.repeat):
            order = list(seconds) if attempt % 2 == 0 else list(reversed(seconds))
            for engine in order:
                out = work / f"out-{attempt}-{engine.split()[0]}"
                scheduler = cluster.scheduler_address if engine.startswith("dask") else None
                started = time.monotonic()
                outcomes = run_batch(manifest, out, jobs=2, scheduler=scheduler, progress=False)
                seconds[engine].append(time.monotonic() - started)
                scored = sum(o.state == "scored" for o in outcomes)
                print(f"  run {attempt + 1} {engine:22s} {seconds[engine][-1]:7.1f} s  {len(rows) / seconds[engine][-1]:5.2f} rows/s  "
                      f"({scored} scored, {sum(o.state == 'error' for o in outcomes)} not scored); load {os.getloadavg()[0]:.1f}")
        rss = worker_rss_mb(client)

    local_s, dask_s = (statistics.median(v) for v in seconds.values())
    print(f"local -j 2 {len(rows) / local_s:.2f} rows/s, dask {len(rows) / dask_s:.2f} rows/s (median of {args.repeat}); "
          f"dask/local time {dask_s / local_s:.3f} -> overhead {100 * (dask_s / local_s - 1):+.1f}% (target <= 15%); "
          f"with the local:2 start-up {100 * ((dask_s + startup) / local_s - 1):+.1f}%")

    out = work / "out-0-local"
    started = time.monotonic()
    resumed = run_batch(manifest, out, jobs=2, progress=False)
    scan = time.monotonic() - started
    assert all(o.state == "resumed" for o in resumed)
    started = time.monotonic()
    write_summary(resumed, out)
    summary = time.monotonic() - started
    tracemalloc.start()
    write_summary(resumed, out)
    summary_peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    # the coordinator's own work per scored row: write the report text, then the fingerprint
    texts = [(o.row, o.row.report_path(out).read_text(encoding="utf-8"),
              json.loads(o.row.inputs_path(out).read_text(encoding="utf-8"))) for o in resumed]
    started = time.monotonic()
    for row, text, fingerprint in texts:
        write_row(row, RowResult("scored", report_json=text, fingerprint=fingerprint), work / "rewrite")
    writes = time.monotonic() - started
    sizes = [p.stat().st_size for p in (out / "reports").rglob("run-*.json") if not p.name.endswith(".inputs.json")]
    print(f"coordinator: resume scan + tables {scan:.1f} s ({1000 * scan / len(rows):.1f} ms/row), of which "
          f"write_summary {summary:.1f} s ({1000 * summary / len(rows):.1f} ms/row); mean report {statistics.mean(sizes) / 1024:.0f} KiB "
          f"(max {max(sizes) / 1024:.0f} KiB); write_summary peak {summary_peak / 2**20:.0f} MiB "
          f"({summary_peak / len(rows) / 1024:.0f} KiB/row); write_row {1000 * writes / len(rows):.2f} ms/row")
    print(f"dask worker RSS after the batch: {', '.join(f'{m:.0f} MB' for m in rss)}; "
          f"busy worker time/row ~ {2 * dask_s / len(rows):.2f} s")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
