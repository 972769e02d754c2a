"""Rendering benchmark: our render + layout (+ alignment, + full .docx extraction when the
docx extractor exists) against the bare ``soffice --convert-to pdf`` of the same file, in
the same run. Run: ``.venv/bin/python bench/bench_render.py [--pages 1 10 50 200]``.

Each size is measured --repeat times (default 3), interleaved, and the minimum of each
column is printed. Columns (seconds unless noted):
  bare      soffice --headless --convert-to pdf with a fresh profile (what any safe caller
            must do)
  bareT     the same with the tagged-PDF filter options (LibreOfficeRenderer(tagged=True);
            our default is plain export, so ovh is the column that counts):
            ovh = ours / bare - 1, ovhT = ours / bareT - 1
  render    render_pdf, cold (new cache dir): conversion + PDF check + cache write
  layout    read_layout (chars, lines, images with hashes)
  align     align_text_to_layout of every python-docx run (document order)
  ours      render + layout + align    (target: ovh <= 30%)
  hit       render_pdf on a cache hit;  hit% = hit / ours             (target < 5%)
  ms/page   (layout + align) per page: our own work, should be flat
  extract   artifactcheck.load(FILE) with the render cache warm (the docx tree, the
            alignment and boxes; '-' when the docx extractor is absent)
  peakMB    tracemalloc peak of read_layout + align (+ extract), a separate untimed pass
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_long_docx import make_long_docx

from artifactcheck.extractors.render import (
    LibreOfficeRenderer,
    TextSpan,
    align_text_to_layout,
    read_layout,
    render_pdf,
)
from artifactcheck.extractors.render.renderer import find_soffice

TAGGED = 'pdf:writer_pdf_Export:{"UseTaggedPDF":{"type":"boolean","value":"true"}}'


def bare_soffice(src: Path, work: Path, target: str = "pdf") -> float:
    profile = Path(tempfile.mkdtemp(dir=work))
    out = Path(tempfile.mkdtemp(dir=work))
    t0 = time.perf_counter()
    subprocess.run(
        [find_soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless",
         "--convert-to", target, "--outdir", str(out), str(src)],
        check=True, capture_output=True, start_new_session=True,
    )
    elapsed = time.perf_counter() - t0
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


def have_docx_extractor() -> bool:
    try:
        import artifactcheck.extractors.docx.extract  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, nargs="+", default=[1, 10, 50, 200])
    ap.add_argument("--repeat", type=int, default=3, help="runs per size; the minimum is reported")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-render-"))
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(work / "cache")
    extract_ok = have_docx_extractor()
    renderer = LibreOfficeRenderer()
    print(f"LibreOffice {renderer.version}; docx extractor: {'yes' if extract_ok else 'absent'}")
    head = (f"{'pages':>5} {'bare':>6} {'bareT':>6} {'render':>6} {'layout':>6} {'align':>6} {'ours':>6} "
            f"{'ovh':>5} {'ovhT':>5} {'hit':>6} {'hit%':>5} {'ms/pg':>6} {'extract':>7} {'share':>6} {'peakMB':>6}")
    print(head)
    try:
        for pages in args.pages:
            src = make_long_docx(pages, work / f"doc{pages}.docx")
            bares, bares_t, renders, layouts, aligns = [], [], [], [], []
            spans = spans_of(src)
            for _ in range(args.repeat):
                # Interleaved, min of N: the machine is shared, the minimum is the least
                # disturbed run. Only the render cache is cleared between runs; the
                # LibreOffice profile template (our renderer's design) survives.
                shutil.rmtree(work / "cache" / "render", ignore_errors=True)
                bares.append(bare_soffice(src, work))
                bares_t.append(bare_soffice(src, work, TAGGED))
                t0 = time.perf_counter()
                rendered = render_pdf(src, renderer=renderer)
                renders.append(time.perf_counter() - t0)
                assert not rendered.cached
                t0 = time.perf_counter()
                layout = read_layout(rendered.pdf_path)
                layouts.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                result = align_text_to_layout(spans, layout)
                aligns.append(time.perf_counter() - t0)
            bare, bare_tagged = min(bares), min(bares_t)
            t_render, t_layout, t_align = min(renders), min(layouts), min(aligns)
            ours = t_render + t_layout + t_align
            n_pages = len(layout.pages)

            t0 = time.perf_counter()
            hit = render_pdf(src, renderer=renderer)
            t_hit = time.perf_counter() - t0
            assert hit.cached

            t_extract = float("nan")
            if extract_ok:
                from artifactcheck import load

                t0 = time.perf_counter()
                load(src)
                t_extract = time.perf_counter() - t0

            share = result.aligned_share
            del layout, result
            tracemalloc.start()
            layout = read_layout(rendered.pdf_path)
            align_text_to_layout(spans, layout)
            if extract_ok:
                from artifactcheck import load

                load(src)
            peak = tracemalloc.get_traced_memory()[1] / 1e6
            tracemalloc.stop()
            del layout

            print(
                f"{n_pages:>5} {bare:6.2f} {bare_tagged:6.2f} {t_render:6.2f} {t_layout:6.2f} {t_align:6.2f} "
                f"{ours:6.2f} {(ours / bare - 1) * 100:4.0f}% {(ours / bare_tagged - 1) * 100:4.0f}% "
                f"{t_hit:6.3f} {t_hit / ours * 100:4.1f}% "
                f"{(t_layout + t_align) / n_pages * 1000:6.1f} "
                f"{t_extract:7.2f} {share * 100:5.1f}% {peak:6.0f}",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
