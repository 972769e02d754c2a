"""Compare the warm pool's PDFs with the cold path's over the .docx corpus, file by file:
page count, every character's box and every image placement.

    .venv/bin/python scripts/warm_cold_parity.py [../shared/corpus/docx]

Prints one line per file (identical / max difference in pt / which path rendered it) and
the pool's counters. Numbers are recorded in design/rendering.md ("Warm pool").
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from artifactcheck.extractors.render.layout import read_layout
from artifactcheck.extractors.render.pool import PoolSettings
from artifactcheck.extractors.render.renderer import LibreOfficeRenderer
from artifactcheck.extractors.render.warm import WarmRenderer


def _chars(pdf: Path) -> list[tuple[int, str, float, float, float, float]]:
    return [(c.page, c.char, c.x0, c.top, c.x1, c.bottom) for c in read_layout(pdf).chars]


def main(folder: Path) -> None:
    cold = LibreOfficeRenderer()
    out = Path(tempfile.mkdtemp(prefix="parity-"))
    with WarmRenderer.start(PoolSettings(size=1)) as warm:
        for src in sorted(folder.glob("*.docx")):
            started = time.monotonic()
            cold_pdf = cold.convert(src, out / "cold", timeout=300)
            cold_s = time.monotonic() - started
            fallbacks = warm.fallbacks
            started = time.monotonic()
            warm_pdf = warm.convert(src, out / "warm", timeout=300)
            warm_s = time.monotonic() - started
            a, b = _chars(cold_pdf), _chars(warm_pdf)
            images_same = [(i.page, i.x0, i.top, i.x1, i.bottom) for i in read_layout(cold_pdf).images] == [
                (i.page, i.x0, i.top, i.x1, i.bottom) for i in read_layout(warm_pdf).images
            ]
            if a == b:
                verdict = "identical"
            elif len(a) == len(b) and all(x[:2] == y[:2] for x, y in zip(a, b, strict=True)):
                worst = max(abs(x[i] - y[i]) for x, y in zip(a, b, strict=True) for i in (2, 3, 4, 5))
                verdict = f"same text, boxes differ by <= {worst:.3f} pt"
            else:
                verdict = "DIFFERENT TEXT"
            path = "cold fallback" if warm.fallbacks > fallbacks else "warm"
            print(f"{src.name:50s} {len(a):7d} chars  {verdict:36s} images {'same' if images_same else 'DIFFER'}  "
                  f"cold {cold_s:5.2f} s  warm {warm_s:5.2f} s ({path})", flush=True)
        print(warm.state())


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared" / "corpus" / "docx")
