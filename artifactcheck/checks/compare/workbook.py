"""``compare_workbook``: the agent's workbook against the gold workbook the task author
made, aspect by aspect, each difference located as ``Sheet!B3`` with both values.

The default (``sheet_names`` + ``values``) is what an author means by "the same as the
gold file": the same sheets, in the same order, holding the same values. Formulas,
formats, the view and the objects are opt-in, because a correct workbook may legitimately
reach the gold's values another way (``=SUM(B2:B5)`` or ``=B2+B3+B4+B5``, a value the
task did not ask to compute), and a gold file saved by another application carries
incidental formatting (its default font, column widths) the task never mentioned. An
author who asked for a formula, a fill or frozen header says so by switching that aspect
on (design/compare.md, "Workbooks").

Reference and artifact may each be any format ``load()`` reads: .xlsx, .ods, .csv, a
saved Google Sheets response.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from ...model import Document
from ..query.ranges import CellRange, resolve_range
from ..registry import Resources, register_check
from ..result import CheckResult
from .cell_values import ValueOptions
from .diff import CompareParams, Comparison, comparison_result
from .reference import load_reference_document
from .workbook_cells import (
    FormulaOptions,
    StyleOptions,
    compare_formulas,
    compare_number_formats,
    compare_styles,
    compare_values,
    row_shifts,
)
from .workbook_objects import (
    ChartOptions,
    PivotOptions,
    SparklineOptions,
    compare_charts,
    compare_pivots,
    compare_sparklines,
)
from .workbook_pairs import SheetPair, cells_by_position, pair_sheets, sheet_name, sheets_of
from .workbook_sheets import (
    DimensionOptions,
    compare_conditional_formats,
    compare_dimensions,
    compare_filters,
    compare_freeze,
    compare_hidden,
    compare_merges,
    compare_validations,
    compare_zoom,
)


class SheetNameOptions(BaseModel):
    """How sheet names are compared (the ``sheet_names`` aspect)."""

    model_config = ConfigDict(extra="forbid")

    order: bool = Field(default=True, description="the reference's sheets appear in the same order")
    allow_extra: bool = Field(default=False, description="sheets the reference lacks are not a difference")
    case_sensitive: bool = Field(default=True, description="'Budget' and 'budget' differ")


class CompareWorkbookParams(CompareParams):
    """Parameters of ``compare_workbook``: the reference, which sheets and cells, and the
    aspects (``true`` for the defaults of an aspect, a mapping for its options, ``false``
    to leave it out)."""

    sheets: list[str] | None = Field(
        default=None, min_length=1,
        description="compare only these sheets of the reference (by name); default every sheet",
    )
    range: list[str] | None = Field(
        default=None,
        description="limit cell aspects (values, formulas, number formats, styles, merges, widths) to these ranges "
        "(A1:G9 on every sheet, Budget!B2:D9, a defined name or table of the reference); default every used cell",
    )
    sheet_names: bool | SheetNameOptions = Field(
        default=True, description="the same sheet names in the same order (default on)"
    )
    values: bool | ValueOptions = Field(
        default=True,
        description="the same value in every cell used on either side (default on; options: compare, precision, "
        "abs_tol, rel_tol, case_sensitive, whitespace)",
    )
    formulas: bool | FormulaOptions = Field(
        default=False,
        description="where the reference has a formula the artifact has one (match: present) or the same one "
        "(match: text)",
    )
    number_formats: bool = Field(default=False, description="the same number format code on every cell holding a value")
    styles: bool | StyleOptions = Field(
        default=False,
        description="the same displayed look per cell: fill, font colour, bold, italic, underline, strike, size, "
        "font, borders (options: properties, layer)",
    )
    merges: bool = Field(default=False, description="the same merged ranges")
    freeze: bool = Field(default=False, description="the same frozen rows and columns")
    zoom: bool = Field(default=False, description="the same zoom of the saved view (100 when unset)")
    filters: bool = Field(default=False, description="the same autofilter range, filter criteria and sort keys")
    data_validations: bool = Field(
        default=False, description="the same data validation rules (range, type, operator, formulas, list values)"
    )
    conditional_formats: bool = Field(
        default=False,
        description="the same conditional formatting rules (range, type, operator, formulas, the look they give); "
        "what they paint is compared by styles",
    )
    charts: bool | ChartOptions = Field(
        default=False, description="the same charts: type, title, series ranges (options: properties)"
    )
    pivot_tables: bool | PivotOptions = Field(
        default=False, description="the same pivot tables: source, row/column/filter fields, data fields (options: properties)"
    )
    sparklines: bool | SparklineOptions = Field(
        default=False,
        description="the same sparklines, cell by cell: source range and type (options: properties, add color)",
    )
    dimensions: bool | DimensionOptions = Field(
        default=False, description="the same column widths and row heights within tolerance_pt (default 1 pt)"
    )
    hidden: bool = Field(default=False, description="the same hidden rows, hidden columns and hidden sheets")

    @field_validator("sheet_names", "values", "formulas", "styles", "charts", "pivot_tables", "sparklines", "dimensions")
    @classmethod
    def _true_means_defaults(cls, v: Any, info: ValidationInfo) -> Any:
        """``true`` becomes the aspect's default options, so the report records what was
        compared (and a tolerance the defaults carry decides the mechanism)."""
        if v is True:
            return _ASPECT_OPTIONS[str(info.field_name)]()
        return v

    @field_validator("range", mode="before")
    @classmethod
    def _one_or_many(cls, v: Any) -> Any:
        return [v] if isinstance(v, str) else v


_ASPECT_OPTIONS: dict[str, type[BaseModel]] = {
    "sheet_names": SheetNameOptions, "values": ValueOptions, "formulas": FormulaOptions, "styles": StyleOptions,
    "charts": ChartOptions, "pivot_tables": PivotOptions, "sparklines": SparklineOptions,
    "dimensions": DimensionOptions,
}


def _options(value: bool | BaseModel, model: type[BaseModel]) -> Any:
    """None when the aspect is off, else its options (defaults for ``true``)."""
    if value is False:
        return None
    return model() if value is True else value


@register_check(
    "compare_workbook",
    mechanism="exact",
    params=CompareWorkbookParams,
    example={
        "reference": "gold.xlsx",
        "values": {"precision": 2},
        "formulas": True,
        "styles": {"properties": ["fill"]},
        "freeze": True,
    },
    mechanism_when={"values.precision": "tolerance", "values.abs_tol": "tolerance", "values.rel_tol": "tolerance",
                    "dimensions.tolerance_pt": "tolerance"},
)
def compare_workbook(doc: Document, p: CompareWorkbookParams, resources: Resources) -> CheckResult:
    """The workbook matches a gold workbook: sheet names and values by default; formulas, formats, styles, view, validations, charts and pivots on request.

    Every difference is located (``Budget!B3``, ``Budget chart 1 'Sales' title``) with
    the reference's value beside the artifact's; the evidence counts compared items per
    aspect. Sheets pair by name, then by position (a renamed sheet is one difference).
    A reference outside the rubric's folders, missing or unreadable is an ``error``; so
    is a comparison whose only open question is a formula nobody could compute.

    >>> from artifactcheck import run_check
    >>> from artifactcheck.checks.examples import tiny_doc
    >>> r = run_check("compare_workbook", tiny_doc(), {"reference": "/nonexistent/gold.xlsx"})
    >>> r.status, "not found" in r.explanation
    ('error', True)
    """
    ref_doc = load_reference_document(p.reference, resources)
    label = f"reference {p.reference!r}"
    ref_sheets, art_sheets = sheets_of(ref_doc), sheets_of(doc)
    if not ref_sheets:
        raise ValueError(f"{label} has no sheets: it is not a workbook ({ref_doc.artifact.format})")
    if p.sheets is not None:
        known = {sheet_name(s) for s in ref_sheets}
        unknown = [s for s in p.sheets if s not in known]
        if unknown:
            raise ValueError(f"sheets {unknown} are not in {label}; its sheets are {sorted(known)}")
    pairs, extra = pair_sheets(ref_sheets, art_sheets)
    out = Comparison()
    names = _options(p.sheet_names, SheetNameOptions)
    if names is not None:
        _compare_sheet_names(ref_sheets, art_sheets, names, out, restrict=p.sheets)
    ranges = [resolve_range(ref_doc, r) for r in p.range] if p.range else None
    chosen = [x for x in pairs if p.sheets is None or sheet_name(x.ref) in p.sheets]
    unknown_cells: list[str] = []
    row_hints: list[dict[str, Any]] = []  # whole rows inserted or deleted, when values differ
    for pair in chosen:
        if pair.art is None:
            continue  # a missing sheet is the sheet_names aspect's difference
        pair.ranges = _ranges_on(ranges, sheet_name(pair.ref))
        if pair.ranges == []:
            continue  # the ranges asked for lie on other sheets
        pair.ref_cells, pair.art_cells = cells_by_position(ref_doc, pair.ref), cells_by_position(doc, pair.art)
        before = out.differences_in("values")
        _compare_pair(pair, p, ref_doc, doc, out, unknown_cells)
        if out.differences_in("values") > before:
            shifted = row_shifts(pair)
            if shifted is not None:
                row_hints.append({"sheet": pair.name, **shifted})
    evidence: dict[str, Any] = {
        "sheets": [{"reference": sheet_name(x.ref), "artifact": sheet_name(x.art) if x.art else None, "paired": x.how}
                   for x in chosen],
    }
    if row_hints:
        evidence["rows_shifted"] = row_hints
    if extra:
        evidence["extra_sheets"] = [sheet_name(s) for s in extra]
    if ranges is not None:
        evidence["ranges"] = [r.a1() for r in ranges]
    result = comparison_result("compare_workbook", out, p, mechanism="exact", reference_label=label, evidence=evidence)
    return _unknown_guard(result, unknown_cells)


def _ranges_on(ranges: list[CellRange] | None, name: str) -> list[CellRange] | None:
    if ranges is None:
        return None
    return [r for r in ranges if r.sheet is None or r.sheet.casefold() == name.casefold()]


def _compare_pair(pair: SheetPair, p: CompareWorkbookParams, ref_doc: Document, doc: Document, out: Comparison,
                  unknown_cells: list[str]) -> None:
    values = _options(p.values, ValueOptions)
    if values is not None:
        compare_values(pair, values, out, unknown_cells)
    formulas = _options(p.formulas, FormulaOptions)
    if formulas is not None:
        compare_formulas(pair, formulas, out)
    if p.number_formats:
        compare_number_formats(pair, out)
    styles = _options(p.styles, StyleOptions)
    if styles is not None:
        compare_styles(pair, styles, ref_doc, doc, out)
    if p.merges:
        compare_merges(pair, out)
    if p.freeze:
        compare_freeze(pair, out)
    if p.zoom:
        compare_zoom(pair, out)
    if p.filters:
        compare_filters(pair, out)
    if p.data_validations:
        compare_validations(pair, out)
    if p.conditional_formats:
        compare_conditional_formats(pair, out)
    charts = _options(p.charts, ChartOptions)
    if charts is not None:
        compare_charts(pair, charts, out)
    pivots = _options(p.pivot_tables, PivotOptions)
    if pivots is not None:
        compare_pivots(pair, pivots, out)
    sparklines = _options(p.sparklines, SparklineOptions)
    if sparklines is not None:
        compare_sparklines(pair, sparklines, out)
    dimensions = _options(p.dimensions, DimensionOptions)
    if dimensions is not None:
        compare_dimensions(pair, dimensions, out)
    if p.hidden:
        compare_hidden(pair, out)


def _compare_sheet_names(ref_sheets: list[Any], art_sheets: list[Any], o: SheetNameOptions, out: Comparison,
                         *, restrict: list[str] | None) -> None:
    def fold(name: str) -> str:
        return name if o.case_sensitive else name.casefold()

    art_names = [sheet_name(s) for s in art_sheets]
    art_folded = [fold(n) for n in art_names]
    wanted = [sheet_name(s) for s in ref_sheets if restrict is None or sheet_name(s) in restrict]
    folded_wanted = {fold(w) for w in wanted}
    renamed: set[int] = set()  # artifact sheets already reported as a renamed reference sheet
    for i, name in enumerate(wanted):
        present = fold(name) in art_folded
        if present:
            out.check("sheet_names", f"sheet {i + 1}", name, name, equal=True)
            continue
        # the artifact's sheet at this position, when it is not one of the reference's: renamed
        at = art_names[i] if i < len(art_names) and art_folded[i] not in folded_wanted else None
        if at is not None:
            renamed.add(i)
        out.check("sheet_names", f"sheet {i + 1}", name, at, equal=False,
                  note="renamed?" if at is not None else "no sheet of that name")
    if o.order and all(fold(n) in art_folded for n in wanted):
        found = [n for n in art_names if fold(n) in {fold(w) for w in wanted}]
        out.check("sheet_names", "sheet order", wanted, found, equal=[fold(n) for n in found] == [fold(w) for w in wanted])
    if not o.allow_extra and restrict is None:
        for j, name in enumerate(art_names):
            if fold(name) not in folded_wanted and j not in renamed:
                out.extra("sheet_names", f"sheet {j + 1}", name)


def _unknown_guard(result: CheckResult, unknown_cells: list[str]) -> CheckResult:
    """A comparison with no difference among the cells that could be valued, but some
    cells nobody could value, cannot pass: ``error``. With differences it fails anyway."""
    if not unknown_cells:
        return result
    result.evidence["unknown_values"] = list[Any](unknown_cells[:20])
    result.evidence["unknown_values_total"] = len(unknown_cells)
    if result.status != "pass":
        return result
    return result.model_copy(update={
        "status": "error",
        "score": None,
        "explanation": (
            f"cannot judge: {len(unknown_cells)} cell(s) hold formulas whose value could not be computed "
            f"(e.g. {unknown_cells[0]}); every other compared item matches"
        ),
    })
