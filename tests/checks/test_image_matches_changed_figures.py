"""``image_matches`` on a screenshot of figures: the same layout with other figures is
another picture. At 128 px the digits are a blur, so every tile's SSIM stayed near 0.75
and the reference "matched" (SSIM 0.973); the local SSIM map at 256 px falls on the
changed digits. A recompressed, shrunk copy of the same screenshot still matches."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image

from artifactcheck import load
from artifactcheck.checks.registry import Resources, run_check
from tests.checks.test_image_crop_of_scaled_text import _deck, _report


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("figures")
    _report(0).save(out / "reference.png")
    return out


def _matches(folder: Path, picture: Image.Image, name: str) -> tuple[str, str]:
    result = run_check(
        "image_matches", load(_deck(folder, picture, name)), {"reference": "reference.png"},
        Resources(assets_dir=str(folder)),
    )
    return result.status, result.explanation


def test_other_figures_in_the_same_layout_do_not_match(folder: Path) -> None:
    status, explanation = _matches(folder, _report(5), "other")
    assert status == "fail" and "a detail differs" in explanation, explanation


def test_a_recompressed_smaller_copy_matches(folder: Path) -> None:
    data = io.BytesIO()
    _report(0).resize((480, 300), Image.Resampling.LANCZOS).save(data, format="JPEG", quality=75)
    status, explanation = _matches(folder, Image.open(io.BytesIO(data.getvalue())), "copy")
    assert status == "pass", explanation
