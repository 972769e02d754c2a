"""Loading the reference (gold) artifact a comparison check names.

The path is confined like a reference image (:mod:`..resource_files`); the file is read
with :func:`artifactcheck.load`, so a reference may be any format the loader reads (a
gold .xlsx against an agent's .ods, a saved Google response against a .docx). Loaded
references are kept per process keyed by path, size, mtime and load options: a rubric
with ten comparison steps against one gold file reads it once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ...model import Document
from ..registry import Resources
from ..resource_files import resolve_resource_file

_CACHE_SIZE = 4  # gold files can be large; a rubric usually names one or two
_cache: OrderedDict[tuple[Any, ...], Document] = OrderedDict()
_lock = threading.Lock()


def load_reference_document(name: str, resources: Resources, **options: Any) -> Document:
    """The reference artifact ``name`` as a Document (``options`` go to ``load``).

    Raises FileNotFoundError when it is outside the rubric's folders or absent, and the
    loader's ArtifactCheckError when it cannot be read — both are the rubric's problem,
    so the check ends in ``error``, never ``fail``."""
    from ...loading import load  # the loader imports every extractor; checks stay light to import

    path = resolve_resource_file(name, resources, what="reference file")
    st = path.stat()
    key = (str(path), st.st_size, st.st_mtime_ns, tuple(sorted((k, repr(v)) for k, v in options.items())))
    with _lock:
        doc = _cache.get(key)
        if doc is not None:
            _cache.move_to_end(key)
            return doc
    doc = load(path, **options)
    with _lock:
        _cache[key] = doc
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return doc
