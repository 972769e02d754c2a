"""Number and date checks: ``number_equals`` and ``date_equals`` compare what a node
shows (its displayed text, a cell's stored value, or numbers/dates inside a sentence)
with the expected value, whatever format it is written in.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node
from ..normalize import (
    ParsedNumber,
    excel_serial_to_date,
    numbers_close,
    parse_date,
    parse_number,
)
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec, no_match, node_ref, note_marks, select_targets, unmarked
from ._common import guard_unknown_values, verdict

# -- numbers and dates ---------------------------------------------------------------------

# Thousands grouped by commas, or by a non-breaking, narrow or thin space or an
# apostrophe ("1 250", "1'250": French and Swiss writing), one kind per number.
_NUMBER_TOKEN = re.compile(
    r"\(?[-+\u2212]?(?:[A-Z]{3}\s?|[$€£¥₹])?[-\u2212]?"
    r"(?:\d{1,3}([,\u00a0\u202f\u2009'\u2019])\d{3}(?:\1\d{3})*|\d+)"
    r"(?:\.\d+)?(?:\s?%|[kKmMbB]\b)?\)?"
    r"|\(?[-+\u2212]?\.\d+%?\)?"
)


def numbers_in_text(text: str) -> list[float]:
    """Every number written in a sentence, as written (``12%`` -> 12.0).

    >>> numbers_in_text("Revenue rose 12.5% to $1,234 (from (3.2))")
    [12.5, 1234.0, -3.2]
    >>> numbers_in_text("The total is 1\u00a0250 euros, or 1'250 CHF, for 3 250-page books")
    [1250.0, 1250.0, 3.0, 250.0]
    """
    return [p.value for p in parsed_numbers_in_text(text)]


def parsed_numbers_in_text(text: str) -> list[ParsedNumber]:
    """Like ``numbers_in_text``, keeping the percent and currency flags."""
    out = []
    for m in _NUMBER_TOKEN.finditer(text):
        token = m.group(0)
        if token.startswith("(") and not token.endswith(")"):
            token = token[1:]
        elif token.endswith(")") and not token.startswith("("):
            token = token[:-1]
        parsed = parse_number(token)
        if parsed is not None:
            out.append(parsed)
    return out


def _shown_label(node: Node) -> str:
    """How the node's formatted text is named in the evidence: what it displays, unless
    the cell draws ``###`` instead (too wide for its column: the value is still stored
    and still judged, but nobody sees it)."""
    if node.attrs.get("overflow") == "hashes":
        return "formatted, but drawn ### (too wide for its column)"
    return "displayed"


def _without_note_marks(node: Node) -> str:
    """The node's text without its footnote and endnote numbers: a cell printing "350"
    with a superscript reference mark holds 350, not 3501."""
    marks = note_marks(node)
    return unmarked(node, node.text, marks, caps=False) if marks else node.text


def _readings(node: Node) -> list[tuple[str, float]]:
    """Numbers a reader (or a formula) would take from a node: the whole displayed text
    as one number (and as a fraction when it is a percentage), the cell's stored value,
    else every number in the text."""
    out: list[tuple[str, float]] = []
    if node.attrs.get("data_type") == "error":
        return out  # "#DIV/0!" holds no number: its "0" is part of the error's name
    text = _without_note_marks(node)
    parsed = parse_number(text) if text.strip() else None
    if parsed is not None:
        shown = _shown_label(node)
        out.append((shown, parsed.value))
        if parsed.percent:
            out.append((f"{shown} as fraction", parsed.fraction))
    value = node.attrs.get("value")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        out.append(("stored value", float(value)))
    if not out:
        for p in parsed_numbers_in_text(text):
            out.append(("in text", p.value))
            if p.percent:
                out.append(("in text as fraction", p.fraction))
    return out


class NumberEqualsParams(BaseModel):
    """Parameters of ``number_equals``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec
    expected: float | str = Field(
        description="a number, or displayed text such as '$1,234.50' or '12%'"
    )
    abs_tol: float = Field(default=0.0, ge=0)
    rel_tol: float = Field(default=1e-9, ge=0, description="relative to the expected value")
    quantifier: Literal["any", "all"] = "any"


@register_check(
    "number_equals",
    mechanism="tolerance",
    params=NumberEqualsParams,
    example={"target": {"selector": "cell", "text": "91"}, "expected": 91, "abs_tol": 0.5},
)
def number_equals(doc: Document, params: NumberEqualsParams, resources: Resources) -> CheckResult:
    """A number read from the target's displayed text (or stored cell value) equals the expected one within tolerance.

    >>> from artifactcheck.checks.examples import tiny_doc
    >>> from artifactcheck import run_check
    >>> run_check("number_equals", tiny_doc(), {"target": "table row:nth-child(2) cell:nth-child(2)",
    ...                                         "expected": "91.2", "abs_tol": 0.5}).status
    'pass'
    """
    if isinstance(params.expected, str):
        parsed = parse_number(params.expected)
        if parsed is None:
            raise ValueError(f"expected {params.expected!r} is not a number")
        expected_values = [parsed.value] + ([parsed.fraction] if parsed.percent else [])
    else:
        expected_values = [float(params.expected)]
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("number_equals", params.target, "tolerance", nodes=[])
    rows = []
    for n in nodes:
        readings = _readings(n)
        hit = next(
            (
                (how, v, e)
                for how, v in readings
                for e in expected_values
                if numbers_close(v, e, abs_tol=params.abs_tol, rel_tol=params.rel_tol)
            ),
            None,
        )
        row: dict[str, Any] = {
            **node_ref(n),
            "compared": [f"{how}: {v:g}" for how, v in readings][:10],
            "ok": hit is not None,
        }
        if hit is not None:
            row.update(read_as=hit[0], value=hit[1], difference=abs(hit[1] - hit[2]))
        elif not readings:
            is_error = n.attrs.get("data_type") == "error"
            row["reason"] = f"an error value ({n.text}), not a number" if is_error else "no number in the text"
            row["compared"] = [f"{'error' if is_error else 'no number in'} {n.text[:40]!r}"]
        rows.append(row)
    result = verdict(
        "number_equals",
        "tolerance",
        rows,
        params.quantifier,
        f"hold {params.expected} (abs_tol {params.abs_tol}, rel_tol {params.rel_tol})",
        expected=expected_values,
        abs_tol=params.abs_tol,
        rel_tol=params.rel_tol,
    )
    return _note_hashes(guard_unknown_values(result, nodes, on_shown_text=False), nodes)  # a cell's stored number


class DateEqualsParams(BaseModel):
    """Parameters of ``date_equals``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec
    expected: str = Field(description="a date in any common format; ISO 2024-03-05 is unambiguous")
    dayfirst: bool = Field(
        default=False,
        description="read 05/03/2024 as 5 March (applies to the artifact and expected)",
    )
    quantifier: Literal["any", "all"] = "any"


_DATE_TOKEN = re.compile(
    r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}[/.]\d{1,2}[/.]\d{2,4}|"
    r"(?:\d{1,2}\s+)?[A-Za-z]{3,9}\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+[A-Za-z]{3,9}\.?,?\s+\d{4}"
)


def dates_in_node(node: Node, *, dayfirst: bool) -> list[tuple[str, Any]]:
    """Dates a node shows: its whole text as a date, a date-typed stored value (ISO text
    or an Excel serial with a date number format), or date-looking substrings."""
    out: list[tuple[str, Any]] = []
    text = _without_note_marks(node)  # "15 March 2024" with a footnote mark is not "... 20241"
    whole = parse_date(text, dayfirst=dayfirst) if text.strip() else None
    if whole is not None:
        out.append((_shown_label(node), whole))
    value = node.attrs.get("value")
    if isinstance(value, str):
        d = parse_date(value, dayfirst=False)
        if d is not None:
            out.append(("stored value", d))
    elif isinstance(value, (int, float)) and node.attrs.get("data_type") == "date":
        out.append(("stored serial", excel_serial_to_date(float(value))))
    if not out:
        for m in _DATE_TOKEN.finditer(text):
            d = parse_date(m.group(0), dayfirst=dayfirst)
            if d is not None:
                out.append(("in text", d))
    return out


@register_check(
    "date_equals",
    mechanism="exact",
    params=DateEqualsParams,
    example={"target": "paragraph", "expected": "2024-03-05"},
)
def date_equals(doc: Document, params: DateEqualsParams, resources: Resources) -> CheckResult:
    """The target shows the expected calendar date, in whatever format it is written.

    >>> from artifactcheck.checks.examples import document, paragraph
    >>> from artifactcheck import run_check
    >>> d = document(paragraph("p0", "Signed on March 5th, 2024 in Paris"))
    >>> run_check("date_equals", d, {"target": "paragraph", "expected": "2024-03-05"}).status
    'pass'
    """
    want = parse_date(params.expected, dayfirst=params.dayfirst)
    if want is None:
        raise ValueError(f"expected {params.expected!r} is not a full date (day, month and year)")
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("date_equals", params.target, "exact", nodes=[])
    rows = []
    for n in nodes:
        dates = dates_in_node(n, dayfirst=params.dayfirst)
        rows.append(
            {
                **node_ref(n),
                "compared": [f"{how}: {d.isoformat()}" for how, d in dates],
                "ok": any(d == want for _how, d in dates),
            }
        )
    return _note_hashes(
        guard_unknown_values(
            verdict("date_equals", "exact", rows, params.quantifier, f"hold {want.isoformat()}", expected=want.isoformat()),
            nodes,
            on_shown_text=False,  # a cell's stored date
        ),
        nodes,
    )


def _note_hashes(result: CheckResult, nodes: list[Node]) -> CheckResult:
    """Say so when targets draw ``###``: the verdict is the stored value's, and a reader
    of the sheet sees no number there (``text_fits`` judges that)."""
    hashed = [n.id for n in nodes if n.attrs.get("overflow") == "hashes"]
    if not hashed or result.status == "error":
        return result
    note = f"; {len(hashed)} of them draw ### (too wide for the column), e.g. {hashed[0]}: their stored value was judged"
    return result.model_copy(update={"explanation": result.explanation + note, "evidence": {**result.evidence, "drawn_hashes": hashed[:20]}})
