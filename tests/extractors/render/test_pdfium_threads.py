"""pdfium is not thread-safe, and the service scores requests on threads. Two requests
reading PDFs at once must each get the layout and page images a lone reader gets, and
the process must live. Before PDFIUM_LOCK (extractors/render/pdfium_lock.py), four
threads reading two renders got the wrong text in 4 of 60 reads, or the process died of
SIGTRAP."""

from __future__ import annotations

import threading
from pathlib import Path

import docx
import pytest
from PIL import ImageChops

from artifactcheck.extractors.render import page_image, read_layout, render_pdf

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def two_pdfs(tmp_path_factory: pytest.TempPathFactory, render_cache: Path) -> list[Path]:
    """Two text-dense renders (30 and 12 pages) made with python-docx."""
    out = []
    for name, pages in (("long", 30), ("short", 12)):
        d = docx.Document()
        for k in range(pages * 9):
            d.add_paragraph(f"{name} paragraph {k}: " + "words that fill the line with text " * 3)
        path = tmp_path_factory.mktemp("threads") / f"{name}.docx"
        d.save(str(path))
        out.append(render_pdf(path).pdf_path)
    return out


def test_threads_reading_pdfs_at_once_get_what_one_reader_gets(two_pdfs: list[Path]) -> None:
    truth = [read_layout(pdf) for pdf in two_pdfs]
    first_pages = [page_image(pdf, 0, dpi=50) for pdf in two_pdfs]
    wrong: list[str] = []
    failed: list[BaseException] = []

    def reader(k: int) -> None:
        try:
            for _ in range(8):
                got = read_layout(two_pdfs[k])
                if got.text != truth[k].text or got.columns.x0.tolist() != truth[k].columns.x0.tolist():
                    wrong.append(f"layout {k}")
                image = page_image(two_pdfs[k], 0, dpi=50)
                if ImageChops.difference(image, first_pages[k]).getbbox() is not None:
                    wrong.append(f"image {k}")
        except BaseException as exc:  # noqa: BLE001 - reported below, with the others
            failed.append(exc)

    threads = [threading.Thread(target=reader, args=(k % 2,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert not failed, failed
    assert not wrong, wrong
