"""image_ink_extent and image_color_blob on pictures drawn the way an editor or an agent's
Pillow script saves them (OSWorld's GIMP tasks: a text box dragged to the left edge, a
yellow triangle moved to the centre), loaded as standalone image files and as a picture
in a deck. Every expected value follows from the drawing: the text's x, the triangle's
vertices."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw, ImageFont

import artifactcheck
from artifactcheck.checks.registry import Resources, run_check

W, H = 400, 300
YELLOW = (255, 220, 0)


def text_box(x: int, *, size: tuple[int, int] = (W, H), bg: tuple[int, ...] = (255, 255, 255), ink: tuple[int, ...] = (0, 0, 0)) -> Image.Image:
    """A picture with a two-line caption whose left edge is at column ``x``."""
    mode = "RGBA" if len(bg) == 4 else "RGB"
    img = Image.new(mode, size, bg)
    draw = ImageDraw.Draw(img)
    font = ImageFont.load_default(size=24)
    draw.text((x, 120), "Hello GIMP", fill=ink, font=font)
    draw.text((x, 150), "text box", fill=ink, font=font)
    return img


def triangle(cx: int, cy: int, r: int = 40, *, img: Image.Image | None = None, fill: tuple[int, ...] = YELLOW) -> Image.Image:
    """An upright triangle whose vertices sit around ``(cx, cy)``, on white unless ``img``."""
    img = img if img is not None else Image.new("RGB", (W, H), (255, 255, 255))
    ImageDraw.Draw(img).polygon([(cx, cy - r), (cx - r, cy + r), (cx + r, cy + r)], fill=fill)
    return img


def save(img: Image.Image, path: Path, **kw: Any) -> Path:
    img.save(path, **kw)
    return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("inkblob")
    out: dict[str, Path] = {}
    out["left"] = save(text_box(8), tmp / "left.png")
    out["middle"] = save(text_box(150), tmp / "middle.png")
    out["left_jpg"] = save(text_box(8).convert("RGB"), tmp / "left.jpg", quality=60)
    out["blank"] = save(Image.new("RGB", (W, H), "white"), tmp / "blank.png")
    # a transparent canvas (stored (0, 0, 0, 0)) with the text in the middle
    out["transparent_text"] = save(text_box(150, bg=(0, 0, 0, 0), ink=(0, 0, 0, 255)), tmp / "transparent_text.png")
    # pale text on a dark-blue canvas: not "dark" ink, but unlike the background
    out["pale_on_blue"] = save(text_box(10, bg=(20, 40, 140), ink=(250, 240, 200)), tmp / "pale_on_blue.png")
    out["dot_black"] = save(Image.new("RGB", (1, 1), "black"), tmp / "dot_black.png")
    out["dot_white"] = save(Image.new("RGB", (1, 1), "white"), tmp / "dot_white.png")

    # the triangle task: a blue square as a distractor, the yellow triangle moved around
    def scene(cx: int, cy: int) -> Image.Image:
        img = Image.new("RGB", (W, H), (255, 255, 255))
        ImageDraw.Draw(img).rectangle([300, 20, 360, 80], fill=(30, 60, 200))
        return triangle(cx, cy, img=img)

    out["original"] = save(scene(80, 70), tmp / "original.png")
    out["centred"] = save(scene(200, 150), tmp / "centred.png")
    out["near_centre"] = save(scene(190, 140), tmp / "near_centre.png")  # 10 px off: 2.5% / 3.3%
    out["off_centre"] = save(scene(260, 150), tmp / "off_centre.png")  # 60 px right: 15%
    out["corner"] = save(scene(350, 250), tmp / "corner.png")
    out["centred_jpg"] = save(scene(200, 150), tmp / "centred.jpg", quality=70)
    out["original_2x"] = save(scene(80, 70).resize((2 * W, 2 * H), Image.Resampling.NEAREST), tmp / "original_2x.png")
    out["red"] = save(triangle(200, 150, fill=(220, 30, 30)), tmp / "red.png")
    # two yellow blobs: the big triangle in the middle, a small square in a corner
    two = triangle(200, 150)
    ImageDraw.Draw(two).rectangle([0, 0, 49, 49], fill=YELLOW)
    out["two_blobs"] = save(two, tmp / "two_blobs.png")
    out["transparent_triangle"] = save(triangle(200, 150, img=Image.new("RGBA", (W, H), (0, 0, 0, 0)), fill=(*YELLOW, 255)), tmp / "transparent_triangle.png")
    tiny = Image.new("RGB", (3, 3), "white")
    tiny.putpixel((1, 1), YELLOW)
    out["tiny"] = save(tiny, tmp / "tiny.png")
    return out


def _run(path: Path, name: str, params: dict[str, Any], assets: Path | None = None) -> artifactcheck.CheckResult:
    return run_check(name, artifactcheck.load(path), params, Resources(assets_dir=assets or path.parent))


def _row(res: artifactcheck.CheckResult) -> dict[str, Any]:
    row: dict[str, Any] = res.evidence["images"][0]
    return row


# -- image_ink_extent ------------------------------------------------------------------


def test_text_at_the_left_edge_passes_and_in_the_middle_fails(files: dict[str, Path]) -> None:
    left = _run(files["left"], "image_ink_extent", {"left": [0, 0.05]})
    assert left.status == "pass", left.explanation
    box = _row(left)["box"]
    assert 8 <= box["px"][0] <= 10 and box["fraction"]["x0"] < 0.05  # the glyphs start at the drawn x (+ side bearing)
    middle = _run(files["middle"], "image_ink_extent", {"left": [0, 0.05]})
    assert middle.status == "fail" and "left edge at 3" in middle.explanation, middle.explanation
    assert 150 <= _row(middle)["box"]["px"][0] <= 152
    assert _run(files["left_jpg"], "image_ink_extent", {"left": [0, 0.05]}).status == "pass"  # JPEG ringing stays near the glyphs


def test_the_box_against_every_edge_and_a_region(files: dict[str, Path]) -> None:
    row = _row(_run(files["middle"], "image_ink_extent", {}))
    _x0, top, x1, bottom = row["box"]["px"]
    assert 118 <= top <= 130 and 150 + 60 < x1 < W and bottom < 200  # two lines of 24 px text from y = 120
    assert _run(files["middle"], "image_ink_extent", {"top": [0.35, 0.45], "bottom": [0.5, 0.7]}).status == "pass"
    assert _run(files["middle"], "image_ink_extent", {"within": "center third"}).status == "fail"  # it runs past 2/3 of the width
    assert _run(files["left"], "image_ink_extent", {"within": "left half"}).status == "pass"
    assert _run(files["middle"], "image_ink_extent", {"within": "left half"}).status == "fail"


def test_a_blank_picture_has_no_ink(files: dict[str, Path]) -> None:
    res = _run(files["blank"], "image_ink_extent", {"left": [0, 0.05]})
    assert res.status == "fail" and "no ink" in res.explanation and _row(res)["ink_pixels"] == 0


def test_transparent_pixels_are_not_ink(files: dict[str, Path]) -> None:
    """OSWorld's L conversion reads the transparent (0, 0, 0, 0) canvas as black and
    passes this picture (its leftmost 'dark' pixel is x = 0); the text is in the middle."""
    res = _run(files["transparent_text"], "image_ink_extent", {"left": [0, 0.05]})
    assert res.status == "fail", res.explanation
    assert 150 <= _row(res)["box"]["px"][0] <= 152


def test_ink_unlike_the_background(files: dict[str, Path]) -> None:
    dark = _run(files["pale_on_blue"], "image_ink_extent", {"right": [0, 0.5]})
    assert dark.status == "fail" and _row(dark)["box"]["px"] == [0, 0, W, H]  # the dark-blue canvas is all "dark"
    res = _run(files["pale_on_blue"], "image_ink_extent", {"ink": "not_background", "left": [0, 0.05], "right": [0, 0.5]})
    assert res.status == "pass", res.explanation
    row = _row(res)
    assert row["background"] == "#14288c" and row["background_from"] == "the border band's most common colour"
    given = _run(files["pale_on_blue"], "image_ink_extent", {"ink": "not_background", "background": "#14288c", "left": [0, 0.05]})
    assert given.status == "pass" and _row(given)["box"] == row["box"]


def test_a_one_pixel_picture(files: dict[str, Path]) -> None:
    black = _run(files["dot_black"], "image_ink_extent", {"left": [0, 0.05]})
    assert black.status == "pass" and _row(black)["box"]["px"] == [0, 0, 1, 1]
    assert _run(files["dot_white"], "image_ink_extent", {"left": [0, 0.05]}).status == "fail"


def test_ink_parameters_are_checked_at_load(files: dict[str, Path]) -> None:
    doc = artifactcheck.load(files["left"])
    assert run_check("image_ink_extent", doc, {"left": [0.1, 0.05]}).status == "error"
    assert run_check("image_ink_extent", doc, {"within": "somewhere nice"}).status == "error"
    assert run_check("image_ink_extent", doc, {"ink": "not_background", "background": "blurple"}).status == "error"


# -- image_color_blob ------------------------------------------------------------------


def test_the_triangle_in_the_middle_within_five_percent(files: dict[str, Path]) -> None:
    params = {"color": "yellow", "tolerance": 20, "max_center_offset": 0.05}
    res = _run(files["centred"], "image_color_blob", params)
    assert res.status == "pass", res.explanation
    blob = _row(res)["blob"]
    assert blob["box"]["px"] == [160, 110, 241, 191]  # vertices (200, 110), (160, 190), (240, 190), edges inclusive
    # the centroid of a filled triangle is a third of the way up from its base: y = 190 - 80 / 3
    assert abs(blob["centroid_px"][0] - 200.5) < 0.5 and abs(blob["centroid_px"][1] - (190 - 80 / 3)) < 1.5
    assert blob["components"] == 1 and 3000 < blob["pixels"] < 3500  # area 80 * 80 / 2 = 3200
    assert _run(files["near_centre"], "image_color_blob", params).status == "pass"
    off = _run(files["off_centre"], "image_color_blob", params)
    assert off.status == "fail" and "15.1% x" in off.explanation, off.explanation
    assert _run(files["centred_jpg"], "image_color_blob", params).status == "pass"


def test_osworlds_auto_colour_is_the_second_most_common(files: dict[str, Path]) -> None:
    """check_triangle_position: background = most common colour, triangle = the next."""
    # the blue square (61 x 61 = 3721 px) outnumbers the triangle: auto takes the square,
    # as OSWorld's rule would, and the square is not in the middle
    res = _run(files["centred"], "image_color_blob", {"color": "auto", "tolerance": 0, "connected": False, "max_center_offset": 0.05})
    assert res.status == "fail" and _row(res)["color_hex"] == "#1e3cc8", res.explanation
    assert _row(res)["blob"]["pixels"] == 3721
    tri = _run(files["red"], "image_color_blob", {"color": "auto", "tolerance": 0, "max_center_offset": 0.05})
    assert tri.status == "pass" and _row(tri)["color_hex"] == "#dc1e1e"
    clear = _run(files["transparent_triangle"], "image_color_blob", {"color": "auto", "max_center_offset": 0.05})
    assert clear.status == "pass" and _row(clear)["color_hex"] == "#ffdc00", clear.explanation
    one = _run(files["blank"], "image_color_blob", {"color": "auto"})
    assert one.status == "fail" and "one colour" in one.explanation


def test_no_blob_of_the_colour_fails_and_says_what_is_there(files: dict[str, Path]) -> None:
    res = _run(files["red"], "image_color_blob", {"color": "yellow", "tolerance": 20})
    assert res.status == "fail" and "no blob of 'yellow'" in res.explanation
    assert "#ffffff" in res.explanation and "#dc1e1e" in res.explanation and _row(res)["matching_pixels"] == 0


def test_two_blobs_the_largest_counts_unless_not_connected(files: dict[str, Path]) -> None:
    params = {"color": "yellow", "tolerance": 20, "max_center_offset": 0.05}
    res = _run(files["two_blobs"], "image_color_blob", params)
    assert res.status == "pass", res.explanation
    blob = _row(res)["blob"]
    assert blob["components"] == 2 and blob["second_largest_pixels"] == 2500 and blob["box"]["px"][0] == 160
    union = _run(files["two_blobs"], "image_color_blob", {**params, "connected": False})
    assert union.status == "fail" and _row(union)["blob"]["pixels"] > 5500  # the square pulls the centroid to the corner


def test_a_transparent_canvas_and_a_tiny_picture(files: dict[str, Path]) -> None:
    clear = _run(files["transparent_triangle"], "image_color_blob", {"color": "yellow", "tolerance": 20, "max_center_offset": 0.05})
    assert clear.status == "pass" and _row(clear)["blob"]["components"] == 1
    assert _run(files["transparent_triangle"], "image_color_blob", {"color": "black", "tolerance": 20}).status == "fail"  # (0, 0, 0, 0) is not black
    tiny = _run(files["tiny"], "image_color_blob", {"color": "#ffdc00", "max_center_offset": 0.05})
    assert tiny.status == "pass" and _row(tiny)["blob"]["centroid_px"] == [1.5, 1.5] and _row(tiny)["blob"]["pixels"] == 1
    assert _run(files["tiny"], "image_color_blob", {"color": "#ffdc00", "min_pixels": 2}).status == "fail"


def test_moved_closer_to_the_centre_than_in_the_original(files: dict[str, Path]) -> None:
    """compare_triangle_positions: the original's triangle is at (80, 70)."""
    params = {"color": "yellow", "tolerance": 20, "reference": "original.png"}
    res = _run(files["centred"], "image_color_blob", params)
    assert res.status == "pass", res.explanation
    compared = _row(res)["compared"]
    # centroids a third of the way up from the base: (80.5, 110 - 80 / 3) and (200.5, 190 - 80 / 3)
    ref_distance, distance = math.hypot(200 - 80.5, 150 - (110 - 80 / 3)), math.hypot(0.5, 190 - 80 / 3 - 150)
    assert abs(compared["reference_center_distance_px"] - ref_distance) < 1.5
    assert abs(compared["gain_px"] - (ref_distance - distance)) < 2
    assert res.evidence["reference"]["blob"]["box"]["px"] == [40, 30, 121, 111]
    same = _run(files["original"], "image_color_blob", params)
    assert same.status == "fail" and _row(same)["compared"]["gain_px"] == 0.0
    away = _run(files["corner"], "image_color_blob", params)
    assert away.status == "fail" and "farther from the centre" in away.explanation
    assert _run(files["corner"], "image_color_blob", {**params, "relation": "farther_from_center"}).status == "pass"


def test_same_position_as_the_reference_and_a_reference_of_another_size(files: dict[str, Path]) -> None:
    params = {"color": "yellow", "tolerance": 20, "reference": "centred.png", "relation": "same_position"}
    assert _run(files["centred_jpg"], "image_color_blob", params).status == "pass"
    assert _run(files["near_centre"], "image_color_blob", params).status == "fail"  # 10 px = 2.5% > 2%
    scaled = _run(files["centred"], "image_color_blob", {"color": "yellow", "tolerance": 20, "reference": "original_2x.png"})
    assert scaled.status == "pass" and _row(scaled)["compared"]["reference_scaled_from_px"] == [2 * W, 2 * H]
    assert abs(_row(scaled)["compared"]["reference_centroid_px"][0] - _row(_run(files["centred"], "image_color_blob", {"color": "yellow", "tolerance": 20, "reference": "original.png"}))["compared"]["reference_centroid_px"][0]) < 1


def test_a_reference_without_the_blob_is_an_error(files: dict[str, Path]) -> None:
    res = _run(files["centred"], "image_color_blob", {"color": "yellow", "tolerance": 20, "reference": "red.png"})
    assert res.status == "error" and "red.png has no blob" in res.explanation


def test_a_picture_in_a_deck(files: dict[str, Path], tmp_path: Path) -> None:
    from pptx import Presentation
    from pptx.util import Inches

    deck = Presentation()
    slide = deck.slides.add_slide(deck.slide_layouts[6])
    slide.shapes.add_picture(str(files["centred"]), Inches(1), Inches(1), width=Inches(4))
    slide.shapes.add_picture(str(files["left"]), Inches(5), Inches(1), width=Inches(4))
    deck.save(str(tmp_path / "deck.pptx"))
    doc = artifactcheck.load(tmp_path / "deck.pptx")
    both = run_check("image_color_blob", doc, {"color": "yellow", "tolerance": 20, "max_center_offset": 0.05})
    assert both.status == "fail" and both.score == 0.5  # the text-box picture has no yellow
    some = run_check("image_color_blob", doc, {"color": "yellow", "tolerance": 20, "max_center_offset": 0.05, "quantifier": "any"})
    assert some.status == "pass"
    ink = run_check("image_ink_extent", doc, {"target": {"selector": "image", "nth": 1}, "left": [0, 0.05]})
    assert ink.status == "pass", ink.explanation


def test_an_undecodable_picture_is_an_error(files: dict[str, Path]) -> None:
    doc = artifactcheck.load(files["centred"])
    (sha,) = doc.blobs
    doc.blobs[sha] = doc.blobs[sha].model_copy(update={"data": b"\x89PNG\r\n\x1a\n truncated"})
    for name, params in (("image_color_blob", {"color": "yellow"}), ("image_ink_extent", {"left": [0, 0.05]})):
        res = run_check(name, doc, params)
        assert res.status == "error" and "cannot decode" in res.explanation, (name, res.explanation)
