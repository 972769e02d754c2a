"""``extract_pptx``: a .pptx/.ppsx/.potx file -> Document, from the package XML.

One ``slide`` node and one ``Page(kind="slide")`` per slide in presentation order (slide
size in points from ``p:sldSz``). Slide attrs: ``index``, ``hidden``, ``layout``,
``background_type``/``background_color``/``background_blob``/``background_from``
(slide | layout | master). Speaker notes are a ``note`` child with paragraphs (not drawn
on the slide: no boxes). Shapes: see ``shapes.py``; geometry: design/pptx-geometry.md.

The package is read with lxml directly (``package.py``); python-pptx is not used at
extraction time because it rejects slideshow-typed packages, reports group children in
child space and raises on several chart types (design/pptx-geometry.md).
"""

from __future__ import annotations

import functools
import gc
import math
from pathlib import Path
from typing import Any

from lxml import etree

from ...digest import file_digest
from ...errors import ArtifactCheckError, ArtifactTooLarge, CorruptArtifact
from ...model import ArtifactInfo, Blob, Box, Document, Node, Page, ToolInfo
from ..drawingml.color import SCHEME_SLOTS
from ..package.inspection import inspect_package
from ..tree_builder import fill_container_text
from .deck import orientation, slide_transition
from .fill import Fill, background_fill
from .geometry import EMU_PER_PT, IDENTITY
from .media import MediaStore
from .package import PptxPackage
from .see_through import see_through
from .shapes import ShapeWalker
from .slide import (
    P_NS,
    PlaceholderIndex,
    SlideContext,
    child,
    load_theme,
    ph_type,
    placeholder_of,
    slide_clr_map,
)
from .table_style import TableStyles
from .text import TextContext, paragraph_nodes

_P = f"{{{P_NS}}}"
_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
DEFAULT_SLIDE_SIZE_EMU = (9144000.0, 6858000.0)  # 10 x 7.5 in, PowerPoint's 4:3 default
MAX_SLIDE_EMU = 10 * 51206400  # PowerPoint allows 56 in a side; 10x that is not a slide


def extract_pptx(path: str | Path, *, render: bool | str = "lazy", **options: Any) -> Document:
    """Read a presentation. Raises ``CorruptArtifact`` (naming the file and part) when
    the package cannot be read; problems confined to one shape or part become
    ``Document.warnings``.

    ``render``: where text is drawn comes from a LibreOffice render (``layout`` boxes for
    paragraphs, lines and runs; design/pptx-geometry.md). ``"lazy"`` (default): rendered
    on the first ``doc.ensure_layout()``, which the checks that judge drawn text call,
    so an extraction without such a check never starts LibreOffice; ``True``: now;
    ``False``: never (paragraphs and runs keep their frame's box). ``timeout``: seconds
    for the renderer (default 120)."""
    p = Path(path)
    info = inspect_package(p)
    if info.format != "pptx":
        raise CorruptArtifact(f"not a presentation: the package holds a {info.format} main part", path=p)
    if render not in (True, False, "lazy"):
        raise ValueError(f"render must be True, False or 'lazy', not {render!r}")
    # The tree is tens of thousands of small objects and almost no cycles: cyclic GC passes
    # over the growing heap made extraction time superlinear in the slide count.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        with PptxPackage(p) as pkg:
            doc = _extract(p, pkg, info.main_part)
        if render is not False:
            doc.defer_layout(functools.partial(_attach_layout, path=p, timeout=float(options.get("timeout", 120))))
    except ArtifactCheckError:
        raise
    except Exception as exc:
        raise CorruptArtifact(f"cannot read the presentation: {type(exc).__name__}: {exc}", path=p) from exc
    finally:
        if gc_was_enabled:
            gc.enable()
    if render is True:
        doc.ensure_layout()
    return doc


def _attach_layout(doc: Document, *, path: Path, timeout: float) -> None:
    from .layout import attach_pptx_layout  # the render machinery loads only when asked for

    attach_pptx_layout(doc, path, timeout=timeout)


def _extract(path: Path, pkg: PptxPackage, main_part: str) -> Document:
    warnings: list[str] = []
    blobs: dict[str, Blob] = {}
    media = MediaStore(pkg, blobs, warnings)
    pres = pkg.xml(main_part)
    width_emu, height_emu = _slide_size(pres, path=path, warnings=warnings)
    width, height = width_emu / EMU_PER_PT, height_emu / EMU_PER_PT
    default_text = pres.find(f"{_P}defaultTextStyle")
    first_number = _int_attr(pres, "firstSlideNum", 1)

    slide_parts: list[str] = []
    slide_ids: list[str | None] = []
    id_list = pres.find(f"{_P}sldIdLst")
    for sld in id_list if id_list is not None else []:
        rel = pkg.related(main_part, sld.get(f"{_R}id"))
        if rel is None or rel.external or not pkg.has(rel.target):
            warnings.append(f"{main_part}: slide reference {sld.get(f'{_R}id')} points to no slide part; skipped")
            continue
        slide_parts.append(rel.target)
        slide_ids.append(sld.get("id"))
    sections = _sections(pres)
    slide_index = {part: i for i, part in enumerate(slide_parts)}
    styles_part = pkg.first_related(main_part, "tableStyles")
    table_styles = TableStyles(pkg.xml(styles_part) if styles_part else None)
    authors = _comment_authors(pkg, main_part)

    pages: list[Page] = []
    slides: list[Node] = []
    for i, part in enumerate(slide_parts):
        slide_node, page = _slide(pkg, part, i, width, height, default_text, media, warnings, slide_index, table_styles, authors, first_number + i)
        section = sections.get(slide_ids[i] or "")
        if section is not None:
            slide_node.attrs["section"] = section
            page.attrs["section"] = section
        slides.append(slide_node)
        pages.append(page)

    # The theme colours of the first slide's master on the root; a slide whose master has
    # another theme keeps its own (colour checks read the nearest: checks/color.theme_of).
    theme_colors = slides[0].attrs.get("theme_colors") if slides else None
    for slide_node in slides:
        if slide_node.attrs.get("theme_colors") == theme_colors:
            slide_node.attrs.pop("theme_colors", None)
    deck_attrs = _deck_attrs(pres, width, height, first_number)
    if theme_colors:
        deck_attrs["theme_colors"] = theme_colors
    root = Node(id="pptx", kind="document", children=slides, source=main_part, attrs=deck_attrs)
    fill_container_text(root)
    data_sha, size = file_digest(path)
    return Document(
        artifact=ArtifactInfo(format="pptx", platform="office", sha256=data_sha, size_bytes=size, path=str(path), producer=_producer(pkg)),
        pages=pages,
        root=root,
        blobs=blobs,
        tools=[ToolInfo(name="lxml", version=etree.__version__)],
        warnings=warnings,
    )


def _slide(
    pkg: PptxPackage,
    part: str,
    index: int,
    width: float,
    height: float,
    default_text: etree._Element | None,
    media: MediaStore,
    warnings: list[str],
    slide_index: dict[str, int],
    table_styles: TableStyles,
    authors: dict[str, str],
    number: int,
) -> tuple[Node, Page]:
    slide = pkg.xml(part, cache=False)
    layout_part = pkg.first_related(part, "slideLayout")
    layout = pkg.xml(layout_part) if layout_part else None
    if layout_part is None:
        warnings.append(f"{part}: slide has no layout; inherited positions and styles are unknown")
    master_part = pkg.first_related(layout_part, "slideMaster") if layout_part else None
    master = pkg.xml(master_part) if master_part else None
    if layout_part is not None and master_part is None:
        warnings.append(f"{layout_part}: layout has no slide master (missing relationships); master styles and theme defaults are used")
    theme, theme_part = load_theme(pkg, master_part, warnings)
    clr_map = slide_clr_map(slide, layout, master)

    def hyperlink(rid: str | None, action: str | None) -> str | None:
        rel = pkg.related(part, rid)
        if rel is not None and rel.external:
            return rel.target
        if rel is not None and rel.target in slide_index:
            return f"#slide={slide_index[rel.target] + 1}"
        if action:
            return action
        return rel.target if rel is not None else None

    ctx = SlideContext(
        pkg=pkg,
        page=index,
        part=part,
        theme=theme,
        theme_part=theme_part,
        clr_map=clr_map,
        layout=layout,
        master=master,
        layout_ph=PlaceholderIndex(layout),
        master_ph=PlaceholderIndex(master),
        default_text_style=default_text,
        media=media,
        warnings=warnings,
        hyperlink=hyperlink,
        table_styles=table_styles,
        slide_number=number,
    )
    c_sld = slide.find(f"{_P}cSld")
    tree = c_sld.find(f"{_P}spTree") if c_sld is not None else None
    node_id = f"s{index}"
    children = _inherited_shapes(ctx, slide, layout, master, layout_part, master_part, node_id)
    if tree is not None:
        children.extend(ShapeWalker(ctx, part=part).walk(tree, IDENTITY, node_id, 0.0))

    hidden = slide.get("show") in ("0", "false")
    layout_c_sld = layout.find(f"{_P}cSld") if layout is not None else None
    attrs: dict[str, Any] = {
        "index": index,
        "number": number,
        "hidden": hidden,
        "layout": layout_c_sld.get("name") if layout_c_sld is not None else None,
        "part": part,
        "theme_colors": {slot: theme.colors[slot] for slot in SCHEME_SLOTS if slot in theme.colors},
    }
    if c_sld is not None and c_sld.get("name"):
        attrs["name"] = c_sld.get("name")
    attrs.update(slide_transition(slide))
    attrs.update(_background(ctx, slide, layout, master, part, layout_part, master_part))
    notes = _notes(ctx, part, node_id)
    if notes is not None:
        children.append(notes)
    children.extend(_comments(ctx, part, node_id, authors))
    slide_box = Box(page=index, x0=0.0, top=0.0, x1=width, bottom=height)
    title = _title_text(children)
    node = Node(id=node_id, kind="slide", attrs=attrs, boxes=[slide_box], source=part, children=children)
    see_through(node, attrs.get("background_color") if attrs.get("background_type") == "solid" else None)
    page = Page(index=index, kind="slide", width=width, height=height, name=title, hidden=hidden, attrs={"layout": attrs["layout"], "part": part})
    return node, page


def _inherited_shapes(
    ctx: SlideContext,
    slide: etree._Element,
    layout: etree._Element | None,
    master: etree._Element | None,
    layout_part: str | None,
    master_part: str | None,
    slide_id: str,
) -> list[Node]:
    """Non-placeholder shapes of the master, then the layout, drawn beneath the slide's
    own shapes (logos, bars, footers text), unless ``showMasterSp="0"`` hides them.
    They carry ``inherited_from`` = master | layout."""
    if slide.get("showMasterSp") in ("0", "false"):
        return []
    out: list[Node] = []
    sources = []
    if master is not None and master_part is not None and (layout is None or layout.get("showMasterSp") not in ("0", "false")):
        sources.append(("master", master, master_part))
    if layout is not None and layout_part is not None:
        sources.append(("layout", layout, layout_part))
    for where, root, rpart in sources:
        tree = root.find(f"{_P}cSld/{_P}spTree")
        if tree is None:
            continue
        nodes = ShapeWalker(ctx, part=rpart).walk(tree, IDENTITY, f"{slide_id}/{where}", 0.0, skip_placeholders=True)
        for n in nodes:
            n.attrs["inherited_from"] = where
        out.extend(nodes)
    return out


def _background(
    ctx: SlideContext,
    slide: etree._Element,
    layout: etree._Element | None,
    master: etree._Element | None,
    part: str,
    layout_part: str | None,
    master_part: str | None,
) -> dict[str, Any]:
    for where, root, rpart in (("slide", slide, part), ("layout", layout, layout_part), ("master", master, master_part)):
        if root is None or rpart is None:
            continue
        fill: Fill | None = background_fill(root.find(f"{_P}cSld"), ctx.theme, ctx.clr_map, part=rpart, theme_part=ctx.theme_part)
        if fill is None:
            continue
        out: dict[str, Any] = {"background_type": fill.type, "background_from": where}
        if fill.color is not None:
            out["background_color"] = fill.color
        if fill.type == "picture":
            rel = ctx.pkg.related(fill.part or rpart, fill.blip_rid)
            if rel is not None and not rel.external:
                blob = ctx.media.original(rel.target)
                if blob is not None:
                    out["background_blob"] = blob.sha256
        return out
    # Nothing states a background: PowerPoint paints the bg1 colour.
    return {"background_type": "solid", "background_from": "default", "background_color": ctx.theme.colors.get(ctx.clr_map.get("bg1", "lt1"), "#ffffff")}


def _notes(ctx: SlideContext, part: str, slide_id: str) -> Node | None:
    notes_part = ctx.pkg.first_related(part, "notesSlide")
    if notes_part is None:
        return None
    notes = ctx.pkg.xml(notes_part, cache=False)
    tree = notes.find(f"{_P}cSld/{_P}spTree")
    if tree is None:
        return None
    paras: list[Node] = []
    for sp in tree.iter(f"{_P}sp"):
        ph = placeholder_of(sp)
        if ph is None or ph_type(ph) != "body":
            continue
        body = child(sp, "txBody")
        own = child(body, "lstStyle")
        tctx = TextContext(theme=ctx.theme, clr_map=ctx.clr_map, list_styles=[own] if own is not None else [], hyperlink=ctx.hyperlink, slide_number=ctx.slide_number)
        paras.extend(paragraph_nodes(body, tctx, id_prefix=f"{slide_id}/notes/b{len(paras)}", boxes=[]))
    for p in paras:
        for n in p.iter():
            n.attrs["rendered"] = False
            n.attrs["not_rendered_reason"] = "speaker notes are not drawn on the slide"
    return Node(
        id=f"{slide_id}/notes",
        kind="note",
        attrs={"rendered": False, "not_rendered_reason": "speaker notes are not drawn on the slide", "part": notes_part},
        source=notes_part,
        children=paras,
    )


def _int_attr(el: etree._Element | None, name: str, default: int) -> int:
    try:
        return int(el.get(name, str(default))) if el is not None else default
    except ValueError:
        return default


def _deck_attrs(pres: etree._Element, width: float, height: float, first_number: int) -> dict[str, Any]:
    """The document node's slide size (points), orientation and size preset
    (``p:sldSz@type``: ``screen4x3``, ``screen16x9``, ``A4``, ... ``custom``)."""
    sz = pres.find(f"{_P}sldSz")
    out: dict[str, Any] = {
        "slide_width": round(width, 3),
        "slide_height": round(height, 3),
        "orientation": orientation(width, height),
        "slide_size_type": (sz.get("type") if sz is not None else None) or "custom",
    }
    if first_number != 1:
        out["first_slide_number"] = first_number
    return out


def _sections(pres: etree._Element) -> dict[str, str]:
    """Slide id -> section name, from PowerPoint 2010's ``p14:sectionLst``."""
    out: dict[str, str] = {}
    for section in pres.iter("{http://schemas.microsoft.com/office/powerpoint/2010/main}section"):
        for sld in section.iter("{http://schemas.microsoft.com/office/powerpoint/2010/main}sldId"):
            out.setdefault(sld.get("id") or "", section.get("name") or "")
    return out


def _comment_authors(pkg: PptxPackage, main_part: str) -> dict[str, str]:
    """Author id -> name, from legacy ``commentAuthors.xml`` and modern ``authors.xml``."""
    out: dict[str, str] = {}
    for kind in ("commentAuthors", "authors"):
        part = pkg.first_related(main_part, kind)
        if part is None:
            continue
        for el in pkg.xml(part, cache=False).iter():
            if isinstance(el.tag, str) and etree.QName(el).localname in ("cmAuthor", "author"):
                out[el.get("id") or ""] = el.get("name") or ""
    return out


def _comments(ctx: SlideContext, part: str, slide_id: str, authors: dict[str, str]) -> list[Node]:
    """Review comments (legacy ``p:cm`` and modern ``p188:cm``) as ``comment`` nodes:
    not drawn in the slide show, so no boxes; ``x``/``y`` give the marker's anchor in
    points (legacy positions are in 1/8 pt)."""
    out: list[Node] = []
    for rel in ctx.pkg.rels(part).values():
        if rel.external or not rel.kind.lower().endswith("comments") or not ctx.pkg.has(rel.target):
            continue
        root = ctx.pkg.xml(rel.target, cache=False)
        for cm in root:
            if not isinstance(cm.tag, str) or etree.QName(cm).localname != "cm":
                continue
            text_el = child(cm, "text")
            if text_el is not None:
                text = text_el.text or ""
            else:
                body = child(cm, "txBody")
                paras = body.iter("{http://schemas.openxmlformats.org/drawingml/2006/main}p") if body is not None else []
                text = "\n".join("".join(t.text or "" for t in p.iter("{http://schemas.openxmlformats.org/drawingml/2006/main}t")) for p in paras)
            attrs: dict[str, Any] = {
                "author": authors.get(cm.get("authorId") or "", cm.get("authorId")),
                "date": cm.get("dt") or cm.get("created"),
                "rendered": False,
                "not_rendered_reason": "review comments are not drawn on the slide",
                "part": rel.target,
            }
            pos = child(cm, "pos")
            if pos is not None:
                try:
                    attrs["x"], attrs["y"] = float(pos.get("x", "0")) / 8.0, float(pos.get("y", "0")) / 8.0
                except ValueError:
                    pass
            out.append(Node(id=f"{slide_id}/comment{len(out)}", kind="comment", text=text, attrs=attrs, source=rel.target))
    return out


def _title_text(children: list[Node]) -> str | None:
    for n in children:
        t = n.attrs.get("placeholder_type")
        if t in ("title", "ctrTitle"):
            text = "".join(r.text for r in n.iter() if r.kind == "run").strip()
            return text or None
    return None


def _slide_size(pres: etree._Element, *, path: Path, warnings: list[str]) -> tuple[float, float]:
    """``p:sldSz`` in EMU. Missing or unreadable: PowerPoint's 4:3 default, with a
    warning. Beyond 10x PowerPoint's own maximum (56 in): ``ArtifactTooLarge``."""
    sz = pres.find(f"{_P}sldSz")
    try:
        cx = float(sz.get("cx", "")) if sz is not None else math.nan
        cy = float(sz.get("cy", "")) if sz is not None else math.nan
    except ValueError:
        cx = cy = math.nan
    if not (math.isfinite(cx) and math.isfinite(cy) and cx > 0 and cy > 0):
        warnings.append("presentation.xml states no usable slide size (p:sldSz); 10 x 7.5 in assumed")
        return DEFAULT_SLIDE_SIZE_EMU
    if cx > MAX_SLIDE_EMU or cy > MAX_SLIDE_EMU:
        raise ArtifactTooLarge(f"slide size {cx:.0f} x {cy:.0f} EMU is absurd (limit {MAX_SLIDE_EMU} EMU a side)", path=path)
    return cx, cy


def _producer(pkg: PptxPackage) -> str | None:
    if not pkg.has("docProps/app.xml"):
        return None
    try:
        app = pkg.xml("docProps/app.xml")
    except ArtifactCheckError:
        return None
    ns = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"
    name = app.findtext(f"{ns}Application")
    version = app.findtext(f"{ns}AppVersion")
    return " ".join(x for x in (name, version) if x) or None
