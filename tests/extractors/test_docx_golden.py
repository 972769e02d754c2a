"""Golden snapshots of .docx extraction: the tree without rendering (stable across
machines), and the rendered boxes rounded to whole points. Regenerate with
``ARTIFACTCHECK_REGEN_GOLDEN=1`` and review the diff."""

from __future__ import annotations

from typing import Any

import pytest

from artifactcheck.extractors.docx.extract import extract_docx
from artifactcheck.model import Document, Node
from tests.conftest import CORPUS, FIXTURES
from tests.golden import assert_matches_golden

DOCX = FIXTURES / "docx"


def tree_snapshot(doc: Document) -> dict[str, Any]:
    def node(n: Node) -> dict[str, Any]:
        out: dict[str, Any] = {"id": n.id, "kind": n.kind}
        if n.text and not n.children:
            out["text"] = n.text
        if n.style is not None:
            out["style"] = n.style.model_dump(exclude_none=True)
        if n.attrs:
            out["attrs"] = n.attrs
        if n.children:
            out["children"] = [node(c) for c in n.children]
        return out

    return {
        "root": node(doc.root),
        "blobs": {
            sha: {"mime": b.mime, "width_px": b.width_px, "height_px": b.height_px}
            for sha, b in sorted(doc.blobs.items())
        },
        "warnings": doc.warnings,
    }


def box_snapshot(doc: Document) -> dict[str, Any]:
    return {
        "pages": [[p.index, round(p.width), round(p.height)] for p in doc.pages],
        "boxes": {
            n.id: [
                [b.page, round(b.x0), round(b.top), round(b.x1), round(b.bottom)] for b in n.boxes
            ]
            for n in doc
            if n.boxes and n.kind != "run"
        },
    }


@pytest.mark.parametrize("name", ["layout_pages", "layout_flow", "tree_features"])
def test_fixture_tree_golden(name: str) -> None:
    assert_matches_golden(
        f"docx_{name}_tree", tree_snapshot(extract_docx(DOCX / f"{name}.docx", render=False))
    )


@pytest.mark.parametrize(
    "name", ["tika_testWORD_2006ml", "docx2python_run_styles", "docling_word_tables"]
)
def test_corpus_tree_golden(name: str) -> None:
    path = CORPUS / "docx" / f"{name}.docx"
    if not path.is_file():
        pytest.skip("corpus absent")
    assert_matches_golden(f"docx_{name}_tree", tree_snapshot(extract_docx(path, render=False)))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["layout_pages", "layout_flow"])
def test_fixture_boxes_golden(name: str) -> None:
    assert_matches_golden(f"docx_{name}_boxes", box_snapshot(extract_docx(DOCX / f"{name}.docx")))
