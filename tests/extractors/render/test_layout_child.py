"""Reading a layout in a child process (render/layout_child.py) and ahead of the .docx
walk (render/layout_ahead.py): the same layout and the same tree as reading in this
process, and the child held to the external-process rules (deadline, process group,
temporary files, failure read here)."""

from __future__ import annotations

import io
import logging
import threading
from pathlib import Path

import docx
import numpy as np
import pytest
from docx.shared import Inches
from PIL import Image

from artifactcheck import load
from artifactcheck.errors import ArtifactTooLarge, RenderTimeout
from artifactcheck.extractors.render import RenderedPDF, read_layout
from artifactcheck.extractors.render.layout import (
    PdfLayout,
    font_facts,
    join_layout,
    read_layout_pages,
)
from artifactcheck.extractors.render.layout_child import ENV_VAR, LayoutChild, read_in_child
from artifactcheck.extractors.render.process_group import group_alive
from artifactcheck.limits import use_limits

from .conftest import processes_mentioning

pytestmark = pytest.mark.slow


def _same(a: PdfLayout, b: PdfLayout) -> None:
    assert [(p.index, p.width, p.height) for p in a.pages] == [
        (p.index, p.width, p.height) for p in b.pages
    ]
    assert a.text == b.text
    assert a.chars == b.chars
    assert a.images == b.images
    assert a.structure == b.structure
    assert a.tagged == b.tagged
    for name in a.columns.__dataclass_fields__:
        assert np.array_equal(getattr(a.columns, name), getattr(b.columns, name)), name


def test_a_child_reads_the_layout_this_process_reads(known_layout_pdf: RenderedPDF) -> None:
    here = read_layout(known_layout_pdf.pdf_path)
    child = LayoutChild.start(known_layout_pdf.pdf_path, timeout=60)
    assert child is not None
    try:
        part = child.result()
    finally:
        child.close()
    assert part is not None
    _same(join_layout([part]), here)
    assert not child.workdir.exists()
    assert font_facts(here.chars[0].font) is not None


def test_a_child_reads_a_page_range_that_joins_with_ours(known_layout_pdf: RenderedPDF) -> None:
    pdf = known_layout_pdf.pdf_path
    child = LayoutChild.start(pdf, timeout=60, first=1, stop=None, structure=True)
    assert child is not None
    try:
        tail = child.result()
    finally:
        child.close()
    assert tail is not None and [p.index for p in tail.pages] == [1]
    head = read_layout_pages(pdf, first=0, stop=1, structure=True)
    _same(join_layout([head, tail]), read_layout(pdf, structure=True))


def test_read_in_child_gives_the_same_layout(
    known_layout_pdf: RenderedPDF, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, "2")
    _same(
        read_in_child(known_layout_pdf.pdf_path, timeout=60, min_pages=1),
        read_layout(known_layout_pdf.pdf_path),
    )


def test_a_child_past_its_deadline_is_killed_with_its_group(known_layout_pdf: RenderedPDF) -> None:
    child = LayoutChild.start(known_layout_pdf.pdf_path, timeout=0.001)
    assert child is not None
    try:
        with pytest.raises(RenderTimeout, match="did not finish within"):
            child.result()
        assert not group_alive(child.proc.pid)
    finally:
        child.close()
    assert not child.workdir.exists()


def test_a_failed_child_says_why_and_the_caller_reads_instead(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "gone.pdf"
    child = LayoutChild.start(missing, timeout=60)
    assert child is not None
    with caplog.at_level(logging.WARNING, logger="artifactcheck.extractors.render.layout_child"):
        try:
            assert child.result() is None
        finally:
            child.close()
    assert "layout child for" in caplog.text and "cannot read PDF" in caplog.text


def _long_docx(path: Path, pages: int) -> Path:
    """A .docx the way an agent writes one with python-docx: a heading and a paragraph per
    page, a picture every tenth page, hard page breaks between pages."""
    d = docx.Document()
    for page in range(pages):
        d.add_heading(f"Part {page + 1}", level=2)
        d.add_paragraph(
            f"Paragraph {page + 1} of the report, with enough words to be aligned. " * 3
        )
        if page % 10 == 0:
            buf = io.BytesIO()
            Image.new("RGB", (60, 40), (page * 7 % 256, 90, 160)).save(buf, format="PNG")
            d.add_picture(io.BytesIO(buf.getvalue()), width=Inches(1))
        if page + 1 < pages:
            d.add_page_break()
    d.save(path)
    return path


@pytest.fixture(scope="module")
def long_docx(tmp_path_factory: pytest.TempPathFactory, render_cache: Path) -> Path:
    path = _long_docx(tmp_path_factory.mktemp("long") / "long.docx", pages=70)
    load(path)  # the rendering cached once for the comparisons below
    return path


def test_the_docx_tree_is_the_same_read_ahead_by_a_child(
    long_docx: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv(ENV_VAR, "1")
    with caplog.at_level(logging.DEBUG, logger="artifactcheck.extractors.render.layout_child"):
        here = load(long_docx)
        assert "read by a child process" not in caplog.text
        monkeypatch.setenv(ENV_VAR, "2")
        ahead = load(long_docx)
        assert "read by a child process" in caplog.text
    assert len(ahead.pages) >= 64
    assert ahead.to_json() == here.to_json()
    assert not processes_mentioning("artifactcheck.extractors.render.layout_child")


def test_a_walk_that_fails_waits_for_the_rendering_it_started(
    long_docx: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, "2")
    with use_limits(tree_nodes=10), pytest.raises(ArtifactTooLarge):
        load(long_docx)
    assert not [t for t in threading.enumerate() if t.name.startswith("artifactcheck-layout")]
    assert not processes_mentioning("artifactcheck.extractors.render.layout_child")
