"""Hostile inputs built in the test (no corpus needed): each class of the bad-input
campaign (design/safe-loading.md) gets a typed error naming the file, within a budget,
or loads. The corpus reproducers themselves run in tests/fuzz/test_reproducers.py."""

from __future__ import annotations

import io
import json
import struct
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook
from PIL import Image

from artifactcheck import load
from artifactcheck.errors import ArtifactTooLarge, CorruptArtifact, UnsupportedFormat
from artifactcheck.limits import use_limits
from artifactcheck.snapshot import Capture, write_bundle
from tests.conftest import FIXTURES

GOOGLE = FIXTURES / "google"


def _xlsx(tmp_path: Path, name: str = "book.xlsx", *, image: Image.Image | None = None) -> Path:
    wb = Workbook()
    wb.active["A1"] = "hello"  # type: ignore[index]
    if image is not None:
        from openpyxl.drawing.image import Image as XlImage

        buf = io.BytesIO()
        image.save(buf, format="PNG")
        buf.seek(0)
        wb.active.add_image(XlImage(buf), "C3")  # type: ignore[union-attr]
    path = tmp_path / name
    wb.save(path)
    return path


def _rewrite(src: Path, dst: Path, edit: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            zout.writestr(info.filename, edit.get(info.filename, zin.read(info.filename)))
    return dst


def _patch_local_header(data: bytes, member: str, *, method: int | None = None, flag: int | None = None) -> bytes:
    """Set the compression method or the flag bits of ``member`` in both its local
    header and its central directory entry (what a mutating fuzzer does)."""
    out = bytearray(data)
    name = member.encode()
    for sig, flag_at, method_at, name_len_at, name_at in ((b"PK\x03\x04", 6, 8, 26, 30), (b"PK\x01\x02", 8, 10, 28, 46)):
        start = 0
        while (pos := out.find(sig, start)) >= 0:
            start = pos + 4
            (length,) = struct.unpack_from("<H", out, pos + name_len_at)
            if bytes(out[pos + name_at: pos + name_at + length]) != name:
                continue
            if method is not None:
                struct.pack_into("<H", out, pos + method_at, method)
            if flag is not None:
                struct.pack_into("<H", out, pos + flag_at, flag)
    return bytes(out)


# -- zip members -----------------------------------------------------------------------


@pytest.mark.parametrize(("member", "patch"), [
    ("_rels/.rels", {"method": 99}),
    ("[Content_Types].xml", {"flag": 1}),
    ("xl/workbook.xml", {"flag": 1}),
    ("xl/worksheets/sheet1.xml", {"method": 99}),
])
def test_unreadable_zip_members_are_corrupt_artifacts(tmp_path: Path, member: str, patch: dict[str, int]) -> None:
    bad = tmp_path / "bad.xlsx"
    bad.write_bytes(_patch_local_header(_xlsx(tmp_path).read_bytes(), member, **patch))
    with pytest.raises(CorruptArtifact, match=rf"bad.xlsx: .*part {member.replace('[', '.').replace(']', '.')}"):
        load(bad)


def test_a_corrupt_deflate_stream_is_a_corrupt_artifact(tmp_path: Path) -> None:
    src = _xlsx(tmp_path)
    data = bytearray(src.read_bytes())
    with zipfile.ZipFile(src) as zf:
        info = zf.getinfo("[Content_Types].xml")
    body = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for i in range(body + 2, body + min(info.compress_size, 40)):
        data[i] ^= 0xA5
    bad = tmp_path / "deflate.xlsx"
    bad.write_bytes(bytes(data))
    with pytest.raises(CorruptArtifact, match="deflate.xlsx"):
        load(bad)


def test_docx_part_with_the_encryption_flag(tmp_path: Path) -> None:
    import docx

    d = docx.Document()
    d.add_paragraph("hello")
    src = tmp_path / "plain.docx"
    d.save(str(src))
    bad = tmp_path / "flagged.docx"
    bad.write_bytes(_patch_local_header(src.read_bytes(), "word/document.xml", flag=1))
    with pytest.raises(CorruptArtifact, match="word/document.xml is zip-encrypted"):
        load(bad, render=False)


def test_xml_error_messages_are_one_line(tmp_path: Path) -> None:
    src = _xlsx(tmp_path)
    with zipfile.ZipFile(src) as zf:
        sheet = zf.read("xl/workbook.xml")
    bad = _rewrite(src, tmp_path / "nul.xlsx", {"xl/workbook.xml": sheet.replace(b"<sheets>", b"\n<sheets>\x00")})
    with pytest.raises(CorruptArtifact) as caught:
        load(bad)
    assert "\n" not in str(caught.value)


# -- budgets: XML elements, tree nodes, image pixels -------------------------------------


def test_a_part_past_the_element_budget_is_refused_before_it_is_built(tmp_path: Path) -> None:
    src = _xlsx(tmp_path)
    with zipfile.ZipFile(src) as zf:
        styles = zf.read("xl/styles.xml")
    flood = styles.replace(b"</styleSheet>", b"<x/>" * 5000 + b"</styleSheet>")
    bad = _rewrite(src, tmp_path / "flood.xlsx", {"xl/styles.xml": flood})
    with use_limits(xml_part_elements=2000), pytest.raises(ArtifactTooLarge, match="xl/styles.xml holds more than 2000 XML elements"):
        load(bad)
    assert load(bad).root.text  # under the default budget it loads


def test_the_node_budget_stops_a_flood_of_shapes(tmp_path: Path) -> None:
    from pptx import Presentation

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[6])
    src = tmp_path / "deck.pptx"
    prs.save(str(src))
    part = f"ppt/slides/{Path(slide.part.partname).name}"
    with zipfile.ZipFile(src) as zf:
        xml = zf.read(part)
    flood = xml.replace(b"</p:spTree>", b"<p:sp/>" * 3000 + b"</p:spTree>")
    bad = _rewrite(src, tmp_path / "flood.pptx", {part: flood})
    with use_limits(tree_nodes=1000), pytest.raises(ArtifactTooLarge, match=r"flood.pptx: the document tree needs more than 1000 nodes"):
        load(bad)


def test_an_image_past_the_pixel_budget_is_kept_unhashed(tmp_path: Path) -> None:
    big = Image.new("RGB", (3000, 2000), "white")  # 6 Mpx, compresses to a few KB
    path = _xlsx(tmp_path, image=big)
    with use_limits(image_pixels=5_000_000):
        doc = load(path)
    (blob,) = doc.blobs.values()
    assert (blob.width_px, blob.height_px) == (3000, 2000)
    assert blob.phash is None and blob.decode_error and blob.decode_error.startswith("ArtifactTooLarge")
    assert load(path).blobs[blob.sha256].phash is not None  # under the default budget: hashed


def test_a_big_image_is_hashed_from_a_reduced_copy_with_the_same_hash(tmp_path: Path) -> None:
    from artifactcheck.model.blobs import describe_image

    img = Image.linear_gradient("L").resize((5000, 4000)).convert("RGB")  # 20 Mpx: reduced first
    buf = io.BytesIO()
    img.save(buf, format="PNG")
    blob = describe_image(buf.getvalue(), mime="image/png")
    import imagehash

    assert blob.phash is not None
    assert imagehash.hex_to_hash(blob.phash) - imagehash.phash(img) <= 2


# -- JSON artifacts ----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "error", "message"), [
    ("[" * 20000 + "]" * 20000, UnsupportedFormat, "nests deeper than"),
    ('{"documentId": "d", "body": {"content": [{"x": ' * 150 + "1" + "}]}}" * 150, UnsupportedFormat, "nests deeper"),
    ('{"spreadsheetId": "s", "sheets": [], "x": NaN}', UnsupportedFormat, "NaN is not a JSON number"),
    ('{"spreadsheetId": "s", "sheets": [], "x": 1e999}', UnsupportedFormat, "out of range"),
    ('{"schema_version": "1", "root": 5}', CorruptArtifact, "not a valid saved document tree"),
])
def test_json_artifacts_are_read_strictly(tmp_path: Path, text: str, error: type[Exception], message: str) -> None:
    path = tmp_path / "artifact.json"
    path.write_text(text)
    with pytest.raises(error, match=message) as caught:
        load(path)
    assert "artifact.json" in str(caught.value)


def _sheets() -> dict:
    return json.loads((GOOGLE / "sheets_parity.json").read_text())


@pytest.mark.parametrize(("edit", "error", "message"), [
    (lambda s: s["sheets"][0]["properties"]["gridProperties"].update(rowCount=10**12), ArtifactTooLarge, "rowCount"),
    (lambda s: s["sheets"][0]["properties"]["gridProperties"].update(rowCount=200_000, columnCount=100), ArtifactTooLarge, "grid of 200000 x 100"),
    (lambda s: s["sheets"][0].update(merges=[{"startRowIndex": 0, "endRowIndex": 3, "startColumnIndex": 0, "endColumnIndex": 10**20}]), CorruptArtifact, "endColumnIndex"),
    (lambda s: s["sheets"][0].update(merges=[{"startRowIndex": 0, "endRowIndex": 5000, "startColumnIndex": 0, "endColumnIndex": 5000}]), ArtifactTooLarge, "merges cover"),
    (lambda s: s["sheets"][0].update(protectedRanges=[{"range": {"startColumnIndex": 0, "endColumnIndex": -1}}]), CorruptArtifact, "endColumnIndex -1"),
    (lambda s: s["sheets"][0].update(basicFilter={"range": {"startColumnIndex": -5}}), CorruptArtifact, "startColumnIndex -5"),
    (lambda s: s["properties"].update(spreadsheetTheme={"themeColors": [{"colorType": "TEXT", "color": {"rgbColor": {"red": 1e308}}}]}), None, ""),
])
def test_sheets_indexes_and_sizes_are_bounded(tmp_path: Path, edit, error, message) -> None:  # type: ignore[no-untyped-def]
    data = _sheets()
    edit(data)
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(data))
    if error is None:
        assert load(path).root.kind == "document"
        return
    with use_limits(grid_cells=10_000_000), pytest.raises(error, match=message) as caught:
        load(path)
    assert "sheet.json" in str(caught.value)


def _with_first(data: object, key: str, value: object) -> bool:
    """Set ``key`` in the first mapping (depth first) that has it; for ``startNumber``,
    make every list level a numbered one starting there. True when something was set."""
    stack, done = [data], False
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if key == "startNumber" and isinstance(item.get("nestingLevels"), list):
                for level in item["nestingLevels"]:
                    level.pop("glyphSymbol", None)
                    level.update(glyphType="DECIMAL", startNumber=value)
                done = True
            elif key in item:
                item[key] = value
                return True
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return done


@pytest.mark.parametrize("key", ["nestingLevel", "rowSpan", "startNumber"])
def test_docs_spans_and_list_levels_are_bounded(tmp_path: Path, key: str) -> None:
    data = json.loads((GOOGLE / "docs_tabs.json").read_text())
    assert _with_first(data, key, 10**15)
    path = tmp_path / f"{key}.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CorruptArtifact, match=f"{key}.json: malformed document response: ValueError: {key}"):
        load(path)


@pytest.mark.parametrize("interactions", [
    5, "abc", [1, "x", None], [{"request": "x", "response": 3}],
    [{"request": {"method": "GET", "uri": "https://sheets.googleapis.com/v4/spreadsheets/x"},
      "response": {"status": {"code": "abc"}, "body": {"string": "{}"}}}],
])
def test_malformed_cassettes_are_typed(tmp_path: Path, interactions: object) -> None:
    path = tmp_path / "cassette.json"
    path.write_text(json.dumps({"interactions": interactions}))
    with pytest.raises(UnsupportedFormat, match="cassette.json: a recorded cassette without"):
        load(path)


def test_a_cassette_body_with_nan_is_corrupt(tmp_path: Path) -> None:
    body = '{"spreadsheetId": "s", "properties": {}, "sheets": [], "x": NaN}'
    path = tmp_path / "cassette.json"
    path.write_text(json.dumps({"interactions": [{
        "request": {"method": "GET", "uri": "https://sheets.googleapis.com/v4/spreadsheets/s"},
        "response": {"status": {"code": 200}, "body": {"string": body}}}]}))
    with pytest.raises(CorruptArtifact, match="cassette.json: .*NaN"):
        load(path)


# -- snapshot bundles --------------------------------------------------------------------


def _bundle(tmp_path: Path) -> Path:
    cap = Capture(file_id="1FixtureFileId_abcdefghijklmnop", kind="spreadsheet",
                  metadata={"mimeType": "application/vnd.google-apps.spreadsheet"},
                  response=_sheets(), captured_at="2024-01-01T00:00:00Z")
    return write_bundle(cap, tmp_path / "good.zip")


@pytest.mark.parametrize(("manifest_edit", "message"), [
    ({"images": "abc"}, "images"),
    ({"drive": [1, 2]}, "drive"),
    ({"drive": "abc"}, "drive"),
    ({"warnings": 5}, "warnings"),
    ({"kind": "video"}, "kind"),
    ({"format": "other"}, "format"),
])
def test_malformed_bundle_manifests_name_the_bundle(tmp_path: Path, manifest_edit: dict, message: str) -> None:
    good = _bundle(tmp_path)
    with zipfile.ZipFile(good) as zf:
        manifest = json.loads(zf.read("manifest.json"))
    manifest.update(manifest_edit)
    bad = _rewrite(good, tmp_path / "bad.zip", {"manifest.json": json.dumps(manifest).encode()})
    with pytest.raises(CorruptArtifact, match=rf"bad.zip: bundle manifest.json is malformed at {message}"):
        load(bad)


def test_deep_or_missing_bundle_members_name_the_bundle(tmp_path: Path) -> None:
    good = _bundle(tmp_path)
    deep = _rewrite(good, tmp_path / "deep.zip", {"manifest.json": b"[" * 5000 + b"]" * 5000})
    with pytest.raises(CorruptArtifact, match="deep.zip: .*nests deeper"):
        load(deep)
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(tmp_path / "noresp.zip", "w") as zout:
        for info in zin.infolist():
            if info.filename != "response.json":
                zout.writestr(info, zin.read(info))
    with pytest.raises(CorruptArtifact, match="noresp.zip: a spreadsheet bundle without response.json"):
        load(tmp_path / "noresp.zip")


def test_a_saved_tree_cannot_choose_asset_paths(tmp_path: Path) -> None:
    from artifactcheck.model import Blob, Document

    doc = load(GOOGLE / "sheets_parity.json")
    doc.blobs["../../escape"] = Blob(sha256="../../escape", mime="image/../../x", size_bytes=3, data=b"abc")
    out = tmp_path / "assets"
    (written,) = doc.write_assets(out)
    assert written.parent == out and written.suffix == ".bin"
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == [written.name]
    assert isinstance(Document, type)
