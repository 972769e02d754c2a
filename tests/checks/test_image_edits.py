"""Image-edit checks on real image files made the way an agent's image tool writes
them (Pillow edits saved as PNG/JPEG): each check passes on the edit it names and fails
on another edit, with the measurement that decided in the evidence."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageEnhance, ImageFilter

import artifactcheck
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.model import Document


def photo(seed: int = 7, size: tuple[int, int] = (480, 320)) -> Image.Image:
    """A deterministic 'photo': a colour gradient with shapes and fine texture."""
    rnd = random.Random(seed)
    w, h = size
    img = Image.new("RGB", size)
    img.putdata([(int(255 * x / w), int(160 + 60 * y / h) % 256, int(200 - 150 * x / w)) for y in range(h) for x in range(w)])
    draw = ImageDraw.Draw(img)
    for _ in range(25):
        x, y = rnd.randint(0, w), rnd.randint(0, h)
        r = rnd.randint(10, 60)
        colour = tuple(rnd.randint(0, 255) for _ in range(3))
        (draw.ellipse if rnd.random() < 0.5 else draw.rectangle)([x, y, x + r, y + r], fill=colour)
    for x in range(0, w, 6):  # fine stripes: something for sharpness to see
        draw.line([(x, h - 40), (x, h)], fill=(30, 30, 30))
    return img


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("edits")
    base = photo()
    variants = {
        "original": base,
        "darker": ImageEnhance.Brightness(base).enhance(0.7),
        "brighter": ImageEnhance.Brightness(base).enhance(1.3),
        "more_contrast": ImageEnhance.Contrast(base).enhance(1.5),
        "more_saturated": ImageEnhance.Color(base).enhance(1.8),
        "blurred": base.filter(ImageFilter.GaussianBlur(2)),
        "sharpened": base.filter(ImageFilter.UnsharpMask(radius=2, percent=200)),
        "mirrored": base.transpose(Image.Transpose.FLIP_LEFT_RIGHT),
        "rotated_cw": base.transpose(Image.Transpose.ROTATE_270),  # 90 degrees clockwise
        "rotated_smaller": base.transpose(Image.Transpose.ROTATE_270).resize((base.height // 2, base.width // 2)),
        "mirrored_larger": base.transpose(Image.Transpose.FLIP_LEFT_RIGHT).resize((base.width * 2, base.height * 2)),
        "other": Image.merge("RGB", photo(seed=99).split()[::-1]).transpose(Image.Transpose.FLIP_TOP_BOTTOM),
        "palette": base.convert("P", palette=Image.Palette.ADAPTIVE, colors=64),
        "small": base.resize((240, 160)),
    }
    out = {}
    for name, img in variants.items():
        out[name] = tmp / f"{name}.png"
        img.save(out[name])
    out["jpeg"] = tmp / "original_q70.jpg"
    base.save(out["jpeg"], quality=70)
    return out


def _doc(files: dict[str, Path], name: str) -> Document:
    return artifactcheck.load(files[name])


def _run(files: dict[str, Path], name: str, check: str, params: dict[str, object]) -> artifactcheck.CheckResult:
    res = Resources(assets_dir=str(files["original"].parent))
    return run_check(check, _doc(files, name), {"reference": "original.png", **params} if check not in ("image_mode",) and "reference" not in params and check not in ("image_pixel_size", "image_file_size") else params, res)


def test_image_similar_passes_a_reencoded_copy_and_fails_another_picture(files: dict[str, Path]) -> None:
    ok = _run(files, "jpeg", "image_similar", {})
    assert ok.status == "pass" and ok.evidence["images"][0]["ssim"] > 0.9, ok.explanation
    bad = _run(files, "other", "image_similar", {})
    assert bad.status == "fail" and bad.evidence["images"][0]["ssim"] < 0.5, bad.explanation
    resized = _run(files, "small", "image_similar", {})
    assert resized.status == "fail" and "sizes differ" in resized.explanation
    assert _run(files, "small", "image_similar", {"resize": True}).status == "pass"


def test_image_similar_crops_a_transparent_canvas_like_check_structure_sim_resized(files: dict[str, Path]) -> None:
    folder = files["original"].parent

    def on_canvas(name: str, picture: Image.Image | None) -> Path:
        canvas = Image.new("RGBA", (700, 560), (0, 0, 0, 0))
        if picture is not None:
            canvas.paste(picture.convert("RGBA").resize((360, 240)), (150, 200))
        canvas.save(folder / name)
        return folder / name

    def run(path: Path, **params: object) -> artifactcheck.CheckResult:
        return run_check("image_similar", artifactcheck.load(path), {"reference": "original.png", **params},
                         Resources(assets_dir=str(folder)))

    placed = on_canvas("placed.png", photo())
    assert run(placed, resize=True).status == "fail"  # the empty canvas counts
    ok = run(placed, resize=True, crop_transparent=True)
    assert ok.status == "pass", ok.explanation
    assert ok.evidence["images"][0]["cropped_to_px"] == [150, 200, 510, 440]
    other = run(on_canvas("placed_other.png", Image.open(files["other"])), resize=True, crop_transparent=True)
    assert other.status == "fail"
    empty = run(on_canvas("empty.png", None), resize=True, crop_transparent=True)
    assert empty.status == "fail" and "transparent" in empty.explanation
    opaque = run(files["jpeg"], crop_transparent=True)  # no alpha: nothing cropped
    assert opaque.status == "pass" and "cropped_to_px" not in opaque.evidence["images"][0]


@pytest.mark.parametrize(
    ("prop", "direction", "passing", "failing"),
    [
        ("brightness", "decreased", "darker", "brighter"),
        ("brightness", "increased", "brighter", "darker"),
        ("contrast", "increased", "more_contrast", "original"),
        ("saturation", "increased", "more_saturated", "darker"),
        ("sharpness", "increased", "sharpened", "blurred"),
        ("sharpness", "decreased", "blurred", "sharpened"),
    ],
)
def test_image_adjusted_follows_the_edit(files: dict[str, Path], prop: str, direction: str, passing: str, failing: str) -> None:
    ok = _run(files, passing, "image_adjusted", {"property": prop, "direction": direction})
    assert ok.status == "pass", ok.explanation
    row = ok.evidence["images"][0]
    assert row["structure"] > 0.7  # the same picture
    bad = _run(files, failing, "image_adjusted", {"property": prop, "direction": direction})
    assert bad.status == "fail", bad.explanation


def test_image_adjusted_refuses_another_picture_even_if_darker(files: dict[str, Path], tmp_path: Path) -> None:
    ImageEnhance.Brightness(photo(seed=99)).enhance(0.5).save(tmp_path / "other_dark.png")
    doc = artifactcheck.load(tmp_path / "other_dark.png")
    res = Resources(assets_dir=str(files["original"].parent))
    r = run_check("image_adjusted", doc, {"reference": "original.png", "property": "brightness", "direction": "decreased"}, res)
    assert r.status == "fail" and r.evidence["images"][0]["moved"] is True and r.evidence["images"][0]["structure"] < 0.7


def test_image_transformed_names_the_turn_that_was_made(files: dict[str, Path]) -> None:
    assert _run(files, "mirrored", "image_transformed", {"transform": "mirror_horizontal"}).status == "pass"
    assert _run(files, "rotated_cw", "image_transformed", {"transform": "rotate_90"}).status == "pass"
    wrong = _run(files, "mirrored", "image_transformed", {"transform": "mirror_vertical"})
    assert wrong.status == "fail" and wrong.evidence["images"][0]["best"] == "mirror_horizontal", wrong.explanation
    same = _run(files, "original", "image_transformed", {"transform": "mirror_horizontal"})
    assert same.status == "fail" and same.evidence["images"][0]["best"] == "identity"
    # turned or mirrored and also resized (an agent sets a new width): still the turn
    small = _run(files, "rotated_smaller", "image_transformed", {"transform": "rotate_90"})
    assert small.status == "pass" and small.evidence["images"][0]["resized"], small.explanation
    assert _run(files, "mirrored_larger", "image_transformed", {"transform": "mirror_horizontal"}).status == "pass"
    assert _run(files, "rotated_smaller", "image_transformed", {"transform": "rotate_270"}).status == "fail"


def test_image_mode_sees_the_palette(files: dict[str, Path]) -> None:
    ok = _run(files, "palette", "image_mode", {"mode": "P"})
    assert ok.status == "pass" and ok.evidence["images"][0]["palette_colours"] >= 1
    assert _run(files, "original", "image_mode", {"mode": "P"}).status == "fail"


def test_image_pixel_size(files: dict[str, Path]) -> None:
    assert _run(files, "small", "image_pixel_size", {"width": 240, "height": 160}).status == "pass"
    assert _run(files, "original", "image_pixel_size", {"width": 240, "height": 160}).status == "fail"
    assert _run(files, "small", "image_pixel_size", {"reference": "original.png", "relation": "smaller"}).status == "pass"
    assert _run(files, "small", "image_pixel_size", {"reference": "original.png", "relation": "same_aspect"}).status == "pass"
    assert _run(files, "rotated_cw", "image_pixel_size", {"reference": "original.png", "relation": "same_aspect"}).status == "fail"


def test_image_pixel_size_against_a_reference_in_a_rubric(files: dict[str, Path]) -> None:
    """The evidence is JSON (the reference's size was a tuple, which a rubric's step report
    refused, stopping the whole scoring)."""
    from artifactcheck.rubric import check, rubric, score

    built = rubric("t", [check("same_size", "image_pixel_size", {"reference": "original.png"})])
    report = score(files["small"], built, assets=files["original"].parent)
    step = report.step("same_size")
    assert step.status == "fail" and step.evidence["reference_px"] == [480, 320], step.explanation


def test_image_file_size(files: dict[str, Path]) -> None:
    jpeg_bytes = files["jpeg"].stat().st_size
    png_bytes = files["original"].stat().st_size
    assert png_bytes < jpeg_bytes  # a smooth picture: PNG is the smaller file here
    assert _run(files, "original", "image_file_size", {"max_bytes": png_bytes}).status == "pass"
    assert _run(files, "jpeg", "image_file_size", {"max_bytes": png_bytes}).status == "fail"
    ratio = _run(files, "original", "image_file_size", {"reference": "original_q70.jpg", "max_ratio": 0.9})
    assert ratio.status == "pass" and ratio.evidence["images"][0]["ratio_to_reference"] < 0.9
    assert _run(files, "jpeg", "image_file_size", {"reference": "original.png", "max_ratio": 0.9}).status == "fail"


def test_parameters_are_validated(files: dict[str, Path]) -> None:
    r = _run(files, "original", "image_pixel_size", {})
    assert r.status == "error" and "needs a bound" in r.explanation
