"""Rendering benchmark: our render + layout + alignment, and the full .docx extraction,
beside the bare ``soffice --convert-to pdf`` of the same file, in the same run.

    .venv/bin/python bench/bench_render.py [--pages 10 100 200 400] [--corpus NAME ...]
                                           [--repeat 2] [--tagged] [--memory]

Documents: generated text-dense reports of N pages (``make_long_docx.py``), then real long
documents from the shared corpus when it is present (``$ARTIFACTCHECK_CORPUS/docx`` or
``../shared/corpus/docx`` beside the repository or its parent; skipped when absent): the
generated pages are uniform, real files have tables, sections, footnotes and headers,
which is where the .docx extraction spends its time. ``--corpus`` without names skips
them.

Each document is measured --repeat times, interleaved (bare, render, layout, align,
extract, then again), and the minimum of each column is printed. Columns (seconds unless
noted):
  bare      soffice --headless --convert-to pdf with a fresh profile (what any safe caller
            must do)
  bareT     (--tagged) the same with the tagged-PDF filter options; ovhT = ours / bareT - 1
  render    render_pdf, cold (new cache dir): conversion + PDF check + cache write
  layout    read_layout (chars, lines, images with hashes)
  align     align_text_to_layout of every python-docx run (document order)
  ours      render + layout + align; ovh = ours / bare - 1      (target: ovh <= 30%)
  hit%      render_pdf on a cache hit / ours                     (target < 5%)
  ms/pg     (layout + align) per page: our own work beside LibreOffice's
  lo/pg     bare per page: LibreOffice's own cost per page
  extract   artifactcheck.load(FILE) with the render cache warm: the docx tree, layout,
            alignment passes and boxes; ext/pg per page (target <= 10 ms/page on the
            long corpus files), cpu/pg the same in process CPU time (the machine is
            shared: wall times rise with its load, CPU time much less)
  share     aligned share of the python-docx runs' characters
  ovhC      ovh in CPU seconds: (render's and LibreOffice's CPU + layout + align CPU) /
            bare soffice's CPU - 1. On a loaded shared machine wall times follow the load
            (bare soffice itself moves 2-3x between runs); CPU time much less.
  peakMB    tracemalloc peak of read_layout + align + extract, a separate untimed pass
            (generated documents always, corpus files with --memory)
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from long_documents import LONG_DOCX, corpus_docx_folder
from make_long_docx import make_long_docx

from artifactcheck import load
from artifactcheck.extractors.render import (
    LibreOfficeRenderer,
    TextSpan,
    align_text_to_layout,
    read_layout,
    render_pdf,
)
from artifactcheck.extractors.render.renderer import find_soffice

TAGGED = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"}}'


def children_cpu() -> float:
    """CPU seconds of the finished child processes so far (LibreOffice's)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_now() -> float:
    """This process's CPU seconds plus its finished children's."""
    return time.process_time() + children_cpu()


def bare_soffice(src: Path, work: Path, target: str = "pdf", cpu: list[float] | None = None) -> float:
    profile = Path(tempfile.mkdtemp(dir=work))
    out = Path(tempfile.mkdtemp(dir=work))
    t0, c0 = time.perf_counter(), children_cpu()
    subprocess.run(
        [find_soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless",
         "--convert-to", target, "--outdir", str(out), str(src)],
        check=True, capture_output=True, start_new_session=True, timeout=600,
    )
    elapsed = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(children_cpu() - c0)
    assert (out / f"{src.stem}.pdf").is_file()
    shutil.rmtree(profile, ignore_errors=True)
    shutil.rmtree(out, ignore_errors=True)
    return elapsed


def spans_of(path: Path) -> list[TextSpan]:
    """Every run of the body in document order (paragraphs and table cells interleaved)."""
    import docx
    from docx.table import Table

    d = docx.Document(str(path))
    spans: list[TextSpan] = []

    def paragraph(p, pid: str) -> None:  # type: ignore[no-untyped-def]
        for j, r in enumerate(p.runs):
            spans.append(TextSpan(f"{pid}r{j}", r.text))

    for i, block in enumerate(d.iter_inner_content()):
        if isinstance(block, Table):
            seen: set[int] = set()  # python-docx repeats a merged cell in every grid column
            alive = []  # keep the lxml proxies alive: a freed proxy's id() is reused
            for r, row in enumerate(block.rows):
                for c, cell in enumerate(row.cells):
                    alive.append(cell._tc)
                    if id(cell._tc) in seen:
                        continue
                    seen.add(id(cell._tc))
                    for k, p in enumerate(cell.paragraphs):
                        paragraph(p, f"b{i}r{r}c{c}p{k}")
        else:
            paragraph(block, f"b{i}")
    return spans


@dataclass
class Times:
    bare: list[float] = field(default_factory=list)
    bare_tagged: list[float] = field(default_factory=list)
    render: list[float] = field(default_factory=list)
    layout: list[float] = field(default_factory=list)
    align: list[float] = field(default_factory=list)
    extract: list[float] = field(default_factory=list)
    extract_cpu: list[float] = field(default_factory=list)
    bare_cpu: list[float] = field(default_factory=list)
    ours_cpu: list[float] = field(default_factory=list)


def measure(name: str, src: Path, work: Path, renderer: LibreOfficeRenderer, args: argparse.Namespace,
            memory: bool) -> None:
    spans = spans_of(src)
    t = Times()
    for _ in range(args.repeat):
        # Interleaved, min of N: the machine is shared, the minimum is the least
        # disturbed run. Only the render cache is cleared between runs; the
        # LibreOffice profile template (our renderer's design) survives.
        shutil.rmtree(work / "cache" / "render", ignore_errors=True)
        t.bare.append(bare_soffice(src, work, cpu=t.bare_cpu))
        if args.tagged:
            t.bare_tagged.append(bare_soffice(src, work, TAGGED))
        t0, c0 = time.perf_counter(), cpu_now()
        rendered = render_pdf(src, renderer=renderer)
        t.render.append(time.perf_counter() - t0)
        assert not rendered.cached
        t0 = time.perf_counter()
        layout = read_layout(rendered.pdf_path)
        t.layout.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        result = align_text_to_layout(spans, layout)
        t.align.append(time.perf_counter() - t0)
        t.ours_cpu.append(cpu_now() - c0)
        del layout
        t0, c0 = time.perf_counter(), time.process_time()
        doc = load(src)  # render cache warm: the docx extractor's own work
        t.extract.append(time.perf_counter() - t0)
        t.extract_cpu.append(time.process_time() - c0)
        n_pages = len(doc.pages)
        del doc
    bare, render, lay, ali = min(t.bare), min(t.render), min(t.layout), min(t.align)
    ours = render + lay + ali
    extract, extract_cpu = min(t.extract), min(t.extract_cpu)

    t0 = time.perf_counter()
    hit = render_pdf(src, renderer=renderer)
    t_hit = time.perf_counter() - t0
    assert hit.cached

    peak = "-"
    if memory:
        tracemalloc.start()
        layout = read_layout(rendered.pdf_path)
        align_text_to_layout(spans, layout)
        load(src)
        peak = f"{tracemalloc.get_traced_memory()[1] / 1e6:.0f}"
        tracemalloc.stop()
        del layout

    tagged = (f" {min(t.bare_tagged):6.2f} {(ours / min(t.bare_tagged) - 1) * 100:4.0f}%"
              if args.tagged else "")
    print(
        f"{name:>14} {n_pages:>5} {bare:6.2f}{tagged} {render:6.2f} {lay:6.2f} {ali:6.2f} {ours:6.2f} "
        f"{(ours / bare - 1) * 100:4.0f}% {t_hit / ours * 100:4.1f}% "
        f"{(lay + ali) / n_pages * 1000:6.1f} {bare / n_pages * 1000:6.1f} "
        f"{extract:7.2f} {extract / n_pages * 1000:6.1f} {extract_cpu / n_pages * 1000:6.1f} "
        f"{result.aligned_share * 100:5.1f}% {peak:>6} {(min(t.ours_cpu) / min(t.bare_cpu) - 1) * 100:4.0f}%",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, nargs="*", default=[10, 100, 200, 400],
                    help="generated documents of about these many pages")
    ap.add_argument("--corpus", nargs="*", default=None,
                    help=f"corpus .docx names (default: {' '.join(LONG_DOCX)}); none: skip")
    # 2 by default: the whole run (4 generated sizes, 3 corpus files) stays near 5 minutes.
    ap.add_argument("--repeat", type=int, default=2, help="runs per document; the minimum is reported")
    ap.add_argument("--tagged", action="store_true", help="also time bare soffice with tagged export")
    ap.add_argument("--memory", action="store_true", help="peak memory for corpus files too")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-render-"))
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(work / "cache")
    renderer = LibreOfficeRenderer()
    folder = corpus_docx_folder()
    names = LONG_DOCX if args.corpus is None else args.corpus
    real = [folder / n for n in names if folder is not None and (folder / n).is_file()]
    if names and not real:
        print(f"corpus not found ({folder or 'no corpus folder'}): real documents skipped")
    print(f"LibreOffice {renderer.version}; load average {os.getloadavg()[0]:.1f}; "
          f"min of {args.repeat} interleaved runs")
    tag_head = f" {'bareT':>6} {'ovhT':>5}" if args.tagged else ""
    print(f"{'document':>14} {'pages':>5} {'bare':>6}{tag_head} {'render':>6} {'layout':>6} {'align':>6} "
          f"{'ours':>6} {'ovh':>5} {'hit%':>5} {'ms/pg':>6} {'lo/pg':>6} {'extract':>7} {'ext/pg':>6} "
          f"{'cpu/pg':>6} {'share':>6} {'peakMB':>6} {'ovhC':>5}")
    try:
        for pages in args.pages:
            src = make_long_docx(pages, work / f"doc{pages}.docx")
            measure(f"generated {pages}", src, work, renderer, args, memory=True)
        for path in real:
            measure(path.stem.split("_", 1)[-1][:14], path, work, renderer, args, memory=args.memory)
    finally:
        shutil.rmtree(work, ignore_errors=True)
        print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
