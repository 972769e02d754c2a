"""Values of formulas the file never calculated (openpyxl writes formulas without
results): LibreOffice opens the workbook headless, computes them, and saves a copy as
.xlsx (cached by the file's bytes, like renders: ``render.convert_cached``); the cached
results of that copy are read back for the cells that need them.

Why LibreOffice and not a Python formula engine (measured, design/xlsx-display.md):
it is already a dependency, covers the functions agents write (30 of 32 in our probe
workbook; the two it misses are Excel 2021 names written without the ``_xlfn.`` prefix,
which Excel itself shows as ``#NAME?``), takes ~2 s for a workbook of 5,000 formula
rows where ``formulas`` takes 36 s and ``pycel`` knows 22 of the 32 functions, and it
is what the render shows.

A value LibreOffice cannot compute comes back as ``#NAME?`` (a function it does not
know); such cells are marked ``value_unknown`` rather than given an error value that
Excel might not show, so value checks on them report ``error``, not ``fail``.
"""

from __future__ import annotations

import re
import tempfile
import zipfile
from pathlib import Path

from lxml import etree

from ...errors import ArtifactCheckError
from ..package.inspection import inspect_package
from ..render.cache import convert_cached
from ..render.renderer import LibreOfficeRenderer
from .parts import Parts, Rel
from .sheet import read_sheet_xml

NS = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_T = f"{NS}t"
_RPH = f"{NS}rPh"

class RecalculationFailed(Exception):
    """LibreOffice could not produce a recalculated copy (reason in the message)."""


def needs_recalculation(t: str, v: str | None, f: str | None, fmeta: object, inline: str | None) -> bool:
    """A formula cell without a cached result. ``<v/>`` of a string result (``t="str"``)
    is a cached empty string, not a missing value."""
    return (f is not None or fmeta is not None) and v is None and inline is None and t not in ("str", "inlineStr")


class Recalculation:
    """LibreOffice's recalculated copy of one workbook, made on first use (once) and
    read one sheet at a time."""

    def __init__(self, path: Path, *, timeout: float) -> None:
        self.path = path
        self.timeout = timeout
        # The workbook asks for a full calculation on load (xlsxwriter: every cached
        # value is a placeholder 0): LibreOffice trusts cached values, so it is given a
        # copy without them and computes every formula, as Excel does on opening.
        self.drop_cached_values = False
        self._copy: Path | None = None
        self._failure: str | None = None
        self._main: str = ""

    def _ensure(self) -> Path:
        if self._failure is not None:
            raise RecalculationFailed(self._failure)
        if self._copy is None:
            try:
                # Always a cold soffice: the warm pool converts to PDF only.
                renderer = LibreOfficeRenderer()
                with tempfile.TemporaryDirectory(prefix="artifactcheck-recalc-") as work:
                    source = _without_formula_values(self.path, Path(work)) if self.drop_cached_values else self.path
                    copy, _cached = convert_cached(source, target="xlsx", renderer=renderer, timeout=self.timeout)
                self._main = inspect_package(copy).main_part
            except ArtifactCheckError as exc:
                self._failure = f"{type(exc).__name__}: {exc}"
                raise RecalculationFailed(self._failure) from None
            self._copy = copy
        return self._copy

    def values(self, sheet: str, wanted: set[tuple[int, int]]) -> dict[tuple[int, int], tuple[str, str | None]]:
        """(cell type ``t``, value text) of the ``wanted`` cells of ``sheet`` (strings
        resolved, type ``str``); cells the copy lacks are left out. Raises
        :class:`RecalculationFailed` when LibreOffice is missing, fails or times out."""
        copy = self._ensure()
        found: dict[tuple[int, int], tuple[str, str | None]] = {}
        try:
            with Parts(copy) as parts:
                wb = parts.xml(self._main)
                rels = parts.rels(self._main)
                sheet_el = next((sh for sh in wb.iterfind(f"{NS}sheets/{NS}sheet") if sh.get("name") == sheet), None)
                rel = rels.get(sheet_el.get(f"{R}id") or "") if sheet_el is not None else None
                if rel is None or not parts.has(rel.target):
                    return found
                shared = _shared_strings(parts, rels)
                with parts.open(rel.target) as fh:
                    sx = read_sheet_xml(fh, mdw=7)
                for r, c, _s, t, v, _f, _fm, inline, _vm in sx.cells:
                    if (r, c) not in wanted:
                        continue
                    if t == "s" and v is not None and v.isdigit() and int(v) < len(shared):
                        found[(r, c)] = ("str", shared[int(v)])
                    elif t == "inlineStr":
                        found[(r, c)] = ("str", inline)
                    else:
                        found[(r, c)] = (t, v)
        except (OSError, etree.XMLSyntaxError, KeyError, ValueError, ArtifactCheckError) as exc:
            raise RecalculationFailed(f"cannot read LibreOffice's recalculated copy: {exc}") from None
        return found


_FORMULA_VALUE = re.compile(rb"(<f\b[^>]*(?:/>|>.*?</f>))\s*<v>[^<]*</v>", re.DOTALL)


def _without_formula_values(path: Path, work: Path) -> Path:
    """A copy of the workbook whose formula cells have no cached ``<v>`` (worksheet parts
    only; everything else byte for byte). The package was read safely before (sizes,
    entries), so its parts fit in memory."""
    out = work / path.name
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = src.read(info)
            if info.filename.startswith("xl/worksheets/") and info.filename.endswith(".xml"):
                data = _FORMULA_VALUE.sub(rb"\1", data)
            dst.writestr(info, data)
    return out


def _shared_strings(parts: Parts, rels: dict[str, Rel]) -> list[str]:
    target = next((r.target for r in rels.values() if r.type == "sharedStrings"), None)
    if target is None or not parts.has(target):
        return []
    root = parts.xml(target)
    return ["".join(t.text or "" for t in si.iter(_T) if t.getparent().tag != _RPH) for si in root.iterfind(f"{NS}si")]
