"""The step type a rubric leaf takes from its check when neither the leaf nor a group
above it states one (design/rubric-format.md, "Step types").

The default follows the check's family (image checks are visual, formatting and colour
checks are about formatting), else its mechanism (a geometric check is about space, a
trace check about web visits, a tree query about structure).
``artifactcheck checks`` shows each check's default.
"""

from __future__ import annotations

from .result import Mechanism, StepType

BY_MECHANISM: dict[str, StepType] = {
    "exact": "content",
    "tolerance": "content",
    "model_judgment": "content",
    "geometric": "spatial",
    "tree_query": "structural",
    "trace": "web_visit",
}

BY_FAMILY: dict[str, StepType] = {
    "image": "visual",
    "formatting": "formatting",
    "color": "formatting",
}
"""Check modules (or family folders) below ``checks/`` whose checks share a subject."""

BY_CHECK: dict[str, StepType] = {
    "rows_grouped_at_top": "formatting",
    "text_fits": "formatting",
}
"""Single checks whose subject neither their mechanism nor their family tells."""


def default_step_type(check: str, mechanism: Mechanism, module: str = "") -> StepType:
    """The step type of a leaf running ``check`` (defined in ``module``) when the rubric
    states none: the check's own entry, else its family's, else its mechanism's."""
    family = module.removeprefix("artifactcheck.checks.").split(".")[0]
    return BY_CHECK.get(check) or BY_FAMILY.get(family) or BY_MECHANISM[mechanism]
