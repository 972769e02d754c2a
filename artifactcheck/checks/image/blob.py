"""``image_color_blob``: a shape of one colour inside a picture — where it is ("the
triangle is in the middle"), and where it went compared with the original ("the yellow
triangle moved closer to the centre").

The blob is found by colour, not by shape: the pixels within ``tolerance`` (CIEDE2000,
the distance every colour check here uses) of ``color``, fully transparent pixels left
out, grouped into 8-connected components (``scipy.ndimage.label``); the largest one is
the blob. ``connected: false`` takes every matching pixel as one blob instead (OSWorld's
``check_triangle_position`` does that). ``color: auto`` is OSWorld's reading of "the
triangle": the most common exact colour after the most common one (the background).

Positions are in pixels, centroid = mean of the blob's pixel centres (``pixels.py``),
the picture's centre = ``(w / 2, h / 2)``. Assertions, all optional:

- ``max_center_offset``: ``|cx - w/2| <= f * w`` and ``|cy - h/2| <= f * h`` (per axis,
  OSWorld's "within 5% of the centre" is ``0.05``);
- ``region``: the centroid lies in a named region ("center third", "left half");
- ``reference`` with ``relation``: the same colour's blob in the reference picture (the
  original) — ``closer_to_center`` (the target's centroid is nearer the centre than the
  reference's by at least ``min_gain_px``), ``farther_from_center``, or
  ``same_position`` (centroids within ``max_shift`` of each side, per axis). A reference
  of another size is scaled to the target's size first.

No blob of the colour is a ``fail`` that says so (with the picture's most common colours,
so a wrong colour name is visible); an undecodable picture is an ``error``; so is a
reference without the blob (the comparison cannot be made).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from ...errors import RubricError
from ...model import Blob, Document, Node
from ..registry import Resources, register_check
from ..result import CheckResult
from .edits import _judge_each, _Params
from .match import load_reference
from .pixels import blob_rgba, box_evidence, common_colors, decode_rgba, drawn, mask_box

if TYPE_CHECKING:
    import numpy.typing as npt

Relation = Literal["closer_to_center", "farther_from_center", "same_position"]


class ColorBlobParams(_Params):
    color: str = Field(description="the blob's colour: a name ('yellow'), #rrggbb, rgb(); or auto: the most common colour after the background's")
    tolerance: float = Field(default=10.0, ge=0, description="CIEDE2000 distance a pixel may be from color and still belong to the blob")
    connected: bool = Field(default=True, description="true: the largest 8-connected region of the colour; false: every pixel of the colour as one blob")
    min_pixels: int = Field(default=1, ge=1, description="a blob smaller than this many pixels is not found")
    max_center_offset: float | None = Field(
        default=None, ge=0, le=0.5, description="the centroid within this fraction of the width (x) and of the height (y) of the picture's centre"
    )
    region: str | None = Field(default=None, description="a named region ('center third', 'left half') the centroid must lie in")
    reference: str | None = Field(default=None, description="the original picture (relative to Resources.assets_dir): compare the blob's position with its blob")
    relation: Relation = Field(default="closer_to_center", description="with a reference: closer_to_center, farther_from_center, or same_position")
    min_gain_px: float = Field(default=1.0, ge=0, description="closer/farther: the distance to the centre must change by at least this many pixels")
    max_shift: float = Field(default=0.02, ge=0, le=1, description="same_position: centroids within this fraction of the width (x) and height (y)")

    @model_validator(mode="after")
    def _valid(self) -> ColorBlobParams:
        if self.color != "auto":
            from ..color import to_hex

            to_hex(self.color)  # an unknown colour is a rubric error, at load
        if self.region is not None:
            from ..regions import parse_region

            parse_region(self.region)
        return self


@dataclass(frozen=True)
class FoundBlob:
    """The blob of one picture, in that picture's pixels."""

    pixels: int
    box: tuple[int, int, int, int]
    centroid: tuple[float, float]
    size: tuple[int, int]
    components: int
    second_pixels: int

    @property
    def center_offset(self) -> tuple[float, float]:
        """``(cx - w/2, cy - h/2)`` in pixels."""
        w, h = self.size
        return (self.centroid[0] - w / 2, self.centroid[1] - h / 2)

    @property
    def center_distance(self) -> float:
        return math.hypot(*self.center_offset)

    def evidence(self) -> dict[str, Any]:
        w, h = self.size
        dx, dy = self.center_offset
        return {
            "pixels": self.pixels,
            "box": box_evidence(self.box, w, h),
            "centroid_px": [round(self.centroid[0], 2), round(self.centroid[1], 2)],
            "centroid_fraction": [round(self.centroid[0] / w, 4), round(self.centroid[1] / h, 4)],
            "center_offset_px": [round(dx, 2), round(dy, 2)],
            "center_offset_fraction": [round(dx / w, 4), round(dy / h, 4)],
            "center_distance_px": round(self.center_distance, 2),
            "components": self.components,
            "second_largest_pixels": self.second_pixels,
        }


def blob_color(rgba: npt.NDArray[Any], color: str) -> str | None:
    """``#rrggbb`` of ``color``; ``auto``: the most common exact colour after the
    background, the background being the most common of all, transparency counted as one
    "colour" (a shape on a transparent canvas is then the most common drawn colour, as in
    OSWorld's RGBA count). None when there is no second colour."""
    if color != "auto":
        from ..color import to_hex

        return to_hex(color)
    opaque = drawn(rgba)
    ranked: list[tuple[str | None, int]] = [*common_colors(rgba, opaque, 2), (None, int((~opaque).sum()))]
    ranked.sort(key=lambda c: -c[1])  # stable: a drawn colour wins a tie with transparency
    rest = [c for c, n in ranked[1:] if c is not None and n > 0]
    return rest[0] if rest else None


def find_blob(rgba: npt.NDArray[Any], hex_color: str, *, tolerance: float, connected: bool, min_pixels: int) -> tuple[FoundBlob | None, int]:
    """The blob of ``hex_color`` in an ``h x w x 4`` picture, and how many pixels match
    the colour at all. None when no (large enough) blob exists."""
    import numpy as np

    from .pixels import color_distance

    mask = (color_distance(rgba, hex_color) <= tolerance) & drawn(rgba)
    matching = int(mask.sum())
    if matching == 0:
        return None, 0
    components, second = 1, 0
    if connected:
        from scipy import ndimage

        labels, components = ndimage.label(mask, structure=np.ones((3, 3), dtype=bool))
        sizes = np.bincount(labels.reshape(-1))[1:]
        order = np.argsort(-sizes, kind="stable")
        mask = labels == int(order[0]) + 1
        second = int(sizes[order[1]]) if components > 1 else 0
    pixels = int(mask.sum())
    if pixels < min_pixels:
        return None, matching
    rows, cols = np.nonzero(mask)
    box = mask_box(mask)
    assert box is not None
    h, w = mask.shape
    centroid = (float(cols.mean()) + 0.5, float(rows.mean()) + 0.5)
    return FoundBlob(pixels, box, centroid, (w, h), int(components), second), matching


def _compare(target: FoundBlob, ref: FoundBlob, p: ColorBlobParams) -> tuple[bool, dict[str, Any], str]:
    """The target blob against the reference's, in the target's pixels."""
    (w, h), (rw, rh) = target.size, ref.size
    rx, ry = ref.centroid[0] * w / rw, ref.centroid[1] * h / rh  # the reference scaled to the target's size
    ref_distance = math.hypot(rx - w / 2, ry - h / 2)
    out: dict[str, Any] = {"reference_centroid_px": [round(rx, 2), round(ry, 2)], "reference_center_distance_px": round(ref_distance, 2)}
    if (w, h) != (rw, rh):
        out["reference_scaled_from_px"] = [rw, rh]
    if p.relation == "same_position":
        shift = (abs(target.centroid[0] - rx) / w, abs(target.centroid[1] - ry) / h)
        out["shift_fraction"] = [round(shift[0], 4), round(shift[1], 4)]
        ok = shift[0] <= p.max_shift and shift[1] <= p.max_shift
        return ok, out, f"moved by {shift[0]:.1%} x {shift[1]:.1%} of the picture from the reference's (allowed {p.max_shift:.1%})"
    gain = ref_distance - target.center_distance
    out["gain_px"] = round(gain, 2)
    if p.relation == "closer_to_center":
        ok = gain >= p.min_gain_px
    else:
        ok = -gain >= p.min_gain_px
    word = "closer to" if gain > 0 else "farther from" if gain < 0 else "as far from"
    return ok, out, f"{word} the centre than in the reference: {ref_distance:.1f} -> {target.center_distance:.1f} px (need {p.relation.replace('_', ' ')} by >= {p.min_gain_px} px)"


@register_check(
    "image_color_blob",
    mechanism="geometric",
    params=ColorBlobParams,
    example={"color": "yellow", "tolerance": 20, "max_center_offset": 0.05},
)
def image_color_blob(doc: Document, p: ColorBlobParams, resources: Resources) -> CheckResult:
    """The target picture holds a blob of a colour whose centroid is near the centre, in a region, or moved against a reference picture.

    OSWorld's ``check_triangle_position`` is ``{color: auto, connected: false,
    max_center_offset: 0.05}``; ``compare_triangle_positions`` is ``{color: yellow,
    reference: original.png, relation: closer_to_center}``. Evidence: centroid, box,
    pixel count, offset and distance from the centre.

    >>> ColorBlobParams.model_validate({"color": "yellow", "reference": "original.png"}).relation
    'closer_to_center'
    """
    from ..regions import parse_region

    region = parse_region(p.region).region if p.region is not None else None
    ref_blob: FoundBlob | None = None
    evidence: dict[str, Any] = {"color": p.color, "tolerance": p.tolerance, "connected": p.connected}
    if p.reference is not None:
        ref = load_reference(p.reference, resources)
        ref_rgba = decode_rgba(ref.data, f"reference {ref.path.name}")
        ref_color = blob_color(ref_rgba, p.color)
        ref_blob = None if ref_color is None else find_blob(ref_rgba, ref_color, tolerance=p.tolerance, connected=p.connected, min_pixels=p.min_pixels)[0]
        if ref_blob is None:
            raise RubricError(f"reference {ref.path.name} has no blob of {p.color!r} (dE2000 <= {p.tolerance}): nothing to compare the position with")
        evidence["reference"] = {**ref.evidence(), "color": ref_color, "blob": ref_blob.evidence()}
        evidence["relation"] = p.relation

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        rgba = blob_rgba(blob)
        h, w = rgba.shape[:2]
        hex_color = blob_color(rgba, p.color)
        row: dict[str, Any] = {"color_hex": hex_color, "size_px": [w, h]}
        found, matching = (None, 0) if hex_color is None else find_blob(rgba, hex_color, tolerance=p.tolerance, connected=p.connected, min_pixels=p.min_pixels)
        if found is None:
            seen = ", ".join(f"{c} ({n} px)" for c, n in common_colors(rgba, drawn(rgba), 3)) or "none (fully transparent)"
            why = "the picture has one colour" if hex_color is None else f"{matching} pixel(s) within dE2000 {p.tolerance} of {hex_color} (need a blob of {p.min_pixels})"
            return {**row, "ok": False, "matching_pixels": matching, "most_common_colors": seen, "reason": f"no blob of {p.color!r}: {why}; most common colours: {seen}"}
        row.update(blob=found.evidence(), matching_pixels=matching)
        failures: list[str] = []
        notes: list[str] = []
        dx, dy = found.center_offset
        if p.max_center_offset is not None and not (abs(dx) <= p.max_center_offset * w and abs(dy) <= p.max_center_offset * h):
            failures.append(f"centroid {abs(dx) / w:.1%} x {abs(dy) / h:.1%} of the picture from the centre (allowed {p.max_center_offset:.1%})")
        if region is not None:
            fx, fy = found.centroid[0] / w, found.centroid[1] / h
            if not (region.x0 <= fx <= region.x1 and region.top <= fy <= region.bottom):
                failures.append(f"centroid ({fx:.1%}, {fy:.1%}) not in {p.region!r}")
        if ref_blob is not None:
            ok, compared, text = _compare(found, ref_blob, p)
            row["compared"] = compared
            (notes if ok else failures).append(text)
        row.update(ok=not failures, failures=failures, notes=notes)
        return row

    def describe(r: dict[str, Any]) -> str:
        b = r["blob"]
        text = f"{r['color_hex']} blob of {b['pixels']} px, centroid {b['centroid_px']} ({b['center_distance_px']} px from the centre)"
        said = r["failures"] or r["notes"]
        return text + (f": {'; '.join(said)}" if said else "")

    res = _judge_each("image_color_blob", doc, p, judge, evidence, describe)
    res.mechanism = "geometric"
    return res
