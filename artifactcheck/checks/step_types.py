"""The step type a rubric leaf takes from its check when neither the leaf nor a group
above it states one (design/rubric-format.md, "Step types").

The default follows the check's mechanism (a geometric check is about space, a trace
check about web visits, a tree query about structure); the table below names the checks
whose subject the mechanism does not tell: formatting and colour checks, image checks.
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

BY_CHECK: dict[str, StepType] = {
    "format_is": "formatting",
    "only_formatted": "formatting",
    "color_is": "formatting",
    "color_classified_as": "formatting",
    "colors_distinct": "formatting",
    "rows_grouped_at_top": "formatting",
    "text_fits": "formatting",
    "image_matches": "visual",
    "image_crop_of": "visual",
    "images_unique": "visual",
    "image_not_distorted": "visual",
    "image_size": "visual",
}


def default_step_type(check: str, mechanism: Mechanism) -> StepType:
    """The step type of a leaf running ``check`` when the rubric states none."""
    return BY_CHECK.get(check) or BY_MECHANISM[mechanism]
