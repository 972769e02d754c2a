"""Rendering benchmark: our render + layout (+ alignment, + full .docx extraction when the
docx extractor exists) against the bare ``soffice --convert-to pdf`` of the same file, in
the same run. Run: ``.venv/bin/python bench/bench_render.py [--pages 1 10 50 200]``.

Columns (seconds unless noted):
  bare      soffice --headless --convert-to pdf with a fresh profile (what any safe caller
            must do; our renderer does the same plus the tagged-PDF filter options)
  render    render_pdf, cold (new cache dir): conversion + PDF check + cache write
  layout    read_layout (chars, lines, images with hashes)
  align     align_text_to_layout of every python-docx run (document order)
  ours      render + layout + align;   overhead = ours / bare - 1   (target <= 30%)
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


def bare_soffice(src: Path, work: Path) -> float:
    profile = Path(tempfile.mkdtemp(dir=work))
    out = Path(tempfile.mkdtemp(dir=work))
    t0 = time.perf_counter()
    subprocess.run(
        [find_soffice(), f"-env:UserInstallation={profile.as_uri()}", "--headless",
         "--convert-to", "pdf", "--outdir", str(out), str(src)],
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
            for r, row in enumerate(block.rows):
                for c, cell in enumerate(row.cells):
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
        import artifactcheck.extractors.docx  # noqa: F401
    except ImportError:
        return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, nargs="+", default=[1, 10, 50, 200])
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-render-"))
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(work / "cache")
    extract_ok = have_docx_extractor()
    renderer = LibreOfficeRenderer()
    print(f"LibreOffice {renderer.version}; docx extractor: {'yes' if extract_ok else 'absent'}")
    head = (f"{'pages':>5} {'bare':>6} {'render':>6} {'layout':>6} {'align':>6} {'ours':>6} "
            f"{'overhd':>7} {'hit':>6} {'hit%':>5} {'ms/pg':>6} {'extract':>7} {'share':>6} {'peakMB':>6}")
    print(head)
    try:
        for pages in args.pages:
            src = make_long_docx(pages, work / f"doc{pages}.docx")
            shutil.rmtree(work / "cache", ignore_errors=True)
            bare = bare_soffice(src, work)

            t0 = time.perf_counter()
            rendered = render_pdf(src, renderer=renderer)
            t_render = time.perf_counter() - t0
            assert not rendered.cached
            t0 = time.perf_counter()
            layout = read_layout(rendered.pdf_path)
            t_layout = time.perf_counter() - t0
            spans = spans_of(src)
            t0 = time.perf_counter()
            result = align_text_to_layout(spans, layout)
            t_align = time.perf_counter() - t0
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

            share = align_text_to_layout(spans, read_layout(rendered.pdf_path, images=False)).aligned_share
            print(
                f"{n_pages:>5} {bare:6.2f} {t_render:6.2f} {t_layout:6.2f} {t_align:6.2f} {ours:6.2f} "
                f"{(ours / bare - 1) * 100:6.0f}% {t_hit:6.3f} {t_hit / ours * 100:4.1f}% "
                f"{(t_layout + t_align) / n_pages * 1000:6.1f} "
                f"{t_extract:7.2f} {share * 100:5.1f}% {peak:6.0f}",
                flush=True,
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
