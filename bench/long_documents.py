"""The corpus's long .docx files the benches measure, and where the corpus is.

No artifactcheck import: bench_extract_docx.py runs its children against another
checkout's package, so what it imports from here must not pull in this one's."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Real long documents (pages as LibreOffice 7.4 renders them): a 53-page report with
# hyperlinks and images, a 180-page Russian document with 21 heavily merged tables and 15
# sections, a 430-page handbook with 29 sections and 38 headers.
LONG_DOCX = ["poi_bug59058.docx", "poi_bug65649.docx", "unstructured_handbook-872p.docx"]


def corpus_docx_folder() -> Path | None:
    """``$ARTIFACTCHECK_CORPUS/docx``, else ``shared/corpus/docx`` beside the repository or
    its parent; None when none is there."""
    env = os.environ.get("ARTIFACTCHECK_CORPUS")
    candidates = [Path(env) / "docx"] if env else []
    candidates += [REPO.parent / "shared" / "corpus" / "docx", REPO.parent.parent / "shared" / "corpus" / "docx"]
    return next((c for c in candidates if c.is_dir()), None)
