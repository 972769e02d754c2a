"""OCR-localized text checks (mechanism ``geometric``): "the text T appears inside region
R / inside node N / below image I", judged on what is *drawn*, not on the XML.

Where pixels come from, first available wins:

1. ``Resources.extras["page_image"]``: a callable ``(page, dpi) -> PIL.Image``;
2. ``Resources.extras["pdf_path"]``: a PDF of the document (one PDF page per Document page);
   a PDF artifact is its own, and an image file is its own page image;
3. the artifact itself (``doc.artifact.path``), rendered once through the render cache
   (LibreOffice; ``artifactcheck.extractors.render``);
4. for ``ocr_text_in_node`` on an image node: the image's own bytes (its blob).

Word boxes come back in pixels and are mapped to page points (``px * page_width_pt /
image_width_px``, which is ``px * 72 / dpi`` when the rendering has the page's size;
origin top-left, y down) with ``origin="ocr"``. Words in an embedded image are mapped
through the image node's box (and its crop, when the blob is the uncropped original).

Each (pixels, language, psm) is OCR'd at most once per process (``extractors.ocr.engine.OcrEngine``
cache, optionally on disk), and each rendered page image is memoised, so a rubric that asks
ten questions about page 1 runs tesseract once. Without tesseract (or the language pack,
or LibreOffice when rendering is needed) the check is ``skipped`` with the install hint.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from ...errors import MissingDependency
from ...extractors.image import image_page_pixels
from ...extractors.ocr.engine import OcrEngine, OcrResult, default_engine
from ...extractors.ocr.phrase import PhraseMatch, closest_reading, find_phrase
from ...model import Box, Document, Node
from ...model.blobs import decode_image
from ...model.crop import crop_fractions
from ..geometry import (
    PageRef,
    RegionBox,
    _check_region,
    _region_on,
    bounds_dict,
    box_dict,
    page_size,
    place,
    resolve_page,
    result,
    select_placed,
)
from ..layout import extracted_without_layout, without_layout
from ..regions import parse_region
from ..registry import Resources, register_check
from ..result import CheckResult
from ..spatial import center_gap, gap, overlap_fraction, rect_fraction_inside, relate, shape_of
from ..target import TargetSpec, node_ref

if TYPE_CHECKING:
    from PIL import Image  # imported where pixels are read

MIN_OCR_HEIGHT_PX = 600  # small embedded pictures are upscaled to this height for tesseract
MAX_FIRST_UPSCALE = 3.0
"""...but by at most this much: a 120 px logo whose letters fill it, upscaled 5x, had
letters 215 px high, of which tesseract read none (3x: 129 px, read)."""


class OcrOptions(BaseModel):
    """Options every OCR check shares."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    text: str = Field(min_length=1, description="the phrase to find (fuzzy, across word and line breaks)")
    min_score: float = Field(default=80.0, ge=0, le=100, description="rapidfuzz ratio a match needs (0..100); digits and one-character words must read exactly whatever the score")
    lang: str = Field(default="eng", pattern=r"^[A-Za-z_]+(\+[A-Za-z_]+)*$", description="tesseract language(s), e.g. 'eng+deu'")
    psm: int = Field(default=3, ge=0, le=13, description="tesseract page segmentation mode")
    dpi: int = Field(default=150, ge=50, le=600, description="rendering resolution of pages")
    min_conf: float = Field(default=0.0, ge=0, le=100, description="ignore words tesseract is less sure of")


# -- page images -------------------------------------------------------------------------


@dataclass
class _Located:
    """A phrase match in page space."""

    page: int
    match: PhraseMatch
    box: Box
    word_boxes: list[Box]

    def evidence(self) -> dict[str, Any]:
        return {"text": self.match.text, "score": self.match.score, "page": self.page, "box": box_dict(self.box), "words": len(self.word_boxes)}


_PAGE_LOCK = threading.Lock()


class NoPageImages(Exception):
    """No way to get page pixels for this document (reported as ``skipped``)."""


def _engine(resources: Resources) -> OcrEngine:
    engine = resources.extras.get("ocr_engine")
    return engine if isinstance(engine, OcrEngine) else default_engine()


def _pdf_page_index(doc: Document, page: int, pdf_pages: int) -> int:
    """The PDF page showing Document page ``page``: the same index, unless the PDF left
    out hidden slides (LibreOffice does), in which case hidden pages are skipped."""
    if pdf_pages == len(doc.pages):
        return page
    visible = [p.index for p in doc.pages if not p.hidden]
    if pdf_pages == len(visible) and page in visible:
        return visible.index(page)
    if doc.pages[page].hidden:
        raise NoPageImages(f"page {page} is hidden and not in the rendering")
    return page


def page_ocr(doc: Document, page: int, resources: Resources, opts: OcrOptions) -> tuple[OcrResult, float, float]:
    """OCR of Document page ``page`` and the pixel -> point factors (sx, sy)."""

    engine = _engine(resources)
    engine.require_language(opts.lang)
    source: Callable[[int, int], Image.Image] | None = resources.extras.get("page_image")
    pdf_path = resources.extras.get("pdf_path")
    if source is None and (pixels := image_page_pixels(doc, page)) is not None:
        # An image file is its own page: OCR its pixels, nothing is rendered.
        source = _constant_image(pixels)
        ident: tuple[Any, ...] = ("image", doc.artifact.sha256)
        pdf_index = page
    elif source is not None:
        ident = ("callable", source)
        pdf_index = page
    else:
        if pdf_path is None and doc.artifact.format == "pdf" and doc.artifact.path and Path(doc.artifact.path).is_file():
            pdf_path = doc.artifact.path  # the artifact is its own page images: no rendering
        if pdf_path is None:
            if doc.artifact.path is None or doc.artifact.platform != "office" or not Path(doc.artifact.path).is_file():
                raise NoPageImages("no page images: the artifact file is not at hand; give Resources.extras['pdf_path'] or ['page_image']")
            if doc.pages[page].kind == "sheet":
                raise NoPageImages("a sheet's canvas is not a printed page; give Resources.extras['page_image'] to OCR sheets")
            from ...extractors.render import render_pdf

            pdf_path = str(render_pdf(Path(doc.artifact.path)).pdf_path)
        stat = Path(pdf_path).stat()
        ident = ("pdf", str(pdf_path), stat.st_mtime_ns, stat.st_size)
        pdf_index = -1
    key = (*ident, page, opts.dpi, opts.lang, opts.psm)
    with _PAGE_LOCK:
        hit = engine.page_memo.get(key)
    if hit is None:
        if source is not None:
            image = source(page, opts.dpi)
        else:
            from ...extractors.render import page_image
            from ...extractors.render.pdf_check import pdf_page_count

            assert pdf_path is not None  # set above whenever there is no page_image callable
            pdf_index = _pdf_page_index(doc, page, pdf_page_count(Path(pdf_path)))
            image = page_image(Path(pdf_path), pdf_index, dpi=opts.dpi)
        hit = engine.ocr(image, lang=opts.lang, psm=opts.psm)
        with _PAGE_LOCK:
            if len(engine.page_memo) > 4096:  # a long batch: start over rather than grow without bound
                engine.page_memo.clear()
            engine.page_memo[key] = hit
    else:
        engine.hits += 1
    w, h = page_size(doc, page)
    return hit, w / hit.width_px, h / hit.height_px


def _constant_image(image: Image.Image) -> Callable[[int, int], Image.Image]:
    return lambda page, dpi: image


def _union(boxes: list[Box]) -> Box:
    out = boxes[0]
    for b in boxes[1:]:
        out = out.union(b)
    return out


def locate_on_page(doc: Document, page: int, resources: Resources, opts: OcrOptions) -> tuple[list[_Located], OcrResult]:
    found, sx, sy = page_ocr(doc, page, resources, opts)
    located = []
    for m in find_phrase(found, opts.text, min_score=opts.min_score, min_conf=opts.min_conf):
        boxes = [
            Box(page=page, x0=w.left * sx, top=w.top * sy, x1=(w.left + w.width) * sx, bottom=(w.top + w.height) * sy, origin="ocr")
            for w in m.words(found)
        ]
        located.append(_Located(page, m, _union(boxes), boxes))
    return located, found


def locate_in_image(node: Node, doc: Document, resources: Resources, opts: OcrOptions) -> tuple[list[_Located], OcrResult] | None:
    """OCR an image node's own bytes; word boxes mapped into the node's page box. None
    when the node has no decodable blob or no box."""
    sha = node.attrs.get("blob")
    blob = doc.blobs.get(sha) if isinstance(sha, str) else None
    if blob is None or blob.data is None or blob.decode_error or node.box is None:
        return None
    image = _drawn_pixels(blob.data, _backdrop(node))
    engine = _engine(resources)
    scale = min(MAX_FIRST_UPSCALE, max(1.0, MIN_OCR_HEIGHT_PX / max(1, image.height)))
    found = engine.ocr(_scaled(image, scale), lang=opts.lang, psm=opts.psm)
    matches = find_phrase(found, opts.text, min_score=opts.min_score, min_conf=opts.min_conf)
    retry = None if matches else _retry_scale(found, image, scale)
    if retry is not None:
        # Tesseract reads text 20-120 px high; the first scale only knew the picture's
        # height. Read again at the scale the words it read call for.
        again = engine.ocr(_scaled(image, retry), lang=opts.lang, psm=opts.psm)
        again_matches = find_phrase(again, opts.text, min_score=opts.min_score, min_conf=opts.min_conf)
        if again_matches:
            found, matches = again, again_matches
    crop = crop_fractions(node.attrs)
    original = node.attrs.get("original_blob")
    if isinstance(original, str) and original != blob.sha256:
        crop = {}  # the blob already is the shown (cropped) part
    left, right = crop.get("left", 0.0), crop.get("right", 0.0)
    top, bottom = crop.get("top", 0.0), crop.get("bottom", 0.0)
    b = node.box
    drawn = shown_frame(node, b)
    located = []

    def to_pt(px: float, py: float) -> tuple[float, float]:
        u = (px / found.width_px - left) / max(1e-9, 1 - left - right)
        v = (py / found.height_px - top) / max(1e-9, 1 - top - bottom)
        return drawn(u, v)

    for m in matches:
        boxes = []
        for w in m.words(found):
            # all four corners: a turned picture draws the word's top-left elsewhere
            corners = [to_pt(x, y) for x in (w.left, w.left + w.width) for y in (w.top, w.top + w.height)]
            xs, ys = [c[0] for c in corners], [c[1] for c in corners]
            boxes.append(Box(page=b.page, x0=min(xs), top=min(ys), x1=max(xs), bottom=max(ys), origin="ocr"))
        located.append(_Located(b.page, m, _union(boxes), boxes))
    return located, found


SMALL_TEXT_PX, LARGE_TEXT_PX, TARGET_TEXT_PX = 20, 120, 32  # word heights tesseract reads well, and the one to aim for
MAX_OCR_PIXELS = 16_000_000  # an upscaled picture stays below this (a 1400x900 screenshot at 3.5x; tesseract time grows with it)


def _scaled(image: Image.Image, scale: float) -> Image.Image:
    from PIL import Image

    if abs(scale - 1) < 1e-6:
        return image
    return image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.Resampling.LANCZOS)


def _retry_scale(found: OcrResult, image: Image.Image, scale: float) -> float | None:
    """A better scale to read ``image`` at after a miss at ``scale``, or None, from the
    median height of the words read: the 8-10 px labels of a screenshot need 3-4x (at 1x
    tesseract read the 10 px ones and missed the 9 px "Customers"). A picture where
    nothing was read is not read again: most are photos without text, and a miss would
    cost a second run on each."""
    heights = sorted(w.height for w in found.words if w.conf >= 50 and any(ch.isalnum() for ch in w.text))  # words, not a photo's specks
    if not heights:
        return None
    median = heights[len(heights) // 2]
    if SMALL_TEXT_PX <= median <= LARGE_TEXT_PX:
        return None
    wanted = scale * TARGET_TEXT_PX / max(1, median)
    wanted = min(wanted, (MAX_OCR_PIXELS / max(1, image.width * image.height)) ** 0.5)
    wanted = max(wanted, min(1.0, scale))
    return wanted if max(wanted, scale) / min(wanted, scale) >= 1.4 else None


def _drawn_pixels(data: bytes, backdrop: tuple[int, int, int]) -> Image.Image:
    """The picture's pixels as the page shows them: transparency laid over ``backdrop``.
    Converted to RGB as stored, a transparent logo's clear pixels (RGBA 0,0,0,0) turn
    black and its black lettering disappears."""
    from PIL import Image

    rgba: Image.Image = decode_image(data, mode="RGBA")
    if rgba.getchannel("A").getextrema()[0] == 255:
        return rgba.convert("RGB")
    canvas = Image.new("RGBA", rgba.size, (*backdrop, 255))
    canvas.alpha_composite(rgba)
    return canvas.convert("RGB")


def _backdrop(picture: Node) -> tuple[int, int, int]:
    """The colour behind a picture: its slide's solid (or gradient's first) background
    colour, else white (a page, or a slide with a picture background)."""
    slide = next((a for a in picture.ancestors() if a.kind == "slide"), None)
    colour = slide.attrs.get("background_color") if slide is not None and slide.attrs.get("background_type") in ("solid", "gradient") else None
    if isinstance(colour, str) and len(colour) == 7 and colour.startswith("#"):
        try:
            return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
        except ValueError:
            pass
    return 255, 255, 255


Point = tuple[float, float]
_QUARTER_TURNS: dict[int, Point] = {0: (1.0, 0.0), 1: (0.0, 1.0), 2: (-1.0, 0.0), 3: (0.0, -1.0)}  # (cos, sin)


def shown_frame(node: Node, b: Box) -> Callable[[float, float], Point]:
    """Where the page draws a point of a picture's shown part, given as fractions (u, v)
    of its width and height: through its frame's transformed corners when the box keeps
    them (a turned .pptx picture: top-left, top-right, bottom-right, bottom-left, flips
    and groups included), else by its flips and right-angle turn about the box centre (a
    half-turned or mirrored frame keeps an axis-aligned box, and no polygon). Without
    the turn, text read from the top of a picture drawn upside down was placed at the
    top, and a shape covering it there was missed."""
    poly = b.polygon
    if poly is not None and len(poly) == 4:
        (ax, ay), (bx, by), _, (dx, dy) = poly
        return lambda u, v: (ax + u * (bx - ax) + v * (dx - ax), ay + u * (by - ay) + v * (dy - ay))
    mirrored, angle = _drawn_turn(node)
    quarter = round(angle / 90)
    if abs(angle - 90 * quarter) > 0.01:
        quarter = 0  # another angle with no polygon: only the box is known
    cos, sin = _QUARTER_TURNS[quarter % 4]
    w, h = (b.height, b.width) if quarter % 2 else (b.width, b.height)
    cx, cy = b.center

    def to_pt(u: float, v: float) -> Point:
        x, y = (u - 0.5) * w, (v - 0.5) * h
        if mirrored:
            x = -x
        return cx + x * cos - y * sin, cy + x * sin + y * cos  # clockwise on screen (y down)

    return to_pt


def _drawn_turn(node: Node) -> tuple[bool, float]:
    """(mirrored left-right, then turned clockwise by degrees): how the page draws the
    picture's pixels, as OOXML applies ``flipH``/``flipV`` then ``rot`` (a vertical flip
    is a mirror and a half turn); a flipped group's own account when the pptx extractor
    gives one."""
    attrs = node.attrs
    if "mirrored_drawn" in attrs:
        return attrs["mirrored_drawn"] is True, _degrees(attrs.get("rotation_drawn"))
    flip_h, flip_v = attrs.get("flip_h") is True, attrs.get("flip_v") is True
    turn = _degrees(attrs.get("rotation_effective", attrs.get("rotation")))
    return flip_h != flip_v, (turn + (180.0 if flip_v else 0.0)) % 360


def _degrees(value: object) -> float:
    return float(value) % 360 if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


_COVERING_KINDS = frozenset({"shape", "textbox", "image"})
MIN_COVERED = 0.5  # share of the text's box that must be under paint to call it hidden


def hidden_reason(loc: _Located, picture: Node, doc: Document) -> str | None:
    """Why text read from a picture's own pixels is not on the page, or None when it is
    shown: the part of the picture it is in hangs off the page, or an opaque shape or
    picture is drawn over it (on a slide, shapes later in the shape tree are drawn on
    top). A person sees neither; the picture file still holds both."""
    width, height = page_size(doc, loc.page)
    cx, cy = loc.box.center
    if not (0 <= cx <= width and 0 <= cy <= height):
        return "off the page"
    slide = next((a for a in picture.ancestors() if a.kind == "slide"), None)
    if slide is None:
        return None  # z-order of a document's floating shapes is not the tree's order
    for above in slide.descendants():
        if above.order <= picture.order or above.kind not in _COVERING_KINDS or picture.is_inside(above):
            continue
        if above.kind != "image" and not _opaque(above):
            continue
        for b in above.boxes_on(loc.page):
            inside = rect_fraction_inside(_rect(loc.box), _rect(b))
            if inside < MIN_COVERED:
                continue
            if above.kind != "image" or inside * _painted_share(above, b, loc.box, doc) >= MIN_COVERED:
                return f"under {above.id}"
    return None


def _painted_share(picture: Node, b: Box, text: Box, doc: Document) -> float:
    """The share of the part of ``picture`` (drawn in box ``b``) over the ``text`` box
    that its pixels paint: 1 for a picture without transparency, the share of mostly
    opaque pixels for a logo with a transparent background, 0 when its bytes cannot be
    read (not known to hide anything). A turned picture is judged on all its pixels."""
    sha = picture.attrs.get("blob")
    blob = doc.blobs.get(sha) if isinstance(sha, str) else None
    if blob is None or blob.data is None or blob.decode_error:
        return 0.0
    try:
        alpha = decode_image(blob.data, mode="RGBA").getchannel("A")
    except Exception:  # noqa: BLE001 - undecodable or too large: not known to cover
        return 0.0
    if alpha.getextrema()[0] >= 128:
        return 1.0
    if b.polygon is None and b.width > 0 and b.height > 0:
        fx = alpha.width / b.width
        fy = alpha.height / b.height
        x0, x1 = max(text.x0, b.x0), min(text.x1, b.x1)
        y0, y1 = max(text.top, b.top), min(text.bottom, b.bottom)
        part = (round((x0 - b.x0) * fx), round((y0 - b.top) * fy), round((x1 - b.x0) * fx), round((y1 - b.top) * fy))
        if part[2] > part[0] and part[3] > part[1]:
            alpha = alpha.crop(part)
    histogram: list[int] = alpha.histogram()
    return sum(histogram[128:]) / max(1, sum(histogram))


def _rect(b: Box) -> tuple[float, float, float, float]:
    return b.x0, b.top, b.x1, b.bottom


def _opaque(shape: Node) -> bool:
    """The shape paints over what is under it: a solid, gradient, pattern or picture
    fill (a theme's default shape style is a gradient), not a transparent one."""
    fill_type = shape.attrs.get("fill_type")
    alpha = shape.attrs.get("fill_alpha")
    if isinstance(alpha, (int, float)) and alpha < 0.99:
        return False
    if fill_type is None:
        return shape.style is not None and bool(shape.style.fill)
    return fill_type in ("solid", "gradient", "pattern", "picture")


def _skipped(check: str, reason: str, evidence: dict[str, Any] | None = None) -> CheckResult:
    return CheckResult(check=check, status="skipped", mechanism="geometric", explanation=reason, evidence=evidence or {})


def _ocr_evidence(results: list[tuple[int | str, OcrResult]]) -> dict[str, Any]:
    # No count of the engine's calls here: it depends on what the process read before
    # (row order, -j, Dask workers), and a report must be the same for the same input.
    return {
        "ocr": [
            {"source": src, "words": len(r.words), "image_px": [r.width_px, r.height_px], "lang": r.lang, "psm": r.psm, "tesseract_seconds": r.seconds, "text_excerpt": r.text[:200]}
            for src, r in results
        ],
    }


def _closest(results: list[tuple[int | str, OcrResult]], phrase: str) -> str:
    """An explanation's tail for a phrase OCR did not find: the closest thing it read, so
    an author can tell a misread (tesseract missed a drawn "Q1") from text that is not there."""
    best = [m for _, r in results if (m := closest_reading(r, phrase)) is not None]
    if not best:
        return "; OCR read no words there"
    m = max(best, key=lambda m: m.score)
    return f"; the closest OCR reading is {m.text!r} (score {m.score:g}): if the text is drawn, OCR misread it (a higher dpi or psm 11 for sparse text may read it)"


def _guarded(check: str, body: Callable[[], CheckResult]) -> CheckResult:
    """Run a check body; absent tools or pixels become ``skipped`` with the reason."""
    try:
        return body()
    except MissingDependency as exc:
        return _skipped(check, str(exc), {"missing": exc.what, "install": exc.hint})
    except NoPageImages as exc:
        return _skipped(check, str(exc))


# -- ocr_text_in_region ----------------------------------------------------------------


class OcrRegionParams(OcrOptions):
    region: str | RegionBox = "page"
    page: PageRef = None
    tolerance_pt: float = Field(default=2.0, ge=0, description="grow the region by this much (OCR boxes are tight)")

    _region = field_validator("region")(_check_region)


def _pages_to_search(doc: Document, ref: PageRef, region: str | RegionBox) -> tuple[list[int], str | None]:
    named = parse_region(region).page if isinstance(region, str) else None
    if named is not None:
        if ref is not None and ref != named:
            return [], f"region {region!r} names the {named} page but page={ref!r}"
        ref = named
    if ref is None:
        return [p.index for p in doc.pages], None
    index, missing = resolve_page(doc, ref)
    return ([index] if index is not None else []), missing


@register_check(
    "ocr_text_in_region",
    mechanism="geometric",
    params=OcrRegionParams,
    example={"text": "Quarterly report", "region": "top 20%", "page": 0},
)
def ocr_text_in_region(doc: Document, p: OcrRegionParams, resources: Resources) -> CheckResult:
    """OCR finds the text inside a page region ("top 20%", "last page bottom third"); without page, on any page.

    A match is inside when its word boxes' union is covered by the region grown by
    ``tolerance_pt``. Turned or mirrored pictures on the page, whose text the page's OCR
    cannot read, are also read from their own pixels (words placed where they are drawn,
    hidden ones left out) when the page's OCR has no match inside. Matches found
    elsewhere are listed with their boxes, so a failure says where the text actually is.
    """
    name = "ocr_text_in_region"
    if extracted_without_layout(doc):
        return without_layout(name, "geometric", "which page a region is on")

    def body() -> CheckResult:
        pages, missing = _pages_to_search(doc, p.page, p.region)
        evidence: dict[str, Any] = {"text": p.text, "region": p.region if isinstance(p.region, str) else p.region.model_dump(), "min_score": p.min_score}
        if missing:
            return result(name, passed=False, explanation=missing, evidence=evidence)
        _engine(resources)  # MissingDependency (-> skipped) before any page is rendered
        matches: list[dict[str, Any]] = []
        ocr_runs: list[tuple[int | str, OcrResult]] = []
        inside_any: dict[str, Any] | None = None
        for page in pages:
            located, found = locate_on_page(doc, page, resources, p)
            ocr_runs.append((page, found))
            w, h = page_size(doc, page)
            x0, top, x1, bottom = _region_on(p.region, w, h)
            region_shape = shape_of(Box(page=page, x0=x0, top=top, x1=x1, bottom=bottom))
            sources: list[tuple[_Located, str | None]] = [(loc, None) for loc in located]
            if not any(relate("covered_by", shape_of(loc.box), region_shape, tolerance=p.tolerance_pt) for loc in located):
                sources += _turned_picture_matches(doc, page, resources, p, ocr_runs)
            for loc, picture in sources:
                inside = relate("covered_by", shape_of(loc.box), region_shape, tolerance=p.tolerance_pt)
                row = {**loc.evidence(), "inside": inside, "region_pt": bounds_dict((x0, top, x1, bottom), page)}
                if picture is not None:
                    row["read_from"] = picture
                matches.append(row)
                if inside and inside_any is None:
                    inside_any = row
            if inside_any is not None:
                break  # found: later pages need not be OCR'd
        evidence.update(matches=matches[:20], pages_searched=[pg for pg, _ in ocr_runs if isinstance(pg, int)], **_ocr_evidence(ocr_runs))
        if inside_any is not None:
            explanation = f"OCR found {inside_any['text']!r} (score {inside_any['score']}) inside region {evidence['region']!r} on page {inside_any['page']}"
            return result(name, passed=True, explanation=explanation, evidence=evidence)
        if matches:
            m = matches[0]
            explanation = f"OCR found {m['text']!r} on page {m['page']} at {m['box']}, outside region {evidence['region']!r} {m['region_pt']}"
        else:
            explanation = f"OCR did not find {p.text!r} (min score {p.min_score:g}) on page(s) {evidence['pages_searched']}"
            explanation += _closest(ocr_runs, p.text)
        return result(name, passed=False, explanation=explanation, evidence=evidence)

    return _guarded(name, body)


def _turned_picture_matches(
    doc: Document, page: int, resources: Resources, opts: OcrOptions, ocr_runs: list[tuple[int | str, OcrResult]]
) -> list[tuple[_Located, str | None]]:
    """The phrase in the page's turned or mirrored pictures, read from their own pixels
    and placed where the page draws them, leaving out what is hidden: the page's OCR does
    not read upside-down or vertical text (a stamp turned 180 read as 'poAqiddy')."""
    out: list[tuple[_Located, str | None]] = []
    for node in doc:
        if node.kind != "image" or node.box is None or node.box.page != page or not _is_turned(node):
            continue
        got = locate_in_image(node, doc, resources, opts)
        if got is None:
            continue
        located, found = got
        ocr_runs.append((node.id, found))
        out += [(loc, node.id) for loc in located if hidden_reason(loc, node, doc) is None]
    return out


def _is_turned(node: Node) -> bool:
    mirrored, angle = _drawn_turn(node)
    return mirrored or angle % 360 != 0 or (node.box is not None and node.box.polygon is not None)


# -- ocr_text_in_node ------------------------------------------------------------------


class OcrNodeParams(OcrOptions):
    target: TargetSpec
    source: Literal["auto", "page", "image"] = Field(
        default="auto", description="auto: an image node's own pixels, else the rendered page; page: always the page"
    )
    tolerance_pt: float = Field(default=2.0, ge=0)


@register_check(
    "ocr_text_in_node",
    mechanism="geometric",
    params=OcrNodeParams,
    example={"text": "Signed", "target": "image"},
)
def ocr_text_in_node(doc: Document, p: OcrNodeParams, resources: Resources) -> CheckResult:
    """OCR finds the text drawn inside a target node's box (text in a picture, a shape, a cell).

    For image nodes (``source="auto"`` or ``"image"``) the picture's own pixels are read and
    word boxes mapped into the node's box; a word the page does not show is not found (in
    a part of the picture off the page, or under an opaque shape drawn over it on a slide).
    Otherwise the rendered page is read and a match counts when it lies within the node's
    box (grown by ``tolerance_pt``). Passes when any target node shows the text.
    """
    name = "ocr_text_in_node"

    def body() -> CheckResult:
        nodes = select_placed(doc, p.target)
        evidence: dict[str, Any] = {"text": p.text, "source": p.source, "min_score": p.min_score}
        if not nodes:
            return result(name, passed=False, explanation=f"no node matches {p.target.describe()}", evidence=evidence)
        _engine(resources)  # MissingDependency (-> skipped) before any page is rendered
        rows: list[dict[str, Any]] = []
        ocr_runs: list[tuple[int | str, OcrResult]] = []
        hit: dict[str, Any] | None = None
        for node in nodes:
            row: dict[str, Any] = {**node_ref(node), "boxes": [box_dict(b) for b in node.boxes]}
            use_image = node.kind == "image" and p.source in ("auto", "image")
            if use_image:
                got = locate_in_image(node, doc, resources, p)
                if got is None:
                    if p.source == "image":
                        row["reason"] = "no decodable image bytes or no box"
                        rows.append(row)
                        continue
                    use_image = False
                else:
                    located, found = got
                    ocr_runs.append((node.id, found))
                    hidden = {id(loc): why for loc in located if (why := hidden_reason(loc, node, doc))}
                    row["matches"] = [{**loc.evidence(), **({"hidden": hidden[id(loc)]} if id(loc) in hidden else {})} for loc in located]
                    row["found"] = any(id(loc) not in hidden for loc in located)
            if not use_image:
                placed = place(node, None)
                if placed is None:
                    row["reason"] = "not drawn (no box)"
                    rows.append(row)
                    continue
                located, found = locate_on_page(doc, placed.page, resources, p)
                ocr_runs.append((placed.page, found))
                inside = [loc for loc in located if relate("covered_by", shape_of(loc.box), placed.shape, tolerance=p.tolerance_pt)]
                row["matches"] = [{**loc.evidence(), "inside": loc in inside} for loc in located]
                row["found"] = bool(inside)
            rows.append(row)
            if row.get("found"):
                hit = row
                break
        evidence.update(nodes=rows[:20], **_ocr_evidence(ocr_runs))
        if hit is not None:
            m = next(x for x in hit["matches"] if x.get("inside", True) and "hidden" not in x)
            return result(name, passed=True, explanation=f"OCR found {m['text']!r} (score {m['score']}) inside {hit['id']}", evidence=evidence)
        elsewhere = [m for r in rows for m in r.get("matches", [])]
        explanation = f"OCR did not find {p.text!r} inside any of {len(nodes)} node(s) matching {p.target.describe()}"
        hidden_matches = [m for m in elsewhere if "hidden" in m]
        if hidden_matches:
            m = hidden_matches[0]
            explanation += f"; the picture file holds {m['text']!r} but it is not shown ({m['hidden']})"
        elif elsewhere:
            explanation += f"; it appears at {elsewhere[0]['box']} (outside)"
        else:
            explanation += _closest(ocr_runs, p.text)
        return result(name, passed=False, explanation=explanation, evidence=evidence)

    return _guarded(name, body)


# -- ocr_text_near -----------------------------------------------------------------------


NEAR_GAP_PT = 36.0
"""How far "near" reaches by default (half an inch). In the files built for the OCR sweep
the captions sat 1-16 pt from their pictures, and the body sentence citing the same figure
53 pt below, where an unbounded default passed a caption placed above the picture."""


class OcrNearParams(OcrOptions):
    anchor: TargetSpec
    relation: Literal["above", "below", "left_of", "right_of"] = "below"
    tolerance_pt: float = Field(default=2.0, ge=0, description="allowed overlap with the anchor")
    max_gap_pt: float | None = Field(
        default=NEAR_GAP_PT,
        ge=0,
        description="the text must be at most this far from the anchor (default half an inch: a caption is next to "
        "its picture, a sentence further down that cites it is not); null: anywhere on that side on the page",
    )
    require_overlap: bool = Field(default=True, description="the text must share some extent with the anchor across the relation's axis")


@register_check(
    "ocr_text_near",
    mechanism="geometric",
    params=OcrNearParams,
    example={"text": "Figure 1", "anchor": "image", "relation": "below", "max_gap_pt": 36},
)
def ocr_text_near(doc: Document, p: OcrNearParams, resources: Resources) -> CheckResult:
    """OCR finds the text above / below / left_of / right_of an anchor node on the anchor's page ("caption below the image").

    The text's box must be clear of the anchor's facing edge (overlap <= ``tolerance_pt``),
    within ``max_gap_pt`` (default 36 pt: near, as a caption is; null for anywhere on that
    side), and (``require_overlap``) share some width (above/below) or height (left/right)
    with the anchor.
    """
    name = "ocr_text_near"

    def body() -> CheckResult:
        anchors = select_placed(doc, p.anchor)
        evidence: dict[str, Any] = {"text": p.text, "relation": p.relation, "max_gap_pt": p.max_gap_pt, "tolerance_pt": p.tolerance_pt}
        if not anchors:
            return result(name, passed=False, explanation=f"no anchor matches {p.anchor.describe()}", evidence=evidence)
        _engine(resources)  # MissingDependency (-> skipped) before any page is rendered
        rows: list[dict[str, Any]] = []
        ocr_runs: list[tuple[int | str, OcrResult]] = []
        best: dict[str, Any] | None = None
        for anchor in anchors:
            placed = place(anchor, None)
            if placed is None:
                rows.append({**node_ref(anchor), "reason": "not drawn (no box)"})
                continue
            located, found = locate_on_page(doc, placed.page, resources, p)
            if not any(pg == placed.page for pg, _ in ocr_runs):
                ocr_runs.append((placed.page, found))
            a = placed.bounds
            for loc in located:
                t = (loc.box.x0, loc.box.top, loc.box.x1, loc.box.bottom)
                g = gap(t, a, p.relation)
                if p.relation in ("above", "below"):
                    cross = overlap_fraction(t[0], t[2], a[0], a[2])
                else:
                    cross = overlap_fraction(t[1], t[3], a[1], a[3])
                ok = g >= -p.tolerance_pt and (p.max_gap_pt is None or g <= p.max_gap_pt) and (cross > 0 or not p.require_overlap)
                row = {**loc.evidence(), "anchor": anchor.id, "anchor_box": bounds_dict(a, placed.page), "gap_pt": round(g, 2), "cross_overlap": round(cross, 4), "center_offset_pt": round(center_gap(t, a, p.relation), 2), "ok": ok}
                rows.append(row)
                if ok and best is None:
                    best = row
            if best is not None:
                break
        evidence.update(matches=rows[:20], **_ocr_evidence(ocr_runs))
        if best is not None:
            return result(name, passed=True, explanation=f"OCR found {best['text']!r} {p.relation.replace('_', ' ')} {best['anchor']} (gap {best['gap_pt']} pt)", evidence=evidence)
        found_rows = [r for r in rows if "gap_pt" in r]
        if found_rows:
            # the match nearest to passing: on the asked side (the closest), else the first
            on_side = [r for r in found_rows if r["gap_pt"] >= -p.tolerance_pt]
            r = min(on_side, key=lambda r: r["gap_pt"]) if on_side else found_rows[0]
            explanation = f"OCR found {r['text']!r} but not {p.relation.replace('_', ' ')} {r['anchor']}: gap {r['gap_pt']} pt, cross overlap {r['cross_overlap']}"
            if p.max_gap_pt is not None and r["gap_pt"] > p.max_gap_pt:
                explanation += f" (further than max_gap_pt {p.max_gap_pt:g})"
        else:
            explanation = f"OCR did not find {p.text!r} on the anchor's page"
            explanation += _closest(ocr_runs, p.text)
        return result(name, passed=False, explanation=explanation, evidence=evidence)

    return _guarded(name, body)
