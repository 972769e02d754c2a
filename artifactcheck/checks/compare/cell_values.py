"""What a spreadsheet cell holds, read once for comparison, and when two holdings agree.

A cell is one of ``blank``, ``number``, ``text``, ``bool`` or ``error`` (``#DIV/0!``). A
date or time is a number (its serial, as Excel stores it) that remembers its ISO text:
a date typed into the gold file and the same date in the agent's file agree whatever
format each shows. Text that is empty or only whitespace is ``blank`` — a reader cannot
tell it from an empty cell. A formula nobody could compute (``value_unknown``) is
``unknown``: it is neither equal nor different, and the checks report ``error`` when the
verdict would rest on it.

Two ways to compare (``ValueOptions.compare``): ``value`` (default) compares typed values,
numbers by value within tolerance (``1200`` = ``1200.0`` = ``1,200.00`` shown); ``text``
compares what each cell displays after its number format (OSWorld's ``sheet_print``), so
``1,200.00`` differs from ``1200``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Node
from ..normalize import parse_date, parse_number

CellKind = Literal["blank", "number", "text", "bool", "error", "unknown"]

FLOAT_NOISE = 1e-9
"""Relative difference two numbers may always have and still be equal: the last digits
two calculators (Excel, LibreOffice) disagree on. Stated tolerances add to it."""


class ValueOptions(BaseModel):
    """How cell values are compared (the ``values`` aspect of ``compare_workbook``;
    ``range_equals``)."""

    model_config = ConfigDict(extra="forbid")

    compare: Literal["value", "text"] = Field(
        default="value",
        description="value: typed values (numbers by value, dates as dates); text: the text each cell displays "
        "after its number format",
    )
    precision: int | None = Field(
        default=None,
        ge=0,
        le=15,
        description="round numbers to this many decimal places (half away from zero) before comparing: "
        "precision 2 makes 3.14159 equal 3.14 and 3.145 equal 3.15",
    )
    abs_tol: float | None = Field(default=None, ge=0, description="numbers may differ by this much (absolute)")
    rel_tol: float | None = Field(
        default=None, ge=0, description="numbers may differ by this share of the reference value (0.01 = 1%)"
    )
    case_sensitive: bool = Field(default=True, description="'Rent' and 'rent' differ")
    whitespace: Literal["exact", "strip", "collapse"] = Field(
        default="strip",
        description="exact: every space counts; strip: leading/trailing whitespace ignored; collapse: also runs "
        "of whitespace inside the text count as one space",
    )

    @property
    def tolerant(self) -> bool:
        """A stated numeric tolerance decides the comparison (mechanism ``tolerance``)."""
        return self.precision is not None or self.abs_tol is not None or self.rel_tol is not None


@dataclass(frozen=True, slots=True)
class CellValue:
    """One cell's content: ``kind``, the number (numbers, dates), the typed text (a
    string value, a date's ISO text, ``TRUE``), and the text the cell displays."""

    kind: CellKind
    number: float | None = None
    typed: str = ""
    shown: str = ""
    is_date: bool = False

    def describe(self) -> Any:
        """The value as evidence shows it: the number, the text, the date's ISO text."""
        if self.kind == "blank":
            return None
        if self.kind == "unknown":
            return "(value unknown)"
        if self.kind == "number" and not self.is_date:
            n = self.number
            return int(n) if n is not None and n.is_integer() and abs(n) < 1e15 else n
        if self.kind == "bool":
            return self.typed == "TRUE"
        return self.typed


BLANK = CellValue("blank")


def cell_value(node: Node | None) -> CellValue:
    """The content of a cell node (None: a cell the sheet does not have, i.e. blank)."""
    if node is None:
        return BLANK
    attrs = node.attrs
    if attrs.get("value_unknown"):
        return CellValue("unknown", shown=node.text)
    value = attrs.get("value")
    shown = node.text
    dtype = attrs.get("data_type")
    serial = attrs.get("serial")
    if isinstance(serial, (int, float)) and not isinstance(serial, bool):
        return CellValue("number", float(serial), str(value if value is not None else serial), shown, True)
    if isinstance(value, bool):
        return CellValue("bool", typed="TRUE" if value else "FALSE", shown=shown)
    if isinstance(value, (int, float)):
        number = float(value)
        if not math.isfinite(number):
            return CellValue("error", typed=str(value), shown=shown)
        return CellValue("number", number, _number_text(number), shown)
    if dtype == "error":
        return CellValue("error", typed=str(value if value is not None else shown), shown=shown)
    if value is None:
        text = shown
    else:
        text = str(value)
    if not text.strip():
        return BLANK
    return CellValue("text", typed=text, shown=shown or text)


def literal_value(value: Any) -> CellValue:
    """An expected value written in a rubric: None or '' is blank, a bool, a number, text."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return BLANK
    if isinstance(value, bool):
        return CellValue("bool", typed="TRUE" if value else "FALSE", shown="TRUE" if value else "FALSE")
    if isinstance(value, (int, float)):
        return CellValue("number", float(value), _number_text(float(value)), _number_text(float(value)))
    text = str(value)
    return CellValue("text", typed=text, shown=text)


def _number_text(number: float) -> str:
    return str(int(number)) if number.is_integer() and abs(number) < 1e15 else repr(number)


_SPACES = re.compile(r"\s+")


def normalize_cell_text(text: str, options: ValueOptions) -> str:
    """Text as ``options`` compare it (whitespace, then case)."""
    if options.whitespace == "strip":
        text = text.strip()
    elif options.whitespace == "collapse":
        text = _SPACES.sub(" ", text).strip()
    return text if options.case_sensitive else text.casefold()


def _rounded(number: float, places: int) -> float:
    try:
        return float(Decimal(repr(number)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP))
    except InvalidOperation:  # too large to quantize: already "rounded" at this precision
        return number


def numbers_agree(expected: float, actual: float, options: ValueOptions) -> bool:
    """``actual`` equals ``expected`` after rounding to ``precision`` (when given), within
    ``abs_tol`` or ``rel_tol`` of the expected value (inclusive), or within float noise."""
    if options.precision is not None:
        expected, actual = _rounded(expected, options.precision), _rounded(actual, options.precision)
    diff = abs(actual - expected)
    allowed = max(options.abs_tol or 0.0, (options.rel_tol or 0.0) * abs(expected), FLOAT_NOISE * abs(expected))
    # 1e-12 absorbs binary representation (0.1 + 0.2 against 0.3 with abs_tol 0)
    return diff <= allowed + 1e-12 * max(1.0, abs(expected))


def values_agree(expected: CellValue, actual: CellValue, options: ValueOptions, *, literal: bool = False) -> tuple[bool, str]:
    """Whether two cell contents agree, and a short note when they do not.

    ``literal``: the expected side is a value written in a rubric, so expected text also
    matches a number, date or boolean that displays it or whose typed text it is
    (``"2024-01-05"`` matches a date cell shown as ``1/5/2024``; ``"12%"`` a cell showing
    12%). Unknown values are never called equal; callers look at ``kind`` first.
    """
    if expected == actual and expected.kind != "unknown":
        return True, ""  # the same content is equal under every normalisation
    if options.compare == "text":
        a = normalize_cell_text(expected.shown if expected.kind != "blank" else "", options)
        b = normalize_cell_text(actual.shown if actual.kind != "blank" else "", options)
        return a == b, "" if a == b else "displayed text differs"
    if expected.kind == "blank" or actual.kind == "blank":
        same = expected.kind == actual.kind
        return same, "" if same else ("cell is empty" if actual.kind == "blank" else "cell should be empty")
    if expected.kind == "number" and actual.kind == "number":
        assert expected.number is not None and actual.number is not None
        same = numbers_agree(expected.number, actual.number, options)
        return same, "" if same else _number_note(expected.number, actual.number)
    if expected.kind == actual.kind:  # text, bool, error
        same = normalize_cell_text(expected.typed, options) == normalize_cell_text(actual.typed, options)
        return same, ""
    if literal and expected.kind == "text":
        want = normalize_cell_text(expected.typed, options)
        if want in (normalize_cell_text(actual.shown, options), normalize_cell_text(actual.typed, options)):
            return True, ""
        if actual.kind == "number" and _literal_reads_as(expected.typed, actual, options):
            return True, ""
    note = f"{actual.kind} where the reference has {'a date' if expected.is_date else _article(expected.kind)}"
    if actual.kind == "text" and expected.kind == "number":
        note = "text, not a number" + (" (a number stored as text)" if _looks_numeric(actual.typed) else "")
    return False, note


def _literal_reads_as(text: str, actual: CellValue, options: ValueOptions) -> bool:
    """Expected text written as a number or a date, and the cell holds that value in
    another format: values compare by value, so "60%" is the 0.6 a cell shows as 60.0%,
    "1,200" is 1200, and "1/5/2024" (month first, as parse_date reads) is the date a cell
    shows as 2024-01-05."""
    assert actual.number is not None
    if actual.is_date:
        day = parse_date(text)
        return day is not None and _date_only(actual.typed) == day.isoformat()
    parsed = parse_number(text)
    return parsed is not None and numbers_agree(parsed.fraction, actual.number, options)


def _date_only(iso: str) -> str | None:
    """The calendar day of a date cell's ISO text; None when it holds a time of day."""
    day, _, time = iso.partition("T")
    if len(day) != 10 or time.strip("0:"):
        return None
    return day


def _article(kind: str) -> str:
    return {"number": "a number", "text": "text", "bool": "a boolean", "error": "an error value"}.get(kind, kind)


def _looks_numeric(text: str) -> bool:
    try:
        float(text.replace(",", "").strip())
    except ValueError:
        return False
    return True


def _number_note(expected: float, actual: float) -> str:
    return f"differs by {abs(actual - expected):.6g}"
