"""Benchmark: ``extract_pptx`` against a bare python-pptx load of the same deck.

    .venv/bin/python bench/bench_extract_pptx.py [--sizes 5,50,200] [--repeat 3]

For decks of 5/50/200 generated slides (title, 4 bullets, a picture, a 4x3 table; a chart
every 10th slide; a group every 5th), prints per size: best-of-N wall time and peak
traced memory (tracemalloc) of the tree, of the bare load (``pptx.Presentation(path)``
plus walking every shape's text, groups and tables included), and their ratios, plus the
per-slide time so linear growth is visible. Target: ratio <= 2 and flat per-slide cost.
"""

from __future__ import annotations

import argparse
import gc
import io
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image
from pptx import Presentation
from pptx.chart.data import CategoryChartData
from pptx.enum.chart import XL_CHART_TYPE
from pptx.enum.shapes import MSO_SHAPE
from pptx.util import Inches

from artifactcheck.extractors.pptx.extract import extract_pptx


def build_deck(path: Path, slides: int) -> None:
    prs = Presentation()
    png = io.BytesIO()
    Image.new("RGB", (64, 48), (40, 120, 200)).save(png, format="PNG")
    for i in range(slides):
        s = prs.slides.add_slide(prs.slide_layouts[1])
        s.shapes.title.text = f"Slide {i + 1}"
        tf = s.placeholders[1].text_frame
        tf.text = f"Point one of slide {i + 1}"
        for j in range(3):
            p = tf.add_paragraph()
            p.text = f"Sub point {j}"
            p.level = 1
        png.seek(0)
        s.shapes.add_picture(png, Inches(7), Inches(5), Inches(1), Inches(0.75))
        table = s.shapes.add_table(4, 3, Inches(0.5), Inches(5), Inches(6), Inches(1.5)).table
        for r in range(4):
            for c in range(3):
                table.cell(r, c).text = f"{r},{c}"
        if i % 5 == 0:
            g = s.shapes.add_group_shape()
            g.shapes.add_shape(MSO_SHAPE.RECTANGLE, Inches(8), Inches(1), Inches(1), Inches(1)).text = "g1"
            g.shapes.add_shape(MSO_SHAPE.OVAL, Inches(8), Inches(2), Inches(1), Inches(1)).text = "g2"
        if i % 10 == 0:
            data = CategoryChartData()
            data.categories = ["a", "b", "c"]
            data.add_series("s", (1, 2, 3))
            s.shapes.add_chart(XL_CHART_TYPE.COLUMN_CLUSTERED, Inches(6), Inches(1.5), Inches(3), Inches(2), data)
        s.notes_slide.notes_text_frame.text = f"Notes {i}"
    prs.save(path)


def bare_load(path: Path) -> int:
    """python-pptx load + every shape's text (the cheapest honest 'read the deck')."""
    prs = Presentation(str(path))
    chars = 0

    def walk(shapes: Any) -> None:
        nonlocal chars
        for sh in shapes:
            _ = (sh.left, sh.top, sh.width, sh.height)
            if sh.shape_type is not None and sh.shape_type == 6:  # group
                walk(sh.shapes)
            if sh.has_text_frame:
                chars += len(sh.text_frame.text)
            if getattr(sh, "has_table", False) and sh.has_table:
                for row in sh.table.rows:
                    for cell in row.cells:
                        chars += len(cell.text)

    for slide in prs.slides:
        walk(slide.shapes)
        if slide.has_notes_slide:
            chars += len(slide.notes_slide.notes_text_frame.text)
    return chars


def measure(fn: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(best wall seconds, peak traced MiB of one run)."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    gc.collect()
    tracemalloc.start()
    fn()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return best, peak / (1024 * 1024)


_RSS_CHILD = """
import sys
sys.path.insert(0, {repo!r})
sys.path.insert(0, {bench!r})
from pathlib import Path
import bench_extract_pptx as b
from artifactcheck.extractors.pptx.extract import extract_pptx
import imagehash, PIL.Image, pywt, scipy.fftpack  # imported lazily by the tree's image hashing: not the tree's cost
def kib(field):
    for line in open('/proc/self/status'):
        if line.startswith(field):
            return int(line.split()[1])
    return 0
base = kib('VmRSS:')
job = {job!r}
path = Path({path!r})
keep = extract_pptx(path) if job == 'tree' else b.bare_load(path)
print(kib('VmHWM:') - base)
"""


def peak_rss_mib(job: str, path: Path) -> float:
    """Peak resident memory added by one run in a fresh interpreter (counts libxml2's
    C allocations, which tracemalloc does not see)."""
    import subprocess

    here = Path(__file__).resolve()
    code = _RSS_CHILD.format(repo=str(here.parents[1]), bench=str(here.parent), job=job, path=str(path))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, timeout=600)
    return int(out.stdout.strip().splitlines()[-1]) / 1024


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="5,50,200")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(
        f"{'slides':>6} {'tree s':>8} {'bare s':>8} {'time x':>7} {'ms/slide':>9}"
        f" {'tree MiB':>9} {'bare MiB':>9} {'mem x':>6} {'treeRSS':>8} {'bareRSS':>8} {'rss x':>6} {'nodes':>7}"
    )
    print("(MiB = tracemalloc peak, Python allocations only; RSS = peak resident MiB added, fresh process)")
    with tempfile.TemporaryDirectory(prefix="ac-bench-pptx-") as tmp:
        for n in sizes:
            path = Path(tmp) / f"deck{n}.pptx"
            build_deck(path, n)
            extract_pptx(path)  # warm imports
            bare_load(path)
            t_tree, m_tree = measure(lambda p=path: extract_pptx(p), args.repeat)
            t_bare, m_bare = measure(lambda p=path: bare_load(p), args.repeat)
            nodes = len(extract_pptx(path))
            r_tree, r_bare = peak_rss_mib("tree", path), peak_rss_mib("bare", path)
            print(
                f"{n:>6} {t_tree:>8.3f} {t_bare:>8.3f} {t_tree / t_bare:>7.2f} {1000 * t_tree / n:>9.2f}"
                f" {m_tree:>9.2f} {m_bare:>9.2f} {m_tree / m_bare:>6.2f}"
                f" {r_tree:>8.1f} {r_bare:>8.1f} {r_tree / max(r_bare, 0.1):>6.2f} {nodes:>7}"
            )


if __name__ == "__main__":
    main()
