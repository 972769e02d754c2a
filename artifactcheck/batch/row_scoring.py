"""One batch row: score it (anywhere: this process, a local worker, a Dask worker) into a
:class:`RowResult` that holds the report as text, then write that result into the output
folder (always in the coordinating process, design/batch.md, "Who writes").

Splitting the two is what lets every engine give byte-identical reports: the text is
made by the same code wherever the row is scored, and written by the same code in one
place, once, through a temporary file and a rename.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from ..digest import file_digest
from ..errors import ArtifactCheckError
from ..report.json_writer import read_report, report_to_json, write_text_atomic
from ..report.model import Report
from .manifest import BatchRow, _google

__all__ = ["RowOutcome", "RowResult", "evaluate_row", "input_fingerprint", "is_complete", "write_row"]


@dataclass
class RowOutcome:
    """What became of a row. ``attempts``: how many times a worker started it (more than
    one when a worker died under it and it was retried elsewhere; 1 on the local engine)."""

    row: BatchRow
    state: str  # scored | resumed | error
    message: str = ""
    attempts: int = 1


@dataclass(frozen=True)
class RowResult:
    """A scored row, nothing written yet. ``report_json`` is exactly the text
    ``write_report_json`` writes; ``report_html`` is there with ``--html``;
    ``fingerprint`` marks the row complete once both are on disk. ``state`` is
    ``error`` (with ``message``) when no report could be made."""

    state: str  # scored | error
    message: str = ""
    report_json: str | None = None
    report_html: str | None = None
    fingerprint: dict[str, str | None] | None = None


def _sha256_file(path: Path) -> str | None:
    return file_digest(path).sha256 if path.is_file() else None


def input_fingerprint(row: BatchRow) -> dict[str, str | None]:
    """sha256 of the artifact, trace and rubric files and of the expanded rubric. The
    expanded rubric holds no file paths, so a copy of the same files elsewhere (shipped
    to a worker) has the same fingerprint."""
    from ..rubric.loader import load_rubric

    try:
        expanded: str | None = hashlib.sha256(load_rubric(row.rubric, root=row.rubric_root).model_dump_json().encode()).hexdigest()
    except ArtifactCheckError:
        expanded = None
    return {
        "artifact": _sha256_file(Path(row.artifact)),
        "trace": _sha256_file(Path(row.trace)) if row.trace else None,
        "rubric": expanded,
    }


def is_complete(row: BatchRow, out: Path) -> bool:
    """True when the row's report exists and parses, and its recorded inputs (artifact
    bytes, trace, expanded rubric) are the current ones."""
    path, inputs = row.report_path(out), row.inputs_path(out)
    if not path.is_file() or not inputs.is_file():
        return False
    try:
        read_report(path)
        recorded = json.loads(inputs.read_text(encoding="utf-8"))
    except (ValidationError, OSError, ValueError):
        return False
    return bool(recorded == input_fingerprint(row))


def evaluate_row(row: BatchRow, *, html: bool, named_as: BatchRow | None = None, hide_prefix: str | None = None) -> RowResult:
    """Score ``row`` and return its report as text. Never raises: whatever breaks (the
    HTML page included) makes an ``error`` result whose message says what broke.

    ``named_as``/``hide_prefix`` are for files shipped to a worker (``shipping.py``):
    ``row`` names the copies, ``named_as`` the coordinator's originals, and every path
    under ``hide_prefix`` in the report reads as the original path, so the report is
    the one the coordinator would have made itself."""
    from ..rubric.loader import load_rubric
    from ..rubric.runner import ArtifactFailure, artifact_ref_for_file, run_rubric
    from ..rubric.scoring import score

    stage = "scoring"
    try:
        artifact = Path(row.artifact)
        if artifact.is_file() or artifact.is_dir() or _google(row.artifact):
            report = score(row.artifact if _google(row.artifact) else artifact, row.rubric, trace=row.trace,
                           assets=row.assets, rubric_root=row.rubric_root)
        else:  # the agent produced no file: the task failed, decided
            report = run_rubric(
                None,
                load_rubric(row.rubric, root=row.rubric_root),
                artifact=artifact_ref_for_file(artifact, None),
                rubric_path=row.rubric,
                failure=ArtifactFailure("artifact", "file not found"),
            )
        report = report.model_copy(update={"task": row.task})
        if named_as is not None:
            report = _named_as(report, named_as)
        fingerprint = input_fingerprint(row)
        stage = "writing the JSON report"
        text = _unprefixed(report_to_json(report), hide_prefix)
        page = None
        if html:
            stage = "writing the HTML report"
            from ..report.html import report_html_page

            page = _unprefixed(report_html_page(report, artifact=artifact if artifact.is_file() else None), hide_prefix)
        return RowResult("scored", report_json=text, report_html=page, fingerprint=fingerprint)
    except ArtifactCheckError as exc:
        return RowResult("error", f"{stage}: {_unprefixed(str(exc), hide_prefix)}")
    except Exception as exc:  # noqa: BLE001 - one bad row must not end the batch
        return RowResult("error", f"{stage}: {type(exc).__name__}: {_unprefixed(str(exc), hide_prefix)}")


def _named_as(report: Report, original: BatchRow) -> Report:
    """The report naming the coordinator's artifact and rubric paths as given there."""
    artifact = report.artifact.model_copy(update={"path": original.artifact})
    rubric = report.rubric.model_copy(update={"path": original.rubric})
    return report.model_copy(update={"artifact": artifact, "rubric": rubric})


def _unprefixed(text: str, prefix: str | None) -> str:
    # The prefix is a freshly made temporary folder (random name) that the copies were
    # written under at their original absolute paths: removing it gives those paths back.
    return text.replace(prefix, "") if prefix else text


def write_row(row: BatchRow, result: RowResult, out: Path, *, attempts: int = 1) -> RowOutcome:
    """Write a scored row's report (then its HTML page, then, last, its fingerprint,
    which is what marks it complete) in the coordinating process. Never raises: a
    report that cannot be written makes the row an ``error`` that a rerun redoes."""
    if result.state != "scored" or result.report_json is None:
        return RowOutcome(row, "error", result.message, attempts)
    stage = "writing the JSON report"
    try:
        path = write_text_atomic(row.report_path(out), result.report_json)
        if result.report_html is not None:
            stage = "writing the HTML report"
            write_text_atomic(path.with_suffix(".html"), result.report_html)
        stage = "writing the JSON report"
        write_text_atomic(row.inputs_path(out), json.dumps(result.fingerprint, indent=1) + "\n")
        return RowOutcome(row, "scored", attempts=attempts)
    except OSError as exc:
        return RowOutcome(row, "error", f"{stage}: {type(exc).__name__}: {exc}", attempts)
