"""One lock for every pdfium call in the process.

pdfium is not thread-safe: no two of its calls may run at once, not even on different
documents (pypdfium2's documentation: it crashes or corrupts the process). Our calls
release the GIL (ctypes, and the C loops of ``_pdfium_loops``), and the service scores
requests on a pool of threads (``max_concurrent``, 2 by default), so two requests could
read PDFs at the same time. Measured before this lock: four threads reading two corpus
renders' layouts at once got the wrong text in 4 of 60 reads (C loops), and with the ctypes
loop the process died of SIGTRAP (tests/extractors/render/test_pdfium_threads.py).

Every place that opens a PDF with pypdfium2 holds :data:`PDFIUM_LOCK` from opening the
document to closing it (a generator that yields page images holds it per page, not
across a yield). It is reentrant, so a reader may call another under it. In-process
parallel pdfium work is therefore serial; parallelism comes from processes (the batch's
workers), as pdfium's authors advise.
"""

from __future__ import annotations

import threading

PDFIUM_LOCK = threading.RLock()
