"""``setting_is``: a LibreOffice setting, read by its registry path from the user's
``registrymodifications.xcu`` (the artifact), has an expected value — OSWorld's
``find_default_font``, ``check_auto_saving_time``, ``check_presenter_console_disable``
and ``check_libre_locale``.

The registry file lists only what the user changed from the defaults, so a path that is
not there is a ``fail`` ("not set"), as in those evaluators: the default is not in the
file and is not guessed. A path written twice is judged by its last entry, the one
LibreOffice applies last. An artifact that is not a registry file is an ``error``.
"""

from __future__ import annotations

import fnmatch
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from ..errors import RubricError
from ..model import Document, Node
from .normalize import parse_number
from .registry import Resources, register_check
from .result import CheckResult


class SettingParams(BaseModel):
    """Parameters of ``setting_is``."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    path: str | list[str] = Field(
        description="the registry path (`/org.openoffice.Office.Common/Save/Document/AutoSaveTimeIntervall`); a list: "
        "the first one the file sets decides (OSWorld's locale check reads ooSetupSystemLocale, else ooLocale)"
    )
    expected: str | float | bool | list[str] = Field(
        description="the value; a list: any of them (with match glob: patterns like 'en-*')"
    )
    match: Literal["exact", "casefold", "number", "glob"] = Field(
        default="exact",
        description="exact text; casefold (true = True); number (3 = 3.0 = '03'); glob (fnmatch, case-sensitive)",
    )


def _agrees(value: str, expected: str | float | bool, match: str) -> bool:
    if isinstance(expected, bool):
        return value.strip().casefold() == str(expected).casefold()
    if match == "number":
        a, b = parse_number(value), parse_number(str(expected))
        return a is not None and b is not None and a.value == b.value
    if match == "glob":
        return fnmatch.fnmatchcase(value, str(expected))
    if match == "casefold":
        return value.strip().casefold() == str(expected).strip().casefold()
    return value == (str(expected) if not isinstance(expected, float) or not expected.is_integer() else str(int(expected)))


@register_check(
    "setting_is",
    mechanism="exact",
    params=SettingParams,
    example={"path": "/org.openoffice.Office.Common/Save/Document/AutoSaveTimeIntervall", "expected": 3, "match": "number"},
)
def setting_is(doc: Document, p: SettingParams, resources: Resources) -> CheckResult:
    """A LibreOffice setting in registrymodifications.xcu has the expected value (absent from the file: not set, a fail).

    The artifact is the registry file (loaded as ``setting`` nodes); the path is the
    item's ``oor:path`` plus the prop's name. The last entry of a path decides.
    """
    if doc.artifact.format != "xcu":
        raise RubricError(
            f"setting_is reads a LibreOffice registry file (registrymodifications.xcu); the artifact is a "
            f"{doc.artifact.format} file"
        )
    paths = [p.path] if isinstance(p.path, str) else p.path
    by_path: dict[str, Node] = {}
    for node in doc.root.descendants("setting"):
        by_path[str(node.attrs.get("path"))] = node  # the last entry wins
    chosen = next((path for path in paths if path in by_path), None)
    expected = p.expected if isinstance(p.expected, list) else [p.expected]
    shown = expected[0] if len(expected) == 1 else expected
    if chosen is None:
        return CheckResult(
            check="setting_is", status="fail", mechanism="exact", score=0.0,
            explanation=f"{' / '.join(paths)} is not set in the registry file (the default applies, which the file "
            f"does not state); expected {shown!r}",
            evidence={"paths": paths, "found": None, "expected": shown},
        )
    node = by_path[chosen]
    ok = any(_agrees(node.text, e, p.match) for e in expected)
    return CheckResult(
        check="setting_is", status="pass" if ok else "fail", mechanism="exact", score=float(ok),
        explanation=f"{chosen} is {node.text!r}; expected {shown!r} ({p.match})",
        evidence={"path": chosen, "node": node.id, "value": node.text, "expected": shown, "match": p.match},
    )
