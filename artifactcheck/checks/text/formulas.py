"""Spreadsheet formulas: ``formula_present`` checks that cells hold a formula
(optionally calling a function or matching a pattern), not a typed-in value, or the
reverse.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ...model import Document, Node
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec, no_match, node_ref, select_targets
from ._common import verdict

# -- formulas ------------------------------------------------------------------------------


class FormulaParams(BaseModel):
    """Parameters of ``formula_present``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec
    expect: Literal["formula", "value"] = Field(
        default="formula", description="value: a typed-in constant, no formula"
    )
    function: str | None = Field(
        default=None, description="the formula must call this function, e.g. SUM"
    )
    pattern: str | None = Field(
        default=None, description="regex the formula must match (case-insensitive)"
    )
    quantifier: Literal["any", "all"] = "all"


def cell_formula(node: Node) -> str | None:
    """The formula of a spreadsheet cell (``attrs["formula"]``), without the leading ``=``."""
    f = node.attrs.get("formula")
    if not isinstance(f, str) or not f.strip():
        return None
    return f.strip().removeprefix("=")


@register_check(
    "formula_present",
    mechanism="exact",
    params=FormulaParams,
    example={"target": "sheet[name='Data'] cell[ref='B10']", "function": "SUM"},
)
def formula_present(doc: Document, params: FormulaParams, resources: Resources) -> CheckResult:
    """Spreadsheet cells hold a formula (optionally calling a function), or a hard-coded value when expect=value.

    >>> from artifactcheck.checks.examples import document
    >>> from artifactcheck.model import Node
    >>> from artifactcheck import run_check
    >>> d = document(Node(id="Sheet1!B4", kind="cell", text="169", attrs={"formula": "=SUM(B2:B3)", "value": 169}))
    >>> run_check("formula_present", d, {"target": "cell", "function": "sum"}).status
    'pass'
    """
    nodes = select_targets(doc, params.target)
    if not nodes:
        return no_match("formula_present", params.target, "exact", nodes=[])
    rows = []
    for n in nodes:
        formula = cell_formula(n)
        row: dict[str, Any] = {**node_ref(n), "formula": formula, "value": n.attrs.get("value")}
        if params.expect == "value":
            row["ok"] = formula is None
        else:
            ok = formula is not None
            if ok and params.function:
                ok = (
                    re.search(
                        r"(?<![A-Za-z0-9_.])" + re.escape(params.function) + r"\s*\(",
                        formula or "",
                        re.IGNORECASE,
                    )
                    is not None
                )
            if ok and params.pattern:
                ok = re.search(params.pattern, formula or "", re.IGNORECASE) is not None
            row["ok"] = ok
        rows.append(row)
    what = (
        "hold a typed-in value"
        if params.expect == "value"
        else (
            "hold a formula"
            + (f" calling {params.function}" if params.function else "")
            + (f" matching /{params.pattern}/" if params.pattern else "")
        )
    )
    result = verdict("formula_present", "exact", rows, params.quantifier, what)
    if result.status == "fail":
        bad = next(r for r in rows if not r["ok"])
        result.explanation = result.explanation.rsplit("; e.g.", 1)[0] + (
            f"; e.g. {bad['id']} has formula {bad['formula']!r}, value {bad['value']!r}"
        )
    return result
