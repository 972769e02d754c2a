"""The .docx extraction alone (render cache warm), this checkout against another one, in
alternating fresh processes: the A/B for changes to ``extractors/docx``.

    .venv/bin/python bench/bench_extract_docx.py [--before DIR] [--rounds 3] [--runs 2]
                                                 [--cold] [NAME ...]

NAME: corpus .docx names (default: long_documents.LONG_DOCX). Each round
starts one fresh process per code (before, then this checkout; PYTHONPATH puts that
checkout's package first), which loads the file once untimed (imports, render cache hit)
and then ``--runs`` times; the minimum over all rounds is printed, wall and process CPU,
per page. ``ARTIFACTCHECK_CACHE_DIR`` is kept if set (else a temporary one, filled by
the first load): both codes must hit the same cached render, so only extraction is
timed; with ``--cold`` every timed load starts from an empty cache (LibreOffice converts
the file each time, through the warm pool the untimed load started). CPU is this process's
and its waited-for children's (a cold soffice per conversion); a warm pool's LibreOffice is
not counted. The machine is shared: the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from long_documents import LONG_DOCX, corpus_docx_folder

REPO = Path(__file__).resolve().parents[1]
def worker(path: str, runs: int, cold: bool) -> None:
    """In the child: one untimed load, then ``runs`` timed ones (``cold``: each with an
    empty render cache, so LibreOffice converts the file every time)."""
    import gc

    from artifactcheck import load

    doc = load(path)
    pages = len(doc.pages)
    del doc
    gc.collect()
    walls, cpus = [], []
    for _ in range(runs):
        if cold:
            os.environ["ARTIFACTCHECK_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-extract-cold-")
        t0, c0 = time.perf_counter(), _cpu()
        doc = load(path)
        walls.append(time.perf_counter() - t0)
        cpus.append(_cpu() - c0)
        del doc
        gc.collect()  # the last tree's garbage is not the next load's cost
    import artifactcheck

    print(json.dumps({"pages": pages, "wall": min(walls), "cpu": min(cpus),
                      "package": str(Path(artifactcheck.__file__).parent.parent)}))


def _cpu() -> float:
    """CPU seconds of this process and of its children that ended and were waited for."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run_child(code: Path, path: Path, runs: int, cold: bool) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(code))
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), "--runs", str(runs)]
        + (["--cold"] if cold else []),
        env=env, check=True, capture_output=True, text=True, timeout=1200,
    )
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert Path(got["package"]).resolve() == code.resolve(), (got["package"], code)
    return got


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*", default=LONG_DOCX)
    ap.add_argument("--before", type=Path, help="a checkout holding artifactcheck/ (e.g. main)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=2, help="timed loads per process")
    ap.add_argument("--cold", action="store_true", help="time render + extraction: an empty render cache per load")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        worker(args.worker, args.runs, args.cold)
        return
    if "ARTIFACTCHECK_CACHE_DIR" not in os.environ:
        os.environ["ARTIFACTCHECK_CACHE_DIR"] = tempfile.mkdtemp(prefix="bench-extract-")
    folder = corpus_docx_folder()
    if folder is None:
        print("corpus not found: nothing to measure")
        return
    codes = ([("before", args.before)] if args.before else []) + [("this", REPO)]
    print(f"load average {os.getloadavg()[0]:.1f}; min of {args.rounds} rounds x {args.runs} runs, "
          f"fresh process per code and round; before = {args.before}")
    print(f"{'document':>32} {'code':>6} {'pages':>5} {'wall s':>7} {'ms/pg':>6} {'cpu s':>7} {'cpu/pg':>6}")
    for name in args.names:
        path = folder / name
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for label, code in codes:
                got = run_child(code, path, args.runs, args.cold)
                old = best.get(label)
                best[label] = got if old is None else {
                    **got, "wall": min(old["wall"], got["wall"]), "cpu": min(old["cpu"], got["cpu"])}
        for label, _code in codes:
            b = best[label]
            print(f"{name:>32} {label:>6} {b['pages']:>5} {b['wall']:7.2f} {b['wall'] / b['pages'] * 1000:6.1f} "
                  f"{b['cpu']:7.2f} {b['cpu'] / b['pages'] * 1000:6.1f}", flush=True)
        if args.before:
            print(f"{'':>32} wall {best['before']['wall'] / best['this']['wall']:.2f}x, "
                  f"cpu {best['before']['cpu'] / best['this']['cpu']:.2f}x faster")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
