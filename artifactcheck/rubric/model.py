"""The rubric model: a tree whose leaves run one check and whose inner nodes aggregate.

A rubric is plain data. The same models back the YAML/JSON files (via
:mod:`artifactcheck.rubric.loader`), the committed JSON Schema
(``rubric.schema.json``) and the Python API (:func:`~artifactcheck.rubric.builders.check`, :func:`~artifactcheck.rubric.builders.group`), so a rubric
built in code and the same rubric read from a file are equal objects and score alike.

Aggregation rules are in design/aggregation.md and :mod:`artifactcheck.rubric.aggregate`.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from ..errors import RubricError

RUBRIC_SCHEMA_VERSION = "1.0"

StepType = Literal[
    "structural",
    "information_retrieval",
    "formatting",
    "content",
    "spatial",
    "web_visit",
    "visual",
]
STEP_TYPES: tuple[str, ...] = StepType.__args__  # type: ignore[attr-defined]

Strategy = Literal["parallel", "sequential"]
Aggregation = Literal["gate", "points", "all"]

_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:-]*$")


class Include(BaseModel):
    """Where a node may stand, ``include: path`` pulls in the steps of a fragment file
    (path relative to the including file), with ``params`` substituted for ``${name}``.
    Only files contain includes; the loader replaces them before building nodes."""

    model_config = ConfigDict(extra="forbid")

    include: str = Field(description="Fragment file, relative to the file that includes it.")
    params: dict[str, JsonValue] = Field(
        default_factory=dict, description="Values for the fragment's ${name} placeholders."
    )


class Step(BaseModel):
    """One rubric node. A leaf names a ``check`` (and its ``params``); an inner node has
    ``children`` and aggregates them with ``aggregation`` under ``strategy``.

    ``weight`` is the node's points in its parent. ``critical`` makes the node a gate of
    its parent under ``aggregation: gate``. ``requires`` lists step ids that must pass
    before this step is run; otherwise it is skipped with the reason, never failed.
    ``step_type`` is inherited from the nearest ancestor that states one.
    """

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Unique in the rubric; letters, digits, _ . : -")
    description: str = ""
    step_type: StepType | None = None
    critical: bool = False
    weight: float = Field(default=1.0, ge=0, description="Points of this node in its parent.")
    requires: list[str] = Field(default_factory=list)
    check: str | None = Field(default=None, description="Registered check name (leaves).")
    params: dict[str, JsonValue] = Field(default_factory=dict, description="Check parameters.")
    strategy: Strategy = "parallel"
    aggregation: Aggregation = "gate"
    children: list[Step | Include] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _id_shape(cls, v: str) -> str:
        if not _ID.match(v):
            raise ValueError(f"step id {v!r} must use letters, digits and _ . : - only")
        return v

    @model_validator(mode="after")
    def _leaf_or_inner(self) -> Step:
        if self.check is not None and self.children:
            raise ValueError(f"step {self.id!r} has both a check and children; a leaf runs one check")
        if self.check is None and not self.children:
            raise ValueError(f"step {self.id!r} has neither a check nor children")
        if self.check is None and self.params:
            raise ValueError(f"step {self.id!r} has params but no check")
        return self

    @property
    def is_leaf(self) -> bool:
        return self.check is not None

    @property
    def steps(self) -> list[Step]:
        """Children after include expansion; an Include left in a rubric built in code is
        a RubricError."""
        out = []
        for child in self.children:
            if isinstance(child, Include):
                raise RubricError(
                    f"step {self.id!r} holds include {child.include!r}: includes are expanded when a "
                    "rubric file is loaded (load_rubric); in code, build the steps instead"
                )
            out.append(child)
        return out

    def iter(self) -> list[Step]:
        """This node and every descendant, pre-order."""
        found: list[Step] = []
        stack: list[Step] = [self]
        while stack:
            node = stack.pop()
            found.append(node)
            stack.extend(reversed(node.steps))
        return found


class Rubric(BaseModel):
    """A task's rubric: the top-level node's fields plus ``task`` and ``params``.

    The top level is itself the root step (id ``task`` unless ``id`` is given): its
    ``steps`` are the checkpoints. ``params`` are defaults for ``${name}`` placeholders
    in the file and its fragments.
    """

    model_config = ConfigDict(extra="forbid")

    schema_version: str = RUBRIC_SCHEMA_VERSION
    task: str = Field(description="Task id reported in every report.")
    description: str = ""
    params: dict[str, JsonValue] = Field(default_factory=dict)
    strategy: Strategy = "parallel"
    aggregation: Aggregation = "gate"
    steps: list[Step | Include] = Field(min_length=1)

    def root(self) -> Step:
        """The rubric as one tree (root id ``task``)."""
        return Step(
            id="task",
            description=self.description,
            strategy=self.strategy,
            aggregation=self.aggregation,
            children=list(self.steps),
        )

    def iter_steps(self) -> list[Step]:
        """Every step below the root, pre-order."""
        return self.root().iter()[1:]

    def leaves(self) -> list[Step]:
        return [s for s in self.iter_steps() if s.is_leaf]
