"""``text_fits`` (mechanism ``geometric``): is any text cut off or overflowing its shape
or cell?

- Cells of a spreadsheet: the xlsx extractor has already applied Excel's rules with
  measured font widths and recorded ``attrs["overflow"]``: ``fits`` and ``spills`` (drawn
  over empty neighbours) are visible; ``clipped`` and ``hashes`` (``###``) are not;
  ``hidden`` and ``unknown`` (rotated text) are not judged.
- Shapes, text boxes and table cells of a slide deck whose layout can be drawn (a .pptx
  rendered by LibreOffice, a Google Slides deck with its Drive PDF export): the check
  asks for the layout and judges the **drawn** text (``attrs["drawn_text_box"]``, the
  union of the paragraphs' ``layout`` boxes) against the frame (the node's ``native``
  box, the cell's box) and the slide: text drawn more than ``tolerance_pt`` outside
  either does not fit (at the top, a quarter of the largest font size more: a drawn
  line's box is its font's band, which rises above the line itself). A frame that grows to its text (``spAutoFit``, ``attrs["autofit"]
  == "shape"``) is judged against the slide only. Text in a frame set to shrink it
  (``normAutofit``, ``"shrink"``) is judged where it is drawn too: LibreOffice draws it
  shrunk when the shape's own bodyPr asks, and at full size when the setting is only
  inherited from the layout or master (the failing row then says so).
- Cells, shapes and text boxes of a rendered document (a .docx laid out by LibreOffice):
  judged on their paragraphs' drawn boxes (:func:`document_fit`): a cell of an
  exact-height row fails when its text is drawn taller than the row (LibreOffice clips
  the rest) or a paragraph of it is not drawn; cells of growing rows fit; a text box's
  drawn text, when it fits its stated size less the insets, fits (else it is measured).
- Otherwise (no layout), the text is measured with the real font metrics
  (``extractors/fonts/metrics.py``: Office fonts through their metric twins), word-wrapped
  greedily at the box width minus the insets when the shape wraps, and the needed height
  (lines x 1.2 x size, plus insets) compared with the box; an unwrapped shape compares its
  widest line with the box width. Text shrunk by PowerPoint (``attrs
  ["autofit_font_scale"]``, normAutofit's fontScale) is measured at the shrunk size; a
  shape recorded as autofitting without a scale (``attrs["autofit"]`` = ``"shrink"`` or
  ``"shape"``) is not judged. Widths follow the shape's own (unrotated) size.

OOXML's default insets are 0.1 in left/right and 0.05 in top/bottom; an extractor may
record others in ``attrs["insets_pt"]`` ([left, top, right, bottom]).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from ..model import Box, Document, Node
from .geometry import box_dict, result
from .layout import drawn_text_box, ensure_layout_for
from .registry import Resources, register_check
from .result import CheckResult
from .target import TargetSpec, node_ref, select_targets

DEFAULT_INSETS_PT = (7.2, 3.6, 7.2, 3.6)  # left, top, right, bottom (OOXML bodyPr defaults)
DEFAULT_SIZE_PT = 18.0  # PowerPoint's default body text size when a run states none
LINE_SPACING = 1.2  # single line spacing as a multiple of the font size

_VISIBLE = {"fits", "spills"}
_CUT = {"clipped", "hashes"}


class TextFitsParams(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)

    target: TargetSpec = Field(default="cell, shape, textbox", validate_default=True)
    tolerance_pt: float = Field(
        default=2.0,
        ge=0,
        description="forgive text exceeding its box by this much (cells: only when given; their default is 0)",
    )
    quantifier: Literal["all", "any"] = "all"


def _unrotated_size(node: Node) -> tuple[float, float] | None:
    b = node.box
    if b is None:
        return None
    if b.polygon is not None and len(b.polygon) == 4:
        p0, p1, p2, _ = b.polygon
        return math.dist(p0, p1), math.dist(p1, p2)
    return b.width, b.height


def _paragraphs(node: Node) -> list[tuple[str, str | None, float, bool, bool]]:
    """(text, font, size, bold, italic) per paragraph, from its first styled run."""
    out = []
    paras = [n for n in node.descendants("paragraph")] or [node]
    for para in paras:
        runs = [r for r in para.descendants("run") if r.style is not None] if para is not node else []
        style = runs[0].style if runs else para.style
        size = style.size if style is not None and style.size else DEFAULT_SIZE_PT
        sizes = [r.style.size for r in runs if r.style is not None and r.style.size]
        if sizes:
            size = max(sizes)  # the line is as tall as its largest run
        out.append((para.text, style.font if style else None, size, bool(style.bold) if style else False, bool(style.italic) if style else False))
    return out


def measure_shape_text(node: Node, width: float, height: float) -> dict[str, Any]:
    """Needed vs available space for a shape's text, in points."""
    from ..extractors.fonts.metrics import measure_text
    from ..extractors.xlsx.overflow import wrap_lines

    insets = node.attrs.get("insets_pt")
    left, top, right, bottom = DEFAULT_INSETS_PT
    if isinstance(insets, list) and len(insets) == 4 and all(isinstance(v, (int, float)) for v in insets):
        left, top, right, bottom = (float(v) for v in insets)  # type: ignore[arg-type]
    avail_w = width - left - right
    avail_h = height - top - bottom
    wrap = node.style.wrap if node.style is not None and node.style.wrap is not None else True
    # PowerPoint's normAutofit fontScale: the text is drawn that much smaller than stated.
    scale_attr = node.attrs.get("autofit_font_scale")
    scale = float(scale_attr) if isinstance(scale_attr, (int, float)) and 0 < scale_attr <= 1 else 1.0
    need_h = 0.0
    widest = 0.0
    lines_total = 0
    substituted: set[str] = set()
    for text, font, stated, bold, italic in _paragraphs(node):
        size = stated * scale

        def width_of(s: str, font: str | None = font, size: float = size, bold: bool = bold, italic: bool = italic) -> float:
            m = measure_text(s, font, size, bold=bold, italic=italic)
            if m.face.substituted:
                substituted.add(m.face.requested)
            return m.width_pt

        for line in text.split("\n") or [""]:
            widest = max(widest, width_of(line))
        lines = wrap_lines(text, width_of, avail_w) if wrap else max(1, text.count("\n") + 1)
        lines_total += lines
        need_h += lines * size * LINE_SPACING
    return {
        "wrap": wrap,
        "lines": lines_total,
        "needed_width_pt": round(widest, 2),
        "available_width_pt": round(avail_w, 2),
        "needed_height_pt": round(need_h, 2),
        "available_height_pt": round(avail_h, 2),
        "fonts_substituted": sorted(substituted),
        "font_scale": scale,
    }


_SIDES = ("left", "top", "right", "bottom")
BAND_ABOVE_LINE = 0.25  # x font size: how far a drawn line's band may rise above its line box


def _cell_excess(node: Node) -> float | None:
    """How far a clipped cell's text runs past what is shown of it (points): the width
    hidden, or for wrapped text the height below the row. ``###`` is never partly
    shown, so it has none."""
    attrs = node.attrs
    if attrs.get("clipped_vertically"):
        return None  # a line taller than its row: how much shows is not measured
    height = attrs.get("text_height_pt")
    if attrs.get("lines") is not None and isinstance(height, (int, float)) and node.boxes:
        return round(max(0.0, float(height) - node.boxes[0].height), 3)
    width, visible = attrs.get("text_width_pt"), attrs.get("visible_width_pt")
    if isinstance(width, (int, float)) and isinstance(visible, (int, float)):
        return round(max(0.0, float(width) - float(visible)), 3)
    return None


def _fits_by_row_autofit(cell: Node) -> dict[str, Any] | None:
    """For a cell whose text is taller than its sheet's default row height and whose row
    the file leaves unsized (row ``autofit``): the row, the height Excel gives it and the
    one LibreOffice 7.4 draws. The verdict follows Excel, which fits such rows when it
    opens the file; LibreOffice keeps them at the default height (measured: a 10-line
    wrapped cell drawn in a 15 pt row, its first lines above the page), so an author
    reading our render must be told why it disagrees. None otherwise."""
    row = cell.parent
    sheet = row.parent if row is not None else None
    if row is None or sheet is None or row.kind != "row" or not row.attrs.get("autofit"):
        return None
    default = sheet.attrs.get("default_row_height_pt")
    needed = cell.attrs.get("text_height_pt")
    height = row.attrs.get("height_pt")
    if not isinstance(default, (int, float)) or not isinstance(height, (int, float)):
        return None
    if isinstance(needed, (int, float)):
        taller = needed > default
    else:  # one line: a font too big for the default row
        style = cell.style
        taller = style is not None and style.size is not None and height > default and style.size * 1.2 > default
    if not taller:
        return None
    return {"row": row.attrs.get("row"), "height_pt": height, "drawn_height_pt": default, "by": "Excel auto-fit on opening"}


def drawn_fit(doc: Document, node: Node, tolerance_pt: float) -> dict[str, Any] | None:
    """The verdict on a frame's drawn text (see the module docstring), or None when the
    node has no drawn text to judge (no layout, or its text was not found)."""
    drawn = node.attrs.get("drawn_text_box")
    frame = node.box
    box = drawn_text_box(node)
    if box is None or frame is None or frame.page >= len(doc.pages):
        return None
    x0, top, x1, bottom = box.x0, box.top, box.x1, box.bottom
    page = doc.pages[frame.page]
    # A drawn line's box is its font's band (ascent + line gap + descent): it starts
    # about 0.22 x size above the line LibreOffice lays out (3.98 pt at 18 pt, measured on
    # table rows), so the first line of text that fits its frame pokes above it.
    sizes = [r.style.size for r in node.descendants("run") if r.style is not None and r.style.size and r.text.strip()]
    scale = node.attrs.get("drawn_font_scale")
    band = BAND_ABOVE_LINE * max(sizes, default=0.0) * (float(scale) if isinstance(scale, (int, float)) else 1.0)
    outside: dict[str, float] = {}
    cut: dict[str, float] = {}
    for side, amount_frame, amount_page in zip(
        _SIDES,
        (frame.x0 - x0, frame.top - top, x1 - frame.x1, bottom - frame.bottom),
        (-x0, -top, x1 - page.width, bottom - page.height),
        strict=True,
    ):
        allowed = tolerance_pt + (band if side == "top" else 0.0)
        if amount_frame > allowed:
            outside[side] = round(amount_frame, 2)
        if amount_page > allowed:
            cut[side] = round(amount_page, 2)
    autofit = node.attrs.get("autofit")
    grows = autofit == "shape"
    shrinks = autofit == "shrink"
    row: dict[str, Any] = {
        "measured": "drawn",
        "band_slack_pt": round(band, 2),
        "drawn_text_box": drawn,
        "frame": box_dict(frame),
        "autofit": autofit,
        "ok": not cut and (grows or not outside),
    }
    if node.attrs.get("drawn_font_scale") is not None:
        row["drawn_font_scale"] = node.attrs["drawn_font_scale"]
    if cut:
        row["overflow"] = "drawn past the slide edge by " + ", ".join(f"{v} pt ({k})" for k, v in cut.items())
    elif outside and not grows:
        row["overflow"] = "drawn outside its frame by " + ", ".join(f"{v} pt ({k})" for k, v in outside.items())
    elif outside:
        row["frame_grows"] = outside  # spAutoFit: the frame is drawn around its text
    if shrinks and not row["ok"]:
        # "Shrink text on overflow" is set, but the text is drawn at full size: LibreOffice
        # shrinks only when the shape's own bodyPr asks (an inherited normAutofit is drawn
        # as is), and no fontScale is stored, so PowerPoint has not fitted it either.
        where = node.attrs.get("autofit_from")
        row["overflow"] += "; shrink-on-overflow is set" + (f" (from the {where})" if where else "") + " but the text is drawn at full size"
    return row


_FRAMES = ("cell", "shape", "textbox")


def _own_paragraphs(node: Node) -> list[Node]:
    """The paragraphs with text that ``node`` itself holds: not those of a table nested
    in a cell or of a text box anchored in it (they are judged as their own frames)."""
    out = []
    for para in node.descendants("paragraph"):
        holder = next((a for a in para.ancestors() if a.kind in _FRAMES), None)
        if holder is node and para.text.strip():
            out.append(para)
    return out


def _drawn_extent(paras: list[Node]) -> Box | None:
    """The union of the drawn (``layout``) boxes of ``paras`` on the first page they are
    drawn on; None when none of them is drawn. Writer starts a frame's first line at its
    top (a cell's line band begins 0.3 pt under the row's rule, measured), not above it
    as a slide line's band rises: the whole extent is the text's height."""
    boxes = [b for p in paras for b in p.boxes if b.origin == "layout"]
    if not boxes:
        return None
    page = min(b.page for b in boxes)
    on_page = [b for b in boxes if b.page == page]
    return Box(
        page=page,
        x0=min(b.x0 for b in on_page),
        top=min(b.top for b in on_page),
        x1=max(b.x1 for b in on_page),
        bottom=max(b.bottom for b in on_page),
        origin="layout",
    )


def document_fit(doc: Document, node: Node, tolerance_pt: float) -> dict[str, Any] | None:
    """The verdict on the drawn text of a cell, shape or text box of a rendered document
    (a .docx laid out by LibreOffice: paragraphs carry ``layout`` boxes), or None to
    judge it otherwise. Measured on LibreOffice 7.4 renders (tests/checks/
    test_text_fits_as_drawn.py):

    - A row of exact height (``height_rule: exact``) does not grow: the lines below it
      are clipped (still in the PDF's text layer, drawn over the next row, but not
      painted) or, wholly clipped, not drawn at all. Its cells fail when their drawn text
      is taller than the row (descenders cut count: a cell's tolerance is 0 unless the
      author gives one, as for sheet cells), or when a paragraph of theirs is not drawn.
    - Other rows grow to their text, and LibreOffice breaks even a word with no break
      opportunity (a URL, a hash, a ``w:noWrap`` cell) at the cell's edge: a cell whose
      paragraphs are all drawn fits, unless its text runs past the page's edge (a fixed
      table wider than the page: the last column's words are drawn off it). Text drawn
      off the page fails whatever holds it.
    - A text box is clipped at its frame: its drawn text is compared with its stated
      size less the default insets, and passes when it fits. An empty paragraph under
      the text takes no room a reader sees (measuring it as a line failed boxes whose
      text shows whole). A box whose drawn text does not fit so, or with a paragraph not
      drawn (short labels the alignment cannot place are drawn all the same), is left
      to the measurement."""
    if node.kind not in _FRAMES or _on_slide_or_sheet(node):
        return None  # slides are judged on their frames' drawn_text_box, sheets by Excel's rules
    paras = _own_paragraphs(node)
    box = _drawn_extent(paras)
    if box is None:
        return None
    undrawn = [p for p in paras if not any(b.origin == "layout" for b in p.boxes)]
    row: dict[str, Any] = {"measured": "drawn", "drawn_text_box": box_dict(box)}
    off = _past_page(doc, box, tolerance_pt)
    if off:
        # a fixed table wider than the page: its last column's text runs past the edge
        row.update(ok=False, overflow="drawn past the page edge by " + ", ".join(f"{v} pt ({k})" for k, v in off.items()))
        return row
    if node.kind == "cell":
        return _cell_as_drawn(node, box, undrawn, tolerance_pt, row)
    if undrawn:
        return None
    drawn_row = _box_as_drawn(node, box, tolerance_pt, row)
    # Only a fit is taken from the drawing: the tree records neither a Word text box's
    # insets (a LibreOffice frame states 0) nor whether it grows to its text
    # (spAutoFit), so text drawn taller than the stated box less the default insets may
    # still show whole ("-1-" in an 11.65 pt footer frame); that is left to the measurement.
    return drawn_row if drawn_row is not None and drawn_row["ok"] else None


def _past_page(doc: Document, box: Box, tolerance_pt: float) -> dict[str, float]:
    """How far drawn text runs past each edge of its page (sides beyond the tolerance)."""
    if box.page >= len(doc.pages):
        return {}
    page = doc.pages[box.page]
    amounts = (-box.x0, -box.top, box.x1 - page.width, box.bottom - page.height)
    return {side: round(v, 2) for side, v in zip(_SIDES, amounts, strict=True) if v > tolerance_pt}


def _on_slide_or_sheet(node: Node) -> bool:
    return any(a.kind in ("slide", "sheet") for a in node.ancestors())


def _cell_as_drawn(cell: Node, box: Box, undrawn: list[Node], tolerance_pt: float, row: dict[str, Any]) -> dict[str, Any] | None:
    parent = cell.parent
    exact = parent is not None and parent.kind == "row" and parent.attrs.get("height_rule") == "exact"
    height = parent.attrs.get("height_pt") if parent is not None else None
    if not exact:
        if undrawn:
            return None  # not found on the page: the alignment may have missed it
        row.update(ok=True, row_grows=True)
        return row
    span = cell.attrs.get("row_span", 1)
    if not isinstance(height, (int, float)) or (isinstance(span, int) and span > 1):
        return None  # a cell merged down several rows: their heights are not summed here
    # Descenders cut by a 14 pt row under a 14 pt line ("gyp") are cut text. The first
    # paragraph's space before pushes the text down the row; it is not in the drawn box.
    before = next((p.attrs.get("space_before") for p in cell.descendants("paragraph")), None)
    needed = round(box.bottom - box.top + (float(before) if isinstance(before, (int, float)) and before > 0 else 0.0), 2)
    row.update(row_height_pt=height, needed_height_pt=needed)
    if undrawn:
        row.update(ok=False, overflow=f"{len(undrawn)} paragraph(s) not drawn: the row's exact height of {height:g} pt hides them")
    elif needed > height + tolerance_pt:
        row.update(ok=False, overflow=f"needs {needed} pt of height; the row is exactly {height:g} pt high and clips the rest")
    else:
        row["ok"] = True
    return row


def _box_as_drawn(node: Node, box: Box, tolerance_pt: float, row: dict[str, Any]) -> dict[str, Any] | None:
    size = _stated_size(node)
    if size is None:
        return None
    insets = node.attrs.get("insets_pt")
    left, top, right, bottom = DEFAULT_INSETS_PT
    if isinstance(insets, list) and len(insets) == 4 and all(isinstance(v, (int, float)) for v in insets):
        left, top, right, bottom = (float(v) for v in insets)  # type: ignore[arg-type]
    avail_w, avail_h = round(size[0] - left - right, 2), round(size[1] - top - bottom, 2)
    need_w, need_h = round(box.x1 - box.x0, 2), round(box.bottom - box.top, 2)
    row.update(needed_width_pt=need_w, available_width_pt=avail_w, needed_height_pt=need_h, available_height_pt=avail_h)
    if need_h > avail_h + tolerance_pt:
        row.update(ok=False, overflow=f"drawn {need_h} pt high, the box holds {avail_h} (the rest is clipped)")
    elif need_w > avail_w + tolerance_pt:
        row.update(ok=False, overflow=f"drawn {need_w} pt wide, the box holds {avail_w}")
    else:
        row["ok"] = True
    return row


def _stated_size(node: Node) -> tuple[float, float] | None:
    """A document text box's size as the file states it (``width``/``height``): its
    layout box may be the union of its text, not its frame."""
    if node.attrs.get("vml"):
        return None  # a VML box's stated size is not read reliably (0.089 x 0.088 pt seen)
    w, h = node.attrs.get("width"), node.attrs.get("height")
    if isinstance(w, (int, float)) and isinstance(h, (int, float)) and w > 0 and h > 0:
        return float(w), float(h)
    return _unrotated_size(node)


@register_check(
    "text_fits",
    mechanism="geometric",
    params=TextFitsParams,
    example={"target": "cell, shape, textbox", "tolerance_pt": 2},
)
def text_fits(doc: Document, p: TextFitsParams, resources: Resources) -> CheckResult:
    """No text is cut off or overflows its shape or cell (cells: the extractor's overflow verdict; slide text: where it is drawn, else measured text vs box).

    Nodes without text are ignored; cells marked hidden or with rotated text, and (without
    a layout) shapes that autofit, are listed as not judged. Slide decks are judged on
    their drawn text (a render is asked for). Fails listing every node whose text does not fit.
    """
    name = "text_fits"
    judged: list[dict[str, Any]] = []
    not_judged: list[dict[str, Any]] = []
    targets = select_targets(doc, p.target)
    ensure_layout_for(doc, targets, frames=True)
    # A cell's text is modelled, not measured off a page: cut by a point is cut ("###"
    # is all or nothing). Its tolerance is the author's own, when they give one; the
    # default forgives drawn slide text the render's imprecision.
    cell_tolerance = p.tolerance_pt if "tolerance_pt" in p.model_fields_set else 0.0
    for node in targets:
        if not node.text.strip():
            continue
        row: dict[str, Any] = {**node_ref(node), "boxes": [box_dict(b) for b in node.boxes[:1]]}
        drawn = drawn_fit(doc, node, p.tolerance_pt)
        if drawn is None and doc.pages:
            drawn = document_fit(doc, node, cell_tolerance if node.kind == "cell" else p.tolerance_pt)
        if drawn is not None:
            row.update(drawn)
            judged.append(row)
            continue
        if node.kind == "cell":
            verdict = node.attrs.get("overflow")
            if verdict in _VISIBLE or verdict in _CUT:
                row.update(overflow=verdict, text_width_pt=node.attrs.get("text_width_pt"), ok=verdict in _VISIBLE)
                fitted = _fits_by_row_autofit(node)
                if fitted is not None and row["ok"]:
                    row["row_autofit"] = fitted
                excess = _cell_excess(node) if verdict == "clipped" else None
                if excess is not None:
                    row["excess_pt"] = excess
                    if excess <= cell_tolerance:  # cut by less than the author forgives
                        row["ok"] = True
                        row["overflow"] = f"clipped by {excess:g} pt, within tolerance"
                judged.append(row)
            else:
                not_judged.append({**row, "reason": f"overflow={verdict!r}" if verdict else "the extractor recorded no overflow verdict"})
            continue
        autofit = node.attrs.get("autofit")
        if autofit in ("shrink", "shape", "normAutofit", "spAutoFit") and "autofit_font_scale" not in node.attrs:
            not_judged.append({**row, "reason": f"autofit={autofit!r}: the text is fitted when drawn"})
            continue
        size = _unrotated_size(node)
        if size is None:
            not_judged.append({**row, "reason": "not drawn (no box)"})
            continue
        m = measure_shape_text(node, *size)
        if "autofit" not in node.attrs and "autofit_font_scale" not in node.attrs and _on_slide_or_sheet(node):
            # The extractor did not say whether the shape shrinks its text to fit; a
            # failing row may then be text PowerPoint would shrink (design/checks-geometry.md).
            m["autofit_known"] = False
        ok_h = m["needed_height_pt"] <= m["available_height_pt"] + p.tolerance_pt
        ok_w = m["wrap"] or m["needed_width_pt"] <= m["available_width_pt"] + p.tolerance_pt
        row.update(m, ok=ok_h and ok_w)
        if not ok_h:
            row["overflow"] = f"needs {m['needed_height_pt']} pt of height, has {m['available_height_pt']}"
        elif not ok_w:
            row["overflow"] = f"needs {m['needed_width_pt']} pt of width, has {m['available_width_pt']}"
        judged.append(row)
    bad = [r for r in judged if not r["ok"]]
    evidence: dict[str, Any] = {"tolerance_pt": p.tolerance_pt, "judged": len(judged), "overflowing": bad[:50], "not_judged": not_judged[:50], "fitting_sample": [r for r in judged if r["ok"]][:10]}
    if not judged:
        return CheckResult(
            check=name,
            status="skipped",
            mechanism="geometric",
            explanation=f"no text of {p.target.describe()} could be judged" + (f" ({not_judged[0]['reason']})" if not_judged else " (no text)"),
            evidence=evidence,
        )
    passes = len(judged) - len(bad)
    passed = not bad if p.quantifier == "all" else passes > 0
    if bad:
        first = bad[0]
        explanation = f"{len(bad)} of {len(judged)} text node(s) do not fit, e.g. {first['id']} ({first['overflow']}): {first['text']!r}"
    else:
        explanation = f"all {len(judged)} text node(s) of {p.target.describe()} fit their cell or shape"
    if not_judged:
        explanation += f"; {len(not_judged)} not judged"
    by_autofit = [r for r in judged if r["ok"] and "row_autofit" in r]
    if by_autofit:
        first = by_autofit[0]["row_autofit"]
        explanation += (
            f"; {len(by_autofit)} cell(s) fit only in a row the file gives no height, as Excel sizes it on opening"
            f" (e.g. row {first['row']}: {first['height_pt']:g} pt); LibreOffice draws such rows"
            f" {first['drawn_height_pt']:g} pt high, with the text running over the rows beside it"
        )
    if any(r.get("autofit_known") is False for r in bad):
        explanation += "; autofit was not recorded for some shapes (text PowerPoint shrinks to fit would show)"
    return result(name, passed=passed, score=passes / len(judged), explanation=explanation, evidence=evidence)
