"""Image checks on a real deck: reference matching (bytes, pixels, hashes), crops,
duplicates and stretched pictures."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, PngImagePlugin

from artifactcheck.checks.image.locate import locate_crop
from artifactcheck.checks.registry import Resources, get_check, run_check
from artifactcheck.checks.result import CheckResult
from artifactcheck.model import Document
from tests.checks.geometry_docs import Item, build_deck, load_deck, picture_bytes


def scene(seed: int, size: tuple[int, int] = (600, 450)) -> Image.Image:
    """A busy deterministic picture (many shapes) — the kind of content crops are cut from."""
    rnd = random.Random(seed)
    img = Image.new("RGB", size, (rnd.randint(0, 255),) * 3)
    draw = ImageDraw.Draw(img)
    for _ in range(40):
        x, y = rnd.randint(0, size[0]), rnd.randint(0, size[1])
        w, h = rnd.randint(20, 140), rnd.randint(20, 140)
        colour = tuple(rnd.randint(0, 255) for _ in range(3))
        (draw.ellipse if rnd.random() < 0.5 else draw.rectangle)([x, y, x + w, y + h], fill=colour)
    return img


def png(img: Image.Image, **info: str) -> bytes:
    meta = PngImagePlugin.PngInfo()
    for k, v in info.items():
        meta.add_text(k, v)
    out = io.BytesIO()
    img.save(out, format="PNG", pnginfo=meta)
    return out.getvalue()


def jpeg(data: bytes, quality: int = 85) -> bytes:
    out = io.BytesIO()
    Image.open(io.BytesIO(data)).convert("RGB").save(out, format="JPEG", quality=quality)
    return out.getvalue()


LOGO = picture_bytes(1)
LOGO_SAME_PIXELS = png(Image.open(io.BytesIO(LOGO)), Comment="re-saved")
ORIGINAL = png(scene(1))
CROP = png(scene(1).crop((150, 100, 520, 400)))


@pytest.fixture(scope="module")
def assets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("assets")
    (d / "logo.png").write_bytes(LOGO)
    (d / "original.png").write_bytes(ORIGINAL)
    (d / "unrelated.png").write_bytes(png(scene(7)))
    return d


@pytest.fixture(scope="module")
def deck(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("img") / "images.pptx"
    photo = picture_bytes(5)
    slides = [
        [Item("picture", 20, 15, 100, 75, name="Logo", image=LOGO), Item("picture", 300, 200, 160, 120, name="Photo", image=photo)],
        [Item("picture", 20, 15, 100, 75, name="Pixel twin", image=LOGO_SAME_PIXELS)],
        [Item("picture", 20, 15, 100, 75, name="Jpeg logo", image=jpeg(LOGO))],
        [Item("picture", 300, 200, 160, 120, name="Photo again", image=photo), Item("picture", 20, 300, 320, 60, name="Stretched", image=picture_bytes(6))],
        [Item("picture", 40, 40, 370, 300, name="Cut", image=CROP)],
        [Item("picture", 40, 40, 300, 225, name="Cropped in pptx", image=ORIGINAL, extra={"crop_left": 0.25, "crop_right": 0.25})],
        [Item("picture", 40, 40, 300, 225, name="Unrelated", image=png(scene(7)))],
    ]
    return load_deck(build_deck(path, slides))


def sel(name: str) -> str:
    return f'image[name="{name}"]'


def run(name: str, doc: Document, assets: Path | None = None, **params: object):  # type: ignore[no-untyped-def]
    r = run_check(name, doc, params, Resources(assets_dir=str(assets) if assets else None))
    assert r.status in ("pass", "fail"), r.explanation
    assert r.mechanism == "tolerance" and r.explanation and r.evidence
    assert CheckResult.model_validate_json(r.model_dump_json()) == r  # evidence is plain JSON
    return r


# -- image_matches ---------------------------------------------------------------------


def test_reference_found_by_bytes(deck: Document, assets: Path) -> None:
    r = run("image_matches", deck, assets, reference="logo.png", target=sel("Logo"))
    assert r.status == "pass" and r.evidence["candidates"][0]["method"] == "sha256"
    assert "identical bytes" in r.explanation


def test_reference_found_by_pixels(deck: Document, assets: Path) -> None:
    r = run("image_matches", deck, assets, reference="logo.png", target=sel("Pixel twin"))
    assert r.status == "pass" and r.evidence["candidates"][0]["method"] == "pixels"


def test_reference_found_by_identity_with_measures_in_evidence(deck: Document, assets: Path) -> None:
    r = run("image_matches", deck, assets, reference="logo.png", target=sel("Jpeg logo"))
    best = r.evidence["candidates"][0]
    assert r.status == "pass" and best["method"] == "identity", r.explanation
    assert set(best["identity"]["hash_distances"]) == {"phash", "dhash", "whash"}
    assert best["identity"]["ssim"] >= 0.8 and "SSIM" in r.explanation
    # the old rule stays available
    old = run("image_matches", deck, assets, reference="logo.png", target=sel("Jpeg logo"), method="hash")
    hashed = old.evidence["candidates"][0]
    assert old.status == "pass" and hashed["method"] == "hash" and hashed["distance"] <= 12
    strict = run("image_matches", deck, assets, reference="logo.png", target=sel("Jpeg logo"), method="hash", max_distance=0, hash="all")
    assert strict.status == ("pass" if max(hashed["distances"].values()) == 0 else "fail")


def test_reference_not_found_names_the_closest(deck: Document, assets: Path) -> None:
    r = run("image_matches", deck, assets, reference="unrelated.png", target=sel("Logo"))
    assert r.status == "fail" and "closest" in r.explanation and r.evidence["candidates"][0]["failed"]
    assert run("image_matches", deck, assets, reference="unrelated.png", target=sel("Logo"), expect="absent").status == "pass"
    # The whole deck: the unrelated picture is on slide 6, and the logo appears three times.
    assert run("image_matches", deck, assets, reference="unrelated.png").status == "pass"
    assert run("image_matches", deck, assets, reference="logo.png", min_count=3).status == "pass"


def test_missing_reference_is_an_evaluator_error(deck: Document, assets: Path) -> None:
    r = run_check("image_matches", deck, {"reference": "nope.png"}, Resources(assets_dir=str(assets)))
    assert r.status == "error" and "nope.png" in r.explanation
    r = run_check("image_matches", deck, {"reference": "logo.png", "max_dist": 3}, Resources(assets_dir=str(assets)))
    assert r.status == "error" and "max_dist" in r.explanation


# -- image_crop_of ---------------------------------------------------------------------


def test_pixel_crop_is_found_inside_the_original(deck: Document, assets: Path) -> None:
    r = run("image_crop_of", deck, assets, reference="original.png", target=sel("Cut"))
    loc = r.evidence["candidates"][0]["locate"]
    assert r.status == "pass" and loc["ncc"] > 0.95 and loc["phash_distance"] <= 4
    assert loc["box_px"] == pytest.approx([150, 100, 520, 400], abs=3)
    assert r.evidence["candidates"][0]["cropped"] is True


def test_office_crop_attributes_count_as_a_crop(deck: Document, assets: Path) -> None:
    r = run("image_crop_of", deck, assets, reference="original.png", target=sel("Cropped in pptx"), require_crop=True)
    assert r.status == "pass"
    assert r.evidence["candidates"][0]["crop"] == {"left": 0.25, "right": 0.25}


def test_unrelated_picture_is_not_a_crop(deck: Document, assets: Path) -> None:
    r = run("image_crop_of", deck, assets, reference="original.png", target=sel("Unrelated"))
    assert r.status == "fail" and "ncc" in r.explanation
    r = run("image_crop_of", deck, assets, reference="original.png", target=sel("Unrelated"), method="crop_resistant_hash")
    assert r.status == "fail" and "segments" in r.evidence["candidates"][0]["crop_resistant_hash"]


def test_a_recoloured_crop_is_not_a_crop() -> None:
    """The search and the hash see grey: a crop whose hue was turned (teal for orange)
    correlates perfectly; its colour difference gives it away."""
    original = scene(3)
    cut = original.crop((150, 100, 520, 400))
    r, g, b = cut.split()
    turned = Image.merge("RGB", (b, r, g))  # same structure, other colours
    same = locate_crop(original, cut)
    other = locate_crop(original, turned)
    assert same is not None and other is not None
    assert same.color_delta < 10 < other.color_delta, (same.color_delta, other.color_delta)  # 10: the default max_color_delta


def test_locate_crop_at_another_scale() -> None:
    original = scene(3)
    half = original.crop((100, 50, 500, 350)).resize((200, 150))
    found = locate_crop(original, half)
    assert found is not None and found.ncc > 0.95 and found.scale == pytest.approx(0.5, rel=0.1)
    assert found.box == pytest.approx((100, 50, 500, 350), abs=8)


# -- images_unique ---------------------------------------------------------------------


def test_images_unique(deck: Document) -> None:
    assert run("images_unique", deck, target="slide:nth-of-type(1) image").status == "pass"
    r = run("images_unique", deck)
    assert r.status == "fail"
    methods = {(d["method"]) for d in r.evidence["duplicates"]}
    assert "sha256" in methods  # the photo placed on slides 0 and 3
    assert 0 < r.score < 1


def test_swatches_of_different_colours_are_distinct(tmp_path: Path) -> None:
    """Three plain swatches (red, green, blue) have one perceptual hash, which reads
    brightness only; a person sees three different pictures. A re-encoded copy of one
    (a JPEG of the red) is still its duplicate."""
    def swatch(rgb: tuple[int, int, int]) -> bytes:
        return png(Image.new("RGB", (300, 200), rgb))

    red, green, blue = swatch((220, 30, 30)), swatch((30, 160, 60)), swatch((30, 60, 200))
    slide = [Item("picture", 40 + 220 * i, 100, 180, 120, name=f"s{i}", image=data) for i, data in enumerate((red, green, blue))]
    doc = load_deck(build_deck(tmp_path / "swatches.pptx", [slide]))
    distinct = run("images_unique", doc)
    assert distinct.status == "pass", distinct.explanation
    assert len(distinct.evidence["alike_but_recoloured"]) == 3  # alike by hash, told apart by colour
    copy = load_deck(build_deck(tmp_path / "copy.pptx", [[*slide, Item("picture", 40, 300, 180, 120, name="again", image=jpeg(red))]]))
    twice = run("images_unique", copy)
    assert twice.status == "fail" and [(d["a"], d["b"]) for d in twice.evidence["duplicates"]] == [("s0/sh0", "s0/sh3")]


# -- image_not_distorted ---------------------------------------------------------------


def test_aspect_ratio_kept_and_stretched(deck: Document) -> None:
    assert run("image_not_distorted", deck, target=sel("Logo")).status == "pass"
    r = run("image_not_distorted", deck, target=sel("Stretched"))
    row = r.evidence["images"][0]
    assert r.status == "fail" and row["distortion"] == pytest.approx((320 / 60) / (160 / 120) - 1, abs=1e-3)


def test_aspect_accounts_for_crop(deck: Document) -> None:
    # 600x450 px with half its width cropped away shows 300x450 px; drawn 300x225 pt it is squashed 2:1.
    r = run("image_not_distorted", deck, target=sel("Cropped in pptx"))
    row = r.evidence["images"][0]
    assert r.status == "fail" and row["pixel_aspect"] == pytest.approx(300 / 450, abs=1e-3)


def test_image_checks_are_registered() -> None:
    for name in ("image_matches", "image_crop_of", "images_unique", "image_not_distorted", "image_size"):
        spec = get_check(name)
        assert spec.mechanism == "tolerance" and spec.summary and spec.example


# -- real decks from the corpus: every check decides or explains, never breaks ----------

from tests.conftest import corpus_files

CORPUS_DECKS = [p for p in corpus_files("pptx", ".pptx") if p.name in {
    "poi_54542_cropped_bitmap.pptx", "pptx_shp-picture.pptx", "poi_shapes.pptx", "tika_testPPT_groups.pptx",
    "unstructured_group-shapes-nested.pptx", "docling_powerpoint_sample.pptx", "poi_customGeo.pptx", "pptx_tbl-cell.pptx",
}]
CORPUS_CHECKS: list[tuple[str, dict[str, object]]] = [
    ("in_region", {"target": "image", "region": "upper-left", "quantifier": "any"}),
    ("page_coverage", {"target": "image", "min_fraction": 0.5}),
    ("side_by_side", {"target": "slide:first-of-type > *"}),
    ("stacked", {"target": "slide:first-of-type > *"}),
    ("aligned", {"target": "slide > *", "edge": "left"}),
    ("no_overlap", {"target": "slide > *"}),
    ("within_page", {}),
    ("centered_on_page", {"target": "slide > *"}),
    ("evenly_spaced", {"target": "slide:first-of-type > *"}),
    ("spatial_relation", {"a": "image", "b": "shape", "relation": "disjoint"}),
    ("relative_position", {"a": "slide:first-of-type > *", "b": "slide:last-of-type > *", "relation": "above"}),
    ("text_fits", {}),
    ("images_unique", {}),
    ("image_not_distorted", {}),
    ("image_size", {"min_width_pt": 36, "min_pixels_per_inch": 72}),
]


@pytest.mark.parametrize("path", CORPUS_DECKS, ids=lambda p: p.name)
def test_checks_on_real_decks_never_break(path: Path) -> None:
    import artifactcheck

    try:
        doc = artifactcheck.load(path)
    except artifactcheck.ArtifactCheckError as exc:
        pytest.skip(f"extractor refuses it: {exc}")
    for name, params in CORPUS_CHECKS:
        r = run_check(name, doc, params)
        assert r.status in ("pass", "fail", "skipped"), f"{name} on {path.name}: {r.explanation}\n{r.error}"
        assert r.explanation
        CheckResult.model_validate_json(r.model_dump_json())


def test_image_size(deck: Document) -> None:
    # The logo is drawn 100 x 75 pt from 160 x 120 px: 115.2 pixels per inch.
    r = run("image_size", deck, target=sel("Logo"), min_width_pt=90, max_width_pt=110, min_pixels_per_inch=100)
    row = r.evidence["images"][0]
    assert r.status == "pass" and row["pixels_per_inch"] == 115.2 and row["page_width_fraction"] == pytest.approx(100 / 720, abs=1e-4)
    small = run("image_size", deck, target=sel("Logo"), min_page_width_fraction=0.25)
    assert small.status == "fail" and "page_width_fraction" in small.explanation
    blurry = run("image_size", deck, target=sel("Logo"), min_pixels_per_inch=150)
    assert blurry.status == "fail"
    assert run_check("image_size", deck, {"target": "image"}).status == "error"  # no bound given


# -- identity: the same logo under everyday changes, and a look-alike --------------------


def wordmark(colour: tuple[int, int, int], word: str) -> Image.Image:
    """A company logo: a coloured mark with a cut-out, and a word beside it."""
    from PIL import ImageFont

    img = Image.new("RGB", (400, 160), "white")
    draw = ImageDraw.Draw(img)
    draw.ellipse([10, 10, 150, 150], fill=colour)
    draw.rectangle([60, 40, 100, 120], fill="white")
    font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", 60)
    draw.text((170, 45), word, fill=(40, 40, 40), font=font)
    return img


@pytest.fixture(scope="module")
def letterheads(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Document]]:
    """The reference logo and decks built with python-pptx, each showing one version of
    it as an agent would insert it (``add_picture`` of the bytes it produced)."""
    d = tmp_path_factory.mktemp("identity")
    ref = wordmark((20, 90, 160), "ACME")
    (d / "acme.png").write_bytes(png(ref))
    gamma = [round(255 * (i / 255) ** 0.87) for i in range(256)] * 3
    versions = {
        "resized jpeg": jpeg(png(ref.resize((200, 80), Image.Resampling.LANCZOS)), 75),
        "mild crop": png(ref.crop((12, 6, 388, 154))),
        "colour profile": png(ref.point(gamma)),
        "other colour and wordmark": png(wordmark((200, 40, 40), "AKME")),
        "other colour": png(wordmark((200, 40, 40), "ACME")),
    }
    docs = {}
    for name, data in versions.items():
        path = build_deck(d / f"{name.replace(' ', '_')}.pptx", [[Item("picture", 20, 15, 150, 60, name="Logo", image=data)]])
        docs[name] = load_deck(path)
    return d, docs


@pytest.mark.parametrize(("version", "same"), [
    ("resized jpeg", True),
    ("mild crop", True),
    ("colour profile", True),
    ("other colour and wordmark", False),
    ("other colour", False),
])
def test_identity_accepts_copies_and_rejects_look_alikes(letterheads: tuple[Path, dict[str, Document]], version: str, same: bool) -> None:
    assets, docs = letterheads
    r = run("image_matches", docs[version], assets, reference="acme.png")
    assert (r.status == "pass") == same, r.explanation
    if version == "other colour and wordmark":
        # the case: the old rule (phash <= 8) accepted this look-alike
        old = run("image_matches", docs[version], assets, reference="acme.png", method="hash")
        assert old.status == "pass" and old.evidence["candidates"][0]["distance"] <= 8
        assert "worst tile SSIM" in r.explanation or "colour difference" in r.explanation
    if version == "other colour":
        assert "recoloured" in r.explanation
