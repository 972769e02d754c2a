"""The HTML report: one self-contained file (inline CSS, images as data: URIs, no network)
with the verdict and score up top, the scored rubric tree with every explanation, and each
page/slide drawn as an SVG with the evidence boxes on it.

Geometry: each page is an ``<svg viewBox="0 0 W H">`` in points (origin top-left, y
down — the tree's own space), so an evidence box is drawn with its coordinates unchanged:
``<rect x=x0 y=top width=x1-x0 height=bottom-top>``. The rendered page image, when there
is one, is an ``<image>`` stretched over the same viewBox. Regions checked are dashed
blue; boxes found are green where they passed and red where they failed.

Page images come from the renderer (``artifactcheck.extractors.render.images``) for
documents and slide decks when the rendered page count and sizes match the report's
pages; otherwise (sheets, no LibreOffice) the page is a blank canvas of its size.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..model import Document, Node
from .console import one_line
from .evidence_boxes import EvidenceBox, evidence_boxes
from .json_writer import write_text_atomic
from .markers import PlacedMarker, place_markers
from .model import Report, ScoredNode, StepReport

MAX_PAGE_WIDTH_PX = 820
_DRAW_ORDER = {"region": 0, "neutral": 1, "pass": 2, "fail": 3}
PAGE_IMAGE_DPI = 96
MAX_PAGES_DRAWN = 60
MAX_DETAILS_CHARS = 20_000
SIZE_TOLERANCE_PT = 2.0

_CSS = """
:root{--pass:#15803d;--fail:#dc2626;--region:#2563eb;--neutral:#7c3aed;--muted:#6b7280}
*{box-sizing:border-box}body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#111;background:#f8fafc}
header{padding:18px 24px;background:#fff;border-bottom:1px solid #e5e7eb}
h1{font-size:20px;margin:0 0 6px}h2{font-size:16px;margin:22px 24px 8px}
.verdict{display:inline-block;padding:3px 12px;border-radius:4px;color:#fff;font-weight:700;margin-right:10px}
.v-PASS{background:var(--pass)}.v-PARTIAL{background:#d97706}.v-FAIL{background:var(--fail)}
.meta{color:var(--muted);font-size:12px}
table.steps{border-collapse:collapse;margin:0 24px;background:#fff;width:calc(100% - 48px)}
.steps td,.steps th{border-bottom:1px solid #e5e7eb;padding:5px 8px;text-align:left;vertical-align:top}
.steps th{background:#f1f5f9;font-size:12px}
.st{font-weight:600}.st-pass{color:var(--pass)}.st-fail{color:var(--fail)}.st-error{color:var(--neutral)}.st-skipped{color:#b45309}
tr.inner td{background:#f8fafc;font-weight:600}
details pre{white-space:pre-wrap;max-height:320px;overflow:auto;background:#f1f5f9;padding:6px;font-size:11px}
.pages{display:flex;flex-wrap:wrap;gap:18px;margin:0 24px 30px}
figure{margin:0;background:#fff;border:1px solid #d1d5db;padding:6px}
figcaption{font-size:12px;color:var(--muted);margin-bottom:4px}
svg.page{display:block;background:#fff;margin:16px;flex:none}
rect.ev{fill-opacity:.12;stroke-width:3;vector-effect:non-scaling-stroke}
rect.tone-pass{stroke:var(--pass);fill:var(--pass)}rect.tone-fail{stroke:var(--fail);fill:var(--fail)}
rect.tone-neutral{stroke:var(--neutral);fill:var(--neutral)}
rect.tone-region{stroke:var(--region);fill:none;stroke-dasharray:8 5;stroke-width:2}
rect.ev:hover{fill-opacity:.3}
text.wire{font-family:'Liberation Sans',Arial,sans-serif}
rect.whole{fill:none;stroke-width:4}rect.tone-missing{stroke:var(--fail);fill:none;stroke-dasharray:8 5;stroke-width:2}
g.marker circle{stroke:#fff;stroke-width:1.5px;vector-effect:non-scaling-stroke}
g.marker text{fill:#fff;font-family:system-ui,sans-serif;font-weight:700}
g.tone-pass circle{fill:var(--pass)}g.tone-fail circle,g.tone-missing circle{fill:var(--fail)}
g.tone-neutral circle{fill:var(--neutral)}g.tone-region circle{fill:var(--region)}
line.leader{stroke:#334155;stroke-width:1px;vector-effect:non-scaling-stroke;stroke-dasharray:2 2}
.sheet-and-marks{display:flex;gap:12px;align-items:flex-start}
ol.marks{list-style:none;margin:0;padding:0;max-width:340px;font-size:12px}ol.marks li{margin:0 0 6px}
.num{display:inline-block;min-width:18px;height:18px;border-radius:9px;color:#fff;font-weight:700;font-size:11px;text-align:center;line-height:18px;margin-right:6px;padding:0 3px}
.num.tone-pass{background:var(--pass)}.num.tone-fail,.num.tone-missing{background:var(--fail)}.num.tone-neutral{background:var(--neutral)}.num.tone-region{background:var(--region)}
.num.plain{background:#64748b}
div.missing{margin:0 24px 14px;padding:10px 12px;background:#fef2f2;border:1px solid #fecaca;border-radius:4px}div.missing ol{margin-top:8px}
.legend span{margin-right:14px}.sw{display:inline-block;width:12px;height:12px;border:3px solid;vertical-align:-2px;margin-right:4px}
"""

# Records where the browser drew each evidence box and marker (client pixels), so a headless-browser
# test can compare it with the report's coordinates; harmless for people.
_SCRIPT = """
addEventListener('load',()=>{for(const r of document.querySelectorAll('rect.ev, g.marker')){
const b=r.getBoundingClientRect();r.setAttribute('data-client',[b.left,b.top,b.width,b.height].map(v=>v.toFixed(2)).join(','))}
document.body.setAttribute('data-laid-out','1')});
"""


def write_report_html(
    report: Report,
    path: str | Path,
    *,
    artifact: str | Path | None = None,
    page_images: Sequence[bytes] | None = None,
    document: Document | None = None,
) -> Path:
    """Write the HTML report. ``page_images`` are PNG bytes per page; when None and
    ``artifact`` is given, pages are rendered from it (see module docstring). Pages
    without an image show a wireframe of the tree (``document``, or ``artifact`` loaded
    again): every cell, paragraph and picture outlined with its text."""
    page = report_html_page(report, artifact=artifact, page_images=page_images, document=document)
    return write_text_atomic(Path(path), page)


def report_html_page(
    report: Report,
    *,
    artifact: str | Path | None = None,
    page_images: Sequence[bytes] | None = None,
    document: Document | None = None,
) -> str:
    """The page :func:`write_report_html` writes, as text (batch workers make it; the
    batch coordinator writes it)."""
    images = list(page_images) if page_images is not None else _render_page_images(report, artifact)
    wireframes: dict[int, str] = {}
    with_image = {i for i, png in enumerate(images) if png}
    if any(i not in with_image for i in pages_to_draw(report)):
        doc = document if document is not None else _load_quietly(artifact)
        if doc is not None:
            wireframes = page_wireframes(doc, skip=with_image)
    return report_html(report, images, wireframes)


def report_html(report: Report, page_images: Sequence[bytes] | None = None, wireframes: dict[int, str] | None = None) -> str:
    boxes = [b for step in report.steps for b in evidence_boxes(step)]
    title = f"{report.task}: {report.verdict} {report.score:.3f}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>",
        _header(report),
        "<h2>Steps</h2>",
        _steps_table(report),
        "<h2>Pages with evidence</h2>",
        _LEGEND,
        _pages(report, boxes, page_images or [], wireframes or {}),
        f"<script>{_SCRIPT}</script>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


_LEGEND = (
    '<p class="legend" style="margin:0 24px 8px">'
    '<span><i class="sw" style="border-color:var(--region);border-style:dashed"></i>region checked</span>'
    '<span><i class="sw" style="border-color:var(--pass)"></i>found, passed</span>'
    '<span><i class="sw" style="border-color:var(--fail)"></i>found, failed</span>'
    '<span><i class="sw" style="border-color:var(--neutral)"></i>not decided</span>'
    '<span><i class="sw" style="border-color:var(--fail);border-style:dashed"></i>missing (nothing found)</span>'
    '<span class="meta">numbers are the step numbers of the table above</span></p>'
)


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _header(report: Report) -> str:
    c = report.counts
    a = report.artifact
    tools = ", ".join(f"{t.name} {t.version}" for t in report.tools)
    problems = f'<p class="st st-fail">artifact could not be loaded: {_e(report.artifact_error)}</p>' if report.artifact_error else ""
    return (
        f'<header><h1><span class="verdict v-{report.verdict}" id="verdict">{report.verdict}</span>'
        f'score <span id="score">{report.score:.3f}</span> · {_e(report.task)}</h1>'
        f"<div>requirements met {report.requirements_met}/{report.requirements_total} · failed {c.failed} · "
        f"needs trace {c.needs_trace} · evaluator errors {c.error} · skipped {c.skipped}"
        f"{'' if report.complete else ' · <b>incomplete: some steps were not decided</b>'}</div>"
        f'<div class="meta">{_e(a.path or "")} · {_e(a.format or "?")}/{_e(a.platform or "?")} · sha256 {_e((a.sha256 or "")[:16])}… · {_e(tools)}</div>'
        f"{problems}</header>"
    )


def _steps_table(report: Report) -> str:
    steps = {s.id: s for s in report.steps}
    numbers = step_numbers(report)
    rows = [
        (
            '<table class="steps"><thead><tr><th>step</th><th>status</th><th>outcome</th><th>mechanism</th>'
            "<th>score</th><th>weight</th><th>explanation</th></tr></thead><tbody>"
        )
    ]

    def visit(node: ScoredNode, depth: int) -> None:
        pad = f"padding-left:{8 + 18 * depth}px"
        crit = " <b title='critical'>*</b>" if node.critical else ""
        desc = f"<div class='meta'>{_e(node.description)}</div>" if node.description else ""
        if node.check is None:
            agg = f"{node.aggregation}/{node.strategy}"
            rows.append(
                f'<tr class="inner" id="node-{_e(node.id)}"><td style="{pad}">{_e(node.id)}{crit}{desc}</td>'
                f'<td class="st st-{node.status}">{node.status}</td><td>{node.outcome}</td><td>{_e(agg)}</td>'
                f"<td>{node.score:.3f}</td><td>{node.weight:g}</td><td>{_e(node.explanation)}</td></tr>"
            )
            for child in node.children:
                visit(child, depth + 1)
            return
        step = steps[node.id]
        score = "—" if step.score is None else f"{step.score:.3f}"
        details = json.dumps({"params": step.params, "evidence": step.evidence, "error": step.error}, indent=1, ensure_ascii=False)
        if len(details) > MAX_DETAILS_CHARS:  # the JSON report has it all
            details = details[:MAX_DETAILS_CHARS] + f"\n… ({len(details) - MAX_DETAILS_CHARS} more characters in the JSON report)"
        rows.append(
            f'<tr class="leaf" id="step-{_e(step.id)}" data-status="{step.status}"><td style="{pad}"><span class="num plain">{numbers[step.id]}</span>{_e(step.id)}{crit}{desc}'
            f"<div class='meta'>{_e(step.check)} · {_e(step.step_type or '')}</div></td>"
            f'<td class="st st-{step.status}">{step.status}</td><td>{step.outcome}</td><td>{step.mechanism}</td>'
            f"<td>{score}</td><td>{step.weight:g}</td><td>{_e(step.explanation)}"
            f"<details><summary>evidence</summary><pre>{_e(details)}</pre></details></td></tr>"
        )

    for child in report.tree.children:
        visit(child, 0)
    rows.append("</tbody></table>")
    return "".join(rows)


def pages_to_draw(report: Report) -> list[int]:
    """Page indexes the HTML shows: all of a short document; of a long one, the pages
    that carry evidence plus the first and last (at most MAX_PAGES_DRAWN)."""
    count = len(report.pages)
    if count <= 6:
        return list(range(count))
    with_evidence = {b.page for step in report.steps for b in evidence_boxes(step)}
    return sorted(p for p in {0, count - 1} | with_evidence if 0 <= p < count)[:MAX_PAGES_DRAWN]


MARKER_RADIUS_PX = 9.0
WHOLE_PAGE_SHARE = 0.9
"""A box covering this share of the page's area (or more) is outlined, never filled: a
filled whole-page box would tint the page and hide what is on it."""
_TONE_RANK = {"fail": 3, "missing": 3, "pass": 2, "neutral": 1, "region": 0}


def step_numbers(report: Report) -> dict[str, int]:
    """Step id -> its 1-based number: the steps table, the page markers and the lists
    beside the pages all use it."""
    return {step.id: i for i, step in enumerate(report.steps, start=1)}


def missing_steps(report: Report, boxes: list[EvidenceBox]) -> list[str]:
    """Failed steps with nothing found to draw: what they looked for is missing (a region
    checked may still be drawn, marked missing)."""
    found = {b.step_id for b in boxes if b.role == "found"}
    return [s.id for s in report.steps if s.status == "fail" and s.id not in found]


def _pages(report: Report, boxes: list[EvidenceBox], images: Sequence[bytes], wireframes: dict[int, str]) -> str:
    numbers = step_numbers(report)
    steps = {s.id: s for s in report.steps}
    missing = set(missing_steps(report, boxes))
    drawn_pages = pages_to_draw(report)
    out = [_not_on_a_page(report, boxes, missing, numbers, set(drawn_pages))]
    out.append('<div class="pages">')
    pages = [report.pages[i] for i in drawn_pages]
    for page in pages:
        # regions underneath, then passes, failures on top: a failed box is never hidden
        # under a passing box of another step at the same place (the misplaced logo that
        # is nonetheless the right logo stays red)
        on_page = sorted((b for b in boxes if b.page == page.index), key=lambda b: _DRAW_ORDER[b.tone])
        w, h = page.width, page.height
        scale = min(2.0, MAX_PAGE_WIDTH_PX / w) if w > 0 else 1.0
        name = f"{page.kind} {page.index + 1}" + (f" — {page.name}" if page.name else "")
        svg = [
            (
                f'<svg class="page" id="page-{page.index}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w:g} {h:g}" '
                f'width="{w * scale:.2f}" height="{h * scale:.2f}" data-scale="{scale:.6f}" preserveAspectRatio="none" overflow="visible">'
            )
        ]
        if page.index < len(images) and images[page.index]:
            data = base64.b64encode(images[page.index]).decode("ascii")
            svg.append(f'<image href="data:image/png;base64,{data}" x="0" y="0" width="{w:g}" height="{h:g}" preserveAspectRatio="none"/>')
        else:
            svg.append(f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#ffffff" stroke="#d1d5db"/>')
            svg.append(wireframes.get(page.index, ""))
        page_area = max(w * h, 1e-9)
        for b in on_page:
            whole = (b.x1 - b.x0) * (b.bottom - b.top) >= WHOLE_PAGE_SHARE * page_area
            tone: str = "missing" if b.role == "region" and b.step_id in missing else b.tone
            svg.append(
                f'<rect class="ev tone-{tone} role-{b.role}{" whole" if whole else ""}" data-step="{_e(b.step_id)}" data-page="{b.page}" '
                f'x="{b.x0:g}" y="{b.top:g}" width="{b.x1 - b.x0:g}" height="{b.bottom - b.top:g}">'
                f"<title>{numbers.get(b.step_id, '?')} {_e(b.step_id)}: {_e(b.label)} ({b.x0:g}, {b.top:g})–({b.x1:g}, {b.bottom:g}) pt</title></rect>"
            )
        marks = _page_marks(on_page, numbers, missing)
        placed = place_markers(
            [(numbers[step_id], ax, ay) for step_id, (_, ax, ay) in marks.items()],
            radius=MARKER_RADIUS_PX / scale, width=w, height=h,
        )
        items = []
        for (step_id, (tone, _, _)), marker in zip(marks.items(), placed, strict=True):
            svg.append(_marker_svg(marker, step_id, tone, scale))
            items.append(_mark_item(steps[step_id], marker.number, tone, page.index))
        svg.append("</svg>")
        listing = f'<ol class="marks" id="marks-{page.index}">{"".join(items)}</ol>' if items else ""
        out.append(
            f'<figure><figcaption>{_e(name)} · {w:g}×{h:g} pt</figcaption>'
            f'<div class="sheet-and-marks">{"".join(svg)}{listing}</div></figure>'
        )
    if not pages:
        out.append("<p class='meta'>No pages: the artifact could not be loaded.</p>")
    out.append("</div>")
    return "".join(out)


def _page_marks(on_page: list[EvidenceBox], numbers: dict[str, int], missing: set[str]) -> dict[str, tuple[str, float, float]]:
    """Step id -> (tone, corner x, corner y) of the one marker each step on the page gets:
    at its first failed box, else its first box found, else its first region (a failed
    step with only a region is *missing* there). In step order."""
    marks: dict[str, tuple[str, float, float]] = {}
    by_step: dict[str, list[EvidenceBox]] = {}
    for b in on_page:
        by_step.setdefault(b.step_id, []).append(b)
    for step_id in sorted(by_step, key=lambda i: numbers.get(i, 0)):
        found = [b for b in by_step[step_id] if b.role == "found"]
        if found:
            worst = max(_TONE_RANK[b.tone] for b in found)
            anchor = next(b for b in found if _TONE_RANK[b.tone] == worst)  # the first of the worst
            tone: str = anchor.tone
        else:
            anchor = by_step[step_id][0]
            tone = "missing" if step_id in missing else "region"
        marks[step_id] = (tone, anchor.x0, anchor.top)
    return marks


def _marker_svg(marker: PlacedMarker, step_id: str, tone: str, scale: float) -> str:
    r = MARKER_RADIUS_PX / scale
    leader = (
        f'<line x1="{marker.x:g}" y1="{marker.y:g}" x2="{marker.anchor_x:g}" y2="{marker.anchor_y + r * 1.1:g}" class="leader tone-{tone}"/>'
        if marker.displaced
        else ""
    )
    return (
        f'{leader}<g class="marker tone-{tone}" data-step="{_e(step_id)}" data-number="{marker.number}">'
        f'<circle cx="{marker.x:g}" cy="{marker.y:g}" r="{r:g}"/>'
        f'<text x="{marker.x:g}" y="{marker.y:g}" font-size="{11 / scale:.2f}" text-anchor="middle" dominant-baseline="central">{marker.number}</text></g>'
    )


def _mark_item(step: StepReport, number: int, tone: str, page: int) -> str:
    what = "missing: nothing found in the region checked" if tone == "missing" else step.status
    return (
        f'<li id="mark-{page}-{number}" class="tone-{tone}" data-step="{_e(step.id)}"><span class="num tone-{tone}">{number}</span>'
        f'<b>{_e(step.id)}</b> <span class="st st-{step.status}">{_e(what)}</span> '
        f'<span class="meta">{_e(one_line(step.explanation, 160))}</span></li>'
    )


def _not_on_a_page(report: Report, boxes: list[EvidenceBox], missing: set[str], numbers: dict[str, int], drawn: set[int]) -> str:
    """The failed steps that have nothing to draw on any page shown: what they looked for
    was not found (or not where it was looked for), said in words instead of nothing."""
    on_shown_pages = {b.step_id for b in boxes if b.page in drawn}
    rows = [
        f'<li class="tone-missing" data-step="{_e(s.id)}"><span class="num tone-missing">{numbers[s.id]}</span>'
        f'<b>{_e(s.id)}</b> <span class="st st-fail">missing</span> <span class="meta">{_e(one_line(s.explanation, 200))}</span></li>'
        for s in report.steps
        if s.id in missing and s.id not in on_shown_pages
    ]
    if not rows:
        return ""
    return (
        '<div class="missing" id="missing"><b>Not found on any page</b> — failed steps with nothing to point at:'
        f'<ol class="marks">{"".join(rows)}</ol></div>'
    )


WIREFRAME_KINDS = ("cell", "paragraph", "image", "shape", "textbox", "chart")
MAX_WIREFRAME_NODES = 3000


def page_wireframes(doc: Document, *, skip: set[int] | None = None) -> dict[int, str]:
    """SVG fragments per page outlining the tree's drawn nodes (points, page space):
    cells and paragraphs with their text, pictures and shapes as grey boxes. Used when
    there is no rendered page image (sheets, no LibreOffice)."""
    out: dict[int, list[str]] = {}
    count = 0
    for node in doc.iter():
        if node.kind not in WIREFRAME_KINDS or count >= MAX_WIREFRAME_NODES:
            continue
        if node.kind == "paragraph" and node.parent is not None and node.parent.kind == "cell":
            continue  # the cell carries the text
        for box in node.boxes:
            if skip and box.page in skip:
                continue
            count += 1
            parts = out.setdefault(box.page, [])
            fill = "#f1f5f9" if node.kind in ("image", "chart") else "none"
            if node.style is not None and (node.style.fill or node.style.highlight):
                fill = node.style.fill or node.style.highlight or fill  # cell fills show (highlighted rows)
            parts.append(
                f'<rect class="wire" x="{box.x0:g}" y="{box.top:g}" width="{box.width:g}" height="{box.height:g}" '
                f'fill="{fill}" stroke="#cbd5e1" stroke-width="0.5"/>'
            )
            text = (node.text or ("[" + node.kind + "]" if node.kind in ("image", "chart") else "")).strip()
            if text:
                size = max(4.0, min(box.height * 0.7, 10.0))
                first = text.splitlines()[0][:120]
                left, right = _text_extent(node, box.x0, box.x1)
                # a nested <svg> clips the text to what a reader sees of it: its cell, or the
                # empty neighbours it spills into (clipped text would otherwise run over
                # the next cells' labels)
                parts.append(
                    f'<svg class="wire-clip" x="{left:g}" y="{box.top:g}" width="{max(right - left, 0):g}" height="{box.height:g}" overflow="hidden">'
                    f'<text class="wire" x="{box.x0 - left + 1.5:g}" y="{min(box.height, size * 1.2) - 1:g}" '
                    f'font-size="{size:.1f}" fill="#475569">{_e(first)}</text></svg>'
                )
    return {page: "".join(parts) for page, parts in out.items()}


def _text_extent(node: Node, x0: float, x1: float) -> tuple[float, float]:
    """Left and right x of a node's visible text: its box, widened to where a sheet
    cell's text spills (``spill_to_x``, either side)."""
    spill = node.attrs.get("spill_to_x")
    if node.attrs.get("overflow") == "spills" and isinstance(spill, (int, float)):
        return min(x0, float(spill)), max(x1, float(spill))
    return x0, x1


def _load_quietly(artifact: str | Path | None) -> Document | None:
    if artifact is None:
        return None
    try:
        from ..loading import load

        return load(artifact)
    except Exception:  # noqa: BLE001 - the report is written without a wireframe
        return None


def _render_page_images(report: Report, artifact: str | Path | None) -> list[bytes]:
    """PNG bytes per page from the renderer, or [] when pages cannot be matched (sheets,
    a page count or size that differs from the report's, no renderer installed)."""
    if artifact is None or not report.pages or report.artifact.format not in ("docx", "pptx"):
        return []
    try:
        with open(artifact, "rb") as handle:
            if handle.read(4) != b"PK\x03\x04":
                return []  # a saved tree or API response: there is nothing to render
        from ..extractors.render.images import page_images

        wanted = set(pages_to_draw(report))
        rendered: list[bytes] = []
        for index, image in enumerate(page_images(Path(artifact), dpi=PAGE_IMAGE_DPI)):
            if index >= len(report.pages) or index > max(wanted, default=-1):
                break
            if index not in wanted:
                rendered.append(b"")  # not drawn: no need to encode it
                continue
            page = report.pages[index]
            expected = (page.width * PAGE_IMAGE_DPI / 72, page.height * PAGE_IMAGE_DPI / 72)
            if abs(image.width - expected[0]) > SIZE_TOLERANCE_PT * 2 or abs(image.height - expected[1]) > SIZE_TOLERANCE_PT * 2:
                return []  # the rendered page is not the page the boxes live on
            buffer = io.BytesIO()
            image.save(buffer, format="PNG", optimize=True)
            rendered.append(buffer.getvalue())
        return rendered
    except Exception:  # noqa: BLE001 - no renderer: the blank canvas still shows the evidence
        return []
