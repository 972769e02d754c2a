"""``image_ink_extent``: where the drawn content of a picture lies ("the text box is on
the left side", "nothing is drawn in the bottom half"), from the bounding box of its ink.

Ink is either the **dark** pixels (luma, Pillow's ``L``, below ``dark_below``: OSWorld's
``check_textbox_on_leftside`` takes luma < 128 as "part of the text") or the pixels that
**differ from the background** by more than ``tolerance`` (CIEDE2000), the background
being a colour or, with ``auto``, the most common colour of the picture's border band
(``background.py``'s band). Fully transparent pixels are never ink.

The box's edges are compared as fractions of the picture's width (left, right) and
height (top, bottom): ``left: [0, 0.05]`` says "the ink starts within the left 5%".
Ranges are closed. ``within`` names a region (``regions.py``: "left half", "top 20%")
that must cover the whole box. The evidence gives the box in pixels and as fractions.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from ...model import Blob, Document, Node
from ..registry import Resources, register_check
from ..result import CheckResult
from .edits import _judge_each, _Params
from .pixels import blob_rgba, box_evidence, common_colors, drawn, mask_box

Range = Annotated[list[float], Field(min_length=2, max_length=2)]
_EDGES = ("left", "top", "right", "bottom")


class InkExtentParams(_Params):
    ink: Literal["dark", "not_background"] = Field(
        default="dark", description="dark: pixels whose luma (0-255) is below dark_below; not_background: pixels farther than tolerance from the background colour"
    )
    dark_below: int = Field(default=128, ge=1, le=256, description="with ink dark: a pixel is ink when its luma is strictly below this (OSWorld: 128)")
    background: str = Field(default="auto", description="with ink not_background: the background colour (name, #rrggbb, rgb()), or auto: the border band's most common colour")
    tolerance: float = Field(default=10.0, ge=0, description="with ink not_background: CIEDE2000 distance from the background beyond which a pixel is ink")
    min_pixels: int = Field(default=1, ge=1, description="at least this many ink pixels (fewer: fails, 'no ink')")
    left: Range | None = Field(default=None, description="[min, max]: the ink box's left edge as a fraction of the width (0 = left side); [0, 0.05] = within the left 5%")
    right: Range | None = Field(default=None, description="[min, max]: the box's right edge as a fraction of the width")
    top: Range | None = Field(default=None, description="[min, max]: the box's top edge as a fraction of the height (0 = top)")
    bottom: Range | None = Field(default=None, description="[min, max]: the box's bottom edge as a fraction of the height")
    within: str | None = Field(default=None, description="a named region ('left half', 'top 20%') that must cover the whole ink box")

    @model_validator(mode="after")
    def _valid(self) -> InkExtentParams:
        for edge in _EDGES:
            bounds = getattr(self, edge)
            if bounds is not None and not 0 <= bounds[0] <= bounds[1] <= 1:
                raise ValueError(f"{edge} must be [min, max] with 0 <= min <= max <= 1, got {list(bounds)}")
        if self.within is not None:
            from ..regions import parse_region

            parse_region(self.within)  # an unknown region is a rubric error, at load
        if self.ink == "not_background" and self.background != "auto":
            from ..color import to_hex

            to_hex(self.background)
        return self


def ink_mask(rgba: Any, p: InkExtentParams) -> tuple[Any, dict[str, Any]]:
    """The ink pixels of an ``h x w x 4`` picture, and how ink was decided (evidence)."""
    from .pixels import border_mask, color_distance, luma

    opaque = drawn(rgba)
    if p.ink == "dark":
        return (luma(rgba) < p.dark_below) & opaque, {"ink": f"luma < {p.dark_below}"}
    if p.background == "auto":
        band, _ = border_mask(rgba, 0.05)
        found = common_colors(rgba, band, 1)
        if not found:
            return opaque & False, {"ink": "not the background", "background": None, "reason": "the border band is fully transparent"}
        background, source = found[0][0], "the border band's most common colour"
    else:
        from ..color import to_hex

        background, source = to_hex(p.background), "given"
    mask = (color_distance(rgba, background) > p.tolerance) & opaque
    return mask, {"ink": f"farther than dE2000 {p.tolerance} from the background", "background": background, "background_from": source}


@register_check(
    "image_ink_extent",
    mechanism="geometric",
    params=InkExtentParams,
    example={"left": [0, 0.05]},
)
def image_ink_extent(doc: Document, p: InkExtentParams, resources: Resources) -> CheckResult:
    """The bounding box of the target picture's ink (dark or non-background pixels) has its edges within given fractions, or lies in a region.

    OSWorld's ``check_textbox_on_leftside`` is ``{left: [0, 0.05]}``: the leftmost dark
    pixel within the left 5% of the width. A picture with fewer than ``min_pixels`` ink
    pixels fails ("no ink"); an undecodable one is an error.

    >>> InkExtentParams.model_validate({"left": [0, 0.05]}).left
    [0.0, 0.05]
    """
    from ..regions import parse_region

    region = parse_region(p.within).region if p.within is not None else None

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        rgba = blob_rgba(blob)
        h, w = rgba.shape[:2]
        mask, how = ink_mask(rgba, p)
        count = int(mask.sum())
        row: dict[str, Any] = {**how, "ink_pixels": count, "size_px": [w, h]}
        box = mask_box(mask) if count >= p.min_pixels else None
        if box is None:
            return {**row, "ok": False, "reason": how.get("reason") or f"no ink: {count} pixel(s) with {how['ink']} (need {p.min_pixels})"}
        ev = box_evidence(box, w, h)
        fraction = ev["fraction"]
        edge_value = {"left": fraction["x0"], "top": fraction["top"], "right": fraction["x1"], "bottom": fraction["bottom"]}
        failures = []
        for edge in _EDGES:
            bounds = getattr(p, edge)
            if bounds is not None and not bounds[0] <= edge_value[edge] <= bounds[1]:
                failures.append(f"{edge} edge at {edge_value[edge]:.1%} is outside [{bounds[0]:.1%}, {bounds[1]:.1%}]")
        if region is not None:
            covered = region.x0 <= box[0] / w and box[2] / w <= region.x1 and region.top <= box[1] / h and box[3] / h <= region.bottom
            if not covered:
                failures.append(f"the box is not inside {p.within!r} ({region.to_dict()})")
        return {**row, "ok": not failures, "box": ev, "failures": failures}

    def describe(r: dict[str, Any]) -> str:
        f = r["box"]["fraction"]
        text = f"ink box {r['box']['px']} px (x {f['x0']:.1%}-{f['x1']:.1%}, y {f['top']:.1%}-{f['bottom']:.1%})"
        return text + (f": {'; '.join(r['failures'])}" if r["failures"] else "")

    asserted = {edge: list(getattr(p, edge)) for edge in _EDGES if getattr(p, edge) is not None}
    evidence: dict[str, Any] = {"ink": p.ink, "edges": asserted, "within": p.within, "min_pixels": p.min_pixels}
    res = _judge_each("image_ink_extent", doc, p, judge, evidence, describe)
    res.mechanism = "geometric"
    return res
