"""Rubrics: a tree of steps (leaves run checks, inner nodes aggregate), read from
YAML/JSON files or built in code, and run over a Document into a Report."""

from ..checks.result import STEP_TYPES
from .aggregate import ChildScore, aggregate
from .builders import check, group, rubric
from .loader import load_rubric
from .model import RUBRIC_SCHEMA_VERSION, Include, Rubric, Step
from .runner import run_rubric
from .scoring import load_trace, score

__all__ = [
    "RUBRIC_SCHEMA_VERSION",
    "STEP_TYPES",
    "ChildScore",
    "Include",
    "Rubric",
    "Step",
    "aggregate",
    "check",
    "group",
    "load_rubric",
    "load_trace",
    "rubric",
    "run_rubric",
    "score",
]
