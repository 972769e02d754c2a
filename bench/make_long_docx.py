"""Deterministic .docx of roughly N Letter pages for the render benchmark.

Text-heavy pages (the common case for reports): headings, body paragraphs with
ligature-prone words, a bullet list, a small table and a picture every ten pages.
"""

from __future__ import annotations

import io
import random
import sys
from pathlib import Path

import docx
from docx.shared import Inches
from PIL import Image

WORDS = ["office", "efficient", "fine", "flow", "affinity", "field", "figure", "final", "shuffle", "offline", "coefficient", "layout", "render", "paragraph", "table", "measure", "evidence", "rubric", "checkpoint", "artifact", "align", "box", "page", "column", "section", "heading", "picture", "caption", "reflow", "justify", "baseline", "margin", "quote"]


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(WORDS) for _ in range(rng.randint(8, 18))]
    return " ".join(words).capitalize() + "."


def _png(seed: int) -> bytes:
    img = Image.new("RGB", (120, 80), (seed * 37 % 256, seed * 91 % 256, 160))
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    return buf.getvalue()


def make_long_docx(pages: int, path: Path) -> Path:
    """Write a .docx of about ``pages`` pages (4 body blocks per page) to ``path``."""
    rng = random.Random(pages)
    d = docx.Document()
    for page in range(pages):
        d.add_heading(f"Section {page + 1}: {rng.choice(WORDS)} {rng.choice(WORDS)}", level=1 + page % 2)
        for _ in range(3):
            d.add_paragraph(" ".join(_sentence(rng) for _ in range(5)))
        if page % 3 == 0:
            for _ in range(3):
                d.add_paragraph(_sentence(rng), style="List Bullet")
        if page % 5 == 2:
            table = d.add_table(rows=3, cols=3)
            for r, row in enumerate(table.rows):
                for c, cell in enumerate(row.cells):
                    cell.text = f"{rng.choice(WORDS)} {r}.{c}"
        if page % 10 == 9:
            d.add_picture(io.BytesIO(_png(page)), width=Inches(1.5))
        d.add_page_break()
    path.parent.mkdir(parents=True, exist_ok=True)
    d.save(str(path))
    return path


if __name__ == "__main__":
    make_long_docx(int(sys.argv[1]), Path(sys.argv[2]))
