"""What a hostile input costs before it is refused, beside the clean file it was made from,
each loaded in a fresh process (seconds, peak RSS), measured side by side in one run.

    .venv/bin/python bench/bench_hostile.py [--shapes 584000] [--pixels 12000]

Inputs are built here from the fixtures (design/safe-loading.md has the numbers):
- a deck whose slide holds N empty ``<p:sp/>`` (the 26 KB / 3.9 MiB campaign input);
- a workbook with one PNG of P x P pixels (the 8 KB / 144 Mpx campaign input);
- a Sheets response declaring 1e12 rows.
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CHILD = r"""
import resource, sys, time
import artifactcheck
start = time.perf_counter()
try:
    artifactcheck.load(sys.argv[1], render=False)
    verdict = "loaded"
except artifactcheck.ArtifactCheckError as exc:
    verdict = type(exc).__name__
print(f"{time.perf_counter() - start:.2f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} {verdict}")
"""


def flood_deck(src: Path, dst: Path, shapes: int) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename == "ppt/slides/slide1.xml":
                data = data.replace(b"</p:spTree>", b"<p:sp/>" * shapes + b"</p:spTree>", 1)
            zout.writestr(info.filename, data)
    return dst


def big_png_book(dst: Path, side: int) -> Path:
    from openpyxl import Workbook
    from openpyxl.drawing.image import Image as XlImage
    from PIL import Image

    buf = io.BytesIO()
    Image.new("1", (side, side), 1).save(buf, format="PNG", optimize=True)
    buf.seek(0)
    wb = Workbook()
    wb.active.add_image(XlImage(buf), "B2")  # type: ignore[union-attr]
    wb.save(dst)
    return dst


def huge_sheet(src: Path, dst: Path) -> Path:
    data = json.loads(src.read_text())
    data["sheets"][0]["properties"]["gridProperties"]["rowCount"] = 10**12
    dst.write_text(json.dumps(data))
    return dst


def measure(path: Path) -> str:
    out = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, timeout=900, check=False)
    return out.stdout.strip() or out.stderr.strip().splitlines()[-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", type=int, default=584_000)
    ap.add_argument("--pixels", type=int, default=12_000)
    args = ap.parse_args()
    deck = REPO / "fixtures" / "pptx" / "deck.pptx"
    sheets = REPO / "fixtures" / "google" / "sheets_parity.json"
    with tempfile.TemporaryDirectory() as tmp:
        t = Path(tmp)
        rows = [
            ("deck (clean)", deck),
            (f"deck + {args.shapes} empty shapes", flood_deck(deck, t / "flood.pptx", args.shapes)),
            ("workbook, 10 px image", big_png_book(t / "small.xlsx", 10)),
            (f"workbook, {args.pixels}^2 px image", big_png_book(t / "big.xlsx", args.pixels)),
            ("Sheets response (clean)", sheets),
            ("Sheets response, rowCount 1e12", huge_sheet(sheets, t / "huge.json")),
        ]
        print(f"{'input':40} {'file KB':>8} {'seconds':>8} {'peak MB':>8}  verdict")
        for name, path in rows:
            seconds, peak, verdict = measure(path).split(" ", 2)
            print(f"{name:40} {path.stat().st_size / 1024:8.1f} {seconds:>8} {peak:>8}  {verdict}")


if __name__ == "__main__":
    main()
