"""LibreOfficeRenderer and render_pdf against real LibreOffice: output, cache, timeouts,
bad input, and nothing left behind."""

from __future__ import annotations

import io
import os
import shutil
import time
import zipfile
from pathlib import Path

import pytest

from artifactcheck.errors import RenderError, RenderTimeout
from artifactcheck.extractors.render import LibreOfficeRenderer, RenderedPDF, Renderer, render_pdf
from artifactcheck.extractors.render.cache import cache_key
from artifactcheck.extractors.render.pdf_check import pdf_page_count

from .conftest import RENDER_FIXTURES, CountingRenderer, processes_mentioning

pytestmark = pytest.mark.slow


def test_renderer_satisfies_protocol(lo_tmp: Path) -> None:
    r = LibreOfficeRenderer(tmp_root=lo_tmp)
    assert isinstance(r, Renderer)
    assert r.name == "libreoffice"
    assert r.version[0].isdigit()  # "7.4.7.2"
    assert r.options == "plain"  # untagged by default: nothing reads the structure tree
    assert LibreOfficeRenderer(tmp_root=lo_tmp, tagged=True).options == "tagged"


def test_cache_key_separates_plain_and_tagged(lo_tmp: Path) -> None:
    """A tagged entry from an older default must never be served for a plain render."""
    src = RENDER_FIXTURES / "known_layout.docx"
    plain = cache_key(src, LibreOfficeRenderer(tmp_root=lo_tmp))
    tagged = cache_key(src, LibreOfficeRenderer(tmp_root=lo_tmp, tagged=True))
    assert plain != tagged


def test_docx_renders_two_letter_pages(known_layout_pdf: RenderedPDF) -> None:
    assert pdf_page_count(known_layout_pdf.pdf_path) == 2
    assert known_layout_pdf.renderer_name == "libreoffice"
    assert known_layout_pdf.cached is False


def test_cache_hit_does_not_start_soffice(known_layout_pdf: RenderedPDF, counting_renderer: CountingRenderer) -> None:
    calls = counting_renderer.calls
    again = render_pdf(RENDER_FIXTURES / "known_layout.docx", renderer=counting_renderer)
    assert again.cached is True
    assert again.pdf_path == known_layout_pdf.pdf_path
    # No conversion was started. (Counted, not timed: speed belongs to bench/bench_render.py.)
    assert counting_renderer.calls == calls


def test_same_bytes_under_another_name_hit_the_cache(
    known_layout_pdf: RenderedPDF, counting_renderer: CountingRenderer, tmp_path: Path
) -> None:
    copy = tmp_path / "renamed copy.docx"
    shutil.copyfile(RENDER_FIXTURES / "known_layout.docx", copy)
    calls = counting_renderer.calls
    assert render_pdf(copy, renderer=counting_renderer).cached is True
    assert counting_renderer.calls == calls


def test_truncated_cache_entry_is_rebuilt(
    render_cache: Path, lo_tmp: Path, tmp_path: Path
) -> None:
    src = tmp_path / "deck-copy.pptx"
    shutil.copyfile(RENDER_FIXTURES / "deck.pptx", src)
    # A private renderer option string (tagged, not the default) gives this test its own
    # cache key.
    renderer = CountingRenderer(LibreOfficeRenderer(tmp_root=lo_tmp, tagged=True))
    first = render_pdf(src, renderer=renderer)
    size = first.pdf_path.stat().st_size
    with open(first.pdf_path, "r+b") as fh:
        fh.truncate(size // 2)
    second = render_pdf(src, renderer=renderer)
    assert second.cached is False
    assert renderer.calls == 2
    assert pdf_page_count(second.pdf_path) == 1
    assert second.pdf_path.stat().st_size > size // 2
    third = render_pdf(src, renderer=renderer)
    assert third.cached is True and renderer.calls == 2


def test_timeout_kills_the_process_group_and_cleans_up(tmp_path: Path) -> None:
    work_root = tmp_path / "work"
    work_root.mkdir()
    renderer = LibreOfficeRenderer(tmp_root=work_root)
    with pytest.raises(RenderTimeout) as info:
        renderer.convert(RENDER_FIXTURES / "known_layout.docx", tmp_path / "out", timeout=0.3)
    assert "known_layout.docx" in str(info.value)
    assert list(work_root.iterdir()) == []  # profile and work directory removed
    assert processes_mentioning(str(work_root)) == []  # no soffice survived
    assert not (tmp_path / "out" / "known_layout.pdf").exists()


def test_successful_conversion_leaves_nothing_behind(
    known_layout_pdf: RenderedPDF, deck_pdf: RenderedPDF, book_pdf: RenderedPDF, lo_tmp: Path
) -> None:
    assert list(lo_tmp.iterdir()) == []
    assert processes_mentioning(str(lo_tmp)) == []


def _broken_xml_docx() -> bytes:
    """The known-layout fixture with an unterminated word/document.xml (zip intact)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(RENDER_FIXTURES / "known_layout.docx") as src, zipfile.ZipFile(buf, "w") as dst:
        for info in src.infolist():
            data = src.read(info.filename)
            if info.filename == "word/document.xml":
                data = data[: len(data) // 3]
            dst.writestr(info.filename, data)
    return buf.getvalue()


@pytest.mark.parametrize(
    "content",
    [b"", b"PK\x03\x04 this is not really a zip archive" * 10, b"plain text, not a document", "xml"],
    ids=["empty", "broken-zip", "text", "broken-xml"],
)
def test_bad_file_gives_render_error(content: bytes | str, tmp_path: Path, render_cache: Path) -> None:
    bad = tmp_path / "bad.docx"
    bad.write_bytes(_broken_xml_docx() if content == "xml" else content)  # type: ignore[arg-type]
    work_root = tmp_path / "work"
    work_root.mkdir()
    with pytest.raises(RenderError) as info:
        render_pdf(bad, renderer=LibreOfficeRenderer(tmp_root=work_root), timeout=60)
    assert not isinstance(info.value, RenderTimeout)
    assert "bad.docx" in str(info.value)
    assert list(work_root.iterdir()) == []
    assert processes_mentioning(str(work_root)) == []


def test_missing_file_gives_render_error(tmp_path: Path) -> None:
    with pytest.raises(RenderError):
        render_pdf(tmp_path / "nope.docx")


def test_cache_dir_follows_environment(render_cache: Path, known_layout_pdf: RenderedPDF) -> None:
    assert str(known_layout_pdf.pdf_path).startswith(str(render_cache))
    assert os.environ["ARTIFACTCHECK_CACHE_DIR"] == str(render_cache)


def test_profile_template_is_kept_per_version(known_layout_pdf: RenderedPDF, render_cache: Path, lo_tmp: Path) -> None:
    renderer = LibreOfficeRenderer(tmp_root=lo_tmp)
    template = render_cache / "lo-profile" / f"libreoffice-{renderer.version}"
    assert (template / "user" / "registrymodifications.xcu").is_file()
    assert not list(template.rglob("*.lock"))


def test_parallel_renders_of_one_file_share_one_entry(render_cache: Path, lo_tmp: Path, tmp_path: Path) -> None:
    from concurrent.futures import ThreadPoolExecutor

    src = tmp_path / "parallel.xlsx"
    shutil.copyfile(RENDER_FIXTURES / "book.xlsx", src)
    renderer = LibreOfficeRenderer(tmp_root=lo_tmp, tagged=True)
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(lambda _: render_pdf(src, renderer=renderer), range(2)))
    assert results[0].pdf_path == results[1].pdf_path
    assert pdf_page_count(results[0].pdf_path) >= 1
    entry_parent = results[0].pdf_path.parent.parent
    assert [p.name for p in entry_parent.iterdir() if p.name.startswith(".")] == []  # no staging left
    assert list(lo_tmp.iterdir()) == []


def test_work_directories_left_by_a_killed_process_are_swept(tmp_path: Path, render_cache: Path) -> None:
    work_root = tmp_path / "work"
    work_root.mkdir()
    stale = work_root / "artifactcheck-lo-stale"
    fresh = work_root / "artifactcheck-lo-fresh"
    for d in (stale, fresh):
        (d / "profile").mkdir(parents=True)
    two_hours_ago = time.time() - 7200
    os.utime(stale, (two_hours_ago, two_hours_ago))
    with pytest.raises(RenderTimeout):
        LibreOfficeRenderer(tmp_root=work_root).convert(RENDER_FIXTURES / "deck.pptx", tmp_path / "out", timeout=0.2)
    assert not stale.exists()
    assert fresh.exists()  # may belong to a conversion still running elsewhere
