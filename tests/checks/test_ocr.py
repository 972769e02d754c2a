"""OCR checks with real tesseract: text drawn with a real font into a picture, and a real
deck rendered by LibreOffice. Few and small: OCR is the slow part of the suite."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from artifactcheck.checks.registry import Resources, get_check, run_check
from artifactcheck.checks.result import CheckResult
from artifactcheck.extractors.ocr.engine import OcrEngine
from artifactcheck.extractors.ocr.phrase import find_phrase
from artifactcheck.model import Document
from tests.checks.geometry_docs import Item, build_deck, load_deck, picture_bytes, plain_doc

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

pytestmark = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract not installed")


def text_image(lines: list[str], size: tuple[int, int] = (900, 300), font_px: int = 44) -> bytes:
    img = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(img)
    font = ImageFont.truetype(FONT, font_px)
    for i, line in enumerate(lines):
        draw.text((40, 40 + i * (font_px + 30)), line, fill="black", font=font)
    out = io.BytesIO()
    img.save(out, format="PNG")
    return out.getvalue()


SIGNATURE = text_image(["Signed by Ada Lovelace", "London, 1843"])


# -- the engine ------------------------------------------------------------------------


def test_engine_reads_words_with_boxes_and_caches(tmp_path: Path) -> None:
    engine = OcrEngine(cache_dir=tmp_path)
    image = Image.open(io.BytesIO(SIGNATURE))
    first = engine.ocr(image)
    assert engine.calls == 1 and "Lovelace" in first.text
    match = find_phrase(first, "ada lovelace")[0]
    words = match.words(first)
    assert [w.text for w in words] == ["Ada", "Lovelace"]
    # "Ada" starts right of "Signed by" on the first line (drawn at x=40, y=40, 44 px).
    assert 200 < words[0].left < 400 and 30 < words[0].top < 70
    assert engine.ocr(image) is first and engine.calls == 1  # memory cache
    again = OcrEngine(cache_dir=tmp_path)
    assert again.ocr(image).text == first.text and again.calls == 0 and again.hits == 1  # disk cache


def test_phrase_across_a_line_break() -> None:
    engine = OcrEngine()
    result = engine.ocr(Image.open(io.BytesIO(SIGNATURE)))
    matches = find_phrase(result, "Lovelace London 1843")
    assert matches and matches[0].score >= 90
    assert not find_phrase(result, "Charles Babbage")


FACTS = text_image(["Figure 2: Dashboard overview", "Total Due: $1,250.00", "Q3 2024 Table B"], size=(1000, 320))


def test_a_wrong_number_or_label_is_not_a_near_match() -> None:
    # One changed digit costs a long phrase only a few points of similarity ("$1,750.00" on
    # "$1,250.00" scored 94); the numbers and one-letter labels are what the author asks about.
    result = OcrEngine().ocr(Image.open(io.BytesIO(FACTS)))
    for phrase in ["Figure 2", "Total Due: $1,250.00", "Q3 2024", "Table B", "dashboard overview"]:
        assert find_phrase(result, phrase), (phrase, result.text)
    for phrase in ["Figure 1", "Figure 12", "Total Due: $1,750.00", "Q3 2023", "Table A", "Dashboard overview 2025"]:
        assert not find_phrase(result, phrase), (phrase, find_phrase(result, phrase))



def test_a_miss_says_what_ocr_read_instead(picture_deck: Document) -> None:
    """An author must tell "not there" from "OCR misread it": the explanation quotes the
    closest reading."""
    miss = run_check("ocr_text_in_node", picture_deck, {"text": "Signed by Ada Lovelase 1844", "target": 'image[name="Signature"]'})
    assert miss.status == "fail"
    assert "the closest OCR reading is 'Signed by Ada Lovelace" in miss.explanation, miss.explanation


# -- checks on a picture's own pixels ---------------------------------------------------


@pytest.fixture(scope="module")
def picture_deck(tmp_path_factory: pytest.TempPathFactory) -> Document:
    path = tmp_path_factory.mktemp("ocr") / "signature.pptx"
    slides = [[Item("picture", 360, 400, 300, 100, name="Signature", image=SIGNATURE), Item("picture", 20, 20, 100, 75, name="Logo", image=picture_bytes(1))]]
    return load_deck(build_deck(path, slides))


def test_text_inside_an_image(picture_deck: Document) -> None:
    engine = OcrEngine()
    res = Resources(extras={"ocr_engine": engine})
    r = run_check("ocr_text_in_node", picture_deck, {"text": "Ada Lovelace", "target": "image"}, res)
    assert r.status == "pass", r.explanation
    box = r.evidence["nodes"][-1]["matches"][0]["box"]
    # Mapped from picture pixels into the picture's place on the slide (x 360..660, y 400..500).
    assert 360 < box["x0"] < box["x1"] < 660 and 400 < box["top"] < box["bottom"] < 500 and box["origin"] == "ocr"
    miss = run_check("ocr_text_in_node", picture_deck, {"text": "Charles Babbage", "target": "image"}, res)
    assert miss.status == "fail" and "did not find" in miss.explanation
    assert engine.calls == 2  # two pictures, each read once across both checks


def test_missing_tesseract_and_language_are_skipped(picture_deck: Document, monkeypatch: pytest.MonkeyPatch) -> None:
    import pytesseract

    r = run_check("ocr_text_in_node", picture_deck, {"text": "Ada", "target": "image", "lang": "zzz"}, Resources(extras={"ocr_engine": OcrEngine()}))
    assert r.status == "skipped" and "tesseract-ocr-zzz" in r.explanation and r.score is None
    monkeypatch.setattr(pytesseract.pytesseract, "tesseract_cmd", "/nonexistent/tesseract")
    r = run_check("ocr_text_in_node", picture_deck, {"text": "Ada", "target": "image"}, Resources(extras={"ocr_engine": OcrEngine()}))
    assert r.status == "skipped" and "apt-get install tesseract-ocr" in r.explanation


def test_no_page_images_is_skipped() -> None:
    doc = plain_doc({"box": (0, 10, 10, 100, 50)})
    r = run_check("ocr_text_in_region", doc, {"text": "hello", "region": "top"}, Resources(extras={"ocr_engine": OcrEngine()}))
    assert r.status == "skipped" and "pdf_path" in r.explanation


def test_bad_options_are_parameter_errors(picture_deck: Document) -> None:
    r = run_check("ocr_text_in_region", picture_deck, {"text": "x", "psm": 42})
    assert r.status == "error" and "psm" in r.explanation
    r = run_check("ocr_text_in_region", picture_deck, {"text": "x", "languages": "eng"})
    assert r.status == "error"


# -- checks on a rendered page ----------------------------------------------------------


def rendered(tmp_path_factory: pytest.TempPathFactory, name: str, slides: list[list[Item]]) -> Document:
    """A python-pptx deck of ``slides``, read back; its pages are rendered by LibreOffice
    when an OCR check asks (skipped where LibreOffice is not installed)."""
    if shutil.which("soffice") is None:
        pytest.skip("LibreOffice not installed")
    return load_deck(build_deck(tmp_path_factory.mktemp(name) / f"{name}.pptx", slides))


@pytest.fixture(scope="module")
def rendered_deck(tmp_path_factory: pytest.TempPathFactory) -> Document:
    slides = [
        [
            Item("textbox", 60, 30, 600, 60, name="Title", text="Quarterly Revenue Report", font_size=36),
            Item("picture", 210, 150, 300, 225, name="Chart", image=picture_bytes(3, (400, 300))),
            Item("textbox", 210, 390, 300, 40, name="Caption", text="Figure 1 Sales by region", font_size=20),
        ]
    ]
    return rendered(tmp_path_factory, "ocrdeck", slides)


@pytest.mark.slow
def test_rendered_page_region_and_relative_position(rendered_deck: Document) -> None:
    engine = OcrEngine()
    res = Resources(extras={"ocr_engine": engine})
    top = run_check("ocr_text_in_region", rendered_deck, {"text": "Quarterly Revenue Report", "region": "top 20%", "page": 0}, res)
    assert top.status == "pass", top.explanation
    bottom = run_check("ocr_text_in_region", rendered_deck, {"text": "Quarterly Revenue Report", "region": "bottom third", "page": 0}, res)
    assert bottom.status == "fail" and "outside region" in bottom.explanation
    box = bottom.evidence["matches"][0]["box"]
    # Inside the title textbox (x 60..660, y 30..90 pt); LibreOffice centres unwrapped text.
    assert 60 <= box["x0"] < box["x1"] <= 660 and 30 <= box["top"] < box["bottom"] <= 90
    below = run_check("ocr_text_near", rendered_deck, {"text": "Sales by region", "anchor": 'image[name="Chart"]', "relation": "below", "max_gap_pt": 40}, res)
    assert below.status == "pass", below.explanation
    above = run_check("ocr_text_near", rendered_deck, {"text": "Sales by region", "anchor": 'image[name="Chart"]', "relation": "above"}, res)
    assert above.status == "fail"
    in_node = run_check("ocr_text_in_node", rendered_deck, {"text": "Figure 1", "target": 'textbox[name="Caption"]'}, res)
    assert in_node.status == "pass", in_node.explanation
    assert engine.calls == 1  # five checks, one page: tesseract ran once
    for r in (top, bottom, below, above, in_node):
        assert CheckResult.model_validate_json(r.model_dump_json()) == r


POSTER = text_image(["Team Photo", "", "", "SECRET"], size=(900, 600), font_px=60)


@pytest.fixture(scope="module")
def hidden_parts(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """python-pptx: a picture placed low, its lower half below the slide's edge (what an
    agent gets by giving only a width); the same picture with a filled rectangle added
    over its lower half."""
    slides = [
        [Item("picture", 210, 300, 360, 240 * 2, name="Low", image=POSTER)],
        [Item("picture", 210, 60, 360, 240 * 2, name="Covered", image=POSTER), Item("box", 180, 280, 420, 280, name="Cover")],
    ]
    return rendered(tmp_path_factory, "hidden", slides)


@pytest.mark.slow
def test_text_in_a_picture_that_is_not_shown_is_not_found(hidden_parts: Document) -> None:
    """The picture file holds "SECRET"; the render shows it on neither slide (the page's own
    OCR agrees), so reading the picture's pixels must not find it either."""
    res = Resources(extras={"ocr_engine": OcrEngine()})
    for k, name in enumerate(("Low", "Covered")):
        target = f'image[name="{name}"]'
        shown = run_check("ocr_text_in_node", hidden_parts, {"text": "Team Photo", "target": target}, res)
        assert shown.status == "pass", shown.explanation
        truth = run_check("ocr_text_in_region", hidden_parts, {"text": "SECRET", "region": "page", "page": k}, res)
        assert truth.status == "fail", truth.explanation  # the render does not show it
        hidden = run_check("ocr_text_in_node", hidden_parts, {"text": "SECRET", "target": target}, res)
        assert hidden.status == "fail", hidden.explanation
        assert ("off the page" if name == "Low" else "under s1/sh1") in hidden.explanation


@pytest.fixture(scope="module")
def cited_deck(tmp_path_factory: pytest.TempPathFactory) -> Document:
    """The caption above the chart, and a sentence citing the figure 60 pt below it."""
    slides = [
        [
            Item("textbox", 210, 60, 300, 36, name="Caption", text="Figure 1 Sales by region", font_size=20),
            Item("picture", 210, 100, 300, 225, name="Chart", image=picture_bytes(3, (400, 300))),
            Item("textbox", 210, 385, 300, 40, name="Body", text="As Figure 1 shows, sales rose", font_size=20),
        ]
    ]
    return rendered(tmp_path_factory, "cited", slides)


@pytest.mark.slow
def test_near_means_near_by_default(cited_deck: Document) -> None:
    res = Resources(extras={"ocr_engine": OcrEngine()})
    chart = 'image[name="Chart"]'
    below = run_check("ocr_text_near", cited_deck, {"text": "Figure 1", "anchor": chart, "relation": "below"}, res)
    assert below.status == "fail" and "further than max_gap_pt 36" in below.explanation, below.explanation
    above = run_check("ocr_text_near", cited_deck, {"text": "Figure 1", "anchor": chart, "relation": "above"}, res)
    assert above.status == "pass", above.explanation
    anywhere = run_check("ocr_text_near", cited_deck, {"text": "Figure 1", "anchor": chart, "relation": "below", "max_gap_pt": None}, res)
    assert anywhere.status == "pass", anywhere.explanation


def test_ocr_checks_are_registered() -> None:
    for name in ("ocr_text_in_region", "ocr_text_in_node", "ocr_text_near"):
        spec = get_check(name)
        assert spec.mechanism == "geometric" and spec.summary and spec.example
