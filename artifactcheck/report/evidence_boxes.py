"""Find the boxes inside a step's evidence, so the HTML view can draw them.

Checks write boxes as ``{"page", "x0", "top", "x1", "bottom"}`` mappings (points, origin
top-left of the page, y down; see checks/geometry.py ``box_dict``); the runner adds the
boxes of the nodes the evidence names (``StepReport.located``). A box under a key
naming a region (``region``, ``region_pt``, ``area``, ``expected``) is the *region
checked*; every other box is a *box found*. A found box is green or red by the nearest
enclosing ``ok``/``passed``/``pass`` flag, else by the step's own status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .model import StepReport

_REGION_WORDS = ("region", "area", "expected", "zone", "bounds")
_FLAG_KEYS = ("ok", "passed", "pass")
MAX_BOXES_PER_STEP = 200


@dataclass(frozen=True)
class EvidenceBox:
    """One box to draw; ``tone`` is pass (green), fail (red), region (blue) or neutral."""

    step_id: str
    page: int
    x0: float
    top: float
    x1: float
    bottom: float
    role: Literal["region", "found"]
    tone: Literal["pass", "fail", "region", "neutral"]
    label: str


def _is_box(value: dict[str, Any]) -> bool:
    return all(isinstance(value.get(k), (int, float)) and not isinstance(value.get(k), bool) for k in ("x0", "top", "x1", "bottom"))


def evidence_boxes(step: StepReport) -> list[EvidenceBox]:
    """Boxes in ``step.evidence``, regions first, without duplicates."""
    found: list[EvidenceBox] = []
    seen: set[tuple[Any, ...]] = set()
    default_tone: Literal["pass", "fail", "neutral"] = (
        "pass" if step.status == "pass" else "fail" if step.status == "fail" else "neutral"
    )

    def visit(value: Any, key: str, page: int | None, ok: bool | None, label: str) -> None:
        if len(found) >= MAX_BOXES_PER_STEP:
            return
        if isinstance(value, list):
            for item in value:
                visit(item, key, page, ok, label)
            return
        if not isinstance(value, dict):
            return
        flags = [value[k] for k in _FLAG_KEYS if isinstance(value.get(k), bool)]
        ok = flags[0] if flags else ok
        page = value["page"] if isinstance(value.get("page"), int) and not isinstance(value.get("page"), bool) else page
        label = str(value["id"]) if isinstance(value.get("id"), str) else label
        if _is_box(value) and page is not None:
            is_region = any(word in key.lower() for word in _REGION_WORDS)
            tone: Literal["pass", "fail", "region", "neutral"]
            if is_region:
                tone = "region"
            elif ok is None:
                tone = default_tone
            else:
                tone = "pass" if ok else "fail"
            box = EvidenceBox(
                step_id=step.id,
                page=page,
                x0=float(value["x0"]),
                top=float(value["top"]),
                x1=float(value["x1"]),
                bottom=float(value["bottom"]),
                role="region" if is_region else "found",
                tone=tone,
                label=label if not is_region else f"region checked ({key})",
            )
            identity = (box.page, round(box.x0, 1), round(box.top, 1), round(box.x1, 1), round(box.bottom, 1), box.role)
            if identity not in seen:
                seen.add(identity)
                found.append(box)
        for child_key, child in value.items():
            if isinstance(child, (dict, list)):
                visit(child, child_key, page, ok, label)

    visit(step.evidence, "", None, None, step.id)
    visit(step.located, "located", None, None, step.id)
    return sorted(found, key=lambda b: b.role != "region")
