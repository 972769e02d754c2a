"""Render a file and read its PDF layout while the caller does other work.

An extractor that walks the file's XML (the .docx body: ~1 s on a 180-page file) does not
need the rendering until it attaches boxes, and the rendering does not need the walk. So
:class:`LayoutAhead` starts both on a thread as soon as the package is known to open:
LibreOffice converts in its own process (the thread only waits), and the PDF is read by a
child process (:func:`~.layout_child.read_in_child`) when it is long enough to pay for
one, so neither competes with the walk for this interpreter. A cache hit skips the
conversion and leaves only the read.

The thread runs in a copy of the caller's context (budgets set with ``use_limits``, the
renderer chosen with ``use_renderer``). Errors are the caller's: ``result()`` raises
what rendering or reading raised, with its type. A caller that fails first calls
``discard()``, which waits for the thread (a LibreOffice conversion is never left
running behind a returned error; it has its own timeout) and drops the result.
"""

from __future__ import annotations

import contextvars
import threading
from concurrent.futures import Future
from pathlib import Path

from .cache import RenderedPDF, render_pdf
from .layout import PdfLayout
from .layout_child import read_in_child

__all__ = ["LayoutAhead"]


class LayoutAhead:
    def __init__(self, path: Path, *, timeout: float, images: bool = True) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self.images = images
        self._future: Future[tuple[RenderedPDF, PdfLayout]] = Future()
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run,
            args=(self._work,),
            name=f"artifactcheck-layout {self.path.name}",
            daemon=True,
        )
        self._thread.start()

    def _work(self) -> None:
        try:
            rendered = render_pdf(self.path, timeout=self.timeout)
            layout = read_in_child(
                rendered.pdf_path,
                timeout=self.timeout,
                images=self.images,
                structure=False,
                image_data=False,
            )
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by result()
            self._future.set_exception(exc)
        else:
            self._future.set_result((rendered, layout))

    def result(self) -> tuple[RenderedPDF, PdfLayout]:
        """The rendering and its layout, or what rendering or reading raised."""
        return self._future.result()

    def discard(self) -> None:
        """The caller failed: wait for the thread to end and drop its result."""
        self._thread.join()
