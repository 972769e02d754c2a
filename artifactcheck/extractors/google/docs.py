"""Google Docs (Docs API v1 ``documents.get``) -> Document tree.

A pure function of the JSON response (plus image bytes and an optional Drive PDF export);
all network access lives in :mod:`.access`. Node kinds match the .docx extractor:
``header`` / ``footer`` / ``footnote`` containers, ``paragraph`` (``style_name``,
``heading_level``, ``list_level`` 0-based, ``list_ordered``), ``run`` (effective style,
``hyperlink``), ``table`` > ``row`` > ``cell``, ``image``. A document with several tabs
gets one ``group`` node per tab (``attrs.role = "tab"``); a single-tab or legacy response
is flat, like a .docx.

Effective text style = NORMAL_TEXT's text style, overlaid by the paragraph's named style,
overlaid by the run's own style (Docs' documented inheritance), with Docs' built-in
defaults underneath when a response omits ``namedStyles``. ``{}`` colours are black;
omitted numbers are 0 (proto3 JSON drops zeros).

Geometry: the Docs API has none. With an exported PDF (``pdf=``), boxes come from the
shared renderer's text alignment (origin ``layout``); without it nodes carry no boxes and
the Document carries a warning. Units: points, origin top-left of each page.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from ...model import ArtifactInfo, Document, Node, NodeKind, Page, Style, ToolInfo, describe_image
from ..tree_builder import fill_container_text
from .values import dimension_pt, index_value, optional_color_hex

Json = dict[str, Any]
ImageBytes = Mapping[str, tuple[bytes, str]]  # content URL -> (bytes, mime)

# Docs' built-in named styles (the "Normal text"/"Heading n" of a new Google Doc), used
# under whatever the response states, so a trimmed response still resolves.
_BUILTIN_NAMED: dict[str, Json] = {
    "NORMAL_TEXT": {
        "bold": False, "italic": False, "underline": False, "strikethrough": False,
        "fontSize": {"magnitude": 11, "unit": "PT"},
        "weightedFontFamily": {"fontFamily": "Arial", "weight": 400},
        "foregroundColor": {"color": {"rgbColor": {}}},
    },
    "TITLE": {"fontSize": {"magnitude": 26, "unit": "PT"}},
    "SUBTITLE": {"fontSize": {"magnitude": 15, "unit": "PT"},
                 "foregroundColor": {"color": {"rgbColor": {"red": 0.4, "green": 0.4, "blue": 0.4}}}},
    "HEADING_1": {"fontSize": {"magnitude": 20, "unit": "PT"}},
    "HEADING_2": {"fontSize": {"magnitude": 16, "unit": "PT"}},
    "HEADING_3": {"fontSize": {"magnitude": 14, "unit": "PT"},
                  "foregroundColor": {"color": {"rgbColor": {"red": 0.2627451, "green": 0.2627451, "blue": 0.2627451}}}},
    "HEADING_4": {"fontSize": {"magnitude": 12, "unit": "PT"},
                  "foregroundColor": {"color": {"rgbColor": {"red": 0.4, "green": 0.4, "blue": 0.4}}}},
    "HEADING_5": {"fontSize": {"magnitude": 11, "unit": "PT"},
                  "foregroundColor": {"color": {"rgbColor": {"red": 0.4, "green": 0.4, "blue": 0.4}}}},
    "HEADING_6": {"fontSize": {"magnitude": 11, "unit": "PT"}, "italic": True,
                  "foregroundColor": {"color": {"rgbColor": {"red": 0.4, "green": 0.4, "blue": 0.4}}}},
}

# Docs' namedStyleType -> the style name Word (and our .docx extractor) uses, and the
# heading level (TITLE is level 0, as in python-docx's add_heading(level=0)).
STYLE_NAMES: dict[str, str] = {
    "NORMAL_TEXT": "Normal", "TITLE": "Title", "SUBTITLE": "Subtitle",
    **{f"HEADING_{i}": f"Heading {i}" for i in range(1, 7)},
}
HEADING_LEVELS: dict[str, int] = {"TITLE": 0, **{f"HEADING_{i}": i for i in range(1, 7)}}

_ALIGN = {"START": "left", "CENTER": "center", "END": "right", "JUSTIFIED": "justify"}
_UNORDERED_GLYPHS = {"", "NONE", "GLYPH_TYPE_UNSPECIFIED"}
# Docs positioned-object layouts -> the .docx extractor's wrap names.
_WRAP = {"WRAP_TEXT": "square", "BREAK_LEFT": "square", "BREAK_RIGHT": "square",
         "BREAK_LEFT_RIGHT": "topandbottom", "IN_FRONT_OF_TEXT": "none", "BEHIND_TEXT": "none"}
# Docs glyph types -> Word's w:numFmt names, as the .docx extractor reports ``list_format``.
# Docs lists have nine levels (0-8); a start number is an int32 in the API.
MAX_LIST_LEVEL = 8
MAX_START_NUMBER = 2**31 - 1
LIST_FORMATS = {
    "DECIMAL": "decimal", "ZERO_DECIMAL": "decimalZero", "ALPHA": "lowerLetter", "UPPER_ALPHA": "upperLetter",
    "ROMAN": "lowerRoman", "UPPER_ROMAN": "upperRoman",
}


def _merge(*layers: Mapping[str, Any] | None) -> Json:
    out: Json = {}
    for layer in layers:
        if layer:
            out.update(layer)
    return out


def text_style_to_style(ts: Mapping[str, Any], *, align: str | None = None) -> Style:
    """A merged Docs TextStyle -> effective Style. Unset foreground (or ``{}``) is black."""
    wff = ts.get("weightedFontFamily") or {}
    font = wff.get("fontFamily") or ts.get("fontFamily")
    weight = int(wff.get("weight", 400) or 400)
    size = dimension_pt(ts.get("fontSize"))
    baseline = {"SUPERSCRIPT": "superscript", "SUBSCRIPT": "subscript"}.get(str(ts.get("baselineOffset", "")))
    return Style(
        font=font,
        size=size,
        bold=bool(ts.get("bold", False)) or weight >= 700,
        italic=bool(ts.get("italic", False)),
        underline=bool(ts.get("underline", False)),
        strike=bool(ts.get("strikethrough", False)),
        color=optional_color_hex(ts.get("foregroundColor")) or "#000000",
        highlight=optional_color_hex(ts.get("backgroundColor")),
        baseline=baseline,
        align=align,
    )


def link_target(link: Mapping[str, Any] | None) -> str | None:
    """A Docs Link as one string: the URL, or ``#heading=h.x`` / ``#bookmark=id.x`` /
    ``#tab=t.x`` for links inside the document (Docs' own URL fragments)."""
    if not link:
        return None
    if link.get("url"):
        return str(link["url"])
    for key, frag in (("headingId", "heading"), ("bookmarkId", "bookmark"), ("tabId", "tab")):
        if link.get(key):
            return f"#{frag}={link[key]}"
    for key, frag in (("heading", "heading"), ("bookmark", "bookmark")):
        inner = link.get(key)
        if isinstance(inner, Mapping) and inner.get("id"):
            return f"#{frag}={inner['id']}"
    return None


@dataclass
class _Context:
    """Everything one tab (or a legacy document) shares while its tree is built."""

    named: dict[str, Json]
    named_para: dict[str, Json]
    lists: Json
    inline_objects: Json
    positioned_objects: Json
    images: ImageBytes
    blobs: dict[str, Any]
    warnings: list[str]
    missing_images: int = 0
    section_breaks: list[Json] = field(default_factory=list)
    counters: dict[str, list[int]] = field(default_factory=dict)  # listId -> count per level
    note_labels: dict[str, str] = field(default_factory=dict)

    def list_label(self, list_id: str, level: int, levels: list[Json]) -> str:
        """The rendered label of the next item of ``list_id`` at ``level`` ("1.", "b)",
        "●"): deeper counters restart when a shallower item comes, as in Docs."""
        counts = self.counters.setdefault(list_id, [0] * 9)
        while len(counts) <= level:
            counts.append(0)
        counts[level] += 1
        for deeper in range(level + 1, len(counts)):
            counts[deeper] = 0
        nl = levels[level] if level < len(levels) else {}
        if nl.get("glyphSymbol") or str(nl.get("glyphType", "")) in _UNORDERED_GLYPHS:
            return str(nl.get("glyphSymbol") or "")
        from ..docx.numbering import format_number

        label = str(nl.get("glyphFormat") or f"%{level}.")
        for k in range(level, -1, -1):
            fmt_k = LIST_FORMATS.get(str((levels[k] if k < len(levels) else {}).get("glyphType", "DECIMAL")), "decimal")
            start = index_value((levels[k] if k < len(levels) else {}).get("startNumber"), "startNumber",
                                at_most=MAX_START_NUMBER, default=1)
            label = label.replace(f"%{k}", format_number(counts[k] + start - 1, fmt_k))
        return label

    def effective(self, named_type: str, run_style: Mapping[str, Any] | None) -> Json:
        return _merge(self.named.get("NORMAL_TEXT"), self.named.get(named_type) if named_type != "NORMAL_TEXT" else None, run_style)


def _context(doc: Mapping[str, Any], images: ImageBytes, blobs: dict[str, Any], warnings: list[str]) -> _Context:
    named: dict[str, Json] = {k: dict(v) for k, v in _BUILTIN_NAMED.items()}
    named_para: dict[str, Json] = {}
    for st in (doc.get("namedStyles") or {}).get("styles", []) or []:
        kind = st.get("namedStyleType")
        if kind:
            named[kind] = _merge(named.get(kind), st.get("textStyle"))
            named_para[kind] = dict(st.get("paragraphStyle") or {})
    return _Context(
        named=named,
        named_para=named_para,
        lists=dict(doc.get("lists") or {}),
        inline_objects=dict(doc.get("inlineObjects") or {}),
        positioned_objects=dict(doc.get("positionedObjects") or {}),
        images=images,
        blobs=blobs,
        warnings=warnings,
    )


def _image_node(node_id: str, obj_id: str, embedded: Mapping[str, Any], ctx: _Context, *, positioned: Json | None) -> Node:
    attrs: dict[str, Any] = {"object_id": obj_id}
    size = embedded.get("size") or {}
    w, h = dimension_pt(size.get("width")), dimension_pt(size.get("height"))
    if w is not None:
        attrs["width"] = w
    if h is not None:
        attrs["height"] = h
    if embedded.get("title"):
        attrs["name"] = embedded["title"]
    if embedded.get("description") or embedded.get("title"):
        attrs["alt_text"] = embedded.get("description") or embedded.get("title")
    props = embedded.get("imageProperties") or {}
    uri = props.get("contentUri") or props.get("sourceUri")
    crop = props.get("cropProperties") or {}
    edges = {"offsetLeft": "left", "offsetTop": "top", "offsetRight": "right", "offsetBottom": "bottom"}
    cut = {edge: float(crop[k]) for k, edge in edges.items() if float(crop.get(k, 0) or 0) > 0}
    if cut:
        attrs["crop"] = cut  # fractions of the source image per edge, as the .docx extractor
    if props.get("angle"):
        attrs["rotation"] = round(math.degrees(float(props["angle"])) % 360, 4)  # API: radians
    if positioned is None:
        attrs["placement"] = "inline"
    else:
        attrs["placement"] = "floating"
        layout = str(positioned.get("layout", "WRAP_TEXT"))
        attrs["wrap"] = _WRAP.get(layout, layout.lower())
        attrs["behind_text"] = layout == "BEHIND_TEXT"
        for key, axis in (("leftOffset", "h"), ("topOffset", "v")):
            v = dimension_pt(positioned.get(key))
            attrs[f"position_{axis}_relative_from"] = "paragraph"  # Docs anchors to the paragraph
            if v is not None:
                attrs[f"position_{axis}_offset"] = v
    if "embeddedDrawingProperties" in embedded:
        attrs["drawing"] = True
    if uri and uri in ctx.images:
        data, mime = ctx.images[uri]
        blob = describe_image(data, mime=mime, name=obj_id)
        ctx.blobs[blob.sha256] = blob
        attrs["blob"] = blob.sha256
    elif "imageProperties" in embedded:
        ctx.missing_images += 1
    return Node(id=node_id, kind="image", attrs=attrs, source=obj_id, style=None)


def _paragraph(node_id: str, para: Mapping[str, Any], ctx: _Context) -> Node:
    pstyle = para.get("paragraphStyle") or {}
    named_type = str(pstyle.get("namedStyleType") or "NORMAL_TEXT")
    named_pstyle = _merge(ctx.named_para.get("NORMAL_TEXT"), ctx.named_para.get(named_type), pstyle)
    align = _ALIGN.get(str(named_pstyle.get("alignment", "START")), "left")
    attrs: dict[str, Any] = {"style_name": STYLE_NAMES.get(named_type, named_type), "named_style": named_type}
    if named_type in HEADING_LEVELS:
        attrs["heading_level"] = HEADING_LEVELS[named_type]
    if pstyle.get("headingId"):
        attrs["heading_id"] = pstyle["headingId"]
    bullet = para.get("bullet")
    if bullet is not None:
        level = index_value(bullet.get("nestingLevel"), "nestingLevel", at_most=MAX_LIST_LEVEL)
        attrs["list_level"] = level
        attrs["list_id"] = bullet.get("listId")
        levels = ((ctx.lists.get(bullet.get("listId")) or {}).get("listProperties") or {}).get("nestingLevels") or []
        nl = levels[level] if level < len(levels) else {}
        glyph_type = str(nl.get("glyphType", "") or "")
        glyph_symbol = nl.get("glyphSymbol")
        ordered = not glyph_symbol and glyph_type not in _UNORDERED_GLYPHS
        attrs["list_ordered"] = ordered
        attrs["list_format"] = LIST_FORMATS.get(glyph_type, "decimal") if ordered else ("bullet" if glyph_symbol else "none")
        attrs["list_label"] = ctx.list_label(str(bullet.get("listId")), level, levels)
        if glyph_type in _UNORDERED_GLYPHS and not glyph_symbol:
            attrs["checklist"] = True  # Docs checklists: no glyph, a checkbox drawn instead
    children: list[Node] = []
    for i, el in enumerate(para.get("elements", []) or []):
        rid = f"{node_id}/r{i}"
        ts = None
        text = ""
        extra: dict[str, Any] = {}
        if "textRun" in el:
            tr = el["textRun"]
            ts, text = tr.get("textStyle"), str(tr.get("content", ""))
        elif "autoText" in el:
            ts, text = el["autoText"].get("textStyle"), ""
            extra["auto_text"] = el["autoText"].get("type")
        elif "footnoteReference" in el:
            fr = el["footnoteReference"]
            ts, text = fr.get("textStyle"), str(fr.get("footnoteNumber", ""))
            extra["footnote_ref"] = fr.get("footnoteId")
            ctx.note_labels[str(fr.get("footnoteId"))] = text
        elif "pageBreak" in el:
            attrs["page_break"] = True
            ts, text = el["pageBreak"].get("textStyle"), ""
        elif "columnBreak" in el:
            attrs["column_break"] = True
            continue
        elif "horizontalRule" in el:
            attrs["horizontal_rule"] = True
            continue
        elif "person" in el:
            p = el["person"]
            props = p.get("personProperties") or {}
            ts, text = p.get("textStyle"), str(props.get("name") or props.get("email") or "")
            if props.get("email"):
                extra["hyperlink"] = f"mailto:{props['email']}"
        elif "richLink" in el:
            rl = el["richLink"]
            props = rl.get("richLinkProperties") or {}
            ts, text = rl.get("textStyle"), str(props.get("title") or props.get("uri") or "")
            if props.get("uri"):
                extra["hyperlink"] = props["uri"]
        elif "equation" in el:
            extra["equation"] = True
        elif "inlineObjectElement" in el:
            ioe = el["inlineObjectElement"]
            obj_id = str(ioe.get("inlineObjectId", ""))
            obj = ctx.inline_objects.get(obj_id) or {}
            embedded = (obj.get("inlineObjectProperties") or {}).get("embeddedObject") or {}
            children.append(_image_node(f"{node_id}/img{i}", obj_id, embedded, ctx, positioned=None))
            continue
        else:
            continue
        text = text.removesuffix("\n")  # the paragraph mark is structure, not text (as in .docx)
        body: Mapping[str, Any] = next((el[k] for k in ("textRun", "autoText", "footnoteReference", "person", "richLink") if k in el), {})
        if body.get("suggestedDeletionIds") and text:
            # A suggested deletion is not the document's text (as a tracked deletion in .docx).
            extra.update(tracked="delete", deleted_text=text, rendered=False, not_rendered_reason="suggested deletion")
            text = ""
        elif body.get("suggestedInsertionIds"):
            extra["tracked"] = "insert"
        if not text and "footnote_ref" not in extra and "auto_text" not in extra and "deleted_text" not in extra:
            continue
        effective = ctx.effective(named_type, ts)
        link = link_target((ts or {}).get("link"))
        if link:
            extra["hyperlink"] = link
        children.append(Node(id=rid, kind="run", text=text, style=text_style_to_style(effective), attrs=extra, source=f"{el.get('startIndex', 0)}:{el.get('endIndex', 0)}"))
    for j, pos_id in enumerate(para.get("positionedObjectIds", []) or []):
        obj = ctx.positioned_objects.get(pos_id) or {}
        props = obj.get("positionedObjectProperties") or {}
        children.append(_image_node(f"{node_id}/pos{j}", str(pos_id), props.get("embeddedObject") or {}, ctx, positioned=props.get("positioning") or {}))
    pstyle_effective = text_style_to_style(ctx.effective(named_type, None), align=align)
    return Node(id=node_id, kind="paragraph", attrs=attrs, style=pstyle_effective, children=children)


def _child_id(prefix: str, name: str) -> str:
    return f"{prefix}/{name}" if prefix else name


def _content(prefix: str, content: list[Json], ctx: _Context) -> list[Node]:
    """Structural elements (paragraph, table, table of contents, section break). Ids as
    the .docx extractor's: ``p3``, ``t0/r1/c2/p0``, ``s0/header-default/p0``."""
    nodes: list[Node] = []
    counters = {"p": 0, "t": 0, "toc": 0}
    for el in content or []:
        if "paragraph" in el:
            nodes.append(_paragraph(_child_id(prefix, f"p{counters['p']}"), el["paragraph"], ctx))
            counters["p"] += 1
        elif "table" in el:
            nodes.append(_table(_child_id(prefix, f"t{counters['t']}"), el["table"], ctx))
            counters["t"] += 1
        elif "tableOfContents" in el:
            tid = _child_id(prefix, f"toc{counters['toc']}")
            counters["toc"] += 1
            kids = _content(tid, el["tableOfContents"].get("content", []), ctx)
            nodes.append(Node(id=tid, kind="group", attrs={"role": "table_of_contents"}, children=kids))
        elif "sectionBreak" in el:
            ctx.section_breaks.append(dict(el["sectionBreak"].get("sectionStyle") or {}))
    return nodes


def _table(node_id: str, table: Mapping[str, Any], ctx: _Context) -> Node:
    rows: list[Node] = []
    covered: set[tuple[int, int]] = set()
    table_rows = table.get("tableRows", []) or []
    widest = max((len(row.get("tableCells", []) or []) for row in table_rows), default=0)
    for r, row in enumerate(table_rows):
        cells: list[Node] = []
        for c, cell in enumerate(row.get("tableCells", []) or []):
            cs = cell.get("tableCellStyle") or {}
            if (r, c) in covered:
                continue  # inside another cell's merge: not drawn (as the .docx extractor)
            # A span reaches at most the table's own edge: the loop below is bounded by
            # the response, whatever number the span field holds.
            row_span = index_value(cs.get("rowSpan"), "rowSpan", at_most=len(table_rows), default=1)
            col_span = index_value(cs.get("columnSpan"), "columnSpan", at_most=widest, default=1)
            for rr in range(r, r + row_span):
                for cc in range(c, c + col_span):
                    if (rr, cc) != (r, c):
                        covered.add((rr, cc))
            attrs: dict[str, Any] = {"row": r, "col": c, "row_span": row_span, "col_span": col_span}
            fill = optional_color_hex(cs.get("backgroundColor"))
            cid = f"{node_id}/r{r}/c{c}"
            cells.append(Node(id=cid, kind="cell", attrs=attrs, style=Style(fill=fill) if fill else None,
                              children=_content(cid, cell.get("content", []), ctx)))
        rows.append(Node(id=f"{node_id}/r{r}", kind="row", attrs={"index": r}, children=cells))
    attrs = {"rows": int(table.get("rows", len(rows)) or 0), "cols": int(table.get("columns", 0) or 0)}
    return Node(id=node_id, kind="table", attrs=attrs, children=rows)


def _tab_nodes(prefix: str, doc: Mapping[str, Any], ctx: _Context) -> list[Node]:
    """Body, then headers and footers, then footnotes of one tab (or of a legacy
    document) — the .docx extractor's order, so the same rubric walks both alike."""
    style = doc.get("documentStyle") or {}
    body = _content(prefix.rstrip("/"), (doc.get("body") or {}).get("content", []), ctx)
    nodes: list[Node] = list(body)
    roles: dict[str, str] = {}
    for key, use in (("defaultHeaderId", "default"), ("firstPageHeaderId", "first"), ("evenPageHeaderId", "even"),
                     ("defaultFooterId", "default"), ("firstPageFooterId", "first"), ("evenPageFooterId", "even")):
        if style.get(key):
            roles.setdefault(str(style[key]), use)
    # Docs keeps a first-page/even header even when switched off; it is then not drawn.
    # Older responses have no use* flags: a first/even header id then means "in use".
    used = {"default": True,
            "first": bool(style.get("useFirstPageHeaderFooter", "firstPageHeaderId" in style or "firstPageFooterId" in style)),
            "even": bool(style.get("useEvenPageHeaderFooter", "evenPageHeaderId" in style or "evenPageFooterId" in style))}
    for kind, key in (("header", "headers"), ("footer", "footers")):
        for hid, part in (doc.get(key) or {}).items():
            role = roles.get(hid)
            nid = f"{prefix}s0/{kind}-{role}" if role else f"{prefix}{kind}-{hid}"
            attrs: dict[str, Any] = {"type": role or "section", "section": 0, f"{kind}_id": hid}
            if role and not used[role]:
                attrs.update(rendered=False, not_rendered_reason=f"{role} {kind} is not used (switched off in the document style)")
            nodes.append(Node(id=nid, kind=cast("NodeKind", kind), attrs=attrs, source=hid,
                              children=_content(nid, part.get("content", []), ctx)))
    for fid, fn in (doc.get("footnotes") or {}).items():
        nid = f"{prefix}footnote-{fid}"
        attrs = {"note_type": "footnote", "note_id": fid, "label": ctx.note_labels.get(str(fid), "")}
        if str(fid) not in ctx.note_labels:
            attrs.update(rendered=False, not_rendered_reason="footnote is never referenced from the text")
        nodes.append(Node(id=nid, kind="footnote", attrs=attrs, source=fid, children=_content(nid, fn.get("content", []), ctx)))
    return nodes


def _flatten_tabs(tabs: list[Json], depth: int = 0) -> list[tuple[Json, int]]:
    out: list[tuple[Json, int]] = []
    for tab in tabs or []:
        out.append((tab, depth))
        out.extend(_flatten_tabs(tab.get("childTabs") or [], depth + 1))
    return out


def sections_of(doc: Mapping[str, Any], breaks: list[Json]) -> list[Json]:
    """Sections in the .docx extractor's shape (points): page size and orientation,
    margins, columns, how each starts. A section's own style overrides the document's."""
    style = doc.get("documentStyle") or {}
    if not style and doc.get("tabs"):
        style = ((doc["tabs"][0].get("documentTab") or {}).get("documentStyle")) or {}
    width, height = page_size_pt(doc)
    out: list[Json] = []
    for i, ss in enumerate(breaks or [{}]):
        def margin(key: str, default: float, ss: Json = ss) -> float:
            v = dimension_pt(ss.get(key)) if ss.get(key) is not None else dimension_pt(style.get(key))
            return float(v) if v is not None else default

        if style.get("flipPageOrientation") or ss.get("flipPageOrientation"):
            width, height = height, width
        out.append({
            "index": i, "page_width": width, "page_height": height,
            "orientation": "landscape" if width > height else "portrait",
            "margins": {"top": margin("marginTop", 72.0), "bottom": margin("marginBottom", 72.0),
                        "left": margin("marginLeft", 72.0), "right": margin("marginRight", 72.0),
                        "header": margin("marginHeader", 36.0), "footer": margin("marginFooter", 36.0)},
            "columns": len(ss.get("columnProperties") or []) or 1,
            "start": "continuous" if str(ss.get("sectionType", "CONTINUOUS")) == "CONTINUOUS" else "nextPage",
        })
    return out


def page_size_pt(doc: Mapping[str, Any]) -> tuple[float, float]:
    """The document's page size in points (Docs' default: US Letter)."""
    style = doc.get("documentStyle") or {}
    tabs = doc.get("tabs")
    if tabs and not style:
        style = ((tabs[0].get("documentTab") or {}).get("documentStyle")) or {}
    size = style.get("pageSize") or {}
    return (dimension_pt(size.get("width")) or 612.0, dimension_pt(size.get("height")) or 792.0)


def extract_gdoc(
    data: Mapping[str, Any],
    *,
    path: str | Path | None = None,
    pdf: str | Path | bytes | None = None,
    images: ImageBytes | None = None,
    raw: bytes | None = None,
    **_options: Any,
) -> Document:
    """Build the tree of a ``documents.get`` response.

    ``images`` maps content URLs to (bytes, mime) (fetched online or read from a
    snapshot); ``pdf`` is the Drive PDF export (a path or bytes) for layout boxes; ``raw``
    the response's original bytes (for the artifact hash; canonical JSON otherwise)."""
    images = images or {}
    warnings: list[str] = []
    blobs: dict[str, Any] = {}
    tabs = data.get("tabs")
    children: list[Node] = []
    all_breaks: list[Json] = []
    contexts: list[_Context] = []
    if tabs:
        flat = _flatten_tabs(tabs)
        for n, (tab, depth) in enumerate(flat):
            dtab = tab.get("documentTab") or {}
            props = tab.get("tabProperties") or {}
            ctx = _context(dtab, images, blobs, warnings)
            contexts.append(ctx)
            prefix = "" if len(flat) == 1 else f"tab{n}/"
            kids = _tab_nodes(prefix, dtab, ctx)
            if len(flat) == 1:
                children.extend(kids)
            else:
                children.append(Node(id=f"tab{n}", kind="group", source=props.get("tabId"),
                                     attrs={"role": "tab", "title": props.get("title"), "tab_id": props.get("tabId"), "nesting_level": depth},
                                     children=kids))
            if n == 0:
                all_breaks.extend(ctx.section_breaks)
            if len(flat) > 1 and isinstance(children[-1].attrs, dict):
                children[-1].attrs["sections"] = sections_of(dtab, ctx.section_breaks)  # type: ignore[assignment]
    else:
        ctx = _context(data, images, blobs, warnings)
        contexts.append(ctx)
        children.extend(_tab_nodes("", data, ctx))
        all_breaks.extend(ctx.section_breaks)
    missing = sum(c.missing_images for c in contexts)
    if missing:
        warnings.append(
            f"{missing} image(s) have no bytes: their content URLs were not fetched "
            "(load online with credentials, or from a snapshot bundle)"
        )
    root_attrs: dict[str, Any] = {"title": data.get("title"), "document_id": data.get("documentId"),
                                  "sections": sections_of(data, all_breaks)}  # the first tab's, as printed
    root = Node(id="doc", kind="document", attrs=root_attrs, source=data.get("documentId"), children=children)
    fill_container_text(root)
    raw = raw if raw is not None else json.dumps(data, sort_keys=True).encode()
    artifact = ArtifactInfo(format="gdoc", platform="google", sha256=hashlib.sha256(raw).hexdigest(),
                            size_bytes=len(raw), path=str(path) if path is not None else None,
                            producer="Google Docs API v1")
    pages: list[Page] = []
    tools = [ToolInfo(name="google-docs-api-v1", version=str(data.get("revisionId") or "unknown"))]
    if pdf is not None:
        from .docs_layout import attach_pdf_layout

        pages = attach_pdf_layout(root, pdf, warnings=warnings, tools=tools, blobs=blobs)
    else:
        warnings.append(
            "Docs API responses carry no geometry: no boxes (pass pdf=<Drive PDF export> or "
            "load a snapshot bundle to get layout boxes)"
        )
    return Document(artifact=artifact, pages=pages, root=root, blobs=blobs, tools=tools, warnings=warnings)
