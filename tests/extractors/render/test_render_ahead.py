"""The .docx extractor renders while it walks (render/render_ahead.py): the caller gets the
rendering's own errors, and a walk that fails leaves no conversion running behind it."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import docx
import pytest

from artifactcheck import load
from artifactcheck.errors import ArtifactTooLarge, RenderTimeout
from artifactcheck.extractors.render import LibreOfficeRenderer
from artifactcheck.extractors.render.render_ahead import RenderAhead
from artifactcheck.extractors.render.selection import use_renderer
from artifactcheck.limits import use_limits

from .conftest import RENDER_FIXTURES, processes_mentioning

pytestmark = pytest.mark.slow


def _render_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("artifactcheck-render")]


@pytest.fixture
def agent_docx(tmp_path: Path) -> Path:
    """A report the way an agent writes one with python-docx, new bytes per test (so its
    rendering is never a cache hit)."""
    d = docx.Document()
    d.add_heading(f"Quarterly report {tmp_path.name}", level=1)
    for i in range(12):
        d.add_paragraph(f"Finding {i + 1}: the numbers moved as the appendix shows.")
    path = tmp_path / "report.docx"
    d.save(path)
    return path


def test_the_rendering_arrives_with_the_tree(agent_docx: Path, render_cache: Path) -> None:
    doc = load(agent_docx)
    assert doc.pages and all(n.boxes for n in doc.root.iter() if n.kind == "paragraph" and n.text)
    assert not _render_threads()


def test_a_rendering_error_reaches_the_caller_with_its_type(agent_docx: Path, render_cache: Path, lo_tmp: Path) -> None:
    with use_renderer(LibreOfficeRenderer(tmp_root=lo_tmp)), pytest.raises(RenderTimeout):
        load(agent_docx, timeout=0.01)
    assert not _render_threads()
    assert not processes_mentioning(str(agent_docx))


def test_a_walk_that_fails_waits_for_the_conversion_it_started(
    agent_docx: Path, render_cache: Path, lo_tmp: Path
) -> None:
    with use_renderer(LibreOfficeRenderer(tmp_root=lo_tmp)):
        with use_limits(tree_nodes=3), pytest.raises(ArtifactTooLarge):
            load(agent_docx)
        assert not _render_threads()
        assert not processes_mentioning(str(agent_docx))
        assert not processes_mentioning(str(lo_tmp))  # its soffice runs with a profile under lo_tmp


def test_render_ahead_hands_over_the_renderings_path(tmp_path: Path, render_cache: Path) -> None:
    src = shutil.copy(RENDER_FIXTURES / "known_layout.docx", tmp_path / "copy.docx")
    ahead = RenderAhead(Path(src), timeout=120)
    rendered = ahead.result()
    assert rendered.pdf_path.is_file() and rendered.pdf_path.suffix == ".pdf"
    ahead.discard()  # after result(): returns at once
    assert not _render_threads()
