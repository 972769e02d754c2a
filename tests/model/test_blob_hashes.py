"""Perceptual hashes of a blob are computed on first read (design/startup.md): the bits
are imagehash's of the decoded picture, every way of reading the blob sees them, and a
picture that does not decode still says why at load."""

from __future__ import annotations

import io
import json
import pickle

import imagehash
import pytest
from PIL import Image, ImageDraw

from artifactcheck.model import Blob, describe_image


def picture_bytes(fmt: str = "PNG", size: tuple[int, int] = (320, 200)) -> bytes:
    img = Image.new("RGB", size, "#f4efe6")
    d = ImageDraw.Draw(img)
    d.rectangle((20, 30, size[0] // 2, size[1] - 40), fill="#2f6690")
    d.ellipse((size[0] // 2, 10, size[0] - 10, size[1] // 2), fill="#c0392b")
    out = io.BytesIO()
    img.save(out, format=fmt)
    return out.getvalue()


def imagehash_hashes(data: bytes) -> tuple[str, str, str]:
    """What imagehash says of the picture, decoded here the way a user would."""
    with Image.open(io.BytesIO(data)) as img:
        img.draft("RGB", (512, 512))
        rgb = img.convert("RGB")
    return str(imagehash.phash(rgb)), str(imagehash.dhash(rgb)), str(imagehash.whash(rgb))


@pytest.mark.parametrize("fmt", ["PNG", "JPEG", "GIF", "BMP"])
def test_attribute_reads_give_imagehash_bits(fmt: str) -> None:
    data = picture_bytes(fmt)
    blob = describe_image(data, mime=f"image/{fmt.lower()}")
    assert blob.decode_error is None and (blob.width_px, blob.height_px) == (320, 200)
    assert (blob.phash, blob.dhash, blob.whash) == imagehash_hashes(data)


def test_serialising_an_unread_blob_includes_its_hashes() -> None:
    data = picture_bytes()
    expected = dict(zip(("phash", "dhash", "whash"), imagehash_hashes(data), strict=True))
    as_json = json.loads(describe_image(data, mime="image/png").model_dump_json())
    assert {k: as_json[k] for k in expected} == expected and "data" not in as_json
    dumped = describe_image(data, mime="image/png").model_dump(exclude_none=True)
    assert {k: dumped[k] for k in expected} == expected
    # A tree written out and read back carries them as plain fields.
    back = Blob.model_validate_json(describe_image(data, mime="image/png").model_dump_json())
    assert back.phash == expected["phash"]


def test_copies_pickles_and_equality_see_the_same_hashes() -> None:
    data = picture_bytes()
    read = describe_image(data, mime="image/png")
    assert read.phash is not None
    assert describe_image(data, mime="image/png") == read  # unread equals read
    assert describe_image(data, mime="image/png").model_copy().whash == read.whash
    assert pickle.loads(pickle.dumps(describe_image(data, mime="image/png"))).dhash == read.dhash


def test_undecodable_bytes_are_reported_at_load_without_hashes() -> None:
    data = picture_bytes()[:200]  # a PNG header and part of its data: opens, does not decode
    blob = describe_image(data, mime="image/png")
    assert blob.decode_error and blob.phash is None and blob.dhash is None and blob.whash is None
    assert json.loads(blob.model_dump_json())["phash"] is None


def test_a_blob_built_with_hashes_keeps_them() -> None:
    blob = Blob(sha256="0" * 64, mime="image/png", size_bytes=3, phash="8000000000000000", data=b"abc")
    assert blob.phash == "8000000000000000" and blob.dhash is None  # nothing to compute: not pending


def test_the_pixels_are_decoded_when_first_asked_about() -> None:
    """At load only the header is read: a picture whose data is cut short is found out
    when decode_error (or a hash) is first read, and then stays known."""
    data = picture_bytes()[:200]
    blob = describe_image(data, mime="image/png")
    assert (blob.width_px, blob.height_px) == (320, 200)
    assert blob.__dict__["decode_error"] is None  # nothing decoded yet
    assert blob.decode_error and "truncated" in blob.decode_error.lower()
    assert blob.__dict__["decode_error"] == blob.decode_error and blob.phash is None


def test_an_unreadable_picture_is_described_the_same_way_every_time() -> None:
    """Pillow's message names the stream object by its address; the recorded failure must
    not, or the same bytes give a different report in each run."""
    junk = b"this is not a picture" * 4
    first, second = describe_image(junk, mime="image/png"), describe_image(junk, mime="image/png")
    assert first.decode_error is not None and "cannot identify image file" in first.decode_error
    assert first.decode_error == second.decode_error and " at 0x" not in first.decode_error
