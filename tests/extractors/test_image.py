"""Standalone image files: every format an agent's image tool writes loads as a one-page
document whose page is the picture; OCR words land where the text was drawn (known
from the drawing, not from our tree); bad files get typed errors."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

import artifactcheck
from artifactcheck import errors
from artifactcheck.checks.registry import Resources, run_check
from artifactcheck.extractors.ocr import OcrEngine

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
CAPTION = "SUMMER 2024"


def poster() -> tuple[Image.Image, tuple[int, int, int, int]]:
    """An 800x500 picture with a caption in its lower third; returns the caption's pixel box."""
    img = Image.new("RGB", (800, 500), "#f4efe6")
    d = ImageDraw.Draw(img)
    d.rectangle((40, 40, 760, 300), fill="#2f6690")
    font = ImageFont.truetype(FONT, 56)
    d.text((60, 380), CAPTION, fill="#111111", font=font)
    return img, d.textbbox((60, 380), CAPTION, font=font)


@pytest.mark.parametrize(("ext", "fmt"), [("png", "png"), ("jpg", "jpeg"), ("gif", "gif"), ("bmp", "bmp"), ("tiff", "tiff"), ("webp", "webp")])
def test_each_format_is_a_one_page_document(tmp_path: Path, ext: str, fmt: str) -> None:
    img, _ = poster()
    path = tmp_path / f"poster.{ext}"
    img.save(path)
    doc = artifactcheck.load(path)
    assert doc.artifact.format == fmt and doc.artifact.size_bytes == path.stat().st_size
    (page,) = doc.pages
    assert page.attrs["width_px"] == 800 and page.attrs["height_px"] == 500
    (image,) = doc.images()
    assert image.box is not None and (image.box.width, image.box.height) == (page.width, page.height)
    blob = doc.blob(image.attrs["blob"])
    assert (blob.width_px, blob.height_px) == (800, 500) and blob.phash and blob.data == path.read_bytes()
    assert image.attrs["mode"] == ("P" if fmt == "gif" else "RGB")


def test_page_size_follows_the_resolution_the_file_states(tmp_path: Path) -> None:
    img, _ = poster()
    img.save(tmp_path / "plain.png")
    img.save(tmp_path / "print.png", dpi=(300, 300))
    plain = artifactcheck.load(tmp_path / "plain.png").pages[0]
    printed = artifactcheck.load(tmp_path / "print.png").pages[0]
    assert (plain.width, plain.attrs["dpi_source"]) == (600.0, "default")  # 800 px at 96 dpi
    assert printed.width == pytest.approx(800 * 72 / 300, abs=0.1) and printed.attrs["dpi_source"] == "file"


@pytest.mark.slow
def test_ocr_words_are_nodes_where_the_text_was_drawn(tmp_path: Path) -> None:
    img, (left, top, right, bottom) = poster()
    img.save(tmp_path / "poster.png")
    doc = artifactcheck.load(tmp_path / "poster.png", ocr=True)
    words = doc.select("run")
    assert [w.text for w in words] == CAPTION.split()
    assert doc.select_one("line").text == CAPTION  # type: ignore[union-attr]
    scale = doc.pages[0].width / 800  # points per pixel
    caption = words[0].box.union(words[-1].box)  # type: ignore[union-attr]
    assert caption.origin == "ocr"
    for got, want in zip((caption.x0, caption.top, caption.x1, caption.bottom), (left, top, right, bottom), strict=True):
        assert got == pytest.approx(want * scale, abs=6 * scale)  # within 6 px of the drawn text


@pytest.mark.slow
def test_ocr_checks_read_the_image_page(tmp_path: Path) -> None:
    img, _ = poster()
    img.save(tmp_path / "poster.png")
    doc = artifactcheck.load(tmp_path / "poster.png")
    res = Resources(extras={"ocr_engine": OcrEngine()})
    assert run_check("ocr_text_in_region", doc, {"text": CAPTION, "region": "bottom third"}, res).status == "pass"
    top = run_check("ocr_text_in_region", doc, {"text": CAPTION, "region": "top third"}, res)
    assert top.status == "fail" and "outside region" in top.explanation
    assert run_check("ocr_text_in_node", doc, {"text": CAPTION, "target": "image"}, res).status == "pass"


def test_every_attribute_is_declared(tmp_path: Path) -> None:
    from tests.model.test_attributes import undeclared

    img, _ = poster()
    img.save(tmp_path / "poster.png", dpi=(150, 150))
    assert undeclared(artifactcheck.load(tmp_path / "poster.png"), "poster.png") == []


def test_animated_gif_shows_its_first_frame_and_says_so(tmp_path: Path) -> None:
    frames = [Image.new("RGB", (64, 64), c) for c in ("red", "green", "blue")]
    frames[0].save(tmp_path / "anim.gif", save_all=True, append_images=frames[1:])
    doc = artifactcheck.load(tmp_path / "anim.gif")
    assert doc.images()[0].attrs["frames"] == 3 and any("3 frames" in w for w in doc.warnings)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def test_a_huge_declared_image_is_refused_before_decoding(tmp_path: Path) -> None:
    header = struct.pack(">IIBBBBB", 60_000, 60_000, 8, 2, 0, 0, 0)  # 3.6 gigapixels, RGB
    data = b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + _png_chunk(b"IDAT", zlib.compress(b"\0")) + _png_chunk(b"IEND", b"")
    (tmp_path / "bomb.png").write_bytes(data)
    with pytest.raises(errors.ArtifactTooLarge, match="bomb.png"):
        artifactcheck.load(tmp_path / "bomb.png")


def test_truncated_and_junk_images_are_corrupt(tmp_path: Path) -> None:
    img, _ = poster()
    img.save(tmp_path / "whole.png")
    data = (tmp_path / "whole.png").read_bytes()
    (tmp_path / "cut.png").write_bytes(data[: len(data) // 3])
    with pytest.raises(errors.CorruptArtifact, match="cut.png.*cannot be decoded"):
        artifactcheck.load(tmp_path / "cut.png")
    (tmp_path / "junk.jpg").write_bytes(b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8)
    with pytest.raises(errors.CorruptArtifact, match="junk.jpg"):
        artifactcheck.load(tmp_path / "junk.jpg")
