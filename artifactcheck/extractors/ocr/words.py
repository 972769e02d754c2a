"""OCR words as tree nodes: what tesseract reads on a page image, in the shape a PDF's
text layer has (``paragraph`` → ``line`` → ``run``, one run per word), every box with
``origin="ocr"`` in page points.

Grouping is tesseract's own: its block and paragraph numbers make a ``paragraph``, its
line numbers a ``line`` (``OcrWord.line`` is ``"block.par.line"``). Each run carries the
word's confidence (0-100) in ``attrs["ocr_conf"]``. Words tesseract returns with
confidence -1 (layout rows, not words) never reach here: ``OcrEngine`` drops empty text.
"""

from __future__ import annotations

from itertools import groupby

from ...model import Box, Node, union_all
from .engine import OcrResult, OcrWord

__all__ = ["ocr_nodes"]


def ocr_nodes(result: OcrResult, *, page: int, page_width: float, page_height: float, prefix: str) -> list[Node]:
    """Paragraph nodes for the words of ``result`` (an OCR of the whole page ``page``,
    whose size in points is ``page_width`` x ``page_height``). Ids are
    ``{prefix}/o{paragraph}/l{line}/w{word}``."""
    sx = page_width / max(1, result.width_px)
    sy = page_height / max(1, result.height_px)
    out: list[Node] = []

    def paragraph_of(word: OcrWord) -> str:
        return word.line.rsplit(".", 1)[0]

    for p, (_, para_words) in enumerate(groupby(result.words, key=paragraph_of)):
        pid = f"{prefix}/o{p}"
        lines: list[Node] = []
        for li, (_, line_words) in enumerate(groupby(para_words, key=lambda w: w.line)):
            lid = f"{pid}/l{li}"
            runs = [
                Node(
                    id=f"{lid}/w{wi}",
                    kind="run",
                    text=w.text,
                    boxes=[_box(w, page, sx, sy)],
                    attrs={"ocr_conf": round(w.conf, 1)},
                )
                for wi, w in enumerate(line_words)
            ]
            lines.append(Node(id=lid, kind="line", text=" ".join(r.text for r in runs), boxes=union_all([r.boxes[0] for r in runs]), children=runs))
        out.append(
            Node(
                id=pid,
                kind="paragraph",
                text=" ".join(n.text for n in lines),
                boxes=union_all([n.boxes[0] for n in lines]),
                attrs={"lines": len(lines), "ocr": True},
                children=lines,
            )
        )
    return out


def _box(word: OcrWord, page: int, sx: float, sy: float) -> Box:
    return Box(
        page=page,
        x0=word.left * sx,
        top=word.top * sy,
        x1=(word.left + word.width) * sx,
        bottom=(word.top + word.height) * sy,
        origin="ocr",
    )
