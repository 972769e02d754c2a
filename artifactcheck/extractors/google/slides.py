"""Google Slides (Slides API v1 ``presentations.get``) -> Document tree.

A pure function of the response (plus image bytes); see :mod:`.access` for the
network. Kinds match the .pptx extractor: ``slide`` > ``shape`` / ``image`` / ``table`` /
``group`` / ``chart`` (Sheets charts) / ``media`` (videos) > ``paragraph`` > ``run``;
speaker notes are a ``note`` child of their slide. Lines are ``shape`` with
``attrs.shape_type = "line"``.

Geometry (native, slide space, points, origin top-left): an element's box is its
``size`` rectangle mapped through its *absolute* affine transform — the element's own
transform pre-concatenated with those of every enclosing group (the API gives child
transforms relative to the group, like python-pptx's child offsets). Rotated or sheared
elements keep their outline as the box polygon (``Box.around``). Nothing is clamped.

Effective text style: the run's own style, then the parent placeholder's (layout, then
master — ``placeholder.parentObjectId`` chain) style at the same list nesting level (the
newline run of that level's paragraph, as the API documents), then Slides' defaults
(Arial 18 pt, theme DARK1; 14 pt in table cells). Theme colours resolve through the
colour scheme of the slide's master (its layout's master when the slide omits it).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, cast

from ...model import (
    ArtifactInfo,
    Box,
    Document,
    Node,
    NodeKind,
    Page,
    Style,
    ToolInfo,
    describe_image,
)
from ...model.units import emu_to_pt
from ..pptx.deck import orientation
from ..pptx.see_through import see_through
from ..tree_builder import fill_container_text
from .values import dimension_pt, index_value, rgb_hex, theme_color_hex

Json = dict[str, Any]
ImageBytes = Mapping[str, tuple[bytes, str]]
Matrix = tuple[float, float, float, float, float, float]  # a b c d e f: x' = a x + c y + e

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
# Slides' enum names -> the OOXML names the .pptx extractor reports, so one rubric
# (``shape[placeholder_type="title"]``) selects both.
PLACEHOLDER_NAMES = {
    "TITLE": "title", "CENTERED_TITLE": "ctrTitle", "SUBTITLE": "subTitle", "BODY": "body",
    "SLIDE_NUMBER": "sldNum", "DATE_AND_TIME": "dt", "FOOTER": "ftr", "HEADER": "hdr",
    "OBJECT": "obj", "CHART": "chart", "TABLE": "tbl", "CLIP_ART": "clipArt", "PICTURE": "pic",
    "SLIDE_IMAGE": "sldImg",
}
PRESET_NAMES = {
    "TEXT_BOX": "rect", "RECTANGLE": "rect", "ROUND_RECTANGLE": "roundRect", "ELLIPSE": "ellipse",
    "TRIANGLE": "triangle", "RIGHT_ARROW": "rightArrow", "LEFT_ARROW": "leftArrow",
    "STAR_5": "star5", "STAR_32": "star32", "CLOUD": "cloud", "CUSTOM": "custom",
}
_ALIGN = {"START": "left", "CENTER": "center", "END": "right", "JUSTIFIED": "justify"}
_VALIGN = {"TOP": "top", "MIDDLE": "middle", "BOTTOM": "bottom"}
DEFAULT_TEXT: Json = {
    "fontFamily": "Arial", "fontSize": {"magnitude": 18, "unit": "PT"},
    "foregroundColor": {"opaqueColor": {"themeColor": "DARK1"}},
}
DEFAULT_TABLE_TEXT: Json = {**DEFAULT_TEXT, "fontSize": {"magnitude": 14, "unit": "PT"}}


# -- affine maths -----------------------------------------------------------------------


def transform_matrix(t: Mapping[str, Any] | None) -> Matrix:
    """An AffineTransform as (a, b, c, d, e, f) with translation in points.

    x' = scaleX*x + shearX*y + translateX ; y' = shearY*x + scaleY*y + translateY.
    Omitted fields are 0 (proto3), so a transform with no scale collapses to a line —
    which is what the API means (lines have zero-size axes)."""
    if not t:
        return IDENTITY
    to_pt = emu_to_pt if t.get("unit", "EMU") == "EMU" else (lambda v: v)
    return (
        float(t.get("scaleX", 0) or 0),
        float(t.get("shearY", 0) or 0),
        float(t.get("shearX", 0) or 0),
        float(t.get("scaleY", 0) or 0),
        to_pt(float(t.get("translateX", 0) or 0)),
        to_pt(float(t.get("translateY", 0) or 0)),
    )


def compose(parent: Matrix, child: Matrix) -> Matrix:
    """parent ∘ child: apply ``child`` first, then ``parent``."""
    a1, b1, c1, d1, e1, f1 = parent
    a2, b2, c2, d2, e2, f2 = child
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def element_box(page: int, m: Matrix, width: float, height: float) -> Box:
    """The box of a width x height (points) rectangle under absolute transform ``m``:
    axis-aligned when ``m`` has no rotation/shear, else the bounding box of the mapped
    corners with the polygon kept (clockwise from the unrotated top-left)."""
    corners = [apply(m, 0, 0), apply(m, width, 0), apply(m, width, height), apply(m, 0, height)]
    _a, b, c, _d, _e, _f = m
    if abs(b) > 1e-9 or abs(c) > 1e-9:
        return Box.around(page, corners)
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    return Box(page=page, x0=min(xs), top=min(ys), x1=max(xs), bottom=max(ys))


# -- presentation context ----------------------------------------------------------------


@dataclass
class _Deck:
    elements: dict[str, Json]  # objectId -> page element, over layouts, masters, notes master
    layouts: dict[str, Json]
    masters: dict[str, Json]
    images: ImageBytes
    blobs: dict[str, Any]
    missing_images: int = 0

    def blob_for(self, url: str | None, name: str) -> str | None:
        if not url:
            return None
        if url in self.images:
            data, mime = self.images[url]
            blob = describe_image(data, mime=mime, name=name)
            self.blobs[blob.sha256] = blob
            return blob.sha256
        self.missing_images += 1
        return None


def _index_elements(pages: list[Json], out: dict[str, Json]) -> None:
    stack = [e for p in pages for e in p.get("pageElements", []) or []]
    while stack:
        el = stack.pop()
        out[str(el.get("objectId"))] = el
        stack.extend((el.get("elementGroup") or {}).get("children", []) or [])


def theme_of(master: Mapping[str, Any] | None) -> dict[str, str]:
    """The master's colour scheme as ``{"DARK1": "#000000", ...}``."""
    scheme = ((master or {}).get("pageProperties") or {}).get("colorScheme") or {}
    out: dict[str, str] = {}
    for entry in scheme.get("colors", []) or []:
        hexv = rgb_hex(entry.get("color") or {})
        if entry.get("type") and hexv:
            out[str(entry["type"])] = hexv
    # Slides aliases: TEXT1/BACKGROUND1 are DARK1/LIGHT1 when the scheme omits them.
    for alias, base in (("TEXT1", "DARK1"), ("BACKGROUND1", "LIGHT1"), ("TEXT2", "DARK2"), ("BACKGROUND2", "LIGHT2")):
        if alias not in out and base in out:
            out[alias] = out[base]
    return out


# -- text ---------------------------------------------------------------------------------


@dataclass
class _Para:
    marker: Json
    runs: list[Json]


def paragraphs_of(text: Mapping[str, Any] | None) -> list[_Para]:
    """Split textElements into paragraphs (a paragraphMarker opens each one)."""
    paras: list[_Para] = []
    for el in (text or {}).get("textElements", []) or []:
        if "paragraphMarker" in el:
            paras.append(_Para(el["paragraphMarker"], []))
        elif ("textRun" in el or "autoText" in el):
            if not paras:
                paras.append(_Para({}, []))
            paras[-1].runs.append(el)
    return paras


MAX_LIST_LEVEL = 8  # Slides lists, like Docs lists, have nine levels (0-8)


def _level_of(marker: Mapping[str, Any]) -> int:
    return index_value((marker.get("bullet") or {}).get("nestingLevel"), "nestingLevel", at_most=MAX_LIST_LEVEL)


def _level_styles(element: Mapping[str, Any] | None) -> dict[int, tuple[Json, Json]]:
    """For a placeholder parent: nesting level -> (text style of the paragraph's newline
    run, paragraph style)."""
    out: dict[int, tuple[Json, Json]] = {}
    text = ((element or {}).get("shape") or {}).get("text")
    for para in paragraphs_of(text):
        level = _level_of(para.marker)
        if level in out:
            continue
        last = para.runs[-1] if para.runs else {}
        ts = (last.get("textRun") or last.get("autoText") or {}).get("style") or {}
        out[level] = (dict(ts), dict(para.marker.get("style") or {}))
    return out


def _parent_chain(element: Mapping[str, Any], deck: _Deck) -> list[Json]:
    chain: list[Json] = []
    seen: set[str] = set()
    current = element
    while True:
        parent_id = ((current.get("shape") or {}).get("placeholder") or {}).get("parentObjectId")
        if not parent_id or parent_id in seen or parent_id not in deck.elements:
            return chain
        seen.add(parent_id)
        current = deck.elements[parent_id]
        chain.append(current)


def _merge_text_style(layers: list[Mapping[str, Any]]) -> Json:
    """Later layers win. ``weightedFontFamily`` and ``fontFamily`` are one property."""
    out: Json = {}
    for layer in layers:
        for k, v in layer.items():
            out[k] = v
            if k == "weightedFontFamily" and isinstance(v, Mapping) and v.get("fontFamily"):
                out["fontFamily"] = v["fontFamily"]
    return out


def slides_text_style(ts: Mapping[str, Any], theme: Mapping[str, str], *, align: str | None = None) -> Style:
    wff = ts.get("weightedFontFamily") or {}
    weight = int(wff.get("weight", 400) or 400)
    fg = (ts.get("foregroundColor") or {}).get("opaqueColor")
    bg = (ts.get("backgroundColor") or {}).get("opaqueColor")
    baseline = {"SUPERSCRIPT": "superscript", "SUBSCRIPT": "subscript"}.get(str(ts.get("baselineOffset", "")))
    return Style(
        font=ts.get("fontFamily") or wff.get("fontFamily"),
        size=dimension_pt(ts.get("fontSize")),
        bold=bool(ts.get("bold", False)) or weight >= 700,
        italic=bool(ts.get("italic", False)),
        underline=bool(ts.get("underline", False)),
        strike=bool(ts.get("strikethrough", False)),
        color=theme_color_hex(fg, theme) if fg is not None else "#000000",
        highlight=theme_color_hex(bg, theme) if bg else None,
        baseline=baseline,
        align=align,
    )


def _slides_link(link: Mapping[str, Any] | None) -> str | None:
    if not link:
        return None
    if link.get("url"):
        return str(link["url"])
    if link.get("slideIndex") is not None:
        return f"#slide={int(link['slideIndex']) + 1}"
    if link.get("pageObjectId"):
        return f"#page={link['pageObjectId']}"
    if link.get("relativeLink"):
        return f"#{str(link['relativeLink']).lower()}"
    return None


def _is_ordered_glyph(glyph: str) -> bool:
    return any(ch.isalnum() for ch in glyph)


def text_nodes(prefix: str, text: Mapping[str, Any] | None, *, element: Mapping[str, Any], deck: _Deck,
               theme: Mapping[str, str], defaults: Mapping[str, Any]) -> list[Node]:
    """Paragraph and run nodes of a shape's (or cell's) text, styles resolved."""
    parents = [_level_styles(p) for p in _parent_chain(element, deck)]
    nodes: list[Node] = []
    for i, para in enumerate(paragraphs_of(text)):
        level = _level_of(para.marker)
        inherited_ts = [p.get(level, p.get(0, ({}, {})))[0] for p in reversed(parents)]
        inherited_ps = [p.get(level, p.get(0, ({}, {})))[1] for p in reversed(parents)]
        pstyle = _merge_text_style([*inherited_ps, para.marker.get("style") or {}])
        align = _ALIGN.get(str(pstyle.get("alignment", "START")), "left")
        attrs: dict[str, Any] = {"level": level}
        bullet = para.marker.get("bullet")
        glyph = str((bullet or {}).get("glyph", "•")) if bullet is not None else ""
        if bullet is not None and glyph.strip():
            attrs["list_level"] = level
            attrs["list_ordered"] = _is_ordered_glyph(glyph)
            attrs["list_glyph"] = glyph
            attrs["bullet"] = glyph
        base = _merge_text_style([defaults, *inherited_ts])
        pid = f"{prefix}/p{i}"
        runs: list[Node] = []
        for j, el in enumerate(para.runs):
            body = el.get("textRun") or el.get("autoText") or {}
            content = str(body.get("content", "")).replace("\u000b", "\n")
            if content.endswith("\n") and j == len(para.runs) - 1:
                content = content[:-1]
            if not content:
                continue
            ts = _merge_text_style([base, body.get("style") or {}])
            extra: dict[str, Any] = {}
            link = _slides_link((body.get("style") or {}).get("link"))
            if link:
                extra["hyperlink"] = link
            if "autoText" in el:
                extra["auto_text"] = str(el["autoText"].get("type", ""))
            runs.append(Node(id=f"{pid}/r{j}", kind="run", text=content, style=slides_text_style(ts, theme), attrs=extra))
        nodes.append(Node(id=pid, kind="paragraph", attrs=attrs, style=slides_text_style(base, theme, align=align), children=runs))
    # A shape's text always ends with an empty paragraph mark; an entirely empty text
    # body is no paragraphs at all (as python-pptx reports an empty text frame's text "").
    if all(not n.children for n in nodes):
        return []
    return nodes


# -- elements ------------------------------------------------------------------------------


def _inherited(element: Mapping[str, Any], deck: _Deck, getter: Any) -> Any:
    """The first non-INHERIT value of ``getter`` along the element's placeholder chain."""
    for el in [element, *_parent_chain(element, deck)]:
        value = getter(el)
        if value is not None and (not isinstance(value, Mapping) or value.get("propertyState") != "INHERIT"):
            return value
    return None


def _fill_hex(fill: Mapping[str, Any] | None, theme: Mapping[str, str]) -> str | None:
    if not fill or fill.get("propertyState") in ("NOT_RENDERED", "INHERIT"):
        return None
    solid = fill.get("solidFill")
    if not solid:
        return None
    return theme_color_hex(solid.get("color"), theme)


def _size_pt(element: Mapping[str, Any]) -> tuple[float, float] | None:
    size = element.get("size")
    if not size:
        return None
    return (dimension_pt(size.get("width")) or 0.0, dimension_pt(size.get("height")) or 0.0)


def _element_geometry(element: Mapping[str, Any], deck: _Deck) -> tuple[Json | None, Json | None]:
    """(size, transform) with placeholders falling back to their parent's."""
    size, transform = element.get("size"), element.get("transform")
    if size is None or transform is None:
        for parent in _parent_chain(element, deck):
            size = size or parent.get("size")
            transform = transform or parent.get("transform")
    return size, transform


def element_node(node_id: str, element: Json, *, page: int, parent_m: Matrix, deck: _Deck, theme: Mapping[str, str]) -> Node:
    size, transform = _element_geometry(element, deck)
    m = compose(parent_m, transform_matrix(transform))
    obj_id = str(element.get("objectId", ""))
    attrs: dict[str, Any] = {"object_id": obj_id}
    if element.get("title"):
        attrs["title"] = element["title"]
    if element.get("description"):
        attrs["alt_text"] = element["description"]
    boxes: list[Box] = []
    if size is not None:
        w, h = dimension_pt(size.get("width")) or 0.0, dimension_pt(size.get("height")) or 0.0
        box = element_box(page, m, w, h)
        boxes = [box]
        rotation = round(math.degrees(math.atan2(m[1], m[0])) % 360, 4)
        if rotation and rotation != 360:
            attrs["rotation"] = rotation  # degrees clockwise (y grows down)
    children: list[Node] = []
    style: Style | None = None
    kind = "shape"
    if "elementGroup" in element:
        kind = "group"
        for i, child in enumerate(element["elementGroup"].get("children", []) or []):
            children.append(element_node(f"{node_id}/{child.get('objectId', i)}", child, page=page, parent_m=m, deck=deck, theme=theme))
        kids_boxes = [b for c in children for b in c.boxes if b.page == page]
        if kids_boxes and not boxes:
            box = kids_boxes[0]
            for kb in kids_boxes[1:]:
                box = box.union(kb)
            boxes = [box]
    elif "shape" in element:
        shape = element["shape"]
        shape_type = str(shape.get("shapeType", "TEXT_BOX"))
        attrs["shape_type"] = PRESET_NAMES.get(shape_type, shape_type.lower())
        ph = shape.get("placeholder")
        if ph:
            ph_type = str(ph.get("type", "NONE"))
            attrs["placeholder_type"] = PLACEHOLDER_NAMES.get(ph_type, ph_type.lower())
            if ph.get("index") is not None:
                attrs["placeholder_index"] = int(ph["index"])
        elif shape_type == "TEXT_BOX":
            kind = "textbox"  # a text box, as python-pptx's txBox shapes
        fill = _inherited(element, deck, lambda e: ((e.get("shape") or {}).get("shapeProperties") or {}).get("shapeBackgroundFill"))
        valign = _inherited(element, deck, lambda e: ((e.get("shape") or {}).get("shapeProperties") or {}).get("contentAlignment"))
        style = Style(fill=_fill_hex(fill, theme), valign=_VALIGN.get(str(valign)) if valign else None)
        autofit = ((shape.get("shapeProperties") or {}).get("autofit") or {})
        scale = autofit.get("fontScale")
        if scale is not None and float(scale) != 1:
            attrs["autofit_font_scale"] = float(scale)  # rendered size = size * scale (as .pptx)
        alpha = _fill_alpha(fill)
        if style.fill and alpha is not None:
            attrs["fill_alpha"] = alpha
        children = text_nodes(node_id, shape.get("text"), element=element, deck=deck, theme=theme, defaults=DEFAULT_TEXT)
        _give_text_boxes(children, boxes)
    elif "image" in element:
        kind = "image"
        image = element["image"]
        blob = deck.blob_for(image.get("contentUrl"), obj_id)
        if blob:
            attrs["blob"] = blob
        props = image.get("imageProperties") or {}
        crop = props.get("cropProperties") or {}
        if any(crop.get(k) for k in ("leftOffset", "rightOffset", "topOffset", "bottomOffset")):
            attrs["crop"] = {k: float(crop.get(k, 0) or 0) for k in ("leftOffset", "topOffset", "rightOffset", "bottomOffset")}
        elif blob:
            # Uncropped: the fetched bytes are the original (the .pptx extractor's key). With a
            # crop, Slides serves the rendition and the original is not available.
            attrs["original_blob"] = blob
        if image.get("sourceUrl"):
            attrs["source_url"] = image["sourceUrl"]
        if props.get("link"):
            attrs["hyperlink"] = _slides_link(props["link"])
    elif "sheetsChart" in element:
        kind = "chart"
        chart = element["sheetsChart"]
        attrs["spreadsheet_id"] = chart.get("spreadsheetId")
        attrs["chart_id"] = chart.get("chartId")
        blob = deck.blob_for(chart.get("contentUrl"), obj_id)
        if blob:
            attrs["blob"] = blob
    elif "video" in element:
        kind = "media"
        video = element["video"]
        attrs.update({"media_type": "video", "url": video.get("url"), "video_source": video.get("source"), "video_id": video.get("id")})
    elif "line" in element:
        line = element["line"]
        props = line.get("lineProperties") or {}
        attrs["shape_type"] = "line"
        attrs["line_type"] = str(line.get("lineType", "STRAIGHT_LINE")).lower()
        if line.get("lineCategory"):
            attrs["line_category"] = str(line["lineCategory"]).lower()
        color = _fill_hex(props.get("lineFill"), theme)
        if color:
            attrs["line_color"] = color
        weight = dimension_pt(props.get("weight"))
        if weight is not None:
            attrs["line_width"] = weight
        if props.get("link"):
            attrs["hyperlink"] = _slides_link(props["link"])
    elif "table" in element:
        kind = "table"
        children = _table_rows(node_id, element, page=page, m=m, deck=deck, theme=theme)
        # The table's nominal size is not its drawn size: rows grow with their text and
        # columns carry their own widths, so the table box is the union of its cells.
        cell_boxes = [b for row in children for cell in row.children for b in cell.boxes]
        if cell_boxes:
            box = cell_boxes[0]
            for cb in cell_boxes[1:]:
                box = box.union(cb)
            boxes = [box]
        attrs["rows"] = int(element["table"].get("rows", len(children)) or 0)
        attrs["cols"] = int(element["table"].get("columns", 0) or 0)
    elif "wordArt" in element:
        attrs["shape_type"] = "word_art"
        text = str(element["wordArt"].get("renderedText", ""))
        return Node(id=node_id, kind="shape", text=text, attrs=attrs, boxes=boxes, source=obj_id)
    elif "speakerSpotlight" in element:
        kind = "media"
        attrs["media_type"] = "speaker_spotlight"
    return Node(id=node_id, kind=cast("NodeKind", kind), attrs=attrs, style=style, boxes=boxes, source=obj_id, children=children)


def _give_text_boxes(paragraphs: list[Node], boxes: list[Box]) -> list[Node]:
    """Paragraphs and runs get their text frame's box, as the .pptx extractor gives them:
    the API has no line layout, and the frame is where the text is drawn (clipped or not)."""
    for para in paragraphs:
        for node in para.iter():
            node.boxes = list(boxes)
    return paragraphs


def _table_rows(node_id: str, element: Json, *, page: int, m: Matrix, deck: _Deck, theme: Mapping[str, str]) -> list[Node]:
    table = element["table"]
    widths = [dimension_pt(c.get("columnWidth")) or 0.0 for c in table.get("tableColumns", []) or []]
    heights = [dimension_pt(r.get("rowHeight")) or 0.0 for r in table.get("tableRows", []) or []]
    xs = [0.0, *accumulate(widths)]  # running sums: linear in the table's size
    ys = [0.0, *accumulate(heights)]
    rows: list[Node] = []
    for r, row in enumerate(table.get("tableRows", []) or []):
        cells: list[Node] = []
        for c, cell in enumerate(row.get("tableCells", []) or []):
            loc = cell.get("location") or {}
            ri = index_value(loc.get("rowIndex", r), "rowIndex", at_most=len(heights))
            ci = index_value(loc.get("columnIndex", c), "columnIndex", at_most=len(widths))
            rs = index_value(cell.get("rowSpan"), "rowSpan", at_most=len(heights), default=1)
            cs = index_value(cell.get("columnSpan"), "columnSpan", at_most=len(widths), default=1)
            cid = f"{node_id}/r{ri}/c{ci}"
            boxes: list[Box] = []
            if ci < len(xs) - 1 and ri < len(ys) - 1:
                x0, x1 = xs[ci], xs[min(ci + cs, len(xs) - 1)]
                y0, y1 = ys[ri], ys[min(ri + rs, len(ys) - 1)]
                # The cell rectangle in table space, mapped through the table's transform.
                cell_m = compose(m, (1.0, 0.0, 0.0, 1.0, x0, y0))
                boxes = [element_box(page, cell_m, x1 - x0, y1 - y0)]
            props = cell.get("tableCellProperties") or {}
            fill = _fill_hex(props.get("tableCellBackgroundFill"), theme)
            valign = _VALIGN.get(str(props.get("contentAlignment", "")))
            cell_attrs: dict[str, Any] = {"row": ri, "col": ci, "row_span": rs, "col_span": cs}
            alpha = _fill_alpha(props.get("tableCellBackgroundFill"))
            if fill and alpha is not None:
                cell_attrs["fill_alpha"] = alpha
            cells.append(Node(
                id=cid, kind="cell", boxes=boxes,
                attrs=cell_attrs,
                style=Style(fill=fill, valign=valign) if (fill or valign) else None,
                children=_give_text_boxes(text_nodes(cid, cell.get("text"), element={}, deck=deck, theme=theme, defaults=DEFAULT_TABLE_TEXT), boxes),
            ))
        row_boxes = [b for cell in cells for b in cell.boxes]
        row_box = row_boxes[0] if row_boxes else None
        for rb in row_boxes[1:]:
            row_box = row_box.union(rb) if row_box else rb
        rows.append(Node(id=f"{node_id}/r{r}", kind="row", attrs={"row": r}, children=cells, boxes=[row_box] if row_box else []))
    return rows


def _fill_alpha(fill: Mapping[str, Any] | None) -> float | None:
    """A solid fill's opacity when below 1 (the API leaves ``alpha`` out when opaque)."""
    alpha = ((fill or {}).get("solidFill") or {}).get("alpha")
    try:
        value = float(alpha) if alpha is not None else 1.0
    except (TypeError, ValueError):
        return None
    return value if value < 1 else None


def _background(page_obj: Mapping[str, Any], chain: list[Mapping[str, Any]], deck: _Deck, theme: Mapping[str, str]) -> tuple[str | None, str | None]:
    """(solid colour, image blob sha) of a page's background, through layout and master."""
    for p in [page_obj, *chain]:
        fill = (p.get("pageProperties") or {}).get("pageBackgroundFill") or {}
        if not fill or fill.get("propertyState") == "INHERIT":
            continue
        if fill.get("propertyState") == "NOT_RENDERED":
            return None, None
        if "stretchedPictureFill" in fill:
            return None, deck.blob_for(fill["stretchedPictureFill"].get("contentUrl"), f"{p.get('objectId')}-background")
        solid = fill.get("solidFill")
        if solid:
            return theme_color_hex(solid.get("color"), theme), None
    return None, None


def _notes(slide_id: str, slide: Mapping[str, Any], deck: _Deck, theme: Mapping[str, str]) -> Node | None:
    notes_page = (slide.get("slideProperties") or {}).get("notesPage") or {}
    speaker_id = (notes_page.get("notesProperties") or {}).get("speakerNotesObjectId")
    for el in notes_page.get("pageElements", []) or []:
        if el.get("objectId") == speaker_id:
            nid = f"{slide_id}/notes"
            paras = text_nodes(nid, (el.get("shape") or {}).get("text"), element=el, deck=deck, theme=theme, defaults=DEFAULT_TABLE_TEXT)
            if not paras:
                return None
            return Node(id=nid, kind="note", source=str(speaker_id), children=paras)
    return None


def extract_gslides(
    data: Mapping[str, Any],
    *,
    path: str | Path | None = None,
    images: ImageBytes | None = None,
    raw: bytes | None = None,
    pdf: str | Path | bytes | None = None,
    render: bool | str = "lazy",
    **_options: Any,
) -> Document:
    """Build the tree of a ``presentations.get`` response. ``images`` maps content URLs to
    (bytes, mime); ``raw`` is the response's original bytes (artifact hash).

    ``pdf``: Drive's PDF export of the deck (a path or bytes; snapshot bundles carry it).
    With one, where text is drawn comes from it, as a .pptx gets it from LibreOffice
    (``render``: ``"lazy"``, on the first ``doc.ensure_layout()``; ``True`` now;
    ``False`` never; design/pptx-geometry.md). Without one, paragraphs and runs carry
    their frame's box."""
    warnings: list[str] = []
    deck = _Deck(elements={}, layouts={}, masters={}, images=images or {}, blobs={})
    masters = list(data.get("masters", []) or [])
    layouts = list(data.get("layouts", []) or [])
    deck.masters = {str(p.get("objectId")): p for p in masters}
    deck.layouts = {str(p.get("objectId")): p for p in layouts}
    notes_master = [data["notesMaster"]] if data.get("notesMaster") else []
    _index_elements(masters + layouts + notes_master, deck.elements)
    size = data.get("pageSize") or {}
    width = dimension_pt(size.get("width")) or 720.0
    height = dimension_pt(size.get("height")) or 405.0
    pages: list[Page] = []
    slides: list[Node] = []
    for i, slide in enumerate(data.get("slides", []) or []):
        props = slide.get("slideProperties") or {}
        layout = deck.layouts.get(str(props.get("layoutObjectId")))
        master_id = props.get("masterObjectId") or ((layout or {}).get("layoutProperties") or {}).get("masterObjectId")
        master = deck.masters.get(str(master_id)) or (masters[0] if masters else None)
        theme = theme_of(master)
        sid = f"s{i}"
        kids = [element_node(f"{sid}/{el.get('objectId', j)}", el, page=i, parent_m=IDENTITY, deck=deck, theme=theme)
                for j, el in enumerate(slide.get("pageElements", []) or [])]
        note = _notes(sid, slide, deck, theme)
        if note is not None:
            kids.append(note)
        bg_color, bg_image = _background(slide, [p for p in (layout, master) if p], deck, theme)
        attrs: dict[str, Any] = {"index": i, "number": i + 1, "object_id": slide.get("objectId"), "hidden": False}
        if bg_image:
            attrs.update(background_type="picture", background_blob=bg_image)
        elif bg_color:
            attrs.update(background_type="solid", background_color=bg_color)
        if layout:
            lp = layout.get("layoutProperties") or {}
            attrs["layout"] = lp.get("displayName") or lp.get("name")
        if master:
            attrs["master"] = (master.get("masterProperties") or {}).get("displayName") or master.get("objectId")
        hidden = bool(props.get("isSkipped", False))
        if hidden:
            attrs["hidden"] = True
        slide_node = Node(id=sid, kind="slide", attrs=attrs, style=Style(fill=bg_color) if bg_color else None,
                          boxes=[Box(page=i, x0=0, top=0, x1=width, bottom=height)], source=slide.get("objectId"), children=kids)
        see_through(slide_node, bg_color if not bg_image else None)  # fill_alpha: laid over what is behind it
        slides.append(slide_node)
        pages.append(Page(index=i, kind="slide", width=width, height=height, name=slide.get("objectId"), hidden=hidden))
    if deck.missing_images:
        warnings.append(
            f"{deck.missing_images} image(s) have no bytes: their content URLs were not fetched "
            "(load online with credentials, or from a snapshot bundle)"
        )
    root = Node(id="doc", kind="document", source=data.get("presentationId"), children=slides,
                attrs={"title": data.get("title"), "presentation_id": data.get("presentationId"),
                       "slide_width": width, "slide_height": height, "orientation": orientation(width, height)})
    fill_container_text(root)
    raw = raw if raw is not None else json.dumps(data, sort_keys=True).encode()
    artifact = ArtifactInfo(format="gslides", platform="google", sha256=hashlib.sha256(raw).hexdigest(),
                            size_bytes=len(raw), path=str(path) if path is not None else None,
                            producer="Google Slides API v1")
    tools = [ToolInfo(name="google-slides-api-v1", version=str(data.get("revisionId") or "unknown"))]
    doc = Document(artifact=artifact, pages=pages, root=root, blobs=deck.blobs, tools=tools, warnings=warnings)
    if pdf is not None and render is not False:
        doc.defer_layout(functools.partial(_attach_export_layout, pdf=pdf))
        if render is True:
            doc.ensure_layout()
    return doc


def _attach_export_layout(doc: Document, *, pdf: str | Path | bytes) -> None:
    """Drawn text boxes from Drive's PDF export (the render machinery loads only now)."""
    from ..render import read_layout
    from ..render.slide_layout import lay_out_slides

    with tempfile.TemporaryDirectory(prefix="artifactcheck-gslides-") as tmp:
        path = Path(tmp) / "export.pdf"
        if isinstance(pdf, (bytes, bytearray)):
            path.write_bytes(pdf)
        else:
            path = Path(pdf)
        layout = read_layout(path, images=False)
    doc.tools.append(ToolInfo(name="drive-pdf-export+align", version="1"))
    lay_out_slides(doc, layout, source="drive-pdf-export")
