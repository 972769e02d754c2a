"""``score``: load an artifact and a rubric, run the rubric, return the Report.

An artifact that cannot be read does not raise: a broken file is the agent's failure
(every step fails, decided) and a broken evaluator (renderer missing, extractor bug) is
ours (every step is an error); either way the report is complete. A rubric that cannot be
read does raise RubricError: there is nothing to score against.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..checks.registry import Resources
from ..errors import ArtifactCheckError, CorruptArtifact, RubricError, UnsupportedFormat
from ..model import Document
from ..report.model import Report
from .loader import load_rubric, rubric_root_of
from .model import Rubric
from .runner import ArtifactFailure, artifact_ref_for_file, run_rubric


def score(
    artifact: str | Path | Document,
    rubric: str | Path | Rubric | dict[str, Any],
    *,
    trace: str | Path | list[str] | None = None,
    assets: str | Path | None = None,
    params: dict[str, Any] | None = None,
    judge: Any = None,
    load_options: dict[str, Any] | None = None,
    extras: dict[str, Any] | None = None,
    rubric_root: str | Path | None = None,
) -> Report:
    """Score ``artifact`` (a file path, a Google URL/id, or a loaded Document) against
    ``rubric`` (a rubric file, a Rubric built in code, or the same data as a dict). ``trace`` is a browsing trace: a list of URLs or a
    file (JSON list, JSONL of ``{"url": ...}`` or one URL per line). ``params`` override
    the rubric file's parameters. ``assets`` (reference images) defaults to the
    ``assets/`` folder next to a rubric file, when there is one. Raises RubricError for a
    bad rubric and ArtifactCheckError when ``artifact`` does not exist. ``rubric_root``
    is the folder a rubric file's includes and reference images must stay inside
    (default: the parent of the rubric's folder; design/safe-loading.md)."""
    rubric_path: str | None = None
    confine: Path | None = Path(rubric_root).resolve() if rubric_root is not None else None
    if isinstance(rubric, dict):
        from .validate import validate_rubric

        try:
            rubric = Rubric.model_validate(rubric)
        except ValueError as exc:
            raise RubricError(f"invalid rubric: {exc}") from None
        validate_rubric(rubric)
    if isinstance(rubric, Rubric):
        if params:
            raise RubricError("params apply to rubric files; build the Rubric with the values instead")
        model = rubric
    else:
        rubric_path = str(rubric)
        model = load_rubric(rubric, params=params, root=rubric_root)
        confine = rubric_root_of(rubric, rubric_root)
        beside = Path(rubric).parent / "assets"
        if assets is None and beside.is_dir():
            assets = beside
    resources = Resources(
        assets_dir=str(assets) if assets is not None else None,
        rubric_root=str(confine) if confine is not None else None,
        trace=load_trace(trace) if isinstance(trace, (str, Path)) else trace,
        judge=judge,
        extras=dict(extras or {}),
    )
    if isinstance(artifact, Document):
        return run_rubric(artifact, model, resources=resources, rubric_path=rubric_path)
    if is_google_ref(artifact):
        doc, failure = load_for_scoring(str(artifact), load_options or {})
        ref = artifact_ref_for_file(artifact, doc)
        return run_rubric(doc, model, resources=resources, artifact=ref, rubric_path=rubric_path, failure=failure)
    path = Path(artifact)
    if not path.exists():
        raise ArtifactCheckError("artifact file not found", path=path)
    doc, failure = load_for_scoring(path, load_options or {})
    return run_rubric(
        doc,
        model,
        resources=resources,
        artifact=artifact_ref_for_file(artifact, doc),
        rubric_path=rubric_path,
        failure=failure,
    )


def is_google_ref(artifact: str | Path) -> bool:
    """A Google Docs/Sheets/Slides/Drive URL or bare file id (not an existing path)."""
    if not isinstance(artifact, str) or Path(artifact).exists():
        return False
    from ..extractors.google.access import looks_like_google_ref

    return looks_like_google_ref(artifact)


def load_for_scoring(path: str | Path, options: dict[str, Any]) -> tuple[Document | None, ArtifactFailure | None]:
    """Load, classifying a failure: a broken or unsupported file is the artifact's
    failure; anything else (renderer, Google API access, an extractor bug) is ours."""
    from ..loading import check_load_options, load

    check_load_options(options)  # a misspelt option is the caller's mistake, not an artifact failure
    try:
        return load(path, **options), None
    except (CorruptArtifact, UnsupportedFormat) as exc:
        return None, ArtifactFailure("artifact", f"{type(exc).__name__}: {exc}")
    except ArtifactCheckError as exc:
        return None, ArtifactFailure("evaluator", f"{type(exc).__name__}: {exc}")
    except Exception as exc:  # noqa: BLE001 - an extractor bug must not break a batch
        return None, ArtifactFailure("evaluator", f"{type(exc).__name__}: {exc}")


def load_trace(path: str | Path) -> list[str]:
    """Visited URLs from a trace file, read by the trace checks' own reader
    (:func:`artifactcheck.checks.trace.load_trace`: a JSON list of URLs or objects with
    ``url``, a HAR log, JSONL, or one URL per line) so both agree on the format."""
    from ..checks.trace import load_trace as read_trace

    return read_trace(path)
