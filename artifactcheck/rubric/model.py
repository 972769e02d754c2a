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

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    PrivateAttr,
    field_validator,
    model_validator,
)

from ..checks.result import StepType
from ..errors import RubricError

RUBRIC_SCHEMA_VERSION = "1.0"


Strategy = Literal["parallel", "sequential"]
Aggregation = Literal["gate", "points", "all", "any", "at_least"]

_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_.:-]*$")


class Include(BaseModel):
    """Where a node may stand, ``include: path`` pulls in the steps of a fragment file
    (path relative to the including file), with ``params`` substituted for ``${name}``.
    Only files contain includes; the loader replaces them before building nodes."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

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
    ``step_type`` is inherited from the nearest ancestor that states one; a leaf with no
    ancestor stating one takes its check's default step type.
    """

    model_config = ConfigDict(extra="forbid", defer_build=True)

    id: str = Field(description="Unique in the rubric; letters, digits, _ . : -")
    description: str = ""
    step_type: StepType | None = Field(
        default=None,
        description="What the step is about; a leaf without one inherits its group's, else its check's default (artifactcheck checks).",
    )
    critical: bool = False
    weight: float = Field(default=1.0, ge=0, allow_inf_nan=False, description="Points of this node in its parent (finite).")
    requires: list[str] = Field(default_factory=list)
    check: str | None = Field(default=None, description="Registered check name (leaves).")
    params: dict[str, JsonValue] = Field(default_factory=dict, description="Check parameters.")
    strategy: Strategy = "parallel"
    aggregation: Aggregation = "gate"
    at_least: int | None = Field(
        default=None,
        ge=1,
        description="How many children must reach full score (aggregation at_least; giving it implies that aggregation).",
    )
    children: list[Step | Include] = Field(default_factory=list)

    _origin: tuple[str, int] | None = PrivateAttr(default=None)

    @property
    def origin(self) -> tuple[str, int] | None:
        """(file, line) of the ``check(...)``/``group(...)`` call that built this step in
        code, so validation errors point there; None for steps read from files."""
        return self._origin

    def __eq__(self, other: object) -> bool:
        # where a step was built (its origin) is not part of what the step is: a rubric
        # built in code equals the same rubric read from a file
        if not isinstance(other, Step):
            return NotImplemented
        return self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]

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
        _settle_at_least(self, f"step {self.id!r}")
        if self.check is not None and (self.at_least is not None or self.aggregation != "gate"):
            raise ValueError(f"step {self.id!r} runs a check: aggregation and at_least belong on steps with children")
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

    model_config = ConfigDict(extra="forbid", defer_build=True)

    schema_version: str = RUBRIC_SCHEMA_VERSION
    task: str = Field(description="Task id reported in every report.")
    description: str = ""
    params: dict[str, JsonValue] = Field(default_factory=dict)
    strategy: Strategy = "parallel"
    aggregation: Aggregation = "gate"
    at_least: int | None = Field(
        default=None,
        ge=1,
        description="How many steps must reach full score (aggregation at_least; giving it implies that aggregation).",
    )
    steps: list[Step | Include] = Field(min_length=1)

    @model_validator(mode="after")
    def _aggregation(self) -> Rubric:
        _settle_at_least(self, "the rubric")
        return self

    def root(self) -> Step:
        """The rubric as one tree (root id ``task``)."""
        return Step(
            id="task",
            description=self.description,
            strategy=self.strategy,
            aggregation=self.aggregation,
            at_least=self.at_least,
            children=list(self.steps),
        )

    def iter_steps(self) -> list[Step]:
        """Every step below the root, pre-order."""
        return self.root().iter()[1:]

    def leaves(self) -> list[Step]:
        return [s for s in self.iter_steps() if s.is_leaf]


def _settle_at_least(node: Step | Rubric, what: str) -> None:
    """``at_least: k`` alone means ``aggregation: at_least``; ``aggregation: at_least``
    needs a k; ``at_least`` beside another aggregation is a contradiction."""
    if node.at_least is not None and "aggregation" not in node.model_fields_set:
        node.aggregation = "at_least"
    if node.aggregation == "at_least" and node.at_least is None:
        raise ValueError(f"{what}: aggregation at_least needs at_least: k (how many children must pass)")
    if node.at_least is not None and node.aggregation != "at_least":
        raise ValueError(f"{what}: at_least: {node.at_least} contradicts aggregation {node.aggregation!r}; drop one of them")
