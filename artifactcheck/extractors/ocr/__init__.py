"""OCR: tesseract (through pytesseract) with word boxes, a result cache and fuzzy phrase
search (``engine.py``), and the words it reads as tree nodes (``words.py``) for images
and scans. A shared mechanism below ``checks/``: the OCR checks use the engine, and
``load(..., ocr=True)`` adds OCR words to a tree. Entry points: :class:`OcrEngine`,
:func:`default_engine`."""

from .engine import OcrEngine, OcrResult, OcrWord, default_engine
from .phrase import PhraseMatch, find_phrase

__all__ = ["OcrEngine", "OcrResult", "OcrWord", "PhraseMatch", "default_engine", "find_phrase"]
