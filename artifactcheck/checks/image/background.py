"""``image_background``: the background of a picture is a colour ("make the background
green", "a white background"), judged from its pixels.

The background is the picture's border band: the pixels within ``band`` of its four
edges (a share of the shorter side). That is where a subject photographed or drawn in
the middle is not, and what a person looks at to say "the background is green"; it is
also the region OSWorld's own evaluators sample (a 20 px border, or the corners). Fully
transparent pixels are left out: a transparent canvas has no colour.

A pixel matches when it is within ``tolerance`` (CIEDE2000, computed on the whole band at
once with scikit-image) of the expected colour, or, with ``dominant``, when that RGB
channel exceeds both others by ``margin`` (OSWorld's "more green than red or blue"). The
step passes when at least ``min_share`` of the band's pixels match; the evidence gives the
share, the band's mean colour and its nearest palette name, so a near miss is visible.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, model_validator

from ...model import Blob, Document, Node
from ..registry import Resources, register_check
from ..result import CheckResult
from .edits import _judge_each, _Params, _r
from .pixels import blob_rgba, border_mask, color_distance

if TYPE_CHECKING:
    import numpy.typing as npt

Channel = Literal["red", "green", "blue"]
_CHANNEL = {"red": 0, "green": 1, "blue": 2}


class BackgroundParams(_Params):
    expected: str | None = Field(
        default=None, description="the background colour: a name ('green', 'light gray 2'), #rrggbb or rgb(); or use dominant"
    )
    tolerance: float = Field(default=10.0, ge=0, description="CIEDE2000 distance a background pixel may be from expected")
    dominant: Channel | None = Field(
        default=None, description="instead of expected: the background pixels' red, green or blue channel exceeds both others by margin"
    )
    margin: int = Field(default=0, ge=0, le=255, description="with dominant: by how much (0-255) the channel must exceed the others")
    band: float = Field(default=0.05, gt=0, le=0.5, description="width of the border band, as a share of the shorter side")
    min_share: float = Field(default=0.9, gt=0, le=1, description="share of the band's (non-transparent) pixels that must match")

    @model_validator(mode="after")
    def _one_rule(self) -> BackgroundParams:
        if (self.expected is None) == (self.dominant is None):
            raise ValueError("give expected (a colour) or dominant (red, green or blue), not both")
        if self.expected is not None:
            from ..color import to_hex

            to_hex(self.expected)  # a colour nobody knows is a rubric error, at load
        return self


def _band_pixels(blob: Blob, band: float) -> tuple[npt.NDArray[Any], int]:
    """The RGB pixels (n x 3, uint8) of the border band that are not fully transparent."""
    rgba = blob_rgba(blob)
    mask, k = border_mask(rgba, band)
    return rgba[mask][:, :3], k


def _matching(pixels: npt.NDArray[Any], p: BackgroundParams) -> npt.NDArray[Any]:
    """A boolean per pixel: it has the expected background colour."""
    import numpy as np

    if p.dominant is not None:
        rgb = pixels.astype(np.int16)
        c = _CHANNEL[p.dominant]
        others = [i for i in range(3) if i != c]
        return (rgb[:, c] > rgb[:, others[0]] + p.margin) & (rgb[:, c] > rgb[:, others[1]] + p.margin)
    from ..color import to_hex

    assert p.expected is not None
    matching: npt.NDArray[Any] = color_distance(pixels, to_hex(p.expected)) <= p.tolerance
    return matching


@register_check(
    "image_background",
    mechanism="tolerance",
    params=BackgroundParams,
    example={"expected": "green", "tolerance": 12},
)
def image_background(doc: Document, p: BackgroundParams, resources: Resources) -> CheckResult:
    """The target picture's background (its border band) is the expected colour, or dominated by one RGB channel.

    At least ``min_share`` of the non-transparent pixels within ``band`` of the edges
    must match. A picture whose band is all transparent fails ("no background pixels").
    Pair it with ``image_similar`` when the subject must be kept.
    """
    from ..color import format_color, nearest_named

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        pixels, k = _band_pixels(blob, p.band)
        if len(pixels) == 0:
            return {"ok": False, "band_px": k, "reason": "no background pixels: the border band is fully transparent"}
        share = float(_matching(pixels, p).mean())
        mean = pixels.mean(axis=0)
        mean_hex = format_color("#" + "".join(f"{round(float(v)):02x}" for v in mean))
        name, distance = nearest_named(mean_hex)
        return {
            "ok": share >= p.min_share,
            "share_matching": _r(share),
            "band_px": k,
            "band_pixels": len(pixels),
            "band_mean": mean_hex,
            "band_mean_nearest": {"name": name.name, "hex": name.hex, "delta_e": _r(distance, 2)},
        }

    rule = f"within dE2000 {p.tolerance} of {p.expected!r}" if p.expected is not None else f"{p.dominant}-dominant (margin {p.margin})"
    evidence: dict[str, Any] = {"rule": rule, "band": p.band, "min_share": p.min_share}
    return _judge_each(
        "image_background", doc, p, judge, evidence,
        lambda r: f"{r['share_matching']:.0%} of the border band is {rule} (need {p.min_share:.0%}); band mean {r['band_mean']} ~ {r['band_mean_nearest']['name']}",
    )
