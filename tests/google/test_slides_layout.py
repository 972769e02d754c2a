"""Google Slides: text where it is drawn (from the deck's PDF export), and placeholder
geometry inherited part by part, as for .pptx.

Drive's real export cannot be fetched here (no network to Google); the LibreOffice render
of the parity deck (fixtures/google/slides_parity.pptx, the same content as
slides_parity.json) stands in for it: one page per slide, the same text."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from artifactcheck import load, run_check
from artifactcheck.extractors.google.access import GoogleClient
from artifactcheck.extractors.google.responses import extract_google_response
from artifactcheck.extractors.render import render_pdf
from artifactcheck.snapshot import capture, load_bundle, write_bundle
from tests.google.conftest import GOOGLE, drive_meta, fixture_json, mock_http, no_sleep, ok

SLIDES_MIME = "application/vnd.google-apps.presentation"
FILE_ID = "1FixtureFileId_abcdefghijklmnop"


@pytest.fixture(scope="module")
def export_pdf() -> bytes:
    return render_pdf(GOOGLE / "slides_parity.pptx").pdf_path.read_bytes()


@pytest.mark.slow
def test_paragraphs_get_the_boxes_the_export_draws(export_pdf: bytes) -> None:
    google = extract_google_response(fixture_json("slides_parity.json"), pdf=export_pdf)
    assert google.layout_pending
    office = load(GOOGLE / "slides_parity.pptx")
    google.ensure_layout()
    office.ensure_layout()
    assert google.root.attrs["layout_source"] == "drive-pdf-export"
    assert google.root.attrs["layout_paragraphs_boxed"] == google.root.attrs["layout_paragraphs"] > 0
    g = [(p.text, p.box) for p in google.iter("paragraph") if p.text.strip()]
    o = [(p.text, p.box) for p in office.iter("paragraph") if p.text.strip()]
    assert [t for t, _ in g] == [t for t, _ in o]
    for (text, gb), (_, ob) in zip(g, o, strict=True):
        assert gb is not None and ob is not None and gb.origin == ob.origin == "layout", text
        assert (gb.x0, gb.top, gb.x1, gb.bottom) == pytest.approx((ob.x0, ob.top, ob.x1, ob.bottom), abs=0.01), text
    frame = next(n for n in google.iter() if n.kind in ("shape", "textbox") and "drawn_text_box" in n.attrs)
    assert frame.box is not None and frame.box.origin == "native"


@pytest.mark.slow
def test_a_bundle_carries_the_export_and_lays_out_on_demand(tmp_path: Path, logo_png: bytes, export_pdf: bytes) -> None:
    client = GoogleClient(
        http=mock_http(drive_meta(FILE_ID, SLIDES_MIME), ok(fixture_json("slides_parity.json")),
                       ok(logo_png, content_type="image/png"), ok(export_pdf, content_type="application/pdf")),
        sleep=no_sleep,
    )
    bundle = write_bundle(capture(FILE_ID, client=client), tmp_path / "deck.zip")
    doc = load_bundle(bundle)
    assert doc.layout_pending  # nothing asked where text is drawn yet
    title = doc.select_one("paragraph")
    assert title is not None and title.box is not None and title.box.origin == "native"
    result = run_check("in_region", doc, {"target": {"text": "Quarterly report"}, "region": "top 20%", "page": 0})
    assert result.status == "pass", result.explanation
    assert not doc.layout_pending and title.box is not None and title.box.origin == "layout"


def test_without_an_export_paragraphs_keep_their_frame() -> None:
    doc = extract_google_response(fixture_json("slides_parity.json"))
    assert not doc.layout_pending and doc.ensure_layout() is False
    para = doc.select_one("paragraph")
    assert para is not None and para.box is not None and para.box.origin == "native"


# -- geometry inherited part by part -----------------------------------------------------

EMU_PER_PT = 12700.0
_PARENT_SIZE = {"width": {"magnitude": 3000000, "unit": "EMU"}, "height": {"magnitude": 3000000, "unit": "EMU"}}
_PARENT_T = {"scaleX": 2.7432, "scaleY": 0.254, "translateX": 457200, "translateY": 254000, "unit": "EMU"}
_OWN_SIZE = {"width": {"magnitude": 2000000, "unit": "EMU"}, "height": {"magnitude": 1000000, "unit": "EMU"}}
_OWN_T = {"scaleX": 1, "scaleY": 1, "translateX": 1270000, "translateY": 5080000, "unit": "EMU"}


def _box(size: dict[str, Any], t: dict[str, Any]) -> tuple[float, float, float, float]:
    w, h = size["width"]["magnitude"] * t["scaleX"], size["height"]["magnitude"] * t["scaleY"]
    x, y = t["translateX"], t["translateY"]
    return (x / EMU_PER_PT, y / EMU_PER_PT, (x + w) / EMU_PER_PT, (y + h) / EMU_PER_PT)


@pytest.mark.parametrize(
    ("own", "want"),
    [
        ({}, _box(_PARENT_SIZE, _PARENT_T)),
        ({"transform": _OWN_T}, _box(_PARENT_SIZE, _OWN_T)),  # moved: the parent's size
        ({"size": _OWN_SIZE}, _box(_OWN_SIZE, _PARENT_T)),  # resized: the parent's place
        ({"size": _OWN_SIZE, "transform": _OWN_T}, _box(_OWN_SIZE, _OWN_T)),
    ],
    ids=["inherits-both", "own-transform", "own-size", "own-both"],
)
def test_placeholder_takes_size_and_transform_independently(own: dict[str, Any], want: tuple[float, ...]) -> None:
    """The Slides API gives a placeholder's ``size`` and ``transform`` separately; each
    one the slide element lacks comes from its parent placeholder (layout, master)."""
    data = fixture_json("slides_features.json")
    element = copy.deepcopy(data["slides"][0]["pageElements"][0])
    assert element["objectId"] == "s_title" and element["shape"]["placeholder"]["parentObjectId"] == "l_title"
    element.pop("size", None)
    element.pop("transform", None)
    element.update(copy.deepcopy(own))
    data["slides"][0]["pageElements"][0] = element
    title = extract_google_response(data).select_one("slide:first-of-type shape[placeholder_type=title]")
    assert title is not None and title.box is not None
    b = title.box
    assert (b.x0, b.top, b.x1, b.bottom) == pytest.approx(want, abs=0.01)


@pytest.mark.slow
def test_every_layout_attribute_is_declared(export_pdf: bytes) -> None:
    from tests.model.test_attributes import undeclared

    doc = extract_google_response(fixture_json("slides_parity.json"), pdf=export_pdf, render=True)
    problems = undeclared(doc, "slides_parity.json")
    assert not problems, "\n".join(problems)


@pytest.mark.slow
def test_a_pptx_stored_in_drive_lays_out_from_its_bundle(tmp_path: Path) -> None:
    """A bundle of a .pptx kept in Drive: the tree is read from a temp copy that is gone
    by the time a check asks for the layout; the layout writes the bytes again."""
    from artifactcheck.snapshot import Capture

    data = (GOOGLE / "slides_parity.pptx").read_bytes()
    cap = Capture(file_id=FILE_ID, kind="office", office_bytes=data, captured_at="2024-01-01T00:00:00Z",
                  metadata={"mimeType": "application/vnd.openxmlformats-officedocument.presentationml.presentation"})
    doc = load_bundle(write_bundle(cap, tmp_path / "pptx.zip"))
    assert doc.artifact.format == "pptx" and doc.layout_pending
    result = run_check("in_region", doc, {"target": {"text": "Quarterly report"}, "region": "top 20%", "page": 0})
    assert result.status == "pass", result.explanation
    para = doc.select_one("paragraph")
    assert para is not None and para.box is not None and para.box.origin == "layout"
