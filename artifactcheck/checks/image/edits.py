"""Image-edit checks (mechanism ``tolerance``): how the artifact's picture relates to a
reference picture — the same picture (SSIM), the picture made brighter / darker / more
contrasted / more saturated / sharper, mirrored or rotated — and what the picture is as a
file: its mode (palette), its pixel size, its size in bytes.

They work on any image node (``target``, default every ``image``): a standalone image
file's page picture, a picture in a deck or a PDF. Pixels are decoded from the blob store
within the ``image_pixels`` budget; measurements are defined in ``measure.py``. The
reference is a file resolved against ``Resources.assets_dir`` like ``image_matches``.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ...model import Blob, Document, Node
from ..geometry import result
from ..registry import Resources, register_check
from ..result import CheckResult
from ..target import TargetSpec
from .match import Reference, _node_evidence, image_nodes, load_reference
from .measure import PROPERTIES, TRANSFORMS, decode_rgb, measure, ssim, structure, transformed

if TYPE_CHECKING:
    from PIL import Image

Property = Literal["brightness", "contrast", "saturation", "sharpness"]
Transform = Literal["mirror_horizontal", "mirror_vertical", "rotate_90", "rotate_180", "rotate_270"]


class _Params(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec = Field(default="image", validate_default=True)
    quantifier: Literal["all", "any"] = Field(default="all", description="every target image must pass, or one")


class _RefParams(_Params):
    reference: str = Field(description="the reference image file, relative to Resources.assets_dir")


def _ref_pixels(ref: Reference) -> Image.Image:
    return decode_rgb(ref.data, what=f"reference {ref.path.name}")


def _blob_pixels(blob: Blob) -> Image.Image:
    assert blob.data is not None
    return decode_rgb(blob.data, what=f"image {blob.name or blob.sha256[:12]}")


def _judge_each(
    name: str,
    doc: Document,
    p: _Params,
    judge: Callable[[Node, Blob], dict[str, Any]],
    evidence: dict[str, Any],
    describe: Callable[[dict[str, Any]], str],
) -> CheckResult:
    """Run ``judge`` on every target image with stored bytes; rows need ``ok``. Images
    without bytes are listed and count as not passing; no target at all fails."""
    rows: list[dict[str, Any]] = []
    for node, blob in image_nodes(doc, p.target):
        row = _node_evidence(node, blob)
        if blob is None or blob.data is None:
            row.update(ok=False, reason="no stored image bytes for this node")
        else:
            row.update(judge(node, blob))
        rows.append(row)
    evidence["images"] = rows[:30]
    if not rows:
        return result(name, passed=False, explanation=f"no image matches {p.target.describe()}", evidence=evidence, mechanism="tolerance")
    passes = sum(bool(r["ok"]) for r in rows)
    passed = passes == len(rows) if p.quantifier == "all" else passes > 0
    shown = next((r for r in rows if not r["ok"]), rows[0]) if not passed else next(r for r in rows if r["ok"])
    detail = describe(shown) if "reason" not in shown else shown["reason"]
    explanation = f"{passes} of {len(rows)} image(s) pass; {shown['id']}: {detail}"
    score = passes / len(rows) if p.quantifier == "all" else float(passed)
    return result(name, passed=passed, score=score, explanation=explanation, evidence=evidence, mechanism="tolerance")


def _r(value: float | None, digits: int = 4) -> float | None:
    return None if value is None else round(value, digits)


# -- image_similar -------------------------------------------------------------------------


class SimilarParams(_RefParams):
    min_ssim: float = Field(default=0.9, ge=-1, le=1, description="structural similarity (RGB) the image must reach, -1..1")
    resize: bool = Field(default=False, description="compare at the reference's size when the sizes differ (else a size difference fails)")
    crop_transparent: bool = Field(
        default=False,
        description="first crop the target image to the bounding box of its pixels that are not fully transparent "
        "(a picture exported on a transparent canvas; with resize, OSWorld's check_structure_sim_resized); "
        "an image without transparency is unchanged, a fully transparent one fails",
    )


@register_check(
    "image_similar",
    mechanism="tolerance",
    params=SimilarParams,
    example={"reference": "expected.png", "min_ssim": 0.9},
)
def image_similar(doc: Document, p: SimilarParams, resources: Resources) -> CheckResult:
    """The target image is structurally similar to a reference image: SSIM (scikit-image, RGB) >= min_ssim.

    Images of different pixel sizes fail ("not comparable") unless ``resize`` is set,
    then the target is resized to the reference's size first; ``crop_transparent`` crops
    it to its non-transparent part before that. SSIM is 1 for identical
    pixels; re-encoding as JPEG keeps it above ~0.95, a different picture is far lower.
    """
    ref = load_reference(p.reference, resources)
    ref_img = _ref_pixels(ref)

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        from PIL import Image

        row: dict[str, Any] = {}
        if p.crop_transparent:
            from ...model.blobs import decode_image

            assert blob.data is not None
            rgba = decode_image(blob.data, mode="RGBA", what=f"image {blob.name or blob.sha256[:12]}")
            box = rgba.getchannel("A").getbbox()
            if box is None:
                return {"ok": False, "ssim": None, "reason": "every pixel is transparent: nothing to compare"}
            if box != (0, 0, *rgba.size):
                row["cropped_to_px"] = list(box)
            img = rgba.crop(box).convert("RGB")
        else:
            img = _blob_pixels(blob)
        resized = False
        if p.resize and img.size != ref_img.size:
            img, resized = img.resize(ref_img.size, Image.Resampling.LANCZOS), True
        value = ssim(img, ref_img)
        if value is None:
            return {"ok": False, "ssim": None, "reason": f"sizes differ ({img.size[0]}x{img.size[1]} vs reference {ref_img.size[0]}x{ref_img.size[1]} px): not comparable without resize"}
        return {"ok": value >= p.min_ssim, "ssim": _r(value), "resized": resized, **row}

    evidence: dict[str, Any] = {"reference": ref.evidence(), "min_ssim": p.min_ssim}
    return _judge_each("image_similar", doc, p, judge, evidence, lambda r: f"SSIM {r['ssim']} vs min {p.min_ssim}")


# -- image_adjusted ------------------------------------------------------------------------


class AdjustedParams(_RefParams):
    property: Property = Field(description="brightness (mean luma), contrast (luma std), saturation (mean HSV S), sharpness (Laplacian variance)")
    direction: Literal["increased", "decreased"] = Field(description="which way the property must have moved from the reference")
    min_change: float = Field(default=0.02, ge=0, description="relative change the property must show, as a fraction of the reference's value (0.02 = 2%)")
    min_structure: float | None = Field(
        default=0.7, ge=-1, le=1,
        description="the picture must stay the same: SSIM of the standardised lumas >= this (None: not checked)",
    )


@register_check(
    "image_adjusted",
    mechanism="tolerance",
    params=AdjustedParams,
    example={"reference": "original.png", "property": "brightness", "direction": "decreased"},
)
def image_adjusted(doc: Document, p: AdjustedParams, resources: Resources) -> CheckResult:
    """The target image is the reference picture with a property increased or decreased: brightness, contrast, saturation or sharpness.

    Passes when ``(value - reference) / reference`` moves in ``direction`` by at least
    ``min_change`` and (``min_structure``) the picture's structure is kept: SSIM of the
    two standardised lumas, which a brightness or contrast change alone leaves near 1 but
    a different picture does not. A target of another size is compared at the
    reference's size (the size is ``image_pixel_size``'s question).
    """
    ref = load_reference(p.reference, resources)
    ref_img = _ref_pixels(ref)
    ref_value = measure(ref_img, p.property)

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        from PIL import Image

        img = _blob_pixels(blob)
        value = measure(img, p.property)
        change = (value - ref_value) / ref_value if ref_value else (0.0 if value == ref_value else float("inf"))
        moved = change >= p.min_change if p.direction == "increased" else change <= -p.min_change
        row: dict[str, Any] = {"value": _r(value), "reference_value": _r(ref_value), "relative_change": _r(change), "moved": moved}
        ok = moved
        if p.min_structure is not None:
            # The same picture at another size is still the same picture: compare at the
            # reference's size (a size requirement is image_pixel_size's job).
            same_size = img if img.size == ref_img.size else img.resize(ref_img.size, Image.Resampling.LANCZOS)
            kept = structure(same_size, ref_img)
            row["structure"] = _r(kept)
            row["structure_resized"] = same_size is not img
            if kept is None:
                row["reason"] = "the image is too small to compare structure (under 7 px)"
                ok = False
            else:
                ok = ok and kept >= p.min_structure
        row["ok"] = ok
        return row

    def describe(r: dict[str, Any]) -> str:
        text = f"{p.property} {r['reference_value']} -> {r['value']} ({r['relative_change']:+.1%}; need {p.direction} by >= {p.min_change:.0%})"
        if p.min_structure is not None:
            text += f", structure {r.get('structure')} (need >= {p.min_structure})"
        return text

    evidence: dict[str, Any] = {"reference": ref.evidence(), "property": p.property, "direction": p.direction, "min_change": p.min_change, "min_structure": p.min_structure}
    return _judge_each("image_adjusted", doc, p, judge, evidence, describe)


# -- image_transformed ---------------------------------------------------------------------


class TransformedParams(_RefParams):
    transform: Transform = Field(description="how the reference must have been turned: mirror_horizontal (left-right), mirror_vertical, rotate_90/180/270 (clockwise)")
    min_ssim: float = Field(default=0.9, ge=-1, le=1, description="SSIM of the target with the transformed reference")
    as_displayed: bool = Field(
        default=True,
        description="judge the picture as the page shows it: its own flip and right-angle rotation applied (false: the stored pixels)",
    )


def displayed_turns(node: Node) -> list[str]:
    """The turns (``transformed`` names, in order) that take a picture's stored pixels to
    how its page draws them: mirrors first, then the clockwise rotation, as OOXML applies
    a frame's ``flipH``/``flipV`` and ``rot``. Rotations that are not a right angle are
    left out (no transform of the stored pixels shows them)."""
    attrs = node.attrs
    if "mirrored_drawn" in attrs:  # a flipped group around it (pptx): the whole transform's turn
        drawn = attrs.get("rotation_drawn")
        return (["mirror_horizontal"] if attrs["mirrored_drawn"] is True else []) + _quarter(drawn)
    flip = attrs.get("flip")  # xlsx drawings: "h", "v", "hv"
    turns: list[str] = []
    if attrs.get("flip_h") is True or (isinstance(flip, str) and "h" in flip):
        turns.append("mirror_horizontal")
    if attrs.get("flip_v") is True or (isinstance(flip, str) and "v" in flip):
        turns.append("mirror_vertical")
    return turns + _quarter(attrs.get("rotation_effective", attrs.get("rotation")))


def _quarter(angle: object) -> list[str]:
    """``rotate_90``/``_180``/``_270`` for a clockwise angle within 0.5° of one, else none."""
    if not isinstance(angle, (int, float)) or isinstance(angle, bool):
        return []
    quarter = round(float(angle) / 90.0)
    if abs(float(angle) - 90.0 * quarter) < 0.5 and quarter % 4:
        return [f"rotate_{90 * (quarter % 4)}"]
    return []


@register_check(
    "image_transformed",
    mechanism="tolerance",
    params=TransformedParams,
    example={"reference": "original.png", "transform": "mirror_horizontal"},
)
def image_transformed(doc: Document, p: TransformedParams, resources: Resources) -> CheckResult:
    """The target image is the reference mirrored or rotated: SSIM with the transformed reference >= min_ssim, and closer to it than to any other turn.

    Every candidate (unchanged, both mirrors, three clockwise rotations) is scored and
    listed in the evidence, so a failure says what was done instead ("rotate_270 would
    match: SSIM 0.99"). The picture is judged as drawn: a slide picture whose frame is
    flipped or turned by a right angle is compared after the same turns
    (``display_turns`` in the evidence; ``as_displayed: false`` judges the stored pixels).
    """
    ref = load_reference(p.reference, resources)
    ref_img = _ref_pixels(ref)

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        from PIL import Image

        img = _blob_pixels(blob)
        turns = displayed_turns(node) if p.as_displayed else []
        for turn in turns:  # a python-pptx `pic.rotation = 90` or flipH shows the turned picture
            img = transformed(img, turn)
        def score(t: str) -> float | None:
            # The same picture turned and also resized (an agent sets a new width) is
            # still the turned picture: compare at the transformed reference's size.
            target = transformed(ref_img, t)
            same = img if img.size == target.size else img.resize(target.size, Image.Resampling.LANCZOS)
            return _r(ssim(same, target))

        scores = {t: score(t) for t in TRANSFORMS}
        wanted = scores[p.transform]
        best = max((t for t in scores if scores[t] is not None), key=lambda t: scores[t] or -2.0, default=None)
        ok = wanted is not None and wanted >= p.min_ssim and best == p.transform
        return {"ok": ok, "ssim": wanted, "candidates": scores, "best": best, "display_turns": turns, "resized": img.size != ref_img.size}

    def describe(r: dict[str, Any]) -> str:
        text = f"SSIM with {p.transform} {r['ssim']} (need >= {p.min_ssim})"
        if r["best"] != p.transform and r["best"] is not None:
            text += f"; {r['best']} fits best (SSIM {r['candidates'][r['best']]})"
        return text

    evidence: dict[str, Any] = {"reference": ref.evidence(), "transform": p.transform, "min_ssim": p.min_ssim}
    return _judge_each("image_transformed", doc, p, judge, evidence, describe)


# -- image_mode ----------------------------------------------------------------------------


class ModeParams(_Params):
    mode: Literal["P", "RGB", "RGBA", "L", "LA", "1", "CMYK", "I", "F", "PA", "I;16"] = Field(
        description="Pillow mode the stored image must have: P = palette (indexed colour), L = greyscale, 1 = bilevel"
    )


@register_check(
    "image_mode",
    mechanism="exact",
    params=ModeParams,
    example={"mode": "P"},
)
def image_mode(doc: Document, p: ModeParams, resources: Resources) -> CheckResult:
    """The target image is stored in a colour mode: P (palette / indexed), RGB, RGBA, L (greyscale), 1 (bilevel), CMYK.

    Read from the image file's header (the stored image, not how it looks): a PNG saved
    as "indexed" is ``P`` even if it holds only grey.
    """

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        from PIL import Image

        assert blob.data is not None
        with Image.open(io.BytesIO(blob.data)) as img:
            mode, fmt = img.mode, img.format
        out: dict[str, Any] = {"ok": mode == p.mode, "mode": mode, "format": fmt}
        if mode == "P" and p.mode == "P":
            with Image.open(io.BytesIO(blob.data)) as img:
                palette = img.getpalette() or []
            out["palette_colours"] = len(palette) // 3
        return out

    res = _judge_each("image_mode", doc, p, judge, {"mode": p.mode}, lambda r: f"mode {r['mode']} ({r['format']}), expected {p.mode}")
    res.mechanism = "exact"
    return res


# -- image_pixel_size ----------------------------------------------------------------------


class PixelSizeParams(_Params):
    width: int | None = Field(default=None, ge=1, description="exact width in pixels")
    height: int | None = Field(default=None, ge=1, description="exact height in pixels")
    min_width: int | None = Field(default=None, ge=1, description="stored picture at least this many pixels wide")
    max_width: int | None = Field(default=None, ge=1, description="stored picture at most this many pixels wide")
    min_height: int | None = Field(default=None, ge=1, description="stored picture at least this many pixels high")
    max_height: int | None = Field(default=None, ge=1, description="stored picture at most this many pixels high")
    reference: str | None = Field(default=None, description="compare with this image's pixel size (see relation)")
    relation: Literal["same", "smaller", "larger", "same_aspect"] = Field(
        default="same", description="with a reference: same size, strictly smaller/larger in both sides, or the same aspect ratio (within 1%)"
    )

    @model_validator(mode="after")
    def _something(self) -> PixelSizeParams:
        if all(v is None for v in (self.width, self.height, self.min_width, self.max_width, self.min_height, self.max_height, self.reference)):
            raise ValueError("image_pixel_size needs a bound: width/height, min_/max_width/height, or a reference")
        return self


@register_check(
    "image_pixel_size",
    mechanism="exact",
    params=PixelSizeParams,
    example={"width": 800, "height": 600},
)
def image_pixel_size(doc: Document, p: PixelSizeParams, resources: Resources) -> CheckResult:
    """The target image has a pixel size: exact width/height, bounds, or relative to a reference (same, smaller, larger, same aspect).

    Pixels of the stored image (not its displayed size in points: see ``image_size``).
    """
    ref_size = load_reference(p.reference, resources).size if p.reference else None

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        w, h = blob.width_px, blob.height_px
        if w is None or h is None:
            return {"ok": False, "reason": "pixel size unknown (undecodable image)"}
        fails = []
        for label, value, lo, hi in (("width", w, p.min_width, p.max_width), ("height", h, p.min_height, p.max_height)):
            exact = p.width if label == "width" else p.height
            if exact is not None and value != exact:
                fails.append(f"{label} {value} != {exact}")
            if lo is not None and value < lo:
                fails.append(f"{label} {value} < {lo}")
            if hi is not None and value > hi:
                fails.append(f"{label} {value} > {hi}")
        if ref_size is not None:
            rw, rh = ref_size
            ok_rel = {
                "same": (w, h) == (rw, rh),
                "smaller": w < rw and h < rh,
                "larger": w > rw and h > rh,
                "same_aspect": abs((w / h) / (rw / rh) - 1) <= 0.01,
            }[p.relation]
            if not ok_rel:
                fails.append(f"{w}x{h} is not {p.relation.replace('_', ' ')} as the reference's {rw}x{rh}")
        return {"ok": not fails, "width_px": w, "height_px": h, "failures": fails}

    def describe(r: dict[str, Any]) -> str:
        return f"{r['width_px']}x{r['height_px']} px" + (f": {'; '.join(r['failures'])}" if r["failures"] else "")

    bounds = {k: v for k, v in p.model_dump(exclude={"target", "quantifier"}).items() if v is not None}
    res = _judge_each("image_pixel_size", doc, p, judge, {"bounds": bounds, "reference_px": list(ref_size) if ref_size else None}, describe)
    res.mechanism = "exact"
    return res


# -- image_file_size -----------------------------------------------------------------------


class FileSizeParams(_Params):
    max_bytes: int | None = Field(default=None, ge=0, description="at most this many bytes")
    min_bytes: int | None = Field(default=None, ge=0, description="the stored file is at least this many bytes")
    reference: str | None = Field(default=None, description="compare with this file's size")
    max_ratio: float | None = Field(default=None, gt=0, description="with a reference: size / reference size at most this (0.5 = half)")

    @model_validator(mode="after")
    def _something(self) -> FileSizeParams:
        if self.max_bytes is None and self.min_bytes is None and self.max_ratio is None:
            raise ValueError("image_file_size needs max_bytes, min_bytes, or a reference with max_ratio")
        if self.max_ratio is not None and self.reference is None:
            raise ValueError("max_ratio needs a reference")
        return self


@register_check(
    "image_file_size",
    mechanism="exact",
    params=FileSizeParams,
    example={"max_bytes": 200000},
)
def image_file_size(doc: Document, p: FileSizeParams, resources: Resources) -> CheckResult:
    """The target image's stored bytes are within bounds (a standalone image: the file itself), or at most max_ratio of a reference file.

    Sizes are of the image as stored in the artifact (a picture in a deck: its media
    part; in a PDF: the embedded stream when it is a whole JPEG, else our PNG of its
    pixels — see design/pdf.md).
    """
    ref_bytes = len(load_reference(p.reference, resources).data) if p.reference else None

    def judge(node: Node, blob: Blob) -> dict[str, Any]:
        size = blob.size_bytes
        fails = []
        if p.max_bytes is not None and size > p.max_bytes:
            fails.append(f"{size} > {p.max_bytes} bytes")
        if p.min_bytes is not None and size < p.min_bytes:
            fails.append(f"{size} < {p.min_bytes} bytes")
        ratio = size / ref_bytes if ref_bytes else None
        if p.max_ratio is not None and ratio is not None and ratio > p.max_ratio:
            fails.append(f"{ratio:.2f}x the reference (max {p.max_ratio}x)")
        return {"ok": not fails, "bytes": size, "ratio_to_reference": _r(ratio), "failures": fails}

    def describe(r: dict[str, Any]) -> str:
        return f"{r['bytes']} bytes" + (f": {'; '.join(r['failures'])}" if r["failures"] else "")

    res = _judge_each("image_file_size", doc, p, judge, {"max_bytes": p.max_bytes, "min_bytes": p.min_bytes, "reference_bytes": ref_bytes, "max_ratio": p.max_ratio}, describe)
    res.mechanism = "exact"
    return res


__all__ = ["PROPERTIES", "image_adjusted", "image_file_size", "image_mode", "image_pixel_size", "image_similar", "image_transformed"]
