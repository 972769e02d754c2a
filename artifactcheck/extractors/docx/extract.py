"""``extract_docx``: a .docx file -> Document (tree, sections, images; boxes from layout).

What is walked, in this order under the ``document`` root (design/docx-tree.md):

1. the body, in document order (``body.py``): paragraphs, runs, tables, pictures,
   text boxes, content controls, fields, tracked changes, equations;
2. per section, its headers and footers (``header``/``footer`` nodes, types
   ``default``/``first``/``even``);
3. footnotes and endnotes (``footnote`` nodes, in reference order);
4. comments (``comment`` nodes with author and the text range they are anchored to).

With ``render=True`` (default) the file is rendered by LibreOffice (cached) and every
visible node gets boxes from the PDF (``layout.py``); with ``render=False`` the tree
has no boxes and no pages, and a warning says so.

Any library exception while reading the package becomes a ``CorruptArtifact`` naming the
file and the part; rendering failures are ``RenderError``/``RenderTimeout``.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from importlib.metadata import PackageNotFoundError, version
from itertools import repeat
from pathlib import Path
from typing import Any, cast

from lxml import etree

from ...digest import file_digest
from ...errors import ArtifactCheckError, CorruptArtifact, RenderError
from ...model import ArtifactInfo, Document, Node, NodeKind, ToolInfo
from ..drawingml.color import SCHEME_SLOTS, Theme
from ..tree_builder import fill_container_text
from .body import HIDDEN_TEXT, BodyWalker, WalkState
from .clock_fields import show_clock_fields
from .crops import show_cropped_pictures
from .numbering import Numbering
from .package import W_NS, DocxPackage, is_on, open_docx
from .sections import Section, parse_section
from .seq_fields import show_seq_fields
from .styles import StyleSheet

W = f"{{{W_NS}}}"
_CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
_EP = "{http://schemas.openxmlformats.org/officeDocument/2006/extended-properties}"
_NOT_PRINTED = {"rendered": False, "not_rendered_reason": "comments are not printed"}


def extract_docx(path: str | Path, *, render: bool = True, **options: Any) -> Document:
    """Read a .docx into a Document.

    ``render``: attach layout boxes and pages from a LibreOffice rendering (cached by
    content). Other options: ``timeout`` (seconds for the renderer, default 120).
    Raises :class:`~artifactcheck.errors.ArtifactCheckError` subclasses only.
    """
    p = Path(path)
    with _gc_paused():
        pkg = open_docx(p)
        try:
            try:
                doc = _build(pkg)
                deletions = deletions_drawn(pkg)
            except ArtifactCheckError:
                raise
            except Exception as exc:
                raise CorruptArtifact(
                    f"cannot read the document: {type(exc).__name__}: {exc}", path=p
                ) from exc
        finally:
            pkg.close()
        if render:
            from .layout import attach_layout

            try:
                attach_layout(doc, p, timeout=float(options.get("timeout", 120)), deletions=deletions)
            except ArtifactCheckError:
                raise
            except Exception as exc:
                raise RenderError(
                    f"cannot lay out the rendered PDF: {type(exc).__name__}: {exc}", path=p
                ) from exc
        else:
            doc.warnings.append("render=False: no layout, so no boxes and no pages")
    return doc


@contextmanager
def _gc_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a document is built, as ``read_layout``
    does: the walk and the layout allocate hundreds of thousands of objects, and every
    collection they trigger traverses the growing tree again (1.2 of 6.0 s CPU on a
    180-page file). Nothing garbage here needs the collector (the tree's parent links
    are cycles, but alive); it runs again, as it was, when the document is done."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _content_types(pkg: DocxPackage) -> dict[str, str]:
    out: dict[str, str] = {}
    if not pkg.has("[Content_Types].xml"):
        return out
    root = pkg.xml("[Content_Types].xml")
    defaults = {
        d.get("Extension", "").lower(): d.get("ContentType", "") for d in root.iter(f"{_CT}Default")
    }
    for name in pkg.zf.namelist():
        ext = name.rsplit(".", 1)[-1].lower()
        if ext in defaults:
            out[name] = defaults[ext]
    for o in root.iter(f"{_CT}Override"):
        out[o.get("PartName", "").lstrip("/")] = o.get("ContentType", "")
    return out


def _producer(pkg: DocxPackage) -> str | None:
    part = pkg.first_of_type("", "extended-properties")
    root = pkg.optional_xml(part)
    if root is None:
        return None
    app = root.findtext(f"{_EP}Application")
    ver = root.findtext(f"{_EP}AppVersion")
    return " ".join(x for x in (app, ver) if x) or None


def deletions_drawn(pkg: DocxPackage) -> bool:
    """Whether the file's view shows tracked deletions, as LibreOffice then draws them
    (struck through) in the PDF: yes unless ``w:settings/w:revisionView`` turns off
    ``w:markup`` or ``w:insDel`` (ECMA-376 17.15.1.69; both hide them in LibreOffice 7.4,
    measured on python-docx files with each attribute set)."""
    settings = pkg.optional_xml(pkg.first_of_type(pkg.main_part, "settings"))
    view = settings.find(f"{W}revisionView") if settings is not None else None
    if view is None:
        return True
    return all(
        (view.get(f"{W}{name}") or "true").lower() not in ("0", "false", "off")
        for name in ("markup", "insDel")
    )


def _build(pkg: DocxPackage) -> Document:
    main = pkg.main_part
    theme_root = pkg.optional_xml(pkg.first_of_type(main, "theme"))
    theme = Theme.from_element(theme_root) if theme_root is not None else Theme()
    styles = StyleSheet.parse(pkg.optional_xml(pkg.first_of_type(main, "styles")), theme)
    numbering = Numbering.parse(pkg.optional_xml(pkg.first_of_type(main, "numbering")))
    settings = pkg.optional_xml(pkg.first_of_type(main, "settings"))
    state = WalkState(
        pkg=pkg, styles=styles, numbering=numbering, content_types=_content_types(pkg)
    )
    state.style_num_ids = {
        sid: num_id for sid, st in styles.styles.items() if (num_id := st.num_id())
    }
    even_odd = False
    if settings is not None:
        even_odd = bool(is_on(settings.find(f"{W}evenAndOddHeaders")))
        for tag, attr in (("footnotePr", "footnote_fmt"), ("endnotePr", "endnote_fmt")):
            fmt = settings.find(f"{W}{tag}/{W}numFmt")
            if fmt is not None and fmt.get(f"{W}val"):
                setattr(state, attr, fmt.get(f"{W}val"))

    body = pkg.xml(main).find(f"{W}body")
    children: list[Node] = []
    sections: list[Section] = []
    if body is not None:
        children = BodyWalker(state, main).blocks(body, "")
        sect_els = [sp for sp in body.iter(f"{W}sectPr") if _is_section_end(sp, body)]
        prev: Section | None = None
        for i, sp in enumerate(sect_els):
            prev = parse_section(sp, i, prev)
            sections.append(prev)
    if not sections:
        sections.append(parse_section(None, 0, None))
    _assign_sections(children, sections)

    children.extend(_headers_footers(state, sections, even_odd=even_odd))
    children.extend(_notes(state))
    children.extend(_comments(state))

    root = Node(
        id="document",
        kind="document",
        attrs={
            "sections": [s.attrs for s in sections],
            "even_and_odd_headers": even_odd,
            "theme_colors": {slot: theme.colors[slot] for slot in SCHEME_SLOTS if slot in theme.colors},
        },
        children=children,
        source=main,
    )
    # The SEQ/DATE passes walk the whole tree for the walker's private marks, which only
    # a field makes (no field counted: no mark); a cropped picture has a blob. A
    # 180-page file with neither spent ~50 ms walking its 41k nodes for nothing.
    if state.field_count:
        show_seq_fields(root)  # before _mark_unrendered: a caption number is visible text
    _mark_unrendered(root)
    if state.blobs:
        show_cropped_pictures(root, state.blobs, state.warnings)
    if state.field_count:
        show_clock_fields(root)
    fill_container_text(root)
    digest = file_digest(pkg.path)
    return Document(
        artifact=ArtifactInfo(
            format="docx",
            platform="office",
            sha256=digest.sha256,
            size_bytes=digest.size_bytes,
            path=str(pkg.path),
            producer=_producer(pkg),
        ),
        pages=[],
        root=root,
        blobs=state.blobs,
        tools=[
            ToolInfo(name="lxml", version=etree.__version__),
            ToolInfo(name="artifactcheck.docx", version=_our_version()),
        ],
        warnings=state.warnings,
    )


def _our_version() -> str:
    try:
        return version("artifactcheck")
    except PackageNotFoundError:
        return "0+unknown"


def _is_section_end(sect: etree._Element, body: etree._Element) -> bool:
    """A ``w:sectPr`` that ends a section: the body's own, or one in a paragraph's
    ``w:pPr`` (not a ``w:sectPrChange`` record of a tracked change)."""
    parent = sect.getparent()
    if parent is body:
        return True
    return parent is not None and etree.QName(parent).localname == "pPr"


def _assign_sections(children: list[Node], sections: list[Section]) -> None:
    """Give each top-level block its section index; a paragraph holding a ``w:sectPr``
    ends its section (``section_break`` = how the next one starts)."""
    idx = 0
    for node in children:
        node.attrs["section"] = min(idx, len(sections) - 1)
        if node.kind == "paragraph" and node.attrs.get("_ends_section"):
            node.attrs.pop("_ends_section")
            if idx + 1 < len(sections):
                node.attrs["section_break"] = str(sections[idx + 1].attrs.get("start", "nextPage"))
            idx += 1


def _headers_footers(state: WalkState, sections: list[Section], *, even_odd: bool) -> list[Node]:
    """One node per header or footer part and type: a section that inherits its
    predecessor's header (python-docx's ``add_section`` writes no reference) shows the
    same header, and is listed in that node's ``sections`` (one logo, not one per section:
    count, structure and images_unique saw copies a reader does not)."""
    out: list[Node] = []
    main = state.pkg.main_part
    seen: dict[tuple[str, str, str], Node] = {}
    for sec in sections:
        for kind, refs in (("header", sec.headers), ("footer", sec.footers)):
            for htype in ("first", "default", "even"):
                rid = refs.get(htype)
                if rid is None:
                    continue
                rel = state.pkg.rel_target(main, rid)
                if rel is None or rel.external or not state.pkg.has(rel.target):
                    state.warnings.append(
                        f"section {sec.index}: {kind} {htype} ({rid}) has no part"
                    )
                    continue
                active = (
                    (htype == "default")
                    or (htype == "first" and sec.title_page)
                    or (htype == "even" and even_odd)
                )
                shared = seen.get((kind, htype, rel.target))
                if shared is not None:
                    shared.attrs["sections"] = [*shared.attrs["sections"], sec.index]  # type: ignore[misc]
                    if active and shared.attrs.get("rendered") is False:
                        shared.attrs.pop("rendered")
                        shared.attrs.pop("not_rendered_reason", None)
                    continue
                node_id = f"s{sec.index}/{kind}-{htype}"
                state.fields.clear()
                state.open_comments.clear()
                content = BodyWalker(state, rel.target).blocks(state.pkg.xml(rel.target), node_id)
                attrs: dict[str, Any] = {"type": htype, "section": sec.index, "sections": [sec.index], "part": rel.target}
                if not active:
                    attrs.update(
                        rendered=False,
                        not_rendered_reason=f"{htype} {kind} is not used ("
                        + (
                            "no w:titlePg in the section"
                            if htype == "first"
                            else "w:evenAndOddHeaders is off"
                        )
                        + ")",
                    )
                node = Node(id=node_id, kind=cast("NodeKind", kind), attrs=attrs, children=content, source=rel.target)
                seen[(kind, htype, rel.target)] = node
                out.append(node)
    return out


def _notes(state: WalkState) -> list[Node]:
    out: list[Node] = []
    main = state.pkg.main_part
    for ntype in ("footnote", "endnote"):
        part = state.pkg.first_of_type(main, f"{ntype}s")
        root = state.pkg.optional_xml(part)
        if root is None or part is None:
            continue
        notes = {n.get(f"{W}id") or "": n for n in root.findall(f"{W}{ntype}")}
        referenced = [nid for t, nid in state.note_order if t == ntype and nid in notes]
        rest = [
            nid
            for nid, n in notes.items()
            if nid not in referenced and (n.get(f"{W}type") or "normal") == "normal"
        ]
        for nid in referenced + rest:
            el = notes[nid]
            if (el.get(f"{W}type") or "normal") != "normal":
                continue
            label = state.note_numbers.get((ntype, nid), "")
            state.current_note_label = label
            state.fields.clear()
            state.open_comments.clear()
            node_id = f"{ntype}-{nid}"
            attrs: dict[str, Any] = {"note_type": ntype, "note_id": nid, "label": label}
            if nid not in referenced:
                attrs.update(
                    rendered=False, not_rendered_reason=f"{ntype} is never referenced from the text"
                )
            content = BodyWalker(state, part).blocks(el, node_id)
            out.append(
                Node(id=node_id, kind="footnote", attrs=attrs, children=content, source=part)
            )
    state.current_note_label = ""
    return out


def _comments(state: WalkState) -> list[Node]:
    main = state.pkg.main_part
    part = state.pkg.first_of_type(main, "comments")
    root = state.pkg.optional_xml(part)
    if root is None or part is None:
        return []
    out: list[Node] = []
    for el in root.findall(f"{W}comment"):
        cid = el.get(f"{W}id") or ""
        state.fields.clear()
        state.open_comments.clear()
        node_id = f"comment-{cid}"
        content = BodyWalker(state, part).blocks(el, node_id)
        attrs: dict[str, Any] = {
            "comment_id": cid,
            "author": el.get(f"{W}author"),
            "initials": el.get(f"{W}initials"),
            "date": el.get(f"{W}date"),
            "anchor_text": "".join(state.comment_text.get(cid, [])),
            "anchor_ids": list(dict.fromkeys(state.comment_nodes.get(cid, []))),
            **_NOT_PRINTED,
        }
        out.append(
            Node(
                id=node_id,
                kind="comment",
                attrs={k: v for k, v in attrs.items() if v is not None},
                children=content,
                source=part,
            )
        )
    return out


def _mark_unrendered(root: Node) -> None:
    """Say why a node will have no box, before any layout: empty paragraphs, paragraphs
    whose every run is hidden, and everything inside a node that is not printed."""
    stack: list[tuple[Node, dict[str, Any] | None]] = [(root, None)]
    pop, push = stack.pop, stack.extend
    # Every node passes here (41k in a 180-page file): its attrs and their "rendered"
    # are read once into locals, and read again only where they change.
    while stack:
        node, inherited = pop()
        attrs = node.attrs
        rendered = attrs.get("rendered")
        if inherited is not None and rendered is not False:
            attrs.update(inherited)
            rendered = attrs.get("rendered")
        own = (
            {"rendered": False, "not_rendered_reason": attrs["not_rendered_reason"]}
            if rendered is False
            else inherited
        )
        children = node.children
        if rendered is not False and node.kind == "paragraph":
            visible = [c for c in children if c.attrs.get("rendered") is not False]
            if not children:
                attrs.update(rendered=False, not_rendered_reason="empty paragraph (no visible text)")
            elif not visible:
                hidden = all(c.attrs.get("hidden") for c in children if c.kind == "run")
                attrs.update(
                    rendered=False,
                    not_rendered_reason=HIDDEN_TEXT
                    if hidden
                    else "only tracked deletions or hidden text",
                )
                if hidden:
                    attrs["hidden"] = True
            elif not any(c.text.strip() for c in visible if c.kind == "run") and all(
                c.kind == "run" for c in visible
            ):
                attrs.update(rendered=False, not_rendered_reason="empty paragraph (no visible text)")
        if children:  # (child, own) pairs, made in C: no generator step per node
            push(zip(children, repeat(own)))
