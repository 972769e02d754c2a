"""Tree query ``structure`` (mechanism ``tree_query``): counts and names of pages,
slides, sheets, tables and images, the rows and columns of a sheet or table, and the
number of text columns on a page. Hidden slides and sheets are left out unless asked.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node
from ..layout import extracted_without_layout, without_layout
from ..normalize import normalize_text
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec, in_never_shown_part
from ._result import query_result
from .grid import grids
from .selection import count_ok

# -- slides, sheets, tables ----------------------------------------------------------------------

Unit = Literal["pages", "slides", "sheets", "tables", "images", "rows", "columns", "text_columns"]


class StructureParams(BaseModel):
    """Parameters of ``structure``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    unit: Unit = Field(description="what to count")
    scope: TargetSpec | None = Field(
        default=None, description="for rows/columns: which sheet or table (default: the first)"
    )
    range: str | None = Field(
        default=None,
        description="for rows/columns: only these cells (A1 text, Sheet!A1:G9, a defined name "
        "or an Excel table name); default: the whole sheet or table",
    )
    exactly: int | None = Field(default=None, ge=0, description="the count must be exactly this")
    at_least: int | None = Field(default=None, ge=0, description="the count must be at least this")
    at_most: int | None = Field(default=None, ge=0, description="the count must be at most this")
    names: list[str] = Field(
        default_factory=list, description="sheets: names that must exist (normalised)"
    )
    ordered: bool = Field(default=False, description="names must appear in this order")
    include_hidden: bool = Field(default=False, description="count hidden slides and sheets too")


def _hidden(node: Node) -> bool:
    """A hidden slide (``hidden``) or a hidden / very hidden sheet (``state``)."""
    return bool(node.attrs.get("hidden")) or node.attrs.get("state") in ("hidden", "veryHidden")


@register_check(
    "structure",
    mechanism="tree_query",
    params=StructureParams,
    example={"unit": "sheets", "names": ["Data", "Summary"], "ordered": True},
)
def structure(doc: Document, params: StructureParams, resources: Resources) -> CheckResult:
    """Counts and names of slides, pages, sheets, tables, images, or a table's rows and columns.

    Pages are printed pages: on a document extracted without layout (a .docx loaded
    without rendering) the page count is unknown and the check ends in ``error``. A
    deck's pages are its slides (hidden ones left out unless ``include_hidden``); a
    workbook has sheets, not pages (``error``).

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("structure", tiny_doc(), {"unit": "columns", "exactly": 2}).status
    'pass'
    """
    names: list[str] = []
    items: list[Any]
    if params.unit == "pages" and extracted_without_layout(doc):
        return without_layout("structure", "tree_query", "the page count")
    if params.unit in ("pages", "slides", "sheets"):
        kind = params.unit[:-1]
        kinds = {p.kind for p in doc.pages}
        if kind == "page" and "page" not in kinds and "slide" in kinds:
            kind = "slide"  # a deck's pages are its slides: one printed page per shown slide
        elif kind == "page" and "page" not in kinds and "sheet" in kinds:
            raise ValueError("a workbook's sheets are not printed pages; count them with unit 'sheets'")
        nodes = [n for n in doc.iter(kind) if params.include_hidden or not _hidden(n)]
        pages = [p for p in doc.pages if p.kind == kind and (params.include_hidden or not p.hidden)]
        items = nodes if nodes else pages
        names = [
            str(getattr(x, "attrs", {}).get("name") or getattr(x, "name", None) or "")
            for x in items
        ]
    elif params.unit in ("tables", "images"):
        items = [n for n in doc.iter(params.unit[:-1]) if not in_never_shown_part(doc, n)]
        if params.unit == "tables":
            # A workbook's Excel tables (ListObjects) are tables too; its table nodes are
            # pivot tables. Names are listed for both.
            items += [t for sheet in doc.iter("sheet") for t in _excel_tables(sheet)]
            names = [str(t.get("name") if isinstance(t, dict) else t.attrs.get("name") or "") for t in items]
    elif params.unit == "text_columns":
        values = [v for p in doc.pages if isinstance(v := p.attrs.get("columns"), int)]
        sections = doc.root.attrs.get("sections")
        if not values and isinstance(sections, list):  # docx: columns per section
            values = [
                v
                for sec in sections
                if isinstance(sec, dict) and isinstance(v := sec.get("columns"), int)
            ]
        if not values:
            raise ValueError(
                "this document carries no text-column count (its extractor does not report one)"
            )
        n = max(values)
        ok, bounds = count_ok(n, params.exactly, params.at_least, params.at_most)
        return query_result(
            "structure",
            ok,
            f"up to {n} text column(s) per page; expected {bounds}",
            {"columns_per_page_or_section": list(values)},
        )
    else:
        gs = grids(doc, params.scope, params.range)
        if not gs:
            return query_result(
                "structure", False, "no sheet or table to count rows/columns in", {}
            )
        g = gs[0]
        drawn = g.source.kind == "table"  # a document's table draws its empty rows and columns
        if params.unit == "rows":
            items = [i for i in range(len(g.cells)) if drawn or not g.is_blank(i)]
        else:
            items = [
                j
                for j in range(len(g.col_numbers))
                if drawn or any((cell := row[j]) is not None and cell.text.strip() for row in g.cells)
            ]
    n = len(items)
    ok, bounds = count_ok(n, params.exactly, params.at_least, params.at_most)
    problems = [] if ok or not bounds else [f"{n} {params.unit}, expected {bounds}"]
    name_rows = []
    if params.names:
        normed = [normalize_text(x) for x in names]
        last = -1
        for want in params.names:
            w = normalize_text(want)
            idx = normed.index(w) if w in normed else -1
            found = idx >= 0 and (not params.ordered or idx > last)
            if found:
                last = idx
            name_rows.append({"name": want, "index": idx, "ok": found})
        bad = [r["name"] for r in name_rows if not r["ok"]]
        if bad:
            problems.append(f"missing or out of order: {bad}")
    passed = not problems
    parts = 1 + len(name_rows) if (bounds or not name_rows) else len(name_rows)
    good = (1 if (ok or not bounds) and (bounds or not name_rows) else 0) + sum(
        1 for r in name_rows if r["ok"]
    )
    return query_result(
        "structure",
        passed,
        "; ".join(problems)
        if problems
        else f"{n} {params.unit}" + (f" named {names}" if names else ""),
        {"count": n, "names": names, "expected_names": name_rows},
        score=good / parts,
    )


def _excel_tables(sheet: Node) -> list[dict[str, Any]]:
    tables = sheet.attrs.get("tables")
    return [t for t in tables if isinstance(t, dict)] if isinstance(tables, list) else []
