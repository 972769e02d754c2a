"""``count_each {each: page}`` on a .docx: "does every page show the logo?". A .docx has
no page nodes (its pages are the render's), so the check said "no container matches
'page'" and failed. Each printed page now holds the targets drawn on it; the truth is the
render's picture placements per page."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import docx
import pytest
from docx.enum.text import WD_BREAK
from docx.shared import Inches
from PIL import Image

from artifactcheck import load, run_check
from artifactcheck.extractors.render import read_layout, render_pdf

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("each-page")
    Image.new("RGB", (120, 60), (20, 70, 150)).save(folder / "logo.png")
    Image.new("RGB", (200, 120), (200, 60, 20)).save(folder / "chart.png")
    d = docx.Document()
    d.sections[0].header.paragraphs[0].add_run().add_picture(str(folder / "logo.png"), width=Inches(1))
    d.add_paragraph("Page one")
    d.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    d.add_paragraph("Page two, with a chart")
    d.add_paragraph().add_run().add_picture(str(folder / "chart.png"), width=Inches(3))
    d.add_paragraph().add_run().add_break(WD_BREAK.PAGE)
    d.add_paragraph("Page three")
    path = folder / "report.docx"
    d.save(str(path))
    return path


def test_each_printed_page_holds_what_is_drawn_on_it(report: Path) -> None:
    drawn = Counter(im.page for im in read_layout(render_pdf(report).pdf_path).images)
    assert sorted(drawn.items()) == [(0, 1), (1, 2), (2, 1)], drawn  # the logo on each page, the chart on page 2
    doc = load(report)
    every = run_check("count_each", doc, {"each": "page", "target": "image", "at_least": 1})
    assert every.status == "pass", every.explanation
    one = run_check("count_each", doc, {"each": "page", "target": "image", "exactly": 1})
    assert one.status == "fail" and [r["count"] for r in one.evidence["containers"]] == [drawn[p] for p in range(3)], one.explanation


def test_without_layout_it_cannot_say(report: Path) -> None:
    verdict = run_check("count_each", load(report, render=False), {"each": "page", "target": "image", "at_least": 1})
    assert verdict.status == "error", verdict.explanation
