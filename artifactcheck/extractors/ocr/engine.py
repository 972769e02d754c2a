"""Tesseract OCR (through pytesseract) with word boxes, a result cache and the process-wide
default engine; the search for a phrase in the words is ``phrase.py``. Pixels live only here
and in ``checks/ocr/located_text.py``; checks get word boxes in page points.

Caching: a result is keyed by the sha256 of the image's pixels (mode, size, bytes), the
language, the page-segmentation mode and the tesseract version, so the same page or
picture is OCR'd at most once per process (memory) and, with ``cache_dir``, once per
machine (one JSON file per result). ``OcrEngine.calls`` counts real tesseract runs.

Missing tesseract, or a missing language pack, raises
:class:`~artifactcheck.errors.MissingDependency` with the install hint; checks turn it
into ``status="skipped"``.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image  # imported where pixels are read

from ...errors import MissingDependency

TESSERACT_HINT = "apt-get install tesseract-ocr (Debian/Ubuntu), brew install tesseract (macOS); then pip install pytesseract"
CACHE_FORMAT = "1"  # bump when OcrResult's stored shape changes


@dataclass(frozen=True)
class OcrWord:
    """One recognised word: ``text``, confidence 0..100, and its box in image pixels
    (``left``, ``top``, ``width``, ``height``, origin top-left). ``line`` identifies the
    text line (block, paragraph, line numbers joined) for reading order."""

    text: str
    conf: float
    left: int
    top: int
    width: int
    height: int
    line: str


@dataclass(frozen=True)
class OcrResult:
    """Words of one image, in tesseract's reading order, and the image size in pixels."""

    words: tuple[OcrWord, ...]
    width_px: int
    height_px: int
    lang: str
    psm: int
    key: str
    seconds: float

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)


def image_key(image: Image.Image) -> str:
    """sha256 of the decoded pixels: the same page rendered twice hashes the same."""
    h = hashlib.sha256()
    h.update(f"{image.mode}:{image.size[0]}x{image.size[1]}:".encode())
    h.update(image.tobytes())
    return h.hexdigest()


class OcrEngine:
    """Tesseract with a per-process memory cache and an optional disk cache.

    >>> engine = OcrEngine()
    >>> engine.calls
    0
    """

    def __init__(self, *, cache_dir: str | Path | None = None, timeout: float = 60.0) -> None:
        self.cache_dir = Path(cache_dir) if cache_dir is not None else None
        self.timeout = timeout
        self.calls = 0  # real tesseract runs (cache misses)
        self.hits = 0
        self._memory: dict[str, OcrResult] = {}
        # Results by where the pixels came from (PDF, page, dpi, ...), so a page is not
        # even re-rendered to be recognised as cached. Kept on the engine, not globally:
        # a new engine starts with an empty memo and counts its own calls.
        self.page_memo: dict[tuple[object, ...], OcrResult] = {}
        self._lock = threading.Lock()
        self._version: str | None = None
        self._languages: set[str] | None = None

    # -- availability ------------------------------------------------------------------
    def version(self) -> str:
        """Tesseract's version; MissingDependency when the binary is absent."""
        if self._version is None:
            try:
                import pytesseract

                self._version = str(pytesseract.get_tesseract_version())
            except ImportError:
                raise MissingDependency("pytesseract", hint="pip install pytesseract") from None
            except Exception as exc:  # noqa: BLE001 - TesseractNotFoundError, OSError, ...
                raise MissingDependency(f"tesseract ({type(exc).__name__})", hint=TESSERACT_HINT) from None
        return self._version

    def require_language(self, lang: str) -> None:
        """MissingDependency naming the package when a language is not installed."""
        self.version()
        if self._languages is None:
            import pytesseract

            try:
                self._languages = set(pytesseract.get_languages(config=""))
            except Exception:  # noqa: BLE001 - old tesseract without --list-langs: let the run decide
                self._languages = set()
        missing = [part for part in lang.split("+") if self._languages and part not in self._languages]
        if missing:
            packages = " ".join(f"tesseract-ocr-{m}" for m in missing)
            raise MissingDependency(f"tesseract language data {'+'.join(missing)!r}", hint=f"apt-get install {packages}")

    # -- recognition -------------------------------------------------------------------
    def ocr(self, image: Image.Image, *, lang: str = "eng", psm: int = 3) -> OcrResult:
        """Words with pixel boxes; each distinct (pixels, lang, psm) is OCR'd once."""
        self.require_language(lang)
        key = hashlib.sha256(f"{CACHE_FORMAT}|{image_key(image)}|{lang}|{psm}|{self.version()}".encode()).hexdigest()
        with self._lock:
            cached = self._memory.get(key)
        if cached is not None:
            self.hits += 1
            return cached
        stored = self._read_disk(key)
        if stored is not None:
            self.hits += 1
            with self._lock:
                self._memory[key] = stored
            return stored
        result = self._run(image, lang=lang, psm=psm, key=key)
        with self._lock:
            self._memory[key] = result
        self._write_disk(result)
        return result

    def _run(self, image: Image.Image, *, lang: str, psm: int, key: str) -> OcrResult:
        import pytesseract

        started = time.perf_counter()
        rgb = image.convert("RGB") if image.mode not in ("RGB", "L") else image
        try:
            data = pytesseract.image_to_data(
                rgb, lang=lang, config=f"--psm {psm}", output_type=pytesseract.Output.DICT, timeout=self.timeout
            )
        except pytesseract.TesseractNotFoundError:
            raise MissingDependency("tesseract", hint=TESSERACT_HINT) from None
        self.calls += 1
        words: list[OcrWord] = []
        for i, text in enumerate(data["text"]):
            text = (text or "").strip()
            if not text:
                continue
            words.append(
                OcrWord(
                    text=text,
                    conf=float(data["conf"][i]),
                    left=int(data["left"][i]),
                    top=int(data["top"][i]),
                    width=int(data["width"][i]),
                    height=int(data["height"][i]),
                    line=f"{data['block_num'][i]}.{data['par_num'][i]}.{data['line_num'][i]}",
                )
            )
        return OcrResult(tuple(words), rgb.size[0], rgb.size[1], lang, psm, key, round(time.perf_counter() - started, 4))

    # -- disk cache --------------------------------------------------------------------
    def _path(self, key: str) -> Path | None:
        return self.cache_dir / key[:2] / f"{key}.json" if self.cache_dir is not None else None

    def _read_disk(self, key: str) -> OcrResult | None:
        path = self._path(key)
        if path is None or not path.is_file():
            return None
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            words = tuple(OcrWord(**w) for w in raw.pop("words"))
            return OcrResult(words=words, **raw)
        except (OSError, ValueError, TypeError, KeyError):
            return None  # a damaged entry is a miss; it is rewritten below

    def _write_disk(self, result: OcrResult) -> None:
        path = self._path(result.key)
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(asdict(result)), encoding="utf-8")
        os.replace(tmp, path)  # atomic: a concurrent reader sees the old entry or the new one


_DEFAULT: OcrEngine | None = None
_DEFAULT_LOCK = threading.Lock()


def default_engine() -> OcrEngine:
    """The process-wide engine (so every check in a run shares one cache). Its disk
    cache is ``$ARTIFACTCHECK_OCR_CACHE_DIR`` when that is set."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = OcrEngine(cache_dir=os.environ.get("ARTIFACTCHECK_OCR_CACHE_DIR") or None)
        return _DEFAULT
