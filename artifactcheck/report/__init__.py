"""Reports: the task report model, its JSON and HTML writers, and batch tables."""

from .json_writer import read_report, report_to_json, strip_timings, write_report_json
from .model import (
    OUTCOMES,
    REPORT_VERSION,
    ArtifactRef,
    OutcomeCounts,
    PageRef,
    Report,
    ScoredNode,
    StepReport,
)

__all__ = [
    "OUTCOMES",
    "REPORT_VERSION",
    "ArtifactRef",
    "OutcomeCounts",
    "PageRef",
    "Report",
    "ScoredNode",
    "StepReport",
    "read_report",
    "report_to_json",
    "strip_timings",
    "write_report_json",
]
