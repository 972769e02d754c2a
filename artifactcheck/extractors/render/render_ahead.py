"""Render a file while the caller walks its XML.

The .docx extractor does not need the rendering until it attaches boxes, and LibreOffice
does not need the walk: :class:`RenderAhead` starts the conversion on a thread as soon as
the package is known to open. LibreOffice converts in its own process and the thread only
waits for it, so the walk (~1 s on a 180-page file) runs meanwhile instead of before. On
a cache hit the thread only checks the entry.

What is *not* done ahead: reading the PDF. pdfium is not thread-safe and our reader is
mostly Python, so on a thread it competes with the walk for the interpreter; in a child
process it was measured slower on the corpus's long files (design/rendering.md,
"Reading ahead").

The thread runs in a copy of the caller's context (budgets set with ``use_limits``).
Errors are the caller's: ``result()`` raises what rendering raised, with its type. A
caller that fails first calls ``discard()``, which waits for the thread (no conversion is
left running behind a returned error; it has its own timeout) and drops the result.
"""

from __future__ import annotations

import contextvars
import threading
from concurrent.futures import Future
from pathlib import Path

from .cache import RenderedPDF, render_pdf

__all__ = ["RenderAhead"]


class RenderAhead:
    def __init__(self, path: Path, *, timeout: float) -> None:
        self.path = Path(path)
        self.timeout = timeout
        self._future: Future[RenderedPDF] = Future()
        context = contextvars.copy_context()
        self._thread = threading.Thread(
            target=context.run, args=(self._work,), name=f"artifactcheck-render {self.path.name}", daemon=True
        )
        self._thread.start()

    def _work(self) -> None:
        try:
            rendered = render_pdf(self.path, timeout=self.timeout)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller by result()
            self._future.set_exception(exc)
        else:
            self._future.set_result(rendered)

    def result(self) -> RenderedPDF:
        """The rendering, or what rendering raised."""
        return self._future.result()

    def discard(self) -> None:
        """The caller failed: wait for the thread to end and drop its result."""
        self._thread.join()
