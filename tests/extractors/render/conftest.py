"""Session fixtures for the renderer tests: one private cache directory and each fixture
file rendered by real LibreOffice at most once per session."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from artifactcheck.extractors.render import LibreOfficeRenderer, RenderedPDF, render_pdf

RENDER_FIXTURES = Path(__file__).resolve().parents[3] / "fixtures" / "render"


class CountingRenderer:
    """The real LibreOffice renderer, counting how often it is asked to convert."""

    def __init__(self, inner: LibreOfficeRenderer) -> None:
        self.inner = inner
        self.calls = 0

    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def version(self) -> str:
        return self.inner.version

    @property
    def options(self) -> str:
        return self.inner.options

    def convert(self, src: Path, out_dir: Path, *, target: str = "pdf", timeout: float) -> Path:
        self.calls += 1
        return self.inner.convert(src, out_dir, target=target, timeout=timeout)


@pytest.fixture(scope="session")
def render_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A private ARTIFACTCHECK_CACHE_DIR for this session (restored afterwards)."""
    path = tmp_path_factory.mktemp("render-cache")
    old = os.environ.get("ARTIFACTCHECK_CACHE_DIR")
    os.environ["ARTIFACTCHECK_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("ARTIFACTCHECK_CACHE_DIR", None)
    else:
        os.environ["ARTIFACTCHECK_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def lo_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where this session's conversions make their work directories (must end empty)."""
    return tmp_path_factory.mktemp("lo-work")


@pytest.fixture(scope="session")
def counting_renderer(lo_tmp: Path) -> CountingRenderer:
    return CountingRenderer(LibreOfficeRenderer(tmp_root=lo_tmp))


@pytest.fixture(scope="session")
def known_layout_pdf(render_cache: Path, counting_renderer: CountingRenderer) -> RenderedPDF:
    return render_pdf(RENDER_FIXTURES / "known_layout.docx", renderer=counting_renderer)


@pytest.fixture(scope="session")
def known_layout_tagged_pdf(render_cache: Path, lo_tmp: Path) -> RenderedPDF:
    """The same fixture exported as a tagged PDF (the renderer's option; plain is the default)."""
    return render_pdf(RENDER_FIXTURES / "known_layout.docx", renderer=LibreOfficeRenderer(tmp_root=lo_tmp, tagged=True))


@pytest.fixture(scope="session")
def deck_pdf(render_cache: Path, lo_tmp: Path) -> RenderedPDF:
    return render_pdf(RENDER_FIXTURES / "deck.pptx", renderer=LibreOfficeRenderer(tmp_root=lo_tmp))


@pytest.fixture(scope="session")
def book_pdf(render_cache: Path, lo_tmp: Path) -> RenderedPDF:
    return render_pdf(RENDER_FIXTURES / "book.xlsx", renderer=LibreOfficeRenderer(tmp_root=lo_tmp))


def processes_mentioning(text: str) -> list[int]:
    """Live (non-zombie) processes whose command line contains ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if text in cmdline and stat[stat.rfind(")") + 2 :].split()[0] != "Z":
            found.append(int(entry.name))
    return found
