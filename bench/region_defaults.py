"""Measure which "in the region" criterion matches what a reader means by "the logo is in
the upper-left corner" (issue 11; the numbers are in design/checks-geometry.md).

Two sources of placements:

1. Built the way agents build them: python-docx letters (Letter and A4, 1 in margins; the
   logo as the first body paragraph or in the page header, aligned left, centred or
   right; 1 to 3 in wide; wide 2.5:1 wordmarks and square marks), python-pptx decks (4:3
   and 16:9; ``add_picture`` at a 0.3-0.5 in margin, centred or right-aligned) and openpyxl
   sheets (``add_image`` anchored at A1 or over a far column of a data table). The
   *truth* of a .docx/.pptx case is read from the LibreOffice render (the picture's drawn
   box in the PDF, pdfium): "upper-left" when the drawn picture is nearer the left edge
   than the centre line or the right edge, and starts in the top quarter of the page.
   Sheets have no printed truth; their truth is the anchor (A1 = upper-left).
2. Real files in ``../shared/corpus``: every picture sized like a logo (under 40% of the page's
   width and height) whose top-left corner lies within 15% of the page's top-left corner (how many of these
   would fail each criterion).

Each criterion is the real ``in_region`` check (``region: upper-left``) on the tree's
boxes: ``contained`` (the old default: all of the box in the top-left third cell),
``area`` (at least half of it), ``center`` (the centre in the cell), and ``margins``
(``contained`` in a cell sized by the text area: the left third of the page's width plus
the margin - measured as a candidate, not offered).

Run: ``.venv/bin/python bench/region_defaults.py [--no-corpus]`` (about 1-2 minutes:
LibreOffice renders three files, cached afterwards).
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import artifactcheck
from artifactcheck.checks.registry import run_check
from artifactcheck.extractors.render import read_layout, render_pdf
from artifactcheck.model import Document

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CRITERIA = ("contained", "area", "center", "margins")
WIDTHS_IN = (1.0, 1.5, 2.0, 2.5, 3.0)


def logo_png(aspect: float, label: str = "ACME") -> bytes:
    """A wordmark logo: a coloured mark and a word, ``aspect`` = width / height."""
    h = 160
    w = int(h * aspect)
    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    draw.ellipse([8, 8, h - 8, h - 8], fill=(20, 90, 160))
    if aspect > 1.2:
        draw.text((h + 10, h // 4), label, fill=(30, 30, 30), font=ImageFont.truetype(FONT, h // 2))
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


@dataclass
class Case:
    source: str  # docx-letter-body, pptx-16:9, ...
    label: str  # left / center / right, width, aspect
    page: int  # 0-based page (slide, sheet) the logo is on
    truth: bool | None = None  # from the render (None: not decided yet)


def build_docx(path: Path, *, a4: bool, in_header: bool) -> list[Case]:
    from docx import Document as Docx
    from docx.enum.section import WD_SECTION
    from docx.enum.text import WD_ALIGN_PARAGRAPH
    from docx.shared import Inches, Mm

    doc = Docx()
    cases: list[Case] = []
    aligns = {"left": WD_ALIGN_PARAGRAPH.LEFT, "center": WD_ALIGN_PARAGRAPH.CENTER, "right": WD_ALIGN_PARAGRAPH.RIGHT}
    first = True
    for aspect in (2.5, 1.0):
        png = logo_png(aspect)
        for width in WIDTHS_IN:
            for align, value in aligns.items():
                section = doc.sections[0] if first else doc.add_section(WD_SECTION.NEW_PAGE)
                first = False
                if a4:
                    section.page_width, section.page_height = Mm(210), Mm(297)
                else:
                    section.page_width, section.page_height = Inches(8.5), Inches(11)
                for side in ("left_margin", "right_margin", "top_margin", "bottom_margin"):
                    setattr(section, side, Inches(1))
                if in_header:
                    header = section.header
                    header.is_linked_to_previous = False
                    para = header.paragraphs[0]
                else:
                    para = doc.add_paragraph()
                para.alignment = value
                para.add_run().add_picture(io.BytesIO(png), width=Inches(width * (0.6 if in_header else 1)))
                doc.add_paragraph("Dear Dr. Rivera,")
                doc.add_paragraph("Thank you for your letter of 3 March. " * 6)
                kind = f"docx-{'A4' if a4 else 'letter'}-{'header' if in_header else 'body'}"
                cases.append(Case(kind, f"{align} {width:g}in {aspect:g}:1", len(cases)))
    doc.save(str(path))
    return cases


def build_pptx(path: Path, *, wide: bool) -> list[Case]:
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    prs.slide_width = Inches(13.333 if wide else 10)
    prs.slide_height = Inches(7.5)
    sw = prs.slide_width
    cases: list[Case] = []
    for aspect in (2.5, 1.0):
        png = logo_png(aspect)
        for width in WIDTHS_IN:
            for align in ("left", "center", "right", "bottom-left"):
                for margin in (0.3, 0.5):
                    slide = prs.slides.add_slide(prs.slide_layouts[6])
                    w = Inches(width)
                    left = {"left": Inches(margin), "bottom-left": Inches(margin), "center": (sw - w) // 2}.get(align, sw - w - Inches(margin))
                    top = Inches(margin) if align != "bottom-left" else prs.slide_height - Inches(margin) - int(w / aspect)
                    slide.shapes.add_picture(io.BytesIO(png), left, top, width=w)
                    tb = slide.shapes.add_textbox(Inches(1), Inches(2.5), sw - Inches(2), Inches(1))
                    tb.text_frame.text = "Quarterly results"
                    cases.append(Case(f"pptx-{'16:9' if wide else '4:3'}", f"{align} {width:g}in {aspect:g}:1 m{margin:g}", len(cases)))
    prs.save(str(path))
    return cases


def build_xlsx(path: Path) -> list[Case]:
    from openpyxl import Workbook
    from openpyxl.drawing.image import Image as XlImage

    wb = Workbook()
    cases: list[Case] = []
    first = True
    for aspect in (2.5, 1.0):
        for width_px in (120, 200, 300):
            for anchor, columns in (("A1", 6), ("A1", 10), ("F1", 8), ("J1", 10)):
                ws = wb.active if first else wb.create_sheet()
                first = False
                ws.title = f"S{len(cases)}"
                for r in range(6, 30):
                    for c in range(1, columns + 1):
                        ws.cell(row=r, column=c, value=r * c)
                img = XlImage(io.BytesIO(logo_png(aspect)))
                img.width, img.height = width_px, int(width_px / aspect)
                ws.add_image(img, anchor)
                truth = anchor == "A1"
                cases.append(Case("xlsx", f"{anchor} {width_px}px {aspect:g}:1 of {columns} cols", len(cases), truth))
    wb.save(str(path))
    return cases


def truth_from_render(path: Path, cases: list[Case]) -> None:
    """Label each case from the picture LibreOffice drew on its page."""
    layout = read_layout(render_pdf(path).pdf_path)
    by_page: dict[int, list[tuple[float, float, float, float]]] = {}
    for im in layout.images:
        by_page.setdefault(im.page, []).append((im.x0, im.top, im.x1, im.bottom))
    for case in cases:
        page = layout.pages[case.page]
        (x0, top, x1, _bottom), *_ = by_page[case.page]
        w = page.width
        to_left, to_centre, to_right = x0, abs((x0 + x1) / 2 - w / 2), w - x1
        case.truth = to_left < min(to_centre, to_right) and top < page.height / 4


def verdicts(doc: Document, page: int, margins_pt: float | None) -> dict[str, bool]:
    """Each criterion's verdict on the first image of ``page``."""
    out: dict[str, bool] = {}
    images = [n for n in doc.select("image") if n.boxes and n.pages[0] == page]
    target = {"selector": f"[id='{images[0].id}']"}
    for criterion in ("contained", "area", "center"):
        r = run_check("in_region", doc, {"target": target, "region": "upper-left", "page": page, "criterion": criterion})
        assert r.status in ("pass", "fail"), r.explanation
        out[criterion] = r.status == "pass"
    w, h = doc.pages[page].width, doc.pages[page].height
    m = margins_pt or 0.0
    box = {"x0": 0, "top": 0, "x1": m + (w - 2 * m) / 3, "bottom": m + (h - 2 * m) / 3, "units": "pt"}
    r = run_check("in_region", doc, {"target": target, "region": box, "page": page, "criterion": "contained"})
    out["margins"] = r.status == "pass"
    return out


def corpus_cases() -> list[tuple[str, Document, int, str]]:
    """Logo-sized pictures near the top-left corner of real pages: (file, doc, page, image id)."""
    found = []
    for path in sorted(CORPUS.glob("pptx/*.pptx")) + sorted(CORPUS.glob("docx/*.docx")) + sorted(CORPUS.glob("xlsx/*.xlsx")):
        try:
            doc = artifactcheck.load(path, render=path.suffix == ".docx")
        except Exception as exc:  # noqa: BLE001 - a corpus file we cannot read says nothing about regions
            print(f"  (skipped {path.name}: {type(exc).__name__})")
            continue
        seen: set[tuple[float, ...]] = set()
        for node in doc.select("image"):
            if not node.boxes:
                continue
            b = node.boxes[0]
            page = doc.pages[b.page]
            if page.width <= 0 or page.height <= 0 or b.width <= 0 or b.height <= 0:
                continue
            key = (round(b.x0), round(b.top), round(b.x1), round(b.bottom))  # a master's logo on every slide counts once
            if key in seen:
                continue
            seen.add(key)
            logo_sized = b.width < 0.4 * page.width and b.height < 0.4 * page.height
            if logo_sized and b.x0 < 0.15 * page.width and b.top < 0.15 * page.height:
                found.append((path.name, doc, b.page, node.id))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--no-corpus", action="store_true")
    args = ap.parse_args()
    table: Counter[tuple[str, str, bool, bool]] = Counter()
    misses: dict[str, list[str]] = {c: [] for c in CRITERIA}
    with tempfile.TemporaryDirectory() as tmp:
        builds = []
        for a4 in (False, True):
            for header in (False, True):
                p = Path(tmp) / f"letter-{a4}-{header}.docx"
                builds.append((p, build_docx(p, a4=a4, in_header=header), 72.0))
        for wide in (False, True):
            p = Path(tmp) / f"deck-{wide}.pptx"
            builds.append((p, build_pptx(p, wide=wide), None))
        p = Path(tmp) / "sheet.xlsx"
        builds.append((p, build_xlsx(p), None))
        for path, cases, margin in builds:
            if path.suffix != ".xlsx":
                truth_from_render(path, cases)
            doc = artifactcheck.load(path, render=path.suffix == ".docx")
            for case in cases:
                got = verdicts(doc, case.page, margin)
                for criterion, ok in got.items():
                    assert case.truth is not None
                    table[(case.source, criterion, case.truth, ok)] += 1
                    if ok != case.truth:
                        misses[criterion].append(f"{case.source} {case.label}")
    sources = sorted({k[0] for k in table})
    print("Built files: wrong verdicts per criterion (truth from the LibreOffice render)")
    print(f"{'source':22} {'cases':>5} {'upper-left':>10}  " + "  ".join(f"{c:>14}" for c in CRITERIA))
    for source in sources:
        n = sum(v for k, v in table.items() if k[0] == source and k[1] == "center")
        yes = sum(v for k, v in table.items() if k[0] == source and k[1] == "center" and k[2])
        cells = []
        for c in CRITERIA:
            fn = table[(source, c, True, False)]
            fp = table[(source, c, False, True)]
            cells.append(f"{fn:>3} FN {fp:>3} FP  ")
        print(f"{source:22} {n:>5} {yes:>10}  " + "".join(f"{c:>16}" for c in cells))
    for c in CRITERIA:
        total_wrong = sum(v for k, v in table.items() if k[1] == c and k[2] != k[3])
        total = sum(v for k, v in table.items() if k[1] == c)
        print(f"{c:>10}: {total_wrong} of {total} wrong; e.g. {misses[c][:4]}")
    if args.no_corpus or not CORPUS.is_dir():
        return
    print("\nCorpus: logo-sized pictures near the top-left corner (a reader says 'upper-left'): passes per criterion")
    rows = corpus_cases()
    passes = Counter[str]()
    for file, doc, page, node_id in rows:
        line = []
        for criterion in ("contained", "area", "center"):
            r = run_check("in_region", doc, {"target": f"[id='{node_id}']", "region": "upper-left", "page": page, "criterion": criterion})
            passes[criterion] += r.status == "pass"
            line.append(f"{criterion}={r.status}")
        why = r.evidence["nodes"][0].get("why", "")  # type: ignore[index,union-attr]
        print(f"  {file:40} {node_id:28} {' '.join(line)}  ({why})")
    print("  " + ", ".join(f"{c}: {passes[c]} of {len(rows)}" for c in ("contained", "area", "center")))


if __name__ == "__main__":
    main()
